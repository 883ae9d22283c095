import RovenueFallback
import Testing

/// The one JSON writer's canonical form: keys sorted, numbers as the SDK reads them (§2.1).
@Suite("Canonical JSON text")
struct CanonicalJSONTests {
    @Test(arguments: [
        ("1", "1"), ("-1", "-1"), ("0", "0"), ("-0", "0.0"), ("-0.0", "0.0"), ("0.0", "0.0"), ("1.0", "1.0"), ("1.00", "1.0"),
        ("1e0", "1.0"), ("5e-1", "0.5"), ("1e20", "1e20"), ("1E20", "1e20"), ("100", "100"), ("1e2", "100.0"),
        ("18446744073709551615", "18446744073709551615"), ("18446744073709551616", "1.8446744073709552e19"),
    ])
    func numbersAreWrittenAsRead(token: String, expected: String) {
        #expect(JSONDocument(text: "[\(token)]").root.jsonText(.canonical) == "[\(expected)]")
        #expect(JSONValue.number(JSONNumber(text: token)).jsonText(.canonical) == expected)
    }

    @Test func withoutTheOptionNumbersStayAsWritten() {
        #expect(JSONDocument(text: "[-0,1.00,1e2]").root.jsonText([.sortedKeys]) == "[-0,1.00,1e2]")
    }

    @Test func theDocumentAndItsOwnedCopyWriteAlike() {
        let text = #"{"b":[1.50,-0,{"d":"\u00e9\n","c":1e2}],"a":"x","b":2}"#
        let root = JSONDocument(text: text).root
        for options: JSONValue.WritingOptions in [[], .canonical, [.prettyPrinted, .sortedKeys]] {
            #expect(root.jsonText(options) == root.owned.jsonText(options))
        }
        #expect(root.jsonText(.canonical) == #"{"a":"x","b":2}"#)
    }

    @Test func anOwnedCopyKeepsEveryObjectInAnArrayAndEveryMemberInOrder() {
        let text = #"[{"a":0,"b":[{"c":1},{}]},{},{"a":2,"a":3},[{"x":{"y":[]}}],7]"#
        let expected: JSONValue = [
            .object([.init("a", 0), .init("b", [.object([.init("c", 1)]), .object([])])]), .object([]), .object([.init("a", 3)]),
            [.object([.init("x", .object([.init("y", [])]))])], 7,
        ]
        #expect(JSONDocument(text: text).root.owned == expected)
        // Thousands of objects side by side (each once copied all those built before it).
        let many = (0..<5_000).map { #"{"a":\#($0),"b":{}}"# }.joined(separator: ",")
        let owned = JSONDocument(text: "[\(many)]").root.owned
        #expect(owned == .array((0..<5_000).map { .object([.init("a", .number(JSONNumber($0))), .init("b", .object([]))]) }))
    }

    @Test func aMemberOrElementOfTheValueItselfCanBeLeftOut() {
        let object = JSONDocument(text: #"{"placement":{"placement":1},"z":2,"a":1}"#).root
        #expect(object.jsonText(.canonical, omittingMember: "placement") == #"{"a":1,"z":2}"#)
        let array = JSONDocument(text: #"[{"a":1},[0],2]"#).root
        #expect(array.jsonText(.canonical, omittingElement: 0) == "[[0],2]")
        #expect(array.jsonText(.canonical, omittingElement: 5) == #"[{"a":1},[0],2]"#)
    }

    /// Text is canonical exactly when the writer would write the same bytes.
    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"x"}}"#, #"{"b":1,"a":2}"#, #"{"a":1,"a":1}"#, "[1, 2]", "[-0]", "[0.0]",
        "[1e2]", "[100.0]", #"["\/"]"#, #"["\n\u0001"]"#, #"["\u000A"]"#, #"{"\u0061":1}"#, "0", "-0", "12345678901234567890",
    ])
    func canonicalIsWhatTheWriterWrites(text: String) {
        let root = JSONDocument(text: text).root
        #expect(root.isWrittenCanonically == (root.jsonText(.canonical) == text))
    }

    /// A container the text broke off in is not canonical, however its bytes count up (the walk
    /// over its members stops at a key without a value); a whole value before the break can be.
    @Test(arguments: [#"{"a":1,"b": "#, "[1,2 ", #"{"a":[1,2 "#, #"{"a":1,"b""#])
    func aValueTheTextBrokeOffInIsNotCanonical(text: String) {
        let document = JSONDocument(text: text)
        #expect(document.syntaxError != nil)
        #expect(!document.root.isWrittenCanonically)
    }

    @Test func aWholeValueBeforeTheBreakCanBeCanonical() throws {
        let document = JSONDocument(text: #"[{"a":1},{"b""#)
        #expect(document.syntaxError != nil)
        let first = try #require(document.root.elements.first)
        #expect(first.isWrittenCanonically)
    }
}
