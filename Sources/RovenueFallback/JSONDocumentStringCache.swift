import Foundation

// MARK: - Strings remembered by their bytes

extension JSONDocument {
    /// The strings the decoder made from string nodes written without escapes, remembered by their
    /// bytes: a node whose bytes are a remembered string's gets that string instead of a new one.
    ///
    /// A snapshot repeats most of its strings (page types, ids that rules name, locales, operators,
    /// copy shared by funnels), and making a `String` costs a UTF-8 check, and past 15 bytes an
    /// allocation and a copy. A remembered string costs a hash of the first 16 bytes and a compare,
    /// and its storage is shared by every value equal to it, so the model also takes less memory.
    /// The string returned is always the one `String(decoding:as:)` makes of the same bytes.
    ///
    /// Direct-mapped (`BytesTable`): each slot keeps the last string whose length and first 16 bytes
    /// hash to it, and the place of its bytes in the document, so a longer string's remaining bytes
    /// are compared with the document's own. Work per string stays linear in its length, whatever
    /// the input. The texts' locale maps are remembered the same way, in a table of their own.
    /// One cache serves one thread at a time (`StringCachePool` hands them out).
    final class StringCache: @unchecked Sendable {
        /// The most slots of each table (a power of two). On the 10,000-placement sample, 4,096 slots
        /// find 92% of the texts (1,024 found 85%, 16,384 only 94%) and leave a quarter fewer strings
        /// to make.
        static let defaultSlotCount = 4096
        /// The slots a table starts with, so a small document does not pay for the large tables
        /// (`BytesTable` grows as it misses).
        static let initialSlotCount = 256

        private let strings: BytesTable<String>
        /// The locale maps of texts (`LocalizedText.localized`), remembered by the bytes of their
        /// whole object: a text's map is made only from those bytes, so equal bytes give an equal
        /// text, and the copy a snapshot repeats (funnels that share their pages' copy) is read once
        /// and shared, and freed once.
        let texts: BytesTable<LocalizedText>
        /// The text lists (`LocalizedTextList`), by the bytes of their whole array or object, as `texts`.
        let textLists: BytesTable<LocalizedTextList>
        /// The keys of the last locale map the decoders of this cache read (`EntryDecoder.localeMap`).
        /// Only the decoder holding the cache's lease reads and writes it.
        @exclusivity(unchecked) var recentLocales = RecentLocales()
        /// The sum of the words `EntryDecoder.bringIntoCache` read, kept so that its reads are not
        /// dropped as unused. Only the decoder holding the cache's lease writes it.
        @exclusivity(unchecked) var readsKept: UInt32 = 0

        /// A cache whose tables start at `initialSlotCount` slots and grow to `defaultSlotCount`.
        convenience init() {
            self.init(slotCount: StringCache.initialSlotCount, growingTo: StringCache.defaultSlotCount)
        }

        /// A cache of `slotCount` slots per table, a power of two, that never grow (tests use one or
        /// two to force evictions).
        convenience init(slotCount: Int) {
            self.init(slotCount: slotCount, growingTo: slotCount)
        }

        private init(slotCount: Int, growingTo maximum: Int) {
            strings = BytesTable(slotCount: slotCount, growingTo: maximum)
            texts = BytesTable(slotCount: slotCount, growingTo: maximum)
            textLists = BytesTable(slotCount: slotCount, growingTo: maximum)
        }

        /// The string of the UTF-8 bytes `start..<end` of `text`, the whole document's text (valid
        /// UTF-8 there: the parser checked it). Every call of one cache must pass the same `text`.
        @inline(__always)
        func string(_ start: Int, _ end: Int, in text: UnsafeBufferPointer<UInt8>) -> String {
            let probe = strings.probe(start, end, in: text)
            if let remembered = probe.value { return remembered }
            let made = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            strings.store(made, at: probe)
            return made
        }
    }

    /// The keys of the last locale map a decoder read, and where they are written in the text:
    /// the next map whose keys are written with exactly those bytes, in that order, shares the keys
    /// array instead of building its own.
    struct RecentLocales {
        /// A key's bytes in the document's text.
        struct KeyBytes {
            var start: Int
            var count: Int
        }

        /// The map's distinct keys (its values are the value nodes of the object it was read from).
        var keys = OrderedMap<Int>()
        /// Where each key is written, in order; empty when the map had a key with escapes or a
        /// repeated key (then no map shares its keys).
        var written: [KeyBytes] = []
    }

    /// A direct-mapped table of values made from byte ranges of one document's text, found by those
    /// bytes: each slot keeps the last value whose range's length and first 16 bytes hash to it, and
    /// where its bytes are in the text, so a longer range's remaining bytes are compared with the
    /// text's own. Work per lookup stays linear in the range's length, whatever the input. Every
    /// call must pass the same text.
    ///
    /// It starts small and, each time it has missed twice as often as it has slots, trades its slots
    /// for four times as many (empty; it is a cache) until it has `maximumSlotCount`: a small
    /// document's decode pays for a small table only.
    final class BytesTable<Value> {
        struct Slot {
            /// The first 16 bytes, packed as `FieldTable.PackedName` packs them.
            var low: UInt64
            var high: UInt64
            /// The byte length, -1 for an empty slot.
            var length: Int
            /// Where the value's bytes start in the document's text.
            var offset: Int
            var value: Value?
        }

        /// A lookup's slot and key; `value` is the remembered value, nil when the slot holds another.
        /// Good only until the next `store`.
        struct Probe {
            let slot: UnsafeMutablePointer<Slot>
            let low: UInt64
            let high: UInt64
            let length: Int
            let offset: Int
            let value: Value?
        }

        private var slots: UnsafeMutablePointer<Slot>
        private var shift: UInt64
        private(set) var slotCount: Int
        let maximumSlotCount: Int
        /// Misses since the table last grew.
        private var misses = 0

        init(slotCount: Int, growingTo maximum: Int) {
            precondition(slotCount > 0 && slotCount & (slotCount - 1) == 0, "the slot count is a power of two")
            precondition(maximum >= slotCount && maximum & (maximum - 1) == 0, "the most slots is a larger power of two")
            maximumSlotCount = maximum
            (slots, shift, self.slotCount) = BytesTable.emptySlots(slotCount)
        }

        deinit {
            slots.deinitialize(count: slotCount)
            slots.deallocate()
        }

        private static func emptySlots(_ count: Int) -> (UnsafeMutablePointer<Slot>, UInt64, Int) {
            let slots = UnsafeMutablePointer<Slot>.allocate(capacity: count)
            slots.initialize(repeating: Slot(low: 0, high: 0, length: -1, offset: 0, value: nil), count: count)
            return (slots, UInt64(64 - count.trailingZeroBitCount), count)
        }

        /// The slot of the bytes `start..<end` of `text`, with the value remembered for them if any.
        @inline(__always)
        func probe(_ start: Int, _ end: Int, in text: UnsafeBufferPointer<UInt8>) -> Probe {
            let length = end - start
            let packed = FieldTable.PackedName(text, start: start, count: length)
            let slot = slots + BytesTable.index(low: packed.low, high: packed.high, length: length, shift: shift, count: slotCount)
            var value: Value?
            if slot.pointee.length == length, slot.pointee.low == packed.low, slot.pointee.high == packed.high,
                length <= 16 || memcmp(text.baseAddress! + start + 16, text.baseAddress! + slot.pointee.offset + 16, length - 16) == 0
            {
                value = slot.pointee.value
            }
            return Probe(slot: slot, low: packed.low, high: packed.high, length: length, offset: start, value: value)
        }

        /// Remembers `value` as made from the bytes `probe` looked up (replacing what the slot held),
        /// then grows the table if it has missed twice as often as it has slots.
        @inline(__always)
        func store(_ value: Value, at probe: Probe) {
            probe.slot.pointee = Slot(low: probe.low, high: probe.high, length: probe.length, offset: probe.offset, value: value)
            misses += 1
            if misses > 2 * slotCount, slotCount < maximumSlotCount { grow() }
        }

        /// The slot of a key: a multiplicative hash, whose top bits choose it.
        @inline(__always)
        private static func index(low: UInt64, high: UInt64, length: Int, shift: UInt64, count: Int) -> Int {
            let mixed = (low ^ (high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: count == 1 ? 0 : mixed >> shift)
        }

        @inline(never)
        private func grow() {
            slots.deinitialize(count: slotCount)
            slots.deallocate()
            (slots, shift, slotCount) = BytesTable.emptySlots(min(slotCount * 4, maximumSlotCount))
            misses = 0
        }
    }

    /// The document's `StringCache`s: each decoder takes one for its lifetime (`lease()`), and it
    /// comes back when the decoder is gone, so the decoders of one thread share what they remember.
    final class StringCachePool: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [StringCache] = []

        /// A cache no one else is using, kept until the lease is released.
        func lease() -> StringCacheLease {
            let cache = lock.withLock { idle.popLast() } ?? StringCache()
            return StringCacheLease(cache: cache, pool: self)
        }

        fileprivate func giveBack(_ cache: StringCache) {
            lock.withLock { idle.append(cache) }
        }
    }

    /// A `StringCache` taken from a pool; it goes back to the pool when the lease is released.
    final class StringCacheLease {
        let cache: StringCache
        private let pool: StringCachePool

        fileprivate init(cache: StringCache, pool: StringCachePool) {
            self.cache = cache
            self.pool = pool
        }

        deinit { pool.giveBack(cache) }
    }
}
