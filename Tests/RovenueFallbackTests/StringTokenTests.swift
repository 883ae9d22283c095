import Foundation
@testable import RovenueFallback
import Testing

/// Each string token's node, read against what the token is, not against another parse: its byte
/// range, whether it is a key, whether it has escapes, and its decoded text, for strings whose first
/// plain run ends at the closing quote (the parser's inlined path) and for strings with escapes
/// at the start, the middle or the end, surrogate pairs and lone surrogates (the path after it).
@Suite struct StringTokenTests {
    static let bodies: [String] = [
        "", "a", "plain text", "é—😀", #"\n"#, #"a\"b"#, #"\\"#, #"ab\/"#, #"\u00e9x"#, #"x\ud83d\ude00"#,
        #"\ud83d\ude00\t"#, String(repeating: "y", count: 70) + #"\r"#, #"\b\f"#,
    ]

    /// The text a string token's body decodes to, by Foundation's JSON reader.
    static func decoded(_ body: String) throws -> String {
        let array = try JSONSerialization.jsonObject(with: Data("[\"\(body)\"]".utf8)) as? [String]
        return try #require(array?.first)
    }

    @Test(arguments: bodies) func keyAndValueNodes(_ body: String) throws {
        let token = "\"\(body)\""
        let text = "{" + token + ":" + token + ",\"n\":[" + token + "]}"
        let bytes = Array(text.utf8)
        let document = JSONDocument(bytes: bytes)
        #expect(document.syntaxError == nil)
        let tokenLength = token.utf8.count
        let expected = [(1, true), (2 + tokenLength, false), (8 + 2 * tokenLength, false)]
        let strings = document.nodes.indices.filter { document.nodes[$0].kind == .string }
        try #require(strings.count == 4)
        let valueStrings = strings.filter { $0 != strings[2] }
        for ((start, isKey), index) in zip(expected, valueStrings) {
            let node = document.nodes[index]
            #expect(Int(node.start) == start, "\(body)")
            #expect(Int(node.end) == start + tokenLength, "\(body)")
            #expect((node.flags & JSONDocument.isKey != 0) == isKey, "\(body)")
            #expect((node.flags & JSONDocument.hasEscapes != 0) == body.contains("\\"), "\(body)")
            #expect(document.string(ofNode: index) == (try Self.decoded(body)), "\(body)")
        }
    }

    /// A lone surrogate after a plain run is recorded on its own string node, at its backslash.
    @Test func loneSurrogateAfterAPlainRun() throws {
        let bytes = Array(#"["ok","ab\udc00","\ud800"]"#.utf8)
        let document = JSONDocument(bytes: bytes, acceptingLoneSurrogates: true)
        #expect(document.syntaxError == nil)
        #expect(document.loneSurrogates.map(\.node) == [2, 3])
        #expect(document.loneSurrogates.map(\.offset) == [9, 18])
        #expect(document.loneSurrogates.map(\.isLeading) == [false, true])
        #expect(document.nodes[1].flags & JSONDocument.hasEscapes == 0)
        #expect(document.nodes[2].flags & JSONDocument.hasLoneSurrogate != 0)
        let refused = JSONDocument(bytes: bytes)
        #expect(refused.syntaxError?.offset == 9)
    }

    /// A string left open, or broken by a control byte, after an escape and without one.
    @Test func brokenStrings() {
        #expect(JSONDocument(bytes: Array(#"["ab"#.utf8)).syntaxError?.message == "EOF while parsing a string")
        #expect(JSONDocument(bytes: Array(#"["a\nb"#.utf8)).syntaxError?.offset == 6)
        #expect(JSONDocument(bytes: Array("[\"a\u{01}\"]".utf8)).syntaxError?.offset == 3)
        #expect(JSONDocument(bytes: Array("[\"\\t\u{01}\"]".utf8)).syntaxError?.offset == 4)
        #expect(JSONDocument(bytes: Array(#"["\x"]"#.utf8)).syntaxError?.message == "invalid escape")
    }
}
