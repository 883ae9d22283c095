// The contract's §4 as types: one `Field` enum per decoded struct says each field's JSON name, its
// place in the array quirk, and whether it may be absent. The decoder, the array-quirk positions and
// field lookups (`FallbackFile.fieldRef(_:in:)`) all read these enums; no other place spells a field
// (`Tests/FallbackCLITests/SchemaNameGuardTests.swift` checks the sources for names and positions).

/// Whether a field of the contract's §4 may be absent, as its type there says.
public enum FieldPresence: Sendable, Hashable, CaseIterable {
    /// `T`: must be written, and not as `null`.
    case required
    /// Required, but `null` is a value (`RemoteConfig.data: any`, "null allowed").
    case requiredAllowingNull
    /// `T?`: missing and `null` both mean absent; an array form must still hold a place for it.
    case optional
    /// `T? (default)`: missing and `null` both mean absent, and an array form may leave it off.
    case defaulted

    /// True when the decode fails without the field.
    public var isRequired: Bool { self == .required || self == .requiredAllowingNull }

    /// True when an array form may end before the field (the contract's `(default)`).
    public var mayBeLeftOffInArray: Bool { self == .defaulted }
}

/// The members of the file's top level (the contract's §2), by their JSON names.
///
/// The loader reads `formatVersion` and `placements` (in that order in the array quirk
/// `[formatVersion, placements]`); a dashboard export also writes `generatedAt` and `projectId`,
/// which the loader ignores and the tools read.
public enum TopLevelField: String, Sendable, Hashable, CaseIterable {
    /// `formatVersion`: the JSON integer `1`; anything else throws (§1, §2).
    case formatVersion
    /// `placements`: placement identifier → entry (§1, §3).
    case placements
    /// `generatedAt`: Unix epoch milliseconds of the export; not read by the loader (§1).
    case generatedAt
    /// `projectId`: the dashboard project, a string; not read by the loader (§1).
    case projectId

    /// True for the members the SDK's loader reads: `formatVersion` and `placements`.
    public var isReadByLoader: Bool { self == .formatVersion || self == .placements }
}

/// The fields of one struct of the contract's §4, as an enum.
///
/// Conform a payload-free enum whose raw values are the JSON names (`rawValue` is the name) and whose cases are declared in
/// the order the array quirk uses (§4: "an array holding its fields in the order listed"). Its
/// `allCases` is then the shape's field list, and `position` a case's place in an array form.
public protocol SchemaField: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == String, AllCases == [Self] {
    /// Whether the field may be missing or `null`, and whether an array form may leave it off.
    var presence: FieldPresence { get }
}

extension SchemaField {
    /// The field's index in an array form: its place in `allCases` (declaration order).
    @inlinable public var position: Int {
        // A payload-free enum is stored as the index of its case in declaration order (Swift's type
        // layout: a no-payload enum is an integer tag, tags assigned in declaration order). It takes
        // one byte for 2 to 256 cases; anything else takes the slower, general path.
        if MemoryLayout<Self>.size == 1 {
            return Int(unsafeBitCast(self, to: UInt8.self))
        }
        return Self.allCases.firstIndex(of: self)!
    }

    /// True when the decode fails without the field.
    @inlinable public var isRequired: Bool { presence.isRequired }

    /// The fewest elements an array form may have: up to the last field it cannot leave off.
    public static var minimumArrayCount: Int {
        (allCases.lastIndex { !$0.presence.mayBeLeftOffInArray } ?? -1) + 1
    }
}

/// A struct decoded from an object (or from the array quirk) of a snapshot, tied to the enum of
/// its fields: `file.fieldRef(Paywall.Field.offering, in: paywall)` only compiles for a field of
/// the value's own struct.
public protocol SourceBacked: Sendable {
    /// The struct's fields, in the order the array quirk uses.
    associatedtype Field: SchemaField
    /// Which struct of §4 this is.
    static var shape: SchemaShape { get }
    /// The object (or array) the value was decoded from.
    var source: SourceRef { get }
}

/// The structs of the contract's §4, by the names the contract gives them.
///
/// It names the struct an array-form object was decoded as (`ArrayForm.shape`), where the struct's
/// static type is not at hand.
public enum SchemaShape: String, Sendable, Hashable, CaseIterable {
    /// `Entry`: decoded as `FallbackEntry`.
    case entry = "Entry"
    /// `Placement`: decoded as `Placement`.
    case placement = "Placement"
    /// `Experiment`: decoded as `Experiment`.
    case experiment = "Experiment"
    /// `Variant`: decoded as `Variant`.
    case variant = "Variant"
    /// `Paywall`: decoded as `Paywall`.
    case paywall = "Paywall"
    /// `RemoteConfig`: decoded as `RemoteConfig`.
    case remoteConfig = "RemoteConfig"
    /// `Offering`: decoded as `Offering`.
    case offering = "Offering"
    /// `Package`: decoded as `Package`.
    case package = "Package"
    /// `StoreIds`: decoded as `StoreIds`.
    case storeIds = "StoreIds"
    /// `Funnel`: decoded as `Funnel`.
    case funnel = "Funnel"
    /// `Page`: decoded as `Page`.
    case page = "Page"
    /// `Option`: decoded as `PageOption`.
    case option = "Option"
    /// `NextRule`: decoded as `NextRule`.
    case nextRule = "NextRule"
    /// `Condition`: decoded as `Condition`.
    case condition = "Condition"
    /// `Clause`: decoded as `Clause`.
    case clause = "Clause"

    /// How a message names a struct of §4: by the field that usually holds it (`"entry"`,
    /// `"remoteConfig"`, `"next rule"`).
    public var displayName: String {
        switch self {
        case .entry: "entry"
        case .placement: "placement"
        case .experiment: "experiment"
        case .variant: "variant"
        case .paywall: "paywall"
        case .remoteConfig: "remoteConfig"
        case .offering: "offering"
        case .package: "package"
        case .storeIds: "storeIds"
        case .funnel: "funnel"
        case .page: "page"
        case .option: "option"
        case .nextRule: "next rule"
        case .condition: "condition"
        case .clause: "clause"
        }
    }

    /// The field names in the order the array quirk uses.
    public var fieldNames: [String] { table.names }

    /// Whether each field (in `fieldNames` order) may be absent.
    public var presences: [FieldPresence] { table.presences }

    /// The fewest elements an array form of this struct may have.
    public var minimumArrayCount: Int { table.minimumArrayCount }

    /// The decoder's table of the struct's fields, built once.
    var table: FieldTable {
        switch self {
        case .entry: FieldTable.entry
        case .placement: FieldTable.placement
        case .experiment: FieldTable.experiment
        case .variant: FieldTable.variant
        case .paywall: FieldTable.paywall
        case .remoteConfig: FieldTable.remoteConfig
        case .offering: FieldTable.offering
        case .package: FieldTable.package
        case .storeIds: FieldTable.storeIds
        case .funnel: FieldTable.funnel
        case .page: FieldTable.page
        case .option: FieldTable.option
        case .nextRule: FieldTable.nextRule
        case .condition: FieldTable.condition
        case .clause: FieldTable.clause
        }
    }
}

/// A struct's fields as the decoder matches them: names, their bytes, and a perfect hash of the names.
final class FieldTable: Sendable {
    let names: [String]
    let bytes: [[UInt8]]
    let presences: [FieldPresence]
    /// The fewest elements an array form may have.
    let minimumArrayCount: Int
    /// Each name's first 16 bytes, packed little-endian in two words (zero past its end): a key of
    /// the same length is compared with a name in two word compares, and only a longer name's
    /// remaining bytes one by one.
    let packedNames: [PackedName]
    /// A perfect hash of the names: `slots[slot(length, packed)]` holds the only name a key of that
    /// length and those first 16 bytes can be, so a key is matched with one hash and one compare.
    /// No two names share a slot (`init` searches for a multiplier until none do).
    let slots: [Slot]
    /// The hash's multiplier and the shift that keeps its top bits (`slots.count` is a power of two).
    let multiplier: UInt64
    let shift: UInt64

    /// One slot of the perfect hash: a name's length and packed bytes and its position, or an empty
    /// slot (length -1, which no key has).
    struct Slot {
        var low: UInt64
        var high: UInt64
        var length: Int
        var field: Int

        static let empty = Slot(low: 0, high: 0, length: -1, field: -1)
    }

    /// The slot a key of `length` bytes whose first 16 are `packed` hashes to.
    @inline(__always)
    static func slot(length: Int, packed: PackedName, multiplier: UInt64, shift: UInt64) -> Int {
        let mixed = packed.low ^ (packed.high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: length)
        return Int(truncatingIfNeeded: (mixed &* multiplier) &>> shift)
    }

    /// The position of the field whose name is the `count` bytes at `start` of `text`, nil for
    /// any other key: one hash, one slot, its words and (past 16 bytes) the rest of the name compared.
    @inline(__always)
    func position(ofKeyAt start: Int, count: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let packed = PackedName(text, start: start, count: count)
        let index = FieldTable.slot(length: count, packed: packed, multiplier: multiplier, shift: shift)
        return slots.withUnsafeBufferPointer { slots -> Int? in
            let slot = slots[index]
            guard slot.length == count, slot.low == packed.low, slot.high == packed.high else { return nil }
            if count > 16 {
                let matches = bytes[slot.field].withUnsafeBufferPointer { name in
                    ExactKey.sameBytes(UnsafeBufferPointer(rebasing: text[(start + 16)..<(start + count)]), UnsafeBufferPointer(rebasing: name[16...]))
                }
                guard matches else { return nil }
            }
            return slot.field
        }
    }

    /// Up to 16 bytes of a name or a key, packed little-endian, zero past the end.
    struct PackedName: Equatable {
        var low: UInt64
        var high: UInt64

        /// The first `min(count, 16)` bytes at `start`.
        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, count: Int) {
            let packed = min(count, 16)
            guard start + 16 <= bytes.count else {
                self = PackedName(nearTheEndOf: bytes, start: start, count: packed)
                return
            }
            let raw = UnsafeRawPointer(bytes.baseAddress! + start)
            let low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            self.low = packed >= 8 ? low : low & ((1 << UInt64(8 * packed)) - 1)
            self.high = packed >= 16 ? high : packed <= 8 ? 0 : high & ((1 << UInt64(8 * (packed - 8))) - 1)
        }

        /// The first `packed` (at most 16) bytes at `start`, read one at a time where fewer than 16
        /// bytes are left in `bytes`. Out of line, so that the word loads above are small enough to
        /// be inlined into every key match and string lookup.
        @inline(never)
        private init(nearTheEndOf bytes: UnsafeBufferPointer<UInt8>, start: Int, count packed: Int) {
            low = 0
            high = 0
            for offset in 0..<packed {
                let byte = UInt64(bytes[start + offset])
                if offset < 8 { low |= byte << UInt64(8 * offset) } else { high |= byte << UInt64(8 * (offset - 8)) }
            }
        }
    }

    init<Field: SchemaField>(_ field: Field.Type) {
        names = Field.allCases.map(\.rawValue)
        precondition(names.count <= EntryDecoder.Slots.scalarCount, "the decoder holds at most \(EntryDecoder.Slots.scalarCount) fields per struct")
        bytes = names.map { Array($0.utf8) }
        presences = Field.allCases.map(\.presence)
        minimumArrayCount = Field.minimumArrayCount
        packedNames = bytes.map { name in name.withUnsafeBufferPointer { PackedName($0, start: 0, count: $0.count) } }
        (slots, multiplier, shift) = FieldTable.perfectHash(packedNames, lengths: bytes.map(\.count))
    }

    /// Slots for `names` (their packed bytes and lengths, all distinct) with no two in one slot: at
    /// least four slots per name, and odd multipliers tried in a fixed order until one separates
    /// them all (the same table on every run); twice the slots when none of 4,096 does.
    static func perfectHash(_ names: [PackedName], lengths: [Int]) -> (slots: [Slot], multiplier: UInt64, shift: UInt64) {
        var bits = 3
        while 1 << bits < 4 * names.count { bits += 1 }
        var step: UInt64 = 0
        while true {
            let shift = UInt64(64 - bits)
            for _ in 0..<4096 {
                // The odd multiples of the golden ratio's 64-bit word, one after another.
                step &+= 1
                let multiplier = (0x9E37_79B9_7F4A_7C15 &* step) | 1
                var slots = [Slot](repeating: .empty, count: 1 << bits)
                var separated = true
                for (field, name) in names.enumerated() {
                    let index = slot(length: lengths[field], packed: name, multiplier: multiplier, shift: shift)
                    guard slots[index].length < 0 else {
                        separated = false
                        break
                    }
                    slots[index] = Slot(low: name.low, high: name.high, length: lengths[field], field: field)
                }
                if separated { return (slots, multiplier, shift) }
            }
            bits += 1
        }
    }

    static let entry = FieldTable(FallbackEntry.Field.self)
    static let placement = FieldTable(Placement.Field.self)
    static let experiment = FieldTable(Experiment.Field.self)
    static let variant = FieldTable(Variant.Field.self)
    static let paywall = FieldTable(Paywall.Field.self)
    static let remoteConfig = FieldTable(RemoteConfig.Field.self)
    static let offering = FieldTable(Offering.Field.self)
    static let package = FieldTable(Package.Field.self)
    static let storeIds = FieldTable(StoreIds.Field.self)
    static let funnel = FieldTable(Funnel.Field.self)
    static let page = FieldTable(Page.Field.self)
    static let option = FieldTable(PageOption.Field.self)
    static let nextRule = FieldTable(NextRule.Field.self)
    static let condition = FieldTable(Condition.Field.self)
    static let clause = FieldTable(Clause.Field.self)
}

/// An object written as an array of its fields (the §4 quirk), with the struct the decoder read it as.
public struct ArrayForm: Sendable, Hashable {
    /// The array.
    public let source: SourceRef
    /// The struct the array was decoded as.
    public let shape: SchemaShape
    /// The number of elements written (at most the struct's field count).
    public let elementCount: Int

    /// The names of the fields the array holds, in order: one per element.
    public var writtenFieldNames: ArraySlice<String> { shape.fieldNames.prefix(elementCount) }

    /// The fields the array holds, in order, when it was decoded as `type`; nil for another struct.
    public func writtenFields<Value: SourceBacked>(as type: Value.Type) -> ArraySlice<Value.Field>? {
        guard shape == Value.shape else { return nil }
        return Value.Field.allCases.prefix(elementCount)
    }

    /// The name of the field at `position` of the array, if the array holds one there.
    public func fieldName(at position: Int) -> String? {
        position >= 0 && position < elementCount ? shape.fieldNames[position] : nil
    }
}

extension JSONDocument.Value {
    /// The value of a struct's field as written, in an object (its last member of that name, the one
    /// the decoder reads) or in an array form (the element at the field's position); nil when the
    /// field is not written or this is neither an object nor an array.
    ///
    /// It reads the text, decoded or not: `entryValue.field(FallbackEntry.Field.placement)` works on
    /// a skipped entry too.
    public func field<Field: SchemaField>(_ field: Field) -> JSONDocument.Value? {
        switch kind {
        case .object:
            return self[field.rawValue]
        case .array:
            let position = field.position
            var children = document.children(ofNode: index)
            while let child = children.next(in: document) {
                if child.position == position { return JSONDocument.Value(document: document, index: child.value) }
            }
            return nil
        default:
            return nil
        }
    }
}

extension JSONValue.Member {
    /// A member named by a field of the schema: `.init(Placement.Field.revision, 3)` writes
    /// `"revision": 3`.
    public init<Field: SchemaField>(_ field: Field, _ value: JSONValue) {
        self.init(field.rawValue, value)
    }

    /// A top-level member of a fallback file: `.init(TopLevelField.formatVersion, 1)`.
    public init(_ field: TopLevelField, _ value: JSONValue) {
        self.init(field.rawValue, value)
    }
}
