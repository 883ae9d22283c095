import FallbackSample
@testable import RovenueFallback
import Testing

/// The node block a split parse's two halves share (`JSONDocument.SplitParse.SharedBlock`): whoever
/// runs out of room first, and wherever the second half starts, the first half ends up with its own
/// nodes followed by the second half's, renumbered, as when the second half had a block of its own.
@Suite struct SharedNodeBlockTests {
    typealias NodeBuilder = JSONDocument.NodeBuilder

    /// A number in the top-level container (node 0), with `tag` as its offsets and ordinal.
    static func node(_ tag: Int) -> JSONDocument.PackedNode {
        JSONDocument.PackedNode(kind: .number, flags: 0, start: tag, end: tag + 1, link: 1, number: tag)
    }

    /// The first half's `firstCount` nodes then the second half's `secondCount`, renumbered after them.
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
        for tag in 0..<second { other.append(node(1000 + tag)) }
        for tag in firstBefore..<(firstBefore + firstAfter) { first.append(node(tag)) }
        first.stopSharing()
        let inPlace = first.append(secondHalf: other) { _ in (0, 0) }
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
