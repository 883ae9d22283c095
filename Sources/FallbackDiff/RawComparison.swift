import FallbackAudit
import Foundation
import RovenueFallback

/// One step of a field path: a member, an element by position, or an element matched by one of its fields.
enum PathStep: Hashable {
    case member(String)
    case element(Int)
    case matched(field: String, value: String)

    /// A field path as a change shows it: `theme.colors.primary`, `pages[0]`, `options[value="morning"].label`.
    static func text(_ path: [PathStep]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .member(let key):
                if isPlainName(key) {
                    text += text.isEmpty ? key : "." + key
                } else {
                    text += "[\(JSONValue.quoted(key))]"
                }
            case .element(let index):
                text += "[\(index)]"
            case .matched(let field, let value):
                text += "[\(field)=\(JSONValue.quoted(value))]"
            }
        }
        return text
    }

    /// A member step named by a field of the schema: `.member(Page.Field.options)`.
    static func member<Field: SchemaField>(_ field: Field) -> PathStep {
        .member(field.rawValue)
    }

    /// An element matched by a field of the schema: `.matched(field: NextRule.Field.id, value: id)`.
    static func matched<Field: SchemaField>(field: Field, value: String) -> PathStep {
        .matched(field: field.rawValue, value: value)
    }

    private static func isPlainName(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "-")
            }
    }
}

/// A field of a decoded object as written: its name and value node.
struct WrittenField {
    let name: String
    let value: JSONDocument.Value
}

/// Comparisons of written JSON that ignore what the SDK ignores: member order, and a number's
/// spelling when its value and integer-ness are the same.
enum RawComparison {
    /// The fields of a decoded value as written, in order of first appearance, each with its last
    /// value (as the decoder reads them): object members, or the array quirk's elements by position.
    /// Fields written as `null` are left out: for the decoder, `null` and absent are the same.
    static func fields<T: SourceBacked>(of value: T, in document: JSONDocument) -> [WrittenField] {
        let container = document.value(at: value.source.node)
        switch container.kind {
        case .object:
            return members(of: container).filter { $0.value.kind != .null }
        case .array:
            return zip(T.Field.allCases, container.elements).compactMap { field, element in
                element.kind == .null ? nil : WrittenField(name: field.rawValue, value: element)
            }
        default:
            return []
        }
    }

    /// An object's members in order of first appearance, each with its last value.
    static func members(of object: JSONDocument.Value) -> [WrittenField] {
        let members = object.uniqueMembers
        return zip(members.keys, members.values).map { WrittenField(name: $0, value: $1) }
    }

    /// True when two written values mean the same: the same bytes, or the same content
    /// (`JSONDocument.Value.hasSameContent(as:)`, the definition the content fingerprint shares).
    static func same(_ old: JSONDocument.Value, _ new: JSONDocument.Value) -> Bool {
        sameText(old, new) || old.hasSameContent(as: new)
    }

    /// True when two written values are the same bytes.
    static func sameText(_ old: JSONDocument.Value, _ new: JSONDocument.Value) -> Bool {
        let oldRange = old.byteRange
        let newRange = new.byteRange
        guard oldRange.count == newRange.count else { return false }
        guard !oldRange.isEmpty else { return true }
        return old.document.bytes.withUnsafeBufferPointer { oldBytes in
            new.document.bytes.withUnsafeBufferPointer { newBytes in
                memcmp(oldBytes.baseAddress! + oldRange.lowerBound, newBytes.baseAddress! + newRange.lowerBound, oldRange.count) == 0
            }
        }
    }

    /// A value as compact JSON, shortened past `limit` characters.
    static func text(_ value: JSONValue, limit: Int = 120) -> String {
        let text = value.jsonText()
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// A written value as its owned copy's compact JSON, shortened past `limit` characters; at any
    /// depth, and only written as far as the cut.
    static func text(_ value: JSONDocument.Value, limit: Int = 120) -> String {
        value.jsonText(shortenedTo: limit)
    }

    /// Arrays whose elements are matched by a field rather than by position.
    static let keyedArrays: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            (Funnel.Field.pages.rawValue, Page.Field.id.rawValue), (Page.Field.options.rawValue, PageOption.Field.value.rawValue),
            (Page.Field.nextRules.rawValue, NextRule.Field.id.rawValue),
            (Offering.Field.packages.rawValue, Package.Field.packageIdentifier.rawValue),
            (Experiment.Field.variants.rawValue, Variant.Field.variantId.rawValue),
            (Condition.Field.clauses.rawValue, Clause.Field.questionId.rawValue),
        ])
}

/// One value that differs between two written values, with the nearest node on each side.
struct ValueDifference {
    let path: [PathStep]
    let old: JSONDocument.Value?
    let new: JSONDocument.Value?
    /// The old value's node, or its nearest written ancestor's.
    let oldAnchor: Int
    let newAnchor: Int
}

/// Finds the values that differ between two written values, as deep as both sides have the same shape.
///
/// Recurses once per level: it only compares values inside `placements`, which the contract's §2
/// rule 4 limits to 127 levels in a file that loads. It counts every difference but keeps only the
/// first `keptLimit`, each with its path: the callers read a few, and a wide value deep in a chain
/// can differ in hundreds of thousands of places, each path as deep as the chain.
struct DifferenceSearch {
    /// The first `keptLimit` differences found, in order.
    private(set) var differences: [ValueDifference] = []
    /// Every difference found, kept or not.
    private(set) var count = 0
    let keptLimit: Int
    /// The path of the values being compared: grown and shrunk a step at a time, copied only into a
    /// kept difference.
    private var path: [PathStep] = []

    init(keeping keptLimit: Int) {
        self.keptLimit = keptLimit
    }

    /// Compares `old` with `new`, found at `path`, adding what differs to `count` and, within
    /// `keptLimit`, to `differences` (a search used again adds to what it found before).
    mutating func compare(
        _ old: JSONDocument.Value?, _ new: JSONDocument.Value?, path: [PathStep], arrayKey: String? = nil, oldAnchor: Int,
        newAnchor: Int
    ) {
        self.path = path
        compare(old, new, arrayKey: arrayKey, oldAnchor: oldAnchor, newAnchor: newAnchor)
    }

    private mutating func compare(
        _ old: JSONDocument.Value?, _ new: JSONDocument.Value?, arrayKey: String?, oldAnchor: Int, newAnchor: Int
    ) {
        let oldAnchor = old?.index ?? oldAnchor
        let newAnchor = new?.index ?? newAnchor
        guard let old, let new else {
            if old != nil || new != nil { add(old, new, oldAnchor, newAnchor) }
            return
        }
        // Two containers are compared by their bytes only: when those differ, the walk below finds
        // whether their content does, visiting each pair of values once. Asking for the same
        // content here too read a whole subtree again at each level of a chain above a difference.
        switch (old.kind, new.kind) {
        case (.object, .object), (.array, .array), (.object, .array), (.array, .object):
            if RawComparison.sameText(old, new) { return }
        default:
            if RawComparison.same(old, new) { return }
        }
        switch (old.kind, new.kind) {
        case (.object, .object):
            let oldMembers = RawComparison.members(of: old)
            let newMembers = RawComparison.members(of: new)
            var oldByName: [ExactKey: JSONDocument.Value] = [:]
            for member in oldMembers { oldByName[ExactKey(member.name)] = member.value }
            var seen: Set<ExactKey> = []
            for member in newMembers {
                let key = ExactKey(member.name)
                seen.insert(key)
                path.append(.member(member.name))
                compare(
                    oldByName[key], member.value, arrayKey: RawComparison.keyedArrays[member.name], oldAnchor: oldAnchor,
                    newAnchor: newAnchor)
                path.removeLast()
            }
            for member in oldMembers where !seen.contains(ExactKey(member.name)) {
                path.append(.member(member.name))
                compare(member.value, nil, arrayKey: nil, oldAnchor: oldAnchor, newAnchor: newAnchor)
                path.removeLast()
            }
        case (.array, .array):
            compareArrays(old, new, arrayKey: arrayKey)
        default:
            add(old, new, oldAnchor, newAnchor)
        }
    }

    private mutating func compareArrays(_ old: JSONDocument.Value, _ new: JSONDocument.Value, arrayKey: String?) {
        let oldElements = old.elements
        let newElements = new.elements
        if let arrayKey, let oldKeys = Self.keys(oldElements, arrayKey), let newKeys = Self.keys(newElements, arrayKey) {
            // Each side's keys are distinct, so an element is matched through the other side's
            // positions by key, not by searching its keys: thousands of packages or clauses on each
            // side made that search quadratic.
            let oldOrder = oldKeys.keys.filter { newKeys.positions[ExactKey($0)] != nil }
            let newOrder = newKeys.keys.filter { oldKeys.positions[ExactKey($0)] != nil }
            if !oldOrder.elementsEqual(newOrder, by: ExactKey.same) {
                add(old, new, old.index, new.index)
                return
            }
            for (index, key) in newKeys.keys.enumerated() {
                let oldIndex = oldKeys.positions[ExactKey(key)]
                path.append(.matched(field: arrayKey, value: key))
                compare(oldIndex.map { oldElements[$0] }, newElements[index], arrayKey: nil, oldAnchor: old.index, newAnchor: new.index)
                path.removeLast()
            }
            for (index, key) in oldKeys.keys.enumerated() where newKeys.positions[ExactKey(key)] == nil {
                path.append(.matched(field: arrayKey, value: key))
                compare(oldElements[index], nil, arrayKey: nil, oldAnchor: old.index, newAnchor: new.index)
                path.removeLast()
            }
            return
        }
        // Of the same length on both sides, the elements are compared by position: an element
        // with the same content gives no difference, so those at the ends need no check of their own.
        if oldElements.count == newElements.count {
            for (position, (oldElement, newElement)) in zip(oldElements, newElements).enumerated() {
                path.append(.element(position))
                compare(oldElement, newElement, arrayKey: nil, oldAnchor: old.index, newAnchor: new.index)
                path.removeLast()
            }
            return
        }
        // Otherwise elements equal at both ends are unchanged, and the middle is compared as added
        // and removed elements (or the array as a whole).
        var prefix = 0
        while prefix < oldElements.count, prefix < newElements.count, RawComparison.same(oldElements[prefix], newElements[prefix]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < oldElements.count - prefix, suffix < newElements.count - prefix,
            RawComparison.same(oldElements[oldElements.count - 1 - suffix], newElements[newElements.count - 1 - suffix])
        {
            suffix += 1
        }
        let oldMiddle = oldElements[prefix..<oldElements.count - suffix]
        let newMiddle = newElements[prefix..<newElements.count - suffix]
        if oldMiddle.isEmpty || newMiddle.isEmpty {
            for (offset, element) in oldMiddle.enumerated() {
                path.append(.element(prefix + offset))
                add(element, nil, element.index, new.index)
                path.removeLast()
            }
            for (offset, element) in newMiddle.enumerated() {
                path.append(.element(prefix + offset))
                add(nil, element, old.index, element.index)
                path.removeLast()
            }
        } else {
            add(old, new, old.index, new.index)
        }
    }

    /// The string value of `field` in every element, in order, and each one's position, when every
    /// element is an object that has one and no two share it.
    private static func keys(_ elements: [JSONDocument.Value], _ field: String) -> (keys: [String], positions: [ExactKey: Int])? {
        var keys: [String] = []
        var positions: [ExactKey: Int] = [:]
        for element in elements {
            guard element.kind == .object, let key = element[field]?.string,
                positions.updateValue(keys.count, forKey: ExactKey(key)) == nil
            else { return nil }
            // Room for every element once the first has a key (an array of other values under a
            // keyed array's name gives up at its first element).
            if keys.isEmpty {
                keys.reserveCapacity(elements.count)
                positions.reserveCapacity(elements.count)
            }
            keys.append(key)
        }
        return (keys, positions)
    }

    /// Counts a difference at the current path, and keeps it while fewer than `keptLimit` are kept.
    private mutating func add(_ old: JSONDocument.Value?, _ new: JSONDocument.Value?, _ oldAnchor: Int, _ newAnchor: Int) {
        count += 1
        guard differences.count < keptLimit else { return }
        differences.append(ValueDifference(path: path, old: old, new: new, oldAnchor: oldAnchor, newAnchor: newAnchor))
    }
}
