import Testing
@testable import FallbackAudit

/// `Format.joined` copies its parts' bytes into one string's storage rather than appending each
/// as a `String` (issue 10: thousands of messages are built from seven or eight parts each). The
/// text must be the parts one after another, byte for byte, whatever they hold.
@Suite("Joined messages")
struct JoinedMessageTests {
    /// Parts that are empty, ASCII, small (held inline) and large, non-ASCII, combining marks that
    /// join the character before them, and a string made natively rather than from a literal.
    static let parts: [String] = [
        "", "Page ", "\"welcome\"", "é", "e", "\u{301}", "€𝄞", String(repeating: "long text ", count: 40),
        String(decoding: [0x63, 0x61, 0x66, 0x65, 0xCC, 0x81], as: UTF8.self), "\n\t", "",
    ]

    @Test func joinedTextIsThePartsOneAfterAnother() {
        for first in Self.parts {
            for second in Self.parts {
                for third in Self.parts {
                    let joined = Format.joined(first, second, third)
                    #expect(Array(joined.utf8) == Array(first.utf8) + Array(second.utf8) + Array(third.utf8))
                }
            }
        }
    }

    @Test func joinedOfNothingAndOfOnePart() {
        #expect(Format.joined().isEmpty)
        #expect(Format.joined("") == "")
        let long = String(repeating: "ß∆", count: 500)
        #expect(Array(Format.joined(long).utf8) == Array(long.utf8))
    }
}
