/// The keys of one kind of record, in slot order, with a table that finds a key's slot: made once
/// for each kind (a context type, say) and shared by every record of that kind.
///
/// A tag's name finds its slot with a hash the parser computed once for the template
/// (`MustacheKeys.Hash`), so a lookup probes a small table instead of hashing the name into a
/// `Dictionary` at every tag. The table is only used where `==` of `String` is plain byte equality:
/// when the keys and the name are ASCII; otherwise the lookup goes through a `Dictionary`, so it
/// matches what a dictionary of the same keys would match (canonically equivalent spellings included).
///
/// Unchecked `Sendable`: the table is a buffer it allocates in `init` and never changes after.
public final class MustacheKeys: @unchecked Sendable {
    /// The keys, one per slot; a key may repeat (the last slot with a value wins).
    public let keys: [String]
    /// Open addressing, `mask + 1` cells (at least twice the keys): each holds a slot's key's hash
    /// in its high 32 bits and the slot in its low 32, or `emptyCell`. A probe is one load, with no
    /// array to retain or bounds to check: a site build looks up about a million tags.
    private let cells: UnsafeMutablePointer<UInt64>
    private let mask: Int
    private static let emptyCell = UInt64.max
    /// Whether `cells` answer lookups: every key ASCII, no key twice.
    private let usesTable: Bool
    /// Every slot of each key, in order: lookups the table does not answer.
    private let slots: [String: [Int]]

    public init(_ keys: [String]) {
        self.keys = keys
        var slots: [String: [Int]] = [:]
        for (slot, key) in keys.enumerated() { slots[key, default: []].append(slot) }
        self.slots = slots
        usesTable = slots.count == keys.count && keys.allSatisfy { Self.hash(of: $0).isASCII }
        var cells = 8
        while cells < 2 * keys.count { cells *= 2 }
        mask = cells - 1
        self.cells = .allocate(capacity: cells)
        self.cells.initialize(repeating: Self.emptyCell, count: cells)
        if usesTable {
            for slot in keys.indices {
                let hash = Self.hash(of: keys[slot]).value
                var cell = Int(hash) & mask
                while self.cells[cell] != Self.emptyCell { cell = (cell + 1) & mask }
                self.cells[cell] = UInt64(hash) << 32 | UInt64(slot)
            }
        }
    }

    deinit { cells.deallocate() }

    public var count: Int { keys.count }

    /// A key's hash, as a tag's name keeps it for each of its parts.
    struct Hash: Sendable {
        /// FNV-1a of the UTF-8 bytes.
        let value: UInt32
        let isASCII: Bool
    }

    static func hash(of key: String) -> Hash {
        var value: UInt32 = 2_166_136_261
        var bits: UInt8 = 0
        for byte in key.utf8 {
            value = (value ^ UInt32(byte)) &* 16_777_619
            bits |= byte
        }
        return Hash(value: value, isASCII: bits < 0x80)
    }

    /// The value at `key` in `values` (one per slot, nil for a key left out), `hash` being `hash(of: key)`.
    @inline(__always)
    func value(in values: [MustacheValue?], forKey key: String, hash: Hash) -> MustacheValue? {
        guard usesTable, hash.isASCII else { return valueWithoutTable(in: values, forKey: key) }
        var cell = Int(hash.value) & mask
        while true {
            let entry = cells[cell]
            if entry == Self.emptyCell { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == hash.value {
                let slot = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: entry))
                if keys[slot] == key { return values[slot] }
            }
            cell = (cell + 1) & mask
        }
    }

    /// The last slot with a value, as a dictionary that set the keys in slot order keeps.
    @inline(never)
    private func valueWithoutTable(in values: [MustacheValue?], forKey key: String) -> MustacheValue? {
        guard let slots = slots[key] else { return nil }
        for slot in slots.reversed() { if let value = values[slot] { return value } }
        return nil
    }
}

/// A record: values in the slot order of shared `MustacheKeys`. It renders exactly as the dictionary
/// of its keys with values would (`dictionary`): a key whose value is nil is left out, so a lookup
/// goes on to the enclosing context, where a `null` value stops it.
public struct MustacheRecord: Sendable, Hashable {
    public let keys: MustacheKeys
    /// One per slot of `keys`; nil leaves the key out.
    public let values: [MustacheValue?]

    public init(keys: MustacheKeys, values: [MustacheValue?]) {
        precondition(values.count == keys.count, "a record needs one value per key")
        self.keys = keys
        self.values = values
    }

    /// The value at `key`, if the record has one.
    public subscript(key: String) -> MustacheValue? {
        keys.value(in: values, forKey: key, hash: MustacheKeys.hash(of: key))
    }

    @inline(__always)
    func value(forKey key: String, hash: MustacheKeys.Hash) -> MustacheValue? {
        keys.value(in: values, forKey: key, hash: hash)
    }

    /// The equivalent dictionary: every key with a value (a repeated key keeps its last value).
    public var dictionary: [String: MustacheValue] {
        var dictionary: [String: MustacheValue] = [:]
        dictionary.reserveCapacity(values.count)
        for (key, value) in zip(keys.keys, values) { if let value { dictionary[key] = value } }
        return dictionary
    }

    /// Records are equal when their dictionaries are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.keys === rhs.keys && lhs.values == rhs.values) || lhs.dictionary == rhs.dictionary
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dictionary)
    }
}
