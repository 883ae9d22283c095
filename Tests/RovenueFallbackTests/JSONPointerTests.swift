import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// `JSONPointer`: a pointer split after its last long reference token (`JSONPointer.longToken`
/// bytes or more, as escaped), the same way whoever makes it, so that equal pointers have equal
/// heads and tails; the speller's pointers under one long key share one head.
@Suite struct JSONPointerTests {
    static let long = JSONPointer.longToken

    /// Snapshots with keys just under, at and over the long-token length, as written and as
    /// escaped, nested, and followed by arrays and short keys.
    static let texts: [String] = [
        #"{"a": {"b": [1, {"c": 2}]}}"#,
        #"{"\#(String(repeating: "k", count: long - 1))": {"x": [1, 2]}}"#,
        #"{"\#(String(repeating: "k", count: long))": {"x": [1, {"y": 2}]}}"#,
        #"{"\#(String(repeating: "k", count: long + 1))": [[3], {"z": [4]}]}"#,
        // 64 slashes are 128 bytes escaped: a long token made by the escaping alone.
        #"{"placements": {"\#(String(repeating: "/", count: long / 2))": {"funnel": {"pages": [{"id": "p"}]}}}}"#,
        #"{"placements": {"\#(String(repeating: "~", count: long / 2 - 1))a": {"x": 1}}}"#,
        // Two long keys, one under the other, and long keys side by side.
        #"{"\#(String(repeating: "é", count: long))": {"mid": {"\#(String(repeating: "日", count: long))": [{"t": 1}]}}}"#,
        "{" + (0..<5).map { #""\#(String(repeating: "\($0)", count: long + $0))": {"v": [\#($0)]}"# }.joined(separator: ",") + "}",
        #"{"\#(String(repeating: "a", count: 3 * long))": "", "b": {"\#(String(repeating: "c", count: long))": {}}}"#,
    ]

    /// Every node's pointer from the speller, and the same text split by `init(_:)`.
    static func spelledInOrder(_ text: String, order: (JSONDocument) -> [Int]) -> [(index: Int, pointer: JSONPointer)] {
        let document = JSONDocument(bytes: Array(text.utf8))
        var speller = JSONDocument.PointerSpeller(document: document)
        return order(document).map { ($0, speller.jsonPointer(ofNode: $0)) }
    }

    @Test(arguments: 0..<texts.count) func spelledPointersMatchTheWalkInAnyOrder(_ which: Int) {
        let document = JSONDocument(bytes: Array(Self.texts[which].utf8))
        let expected = PointerBuilderTests.referencePointers(document)
        var generator = SplitMix64(seed: 7)
        let ordered = Array(document.nodes.indices)
        for order in [ordered, ordered.reversed(), ordered.shuffled(using: &generator), ordered.flatMap { [$0, $0] }] {
            var speller = JSONDocument.PointerSpeller(document: document)
            for index in order {
                let pointer = speller.jsonPointer(ofNode: index)
                #expect(pointer.string == expected[index], "node \(index)")
                // Split where the text alone splits it: equal, with the same hash, head and tail.
                let fromText = JSONPointer(pointer.string)
                #expect(pointer == fromText)
                #expect(pointer.hashValue == fromText.hashValue)
                #expect(pointer.tail == fromText.tail)
                #expect(pointer.head?.text == fromText.head?.text)
                #expect(pointer.utf8Count == pointer.string.utf8.count)
                #expect(pointer.isEmpty == pointer.string.isEmpty)
                // Split link by link as the text splits: each link ends a long token.
                var link = pointer.head
                var fromTextLink = fromText.head
                while let current = link {
                    #expect(current.segment == fromTextLink?.segment)
                    #expect(current.bytesHash == fromTextLink?.bytesHash)
                    link = current.parent
                    fromTextLink = fromTextLink?.parent
                }
                #expect(fromTextLink == nil)
            }
        }
    }

    /// The head ends after the last token of `longToken` bytes or more; a token one byte shorter
    /// leaves it in the tail.
    @Test func theHeadEndsAfterTheLastLongToken() {
        let short = String(repeating: "s", count: Self.long - 1)
        let long = String(repeating: "l", count: Self.long)
        #expect(JSONPointer("/placements/\(short)/funnel").head == nil)
        let split = JSONPointer("/placements/\(long)/funnel/pages/0")
        #expect(split.head?.text == "/placements/\(long)")
        #expect(split.tail == "/funnel/pages/0")
        let twice = JSONPointer("/\(long)/x/\(long)1/y")
        #expect(twice.head?.text == "/\(long)/x/\(long)1")
        #expect(twice.tail == "/y")
        let atTheEnd = JSONPointer("/a/\(long)")
        #expect(atTheEnd.head?.text == "/a/\(long)")
        #expect(atTheEnd.tail == "")
        #expect(!atTheEnd.isEmpty)
        #expect(JSONPointer("").isEmpty)
        // Escapes count as written: 64 slashes escape to 128 bytes.
        let escaped = JSONPointer("/" + String(repeating: "~1", count: Self.long / 2) + "/v")
        #expect(escaped.tail == "/v")
    }

    /// A head is a chain of links, one a long token, each holding the bytes from the link before
    /// it: a long key under another long key holds its own bytes, the outer key's link shared.
    @Test func aHeadIsALinkALongToken() throws {
        let outer = String(repeating: "o", count: 4 * Self.long)
        let inner = (0..<3).map { String(repeating: "\($0)", count: Self.long) }
        let pointer = JSONPointer("/placements/\(outer)/funnel/paywalls/\(inner[0])/builderConfig/\(inner[1])/x")
        let last = try #require(pointer.head)
        #expect(last.segment == "/builderConfig/\(inner[1])")
        let middle = try #require(last.parent)
        #expect(middle.segment == "/funnel/paywalls/\(inner[0])")
        let first = try #require(middle.parent)
        #expect(first.segment == "/placements/\(outer)")
        #expect(first.parent == nil)
        #expect(last.utf8Count == last.text.utf8.count)
        #expect(pointer.tail == "/x")
        // Up the chain: from a link's end to the short tokens before its long one, then the link before.
        let up = try #require(pointer.parent?.parent)
        #expect(up.string == "/placements/\(outer)/funnel/paywalls/\(inner[0])/builderConfig")
        #expect(up.head === middle)
        #expect(up.tail == "/builderConfig")

        // The speller: pointers under the inner keys of one outer key share the outer key's link.
        let members = inner.map { #""\#($0)": {"a": [1, 2], "b": {"c": 3}}"# }.joined(separator: ",")
        let text = #"{"placements": {"\#(outer)": {\#(members)}}}"#
        let document = JSONDocument(bytes: Array(text.utf8))
        var speller = JSONDocument.PointerSpeller(document: document)
        // Values, as the audit spells them (a key node's pointer is its member's).
        let values = document.nodes.indices.filter { document.nodes[$0].flags & JSONDocument.isKey == 0 }
        let heads = values.compactMap { speller.jsonPointer(ofNode: $0).head }
        let outerLinks = heads.map { $0.parent ?? $0 }
        #expect(heads.count > 10)
        #expect(outerLinks.allSatisfy { $0 === outerLinks[0] && $0.segment == "/placements/\(outer)" })
        #expect(Set(heads.filter { $0.parent != nil }.map(ObjectIdentifier.init)).count == inner.count)
    }

    /// Pointers are compared by their bytes: a head that differs in one byte, or the same head
    /// text with another tail, is another pointer, and canonically equivalent texts differ.
    @Test func equalityIsByBytes() {
        let long = String(repeating: "k", count: Self.long)
        let pointer = JSONPointer("/\(long)/a")
        #expect(pointer != JSONPointer("/\(long)x/a"))
        #expect(pointer != JSONPointer("/\(long)/b"))
        #expect(pointer != JSONPointer("/\(long)"))
        #expect(pointer == JSONPointer("/\(long)/a"))
        let composed = JSONPointer("/\(String(repeating: "é", count: Self.long))/a")
        let decomposed = JSONPointer("/\(String(repeating: "e\u{301}", count: Self.long))/a")
        #expect(composed.string == decomposed.string, "Swift's String equality calls them equal")
        #expect(composed != decomposed)
        #expect(Set([pointer, JSONPointer("/\(long)/a"), JSONPointer("/\(long)/b")]).count == 2)
    }

    /// The pointers the speller gives the nodes under one long key, one after another, hold one
    /// head: memory for the key once, not once a pointer.
    @Test func pointersUnderOneLongKeyShareTheirHead() throws {
        let key = String(repeating: "k", count: 10 * Self.long)
        let rules = (0..<50).map { #"{"goto": "t\#($0)"}"# }.joined(separator: ",")
        let text = #"{"placements": {"\#(key)": {"funnel": {"pages": [{"next_rules": [\#(rules)]}]}}, "other": {}}}"#
        let document = JSONDocument(bytes: Array(text.utf8))
        let keyNode = try #require(document.nodes.indices.first { document.value(at: $0).string == key })
        let inside = document.nodes.indices.filter { $0 > keyNode + 1 && document.value(at: $0).pointer.hasPrefix("/placements/\(key)/") }
        #expect(inside.count > 100)
        var speller = JSONDocument.PointerSpeller(document: document)
        let pointers = inside.map { speller.jsonPointer(ofNode: $0) }
        let first = try #require(pointers.first?.head)
        #expect(pointers.allSatisfy { $0.head === first })
        #expect(pointers.allSatisfy { $0.tail.utf8.count < 64 })
    }

    /// `parent` and `appending(escapedToken:)` walk the same pointers as the document's nodes.
    @Test(arguments: 0..<texts.count) func parentAndAppendingFollowTheNodes(_ which: Int) {
        let document = JSONDocument(bytes: Array(Self.texts[which].utf8))
        func check(_ value: JSONDocument.Value, _ pointer: JSONPointer) {
            #expect(pointer.string == value.pointer)
            switch value.kind {
            case .object:
                for member in value.members {
                    let child = pointer.appending(escapedToken: JSONDocument.escapePointerToken(member.key))
                    #expect(child == JSONPointer(child.string), "split as the text splits")
                    #expect(child.parent == pointer)
                    check(member.value, child)
                }
            case .array:
                for (position, element) in value.elements.enumerated() {
                    let child = pointer.appending(escapedToken: String(position))
                    #expect(child.parent == pointer)
                    check(element, child)
                }
            default:
                break
            }
        }
        check(document.root, JSONPointer(""))
        #expect(JSONPointer("").parent == nil)
    }
}

/// `KeyNumbering`: equal bytes get equal numbers, whether the key is the string value given
/// before, another allocation of the same bytes, or inline; canonically equivalent keys differ.
@Suite struct KeyNumberingTests {
    @Test func equalBytesEqualNumbers() {
        let long = String(repeating: "k", count: 1_000)
        // Another allocation of the same bytes, and of the same bytes as the canonical equivalent.
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        let keys = [long, "a", copy, "a", "é", "e\u{301}", long, String(decoding: Array("a".utf8), as: UTF8.self), "", "é"]
        var numbering = KeyNumbering()
        let numbers = keys.map { numbering.number(for: ExactKey($0)) }
        for (left, leftKey) in keys.enumerated() {
            for (right, rightKey) in keys.enumerated() {
                #expect((numbers[left] == numbers[right]) == ExactKey.same(leftKey, rightKey), "\(left) \(right)")
            }
        }
        #expect(Set(numbers) == Set(0..<5), "numbered in order of first appearance, from 0")
        #expect(numbers[0] == 0 && numbers[1] == 1 && numbers[4] == 2 && numbers[5] == 3 && numbers[8] == 4)
    }
}
