import RovenueFallback
import Testing

/// `JSONTextScan` follows string boundaries through escapes, so whitespace inside a string is
/// told from whitespace between tokens.
@Suite("JSONTextScan")
struct JSONTextScanTests {
    /// The text with each byte the scan reads inside a string replaced by `s`.
    private static func marked(_ text: String) -> String {
        var scan = JSONTextScan()
        var result = ""
        for byte in text.utf8 {
            let inside = scan.isInString
            scan.read(byte)
            // The closing quote is read inside the string; the opening one outside.
            result += inside ? "s" : String(decoding: [byte], as: UTF8.self)
        }
        return result
    }

    @Test(
        arguments: [
            (#"{"a b": 1}"#, #"{"ssss: 1}"#),
            (#"["x\" y", 2]"#, #"["ssssss, 2]"#),
            (#"["x\\", " "]"#, #"["ssss, "ss]"#),
            (#"["\\\"", 3]"#, #"["sssss, 3]"#),
            (#"[ "\u0022" , "\t" ]"#, #"[ "sssssss , "sss ]"#),
            ("{\n\t\"k\" :\r\n[]}", "{\n\t\"ss :\r\n[]}"),
        ])
    func marksTheBytesInsideStrings(text: String, expected: String) {
        #expect(Self.marked(text) == expected)
    }

    @Test func endsOutsideAStringAfterWholeValues() {
        var scan = JSONTextScan()
        for byte in #"{"a":"\"","b":["\\",""]}"#.utf8 { scan.read(byte) }
        #expect(!scan.isInString)
    }

    @Test func whitespaceIsTheFourBytesBetweenTokens() {
        let whitespace = (0...255).map(UInt8.init).filter(JSONTextScan.isWhitespace)
        #expect(whitespace == [0x09, 0x0A, 0x0D, 0x20])
    }
}
