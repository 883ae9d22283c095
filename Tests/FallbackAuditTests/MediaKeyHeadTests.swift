@testable import FallbackAudit
import Testing

/// The media scan reads a key's first eight bytes a word at a time (`MediaScan.plainASCIIHead`);
/// it must answer exactly what a byte-by-byte reading answers: nil for a backslash or a non-ASCII
/// byte anywhere in the key, else the first eight bytes packed little-endian, zero past the end.
@Suite struct MediaKeyHeadTests {
    static func byteByByte(_ bytes: [UInt8], start: Int, length: Int) -> UInt64? {
        var head: UInt64 = 0
        for offset in 0..<length {
            let byte = bytes[start + offset]
            if byte == UInt8(ascii: "\\") || byte >= 0x80 { return nil }
            if offset < 8 { head |= UInt64(byte) << (8 * offset) }
        }
        return head
    }

    /// Every length up to 24 at offsets 0 to 3, with each special byte (backslash, 0x80, 0xFF,
    /// 0x7F, 0x5B and 0x5D around the backslash, 0x5C + 0x100 wrapping cases) at every position,
    /// and bytes after the key that must not count.
    @Test(arguments: [UInt8(ascii: "\\"), 0x80, 0xFF, 0xC3, 0x7F, 0x5B, 0x5D, 0x00, 0x01, 0xDC])
    func agreesWithByteByByte(_ special: UInt8) {
        for length in 0...24 {
            for start in 0...3 {
                for position in -1..<length {
                    var bytes = (0..<(start + length + 12)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
                    if position >= 0 { bytes[start + position] = special }
                    // A special byte just past the key is not the key's.
                    bytes[start + length] = UInt8(ascii: "\\")
                    let expected = Self.byteByByte(bytes, start: start, length: length)
                    let read = bytes.withUnsafeBufferPointer { MediaScan.plainASCIIHead($0, start: start, length: length) }
                    #expect(read == expected, "length \(length), start \(start), byte \(special) at \(position)")
                }
            }
        }
    }
}
