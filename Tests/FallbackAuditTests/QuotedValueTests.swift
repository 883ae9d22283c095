@testable import FallbackAudit
import RovenueFallback
import Testing

/// `Format.quoted` writes a value as a JSON literal, shortened past 80 characters: text with
/// nothing to escape is copied between quotes as it is (the fast path), anything else as
/// `JSONValue.quoted` writes it, whatever the string's storage.
@Suite struct QuotedValueTests {
    static let texts: [String] = [
        "", "a", "pg_welcome", "https://cdn.example.com/media/hero.png", "é日🙂", "e\u{301}",
        String(repeating: "x", count: 80), String(repeating: "x", count: 81), String(repeating: "é", count: 80),
        String(repeating: "é", count: 41), String(repeating: "🙂", count: 81),
        "say \"hi\"", "back\\slash", "tab\there", "line\nfeed", "\u{0}", "\u{1F}", "\u{7F}",
        String(repeating: "a", count: 79) + "\"", String(repeating: "\"", count: 90),
        // Characters of several scalars at the cut, where counting stops at 81 (`Format.characterCount`).
        String(repeating: "e\u{301}", count: 80), String(repeating: "e\u{301}", count: 81),
        String(repeating: "\u{1F1EB}\u{1F1F7}", count: 80), String(repeating: "\u{1F1EB}\u{1F1F7}", count: 81) + "\u{1F1EB}",
        String(repeating: "\r\n", count: 81), String(repeating: "a", count: 80) + "\u{301}\u{301}",
        String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", count: 81), String(repeating: "e\u{301}", count: 20_000),
    ]

    /// What `quoted` wrote before its fast path.
    static func reference(_ text: String) -> String {
        if text.utf8.count <= 80, !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        return text.count > 80 ? JSONValue.quoted(String(text.prefix(80))) + "…" : JSONValue.quoted(text)
    }

    @Test(arguments: texts) func matchesTheReference(_ text: String) {
        #expect(Format.quoted(text) == Self.reference(text))
        // A substring's copy and a bridged-looking slice: the same.
        #expect(Format.quoted(String(text[...])) == Self.reference(text))
    }

    @Test func plainTextIsQuotedAsItIs() {
        #expect(Format.quoted("pg_welcome") == #""pg_welcome""#)
        #expect(Format.quoted("") == #""""#)
        #expect(Format.quoted("é日🙂") == "\"é日🙂\"")
        #expect(Format.quoted("a\"b") == #""a\"b""#)
        #expect(Format.quoted(String(repeating: "x", count: 81)) == "\"" + String(repeating: "x", count: 80) + "\"…")
    }
}
