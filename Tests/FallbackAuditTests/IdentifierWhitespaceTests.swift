import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// `identifier-invalid` for placement keys and identifiers whose ends are or are not whitespace,
/// against the rule's own words: the first or last character is whitespace
/// (`Character.isWhitespace`), or the text is over 160 characters. The audit answers most of them
/// from their first and last bytes; these are the texts where bytes and characters could disagree.
@Suite struct IdentifierWhitespaceTests {
    static let identifiers: [String] = [
        "a", "ab", " a", "a ", "\ta", "a\t", "a\n", "a\r\n", "\u{0B}a", "a\u{0C}", "a\r", "\u{1C}a", "a\u{1F}", "a\u{7F}",
        "\u{A0}a", "a\u{A0}", "a\u{2003}", "\u{3000}a", "a\u{85}", "e\u{301}", "a\u{0600}b", "\u{0600}a", "a\u{2003}\u{301}",
        "é", "😀", String(repeating: "x", count: 160), String(repeating: "x", count: 161), String(repeating: "é", count: 81),
        String(repeating: "é", count: 161), " " + String(repeating: "x", count: 159),
    ]

    /// The identifier as a JSON string's content: printable ASCII as it is, anything else escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
                result.unicodeScalars.append(scalar)
            } else {
                result += String(format: "\\u%04x", scalar.value)
            }
        }
        return result
    }

    @Test(arguments: identifiers) func whitespaceAtEitherEnd(_ identifier: String) {
        let isInvalid = identifier.first!.isWhitespace || identifier.last!.isWhitespace || identifier.count > 160
        let key = Self.escaped(identifier)
        let found = findings(Snap.file(#""\#(key)":{"placement":\#(Snap.placement(key)),"paywall":\#(Snap.paywall())}"#))
        let invalid = found.filter { $0.ruleId == "identifier-invalid" }
        #expect(invalid.count == (isInvalid ? 2 : 0), "\(identifier.unicodeScalars.map(\.value))")
    }
}
