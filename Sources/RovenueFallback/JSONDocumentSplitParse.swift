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
    ///    takes the fragment's nodes in, renumbered (`Parser.adopt`): the state of a parse at that
    ///    comma is its stack's kinds and depth, so the fragment parsed what the parser would have.
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
        /// Where the search for the meeting comma starts, as a share of the text.
        static let firstHalfShare = 0.6

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
                                halves.fragment.pointee = secondHalf(halves.bytes, index: index, from: split, acceptingLoneSurrogates: accepting)
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

        /// Finds the meeting comma after `split` and parses the rest of the text from it.
        static func secondHalf(
            _ bytes: UnsafeBufferPointer<UInt8>, index: ParseIndex, from split: Int, acceptingLoneSurrogates: Bool
        ) -> Fragment? {
            guard let (comma, kinds) = boundary(bytes, index: index, from: split) else { return nil }
            var parser = Parser(count: bytes.count, scanner: IndexedScanner(index: index), expectedBytes: bytes.count - comma)
            parser.acceptsLoneSurrogates = acceptingLoneSurrogates
            parser.isFragment = true
            parser.assumedKinds = kinds
            parser.stack = [Int32(assumedOuter), Int32(assumedOuter + 1)]
            parser.outerCounts = [0, 0]
            parser.openCount = 0
            parser.parent = Int32(assumedOuter + 1)
            parser.parentIsObject = true
            var offset = comma + 1
            parser.parseValues(bytes, &offset, from: .memberKey)
            return Fragment(comma: comma, kinds: kinds, parser: parser, end: offset)
        }

        /// The first comma at or after `split`, outside strings, between two members of an object
        /// that is an element or member of the top-level value, with the kinds of the top-level value
        /// and of that object; nil when the text ends, breaks or closes its top-level value first.
        ///
        /// It reads stage 1's bitmaps as the parser does: from each significant byte to the next,
        /// from a string's opening quote to its end by string stops, counting brackets. It checks no
        /// grammar: where the text is not JSON, the parser's own stop disagrees or never comes.
        static func boundary(
            _ bytes: UnsafeBufferPointer<UInt8>, index: ParseIndex, from split: Int
        ) -> (comma: Int, kinds: (Kind, Kind))? {
            let count = bytes.count
            return index.significant.withUnsafeBufferPointer { significant in
                index.stringStops.withUnsafeBufferPointer { stops -> (comma: Int, kinds: (Kind, Kind))? in
                    var depth = 0
                    var outer = Kind.object
                    var innerIsObject = false
                    var offset = 0
                    while true {
                        // Compact text has no whitespace between tokens: look at the byte before the bitmap.
                        if offset >= count || bytes[offset] <= 0x20 {
                            offset = ParseIndex.next(in: significant, from: offset)
                            guard offset < count else { return nil }
                        }
                        switch bytes[offset] {
                        case UInt8(ascii: "\""):
                            var stop = offset + 1
                            while true {
                                stop = ParseIndex.next(in: stops, from: stop)
                                guard stop < count else { return nil }
                                let byte = bytes[stop]
                                if byte == UInt8(ascii: "\"") { break }
                                guard byte == UInt8(ascii: "\\"), stop + 2 <= count else { return nil }
                                stop += 2
                            }
                            offset = stop + 1
                        case UInt8(ascii: "{"), UInt8(ascii: "["):
                            depth += 1
                            if depth == 1 { outer = bytes[offset] == UInt8(ascii: "{") ? .object : .array }
                            if depth == 2 { innerIsObject = bytes[offset] == UInt8(ascii: "{") }
                            offset += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            depth -= 1
                            guard depth > 0 else { return nil }
                            offset += 1
                        case UInt8(ascii: ","):
                            if depth == 2, innerIsObject, offset >= split { return (offset, (outer, .object)) }
                            offset += 1
                        default:
                            offset += 1
                        }
                    }
                }
            }
        }
    }
}

extension JSONDocument.Parser {
    /// Takes in the second half of a split parse: this parser stopped at the comma `fragment` began
    /// after, inside the two containers it assumed. Its nodes are renumbered after this parser's,
    /// the assumed containers become the two open here, and the members and elements it counted in
    /// them come after the ones counted here; its error, lists and open containers become this
    /// parser's, as if one parser had read the whole text.
    mutating func adopt<Other>(_ fragment: inout JSONDocument.Parser<Other>) {
        typealias SplitParse = JSONDocument.SplitParse
        let outerNode = stack[0]
        let innerNode = stack[1]
        let outerCount = outerCounts[1]
        let innerCount = openCount
        let base = Int32(nodes.count)
        let outer = Int32(SplitParse.assumedOuter)
        let inner = outer + 1
        // A fragment index in this parser's numbering, and how many members or elements came before
        // the fragment's in the container it names.
        func real(_ index: Int32) -> Int32 { index == outer ? outerNode : index == inner ? innerNode : index + base }
        func before(_ index: Int32) -> Int32 { index == outer ? outerCount : index == inner ? innerCount : 0 }
        nodes.append(secondHalf: fragment.nodes) { index in (real(index), before(index)) }
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
        stack = fragmentStack.map(real)
        outerCounts = fragment.outerCounts.enumerated().map { depth, count in depth == 0 ? count : count + before(fragmentStack[depth - 1]) }
        openCount = fragment.openCount + (fragmentStack.last.map(before) ?? 0)
        parent = stack.last ?? -1
        parentIsObject = parent >= 0 && nodes[Int(parent)].kind == .object
        adoptedSecondHalf = true
    }
}
