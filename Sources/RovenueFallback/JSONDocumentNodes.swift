#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// MARK: - The stored node

extension JSONDocument {
    /// One node as the document stores it: 16 bytes, four 32-bit words. Every offset and index fits
    /// in 31 bits (a text holds at most `Int32.max` bytes and a node takes at least one), and an
    /// element's or member's position and a container's size in 30 (each takes at least two bytes),
    /// so the top bits carry the kind and its flags:
    ///
    /// | word | low bits | top bit(s) |
    /// |---|---|---|
    /// | 0 | start offset | flag A |
    /// | 1 | end offset | flag B |
    /// | 2 | scalar: parent + 1; container: the node after its subtree (`next`) | kind code bit 2 |
    /// | 3 | scalar: its ordinal; container: its count | kind code bits 1 and 0 |
    ///
    /// The kind code is `Kind.rawValue`, and 7 for a string that is an object's key. Flag A is
    /// `hasEscapes` (string), `integerToken` (number) or `incomplete` (container); flag B is
    /// `hasLoneSurrogate` (string) or `overflows` (number). A scalar's `next` is its index + 1; a
    /// container's parent and ordinal are kept beside the nodes (`ContainerLink`), since only
    /// pointers and error paths read them.
    struct PackedNode: Sendable, Equatable {
        var word0: UInt32
        var word1: UInt32
        var word2: UInt32
        var word3: UInt32

        static let low31: UInt32 = 0x7FFF_FFFF
        static let low30: UInt32 = 0x3FFF_FFFF
        static let top: UInt32 = 0x8000_0000
        /// The kind code of a string that is a key.
        static let keyCode: UInt32 = 7

        /// Packs a node; `link` is parent + 1 for a scalar and `next` for a container, `number` its
        /// ordinal or count. The flags are `JSONDocument`'s flag constants.
        init(kind: Kind, flags: UInt8, start: Int, end: Int, link: Int, number: Int) {
            let isString = kind == .string
            let code = isString && flags & JSONDocument.isKey != 0 ? PackedNode.keyCode : UInt32(kind.rawValue)
            let (flagA, flagB) = PackedNode.storedFlags(kind, flags)
            self.init(code: code, flagA: flagA, flagB: flagB, start: start, end: end, link: link, number: number)
        }

        /// Packs a node from its kind code (`Kind.rawValue`, or `keyCode`) and stored flags: what
        /// `init(kind:flags:start:end:link:number:)` computes, for the parser's hot path, which knows them.
        @inline(__always)
        init(code: UInt32, flagA: Bool, flagB: Bool, start: Int, end: Int, link: Int, number: Int) {
            word0 = UInt32(truncatingIfNeeded: start) & PackedNode.low31 | (flagA ? PackedNode.top : 0)
            word1 = UInt32(truncatingIfNeeded: end) & PackedNode.low31 | (flagB ? PackedNode.top : 0)
            word2 = UInt32(truncatingIfNeeded: link) & PackedNode.low31 | (code & 4) << 29
            word3 = UInt32(truncatingIfNeeded: number) & PackedNode.low30 | (code & 3) << 30
        }

        /// The two flags a kind keeps, from `JSONDocument`'s flag constants.
        @inline(__always)
        static func storedFlags(_ kind: Kind, _ flags: UInt8) -> (a: Bool, b: Bool) {
            switch kind {
            case .string: (flags & JSONDocument.hasEscapes != 0, flags & JSONDocument.hasLoneSurrogate != 0)
            case .number: (flags & JSONDocument.integerToken != 0, flags & JSONDocument.overflows != 0)
            case .array, .object: (flags & JSONDocument.incomplete != 0, false)
            case .null, .true, .false: (false, false)
            }
        }

        @inline(__always) var code: UInt32 { word3 >> 30 | (word2 >> 29) & 4 }

        @inline(__always) var kind: Kind {
            let code = self.code
            // SAFETY: codes 0...6 are `Kind`'s raw values; 7 (a key) is a string.
            return unsafeBitCast(UInt8(truncatingIfNeeded: code == PackedNode.keyCode ? 4 : code), to: Kind.self)
        }

        @inline(__always) var isContainer: Bool { code == 5 || code == 6 }

        @inline(__always) var flags: UInt8 {
            let a = word0 & PackedNode.top != 0
            let b = word1 & PackedNode.top != 0
            switch code {
            case 4, PackedNode.keyCode:
                return (a ? JSONDocument.hasEscapes : 0) | (b ? JSONDocument.hasLoneSurrogate : 0)
                    | (code == PackedNode.keyCode ? JSONDocument.isKey : 0)
            case 3: return (a ? JSONDocument.integerToken : 0) | (b ? JSONDocument.overflows : 0)
            case 5, 6: return a ? JSONDocument.incomplete : 0
            default: return 0
            }
        }

        @inline(__always) var start: UInt32 { word0 & PackedNode.low31 }
        @inline(__always) var end: UInt32 { word1 & PackedNode.low31 }
        /// Parent + 1 of a scalar, `next` of a container.
        @inline(__always) var link: UInt32 { word2 & PackedNode.low31 }
        /// The ordinal of a scalar, the count of a container.
        @inline(__always) var number: UInt32 { word3 & PackedNode.low30 }

        mutating func setEnd(_ end: Int) { word1 = word1 & PackedNode.top | UInt32(truncatingIfNeeded: end) & PackedNode.low31 }
        mutating func setLink(_ link: Int) { word2 = word2 & PackedNode.top | UInt32(truncatingIfNeeded: link) & PackedNode.low31 }
        mutating func setNumber(_ number: Int32) { word3 = word3 & ~PackedNode.low30 | UInt32(truncatingIfNeeded: number) & PackedNode.low30 }
        /// Sets flag A (`incomplete` on a container).
        mutating func setFlagA() { word0 |= PackedNode.top }
        /// Sets flag B (`overflows` on a number).
        mutating func setFlagB() { word1 |= PackedNode.top }
    }

    /// A container's parent and its ordinal in that parent, which its packed node has no room for.
    struct ContainerLink: Sendable, Equatable {
        var node: Int32
        var parent: Int32
        var ordinal: Int32
    }
}

// MARK: - Reading nodes

extension JSONDocument {
    /// One node as its readers see it: kind, flags, byte range, `next` (the node after its subtree)
    /// and count, read from the packed form. A plain value: its parent and ordinal are asked of the
    /// document's `Nodes` (`parent(of:)`, `ordinal(of:)`), which own what a container's need.
    struct Node: Sendable, Equatable {
        let packed: PackedNode
        let index: Int

        @inline(__always) var kind: Kind { packed.kind }
        @inline(__always) var flags: UInt8 { packed.flags }
        @inline(__always) var start: UInt32 { packed.start }
        @inline(__always) var end: UInt32 { packed.end }
        /// Index of the node after this value's subtree.
        @inline(__always) var next: Int32 { packed.isContainer ? Int32(bitPattern: packed.link) : Int32(truncatingIfNeeded: index + 1) }
        /// Elements of an array, members of an object.
        @inline(__always) var count: Int32 { packed.isContainer ? Int32(bitPattern: packed.number) : 0 }
    }

    /// The document's nodes, in pre-order: 16 bytes each (`PackedNode`) in one block the parser
    /// filled, and a `ContainerLink` per container.
    struct Nodes: RandomAccessCollection, Sendable, Equatable {
        let buffer: NodeBuffer

        var startIndex: Int { 0 }
        var endIndex: Int { buffer.count }

        @inline(__always)
        subscript(index: Int) -> Node {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: buffer.count), "node index out of range")
            return Node(packed: buffer.base[index], index: index)
        }

        /// The containing array or object of the node at `index`, -1 for the top level.
        func parent(of index: Int) -> Int32 { parentAndOrdinal(of: index).parent }

        /// The element's index in its array, or the member's index in its object (key and value),
        /// of the node at `index`.
        func ordinal(of index: Int) -> Int32 { parentAndOrdinal(of: index).ordinal }

        /// `parent(of:)` and `ordinal(of:)` at once.
        ///
        /// A container's are read off the node before it when that says them: a member's key (the
        /// value shares its key's parent and ordinal) or a container that is not empty (then an
        /// array, and this its first element). Any other container's are found by a binary search.
        @inline(__always)
        func parentAndOrdinal(of index: Int) -> (parent: Int32, ordinal: Int32) {
            if let link = readParentAndOrdinal(of: index) { return link }
            let link = buffer.link(ofContainer: index)
            return (link.parent, link.ordinal)
        }

        /// `parentAndOrdinal(of:)` when the node or the node before says it, without a search; nil
        /// for a container that is neither a member's value nor an array's first element.
        @inline(__always)
        func readParentAndOrdinal(of index: Int) -> (parent: Int32, ordinal: Int32)? {
            let packed = self[index].packed
            guard packed.isContainer else { return (Int32(bitPattern: packed.link) - 1, Int32(bitPattern: packed.number)) }
            guard index > 0 else { return nil }
            let before = buffer.base[index - 1]
            if before.code == PackedNode.keyCode { return (Int32(bitPattern: before.link) - 1, Int32(bitPattern: before.number)) }
            if before.isContainer, before.number > 0 { return (Int32(truncatingIfNeeded: index - 1), 0) }
            return nil
        }

        /// Equal when every node reads the same, parent and ordinal included.
        static func == (lhs: Nodes, rhs: Nodes) -> Bool {
            lhs.count == rhs.count
                && lhs.indices.allSatisfy {
                    lhs[$0] == rhs[$0] && lhs.parent(of: $0) == rhs.parent(of: $0) && lhs.ordinal(of: $0) == rhs.ordinal(of: $0)
                }
        }
    }

    /// Owns the packed nodes.
    final class NodeBuffer: @unchecked Sendable {
        // Written only while the parser builds it (`NodeBuilder`), then read-only.
        let base: UnsafeMutablePointer<PackedNode>
        let count: Int
        /// One per container, in node order, in a block of their own.
        let containers: UnsafeBufferPointer<ContainerLink>
        /// The links the block has room for: what the parser made room for, or more.
        let containerCapacity: Int

        fileprivate init(base: UnsafeMutablePointer<PackedNode>, count: Int, containers: UnsafeBufferPointer<ContainerLink>, containerCapacity: Int) {
            self.base = base
            self.count = count
            self.containers = containers
            self.containerCapacity = containerCapacity
        }

        deinit {
            free(base)
            free(UnsafeMutableRawPointer(mutating: containers.baseAddress))
        }

        /// The parent and ordinal of the container at node `index`, by a binary search.
        func link(ofContainer index: Int) -> ContainerLink {
            var low = 0
            var high = containers.count - 1
            while low < high {
                let middle = (low + high) / 2
                if Int(containers[middle].node) < index { low = middle + 1 } else { high = middle }
            }
            precondition(Int(containers[low].node) == index, "node \(index) is not a container")
            return containers[low]
        }
    }

    /// The parser's growing node block: appends write through a pointer, with one capacity compare
    /// and no copy when it grows (`realloc` moves a large block's pages without copying them). The
    /// container links are kept the same way, in a block of their own: appending to an array would
    /// check each time that it is not shared.
    ///
    /// In a split parse both halves write into the first half's block (`SplitParse.SharedBlock`):
    /// the first half's capacity is then its limit there, the second half's the rest of the block,
    /// and a half that needs more moves to a block of its own. A second half writing into the
    /// shared block numbers its nodes where they stand there (`firstIndex`), so where it starts just
    /// after the first half's last node its nodes are already the document's.
    struct NodeBuilder {
        /// Node `i` stands at `base + i`, for `i` in `firstIndex..<count`.
        private(set) var base: UnsafeMutablePointer<PackedNode>
        /// The index the next node takes: indexes count from the start of the block, not from `firstIndex`.
        private(set) var count = 0
        /// The index of this builder's first node: 0, or where a split parse's second half claimed
        /// the shared block (`init(sharing:from:otherwiseCapacity:)`). The places before it are the
        /// first half's, never read or written through this builder.
        private(set) var firstIndex = 0
        /// The index at which the block is full.
        private var capacity: Int
        private var containerBase: UnsafeMutablePointer<ContainerLink>
        private var containerCount = 0
        private var containerCapacity = 16
        /// The block this builder, a first half, shares with the second half (`shareWithSecondHalf()`).
        private var sharedBlock: SplitParse.SharedBlock?
        /// False for a second half writing into the first half's block: not this builder's to grow or free.
        private var ownsBlock = true
        /// The shared block a first half moved out of, still holding the second half's nodes
        /// (`freeLeftBlock()` frees it once they are taken in).
        private var leftBlock: UnsafeMutablePointer<PackedNode>?

        init(capacity: Int) {
            let capacity = max(capacity, 16)
            self.init(base: NodeBuilder.allocate(nil, capacity), capacity: capacity, ownsBlock: true)
        }

        private init(base: UnsafeMutablePointer<PackedNode>, capacity: Int, ownsBlock: Bool) {
            self.base = base
            self.capacity = capacity
            self.ownsBlock = ownsBlock
            containerBase = NodeBuilder.allocate(nil, containerCapacity)
        }

        /// A split parse's second half, written into `block` from `nodesBefore` (or the first half's
        /// limit, if further) and numbered from there (`firstIndex`), or into a block of its own for
        /// `capacity` nodes, numbered from 0, when `block` has no room for it.
        init(sharing block: SplitParse.SharedBlock, from nodesBefore: Int, otherwiseCapacity capacity: Int) {
            guard let start = block.claimSecondHalf(from: nodesBefore) else {
                self.init(capacity: capacity)
                return
            }
            self.init(base: block.base, capacity: block.capacity, ownsBlock: false)
            count = start
            firstIndex = start
        }

        /// Lets a split parse's second half write into the rest of this block; this builder, the
        /// first half, writes up to a limit it raises as it goes (`SplitParse.SharedBlock`).
        mutating func shareWithSecondHalf() -> SplitParse.SharedBlock {
            let block = SplitParse.SharedBlock(base: base, capacity: capacity, firstHalfCount: count)
            sharedBlock = block
            capacity = block.initialLimit
            return block
        }

        /// Ends the sharing once both halves stopped: this builder may use the whole block again.
        mutating func stopSharing() {
            guard let block = sharedBlock else { return }
            sharedBlock = nil
            capacity = block.capacity
        }

        /// Frees the shared block a first half moved out of, after the second half's nodes were taken in.
        mutating func freeLeftBlock() {
            guard let block = leftBlock else { return }
            free(block)
            leftBlock = nil
        }

        private static func allocate<Element>(_ old: UnsafeMutablePointer<Element>?, _ capacity: Int) -> UnsafeMutablePointer<Element> {
            let byteCount = capacity * MemoryLayout<Element>.stride
            guard let raw = realloc(old, byteCount) else { fatalError("out of memory for \(capacity) \(Element.self)s") }
            return raw.bindMemory(to: Element.self, capacity: capacity)
        }

        @inline(__always)
        mutating func append(_ node: PackedNode) {
            if count == capacity { grow() }
            (base + count).initialize(to: node)
            count &+= 1
        }

        @inline(never)
        private mutating func grow() {
            if let block = sharedBlock {
                switch block.raiseFirstHalfLimit(from: count) {
                case .upTo(let limit):
                    capacity = limit
                    return
                case .wholeBlock:
                    sharedBlock = nil
                    capacity = block.capacity
                    if count < capacity { return }
                case .none:
                    sharedBlock = nil
                    leftBlock = base
                    moveToOwnBlock()
                    return
                }
            } else if !ownsBlock {
                moveToOwnBlock()
                return
            }
            capacity *= 2
            base = NodeBuilder.allocate(base, capacity)
        }

        /// Copies the nodes into a block of this builder's own, with room for twice as many indexes
        /// as they reach. They keep their indexes: a second half's block keeps the places before its
        /// `firstIndex` too, never written, so never given memory (a block this large is mapped).
        private mutating func moveToOwnBlock() {
            let moved: UnsafeMutablePointer<PackedNode> = NodeBuilder.allocate(nil, max(count * 2, 16))
            (moved + firstIndex).initialize(from: base + firstIndex, count: count - firstIndex)
            base = moved
            capacity = max(count * 2, 16)
            ownsBlock = true
        }

        /// Records a container's parent and ordinal when it opens.
        @inline(__always)
        mutating func appendContainer(_ link: ContainerLink) {
            if containerCount == containerCapacity { reserveContainers(2 * containerCapacity) }
            (containerBase + containerCount).initialize(to: link)
            containerCount &+= 1
        }

        /// Makes room for `count` containers' links.
        mutating func reserveContainers(_ count: Int) {
            guard count > containerCapacity else { return }
            containerBase = NodeBuilder.allocate(containerBase, count)
            containerCapacity = count
        }

        /// Appends the nodes and container links of a split parse's second half (`SplitParse`),
        /// renumbered to follow this builder's: every `next` and parent moves by the distance from
        /// the second half's `firstIndex` to this builder's count, but the parents at or above
        /// `SplitParse.assumedOuter` stand for the two containers the second half was assumed to be
        /// in, which `assumed` maps to their nodes here and to how many members or elements came
        /// before the second half's in them. Returns whether they were written into this block
        /// already (`SplitParse.SharedBlock`).
        ///
        /// Where the second half's nodes already stand where they belong (it claimed the block
        /// exactly at this builder's end, the usual case), they are numbered as they stand too, and
        /// only the nodes under the assumed containers change: the second half's top-level nodes,
        /// found by stepping from each to the next (`adoptUnderAssumed`), a few per placement.
        @discardableResult
        mutating func append(secondHalf other: NodeBuilder, assumed: SplitParse.AssumedContainers) -> Bool {
            let otherCount = other.count - other.firstIndex
            let source = other.base + other.firstIndex
            // Written into this block (`SplitParse.SharedBlock`), from this builder's end or past it:
            // moved down in place, if at all. Otherwise copied from the second half's own block.
            let inPlace = !other.ownsBlock && other.base == base
            if !inPlace, count + otherCount > capacity {
                capacity = max(capacity * 2, count + otherCount)
                base = NodeBuilder.allocate(base, capacity)
            }
            let shift = count - other.firstIndex
            // In place, the first half never writes past the second half's claim
            // (`SharedBlock.raiseFirstHalfLimit`), so the nodes stay or move down, never up: a
            // copy forward reads each node before any node is written over it.
            assert(!inPlace || shift <= 0, "a second half in place starts at or past the first half's end")
            let target = base + count
            if inPlace, shift == 0 {
                adoptUnderAssumed(from: count, to: count + otherCount, assumed: assumed)
            } else {
                // A piece at a time, each piece's source pages given back once copied: the two
                // blocks never hold the second half's nodes twice.
                let piece = (1 << 20) / MemoryLayout<PackedNode>.stride
                let wordShift = UInt32(truncatingIfNeeded: shift)
                for start in stride(from: 0, to: otherCount, by: piece) {
                    let end = min(start + piece, otherCount)
                    for index in start..<end {
                        (target + index).initialize(to: NodeBuilder.renumbered(source[index], by: wordShift, assumed: assumed))
                    }
                    if !inPlace {
                        MemoryPages.discard(source + start, byteCount: (end - start) * MemoryLayout<PackedNode>.stride)
                    }
                }
                if inPlace {
                    // The pages past the moved nodes held only their old copy.
                    let stale = target + otherCount
                    MemoryPages.discard(stale, byteCount: (source - target) * MemoryLayout<PackedNode>.stride)
                }
            }
            count += otherCount
            reserveContainers(containerCount + other.containerCount)
            let linkShift = Int32(truncatingIfNeeded: shift)
            for link in UnsafeBufferPointer(start: other.containerBase, count: other.containerCount) {
                if link.parent >= Int32(JSONDocument.SplitParse.assumedOuter) {
                    let (parent, before) = assumed.container(link.parent)
                    appendContainer(ContainerLink(node: link.node &+ linkShift, parent: parent, ordinal: link.ordinal + before))
                } else {
                    appendContainer(ContainerLink(node: link.node &+ linkShift, parent: link.parent &+ linkShift, ordinal: link.ordinal))
                }
            }
            return inPlace
        }

        /// Gives the scalars among nodes `start..<end` whose parent is an assumed container their
        /// node and ordinal here (`renumbered`, with nothing to shift): the nodes of a second half
        /// that already stand and are numbered where they belong. Only its top-level nodes can have
        /// such a parent, so it steps from a container to the node after it (its link) and from a
        /// scalar to the next node; a container left open (the text broke in it) still links to
        /// its first child, and its nodes are looked at too, harmlessly.
        private func adoptUnderAssumed(from start: Int, to end: Int, assumed: SplitParse.AssumedContainers) {
            var index = start
            while index < end {
                let node = base[index]
                if node.isContainer {
                    index = max(index &+ 1, Int(node.link))
                } else {
                    if node.link > UInt32(JSONDocument.SplitParse.assumedOuter) {
                        base[index] = NodeBuilder.renumbered(node, by: 0, assumed: assumed)
                    }
                    index &+= 1
                }
            }
        }

        /// A second half's node numbered after `shift` more nodes (`append(secondHalf:assumed:)`;
        /// a shift back is its two's complement). A scalar stores parent + 1 and a container the
        /// node after it, both below `SplitParse.assumedOuter` unless the parent is an assumed
        /// container (containers never are).
        @inline(__always)
        static func renumbered(_ node: PackedNode, by shift: UInt32, assumed: SplitParse.AssumedContainers) -> PackedNode {
            var node = node
            if node.link <= UInt32(JSONDocument.SplitParse.assumedOuter) {
                node.word2 &+= shift
            } else {
                let (parent, before) = assumed.container(Int32(bitPattern: node.link) - 1)
                node.setLink(Int(parent) + 1)
                node.setNumber(Int32(bitPattern: node.number) + before)
            }
            return node
        }

        /// Frees the block of a builder whose nodes are not kept (`finish()` hands it on otherwise),
        /// unless it is the first half's (`SplitParse.SharedBlock`), and its container links. The
        /// builder must not be used after.
        func discard() {
            if ownsBlock { free(base) }
            free(containerBase)
        }

        @inline(__always)
        subscript(index: Int) -> PackedNode {
            get { base[index] }
            nonmutating _modify { yield &base[index] }
        }

        /// The finished nodes; the block shrinks to what was used. The builder must not be used after.
        func finish() -> NodeBuffer {
            let shrunk = NodeBuilder.allocate(base, max(count, 1))
            return NodeBuffer(
                base: shrunk, count: count, containers: UnsafeBufferPointer(start: containerBase, count: containerCount),
                containerCapacity: containerCapacity)
        }
    }
}
