/// A scan of valid JSON text, one byte at a time, that knows whether it is inside a string: it
/// follows the quotes and backslash escapes, so a caller can tell whitespace between tokens from
/// whitespace that belongs to a string's value.
///
/// For tools that read JSON text as bytes without parsing it (comparing two values' texts with
/// whitespace between tokens aside, checking a writer's output is compact). `JSONDocument` is the
/// parser; this only follows the string boundaries of text that parsed.
package struct JSONTextScan: Sendable {
    /// True when the next byte is inside a string: its opening quote has been read, its closing
    /// quote not yet.
    package private(set) var isInString = false
    private var isEscaped = false

    package init() {}

    /// Reads the next byte of the text.
    package mutating func read(_ byte: UInt8) {
        if isInString {
            if isEscaped {
                isEscaped = false
            } else if byte == UInt8(ascii: "\\") {
                isEscaped = true
            } else if byte == UInt8(ascii: "\"") {
                isInString = false
            }
        } else if byte == UInt8(ascii: "\"") {
            isInString = true
        }
    }

    /// True for the four bytes RFC 8259 allows between tokens: space, tab, line feed, carriage return.
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// For eight bytes of text loaded as a word: non-zero exactly when one of them ends a string's
    /// plain run (a quote, a backslash or a byte below U+0020), zero when none does. The bits set
    /// are lane high bits, by the carry-free tests of "Bit Twiddling Hacks" (a zero byte, a byte
    /// below `n`): exact for whether any lane matches, though a lane after a true one may be marked
    /// too, so only the answer "none" or "some" is meant.
    @inline(__always)
    package static func stringStopBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)) & highs
    }

    /// The offset of the first byte at or after `start` in `text` that ends a string's plain run
    /// (a quote, a backslash or a byte below U+0020), `text.count` when none does.
    ///
    /// 32 bytes at a time with `SIMD32<UInt8>` compares while none is there, then word by word
    /// (`stringStopBits`): a word's lowest marked lane is exact (a lane is marked falsely only by
    /// the borrow of a true lane below it), so the offset is read off the word's lowest set bit.
    /// The bytes after the last whole word are read one by one.
    @inline(__always)
    package static func firstStringStop(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = text.baseAddress else { return text.count }
        let count = text.count
        var index = start
        let quotes = SIMD32<UInt8>(repeating: UInt8(ascii: "\""))
        let backslashes = SIMD32<UInt8>(repeating: UInt8(ascii: "\\"))
        let spaces = SIMD32<UInt8>(repeating: 0x20)
        while index + 32 <= count {
            let block = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD32<UInt8>.self)
            let stops = (block .== quotes) .| (block .== backslashes) .| (block .< spaces)
            // A true lane is 0xFF: the lanes' words are zero together only when no lane is true.
            let words = unsafeBitCast(stops, to: SIMD4<UInt64>.self)
            if words[0] | words[1] | words[2] | words[3] != 0 { break }
            index += 32
        }
        while index + 8 <= count {
            let stops = stringStopBits(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if stops != 0 { return index + stops.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return count
    }
}
