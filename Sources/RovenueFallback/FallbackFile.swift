/// What the SDK's loader makes of a fallback file, with every decision traced to the text.
///
/// This is the contract's §2 and §3 applied exactly: whether the whole load throws (and which rule
/// decided it), which entries load, which are skipped and why, and where every value sits.
///
/// A file is its `topLevel` (the parsed text and what §2 decides from the top level, with every
/// placement key) and the decoded `entries`. A caller that needs each entry only once, such as
/// `check`, can decode them from the top level a chunk at a time instead (`FallbackTopLevel.decodeEntry(at:)`),
/// so the typed model of every entry is never alive at once.
public struct FallbackFile: Sendable {
    /// The parsed text and everything the loader decides before it decodes an entry.
    public let topLevel: FallbackTopLevel
    /// Every distinct placement key in order of first appearance; empty when the file is rejected.
    public var entries: [EntryRecord] { decoded.records }
    /// Every array form of every entry, ordered by node, for `arrayForm(at:)`.
    private var arrayFormsByNode: [ArrayForm] { decoded.arrayFormsByNode }
    /// The records, shared by every copy of the file and let go on all cores with the last one.
    private let decoded: DecodedEntries

    /// The parsed text (after a stripped byte-order mark, if any).
    public var document: JSONDocument { topLevel.document }
    /// Why the SDK throws on this file; nil when it loads.
    public var rejection: FallbackRejection? { topLevel.rejection }
    /// The text started with a byte-order mark (U+FEFF).
    public var hasByteOrderMark: Bool { topLevel.hasByteOrderMark }
    /// The top level used the array quirk `[formatVersion, placements]`.
    public var usesArrayTopLevel: Bool { topLevel.usesArrayTopLevel }
    /// The value the SDK reads as `formatVersion`.
    public var formatVersion: JSONDocument.Value? { topLevel.formatVersion }
    /// The `placements` object, when present.
    public var placements: JSONDocument.Value? { topLevel.placements }
    /// The last `generatedAt` member of a top-level object (the loader ignores it).
    public var generatedAt: JSONDocument.Value? { topLevel.generatedAt }
    /// The last `projectId` member of a top-level object (the loader ignores it).
    public var projectId: JSONDocument.Value? { topLevel.projectId }

    /// Reads `bytes` as the SDK's string-based loaders do. With `strippingByteOrderMark`, a leading
    /// BOM is removed first, as Swift's file-URL convenience does.
    public init(bytes: [UInt8], strippingByteOrderMark: Bool = false) {
        self.init(topLevel: FallbackTopLevel(bytes: bytes, strippingByteOrderMark: strippingByteOrderMark))
    }

    /// Reads UTF-8 text.
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Decodes every entry of `topLevel`. Entries are independent, so they are decoded in parallel
    /// chunks, each record built in its place in file order.
    public init(topLevel: FallbackTopLevel) {
        self.topLevel = topLevel
        let records = ParallelChunks(count: topLevel.entryHeads.count, size: FallbackTopLevel.decodeChunkSize).mapIndices(
            context: { FallbackTopLevel.EntryDecoding(topLevel) }, { decoding, index in decoding.record(at: index) })
        decoded = DecodedEntries(records: records, arrayFormsByNode: FallbackFile.arrayFormsByNode(of: records))
    }

    /// The entries the SDK loads, in order of first appearance.
    public var loadedEntries: [(key: String, entry: FallbackEntry)] {
        entries.compactMap { record in record.entry.map { (record.key, $0) } }
    }

    /// The number the loader returns: distinct keys whose entry decoded (0 when it throws).
    public var loadedCount: Int { entries.count { $0.entry != nil } }

    /// The loader's outcome in words: `the SDK loads 5 of 6 entries; 1 skipped`, or
    /// `the SDK rejects this file (§2 rule 10: formatVersion is not the integer 1)`.
    public var verdict: String {
        topLevel.verdict(loadedCount: loadedCount, skippedCount: skippedCount)
    }

    /// The number of distinct keys whose entry the loader skips.
    public var skippedCount: Int { entries.count { $0.entry == nil } }

    // MARK: Locations

    /// A value's place in the snapshot: JSON Pointer, 1-based line and column.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// The RFC 6901 JSON Pointer of the value (`""` for the top level), as held: the locations
        /// under one long key can share its bytes (`JSONPointer`).
        public let jsonPointer: JSONPointer
        /// The 1-based line.
        public let line: Int
        /// The 1-based column, counting Unicode scalars.
        public let column: Int

        /// A location from its parts.
        public init(pointer: JSONPointer, line: Int, column: Int) {
            jsonPointer = pointer
            self.line = line
            self.column = column
        }

        /// A location from its parts, the pointer as text.
        public init(pointer: String, line: Int, column: Int) {
            self.init(pointer: JSONPointer(pointer), line: line, column: column)
        }

        /// The RFC 6901 JSON Pointer of the value (`""` for the top level), spelled out.
        public var pointer: String { jsonPointer.string }

        public var description: String { "\(line):\(column) \(jsonPointer)" }
    }

    /// Where the value at `ref` sits: its JSON Pointer, line and column.
    public func location(of ref: SourceRef) -> Location {
        topLevel.location(of: ref)
    }

    /// `location(of:)`, the pointer spelled by `pointers`: locations asked one after another
    /// under one long key share its bytes.
    package func location(of ref: SourceRef, pointers: inout JSONDocument.PointerSpeller) -> Location {
        topLevel.location(of: ref, pointers: &pointers)
    }

    /// The location of `field` in a decoded value: the field's own value when it is written (object
    /// or array quirk), else the value itself.
    ///
    /// `file.location(of: .revision, in: placement)`: the field must be one of the value's own struct.
    public func location<Value: SourceBacked>(of field: Value.Field, in value: Value) -> Location {
        location(of: fieldRef(field, in: value) ?? value.source)
    }

    /// The node of `field` in a decoded value, if the field is written: the last member of that name
    /// in an object (the one the decoder read), or the element at the field's position in an array form.
    ///
    /// `file.fieldRef(.offering, in: paywall)`: the field must be one of the value's own struct.
    public func fieldRef<Value: SourceBacked>(_ field: Value.Field, in value: Value) -> SourceRef? {
        topLevel.fieldRef(field, in: value)
    }

    // MARK: Array forms

    /// The array form at `ref`, with the struct the decoder read it as; nil when the value at `ref`
    /// is not an object the decoder read from an array (the quirk of §4).
    public func arrayForm(at ref: SourceRef) -> ArrayForm? {
        var low = 0
        var high = arrayFormsByNode.count
        while low < high {
            let middle = (low + high) / 2
            if arrayFormsByNode[middle].source.node < ref.node { low = middle + 1 } else { high = middle }
        }
        return low < arrayFormsByNode.count && arrayFormsByNode[low].source == ref ? arrayFormsByNode[low] : nil
    }

    /// Which struct and which field the value at `ref` is, when it is an element of an array form:
    /// `(paywall's array form, 6)` for the `offering` of a paywall written as an array.
    public func arraySlot(of ref: SourceRef) -> (form: ArrayForm, position: Int)? {
        let value = document.value(at: ref.node)
        guard let parent = value.parent, parent.kind == .array, let form = arrayForm(at: SourceRef(node: parent.index)) else {
            return nil
        }
        let position = Int(document.nodes.ordinal(of: ref.node))
        return position < form.elementCount ? (form, position) : nil
    }

    /// Every array form of every decoded entry, ordered by node.
    static func arrayFormsByNode(of entries: [EntryRecord]) -> [ArrayForm] {
        entries.flatMap(\.shapedArrayForms).sorted { $0.source.node < $1.source.node }
    }

    /// `formatVersion` must be the integer 1: `1.0`, `1e0` and `10E-1` are floats to the SDK (§2 rule 10).
    static func isVersionOne(_ value: JSONDocument.Value) -> Bool {
        value.number?.reading == .unsignedInteger(1)
    }
}

/// The decoded entries of a `FallbackFile`, held by every copy of it, so that the typed model of
/// every entry is let go on all cores when the last copy goes, not one record after another on the
/// thread that drops it (on one core, about 15% of the time of a 10,000-placement validation).
final class DecodedEntries: @unchecked Sendable {
    /// Set in `init`; only `deinit` writes to it again, when nothing else can read it.
    private(set) var records: [EntryRecord]
    let arrayFormsByNode: [ArrayForm]

    init(records: [EntryRecord], arrayFormsByNode: [ArrayForm]) {
        self.records = records
        self.arrayFormsByNode = arrayFormsByNode
    }

    /// Empties each record in place, in chunks on all cores, before the array goes: what is left
    /// for the array to release is a key and a few empty arrays per record. Only when this is the
    /// last holder of the array: a caller still holding `entries` keeps every record as it was
    /// (writing to a shared array would copy it), and the array goes whenever that caller lets go.
    deinit {
        let chunks = ParallelChunks(count: records.count, size: FallbackTopLevel.decodeChunkSize)
        guard chunks.ranges.count > 1, Self.isUniquelyHeld(&records) else { return }
        records.withUnsafeMutableBufferPointer { chunks.updateEach(of: $0) { $0.letGoOfEntry() } }
    }

    /// True when `array` is the only holder of its storage, so that writing through it copies nothing.
    ///
    /// An array of a struct is one reference to its native storage object, read in place here (a
    /// copy of the array would be a second holder) as a reference to a native class, whose
    /// uniqueness check reads only the object's reference count. (Read as `AnyObject`, an
    /// unoptimised Swift 6 build answers false even for a lone array.) Any other layout answers false.
    static func isUniquelyHeld<Element>(_ array: inout [Element]) -> Bool {
        guard MemoryLayout<[Element]>.size == MemoryLayout<NativeObject>.size else { return false }
        return withUnsafeMutablePointer(to: &array) { pointer in
            pointer.withMemoryRebound(to: NativeObject.self, capacity: 1) { isKnownUniquelyReferenced(&$0.pointee) }
        }
    }

    /// Any native Swift object, as `isUniquelyHeld` reads an array's storage: never made.
    private final class NativeObject {}
}

/// One distinct key of `placements` and what the loader did with it.
public struct EntryRecord: Sendable {
    /// What the loader did with an entry (§3).
    public enum Outcome: Sendable {
        /// The entry decoded: the SDK loads it. Held in a box of its own (`indirect`): an entry is
        /// hundreds of bytes inline, so a record stays small and copying one copies its entry with one retain.
        indirect case loaded(FallbackEntry)
        /// The entry failed to decode: the SDK skips it and logs why.
        case skipped(DecodeFailure)
    }

    /// The key, its occurrences and the value the SDK decodes, as the top level found them; the
    /// properties below read them from here.
    public private(set) var head: FallbackTopLevel.EntryHead
    /// The map key that `getFunnel`/`getPaywall` looks up.
    public var key: String { head.key }
    /// Every occurrence of the key, in text order; the last one is the one the SDK keeps.
    public var keyRefs: [SourceRef] { head.keyRefs }
    /// The occurrences of the key before the last, in text order: empty, with nothing allocated,
    /// for a key written once, as nearly every key is.
    public var earlierKeyRefs: [SourceRef] { head.earlierKeyRefs }
    /// The last occurrence of the key: the one the SDK keeps, whose value is `value`.
    public var lastKeyRef: SourceRef { head.lastKeyRef }
    /// How many times the key is written in `placements` (`keyRefs.count`).
    public var keyCount: Int { head.keyCount }
    /// The value of the last occurrence: the only one the SDK decodes.
    public var value: SourceRef { head.value }
    /// What the decoder made of `value`.
    public internal(set) var outcome: Outcome
    /// Objects in the entry written as arrays of their fields (the quirk), each with the struct the
    /// decoder read it as, in the order the decoder met them. A skipped entry lists those read before
    /// the failure.
    public internal(set) var shapedArrayForms: [ArrayForm]
    /// The arrays of `shapedArrayForms`, without their structs.
    public var arrayForms: [SourceRef] { shapedArrayForms.map(\.source) }
    /// Known fields written more than once inside the entry.
    public internal(set) var duplicateFields: [DuplicateField]

    /// The decoded entry; nil when the SDK skips it.
    public var entry: FallbackEntry? {
        if case .loaded(let entry) = outcome { return entry }
        return nil
    }

    /// Why the SDK skips the entry; nil when it loads.
    public var failure: DecodeFailure? {
        if case .skipped(let failure) = outcome { return failure }
        return nil
    }

    /// Releases what the record holds beyond its key (the decoded entry, the occurrences, the array
    /// forms, the duplicate fields), leaving only values that own no memory: for a record about to go.
    fileprivate mutating func letGoOfEntry() {
        outcome = .skipped(DecodeFailure(source: value, expectation: ""))
        head.earlierKeyRefs = []
        shapedArrayForms = []
        duplicateFields = []
    }
}

// MARK: - §2: when the whole load throws

/// Why the SDK's loader throws on a file, by the rule of the contract's §2 that decides it.
public struct FallbackRejection: Error, Sendable, Hashable {
    /// The rules of §2, numbered as there (11 is the array quirk's length).
    public enum Rule: Int, Sendable, CaseIterable {
        /// Rule 1: not strict RFC 8259 JSON (a lone surrogate escape included, where the SDK decodes it).
        case invalidJSON = 1
        /// Rule 2: the text starts with a byte-order mark.
        case byteOrderMark = 2
        /// Rule 3: the bytes are not valid UTF-8.
        case invalidUTF8 = 3
        /// Rule 4: containers nested deeper than 127 levels inside `formatVersion` or `placements`.
        case nestingTooDeep = 4
        /// Rule 5: a number inside `formatVersion` or `placements` overflows a 64-bit float.
        case numberOutOfRange = 5
        /// Rule 6: the top level is `null`, a boolean, a number, a string or `[]`.
        case topLevelNotAnObject = 6
        /// Rule 7: `formatVersion` or `placements` appears twice at the top level.
        case duplicateField = 7
        /// Rule 8: `formatVersion` is missing.
        case formatVersionMissing = 8
        /// Rule 9: `placements` is present but not an object (`null` included).
        case placementsNotAnObject = 9
        /// Rule 10: `formatVersion` is not the integer 1.
        case unsupportedFormatVersion = 10
        /// The array quirk with three or more elements.
        case topLevelArrayTooLong = 11

        /// Where the contract states the rule.
        public var section: String {
            self == .topLevelArrayTooLong ? "§2, array quirk" : "§2 rule \(rawValue)"
        }

        /// A short name for the rule.
        public var summary: String {
            switch self {
            case .invalidJSON: "not strict RFC 8259 JSON"
            case .byteOrderMark: "starts with a byte-order mark"
            case .invalidUTF8: "not valid UTF-8"
            case .nestingTooDeep: "nested deeper than 127 levels"
            case .numberOutOfRange: "a number overflows a 64-bit float"
            case .topLevelNotAnObject: "the top level is not an object"
            case .duplicateField: "a top-level field appears twice"
            case .formatVersionMissing: "formatVersion is missing"
            case .placementsNotAnObject: "placements is not an object"
            case .unsupportedFormatVersion: "formatVersion is not the integer 1"
            case .topLevelArrayTooLong: "a top-level array has more than two elements"
            }
        }
    }

    /// The rule of §2 that decided.
    public let rule: Rule
    /// What the parser saw, as in the SDK's message (`recursion limit exceeded`, the version as JSON, …).
    public let detail: String
    /// The byte offset in the (BOM-stripped) text where the problem was found.
    public let offset: Int
    /// The 1-based line and column of `offset`.
    public let position: JSONDocument.Position
    /// The JSON Pointer of the value at fault, when there is one.
    public let pointer: String?

    /// A rejection from its parts.
    public init(rule: Rule, detail: String, offset: Int, position: JSONDocument.Position, pointer: String?) {
        self.rule = rule
        self.detail = detail
        self.offset = offset
        self.position = position
        self.pointer = pointer
    }

    init(rule: Rule, document: JSONDocument, detail: String, offset: Int, pointer: String? = nil) {
        self.init(rule: rule, detail: detail, offset: offset, position: document.position(ofOffset: offset), pointer: pointer)
    }

    init(rule: Rule, value: JSONDocument.Value, detail: String) {
        self.init(
            rule: rule, detail: detail, offset: value.byteRange.lowerBound, position: value.position, pointer: value.pointer)
    }

    /// The SDK's message, of kind `invalidArgument`.
    public var message: String {
        switch rule {
        case .unsupportedFormatVersion:
            "unsupported fallback placements formatVersion \(detail) (expected 1)"
        default:
            "fallback placements file is not valid JSON: \(detail) at line \(position.line) column \(position.column)"
        }
    }
}

/// Walks the top level in text order and stops at the first rule of §2 that throws, as a
/// streaming deserializer does.
struct TopLevelReading {
    let document: JSONDocument
    var rejection: FallbackRejection?
    var isArray = false
    var formatVersion: JSONDocument.Value?
    var placements: JSONDocument.Value?
    var generatedAt: JSONDocument.Value?
    var projectId: JSONDocument.Value?

    init(document: JSONDocument) {
        self.document = document
    }

    mutating func read() {
        rejection = firstViolation()
        if rejection == nil, let error = document.syntaxError {
            rejection = FallbackRejection(
                rule: error.reason == .invalidUTF8 ? .invalidUTF8 : .invalidJSON, document: document, detail: error.message,
                offset: error.offset)
        }
    }

    private mutating func firstViolation() -> FallbackRejection? {
        guard document.hasRoot else { return nil }
        let root = document.root
        switch root.kind {
        case .object:
            for member in root.members {
                // Every top-level key is decoded (to match it against the fields), so a lone surrogate
                // in one throws; in the value of a key other than these two, it does not (§2 rule 1).
                if let lone = loneSurrogate(in: member.keyValue) { return lone }
                switch TopLevelField(rawValue: member.key) {
                case .formatVersion?:
                    if formatVersion != nil {
                        return FallbackRejection(rule: .duplicateField, value: member.keyValue, detail: "duplicate field `formatVersion`")
                    }
                    formatVersion = member.value
                    if let violation = limitViolation(in: member.value) { return violation }
                case .placements?:
                    if placements != nil {
                        return FallbackRejection(rule: .duplicateField, value: member.keyValue, detail: "duplicate field `placements`")
                    }
                    placements = member.value
                    // Reporting the wrong type decodes a string first.
                    if let lone = loneSurrogate(in: member.value) { return lone }
                    if member.value.kind != .object {
                        return FallbackRejection(
                            rule: .placementsNotAnObject, value: member.value,
                            detail: "invalid type: \(Self.typeName(member.value)), expected a map")
                    }
                    if let violation = limitViolation(in: member.value) { return violation }
                case .generatedAt?:
                    generatedAt = member.value
                case .projectId?:
                    projectId = member.value
                default:
                    break
                }
            }
            if root.isComplete, formatVersion == nil {
                let close = root.byteRange.upperBound - 1
                return FallbackRejection(rule: .formatVersionMissing, document: document, detail: "missing field `formatVersion`", offset: close)
            }
        case .array:
            isArray = true
            let elements = root.elements
            for (position, element) in elements.enumerated() {
                switch position {
                case 0:
                    formatVersion = element
                    if let violation = limitViolation(in: element) { return violation }
                case 1:
                    placements = element
                    if let lone = loneSurrogate(in: element) { return lone }
                    if element.kind != .object {
                        return FallbackRejection(
                            rule: .placementsNotAnObject, value: element, detail: "invalid type: \(Self.typeName(element)), expected a map")
                    }
                    if let violation = limitViolation(in: element) { return violation }
                default:
                    return FallbackRejection(
                        rule: .topLevelArrayTooLong, value: element, detail: "invalid length \(elements.count), expected at most 2 elements in the array")
                }
            }
            if root.isComplete, elements.isEmpty {
                return FallbackRejection(
                    rule: .topLevelNotAnObject, document: document, detail: "invalid length 0, expected a struct with formatVersion",
                    offset: root.byteRange.upperBound - 1)
            }
        default:
            if let lone = loneSurrogate(in: root) { return lone }
            return FallbackRejection(
                rule: .topLevelNotAnObject, value: root, detail: "invalid type: \(Self.typeName(root)), expected a struct")
        }
        return nil
    }

    /// The first container nested past 127 levels, number overflowing a float, or string with a lone
    /// surrogate escape inside `value`, in text order: the SDK reads every one of these values.
    private func limitViolation(in value: JSONDocument.Value) -> FallbackRejection? {
        let range = value.index..<Int(document.nodes[value.index].next)
        let deep = document.tooDeepContainers.first { range.contains(Int($0)) }
        let overflow = document.overflowingNumbers.first { range.contains(Int($0)) }
        let lone = document.loneSurrogates.first { range.contains(Int($0.node)) }
        guard let first = [deep, overflow, lone?.node].compactMap({ $0 }).min() else { return nil }
        if let lone, lone.node == first { return loneSurrogateRejection(lone) }
        if first == overflow {
            return FallbackRejection(rule: .numberOutOfRange, value: document.value(at: Int(first)), detail: "number out of range")
        }
        return FallbackRejection(rule: .nestingTooDeep, value: document.value(at: Int(first)), detail: "recursion limit exceeded")
    }

    /// The rejection for a lone surrogate in `value` itself (a key, or a string the SDK decodes).
    private func loneSurrogate(in value: JSONDocument.Value) -> FallbackRejection? {
        guard value.kind == .string, document.nodes[value.index].flags & JSONDocument.hasLoneSurrogate != 0,
            let lone = document.loneSurrogates.first(where: { Int($0.node) == value.index })
        else { return nil }
        return loneSurrogateRejection(lone)
    }

    private func loneSurrogateRejection(_ lone: JSONDocument.LoneSurrogate) -> FallbackRejection {
        FallbackRejection(rule: .invalidJSON, document: document, detail: lone.message, offset: Int(lone.offset))
    }

    static func typeName(_ value: JSONDocument.Value) -> String {
        switch value.kind {
        case .null: "null"
        case .true, .false: "boolean `\(value.kind == .true)`"
        case .number:
            switch value.number?.reading {
            case .some(.unsignedInteger(let integer)): "integer `\(integer)`"
            case .some(.negativeInteger(let integer)): "integer `\(integer)`"
            case .some(.float(let float)): "floating point `\(FallbackFile.rustDisplay(float))`"
            default: "floating point `\(value.number?.text ?? "")`"
            }
        case .string: "string \(JSONValue.quoted(value.string ?? ""))"
        case .array: "sequence"
        case .object: "map"
        }
    }
}

// MARK: - The SDK's rendering of a value as JSON

extension FallbackFile {
    /// `value` as the SDK's JSON library prints it in the version error: compact, object keys sorted,
    /// duplicate keys collapsed to the last, integers as written, other numbers as shortest floats.
    static func serdeText(_ value: JSONDocument.Value) -> String {
        value.jsonText([.sortedKeys, .numbersAsPrinted])
    }

    static func serdeText(_ value: JSONValue) -> String {
        value.jsonText([.sortedKeys, .numbersAsPrinted])
    }

    /// A float as serde prints it, in the style of Rust's `ryu`: the shortest round-tripping
    /// digits (`1.0`, `1e20`, `1.5e-7`).
    ///
    /// Written byte by byte from `ShortestDigits`: a fingerprint of an entry that holds many floats
    /// writes one per number, and the string searches and replacements this once used took 1.7 µs
    /// a float (85% of a `history` over two files of 200,000 floats).
    static func ryuText(_ value: Double) -> String {
        // Never reached from a parse (a number out of range is a §2 error), and spelled as before.
        guard value.isFinite else { return value.isNaN ? "nan.0" : value < 0 ? "-inf.0" : "inf.0" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let shortest = ShortestDigits(value)
        let (length, decimalPoint) = (shortest.count, shortest.decimalPoint)
        // At most a sign, 17 digits, 16 places of zeros or a 5-byte exponent, and a point and a zero.
        return String(unsafeUninitializedCapacity: 40) { text in
            var written = 0
            func put(_ byte: UInt8) {
                text[written] = byte
                written += 1
            }
            if value < 0 { put(UInt8(ascii: "-")) }
            if 0 < decimalPoint, decimalPoint <= 16 {
                for index in 0..<min(length, decimalPoint) { put(shortest[index]) }
                for _ in length..<max(length, decimalPoint) { put(UInt8(ascii: "0")) }
                put(UInt8(ascii: "."))
                if length <= decimalPoint { put(UInt8(ascii: "0")) }
                for index in min(length, decimalPoint)..<length { put(shortest[index]) }
            } else if -5 < decimalPoint, decimalPoint <= 0 {
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "."))
                for _ in 0..<(-decimalPoint) { put(UInt8(ascii: "0")) }
                for index in 0..<length { put(shortest[index]) }
            } else {
                put(shortest[0])
                if length > 1 {
                    put(UInt8(ascii: "."))
                    for index in 1..<length { put(shortest[index]) }
                }
                put(UInt8(ascii: "e"))
                var exponent = decimalPoint - 1
                if exponent < 0 {
                    put(UInt8(ascii: "-"))
                    exponent = -exponent
                }
                var divisor = 1
                while divisor * 10 <= exponent { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(exponent / divisor % 10))
                    divisor /= 10
                }
            }
            return written
        }
    }

    /// A finite double as Rust's `Display` writes it in serde's messages (`WithDecimalPoint`): the
    /// shortest round-tripping digits, never an exponent, and `.0` when there is no fraction.
    static func rustDisplay(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let shortest = ShortestDigits(value)
        let (length, decimalPoint) = (shortest.count, shortest.decimalPoint)
        var text: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        text.reserveCapacity(length + abs(decimalPoint) + 4)
        if decimalPoint <= 0 {
            text += [UInt8(ascii: "0"), UInt8(ascii: ".")] + repeatElement(UInt8(ascii: "0"), count: -decimalPoint)
            for index in 0..<length { text.append(shortest[index]) }
        } else {
            for index in 0..<min(length, decimalPoint) { text.append(shortest[index]) }
            text += repeatElement(UInt8(ascii: "0"), count: max(decimalPoint - length, 0))
            text.append(UInt8(ascii: "."))
            if length <= decimalPoint { text.append(UInt8(ascii: "0")) }
            for index in min(length, decimalPoint)..<length { text.append(shortest[index]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The shortest round-tripping significant digits of a finite, non-zero double, as ASCII
    /// digits without leading or trailing zeros, and where the decimal point goes (`0.0125` →
    /// `125` and -1): read from Swift's `description`, which writes the shortest round-tripping
    /// digits (`0.0125`, `1e-07`, `1.5e+20`), one byte at a time and with no allocation.
    struct ShortestDigits {
        /// Up to 24 digits (a description has at most 17), the first at the lowest address: a tuple
        /// written through its bytes, where a `SIMD32`'s lanes cost an insert each.
        private var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        private(set) var count = 0
        private(set) var decimalPoint = 0

        init(_ value: Double) {
            var digitsRead = 0
            var point: Int?
            var leadingZeros = 0
            var exponent = 0
            var exponentIsNegative = false
            var inExponent = false
            for byte in abs(value).description.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if inExponent {
                        exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                    } else {
                        if count == 0 && byte == UInt8(ascii: "0") {
                            leadingZeros += 1
                        } else if count < 24 {
                            withUnsafeMutableBytes(of: &digits) { $0[count] = byte }
                            count += 1
                        }
                        digitsRead += 1
                    }
                case UInt8(ascii: "."): point = digitsRead
                case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
                case UInt8(ascii: "-"): exponentIsNegative = true
                default: break
                }
            }
            while count > 0 && self[count - 1] == UInt8(ascii: "0") { count -= 1 }
            decimalPoint = (point ?? digitsRead) + (exponentIsNegative ? -exponent : exponent) - leadingZeros
        }

        /// Digit `index`, below `count`.
        subscript(index: Int) -> UInt8 { withUnsafeBytes(of: digits) { $0[index] } }
    }
}
