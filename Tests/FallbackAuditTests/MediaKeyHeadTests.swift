@testable import FallbackAudit
import Testing

/// The media scan reads a key's first eight bytes in one load (`MediaScan.KnownKeys.head`); it
/// must answer exactly what a byte-by-byte reading answers: the first eight bytes packed
/// little-endian, zero past the end. (Whether a key has a backslash is the parser's flag on its
/// node: `AuditFastPathTests.keyFlagsAgreeWithDecodedKeys` checks keys written with escapes.)
@Suite struct MediaKeyHeadTests {
    static func byteByByte(_ bytes: [UInt8], start: Int, length: Int) -> UInt64 {
        var head: UInt64 = 0
        for offset in 0..<min(length, 8) { head |= UInt64(bytes[start + offset]) << (8 * offset) }
        return head
    }

    /// Every length up to 24 at offsets 0 to 3, with each special byte (backslash, 0x80, 0xFF,
    /// 0x7F, 0x5B and 0x5D around the backslash, 0x5C + 0x100 wrapping cases) at every position,
    /// and bytes after the key that must not count; keys at the end of the buffer, where eight
    /// bytes are not there to load, too.
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
                    for buffer in [bytes, Array(bytes[..<(start + length)])] {
                        let head = buffer.withUnsafeBufferPointer { MediaScan.KnownKeys.head($0, start: start, length: length) }
                        #expect(head == expected, "head: length \(length), start \(start), byte \(special) at \(position)")
                    }
                }
            }
        }
    }
}
