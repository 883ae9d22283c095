#if arch(x86_64)
    import CByteMasks
#endif

/// The bytes of a 64-byte block that pass one test, as a 64-bit mask (bit `i` for the byte at
/// `block + i`): how stage 1 (`ParseIndex`) and the split parse's count of whole blocks
/// (`JSONDocument.SplitParse.countBlocks`) read a block. Two sets give the same masks for any bytes:
/// `PortableBlockMasks`, written with Swift's `SIMD64<UInt8>`, and on x86-64 `SSE2BlockMasks`, which
/// gathers each mask with one `pmovmskb` per sixteen bytes (`CByteMasks`); `NativeBlockMasks` is
/// the faster of the two this processor has. Each function reads the 64 bytes from `block`, which
/// need not be aligned.
package protocol BlockMasks {
    /// The bytes equal to `byte`.
    static func bytes(equalTo byte: UInt8, in block: UnsafeRawPointer) -> UInt64
    /// The bytes equal to `first` or to `second`.
    static func bytes(equalTo first: UInt8, or second: UInt8, in block: UnsafeRawPointer) -> UInt64
    /// JSON whitespace: space, tab, line feed and carriage return.
    static func whitespace(in block: UnsafeRawPointer) -> UInt64
    /// The bytes below U+0020.
    static func controlCharacters(in block: UnsafeRawPointer) -> UInt64
    /// The bytes from 0x80 up: those of multi-byte UTF-8, or not UTF-8.
    static func highBytes(in block: UnsafeRawPointer) -> UInt64
    /// The bytes from 0x80 to 0xBF: UTF-8's continuation bytes.
    static func continuationBytes(in block: UnsafeRawPointer) -> UInt64
}

#if arch(x86_64)
    /// The masks with SSE2, which every x86-64 processor has.
    package typealias NativeBlockMasks = SSE2BlockMasks
#else
    /// The masks with Swift's portable SIMD types: this processor has no faster set here.
    package typealias NativeBlockMasks = PortableBlockMasks
#endif

/// The masks with `SIMD64<UInt8>` comparisons, turned into bits by `StructuralIndex.bits`: on every
/// processor, and the reference `SSE2BlockMasks` is tested against. The tests for control and high
/// bytes ask first whether any lane holds one (`StructuralIndex.anyLane`), which is cheaper than
/// gathering bits that are nearly always zero.
package enum PortableBlockMasks: BlockMasks {
    /// Bit `i % 8` in lane `i`, as `StructuralIndex.laneBits`, written as a constant the compiler folds.
    @inline(__always)
    private static var laneBits: SIMDMask<SIMD64<Int8>> {
        unsafeBitCast(SIMD8<UInt64>(repeating: 0x8040_2010_0804_0201), to: SIMDMask<SIMD64<Int8>>.self)
    }

    @inline(__always)
    private static func load(_ block: UnsafeRawPointer) -> SIMD64<UInt8> {
        block.loadUnaligned(as: SIMD64<UInt8>.self)
    }

    @inline(__always)
    package static func bytes(equalTo byte: UInt8, in block: UnsafeRawPointer) -> UInt64 {
        StructuralIndex.bits(load(block) .== SIMD64(repeating: byte), laneBits)
    }

    @inline(__always)
    package static func bytes(equalTo first: UInt8, or second: UInt8, in block: UnsafeRawPointer) -> UInt64 {
        let bytes = load(block)
        return StructuralIndex.bits((bytes .== SIMD64(repeating: first)) .| (bytes .== SIMD64(repeating: second)), laneBits)
    }

    @inline(__always)
    package static func whitespace(in block: UnsafeRawPointer) -> UInt64 {
        let bytes = load(block)
        let lanes = (bytes .== SIMD64(repeating: 0x20)) .| (bytes .== SIMD64(repeating: 0x09)) .| (bytes .== SIMD64(repeating: 0x0A))
            .| (bytes .== SIMD64(repeating: 0x0D))
        return StructuralIndex.bits(lanes, laneBits)
    }

    @inline(__always)
    package static func controlCharacters(in block: UnsafeRawPointer) -> UInt64 {
        let lanes = load(block) .< SIMD64(repeating: 0x20)
        return StructuralIndex.anyLane(lanes) ? StructuralIndex.bits(lanes, laneBits) : 0
    }

    @inline(__always)
    package static func highBytes(in block: UnsafeRawPointer) -> UInt64 {
        let lanes = load(block) .>= SIMD64(repeating: 0x80)
        return StructuralIndex.anyLane(lanes) ? StructuralIndex.bits(lanes, laneBits) : 0
    }

    @inline(__always)
    package static func continuationBytes(in block: UnsafeRawPointer) -> UInt64 {
        let bytes = load(block)
        return StructuralIndex.bits((bytes .>= SIMD64(repeating: 0x80)) .& (bytes .< SIMD64(repeating: 0xC0)), laneBits)
    }
}

#if arch(x86_64)
    /// The masks with SSE2 (`CByteMasks`): sixteen bytes compared at once and each result gathered
    /// with one `pmovmskb`, where `StructuralIndex.bits` needs shifts, additions and a gather for
    /// every 64 bytes (about 24 cycles a mask here). With these, stage 1 of the 10,000-placement
    /// sample takes 13.7 ms on one thread against 18.8-19.1 ms with the portable masks, and the
    /// strict parse 56.5-56.7 ms against 65.5-73.0 ms (`fallback-bench`, alternating runs).
    package enum SSE2BlockMasks: BlockMasks {
        @inline(__always)
        private static func start(_ block: UnsafeRawPointer) -> UnsafePointer<UInt8> {
            block.assumingMemoryBound(to: UInt8.self)
        }

        @inline(__always)
        package static func bytes(equalTo byte: UInt8, in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_equal(start(block), byte)
        }

        @inline(__always)
        package static func bytes(equalTo first: UInt8, or second: UInt8, in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_either(start(block), first, second)
        }

        @inline(__always)
        package static func whitespace(in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_whitespace(start(block))
        }

        @inline(__always)
        package static func controlCharacters(in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_control(start(block))
        }

        @inline(__always)
        package static func highBytes(in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_high(start(block))
        }

        @inline(__always)
        package static func continuationBytes(in block: UnsafeRawPointer) -> UInt64 {
            fallback_mask_continuation(start(block))
        }
    }
#endif
