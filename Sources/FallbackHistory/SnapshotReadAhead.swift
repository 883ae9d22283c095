import Dispatch
import Foundation

/// Reads a source's snapshots in a given order one ahead of their use: while the caller works on
/// one snapshot, the next is read on a thread of its own.
///
/// A git history's versions come out of `git cat-file --batch`, which inflates each blob from its
/// pack; read in turn, that time was spent between one snapshot's audit and the next one's parse,
/// with a core idle (a 200-commit history of a 1,000-placement file: 0.5 s of `git` per pass,
/// and `history` reads every version twice, once for its `generatedAt`). Read ahead, it runs while
/// the last snapshot is parsed and audited. At most two snapshots' bytes are held at once.
///
/// One thread reads every snapshot of a call, not a thread per snapshot. glibc hands each new
/// thread an allocator arena (a free one, or a new one up to its limit), and a thread started for
/// each read took whichever arena was free at that moment, often one the parallel parse and audit
/// had left in pieces, so each of a few arenas came to keep room for a snapshot's text besides
/// what the parse left there: a fold of 200 snapshots of a 1,000-placement file peaked at
/// 88-97 MiB, against 75-78 MiB with one reading thread (and 75-76 MiB reading on the caller's
/// thread, which gives up the overlap) for the same time.
enum SnapshotReadAhead {
    /// Calls `body` with each of `references`' bytes, in order, reading the next while `body` runs.
    ///
    /// Behaves as a loop that reads and then calls `body`: a read that fails throws when its turn
    /// comes, after `body` ran for every snapshot before it, and nothing after it is read. No read
    /// outlives the call: one under way when `body` throws is waited for, and the reading thread
    /// has exited (it is joined) when the call returns.
    static func forEach(
        _ references: [SnapshotReference], in source: any SnapshotSource, _ body: (_ index: Int, _ bytes: [UInt8]) throws -> Void
    ) throws {
        guard !references.isEmpty else { return }
        let reader = SnapshotReader(source: source)
        defer { reader.finish() }
        reader.request(references[0])
        for index in references.indices {
            let bytes = try reader.result()
            if index + 1 < references.count {
                reader.request(references[index + 1])
            }
            try body(index, bytes)
        }
    }
}

/// A thread that reads one snapshot at a time when asked. `requested` is written by the caller
/// before it signals `wanted`, and read by the thread after waiting for it; `read` is written by
/// the thread before it signals `delivered`, and read and cleared by the caller after waiting for
/// it. `isReading` is the caller's alone.
private final class SnapshotReader: @unchecked Sendable {
    private let source: any SnapshotSource
    /// Signalled when `requested` is set (or, with nil, when the thread is to end).
    private let wanted = DispatchSemaphore(value: 0)
    /// Signalled when `read` holds the result of the last request.
    private let delivered = DispatchSemaphore(value: 0)
    private var requested: SnapshotReference?
    private var read: Result<[UInt8], any Error>?
    /// True from a request until its result is taken.
    private var isReading = false
    /// The reading thread, joined by `finish()`; nil when it could not be started, and then each
    /// read runs on the caller's thread when requested.
    private var thread: pthread_t?

    init(source: any SnapshotSource) {
        self.source = source
        // A thread rather than a dispatch queue: the caller's parse and audit keep every worker of
        // the pool busy, and a read queued behind them would wait for their end. A POSIX thread
        // rather than Foundation's, so that `finish()` can wait for it to exit: the next pass's
        // thread then starts after this one has handed its allocator arena back.
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
            var handle: pthread_t?
            let started = pthread_create(&handle, nil, { SnapshotReader.serve($0) }, context)
        #else
            var handle = pthread_t()
            let started = pthread_create(&handle, nil, { SnapshotReader.serve($0!) }, context)
        #endif
        if started == 0 {
            thread = handle
        } else {
            Unmanaged<SnapshotReader>.fromOpaque(context).release()
        }
    }

    /// The thread's loop: reads each snapshot requested until told to end.
    private static func serve(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let reader = Unmanaged<SnapshotReader>.fromOpaque(context).takeRetainedValue()
        while true {
            reader.wanted.wait()
            guard let reference = reader.requested else { break }
            reader.read = Result { try reader.source.bytes(of: reference) }
            reader.delivered.signal()
        }
        return nil
    }

    /// Starts reading `reference`; the last result must have been taken.
    func request(_ reference: SnapshotReference) {
        precondition(!isReading, "a snapshot read was requested before the last one was taken")
        requested = reference
        isReading = true
        guard thread != nil else {
            read = Result { try source.bytes(of: reference) }
            delivered.signal()
            return
        }
        wanted.signal()
    }

    /// Waits for the requested read; returns its bytes or throws its error.
    func result() throws -> [UInt8] {
        precondition(isReading, "a snapshot read was taken without a request")
        delivered.wait()
        isReading = false
        defer { read = nil }
        return try read!.get()
    }

    /// Waits for a read under way, then tells the thread to end and waits for it to exit.
    func finish() {
        if isReading {
            delivered.wait()
            isReading = false
            read = nil
        }
        guard let thread else { return }
        requested = nil
        wanted.signal()
        pthread_join(thread, nil)
        self.thread = nil
    }
}
