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
    /// The eight-byte skip (`JSONTextScan.stringStopBits`) around every word boundary: each escaped
    /// character at every place of texts of 0 to 24 bytes, plain, after multi-byte characters, and
    /// two of them in one word.
    static let placedEscapes: [String] = {
        var texts: [String] = []
        for escaped in ["\"", "\\", "\n", "\u{00}", "\u{1F}", "\u{7F}", "\u{80}", "é"] {
            for length in 0...24 {
                for place in 0...length {
                    for background in ["a", "日"] {
                        let before = String(repeating: background, count: place)
                        let after = String(repeating: "b", count: length - place)
                        texts.append(before + escaped + after)
                        texts.append(before + escaped + "\\" + after)
                    }
                }
            }
        }
        return texts
    }()

    @Test func escapesAtEveryPlaceOfAWord() {
        for text in Self.placedEscapes {
            var bytes: [UInt8] = []
            JSONValue.appendQuoted(text, to: &bytes)
            guard String(decoding: bytes, as: UTF8.self) == Self.expected(text) else {
                Issue.record("\(text.debugDescription) is written \(String(decoding: bytes, as: UTF8.self))")
                return
            }
        }
    }

    /// The word test agrees with the byte rule for every byte value in every lane, over backgrounds
    /// of plain, stop and high bytes (which the carry of a true lane could disturb).
    @Test func theWordTestAgreesWithTheByteRule() {
        let stops: (UInt8) -> Bool = { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        for background: UInt8 in [0x61, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF, 0x00, 0x22, 0x5C, 0x1F] {
            for lane in 0..<8 {
                for value in 0...255 {
                    var lanes = [UInt8](repeating: background, count: 8)
                    lanes[lane] = UInt8(value)
                    let word = lanes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let expected = lanes.contains(where: stops)
                    guard (JSONTextScan.stringStopBits(word) != 0) == expected else {
                        Issue.record("lanes \(lanes): \(!expected)")
                        return
                    }
                }
            }
        }
    }
}
