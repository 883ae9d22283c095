import Dispatch
import Foundation

extension JSONDocument {
    /// A document of what a parser made (tests drive the parser's parts themselves).
    init(storage: Storage) { self.storage = storage }

    /// Stage 2 of a large text in two halves on two cores, giving exactly the document one parse
    /// gives.
    ///
    /// The halves meet at a comma between two members of an object nested in the top-level value
    /// (in a fallback file, between two placements):
    ///
    /// 1. Another thread (when one is free) finds the first such comma at or after `firstHalfShare` of the text
    ///    (`boundary`), reading stage 1's bitmaps, which is much cheaper than parsing. It then parses
    ///    from there to the end as a fragment (`Fragment`): its stack starts with the two containers
    ///    the comma is in, assumed open, of the kinds the scan saw.
    /// 2. Meanwhile the parser reads from the start and stops at the first comma at or after the
    ///    same offset between members of an object two levels deep (`Parser.stopAfter`).
    /// 3. Where both stopped at the same comma and agree on the two containers' kinds, the parser
    ///    takes the fragment's nodes in, renumbered where they need it (`Parser.adopt`): the state
    ///    of a parse at that comma is its stack's kinds and depth, so the fragment parsed what the
    ///    parser would have.
    ///    Otherwise (the text breaks before the comma, the scan saw something else) the fragment
    ///    is dropped and the parser goes on alone from where it stopped.
    ///
    /// The first half is longer than the second: the scan that starts the second costs a share of
    /// the time, and the halves should end together.
    enum SplitParse {
        /// The index the fragment's stack gives the outer assumed container; the inner one is the
        /// next. Above any node index of a text under this many bytes (`automaticSplit`).
        static let assumedOuter = 0x3FFF_FF00
        /// Texts from this size up are parsed in two halves.
        static let minimumByteCount = ParseIndex.parallelThreshold
        /// Where the search for the meeting comma starts, as a share of the text. The second half
        /// first scans the bitmaps up to it (`boundary`, about 7 ms of a 10,000-placement `check`),
        /// so the first half takes more than half; at 0.6 it ended last in four of five traced
        /// runs, 7-10 ms after the second. 0.55 against 0.6 (and 0.52), alternated: `check`
        /// medians 199.7 against 202.9 (202.0) ms over 30 runs each, and 0.255 against 0.259 s in
        /// an earlier, noisier trial.
        static let firstHalfShare = 0.55

        /// The two containers a second half was assumed to be in, as the first half has them: each
        /// one's node and how many members or elements came before the second half's in it.
        struct AssumedContainers: Sendable {
            let outer: (node: Int32, before: Int32)
            let inner: (node: Int32, before: Int32)

            /// The container a second half numbers `index`: `assumedOuter` or the one after it.
            @inline(__always)
            func container(_ index: Int32) -> (node: Int32, before: Int32) {
                index == Int32(assumedOuter) ? outer : inner
            }
        }

        /// What closing an assumed container would have written to its node: its end, the node
        /// after it (in the fragment's numbering) and its count of members or elements in the fragment.
        struct AssumedClose {
            let end: Int
            let next: Int
            let count: Int32
        }

        /// The second half, parsed from just after `comma` to `end` (where it stopped).
        struct Fragment {
            let comma: Int
            let kinds: (Kind, Kind)
            var parser: Parser<IndexedScanner>
            let end: Int
        }

        /// Where to start looking for the meeting comma in a text of `byteCount` bytes, or nil when it
        /// is parsed in one piece: under `minimumByteCount`, too large for `assumedOuter`, one core.
        static func automaticSplit(byteCount: Int) -> Int? {
            guard byteCount >= minimumByteCount, byteCount < assumedOuter, ProcessInfo.processInfo.activeProcessorCount > 1 else {
                return nil
            }
            return Int(Double(byteCount) * firstHalfShare)
        }

        /// Parses `bytes` with `parser` in two halves that meet at the first place they can at or
        /// after `split`: the first on this thread, the second on another when one is free
        /// (`concurrentPerform`, which never waits for a busy pool: it runs both here then).
        static func parse(_ bytes: UnsafeBufferPointer<UInt8>, index: ParseIndex, from split: Int, with parser: inout Parser<IndexedScanner>) {
            parser.stopAfter = split
            let accepting = parser.acceptsLoneSurrogates
            let block = parser.nodes.shareWithSecondHalf()
            var fragment: Fragment?
            var firstHalfEnd = 0
            withUnsafeMutablePointer(to: &parser) { parser in
                withUnsafeMutablePointer(to: &fragment) { fragment in
                    withUnsafeMutablePointer(to: &firstHalfEnd) { firstHalfEnd in
                        let halves = Halves(bytes: bytes, parser: parser, fragment: fragment, firstHalfEnd: firstHalfEnd)
                        DispatchQueue.concurrentPerform(iterations: 2) { half in
                            if half == 0 {
                                halves.parser.pointee.parseValues(halves.bytes, &halves.firstHalfEnd.pointee)
                            } else {
                                halves.fragment.pointee = secondHalf(
                                    halves.bytes, index: index, from: split, acceptingLoneSurrogates: accepting, sharing: block)
                            }
                        }
                    }
                }
            }
            parser.finish(bytes, at: firstHalfEnd, meeting: fragment)
        }

        /// What the two halves write, each only its own part: the parser and where it stopped, or
        /// the fragment.
        private struct Halves: @unchecked Sendable {
            let bytes: UnsafeBufferPointer<UInt8>
            let parser: UnsafeMutablePointer<Parser<IndexedScanner>>
            let fragment: UnsafeMutablePointer<Fragment?>
            let firstHalfEnd: UnsafeMutablePointer<Int>
        }

        /// Finds the meeting comma after `split` and parses the rest of the text from it, into the
        /// first half's block (`SharedBlock`) from where the first half's nodes will end, if there is room.
        static func secondHalf(
            _ bytes: UnsafeBufferPointer<UInt8>, index: ParseIndex, from split: Int, acceptingLoneSurrogates: Bool, sharing block: SharedBlock
        ) -> Fragment? {
            guard let (comma, kinds, nodesBefore) = boundary(bytes, index: index, from: split) else { return nil }
            let nodes = NodeBuilder(sharing: block, from: nodesBefore, otherwiseCapacity: Parser<IndexedScanner>.nodeCapacity(for: bytes.count - comma))
            var parser = Parser(count: bytes.count, scanner: IndexedScanner(index: index), expectedBytes: bytes.count - comma, nodes: nodes)
            parser.acceptsLoneSurrogates = acceptingLoneSurrogates
            parser.isFragment = true
            parser.assumedKinds = kinds
            parser.stack = [
                JSONDocument.OpenContainer(node: Int32(assumedOuter), outerCount: 0, isObject: kinds.0 == .object),
                JSONDocument.OpenContainer(node: Int32(assumedOuter + 1), outerCount: 0, isObject: kinds.1 == .object),
            ]
            parser.openCount = 0
            parser.parent = Int32(assumedOuter + 1)
            parser.parentIsObject = true
            var offset = comma + 1
            parser.parseValues(bytes, &offset, from: .memberKey)
            return Fragment(comma: comma, kinds: kinds, parser: parser, end: offset)
        }

        /// The first comma at or after `split`, outside strings, between two members of an object
        /// that is an element or member of the top-level value, with the kinds of the top-level value
        /// and of that object, and how many nodes a parse of valid JSON makes before it (each string,
        /// container and other value); nil when the text ends, breaks or closes its top-level value first.
        ///
        /// It reads stage 1's bitmaps as the parser does: from each significant byte to the next,
        /// from a string's opening quote to its end by string stops, counting brackets; but the whole
        /// 64-byte blocks before `split` in which the depth stays at two or more (nearly all of a
        /// fallback file's, inside `placements`) it counts a block at a time (`countBlocks`), without
        /// going from token to token. It checks no grammar: where the text is not JSON, the parser's
        /// own stop disagrees or never comes.
        static func boundary(
            _ bytes: UnsafeBufferPointer<UInt8>, index: ParseIndex, from split: Int
        ) -> (comma: Int, kinds: (Kind, Kind), nodesBefore: Int)? {
            let count = bytes.count
            return index.significant.withUnsafeBufferPointer { significant in
                index.stringStops.withUnsafeBufferPointer { stops -> (comma: Int, kinds: (Kind, Kind), nodesBefore: Int)? in
                    /// The closing quote of the string whose bytes go on at `start`, or nil.
                    func closingQuote(from start: Int) -> Int? {
                        guard start <= count else { return nil }
                        var stop = start
                        while true {
                            stop = ParseIndex.next(in: stops, from: stop)
                            guard stop < count else { return nil }
                            let byte = bytes[stop]
                            if byte == UInt8(ascii: "\"") { return stop }
                            guard byte == UInt8(ascii: "\\"), stop + 2 <= count else { return nil }
                            stop += 2
                        }
                    }
                    // Every node but the top-level value follows a `,` or `:` or opens a container
                    // that is not empty: each of those counts one (an empty container's is taken back).
                    var separators = 0
                    var depth = 0
                    var outer = Kind.object
                    var innerIsObject = false
                    var offset = 0
                    // Blocks are tried again once the walk token by token reaches here.
                    var blocksFrom = 0
                    let blocksEnd = min(split, count)
                    while true {
                        if offset >= blocksFrom, depth >= 2 {
                            let counted = if case .portableVector = index.path {
                                countBlocks(
                                    bytes, significant: significant, stops: stops, from: offset, before: blocksEnd, depth: &depth,
                                    separators: &separators, masks: PortableBlockMasks.self)
                            } else {
                                countBlocks(
                                    bytes, significant: significant, stops: stops, from: offset, before: blocksEnd, depth: &depth,
                                    separators: &separators, masks: NativeBlockMasks.self)
                            }
                            offset = counted.offset
                            if counted.inString {
                                guard let quote = closingQuote(from: offset) else { return nil }
                                offset = quote + 1
                            }
                            blocksFrom = (offset & ~63) + 64
                        }
                        // Compact text has no whitespace between tokens: look at the byte before the bitmap.
                        if offset >= count || bytes[offset] <= 0x20 {
                            offset = ParseIndex.next(in: significant, from: offset)
                            guard offset < count else { return nil }
                        }
                        switch bytes[offset] {
                        case UInt8(ascii: "\""):
                            guard let quote = closingQuote(from: offset + 1) else { return nil }
                            offset = quote + 1
                        case UInt8(ascii: "{"), UInt8(ascii: "["):
                            separators += 1
                            depth += 1
                            if depth == 1 { outer = bytes[offset] == UInt8(ascii: "{") ? .object : .array }
                            if depth == 2 { innerIsObject = bytes[offset] == UInt8(ascii: "{") }
                            offset += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            guard depth > 0 else { return nil }
                            if closesEmpty(bytes, at: offset) { separators -= 1 }
                            offset += 1
                        case UInt8(ascii: ","):
                            if depth == 2, innerIsObject, offset >= split { return (offset, (outer, .object), 1 + separators) }
                            separators += 1
                            offset += 1
                        case UInt8(ascii: ":"):
                            separators += 1
                            offset += 1
                        default:
                            offset += 1
                        }
                    }
                }
            }
        }

        /// Whether the `}` or `]` at `offset` closes an empty container: the byte before it,
        /// whitespace skipped, opens one.
        @inline(__always)
        static func closesEmpty(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
            var before = offset - 1
            while before > 0, bytes[before] <= 0x20 { before -= 1 }
            return bytes[before] == UInt8(ascii: "{") || bytes[before] == UInt8(ascii: "[")
        }

        /// `boundary`'s count of the whole 64-byte blocks from the one holding `offset` (from
        /// `offset` on in it, which is outside strings) up to `end`, as its walk token by token would
        /// count them: brackets, separators and empty containers outside strings, where the depth
        /// stays at two or more in a block (then the walk would change nothing else). A block's
        /// strings are its significant string stops (stage 1's bitmaps), quotes when it has no
        /// backslash, paired up by a prefix XOR. A block with a backslash is left to the walk.
        /// Returns where it stopped (`offset` when no block was counted) and whether that is inside
        /// a string.
        ///
        /// The brackets and separators of a block are counted from masks of its bytes, 64 at a
        /// time; only the brackets that close are then looked at one by one (`closesEmpty`). It
        /// counts what the walk token by token counted before it (its tests keep that walk), which
        /// read every token with a branch on its byte (a fallback file has about seven a block,
        /// each digit a token). The branches cost the time: the token walk took 36-65 ms of a
        /// 10,000-placement `check`, on the second core before its half of the parse could start;
        /// this, 21-30 ms, though it runs more instructions (177 M against 110 M).
        static func countBlocks<Masks: BlockMasks>(
            _ bytes: UnsafeBufferPointer<UInt8>, significant: UnsafeBufferPointer<UInt64>, stops: UnsafeBufferPointer<UInt64>,
            from offset: Int, before end: Int, depth: inout Int, separators: inout Int, masks: Masks.Type
        ) -> (offset: Int, inString: Bool) {
            var word = offset &>> 6
            // The bytes of the first block before `offset` were walked already.
            var live = ~0 &<< UInt64(offset & 63)
            // All ones while a string runs on from one block into the next.
            var inStringCarry: UInt64 = 0
            guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (offset, false) }
            while (word &+ 1) &<< 6 <= end {
                let blockStart = word &<< 6
                let block = base + blockStart
                guard Masks.bytes(equalTo: UInt8(ascii: "\\"), in: block) == 0 else { break }
                // Without backslashes, the significant string stops are quotes (and, in text that is
                // not JSON, control characters in strings: then the count is wrong, and the halves do
                // not meet).
                let quotes = stops[word] & significant[word] & live
                let inString = StructuralIndex.prefixXOR(quotes) ^ inStringCarry
                let outside = significant[word] & ~inString & ~quotes & live
                var closers = Masks.bytes(equalTo: UInt8(ascii: "}"), or: UInt8(ascii: "]"), in: block) & outside
                let closes = closers.nonzeroBitCount
                guard depth - closes >= 2 else { break }
                let opens = (Masks.bytes(equalTo: UInt8(ascii: "{"), or: UInt8(ascii: "["), in: block) & outside).nonzeroBitCount
                let marks = (Masks.bytes(equalTo: UInt8(ascii: ","), or: UInt8(ascii: ":"), in: block) & outside).nonzeroBitCount
                var empty = 0
                while closers != 0 {
                    if closesEmpty(bytes, at: blockStart &+ closers.trailingZeroBitCount) { empty &+= 1 }
                    closers &= closers &- 1
                }
                depth += opens - closes
                separators += opens + marks - empty
                inStringCarry = UInt64(bitPattern: Int64(bitPattern: inString) >> 63)
                word &+= 1
                live = ~0
            }
            let stopped = word &<< 6
            guard stopped > offset else { return (offset, false) }
            return (stopped, inStringCarry != 0)
        }
    }
}

extension JSONDocument.Parser {
    /// Takes in the second half of a split parse: this parser stopped at the comma `fragment` began
    /// after, inside the two containers it assumed. Its nodes are renumbered to follow this
    /// parser's (they are already, when it claimed the shared block where this parser stopped),
    /// the assumed containers become the two open here, and the members and elements it counted in
    /// them come after the ones counted here; its error, lists and open containers become this
    /// parser's, as if one parser had read the whole text.
    mutating func adopt<Other>(_ fragment: inout JSONDocument.Parser<Other>) {
        typealias SplitParse = JSONDocument.SplitParse
        let outerNode = stack[0].node
        let innerNode = stack[1].node
        let outerCount = stack[1].outerCount
        let innerCount = openCount
        // What moves the fragment's node indexes (numbered from its `firstIndex`) to this parser's.
        let base = Int32(nodes.count) - Int32(fragment.nodes.firstIndex)
        let outer = Int32(SplitParse.assumedOuter)
        let inner = outer + 1
        // A fragment index in this parser's numbering, and how many members or elements came before
        // the fragment's in the container it names.
        func real(_ index: Int32) -> Int32 { index == outer ? outerNode : index == inner ? innerNode : index + base }
        func before(_ index: Int32) -> Int32 { index == outer ? outerCount : index == inner ? innerCount : 0 }
        secondHalfWrittenInPlace = nodes.append(
            secondHalf: fragment.nodes,
            assumed: SplitParse.AssumedContainers(outer: (outerNode, outerCount), inner: (innerNode, innerCount)))
        fragment.nodes.discard()
        tooDeep += fragment.tooDeep.map { $0 + base }
        overflowing += fragment.overflowing.map { $0 + base }
        loneSurrogates += fragment.loneSurrogates.map { surrogate in
            var surrogate = surrogate
            surrogate.node += base
            return surrogate
        }
        if let failure = fragment.error { error = failure }
        for (which, close) in fragment.assumedCloses.enumerated() {
            guard let close else { continue }
            let node = Int(which == 0 ? outerNode : innerNode)
            nodes[node].setEnd(close.end)
            nodes[node].setLink(close.next + Int(base))
            nodes[node].setNumber(close.count + (which == 0 ? outerCount : innerCount))
        }
        let fragmentStack = fragment.stack
        stack = fragmentStack.enumerated().map { depth, open in
            JSONDocument.OpenContainer(
                node: real(open.node), outerCount: depth == 0 ? open.outerCount : open.outerCount + before(fragmentStack[depth - 1].node),
                isObject: open.isObject)
        }
        openCount = fragment.openCount + (fragmentStack.last.map { before($0.node) } ?? 0)
        parent = stack.last?.node ?? -1
        parentIsObject = parent >= 0 && nodes[Int(parent)].kind == .object
        adoptedSecondHalf = true
    }
}

extension JSONDocument.SplitParse {
    /// The node block of a split parse, shared by its two halves so that the second half's nodes are
    /// written where the document's will stand, not copied there when the halves meet (copying them
    /// faulted in a fresh page for every 256 nodes: 9,000 of a 10,000-placement `check`'s 56,000).
    ///
    /// The first half owns the block and writes from its start, up to a limit it raises a step at a
    /// time (`raiseFirstHalfLimit`). The second half, once it knows how many nodes come before its
    /// comma (`boundary`), claims the rest of the block from there, or from the first half's limit if
    /// that is further (`claimSecondHalf`); from then on the first half's limit is that start. A half
    /// that runs out of room moves its nodes to a block of its own (`NodeBuilder`), and the halves
    /// meet by copying as before. The second half numbers its nodes from its start in the block
    /// (`NodeBuilder.firstIndex`): where the first half stops exactly there, the usual case, its
    /// nodes are the document's as they stand, and meeting changes only the few under the assumed
    /// containers (rewriting every node of a 10,000-placement second half took 6-8 ms on each core).
    /// Where the first half stops short of the second's start, the second half's nodes move down
    /// when they are taken in, over pages mostly faulted in already.
    final class SharedBlock: @unchecked Sendable {
        let base: UnsafeMutablePointer<JSONDocument.PackedNode>
        let capacity: Int
        /// How far the first half's limit moves each time: 1 MiB of nodes, less for a small block.
        let step: Int
        private let lock = NSLock()
        // Guarded by `lock`.
        private var firstHalfLimit: Int
        private var secondHalfStart: Int?
        /// The first half reached the end of the block before the second claimed any of it.
        private var closed = false

        /// What the first half may do when it reaches its limit.
        enum Room: Equatable {
            /// Write up to this many nodes.
            case upTo(Int)
            /// Grow the block as its own: the second half claimed none of it and may not now.
            case wholeBlock
            /// Move to a block of its own: the second half's nodes start where the first half stands.
            case none
        }

        init(base: UnsafeMutablePointer<JSONDocument.PackedNode>, capacity: Int, firstHalfCount: Int) {
            self.base = base
            self.capacity = capacity
            step = max(16, min(1 << 16, capacity >> 6))
            firstHalfLimit = min(capacity, firstHalfCount + step)
        }

        /// The first half's limit, before it has asked for more.
        var initialLimit: Int { lock.withLock { firstHalfLimit } }

        /// Room for a first half that has written `count` nodes, all it was allowed.
        func raiseFirstHalfLimit(from count: Int) -> Room {
            lock.withLock {
                if let start = secondHalfStart { return start > count ? .upTo(start) : .none }
                guard firstHalfLimit < capacity else {
                    closed = true
                    return .wholeBlock
                }
                firstHalfLimit = min(capacity, count + step)
                return .upTo(firstHalfLimit)
            }
        }

        /// Where the second half writes, `nodesBefore` or the first half's limit if that is further,
        /// or nil when the block has no room left for it (or is the first half's alone).
        func claimSecondHalf(from nodesBefore: Int) -> Int? {
            lock.withLock {
                let start = max(nodesBefore, firstHalfLimit)
                guard !closed, secondHalfStart == nil, capacity - start >= step else { return nil }
                secondHalfStart = start
                return start
            }
        }
    }
}
