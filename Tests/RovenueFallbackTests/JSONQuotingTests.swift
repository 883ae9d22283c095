import Foundation
import Testing

@testable import RovenueFallback

/// `JSONValue.appendQuoted(_:to:)` is the one JSON string escaping: `writeQuoted(_:to:)` and the
/// byte writers of `check`'s JSON and SARIF go through it.
struct JSONQuotingTests {
    /// Each character escaped as RFC 8259 allows and the writers have always written it.
    static func expected(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}": out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static let texts: [String] = [
        "", "plain", "quote \" and backslash \\", "\u{00}\u{01}\u{1F} controls", "line\nfeed\rreturn\ttab\u{08}\u{0C}",
        "</script><!--", "\u{2028}\u{2029} separators", "é 日本 🙂", String(repeating: "a\"", count: 5_000),
        (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }.joined(),
    ]

    @Test(arguments: texts)
    func bytesAndTextEscapeAlike(_ text: String) throws {
        var bytes: [UInt8] = Array("prefix ".utf8)
        JSONValue.appendQuoted(text, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "prefix " + Self.expected(text))
        var output = "prefix "
        JSONValue.writeQuoted(text, to: &output)
        #expect(output == "prefix " + Self.expected(text))
        let read = try JSONSerialization.jsonObject(with: Data(bytes.dropFirst(7)), options: .fragmentsAllowed) as? String
        #expect(read == text)
    }
}
