/// Stage 1 as `JSONDocument`'s parser reads it: for every 64-byte block of the text, a bitmap of
/// the bytes that are not whitespace and a bitmap of the bytes that end a string's plain run (a
/// quote, a backslash, a control character), with the line starts, the UTF-8 continuation bytes per
/// 4 KiB block and the first invalid UTF-8, all found in the same pass, 64 bytes at a time with
/// `SIMD64<UInt8>` comparisons (the vector path) or one byte at a time (the scalar path, which gives
/// the same index).
///
/// Stage 2, the parser's grammar, then jumps: from a token's end to the next significant byte and
/// from a string's opening quote to the next quote, backslash or control byte, with a bit search
/// instead of a byte loop; it looks at a byte only where a bitmap says something is there.
/// `StructuralIndex` is the same stage 1 as offset lists, for tools and tests; this form keeps the
/// bits, which is what a parser that already follows the grammar needs.
///
/// Bytes past the end count as set in both bitmaps (the last word is padded, and one word more is
/// kept when the text fills its last block), so a search always stops, at the text's length at most.
struct ParseIndex: Sendable {
    /// Bit `i` of word `b` is set when byte `64 * b + i` is not JSON whitespace.
    private(set) var significant: [UInt64] = []
    /// Bit `i` of word `b` is set when byte `64 * b + i` is `"`, `\` or below U+0020.
    private(set) var stringStops: [UInt64] = []
    /// The offset at which each line starts: 0, then one past every line feed.
    private(set) var lineStarts: [Int] = [0]
    /// For each 4 KiB block (`JSONDocument.blockShift`), its UTF-8 continuation bytes.
    private(set) var continuationsInBlock: [Int32]
    /// The first byte that does not start or continue a well-formed UTF-8 sequence.
    private(set) var firstInvalidUTF8: Int?

    /// Indexes `bytes` along `path`; both paths give the same index.
    init(bytes: UnsafeBufferPointer<UInt8>, path: StructuralIndex.Path) {
        continuationsInBlock = [Int32](repeating: 0, count: (bytes.count >> JSONDocument.blockShift) + 1)
        let wordCount = bytes.count / 64 + 1
        var significant: [UInt64] = []
        var stringStops: [UInt64] = []
        significant = [UInt64](unsafeUninitializedCapacity: wordCount) { significantWords, significantCount in
            HugePages.advise(UnsafeMutableRawPointer(significantWords.baseAddress), byteCount: wordCount * 8)
            stringStops = [UInt64](unsafeUninitializedCapacity: wordCount) { stopWords, stopCount in
                HugePages.advise(UnsafeMutableRawPointer(stopWords.baseAddress), byteCount: wordCount * 8)
                switch path {
                case .vector:
                    #if _endian(little)
                        scanVector(bytes, significant: significantWords, stringStops: stopWords)
                    #else
                        scanScalar(bytes, significant: significantWords, stringStops: stopWords)
                    #endif
                case .scalar: scanScalar(bytes, significant: significantWords, stringStops: stopWords)
                }
                stopCount = wordCount
            }
            significantCount = wordCount
        }
        self.significant = significant
        self.stringStops = stringStops
    }

    /// The first offset at or after `offset` whose bit is set in `words`; the text's length when
    /// no byte's is. `offset` must not pass the text's length.
    @inline(__always)
    static func next(in words: UnsafeBufferPointer<UInt64>, from offset: Int) -> Int {
        var block = offset &>> 6
        var word = words[block] & (~0 &<< UInt64(offset & 63))
        while word == 0 {
            block &+= 1
            word = words[block]
        }
        return block &<< 6 | word.trailingZeroBitCount
    }

    // MARK: Scalar path

    private mutating func scanScalar(
        _ bytes: UnsafeBufferPointer<UInt8>, significant: UnsafeMutableBufferPointer<UInt64>,
        stringStops: UnsafeMutableBufferPointer<UInt64>
    ) {
        for word in 0..<significant.count {
            var significantBits: UInt64 = 0
            var stopBits: UInt64 = 0
            for lane in 0..<64 {
                let offset = word * 64 + lane
                let bit: UInt64 = 1 << UInt64(lane)
                guard offset < bytes.count else {
                    significantBits |= bit
                    stopBits |= bit
                    continue
                }
                let byte = bytes[offset]
                if !JSONTextScan.isWhitespace(byte) { significantBits |= bit }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { stopBits |= bit }
                if byte == 0x0A { lineStarts.append(offset + 1) }
                if byte & 0xC0 == 0x80 { continuationsInBlock[offset >> JSONDocument.blockShift] += 1 }
            }
            significant[word] = significantBits
            stringStops[word] = stopBits
        }
        firstInvalidUTF8 = StructuralIndex.firstInvalidUTF8(bytes, from: 0, through: bytes.count).invalid
    }

    // MARK: Vector path

    private mutating func scanVector(
        _ bytes: UnsafeBufferPointer<UInt8>, significant: UnsafeMutableBufferPointer<UInt64>,
        stringStops: UnsafeMutableBufferPointer<UInt64>
    ) {
        let count = bytes.count
        let laneBits = StructuralIndex.laneBits
        let quote = SIMD64<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD64<UInt8>(repeating: UInt8(ascii: "\\"))
        let space = SIMD64<UInt8>(repeating: 0x20)
        let tab = SIMD64<UInt8>(repeating: 0x09)
        let lineFeed = SIMD64<UInt8>(repeating: 0x0A)
        let carriageReturn = SIMD64<UInt8>(repeating: 0x0D)
        let high = SIMD64<UInt8>(repeating: 0x80)
        let leadStart = SIMD64<UInt8>(repeating: 0xC0)
        // Where the UTF-8 check resumes: a sequence may run past the block that starts it.
        var utf8Resume = 0
        for word in 0..<significant.count {
            let blockStart = word * 64
            let block: SIMD64<UInt8>
            if blockStart + 64 <= count, let base = UnsafeRawPointer(bytes.baseAddress) {
                block = base.loadUnaligned(fromByteOffset: blockStart, as: SIMD64<UInt8>.self)
            } else {
                // The last block, padded with zero bytes: significant and a string stop, as the
                // bytes past the end must be, and neither a line feed nor UTF-8.
                var padded = SIMD64<UInt8>()
                for lane in 0..<max(0, count - blockStart) { padded[lane] = bytes[blockStart + lane] }
                block = padded
            }
            // Most blocks of compact text hold no byte below U+0020: then the only whitespace is
            // the space, and there is no line feed to look for.
            let control = StructuralIndex.bits(block .< space, laneBits)
            stringStops[word] = StructuralIndex.bits((block .== quote) .| (block .== backslash), laneBits) | control
            var whitespace = StructuralIndex.bits(block .== space, laneBits)
            if control != 0 {
                whitespace |= StructuralIndex.bits((block .== tab) .| (block .== lineFeed) .| (block .== carriageReturn), laneBits)
                var lineFeeds = StructuralIndex.bits(block .== lineFeed, laneBits)
                while lineFeeds != 0 {
                    lineStarts.append(blockStart + lineFeeds.trailingZeroBitCount + 1)
                    lineFeeds &= lineFeeds &- 1
                }
            }
            significant[word] = ~whitespace
            let highLanes = block .>= high
            let highBits = StructuralIndex.bits(highLanes, laneBits)
            guard highBits != 0 else { continue }
            let continuations = StructuralIndex.bits(highLanes .& (block .< leadStart), laneBits)
            continuationsInBlock[blockStart >> JSONDocument.blockShift] += Int32(continuations.nonzeroBitCount)
            if firstInvalidUTF8 == nil {
                (firstInvalidUTF8, utf8Resume) = StructuralIndex.firstInvalidUTF8(bytes, inBlockAt: blockStart, high: highBits, resume: utf8Resume)
            }
        }
    }
}
