import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// A container's parent and ordinal read off the node before it (`Nodes.readParentAndOrdinal`:
/// a member's key, or the array it opens) are the ones the binary search over the container links
/// finds, on every input file, on exports parsed whole and in two halves, and on hostile texts
/// that stop mid-container; and they are read, not searched, where the node before says them.
@Suite struct ContainerLinkReadTests {
    /// Expects every container whose link can be read to have the searched one; returns how many
    /// were read.
    @discardableResult
    static func expectReadLinksMatchTheSearch(_ document: JSONDocument, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let nodes = document.nodes
        var read = 0
        for index in nodes.indices where nodes[index].packed.isContainer {
            let searched = nodes.buffer.link(ofContainer: index)
            guard let link = nodes.readParentAndOrdinal(of: index) else { continue }
            read += 1
            if link.parent != searched.parent || link.ordinal != searched.ordinal {
                Issue.record("\(label): container \(index) reads \(link), the search finds \(searched)", sourceLocation: sourceLocation)
                return read
            }
        }
        return read
    }

    static let hostile: [String] = [
        #"{"a": [1, {"b": [[], [[]], {}, [{}]]}], "c": {"d": {}}}"#,
        #"[[], [1], [[2]], {}, {"x": []}, [], [[], []]]"#,
        #"{"a": [{"b": "#,
        #"{"a": [[[["#,
        #"[{"a": 1}, {"b": "#,
        #"{"a": {"b": [1, 2, {"c"#,
        #"{"a" [1]}"#,
        #"{"a": , "b": [1]}"#,
        #"[[1, 2], [3, ]]"#,
        #"{"": {"": [{"": {}}]}}"#,
        #"{"~/": [{"/~": [{}]}], "\u0000": {"a": []}}"#,
        "[" + String(repeating: #"{"k": [{"v": []}]},"#, count: 300) + "{}]",
        String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
        String(repeating: #"{"a": ["#, count: 100) + String(repeating: "]}", count: 100),
    ]

    @Test(arguments: 0..<hostile.count) func hostileTexts(_ which: Int) {
        let text = Self.hostile[which]
        for bytes in [Array(text.utf8), Array(text.utf8.dropLast(3))] {
            Self.expectReadLinksMatchTheSearch(JSONDocument(bytes: bytes), "text \(which)")
        }
    }

    @Test func everyInputFile() throws {
        for path in StageTwoParserTests.files {
            let bytes = try StructuralIndexTests.bytes(ofFile: path)
            Self.expectReadLinksMatchTheSearch(JSONDocument(bytes: bytes), path)
        }
    }

    /// Split in two halves at each meeting comma: the second half's links are shifted when the
    /// halves join, and the links read must be the shifted ones.
    @Test func anExportParsedWholeAndInTwoHalves() throws {
        let text = SampleExport(placementCount: 12, seed: 3).jsonText()
        let bytes = Array(text.utf8)
        let whole = JSONDocument(bytes: bytes)
        let read = Self.expectReadLinksMatchTheSearch(whole, "whole")
        let containers = whole.nodes.indices.filter { whole.nodes[$0].packed.isContainer }.count
        // Everything but the root and the later elements of arrays of containers.
        #expect(read > containers / 2, "read \(read) of \(containers)")
        var met = 0
        for split in SplitParseTests.meetingCommas(text) {
            let document = JSONDocument(bytes: bytes, path: .vector, splitAt: split)
            if document.storage.parsedInTwoHalves { met += 1 }
            Self.expectReadLinksMatchTheSearch(document, "split at \(split)")
        }
        #expect(met > 0)
    }

    /// Member values and first elements are read; the root and an array's later container
    /// elements are left to the search.
    @Test func whichLinksAreRead() {
        let document = JSONDocument(bytes: Array(#"{"a": {"b": [[1], {"c": 2}, []]}}"#.utf8))
        let nodes = document.nodes
        let a = document.root["a"]!
        let b = a["b"]!
        #expect(nodes.readParentAndOrdinal(of: 0) == nil)
        #expect(nodes.readParentAndOrdinal(of: a.index).map { [$0.parent, $0.ordinal] } == [0, 0])
        #expect(nodes.readParentAndOrdinal(of: b.index).map { [$0.parent, $0.ordinal] } == [Int32(a.index), 0])
        #expect(nodes.readParentAndOrdinal(of: b.elements[0].index).map { [$0.parent, $0.ordinal] } == [Int32(b.index), 0])
        #expect(nodes.readParentAndOrdinal(of: b.elements[1].index) == nil)
        #expect(nodes.readParentAndOrdinal(of: b.elements[2].index) == nil)
        #expect(nodes.parentAndOrdinal(of: b.elements[2].index) == (Int32(b.index), 2))
    }
}
