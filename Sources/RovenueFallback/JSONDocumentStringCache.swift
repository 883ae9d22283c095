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
    /// Direct-mapped: each slot keeps the last string whose length and first 16 bytes hash to it, and
    /// the place of its bytes in the document, so a longer string's remaining bytes are compared
    /// with the document's own. Work per string stays linear in its length, whatever the input.
    /// One cache serves one thread at a time (`StringCachePool` hands them out).
    final class StringCache: @unchecked Sendable {
        private struct Slot {
            /// The first 16 bytes, packed as `FieldTable.PackedName` packs them.
            var low: UInt64
            var high: UInt64
            /// The byte length, -1 for an empty slot.
            var length: Int
            /// Where the string's bytes start in the document's text.
            var offset: Int
            var string: String
        }

        /// The number of slots (a power of two): 40 KiB, and the slot of a string is chosen by a hash.
        static let defaultSlotCount = 1024

        private let slots: UnsafeMutablePointer<Slot>
        private let shift: UInt64
        let slotCount: Int

        /// A cache of `slotCount` slots, a power of two (tests use one or two to force evictions).
        init(slotCount: Int = StringCache.defaultSlotCount) {
            precondition(slotCount > 0 && slotCount & (slotCount - 1) == 0, "the slot count is a power of two")
            self.slotCount = slotCount
            shift = UInt64(64 - slotCount.trailingZeroBitCount)
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: Slot(low: 0, high: 0, length: -1, offset: 0, string: ""), count: slotCount)
        }

        deinit {
            slots.deinitialize(count: slotCount)
            slots.deallocate()
        }

        /// The string of the UTF-8 bytes `start..<end` of `text`, the whole document's text (valid
        /// UTF-8 there: the parser checked it). Every call of one cache must pass the same `text`.
        @inline(__always)
        func string(_ start: Int, _ end: Int, in text: UnsafeBufferPointer<UInt8>) -> String {
            let length = end - start
            let packed = FieldTable.PackedName(text, start: start, count: length)
            // A multiplicative hash: its top bits choose the slot.
            let mixed = (packed.low ^ (packed.high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: length)) &* 0x9E37_79B9_7F4A_7C15
            let slot = slots + Int(truncatingIfNeeded: slotCount == 1 ? 0 : mixed >> shift)
            if slot.pointee.length == length, slot.pointee.low == packed.low, slot.pointee.high == packed.high,
                length <= 16 || memcmp(text.baseAddress! + start + 16, text.baseAddress! + slot.pointee.offset + 16, length - 16) == 0
            {
                return slot.pointee.string
            }
            let made = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            slot.pointee = Slot(low: packed.low, high: packed.high, length: length, offset: start, string: made)
            return made
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
