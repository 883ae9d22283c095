import FallbackSample
import Testing

@testable import RovenueFallback

/// `StructuralIndex.endOfContainer`: the vector path gives the scalar path's offset on any text,
/// and both follow the rules in its documentation.
struct ContainerEndTests {
    static func end(_ text: String, at start: Int = 0, path: StructuralIndex.Path) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { StructuralIndex.endOfContainer(in: $0, openingAt: start, path: path) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let start: Int
        let expected: Int?
        var testDescription: String { "\(text.prefix(40)) from \(start)" }
    }

    static let cases: [Case] = [
        Case(text: #"{"a":[1,{"b":"}"}]} tail"#, start: 0, expected: 19),
        Case(text: #"[1,2]"#, start: 0, expected: 5),
        Case(text: #"x[[]]"#, start: 1, expected: 5),
        // An escaped quote does not end the string; an escaped backslash does not escape the quote.
        Case(text: #"{"a":"\"}"}"#, start: 0, expected: 11),
        Case(text: #"{"a":"\\"}"#, start: 0, expected: 10),
        // Outside strings a backslash is a byte like any other: the quote after it opens a string.
        Case(text: #"{\"}"}"#, start: 0, expected: 6),
        Case(text: #"[\]"#, start: 0, expected: 3),
        // Brackets of either kind count alike.
        Case(text: #"{]"#, start: 0, expected: 2),
        // The text ends first: inside the container, inside a string, after a final backslash.
        Case(text: #"{"a":[1,2]"#, start: 0, expected: nil),
        Case(text: #"{"a}"#, start: 0, expected: nil),
        Case(text: #"{"a\"#, start: 0, expected: nil),
        // No container opens at the start.
        Case(text: #"}{}"#, start: 0, expected: nil),
        Case(text: #"{}"#, start: 2, expected: nil),
    ]

    @Test(arguments: cases, StructuralIndex.Path.allCases)
    func endsWhereTheRulesSay(_ example: Case, path: StructuralIndex.Path) {
        #expect(Self.end(example.text, at: example.start, path: path) == example.expected)
    }

    /// Containers longer than a block: the end past several blocks, a string across a block's edge,
    /// an escape at a block's last byte, and a backslash outside strings in a later block.
    @Test(arguments: StructuralIndex.Path.allCases)
    func endsPastSeveralBlocks(path: StructuralIndex.Path) {
        let long = "[" + String(repeating: #"{"k":"v\\\"}[", "x":[1]},  "#, count: 40) + "0]"
        #expect(Self.end(long, path: path) == long.utf8.count)
        let escapeAtEdge = "[\"" + String(repeating: "a", count: 61) + "\\\"]\"]"
        #expect(Self.end(escapeAtEdge, path: path) == escapeAtEdge.utf8.count)
        let lateBackslash = "[" + String(repeating: "1,", count: 100) + #"\"]"]"#
        #expect(Self.end(lateBackslash, path: path) == lateBackslash.utf8.count)
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect(Self.end(deep, path: path) == 10_000)
    }

    /// Random texts over the bytes that matter (and any byte now and then), from random starts:
    /// the two paths always agree.
    @Test func vectorAndScalarAgreeOnRandomTexts() {
        var generator = SplitMix64(seed: 0xC0FFEE)
        let alphabet = Array(#"{}[]"\\a ,:"#.utf8)
        var ended = 0
        for round in 0..<20_000 {
            let length = Int.random(in: 1...300, using: &generator)
            var bytes = (0..<length).map { _ in
                Int.random(in: 0..<20, using: &generator) == 0
                    ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0..<length, using: &generator)
            bytes[start] = round % 2 == 0 ? UInt8(ascii: "{") : UInt8(ascii: "[")
            let (vector, scalar) = bytes.withUnsafeBufferPointer {
                (StructuralIndex.endOfContainer(in: $0, openingAt: start, path: .vector),
                 StructuralIndex.endOfContainer(in: $0, openingAt: start, path: .scalar))
            }
            #expect(vector == scalar, "round \(round): \(bytes)")
            if scalar != nil { ended += 1 }
        }
        // Both outcomes are well represented.
        #expect(ended > 2_000 && ended < 18_000)
    }

    /// On valid JSON the end is where the parser's value ends.
    @Test func endsWhereTheParsedValueEnds() throws {
        let bytes = Array(SampleExport(placementCount: 30).jsonText().utf8)
        let document = JSONDocument(bytes: bytes)
        let root = try #require(document.hasRoot ? document.root : nil)
        for member in root.members where member.value.kind == .object || member.value.kind == .array {
            let range = member.value.byteRange
            let end = bytes.withUnsafeBufferPointer { StructuralIndex.endOfContainer(in: $0, openingAt: range.lowerBound) }
            #expect(end == range.upperBound, "\(member.key)")
        }
    }
}
