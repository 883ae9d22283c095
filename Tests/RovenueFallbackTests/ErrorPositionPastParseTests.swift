import RovenueFallback
import Testing

/// Invalid UTF-8 is reported even when a syntax error comes before it (text decoding comes first,
/// §2 rule 3), so its offset can lie past where the parse stopped: its line and column must count
/// the line feeds in between, as they do when there is no syntax error.
@Suite struct ErrorPositionPastParseTests {
    /// The same text after a syntax error (`,,`) or without it: the invalid byte is on line 4.
    @Test(arguments: [
        (prefix: #"{"formatVersion":1,,"#, lineEnd: "\n"),
        (prefix: #"{"formatVersion":1,"#, lineEnd: "\n"),
        (prefix: #"{"formatVersion":1,,"#, lineEnd: "\r\n"),
        (prefix: #"{"formatVersion":1 "#, lineEnd: "\r\n"),
        (prefix: #"{"formatVersion":"é"]"#, lineEnd: "\n"),
    ])
    func invalidUTF8AfterASyntaxErrorIsPlacedOnItsOwnLine(prefix: String, lineEnd: String) throws {
        let head = Array((prefix + lineEnd + lineEnd + lineEnd + #" "b": "é"#).utf8)
        let bytes = head + [0xFF] + Array(#""}"#.utf8)
        let document = JSONDocument(bytes: bytes)
        let error = try #require(document.syntaxError)
        #expect(error.reason == .invalidUTF8)
        #expect(error.offset == head.count)
        // Line 4; column: a space, `"b": "é` is 8 scalars, so the bad byte is the 9th.
        #expect(document.position(ofOffset: error.offset) == JSONDocument.Position(line: 4, column: 9))
    }

    /// Offsets inside the parse keep their positions; one past the end of a text cut by an
    /// error counts every line feed before it.
    @Test func offsetsPastTheParseCountEveryLineFeed() {
        let text = "{\"a\":\n1,,\n\n\"x\"\n}"
        let document = JSONDocument(text: text)
        #expect(document.syntaxError != nil)
        #expect(document.position(ofOffset: 0) == JSONDocument.Position(line: 1, column: 1))
        #expect(document.position(ofOffset: text.utf8.count) == JSONDocument.Position(line: 5, column: 2))
    }
}
