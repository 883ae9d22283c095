import Foundation
@testable import RovenueFallback
import Testing

#if os(Linux)
    import Glibc
#endif

/// What `MemoryPages` does to the process's memory.
@Suite struct MemoryPagesTests {
    #if os(Linux) && canImport(Glibc)
        /// Page faults this thread has taken so far.
        static func faultsOfThisThread() -> Int {
            var usage = rusage()
            // RUSAGE_THREAD (1), which the Glibc module does not import: other tests run beside this one.
            _ = getrusage(__rusage_who_t(1), &usage)
            return usage.ru_minflt
        }

        /// Allocates `byteCount` bytes, writes one byte per page, frees them; returns the page faults
        /// that took.
        static func faultsTouching(_ byteCount: Int) -> Int {
            let before = faultsOfThisThread()
            guard let block = malloc(byteCount) else { return -1 }
            let bytes = block.bindMemory(to: UInt8.self, capacity: byteCount)
            for offset in stride(from: 0, to: byteCount, by: 4096) { bytes[offset] = 1 }
            free(block)
            return faultsOfThisThread() - before
        }

        /// After `keepFreedMemoryWarm()`, a block larger than glibc's largest threshold for mapping a
        /// block on its own (32 MiB) is given the pages of the one freed before it, already faulted in:
        /// a parse after a parse does not fault its node block in again. (A test's thread allocates
        /// from an arena of at most 64 MiB, hence 48 MiB here; the main thread, where the executables
        /// parse, from the heap, which has no such bound.)
        @Test func aFreedLargeBlockIsReusedWithoutFaultingAgain() {
            MemoryPages.keepFreedMemoryWarm()
            let byteCount = 48 << 20
            let pages = byteCount / 4096
            let first = MemoryPagesTests.faultsTouching(byteCount)
            let second = MemoryPagesTests.faultsTouching(byteCount)
            #expect(first >= 0 && second >= 0)
            #expect(second < pages / 8, "the second block faulted \(second) of its \(pages) pages (the first \(first))")
        }
    #endif
}
