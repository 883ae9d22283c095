/// Stage 1 of a JSON parse, after simdjson's: where a text's strings start and end, which bytes are
/// escaped, where its structural characters and lines are, and where the first raw control character
/// in a string and the first invalid UTF-8 are, found 64 bytes at a time with portable `SIMD` types
/// (NEON on arm64, SSE/AVX on x86), or one byte at a time by the scalar path that gives the same result.
///
/// The index reads bytes, not grammar, so it is defined for any text, valid JSON or not:
/// - a backslash that is not itself escaped escapes the byte after it, inside strings or out (so in
///   `\\\"` the quote is escaped and in `\\"` it is not);
/// - a quote that is not escaped opens a string or closes the open one (`quotes` alternate: opening,
///   closing, opening…); the opening quote and the string's body are inside the string, the closing
///   quote is not;
/// - `{`, `}`, `[`, `]`, `:` and `,` outside strings are `structurals`;
/// - a line starts at 0 and after every line feed (a carriage return alone does not start one, as in
///   `JSONDocument`'s positions);
/// - UTF-8 is checked sequence by sequence as `JSONDocument` checks it (an ASCII-only block is
///   skipped whole).
///
/// On valid JSON the string spans, structurals and line starts are exactly those `JSONDocument` finds.
/// Offsets are 32-bit, as in `JSONDocument`, whose `maximumByteCount` bounds the text.
package struct StructuralIndex: Sendable, Equatable {
    /// How the bytes are scanned; both give identical indexes.
    package enum Path: Sendable, CaseIterable {
        /// 64 bytes at a time, each test of a block's bytes turned into a 64-bit mask: with the
        /// fastest masks this processor has (`NativeBlockMasks`) where a scan has a choice (stage 1,
        /// `ParseIndex`, and the split parse's count of whole blocks), else with `SIMD64<UInt8>`.
        case vector
        /// As `vector`, with the masks of Swift's portable `SIMD64<UInt8>` comparisons everywhere
        /// (`PortableBlockMasks`): what `vector` is on processors without a faster set, kept so that
        /// tests compare both sets of masks on every processor's path.
        case portableVector
        /// One byte at a time: the reference the vector path is tested against, and its fallback.
        case scalar
    }

    /// The offsets of the unescaped quotes, in text order; even indexes open a string, odd ones close it.
    package private(set) var quotes: [UInt32] = []
    /// The offsets of `{`, `}`, `[`, `]`, `:` and `,` outside strings, in text order.
    package private(set) var structurals: [UInt32] = []
    /// The offsets of the backslashes inside strings that escape the byte after them, in text order.
    package private(set) var escapes: [UInt32] = []
    /// The offset at which each line starts: 0, then one past every line feed.
    package private(set) var lineStarts: [UInt32] = [0]
    /// The first byte below U+0020 inside a string, which RFC 8259 forbids unescaped.
    package private(set) var firstControlInString: Int?
    /// The first byte that does not start or continue a well-formed UTF-8 sequence.
    package private(set) var firstInvalidUTF8: Int?

    /// True when the text ends inside a string (an odd number of unescaped quotes).
    package var endsInString: Bool { quotes.count % 2 == 1 }

    /// The string spans: each from its opening quote to one past its closing quote. An unclosed
    /// string at the end is left out.
    package var stringRanges: [Range<Int>] {
        stride(from: 0, to: quotes.count - 1, by: 2).map { Int(quotes[$0])..<Int(quotes[$0 + 1]) + 1 }
    }

    /// Indexes `bytes` along `path`. Texts over `JSONDocument.maximumByteCount` are not indexed (the
    /// index is empty but for line 1), as `JSONDocument` refuses them.
    package init(bytes: [UInt8], path: Path = .vector) {
        guard bytes.count <= JSONDocument.maximumByteCount else { return }
        bytes.withUnsafeBufferPointer { buffer in
            switch path {
            case .vector, .portableVector:
                // The masks read a vector's bytes as words, lowest address lowest: little-endian only.
                #if _endian(little)
                    scanVector(buffer)
                #else
                    scanScalar(buffer)
                #endif
            case .scalar: scanScalar(buffer)
            }
        }
    }

    // MARK: Scalar path

    private mutating func scanScalar(_ bytes: UnsafeBufferPointer<UInt8>) {
        var isEscaped = false
        var isInString = false
        for offset in 0..<bytes.count {
            let byte = bytes[offset]
            if isEscaped {
                isEscaped = false
            } else if byte == UInt8(ascii: "\\") {
                isEscaped = true
                if isInString { escapes.append(UInt32(offset)) }
            } else if byte == UInt8(ascii: "\"") {
                quotes.append(UInt32(offset))
                isInString.toggle()
                continue
            }
            if isInString {
                if byte < 0x20, firstControlInString == nil { firstControlInString = offset }
            } else if StructuralIndex.isStructural(byte) {
                structurals.append(UInt32(offset))
            }
            if byte == 0x0A { lineStarts.append(UInt32(offset + 1)) }
        }
        firstInvalidUTF8 = StructuralIndex.firstInvalidUTF8(bytes, from: 0, through: bytes.count).invalid
    }

    private static func isStructural(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: ","): true
        default: false
        }
    }

    // MARK: Vector path

    /// The lanes where `mask` is true as bits of a 64-bit integer, lane 0 the lowest bit.
    /// `laneBits` holds bit `i % 8` in lane `i`, as a mask's storage.
    ///
    /// Only operations the standard library lowers to vector instructions for these types are used
    /// (`.==`, `.&` on masks, `&+`, shifts by a constant): its bitwise `&` and
    /// `|` on `SIMD64<UInt8>` go lane by lane.
    @inlinable @inline(__always)
    package static func bits(_ mask: SIMDMask<SIMD64<Int8>>, _ laneBits: SIMDMask<SIMD64<Int8>>) -> UInt64 {
        // Each 64-bit word holds eight bytes with distinct bits: their sum is their union, and the
        // shifted additions gather it into the word's lowest byte without a carry. (Right shifts:
        // the compiler turns additions of left-shifted copies into 64-bit multiplies, which SSE2
        // does not have.)
        var words = unsafeBitCast(mask .& laneBits, to: SIMD8<UInt64>.self)
        words &+= words &>> 8
        words &+= words &>> 16
        words &+= words &>> 32
        let bytes = unsafeBitCast(words, to: SIMD64<UInt8>.self)
        let gathered = SIMD8<UInt8>(bytes[0], bytes[8], bytes[16], bytes[24], bytes[32], bytes[40], bytes[48], bytes[56])
        return unsafeBitCast(gathered, to: UInt64.self)
    }

    /// True when any lane of `mask` is true: cheaper than `bits(_:_:)` where only that is asked (the
    /// standard library's `any(_:)` goes lane by lane). A true lane is a 0xFF byte, so the lowest
    /// byte position where any of the eight words has one sums, with nothing carried into it, to
    /// -(1...8) mod 256, which is not zero: the words' sum is zero only when no lane is true.
    @inline(__always)
    static func anyLane(_ mask: SIMDMask<SIMD64<Int8>>) -> Bool {
        unsafeBitCast(mask, to: SIMD8<UInt64>.self).wrappedSum() != 0
    }

    /// Bit `i % 8` in lane `i`: what `bits(_:_:)` weighs each lane of a mask by.
    package static let laneBits: SIMDMask<SIMD64<Int8>> = {
        var weights = SIMD64<UInt8>()
        for lane in 0..<64 { weights[lane] = 1 << UInt8(lane % 8) }
        return unsafeBitCast(weights, to: SIMDMask<SIMD64<Int8>>.self)
    }()

    /// Each bit set where an odd number of bits at or below it are set in `bits`.
    @inline(__always)
    static func prefixXOR(_ bits: UInt64) -> UInt64 {
        var bits = bits
        bits ^= bits << 1
        bits ^= bits << 2
        bits ^= bits << 4
        bits ^= bits << 8
        bits ^= bits << 16
        bits ^= bits << 32
        return bits
    }

    /// The 64 bytes of `bytes` from `blockStart`; the last, partial block padded with spaces,
    /// which mark nothing.
    @inline(__always)
    static func block(of bytes: UnsafeBufferPointer<UInt8>, at blockStart: Int, base: UnsafeRawPointer) -> SIMD64<UInt8> {
        if blockStart + 64 <= bytes.count {
            return base.loadUnaligned(fromByteOffset: blockStart, as: SIMD64<UInt8>.self)
        }
        var padded = SIMD64<UInt8>(repeating: 0x20)
        for lane in 0..<(bytes.count - blockStart) { padded[lane] = bytes[blockStart + lane] }
        return padded
    }

    /// Escapes in a block whose backslashes are `backslash`, its first byte escaped when
    /// `nextIsEscaped` is 1: a backslash not escaped itself escapes the next byte; runs alternate.
    /// `escaped` marks the bytes a backslash escapes, `escape` the backslashes that escape one
    /// (its bit 63 carries to the next block).
    @inline(__always)
    static func escapes(backslash: UInt64, nextIsEscaped: UInt64) -> (escaped: UInt64, escape: UInt64) {
        guard backslash != 0 else { return (nextIsEscaped, 0) }
        // simdjson's trick: subtracting each run's unescaped start from the odd-bit pattern
        // leaves the run's escaping backslashes and the byte after an odd run marked.
        let oddBits: UInt64 = 0xAAAA_AAAA_AAAA_AAAA
        let potential = backslash & ~nextIsEscaped
        let escapeAndTerminal = (((potential << 1) | oddBits) &- potential) ^ oddBits
        return (escapeAndTerminal ^ (backslash | nextIsEscaped), escapeAndTerminal & backslash)
    }

    @inline(__always)
    private static func append(_ mask: UInt64, at base: Int, to offsets: inout [UInt32]) {
        var mask = mask
        while mask != 0 {
            offsets.append(UInt32(truncatingIfNeeded: base + mask.trailingZeroBitCount))
            mask &= mask &- 1
        }
    }

    private mutating func scanVector(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count > 0, let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        let laneBits = StructuralIndex.laneBits
        let quoteBytes = SIMD64<UInt8>(repeating: UInt8(ascii: "\""))
        let backslashBytes = SIMD64<UInt8>(repeating: UInt8(ascii: "\\"))
        let space = SIMD64<UInt8>(repeating: 0x20)
        let braceOpen = SIMD64<UInt8>(repeating: UInt8(ascii: "{"))
        let braceClose = SIMD64<UInt8>(repeating: UInt8(ascii: "}"))
        let bracketOpen = SIMD64<UInt8>(repeating: UInt8(ascii: "["))
        let bracketClose = SIMD64<UInt8>(repeating: UInt8(ascii: "]"))
        let colonBytes = SIMD64<UInt8>(repeating: UInt8(ascii: ":"))
        let commaBytes = SIMD64<UInt8>(repeating: UInt8(ascii: ","))
        let lineFeedBytes = SIMD64<UInt8>(repeating: 0x0A)
        let highBytes = SIMD64<UInt8>(repeating: 0x80)
        // Carried from block to block: whether the first byte is escaped, and whether it is in a string.
        var nextIsEscaped: UInt64 = 0
        var inStringCarry: UInt64 = 0
        // Where the UTF-8 check resumes: a sequence may run past the block that starts it.
        var utf8Resume = 0
        var blockStart = 0
        while blockStart < count {
            let block = StructuralIndex.block(of: bytes, at: blockStart, base: base)
            let backslash = StructuralIndex.bits(block .== backslashBytes, laneBits)
            let (escaped, escape) = StructuralIndex.escapes(backslash: backslash, nextIsEscaped: nextIsEscaped)
            nextIsEscaped = escape >> 63

            // Strings: from each opening quote up to (not including) its closing one.
            let quote = StructuralIndex.bits(block .== quoteBytes, laneBits) & ~escaped
            let inString = StructuralIndex.prefixXOR(quote) ^ inStringCarry
            inStringCarry = UInt64(bitPattern: Int64(bitPattern: inString) >> 63)

            let structuralLanes = (block .== braceOpen) .| (block .== braceClose) .| (block .== bracketOpen)
                .| (block .== bracketClose) .| (block .== colonBytes) .| (block .== commaBytes)
            let structural = StructuralIndex.bits(structuralLanes, laneBits) & ~inString
            let control = StructuralIndex.bits(block .< space, laneBits) & inString
            let lineFeed = StructuralIndex.bits(block .== lineFeedBytes, laneBits)

            StructuralIndex.append(quote, at: blockStart, to: &quotes)
            StructuralIndex.append(structural, at: blockStart, to: &structurals)
            StructuralIndex.append(escape & inString, at: blockStart, to: &escapes)
            StructuralIndex.append(lineFeed, at: blockStart + 1, to: &lineStarts)
            if control != 0, firstControlInString == nil {
                firstControlInString = blockStart + control.trailingZeroBitCount
            }

            if firstInvalidUTF8 == nil {
                let high = StructuralIndex.bits(block .>= highBytes, laneBits)
                if high != 0 {
                    (firstInvalidUTF8, utf8Resume) = StructuralIndex.firstInvalidUTF8(bytes, inBlockAt: blockStart, high: high, resume: utf8Resume)
                }
            }
            blockStart += 64
        }
    }

    // MARK: UTF-8

    /// Checks the UTF-8 sequences that start in `start..<end` (the last may run past `end`): the
    /// first invalid one, else where the next sequence starts.
    static func firstInvalidUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, through end: Int
    ) -> (invalid: Int?, resume: Int) {
        var index = start
        while index < end {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard let length = utf8SequenceLength(bytes, at: index) else { return (index, index) }
            index += length
        }
        return (nil, index)
    }

    /// Checks the UTF-8 sequences that start in the 64-byte block at `blockStart` at or after
    /// `resume` (the last may run past the block), given the block's bitmap of bytes from 0x80 up:
    /// the first invalid one, else where the next sequence starts. ASCII is passed over by the bitmap.
    @inline(__always)
    static func firstInvalidUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>, inBlockAt blockStart: Int, high: UInt64, resume: Int
    ) -> (invalid: Int?, resume: Int) {
        var resume = resume
        var high = high
        while true {
            let checked = resume - blockStart
            if checked > 0 { high = checked >= 64 ? 0 : high & (~0 &<< UInt64(checked)) }
            guard high != 0 else { return (nil, resume) }
            let offset = blockStart + high.trailingZeroBitCount
            guard let length = utf8SequenceLength(bytes, at: offset) else { return (offset, offset) }
            resume = offset + length
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, nil when it is not one: no overlong
    /// forms, no surrogates, nothing above U+10FFFF, no sequence cut short by the end of the text.
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let second = bytes[offset + 1]
        guard second >= lower, second <= upper else { return nil }
        for index in offset + 2..<offset + length where bytes[index] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}
