import Foundation
import RovenueFallback
import Testing

@Suite("ParallelChunks: one fan-out, results in order")
struct ParallelChunksTests {
    @Test(arguments: [0, 1, 7, 64, 1_000], [1, 2, 3, 8, 5_000])
    func chunksCoverEveryIndexOnceInOrder(count: Int, chunks: Int) {
        let split = ParallelChunks(count: count, chunks: chunks)
        #expect(split.ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(!split.ranges.contains { $0.isEmpty })
        #expect(split.ranges.count == (count == 0 ? 0 : min(chunks, count)))
    }

    @Test(arguments: [0, 1, 63, 64, 65, 1_000])
    func fixedSizeChunks(count: Int) {
        let split = ParallelChunks(count: count, size: 64)
        #expect(split.ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(split.ranges.dropLast().allSatisfy { $0.count == 64 })
        #expect(split.ranges.count == (count + 63) / 64)
    }

    /// The same results, in the same order, however the work is split.
    @Test(arguments: [1, 2, 5, 16, 1_000])
    func resultsDoNotDependOnChunking(chunks: Int) {
        let values = (0..<1_000).map { ($0 * 7_919) % 1_009 }
        let expected = values.map { $0 * $0 }
        #expect(ParallelChunks(count: values.count, chunks: chunks).mapIndices { values[$0] * values[$0] } == expected)
        let sums = ParallelChunks(count: values.count, chunks: chunks).map { range in range.reduce(0) { $0 + values[$1] } }
        #expect(sums.reduce(0, +) == values.reduce(0, +))
        #expect(sums.count == min(chunks, values.count))
    }

    /// Every element is changed once, in place, however the work is split.
    @Test(arguments: [0, 1, 63, 64, 65, 1_000])
    func updateEachChangesEveryElementOnceInPlace(count: Int) {
        var values = (0..<count).map { "value \($0), long enough to live on the heap" }
        let before = values.withUnsafeBufferPointer { $0.baseAddress }
        values.withUnsafeMutableBufferPointer { buffer in
            ParallelChunks(count: buffer.count, size: 64).updateEach(of: buffer) { $0 += "!" }
        }
        #expect(values == (0..<count).map { "value \($0), long enough to live on the heap!" })
        #expect(values.withUnsafeBufferPointer { $0.baseAddress } == before)
    }

    /// Each chunk is handed exactly its own part of the elements, once, however they are split.
    @Test(arguments: [0, 1, 63, 64, 65, 1_000])
    func updateChunksHandsEachChunkItsOwnPart(count: Int) {
        var values = [Int](repeating: -1, count: count)
        let split = ParallelChunks(count: count, size: 64)
        values.withUnsafeMutableBufferPointer { buffer in
            let start = UInt(bitPattern: buffer.baseAddress)
            split.updateChunks(of: buffer) { chunk in
                let offset = Int(UInt(bitPattern: chunk.baseAddress) - start) / MemoryLayout<Int>.stride
                for index in chunk.indices { chunk[index] = chunk[index] == -1 ? offset * 10_000 + chunk.count : -2 }
            }
        }
        #expect(values == split.ranges.flatMap { range in range.map { _ in range.lowerBound * 10_000 + range.count } })
    }

    @Test func progressCountsEveryChunkOnce() {
        final class Calls: @unchecked Sendable {
            let lock = NSLock()
            var done: [Int] = []
            var totals: Set<Int> = []
        }
        let calls = Calls()
        let split = ParallelChunks(count: 50, size: 1)
        _ = split.map(progress: { done, total in
            calls.lock.withLock {
                calls.done.append(done)
                calls.totals.insert(total)
            }
        }) { $0.lowerBound }
        #expect(calls.done.sorted() == Array(1...50))
        #expect(calls.totals == [50])
    }

    @Test func forCoresNeverMakesChunksSmallerThanTheMinimum() {
        #expect(ParallelChunks.forCores(count: 31, minimumSize: 32).ranges.count == 1)
        #expect(ParallelChunks.forCores(count: 0).ranges.isEmpty)
        let split = ParallelChunks.forCores(count: 10_000, perCore: 4, minimumSize: 32)
        #expect(split.ranges.allSatisfy { $0.count >= 32 })
        #expect(split.ranges.count <= ProcessInfo.processInfo.activeProcessorCount * 4)
    }
}
