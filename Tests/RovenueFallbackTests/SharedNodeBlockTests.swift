import FallbackSample
@testable import RovenueFallback
import Testing

/// The node block a split parse's two halves share (`JSONDocument.SplitParse.SharedBlock`): whoever
/// runs out of room first, and wherever the second half starts, the first half ends up with its own
/// nodes followed by the second half's, renumbered, as when the second half had a block of its own.
/// A second half numbers its nodes from where it claimed the block (`firstIndex`).
@Suite struct SharedNodeBlockTests {
    typealias NodeBuilder = JSONDocument.NodeBuilder

    /// A number in the container at node `parent` (by default the top-level one), with `tag` as its
    /// offsets and ordinal.
    static func node(_ tag: Int, parent: Int = 0) -> JSONDocument.PackedNode {
        JSONDocument.PackedNode(kind: .number, flags: 0, start: tag, end: tag + 1, link: parent + 1, number: tag)
    }

    /// The first half's `firstCount` nodes then the second half's `secondCount`, renumbered after
    /// them: the second half's parent, its own first node, is then node `firstCount`.
    static func expectMet(
        _ first: NodeBuilder, firstCount: Int, secondCount: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(first.count == firstCount + secondCount, sourceLocation: sourceLocation)
        for index in 0..<min(first.count, firstCount + secondCount) {
            var expected = node(index < firstCount ? index : 1000 + index - firstCount)
            if index >= firstCount { expected.setLink(1 + firstCount) }
            #expect(first[index] == expected, "node \(index)", sourceLocation: sourceLocation)
        }
    }

    /// Appends the halves' nodes (the first half's in two runs, around the second's claim), meets them.
    static func meet(capacity: Int, firstBefore: Int, claimFrom: Int, firstAfter: Int, second: Int) -> (NodeBuilder, inPlace: Bool) {
        var first = NodeBuilder(capacity: capacity)
        let block = first.shareWithSecondHalf()
        for tag in 0..<firstBefore { first.append(node(tag)) }
        var other = NodeBuilder(sharing: block, from: claimFrom, otherwiseCapacity: 16)
        let otherFirst = other.firstIndex
        for tag in 0..<second { other.append(node(1000 + tag, parent: otherFirst)) }
        for tag in firstBefore..<(firstBefore + firstAfter) { first.append(node(tag)) }
        first.stopSharing()
        let inPlace = first.append(secondHalf: other, assumed: .init(outer: (0, 0), inner: (0, 0)))
        other.discard()
        first.freeLeftBlock()
        return (first, inPlace)
    }

    /// The second half claims exactly where the first half ends: nothing moves.
    @Test func aSecondHalfWrittenWhereTheFirstEndsStaysPut() {
        // A block of 1,024 nodes moves the first half's limit 16 at a time.
        let (first, inPlace) = Self.meet(capacity: 1024, firstBefore: 32, claimFrom: 48, firstAfter: 16, second: 100)
        #expect(inPlace)
        Self.expectMet(first, firstCount: 48, secondCount: 100)
    }

    /// The second half claims past where the first half ends (the first half's limit was further):
    /// its nodes move down to follow the first half's.
    @Test func aSecondHalfWrittenPastTheFirstMovesDown() {
        let (first, inPlace) = Self.meet(capacity: 1024, firstBefore: 40, claimFrom: 20, firstAfter: 3, second: 300)
        #expect(inPlace)
        Self.expectMet(first, firstCount: 43, secondCount: 300)
    }

    /// The first half outgrows the room the second half left it: it moves to a block of its own,
    /// and the second half's nodes are copied from the shared block after it.
    @Test func aFirstHalfThatOutgrowsItsRoomMovesOut() {
        let (first, inPlace) = Self.meet(capacity: 1024, firstBefore: 10, claimFrom: 20, firstAfter: 200, second: 50)
        #expect(!inPlace)
        Self.expectMet(first, firstCount: 210, secondCount: 50)
    }

    /// The second half outgrows the rest of the block: it moves to a block of its own.
    @Test func aSecondHalfThatOutgrowsTheBlockMovesOut() {
        let (first, inPlace) = Self.meet(capacity: 1024, firstBefore: 10, claimFrom: 900, firstAfter: 5, second: 400)
        #expect(!inPlace)
        Self.expectMet(first, firstCount: 15, secondCount: 400)
    }

    /// The first half fills the whole block before the second half asks: it keeps the block and
    /// grows it, and the second half gets a block of its own.
    @Test func aFirstHalfThatFillsTheBlockKeepsIt() {
        let (first, inPlace) = Self.meet(capacity: 64, firstBefore: 100, claimFrom: 10, firstAfter: 0, second: 30)
        #expect(!inPlace)
        Self.expectMet(first, firstCount: 100, secondCount: 30)
    }
}

/// Meeting renumbers a second half's nodes after the first half's, where they stand or piece by
/// piece: the nodes under the two assumed containers take those containers' nodes here and count
/// on from the members or elements before them, every other link moves from the second half's
/// numbering (from where it claimed the block) to the first half's end, and no way of meeting gives
/// a different node.
@Suite struct SecondHalfRenumberingTests {
    typealias NodeBuilder = JSONDocument.NodeBuilder
    typealias PackedNode = JSONDocument.PackedNode
    static let outer = JSONDocument.SplitParse.assumedOuter
    static let assumed = JSONDocument.SplitParse.AssumedContainers(outer: (0, 40), inner: (1, 9))

    /// Node `index` of a second half whose nodes are numbered from `first`: every thirteenth an
    /// empty object (its link the node after it), the rest numbers whose parent is an earlier node
    /// of the half, or one of the assumed containers.
    static func secondHalfNode(_ index: Int, numberedFrom first: Int) -> PackedNode {
        if index % 13 == 12 {
            return PackedNode(kind: .object, flags: 0, start: index, end: index + 1, link: first + index + 1, number: index % 50)
        }
        let parent = index % 7 == 3 ? outer : index % 11 == 5 ? outer + 1 : first + index / 2
        return PackedNode(kind: .number, flags: 0, start: index, end: index + 1, link: parent + 1, number: index % 1_000)
    }

    /// What node `index` of the second half becomes after `firstCount` nodes of the first half.
    static func renumbered(_ index: Int, after firstCount: Int) -> PackedNode {
        var node = secondHalfNode(index, numberedFrom: firstCount)
        guard index % 13 != 12, index % 7 == 3 || index % 11 == 5 else { return node }
        let (parent, before) = index % 7 == 3 ? assumed.outer : assumed.inner
        node.setLink(Int(parent) + 1)
        node.setNumber(Int32(index % 1_000) + before)
        return node
    }

    /// A first half of 5,000 numbers and a second half of 50,000 nodes claimed from `claimFrom`
    /// (5,000: where the first half ends, so nothing moves; 6,000: the nodes move down; past the
    /// block's end: the second half has a block of its own, numbered from 0, and is copied).
    @Test(arguments: [5_000, 6_000, 1 << 17])
    func everyNodeIsRenumberedOnceWhereverTheHalvesMeet(claimFrom: Int) {
        var first = NodeBuilder(capacity: 1 << 17)
        let block = first.shareWithSecondHalf()
        for tag in 0..<3_000 { first.append(SharedNodeBlockTests.node(tag)) }
        var other = NodeBuilder(sharing: block, from: claimFrom, otherwiseCapacity: 16)
        let otherFirst = other.firstIndex
        #expect(otherFirst == (claimFrom < 1 << 17 ? claimFrom : 0))
        for index in 0..<50_000 { other.append(Self.secondHalfNode(index, numberedFrom: otherFirst)) }
        other.appendContainer(JSONDocument.ContainerLink(node: Int32(otherFirst + 12), parent: Int32(Self.outer + 1), ordinal: 2))
        other.appendContainer(JSONDocument.ContainerLink(node: Int32(otherFirst + 25), parent: Int32(otherFirst + 12), ordinal: 0))
        for tag in 3_000..<5_000 { first.append(SharedNodeBlockTests.node(tag)) }
        first.stopSharing()
        let inPlace = first.append(secondHalf: other, assumed: Self.assumed)
        other.discard()
        first.freeLeftBlock()
        #expect(inPlace == (claimFrom < 1 << 17))
        #expect(first.count == 55_000)
        let wrong = (0..<55_000).filter { index in
            first[index] != (index < 5_000 ? SharedNodeBlockTests.node(index) : Self.renumbered(index - 5_000, after: 5_000))
        }
        let firstWrong = Array(wrong.prefix(5))
        #expect(wrong.count == 0, "\(wrong.count) nodes differ, the first \(firstWrong)")
        let buffer = first.finish()
        #expect(Array(buffer.containers) == [
            JSONDocument.ContainerLink(node: 5_012, parent: 1, ordinal: 11),
            JSONDocument.ContainerLink(node: 5_025, parent: 5_012, ordinal: 0),
        ])
    }
}

/// A second half shaped as a parse makes it: placements (a key under the assumed inner container,
/// then a non-empty object holding an array), the inner container closing, then a member of the
/// top level. Met where it stands, only its top-level nodes are looked at (`adoptUnderAssumed`
/// steps over each container to the node after it); the nodes must come out as when it is copied
/// from a block of its own and every node is renumbered.
@Suite struct SecondHalfWalkTests {
    typealias NodeBuilder = JSONDocument.NodeBuilder
    typealias PackedNode = JSONDocument.PackedNode
    static let outer = JSONDocument.SplitParse.assumedOuter
    static let assumed = JSONDocument.SplitParse.AssumedContainers(outer: (0, 3), inner: (1, 7))

    /// The second half's nodes numbered from `first`, and its container links.
    static func secondHalf(numberedFrom first: Int) -> (nodes: [PackedNode], containers: [JSONDocument.ContainerLink]) {
        var nodes: [PackedNode] = []
        var containers: [JSONDocument.ContainerLink] = []
        func scalar(_ kind: JSONDocument.Kind, parent: Int, ordinal: Int, key: Bool = false) {
            nodes.append(PackedNode(kind: kind, flags: key ? JSONDocument.isKey : 0, start: nodes.count, end: nodes.count + 1, link: parent + 1, number: ordinal))
        }
        for placement in 0..<3 {
            // "p": {"a": [1, 2], "b": 3}
            scalar(.string, parent: outer + 1, ordinal: placement, key: true)
            let object = first + nodes.count
            containers.append(JSONDocument.ContainerLink(node: Int32(object), parent: Int32(outer + 1), ordinal: Int32(placement)))
            nodes.append(PackedNode(kind: .object, flags: 0, start: nodes.count, end: nodes.count + 1, link: object + 7 - first, number: 2))
            scalar(.string, parent: object, ordinal: 0, key: true)
            let array = first + nodes.count
            containers.append(JSONDocument.ContainerLink(node: Int32(array), parent: Int32(object), ordinal: 0))
            nodes.append(PackedNode(kind: .array, flags: 0, start: nodes.count, end: nodes.count + 1, link: array + 3 - first, number: 2))
            scalar(.number, parent: array, ordinal: 0)
            scalar(.number, parent: array, ordinal: 1)
            scalar(.string, parent: object, ordinal: 1, key: true)
            scalar(.number, parent: object, ordinal: 1)
        }
        // The placements object closed; a member of the top level follows.
        scalar(.string, parent: outer, ordinal: 0, key: true)
        scalar(.true, parent: outer, ordinal: 0)
        // Containers store the node after them in the half's numbering.
        for index in nodes.indices where nodes[index].isContainer { nodes[index].setLink(Int(nodes[index].link) + first) }
        return (nodes, containers)
    }

    /// The first half's 40 nodes and the second half met, the second half claimed from `claimFrom`.
    static func met(claimFrom: Int) -> (nodes: [PackedNode], containers: [JSONDocument.ContainerLink], inPlace: Bool) {
        var first = NodeBuilder(capacity: 1024)
        let block = first.shareWithSecondHalf()
        for tag in 0..<40 { first.append(SharedNodeBlockTests.node(tag)) }
        var other = NodeBuilder(sharing: block, from: claimFrom, otherwiseCapacity: 16)
        let half = secondHalf(numberedFrom: other.firstIndex)
        for node in half.nodes { other.append(node) }
        for link in half.containers { other.appendContainer(link) }
        first.stopSharing()
        let inPlace = first.append(secondHalf: other, assumed: assumed)
        other.discard()
        first.freeLeftBlock()
        let nodes = (0..<first.count).map { first[$0] }
        let buffer = first.finish()
        return (nodes, Array(buffer.containers), inPlace)
    }

    @Test func metWhereItStandsTheHalfIsWhatCopyingAndRenumberingGives() {
        let walked = Self.met(claimFrom: 40)
        let copied = Self.met(claimFrom: 4096)
        #expect(walked.inPlace && !copied.inPlace)
        #expect(walked.nodes.count == 40 + 3 * 8 + 2)
        #expect(walked.nodes == copied.nodes)
        #expect(walked.containers == copied.containers)
        // The placements' keys are members 7, 8 and 9 of node 1; the top-level member is the 4th of node 0.
        #expect([40, 48, 56].map { walked.nodes[$0].link } == [2, 2, 2])
        #expect([40, 48, 56].map { walked.nodes[$0].number } == [7, 8, 9])
        #expect(walked.nodes[64].link == 1 && walked.nodes[65].link == 1)
        #expect(walked.nodes[64].number == 3 && walked.nodes[65].number == 3)
        // Inside the placements nothing changed: the array's numbers still name the array.
        #expect(walked.nodes[44].link == 43 + 1 && walked.nodes[41].link == 48)
    }
}

/// The parser's list of container links starts with room for a whole export, so it is not copied
/// into fresh memory as it grows; split or not, the document keeps that list.
@Suite struct ContainerRoomTests {
    @Test(arguments: [false, true]) func anExportsContainersFitTheRoomMadeForThem(_ inTwoHalves: Bool) {
        let bytes = Array(SampleExport(placementCount: 40, seed: 5).jsonText().utf8)
        let document = JSONDocument(bytes: bytes, path: .vector, splitAt: inTwoHalves ? bytes.count * 6 / 10 : Int.max)
        #expect(document.storage.parsedInTwoHalves == inTwoHalves)
        let buffer = document.storage.nodes.buffer
        let room = JSONDocument.Parser<IndexedScanner>.containerCapacity(for: bytes.count)
        #expect(buffer.containers.count > 100 && buffer.containers.count <= room)
        #expect(buffer.containerCapacity >= room, "room for \(buffer.containerCapacity) containers, \(room) made")
    }
}
