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

    /// What `quoted` wrote before its fast path; a text of more than `Format.shortScalarLimit`
    /// scalars cut there first (the same cut unless its first 80 characters run past the limit,
    /// as 81 families of five scalars each do).
    static func reference(_ text: String) -> String {
        if text.utf8.count <= 80, !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        if text.unicodeScalars.count > Format.shortScalarLimit {
            let head = String(String.UnicodeScalarView(text.unicodeScalars.prefix(Format.shortScalarLimit)))
            return JSONValue.quoted(String(head.prefix(80))) + "…"
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

    /// A character can pile up any number of combining marks: an id of one letter and 50,000
    /// marks is one character, which the 80-character cut kept whole in every message naming it
    /// (800 MB of `check` text from a 666 KB file). A text past `Format.shortScalarLimit` scalars
    /// is cut there first, then at 80 characters.
    @Test(arguments: [1, 3, 300, 50_000]) func aPileOfMarksIsCut(_ marks: Int) {
        for base in ["e", "x\"", "🙂"] {
            let text = base + String(repeating: "\u{301}", count: marks) + "tail"
            let quoted = Format.quoted(text)
            let shortened = Format.shortened(text)
            if text.unicodeScalars.count <= Format.shortScalarLimit {
                #expect(quoted == Self.reference(text))
                #expect(shortened == (text.count > 80 ? String(text.prefix(80)) + "…" : text))
            } else {
                #expect(quoted.hasSuffix("\"…"))
                #expect(shortened.hasSuffix("…"))
                #expect(shortened.unicodeScalars.count <= Format.shortScalarLimit + 1)
                #expect(quoted.unicodeScalars.count <= 6 * Format.shortScalarLimit)
                #expect(text.utf8.starts(with: String(shortened.dropLast()).utf8), "a prefix of the text")
            }
        }
    }

    /// `shortened(_:toCharacters:)` at any limit: the first `limit` characters and `…` when the
    /// text has more, within its first `4 × limit` scalars (a text past those is cut there first,
    /// then at `limit` characters), whole characters of several scalars and bytes alike.
    @Test(arguments: [1, 5, 80, 81, 300, 2_048])
    func shortenedToAnyLimitMatchesTheReference(limit: Int) {
        func reference(_ text: String) -> String {
            if text.unicodeScalars.count > 4 * limit {
                let head = String(String.UnicodeScalarView(text.unicodeScalars.prefix(4 * limit)))
                return String(head.prefix(limit)) + "…"
            }
            return text.count > limit ? String(text.prefix(limit)) + "…" : text
        }
        let pieces = ["x", "é", "日", "🙂", "e\u{301}", "\u{1F1EB}\u{1F1F7}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\r\n"]
        for piece in pieces {
            for count in [limit - 1, limit, limit + 1, 3 * limit, 5 * limit] where count >= 0 {
                let text = String(repeating: piece, count: count)
                #expect(Format.shortened(text, toCharacters: limit) == reference(text), "\(piece) × \(count)")
            }
        }
        #expect(Format.shortened("e" + String(repeating: "\u{301}", count: 10 * limit), toCharacters: limit).hasSuffix("…"))
    }

    /// Ordinary text longer than the scalar limit is cut exactly where 80 characters cut it.
    @Test func ordinaryLongTextIsCutAsBefore() {
        for text in [String(repeating: "x", count: 5_000), String(repeating: "e\u{301}", count: 20_000),
                     String(repeating: "\u{1F1EB}\u{1F1F7}", count: 200), String(repeating: "日本語 ", count: 500)] {
            #expect(text.unicodeScalars.count > Format.shortScalarLimit)
            let old = text.count > 80 ? JSONValue.quoted(String(text.prefix(80))) + "…" : JSONValue.quoted(text)
            #expect(Format.quoted(text) == old)
            #expect(Format.shortened(text) == String(text.prefix(80)) + "…")
        }
    }
}
