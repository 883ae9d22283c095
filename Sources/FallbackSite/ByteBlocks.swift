/// A byte-by-byte scan, sixteen bytes at a time: a block of `SIMD16<UInt8>` compared with the
/// bytes a scan stops at, which the compiler lowers to the target's own vector instructions (SSE2
/// on x86-64, NEON on ARM), and the first lane that matches found as the lowest set byte of the
/// mask's two 64-bit words. `ListingBytes.scan` passes each run of plain ASCII in a value this way,
/// and `PositionCursor` each sixteen bytes of ASCII without a line feed.
///
/// A scan asks `firstIndex(in:from:stoppingAt:)` (with the lanes it stops at) past the bytes it
/// tests one at a time; its scalar loop stays callable alone (`StructuralIndex.Path.scalar`) as
/// the reference its tests compare the vector path with, and goes through buffers too short for a
/// block. `StructuralIndex` has the 64-byte version of this for JSON: its bitmaps need every
/// lane's bit, a scan here only the first.
///
/// Only where runs are long enough: `MarkupPosition`'s skip over a page's HTML to the next byte
/// that changes its context stops every five bytes or so in a 1k build (3.9 million stops), and
/// blocks there cost more than they saved (6,616 M instructions became 6,664 M).
enum ByteBlocks {
    typealias Block = SIMD16<UInt8>
    typealias Lanes = SIMDMask<SIMD16<Int8>>

    /// The first index from `index` (at most `bytes.count`) on whose byte is in a lane that
    /// `stops` marks in its block, or `bytes.count` for none; every byte before the index returned
    /// is in no marked lane. The last bytes are the last sixteen of the buffer, with the lanes
    /// before `index` left out. A buffer of fewer than sixteen bytes is left to the caller's
    /// scalar loop: `index` comes back as it was.
    @inline(__always)
    static func firstIndex(in bytes: UnsafeBufferPointer<UInt8>, from index: Int, stoppingAt stops: (Block) -> Lanes) -> Int {
        guard bytes.count >= 16, let base = UnsafeRawPointer(bytes.baseAddress) else { return index }
        var index = index
        while index &+ 16 <= bytes.count {
            let lanes = stops(base.loadUnaligned(fromByteOffset: index, as: Block.self))
            if let lane = firstLane(lanes) { return index &+ lane }
            index &+= 16
        }
        guard index < bytes.count else { return index }
        let lastStart = bytes.count &- 16
        // Lanes before `index` (already passed) are cleared: `skipped` of them, 1 to 15.
        let skipped = index &- lastStart
        var words = unsafeBitCast(stops(base.loadUnaligned(fromByteOffset: lastStart, as: Block.self)), to: SIMD2<UInt64>.self)
        if skipped >= 8 {
            words[0] = 0
            words[1] &= ~0 &<< UInt64(truncatingIfNeeded: (skipped &- 8) &* 8)
        } else {
            words[0] &= ~0 &<< UInt64(truncatingIfNeeded: skipped &* 8)
        }
        return lastStart &+ (firstLane(words) ?? 16)
    }

    /// True when any lane is marked.
    @inline(__always)
    static func anyLane(_ lanes: Lanes) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// The first marked lane: a marked lane is a 0xFF byte, the first the lowest nonzero byte of
    /// the mask's two words.
    @inline(__always)
    private static func firstLane(_ lanes: Lanes) -> Int? {
        firstLane(unsafeBitCast(lanes, to: SIMD2<UInt64>.self))
    }

    @inline(__always)
    private static func firstLane(_ words: SIMD2<UInt64>) -> Int? {
        if words[0] != 0 { return words[0].trailingZeroBitCount &>> 3 }
        if words[1] != 0 { return 8 &+ words[1].trailingZeroBitCount &>> 3 }
        return nil
    }
}
