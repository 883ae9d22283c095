import Dispatch
import Foundation

/// Independent work split into contiguous chunks and run on the available cores: the one fan-out
/// that decoding, the audit, the timeline and the site's pages share.
///
/// The results come back in chunk order, so whatever a caller builds from them does not depend on
/// how many chunks there were or which finished first.
///
/// ```swift
/// let lengths = ParallelChunks(count: texts.count, chunks: 8).map { range in range.map { texts[$0].count } }
/// ```
public struct ParallelChunks: Sendable {
    /// The chunks' index ranges: contiguous, in order, together covering `0..<count`, none empty.
    public let ranges: [Range<Int>]

    /// `count` items in `chunks` runs of nearly equal length (chunk `i` starts at `i * count / chunks`);
    /// at least one and at most `count` runs.
    public init(count: Int, chunks: Int) {
        let chunks = max(1, min(chunks, count))
        ranges = count == 0 ? [] : (0..<chunks).map { chunk in (chunk * count / chunks)..<((chunk + 1) * count / chunks) }
    }

    /// `count` items in runs of `size` (the last may be shorter).
    public init(count: Int, size: Int) {
        let size = max(1, size)
        ranges = stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// `count` items split for the cores of this machine: `perCore` chunks per core, so a chunk of
    /// heavy items does not leave a core idle, but no chunk under `minimumSize` items, where
    /// starting a thread costs more than it saves (then fewer chunks, down to one).
    public static func forCores(count: Int, perCore: Int = 4, minimumSize: Int = 32) -> ParallelChunks {
        ParallelChunks(count: count, chunks: min(ProcessInfo.processInfo.activeProcessorCount * perCore, count / max(1, minimumSize)))
    }

    /// `body` of each chunk's range, concurrently when there is more than one chunk, in chunk order.
    /// `progress`, when given, is called after each chunk with the chunks done so far and the total,
    /// from whichever thread finished it.
    public func map<Result>(
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil, _ body: @Sendable (Range<Int>) -> Result
    ) -> [Result] {
        guard ranges.count > 1 else {
            return ranges.map { range in
                defer { progress?(1, 1) }
                return body(range)
            }
        }
        let slots = Slots<Result>(count: ranges.count)
        let ranges = ranges
        DispatchQueue.concurrentPerform(iterations: ranges.count) { chunk in
            let done = slots.set(body(ranges[chunk]), at: chunk)
            progress?(done, ranges.count)
        }
        return slots.results
    }

    /// `transform` of every index `0..<count`, in order, computed chunk by chunk.
    ///
    /// Each result is written straight into its place in the returned array by the thread that
    /// computed it: no per-chunk arrays, and no copy of a result afterwards (results can be large
    /// structs, whose copies retain every reference they hold).
    public func mapIndices<Result>(_ transform: @Sendable (Int) -> Result) -> [Result] {
        let count = ranges.last?.upperBound ?? 0
        return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let base = UncheckedPointer(base: buffer.baseAddress)
            _ = map { range in
                for index in range { (base.base! + index).initialize(to: transform(index)) }
            }
            initializedCount = count
        }
    }

    /// `mapIndices(_:)` with a `context` made once per chunk, on the chunk's thread, and handed to
    /// `transform` for each of the chunk's indices in turn: for work that shares something per
    /// thread (a decoder and its caches) from one index to the next.
    public func mapIndices<Context, Result>(
        context: @Sendable () -> Context, _ transform: @Sendable (inout Context, Int) -> Result
    ) -> [Result] {
        let count = ranges.last?.upperBound ?? 0
        return [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let base = UncheckedPointer(base: buffer.baseAddress)
            _ = map { range in
                var made = context()
                for index in range { (base.base! + index).initialize(to: transform(&made, index)) }
            }
            initializedCount = count
        }
    }

    /// `body` of every element of `elements` (`count` of them), changed in place chunk by chunk:
    /// each chunk's thread writes only the elements of its own range.
    public func updateEach<Element>(of elements: UnsafeMutableBufferPointer<Element>, _ body: @Sendable (inout Element) -> Void) {
        updateChunks(of: elements) { chunk in
            for index in chunk.indices { body(&chunk[index]) }
        }
    }

    /// `body` of each chunk's part of `elements` (`count` of them), concurrently: each chunk's
    /// thread changes only its own part. For a loop that should run in one piece per chunk, with
    /// no call per element.
    public func updateChunks<Element>(
        of elements: UnsafeMutableBufferPointer<Element>, _ body: @Sendable (UnsafeMutableBufferPointer<Element>) -> Void
    ) {
        precondition(elements.count == ranges.last?.upperBound ?? 0, "the chunks do not cover the elements")
        let base = UncheckedPointer(base: elements.baseAddress)
        _ = map { range in
            body(UnsafeMutableBufferPointer(start: base.base.map { $0 + range.lowerBound }, count: range.count))
        }
    }

    /// The start of the array `mapIndices` fills, or the elements `updateChunks` changes; each chunk
    /// writes only its own range of it.
    private struct UncheckedPointer<Element>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Element>?
    }

    /// One result per chunk, each written once by the thread that ran it.
    private final class Slots<Result>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Result?]
        private var done = 0

        init(count: Int) { values = Array(repeating: nil, count: count) }

        /// Stores a chunk's result and returns how many chunks are done.
        func set(_ value: Result, at chunk: Int) -> Int {
            lock.withLock {
                values[chunk] = value
                done += 1
                return done
            }
        }

        var results: [Result] { lock.withLock { values.map { $0! } } }
    }
}
