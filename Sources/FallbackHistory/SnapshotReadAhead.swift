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
enum SnapshotReadAhead {
    /// Calls `body` with each of `references`' bytes, in order, reading the next while `body` runs.
    ///
    /// Behaves as a loop that reads and then calls `body`: a read that fails throws when its turn
    /// comes, after `body` ran for every snapshot before it, and nothing after it is read. No read
    /// outlives the call: one under way when `body` throws is waited for.
    static func forEach(
        _ references: [SnapshotReference], in source: any SnapshotSource, _ body: (_ index: Int, _ bytes: [UInt8]) throws -> Void
    ) throws {
        guard !references.isEmpty else { return }
        var pending = PendingRead(references[0], from: source)
        defer { pending.wait() }
        for index in references.indices {
            let bytes = try pending.bytes()
            if index + 1 < references.count {
                pending = PendingRead(references[index + 1], from: source)
            }
            try body(index, bytes)
        }
    }
}

/// One snapshot being read on a thread of its own. Its result is written once, before `finished`
/// is signalled, and read only after waiting on it.
private final class PendingRead: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var result: Result<[UInt8], any Error>?
    private var isFinished = false

    init(_ reference: SnapshotReference, from source: any SnapshotSource) {
        // A thread rather than a dispatch queue: the caller's parse and audit keep every worker of
        // the pool busy, and a read queued behind them would wait for their end.
        let thread = Thread { [self] in
            result = Result { try source.bytes(of: reference) }
            finished.signal()
        }
        thread.start()
    }

    /// Waits for the read to end (once; later calls return at once).
    func wait() {
        guard !isFinished else { return }
        finished.wait()
        isFinished = true
    }

    /// The bytes read, or the error the read threw.
    func bytes() throws -> [UInt8] {
        wait()
        let bytes = try result!.get()
        result = nil
        return bytes
    }
}
