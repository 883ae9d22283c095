import CByteMasks

/// Where each key of a list first appears, by the key's exact UTF-8 bytes (as `ExactKey` compares
/// them): the index of a list too long to search, such as a large map's keys or a large funnel's
/// page ids and question ids.
///
/// A flat open-addressed table of 8-byte slots, each a position in the list and a few bits of its
/// key's hash; the keys stay in the list, and a probe compares with the list's key at a slot's
/// position (which the `key` closure gives). A `[ExactKey: Int]` keeps each 16-byte key and 8-byte
/// value in two arrays of buckets, so each lookup in a large one reads two distant cache lines: for
/// a million locales of one text, or 400,000 pages, the lookups missed the cache so often that
/// checking 10× the input took 14× to 16× the time for 10× the work. Here a lookup reads one slot;
/// the list's key it then compares is near the last one compared when lookups follow the list's
/// order, as a funnel's steps to the next page and a map's keys in their declared order do. The
/// block forms (`insert(keysAt:key:repeated:)`, `positions(of:key:)`) hash a block of keys first
/// and fetch their slots together, so the cache misses of a table larger than the cache overlap.
///
/// Keys are hashed with Swift's `Hasher`, seeded per process, over their bytes (`ExactKey`'s hash),
/// so crafted keys cannot lengthen the probes. The table is at most half full.
public struct KeyPositions: Sendable {
    /// The slots, then one word more: the table's header. Empty slots are 0; a used slot holds
    /// `position + 1` in its low `positionBits` bits and the top bits of its key's hash above them.
    /// The header holds the number of positions held (low 48 bits) and how many bits of a hash a
    /// slot keeps (top 8). One array and nothing else, so an optional index is one word, and an
    /// `OrderedMap` (which every localized text of every page holds) stays three words: with the
    /// count and the mask as fields of their own, the optional index took 25 bytes and a map 48.
    private var storage: [UInt64]

    private static let positionBits: UInt64 = 40
    private static let positionMask: UInt64 = (1 << positionBits) - 1
    private static let countMask: UInt64 = (1 << 48) - 1
    private static let tagBitsShift: UInt64 = 56
    /// Keys hashed, and their slots fetched, together in the block forms.
    static let blockSize = 16

    /// An empty index with room for `capacity` keys before it grows.
    public init(capacity: Int = 0) {
        self.init(capacity: capacity, keepingTagBits: 64 - Int(Self.positionBits))
    }

    /// An empty index whose slots keep only `tagBits` bits of each hash: with none, every slot a
    /// probe meets has its key compared, as for keys whose hashes agree in all 24.
    init(capacity: Int, keepingTagBits tagBits: Int) {
        let kept = UInt64(min(max(tagBits, 0), 64 - Int(Self.positionBits)))
        storage = [UInt64](repeating: 0, count: Self.slotCount(for: capacity) + 1)
        storage[storage.count - 1] = kept << Self.tagBitsShift
    }

    /// The number of positions held.
    public var count: Int { Int(storage[storage.count - 1] & Self.countMask) }

    private var slotCount: Int { storage.count - 1 }

    /// The bits of a key's hash the slots keep above the position.
    private var tagMask: UInt64 { (1 << (storage[storage.count - 1] >> Self.tagBitsShift)) - 1 }

    /// The smallest power of two at least twice `capacity` (and at least 8).
    private static func slotCount(for capacity: Int) -> Int {
        var slots = 8
        while slots < capacity * 2 { slots *= 2 }
        return slots
    }

    /// The key's 64-bit hash: the slot comes from its low bits, the tag from its top 24. Where `Int`
    /// has 32 bits, so has the hash, and it is spread over 64 by a multiplication, so the tag
    /// depends on all of it (the low bits, and so the slot, stay the hash's own).
    private static func hash(_ key: String) -> UInt64 {
        let hash = UInt64(UInt(bitPattern: ExactKey(key).hashValue))
        return Int.bitWidth == 64 ? hash : hash &* 0x9E37_79B9_7F4A_7C15
    }

    /// The slot holding `key` (hashed to `hash`), or the empty slot where it would go, among the
    /// `mask + 1` slots at the start of `storage`: the probe every operation shares.
    private static func probe(
        _ storage: UnsafeBufferPointer<UInt64>, mask: Int, tagMask: UInt64, _ key: String, hash: UInt64, key keyAt: (Int) -> String
    ) -> (slot: Int, held: Int?) {
        let tag = (hash >> positionBits) & tagMask
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let word = storage[slot]
            if word == 0 { return (slot, nil) }
            if word >> positionBits == tag {
                let position = Int(word & positionMask) - 1
                if ExactKey.same(keyAt(position), key) { return (slot, position) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// The position of the first key inserted with exactly `key`'s bytes; nil when there is none.
    /// `key` gives the list's key at a position held.
    public func position(of key: String, key keyAt: (Int) -> String) -> Int? {
        let (mask, tagMask) = (slotCount - 1, tagMask)
        return storage.withUnsafeBufferPointer { Self.probe($0, mask: mask, tagMask: tagMask, key, hash: Self.hash(key), key: keyAt).held }
    }

    /// `position(of:key:)` of each of `keys`, in order; a block of keys is hashed and its slots
    /// fetched before any is probed.
    public func positions(of keys: [String], key keyAt: (Int) -> String) -> [Int?] {
        var positions: [Int?] = []
        positions.reserveCapacity(keys.count)
        var hashes = [UInt64](repeating: 0, count: Self.blockSize)
        let (mask, tagMask) = (slotCount - 1, tagMask)
        storage.withUnsafeBufferPointer { storage in
            for blockStart in stride(from: 0, to: keys.count, by: Self.blockSize) {
                let block = blockStart..<min(blockStart + Self.blockSize, keys.count)
                Self.fetch(block, of: keys, into: &hashes, in: storage, mask: mask, forWrite: false)
                for index in block {
                    let hash = hashes[index - blockStart]
                    positions.append(Self.probe(storage, mask: mask, tagMask: tagMask, keys[index], hash: hash, key: keyAt).held)
                }
            }
        }
        return positions
    }

    /// Hashes `keys[block]` into `hashes` and asks for each one's first slot.
    private static func fetch(
        _ block: Range<Int>, of keys: [String], into hashes: inout [UInt64], in storage: UnsafeBufferPointer<UInt64>, mask: Int,
        forWrite: Bool
    ) {
        for index in block {
            let hash = Self.hash(keys[index])
            hashes[index - block.lowerBound] = hash
            let slot = storage.baseAddress! + (Int(truncatingIfNeeded: hash) & mask)
            if forWrite { fallback_prefetch_for_write(slot) } else { fallback_prefetch_for_read(slot) }
        }
    }

    /// Holds `position` for `key`, unless a key with its bytes is held already: then that key's
    /// position is returned and nothing changes. Nil when `position` was inserted.
    ///
    /// `key` gives the list's key at every position held, and at `position` when the table grows
    /// (so a caller may insert a key before adding it to its list, if `key` answers for it).
    @discardableResult
    public mutating func insert(_ key: String, at position: Int, key keyAt: (Int) -> String) -> Int? {
        let held = insert(key, hash: Self.hash(key), at: position, key: keyAt)
        if held == nil, count * 2 > slotCount { grow(toHold: count, key: keyAt) }
        return held
    }

    /// Inserts each position of `positions` in order, for the key `key` gives, as
    /// `insert(_:at:key:)` would one by one; calls `repeated(position, first)` for each whose key
    /// was held already (at `first`), which is not inserted. A block of keys is hashed and its
    /// slots fetched before any is inserted.
    public mutating func insert(
        keysAt positions: Range<Int>, key keyAt: (Int) -> String, repeated: (_ position: Int, _ first: Int) -> Void
    ) {
        if (count + positions.count) * 2 > slotCount { grow(toHold: count + positions.count, key: keyAt) }
        var keys: [String] = []
        keys.reserveCapacity(Self.blockSize)
        var hashes = [UInt64](repeating: 0, count: Self.blockSize)
        let mask = slotCount - 1
        for blockStart in stride(from: positions.lowerBound, to: positions.upperBound, by: Self.blockSize) {
            let block = blockStart..<min(blockStart + Self.blockSize, positions.upperBound)
            keys.removeAll(keepingCapacity: true)
            for position in block { keys.append(keyAt(position)) }
            storage.withUnsafeBufferPointer { Self.fetch(keys.indices, of: keys, into: &hashes, in: $0, mask: mask, forWrite: true) }
            for position in block {
                let offset = position - blockStart
                if let first = insert(keys[offset], hash: hashes[offset], at: position, key: keyAt) { repeated(position, first) }
            }
        }
    }

    /// The insert of one key whose hash is known, into a table with room for it.
    private mutating func insert(_ key: String, hash: UInt64, at position: Int, key keyAt: (Int) -> String) -> Int? {
        precondition(position >= 0 && UInt64(position) < Self.positionMask, "a position fits in 40 bits")
        let (mask, tagMask) = (slotCount - 1, tagMask)
        let (slot, held) = storage.withUnsafeBufferPointer { Self.probe($0, mask: mask, tagMask: tagMask, key, hash: hash, key: keyAt) }
        if let held { return held }
        storage[slot] = ((hash >> Self.positionBits) & tagMask) << Self.positionBits | UInt64(position + 1)
        storage[mask + 1] += 1
        return nil
    }

    /// Slots enough for `capacity` keys, at least twice as many as before, every position placed
    /// again by its key's hash; the header moves to the end.
    private mutating func grow(toHold capacity: Int, key keyAt: (Int) -> String) {
        let old = storage
        let oldSlots = old.count - 1
        let slots = max(Self.slotCount(for: capacity), oldSlots * 2)
        storage = [UInt64](repeating: 0, count: slots + 1)
        storage[slots] = old[oldSlots]
        let mask = slots - 1
        for word in old[..<oldSlots] where word != 0 {
            let position = Int(word & Self.positionMask) - 1
            var slot = Int(truncatingIfNeeded: Self.hash(keyAt(position))) & mask
            while storage[slot] != 0 { slot = (slot + 1) & mask }
            storage[slot] = word
        }
    }
}

/// The positions of a list whose key an earlier position has, each with the first position that
/// has it, in position order: what building a `KeyPositions` of the list meets (`insert` returns
/// the first position), kept so that asking whether an item repeats an earlier one needs no lookup.
public struct RepeatedKeys: Sendable {
    private var pairs: [(position: Int, first: Int)] = []

    /// None yet.
    public init() {}

    /// Records that the key at `position`, past every position recorded so far, was first at `first`.
    public mutating func append(_ position: Int, first: Int) {
        precondition(pairs.last.map { $0.position < position } ?? true, "positions are recorded in order")
        pairs.append((position, first))
    }

    /// True when no position repeats an earlier key.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The first position with the key at `position`, when `position` repeats an earlier key; nil
    /// when the key at `position` is the first of its bytes. A binary search.
    public func firstPosition(ofKeyAt position: Int) -> Int? {
        var low = 0
        var high = pairs.count
        while low < high {
            let middle = (low + high) / 2
            if pairs[middle].position < position { low = middle + 1 } else { high = middle }
        }
        return low < pairs.count && pairs[low].position == position ? pairs[low].first : nil
    }
}
