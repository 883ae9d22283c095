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
    /// The block and word skips (`JSONTextScan.firstStringStop`) around every block and word
    /// boundary: each escaped character at every place of texts of 0 to 40 bytes, plain, after
    /// multi-byte characters, and two of them in one word.
    static let placedEscapes: [String] = {
        var texts: [String] = []
        for escaped in ["\"", "\\", "\n", "\u{00}", "\u{1F}", "\u{7F}", "\u{80}", "é", "\u{2028}"] {
            for length in 0...40 {
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

    /// `firstStringStop` finds the first byte the byte rule stops at, from any start: stop and
    /// neighbouring byte values at every place of texts around the 32-byte blocks, the words and
    /// the tail, alone and with a second stop after them, over plain, space, high and
    /// stop-adjacent backgrounds; and every byte value at every place of a 100-byte text.
    @Test func theFirstStopIsTheByteRules() {
        let stops: (UInt8) -> Bool = { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        func reference(_ text: [UInt8], from start: Int) -> Int {
            text.indices.first { $0 >= start && stops(text[$0]) } ?? text.count
        }
        func check(_ text: [UInt8], from start: Int) -> Bool {
            let found = text.withUnsafeBufferPointer { JSONTextScan.firstStringStop(in: $0, from: start) }
            guard found == reference(text, from: start) else {
                Issue.record("\(text) from \(start): \(found)")
                return false
            }
            return true
        }
        let lengths = Array(0...9) + [15, 16, 17, 23, 24, 25, 31, 32, 33, 39, 40, 41, 63, 64, 65, 71, 72, 73, 100]
        let values: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xE2, 0xFF]
        for background: UInt8 in [0x61, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0xE2, 0xFF] {
            for length in lengths {
                let plain = [UInt8](repeating: background, count: length)
                for start in [0, 1, 7, 31, 33] where start <= length {
                    guard check(plain, from: start) else { return }
                }
                for place in 0..<length {
                    for value in values {
                        var text = plain
                        text[place] = value
                        if place + 3 < length { text[place + 3] = UInt8(ascii: "\"") }
                        for start in [0, place, place + 1] {
                            guard check(text, from: start) else { return }
                        }
                    }
                }
            }
        }
        for place in 0..<100 {
            for value in 0...255 {
                var text = [UInt8](repeating: 0x61, count: 100)
                text[place] = UInt8(value)
                guard check(text, from: 0) else { return }
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
