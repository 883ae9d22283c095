import Foundation
import Testing
import RovenueFallback

/// `ParallelChunks.mapIndices` writes each result into its place from the thread that made it.
@Suite("Parallel results written in place")
struct ParallelInPlaceTests {
    final class Counted: Sendable {
        let value: Int
        let released: Released
        init(_ value: Int, _ released: Released) {
            self.value = value
            self.released = released
        }
        deinit { released.add() }
    }

    final class Released: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var total: Int { lock.withLock { count } }
    }

    /// Every result is made once, lands at its index, and is released exactly once with the array.
    @Test(arguments: [(0, 1), (1, 1), (100, 1), (100, 7), (1000, 64), (1001, 3)])
    func everyResultIsHeldOnceInOrder(count: Int, size: Int) {
        let released = Released()
        do {
            let results = ParallelChunks(count: count, size: size).mapIndices { index in
                (label: "item \(index) of a string long enough to live on the heap", object: Counted(index, released))
            }
            #expect(results.count == count)
            #expect(results.enumerated().allSatisfy { $0.element.object.value == $0.offset })
            #expect(results.enumerated().allSatisfy { $0.element.label.hasPrefix("item \($0.offset) ") })
            #expect(released.total == 0)
        }
        #expect(released.total == count)
    }
}
