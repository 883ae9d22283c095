import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// `Value.pointer`, spelled in bytes from the nodes (`JSONDocument.pointer(ofNode:)`), gives the
/// pointer an independent walk from the top gives every node: member keys decoded and escaped
/// scalar by scalar (RFC 6901: every `~` and `/`), element positions in decimal; a key node gives
/// its member's pointer.
@Suite struct PointerBuilderTests {
    // MARK: Reference

    /// RFC 6901 §4's escaping, one Unicode scalar at a time.
    static func referenceEscape(_ token: String) -> String {
        var escaped = ""
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Every node's pointer, by node index, from a recursive walk of members and elements.
    static func referencePointers(_ document: JSONDocument) -> [Int: String] {
        var pointers: [Int: String] = [:]
        func walk(_ value: JSONDocument.Value, _ pointer: String) {
            pointers[value.index] = pointer
            switch value.kind {
            case .object:
                for member in value.members {
                    let child = pointer + "/" + referenceEscape(member.key)
                    pointers[member.keyValue.index] = child
                    walk(member.value, child)
                }
            case .array:
                for (position, element) in value.elements.enumerated() { walk(element, pointer + "/" + String(position)) }
            default:
                break
            }
        }
        walk(document.root, "")
        return pointers
    }

    static func expectSamePointers(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let document = JSONDocument(bytes: Array(text.utf8))
        let expected = referencePointers(document)
        #expect(expected.count == document.nodes.count, "every node is reached", sourceLocation: sourceLocation)
        for (index, pointer) in expected.sorted(by: { $0.key < $1.key }) {
            let spelled = document.value(at: index).pointer
            #expect(spelled == pointer, "node \(index)", sourceLocation: sourceLocation)
            if spelled != pointer { return }
        }
    }

    // MARK: Tests

    static let literals: [String] = [
        #"{}"#,
        #"[]"#,
        #""top""#,
        #"{"a": {"b": [1, [2, {"c": null}]]}}"#,
        #"{"a/b": {"~": {"~1": {"/~0/": 1}}}, "": {"": [""]}}"#,
        #"{"\u0074itle": {"\/x": 1, "\u007e": 2, "a\u002fb": 3}}"#,
        #"{"é": {"日本": {"🙂": [true]}}}"#,
        #"{"a~\u0301": 1, "~\u0301/\u0301": 2, "x~́": {"y/́": 3}}"#,
        #"{"\ud800": {"\udc00x": 1}, "\ud83d\ude42": 2}"#,
        #"{"k\"q\\": {"\n\t": 1}}"#,
        #"{"dup": 1, "dup": {"dup": [1, 2]}}"#,
        "[" + (0..<1234).map(String.init).joined(separator: ",") + "]",
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
        String(repeating: #"{"a/~":"#, count: 200) + "1" + String(repeating: "}", count: 200),
        // Arrays of containers, short and longer than a speller steps over from one element to a later one.
        #"[[], [1], [[2], []], {}, {"x": [{}, [3]]}, [], [[], [[]]]]"#,
        "[" + (0..<40).map { #"{"k~\#($0)": [{"v/": [\#($0)]}, []]}"# }.joined(separator: ",") + "]",
        "[" + (0..<300).map { $0 % 7 == 0 ? "[[\($0)]]" : "[]" }.joined(separator: ",") + "]",
        #"{"": [{"": [{}, {"": []}]}, {"": ""}], "/": [[{"~": [[]]}]]}"#,
    ]

    @Test(arguments: 0..<literals.count) func everyNodesPointerMatchesTheWalk(_ which: Int) {
        Self.expectSamePointers(Self.literals[which])
    }

    /// One `PointerSpeller` asked for node after node, in text order, backwards and shuffled (so
    /// each pointer shares anything from its whole path to nothing with the one before, and a node
    /// comes again right after itself), spells each as the walk from the top does.
    @Test(arguments: 0..<literals.count) func aSpellerAskedNodeAfterNodeMatchesTheWalk(_ which: Int) {
        Self.expectSameSpelledInSequence(Self.literals[which])
    }

    @Test func aSpellerOverASampleExport() {
        Self.expectSameSpelledInSequence(SampleExport(placementCount: 12, seed: 5).jsonText())
    }

    static func expectSameSpelledInSequence(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let document = JSONDocument(bytes: Array(text.utf8))
        let expected = referencePointers(document)
        var generator = SplitMix64(seed: 11)
        let ordered = Array(document.nodes.indices)
        let shuffled = ordered.shuffled(using: &generator)
        let repeated = ordered.flatMap { [$0, $0] }
        for order in [ordered, ordered.reversed(), shuffled, repeated] {
            var speller = JSONDocument.PointerSpeller(document: document)
            for index in order {
                let spelled = speller.pointer(ofNode: index)
                #expect(spelled == expected[index], "node \(index)", sourceLocation: sourceLocation)
                if spelled != expected[index] { return }
            }
        }
    }

    @Test func everyNodeOfASampleExport() {
        Self.expectSamePointers(SampleExport(placementCount: 40, seed: 3).jsonText())
    }

    @Test func everyNodeOfEachExample() throws {
        let examples = StructuralIndexTests.files.filter { $0.hasPrefix("Examples/") || $0.contains("/Fixtures/") && $0.hasSuffix("fallback.json") }
        #expect(!examples.isEmpty)
        for path in examples {
            let bytes = try StructuralIndexTests.bytes(ofFile: path)
            Self.expectSamePointers(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A `~` or `/` followed by a combining mark is one `Character` but still a `~` or `/` to
    /// RFC 6901; escaping `Character`s left it as written, a pointer no reader resolves.
    @Test func aTildeOrSlashBeforeACombiningMarkIsEscaped() {
        #expect(JSONDocument.escapePointerToken("a~\u{301}") == "a~0\u{301}")
        #expect(JSONDocument.escapePointerToken("/\u{301}x") == "~1\u{301}x")
        let document = JSONDocument(bytes: Array(#"{"a~\u0301": {"/́": 1}}"#.utf8))
        #expect(document.root["a~\u{301}"]?["/\u{301}"]?.pointer == "/a~0\u{301}/~1\u{301}")
    }

    @Test func escapingAgreesWithTheReference() {
        for token in ["", "plain", "~", "/", "~~//", "a~0b~1c", "é~日/🙂", "\u{301}~\u{301}", "x/\u{20DD}"] {
            #expect(JSONDocument.escapePointerToken(token) == Self.referenceEscape(token))
        }
    }

    @Test(arguments: [0, 9, 10, 99, 100, 12345, Int(Int32.max)]) func decimalDigits(_ value: Int) {
        var spelled: [UInt8] = []
        JSONDocument.appendDecimal(value, to: &spelled)
        #expect(String(decoding: spelled, as: UTF8.self) == String(value))
    }
}
