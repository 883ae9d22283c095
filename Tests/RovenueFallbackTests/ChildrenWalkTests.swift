import FallbackSample
@testable import RovenueFallback
import Testing

/// `JSONDocument.Children`, the one walk over a container's members and elements, gives each
/// container exactly the children the nodes' own parent and ordinal say it has: for an object,
/// every key whose parent it is with the value node after it, stopping at a key the text broke
/// off after; for an array, every node whose parent it is; for a scalar, none. Checked on every
/// node of hostile texts, the texts cut short at every byte, and an export.
@Suite struct ChildrenWalkTests {
    /// The children of the node at `index` as the parent links give them, in node order.
    static func childrenFromParentLinks(of index: Int, in document: JSONDocument) -> [JSONDocument.Child] {
        let nodes = document.nodes
        let kind = nodes[index].kind
        guard kind == .object || kind == .array else { return [] }
        var children: [JSONDocument.Child] = []
        var node = index + 1
        let end = Int(nodes[index].next)
        while node < min(end, nodes.count) {
            guard nodes.parent(of: node) == Int32(index) else {
                node += 1
                continue
            }
            if kind == .object {
                // A key: its value is the node after it, when the text got that far.
                guard node + 1 < nodes.count else { break }
                children.append(JSONDocument.Child(key: node, value: node + 1, position: Int(nodes.ordinal(of: node))))
                node += 2
            } else {
                children.append(JSONDocument.Child(key: nil, value: node, position: Int(nodes.ordinal(of: node))))
                node += 1
            }
        }
        return children
    }

    static func expectWalkMatchesParentLinks(_ document: JSONDocument, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for index in 0..<document.nodeCount {
            var walk = document.children(ofNode: index)
            var walked: [JSONDocument.Child] = []
            var reportedMore: [Bool] = []
            while true {
                let hadNext = walk.hasNext
                guard let child = walk.next(in: document) else {
                    #expect(!hadNext, "\(label): node \(index) said it had another child", sourceLocation: sourceLocation)
                    break
                }
                #expect(hadNext, "\(label): node \(index)", sourceLocation: sourceLocation)
                walked.append(child)
                reportedMore.append(walk.hasNext)
            }
            let expected = childrenFromParentLinks(of: index, in: document)
            if walked != expected {
                Issue.record("\(label): node \(index) walks \(walked), its parent links give \(expected)", sourceLocation: sourceLocation)
                return
            }
            // `hasNext` after a child says whether another follows: false after the last only.
            #expect(reportedMore == walked.indices.map { $0 < walked.count - 1 }, "\(label): node \(index)", sourceLocation: sourceLocation)
            // `Value.members` and `Value.elements` list the same nodes.
            let value = document.value(at: index)
            let listed = value.kind == .object ? value.members.map(\.value.index) : value.elements.map(\.index)
            #expect(listed == walked.map(\.value), "\(label): node \(index)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: 0..<ContainerLinkReadTests.hostile.count) func hostileTextsCutAtEveryByte(_ which: Int) {
        let bytes = Array(ContainerLinkReadTests.hostile[which].utf8)
        // Long texts are cut at a stride: their prefixes repeat the same shapes.
        let stride = bytes.count > 400 ? 37 : 1
        for end in Swift.stride(from: 0, through: bytes.count, by: stride) {
            Self.expectWalkMatchesParentLinks(JSONDocument(bytes: Array(bytes[..<end])), "text \(which) cut at \(end)")
        }
    }

    @Test func aKeyTheTextBrokeOffAfterEndsTheMembers() {
        let document = JSONDocument(text: #"{"a": 1, "b": [2, 3], "c""#)
        var walk = document.children(ofNode: 0)
        var keys: [String] = []
        while let child = walk.next(in: document) { keys.append(document.string(ofNode: child.key!) ?? "") }
        #expect(keys == ["a", "b"])
        #expect(document.root.members.map(\.key) == ["a", "b"])
        #expect(document.root["c"] == nil)
    }

    @Test func aScalarHasNoChildren() {
        for text in [#""s""#, "1", "true", "null"] {
            let document = JSONDocument(text: text)
            var walk = document.children(ofNode: 0)
            #expect(!walk.hasNext)
            #expect(walk.next(in: document) == nil)
        }
    }

    @Test func anExport() {
        let document = JSONDocument(text: SampleExport(placementCount: 6, seed: 11).jsonText())
        #expect(document.syntaxError == nil)
        Self.expectWalkMatchesParentLinks(document, "export")
    }
}
