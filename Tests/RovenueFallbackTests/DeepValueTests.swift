import Foundation
import Testing
@testable import RovenueFallback

/// `JSONValue`'s writer, equality and hashing on values nested 100,000 deep: nothing recurses once
/// per level, so nothing overflows the stack. (A value the SDK loads can be this deep outside
/// `formatVersion` and `placements`: the contract's §2 rule 4.)
@Suite("Values nested 100,000 deep")
struct DeepValueTests {
    static let depth = 100_000

    enum Shape: String, CaseIterable, CustomTestStringConvertible {
        case arrays, objects, mixed
        var testDescription: String { rawValue }

        func isArray(_ level: Int) -> Bool {
            switch self {
            case .arrays: true
            case .objects: false
            case .mixed: level % 2 == 0
            }
        }

        /// The compact text, keys `"b"` then `"a"` (so sorting keys changes it), or sorted.
        func text(depth: Int, leaf: String, sorted: Bool = false) -> String {
            var text = ""
            for level in 0..<depth { text += isArray(level) ? "[" : sorted ? #"{"a":"# : #"{"b":0,"a":"# }
            text += leaf
            for level in (0..<depth).reversed() { text += isArray(level) ? "]" : sorted ? #","b":0}"# : "}" }
            return text
        }

        /// The same value built by hand, without recursion.
        func value(depth: Int, leaf: JSONValue) -> JSONValue {
            var value = leaf
            for level in (0..<depth).reversed() {
                value = isArray(level) ? .array([value]) : .object([.init("b", 0), .init("a", value)])
            }
            return value
        }
    }

    @Test(arguments: Shape.allCases)
    func jsonTextWritesEveryLevel(_ shape: Shape) {
        var value = shape.value(depth: Self.depth, leaf: "x\n")
        defer { DeepValueTests.release(&value) }
        let text = value.jsonText()
        #expect(text == shape.text(depth: Self.depth, leaf: #""x\n""#))
        if shape == .arrays { #expect(text.utf8.prefix(Self.depth).allSatisfy { $0 == UInt8(ascii: "[") }) }
        // It reads back to text that writes the same (the parser does not recurse either).
        let document = JSONDocument(text: text)
        #expect(document.syntaxError == nil)
        #expect(document.bytes.count == text.utf8.count)
    }

    @Test(arguments: Shape.allCases)
    func sortedTextWritesEveryLevel(_ shape: Shape) {
        var value = shape.value(depth: Self.depth, leaf: 1)
        defer { DeepValueTests.release(&value) }
        let sorted = value.jsonText([.sortedKeys])
        #expect(sorted == shape.text(depth: Self.depth, leaf: "1", sorted: true))
    }

    @Test(arguments: Shape.allCases)
    func prettyTextWritesEveryLevel(_ shape: Shape) {
        // Indentation grows with depth, so the text grows with its square: a smaller depth.
        let depth = 2_000
        var value = shape.value(depth: depth, leaf: 1)
        defer { DeepValueTests.release(&value) }
        let pretty = value.jsonText([.prettyPrinted])
        // One line per container opened, one per member `"b": 0`, one per close, and the leaf.
        let objects = (0..<depth).count { !shape.isArray($0) }
        #expect(pretty.split(separator: "\n").count == 2 * depth + objects + 1)
        #expect(pretty.split(separator: "\n").last == "]" || pretty.split(separator: "\n").last == "}")
    }

    @Test(arguments: Shape.allCases)
    func equalityAndHashingReachEveryLevel(_ shape: Shape) {
        var one = shape.value(depth: Self.depth, leaf: 1)
        var same = shape.value(depth: Self.depth, leaf: 1)
        var other = shape.value(depth: Self.depth, leaf: 2)
        defer {
            DeepValueTests.release(&one)
            DeepValueTests.release(&same)
            DeepValueTests.release(&other)
        }
        #expect(one == same)
        #expect(one != other)
        #expect(one.hashValue == same.hashValue)
        #expect(Set([one, same, other]).count == 2)
    }

    // MARK: Values of a document, written without building them

    @Test(arguments: Shape.allCases)
    func documentValuesWriteEveryLevel(_ shape: Shape) {
        let text = shape.text(depth: Self.depth, leaf: #"["x\n",1.50,{"k":null,"k":true}]"#)
        let document = JSONDocument(text: text)
        #expect(document.syntaxError == nil)
        // Written again: the duplicate key collapses to its last value, the rest is as written.
        let written = document.root.jsonText()
        #expect(written == shape.text(depth: Self.depth, leaf: #"["x\n",1.50,{"k":true}]"#))
        if shape == .arrays { #expect(written.utf8.prefix(Self.depth).allSatisfy { $0 == UInt8(ascii: "[") }) }
        // And it reads back to a value that writes the same.
        let again = JSONDocument(text: written)
        #expect(again.syntaxError == nil)
        #expect(again.root.jsonText() == written)
        #expect(document.root.jsonText([.sortedKeys]) == shape.text(depth: Self.depth, leaf: #"["x\n",1.50,{"k":true}]"#, sorted: true))
        // Shortened, it stops early and cuts where the whole text would be cut.
        #expect(document.root.jsonText(shortenedTo: 120) == String(written.prefix(120)) + "…")
    }

    /// Every value of the example files, in every writing option: the document's values write
    /// exactly what their owned copies write.
    @Test(arguments: ["funnel-era-fallback.json", "paywall-era-fallback.json"])
    func documentValuesWriteAsTheirOwnedCopies(_ name: String) throws {
        let document = JSONDocument(bytes: try fixtureBytes(name))
        let options: [JSONValue.WritingOptions] = [[], .sortedKeys, .prettyPrinted, [.sortedKeys, .prettyPrinted]]
        var mismatches: [String] = []
        for index in 0..<document.nodes.count where document.nodes[index].flags & JSONDocument.isKey == 0 {
            let value = document.value(at: index)
            let owned = value.owned
            for option in options where value.jsonText(option) != owned.jsonText(option) {
                mismatches.append("\(value.pointer) \(option.rawValue)")
            }
            let text = owned.jsonText()
            for limit in [0, 5, 40] {
                let shortened = text.count > limit ? String(text.prefix(limit)) + "…" : text
                if value.jsonText(shortenedTo: limit) != shortened { mismatches.append("\(value.pointer) shortened to \(limit)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Characters of many bytes: a cut past the bytes written so far still cuts the whole text.
    @Test func shortenedTextCountsCharactersNotBytes() {
        let marks = String(repeating: "\u{0301}", count: 2_000)
        let text = "[" + (0..<10).map { _ in "\"e" + marks + "\"" }.joined(separator: ",") + "]"
        let value = JSONDocument(text: text).root
        let whole = value.jsonText()
        #expect(value.jsonText(shortenedTo: 3) == String(whole.prefix(3)) + "…")
        #expect(value.jsonText(shortenedTo: 100) == whole)
    }

    /// `formatVersion` as the SDK prints it: the same writer, with serde's numbers and sorted keys.
    @Test func serdeTextOfANestedVersion() {
        let file = FallbackFile(text: #"{"formatVersion":{"b":1e2,"a":[1.50,{"d":2,"c":-0,"d":3}]},"placements":{}}"#)
        #expect(file.rejection?.detail == #"{"a":[1.5,{"c":-0.0,"d":3}],"b":100.0}"#)
    }

    /// The fuzzer's finding: a value nested 30,000 deep outside `placements` loads, and its
    /// document is written back (the fuzz target's round trip) without overflowing the stack.
    @Test func fuzzRegressionNested30000DeepOutsidePlacements() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/json/value-nested-30000-deep-outside-placements")
        let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: path)))
        #expect(file.rejection == nil)
        let text = file.document.root.jsonText()
        #expect(text.hasPrefix(#"{"formatVersion":1,"placements":{},"x":"# + String(repeating: "[", count: 30_000)))
        let again = FallbackFile(text: text)
        #expect(again.rejection == nil)
        #expect(again.document.root.jsonText() == text)
    }

    /// Releases deep values one level at a time: Swift releases nested arrays recursively, so a
    /// value this deep overflows the stack when its last reference goes (which is why the tool
    /// never builds one from a snapshot: see `JSONDocument.Value.owned`). Each value is taken out of
    /// its variable, so the stack here holds the only reference to every level.
    static func release(_ value: inout JSONValue) {
        var pending = [value]
        value = .null
        while let top = pending.popLast() {
            switch top {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let members): pending.append(contentsOf: members.map(\.value))
            default: break
            }
        }
    }
}
