import Foundation

/// An advisory lock (`flock`) on a folder, held until `release()` or the end of the process, whichever
/// comes first: the kernel drops it when the process dies, killed or not.
///
/// Builds into the same `--out` use two of them (`SiteWriter`): one on the folder that holds the
/// output, held only while a build cleans up leftovers, makes its temporary folder or swaps its site
/// in; and one on each build's temporary folder (`.NAME.building-PID`) for the whole build, which
/// tells a live build's folder from one that a killed build left behind.
///
/// ```swift
/// if case .acquired(let lock) = FolderLock.attempt(on: folder, waiting: false) { defer { lock.release() } … }
/// ```
public final class FolderLock: @unchecked Sendable {
    /// What trying to lock a folder came to.
    public enum Attempt: Sendable {
        /// The lock is this process's until released.
        case acquired(FolderLock)
        /// Another open of the folder holds it: a build still running (only without `waiting`).
        case heldElsewhere
        /// The folder cannot be opened or this file system does not lock: nothing is known either way.
        case unavailable
    }

    private let lock = NSLock()
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// Gives the lock up; later calls do nothing.
    public func release() {
        lock.withLock {
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// Locks the folder at `path` exclusively. With `waiting`, blocks while another holds it;
    /// without, answers `heldElsewhere` at once.
    @Sendable public static func attempt(on path: String, waiting: Bool) -> Attempt {
        #if os(Windows)
            return .unavailable
        #else
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return .unavailable }
            while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
                let failure = errno
                if failure == EINTR { continue }
                close(descriptor)
                return failure == EWOULDBLOCK ? .heldElsewhere : .unavailable
            }
            return .acquired(FolderLock(descriptor: descriptor))
        #endif
    }

    /// The lock that `attempt` acquired, if it did.
    public static func acquired(_ attempt: Attempt) -> FolderLock? {
        if case .acquired(let lock) = attempt { return lock }
        return nil
    }
}
