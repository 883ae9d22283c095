import Dispatch
import Foundation
import Testing

@testable import FallbackHistory

/// `SnapshotReadAhead` reads the next snapshot while the last is used, and otherwise behaves as
/// the loop it replaced: the same bytes in the same order, a failed read thrown at its turn, and
/// no read left running when it returns.
@Suite("Reading snapshots one ahead")
struct SnapshotReadAheadTests {
    struct ReadFailed: Error, Equatable {
        let index: Int
    }

    /// A source of `count` snapshots whose bytes are their index, recording each read as it starts
    /// and ends; the read of `failing` throws, and the read of `slow` takes a while.
    final class RecordingSource: SnapshotSource, @unchecked Sendable {
        let count: Int
        let failing: Int?
        let slow: Int?
        private let lock = NSLock()
        private var startedReads: [Int] = []
        private var endedReads: [Int] = []
        /// The thread of each read, held so that no two of them can share an address.
        private var readingThreads: [Thread] = []
        /// Signalled as each read starts.
        let readStarted = DispatchSemaphore(value: 0)

        /// Told of each thread that reads.
        let watch: ExitWatch?

        init(count: Int, failing: Int? = nil, slow: Int? = nil, watch: ExitWatch? = nil) {
            self.count = count
            self.failing = failing
            self.slow = slow
            self.watch = watch
        }

        var started: [Int] { lock.withLock { startedReads } }
        var ended: [Int] { lock.withLock { endedReads } }
        var threads: [Thread] { lock.withLock { readingThreads } }

        var listed: [SnapshotReference] { (0..<count).map { SnapshotReference(name: "s\($0)", location: "\($0)") } }

        func references() throws -> [SnapshotReference] { listed }

        func bytes(of reference: SnapshotReference) throws -> [UInt8] {
            let index = Int(reference.location)!
            watch?.watchThisThread()
            lock.withLock {
                startedReads.append(index)
                readingThreads.append(Thread.current)
            }
            readStarted.signal()
            defer { lock.withLock { endedReads.append(index) } }
            if index == slow { Thread.sleep(forTimeInterval: 0.2) }
            if index == failing { throw ReadFailed(index: index) }
            return Array(reference.location.utf8)
        }
    }

    @Test(arguments: [0, 1, 2, 7])
    func everySnapshotComesInOrderWithItsBytes(count: Int) throws {
        let source = RecordingSource(count: count)
        var seen: [(Int, String)] = []
        try SnapshotReadAhead.forEach(source.listed, in: source) { index, bytes in
            seen.append((index, String(decoding: bytes, as: UTF8.self)))
        }
        #expect(seen.map(\.0) == Array(0..<count))
        #expect(seen.map(\.1) == (0..<count).map(String.init))
        #expect(source.started == Array(0..<count))
        #expect(Set(source.ended) == Set(0..<count))
    }

    /// A thread per read took whichever allocator arena was free at the time, and each of several
    /// arenas came to keep room for a snapshot's text: one thread reads them all.
    @Test func oneThreadReadsEverySnapshotAndItIsNotTheCallers() throws {
        let source = RecordingSource(count: 6)
        try SnapshotReadAhead.forEach(source.listed, in: source) { _, _ in }
        let threads = source.threads
        #expect(threads.count == 6)
        #expect(Set(threads.map(ObjectIdentifier.init)).count == 1)
        #expect(threads.allSatisfy { $0 !== Thread.current })
    }

    /// Set when the thread that read a snapshot exits: a thread-specific value's destructor runs
    /// as its thread ends, before a join of that thread returns.
    final class ExitWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var exitedThreads = 0
        var exited: Int { lock.withLock { exitedThreads } }
        func threadExited() { lock.withLock { exitedThreads += 1 } }

        static let key: pthread_key_t = {
            var key = pthread_key_t()
            #if canImport(Darwin)
                let made = pthread_key_create(&key) { Unmanaged<ExitWatch>.fromOpaque($0).takeRetainedValue().threadExited() }
            #else
                let made = pthread_key_create(&key) { Unmanaged<ExitWatch>.fromOpaque($0!).takeRetainedValue().threadExited() }
            #endif
            precondition(made == 0, "a thread-specific key")
            return key
        }()

        /// Watches the calling thread, once.
        func watchThisThread() {
            guard pthread_getspecific(Self.key) == nil else { return }
            pthread_setspecific(Self.key, Unmanaged.passRetained(self).toOpaque())
        }
    }

    /// No reading thread is left when the call returns, or throws: it has exited, not only been
    /// told to.
    @Test(arguments: [nil, 2] as [Int?])
    func theReadingThreadHasExitedWhenTheCallReturns(throwingAt stop: Int?) {
        struct Stop: Error {}
        let watch = ExitWatch()
        // Twenty calls: a thread told to end but not waited for is often still running at return.
        for call in 1...20 {
            let source = RecordingSource(count: 4, watch: watch)
            _ = try? SnapshotReadAhead.forEach(source.listed, in: source) { index, _ in
                if index == stop { throw Stop() }
            }
            // Each call's reading thread is watched from its first read, and counted as it exits.
            #expect(watch.exited == call)
        }
    }

    @Test func theNextSnapshotIsReadWhileTheLastIsUsed() throws {
        let source = RecordingSource(count: 3)
        var overlapped: [Bool] = []
        try SnapshotReadAhead.forEach(source.listed, in: source) { index, _ in
            // The read of this snapshot started; the next one's starts without this body returning.
            _ = source.readStarted.wait(timeout: .now() + 10)
            if index + 1 < 3 {
                overlapped.append(source.readStarted.wait(timeout: .now() + 10) == .success)
                source.readStarted.signal()
            }
        }
        #expect(overlapped == [true, true])
    }

    @Test(arguments: [0, 1, 4])
    func aFailedReadThrowsAtItsTurnAndNothingAfterItIsRead(failing: Int) {
        let source = RecordingSource(count: 6, failing: failing)
        var used: [Int] = []
        #expect(throws: ReadFailed(index: failing)) {
            try SnapshotReadAhead.forEach(source.listed, in: source) { index, _ in used.append(index) }
        }
        #expect(used == Array(0..<failing))
        #expect(source.started == Array(0...failing))
        #expect(Set(source.ended) == Set(source.started))
    }

    @Test func aBodyThatThrowsWaitsForTheReadUnderWay() {
        struct Stop: Error {}
        // Snapshot 2 is read slowly while the body of snapshot 1 throws.
        let source = RecordingSource(count: 5, slow: 2)
        #expect(throws: Stop.self) {
            try SnapshotReadAhead.forEach(source.listed, in: source) { index, _ in
                if index == 1 { throw Stop() }
            }
        }
        #expect(source.started == [0, 1, 2])
        #expect(Set(source.ended) == [0, 1, 2])
    }
}
