import Dispatch
import Foundation

/// Work started on another thread whose result the caller collects later: a site build makes its
/// search index while the pages render, renders the next batch of pages for a sink that takes them
/// one at a time while it hands over the one before (`SiteBuilder.write(to:batchSize:progress:)`),
/// hashes a snapshot while it parses and audits it (`SiteBuild.snapshot(_:audit:)`), reads the
/// theme meanwhile (`SiteBuild.run`), and makes parts of the model on two cores (`SiteModel.init`).
///
/// The work is handed a `isCancelled` question; `cancel()` makes it answer true, so work that is
/// no longer wanted (the build failed) stops at its next check. `wait()` blocks until the work has
/// returned and gives its result, as often as asked; a caller waits at least once, also after
/// cancelling or failing, so no work outlives the call that started it.
final class RenderAhead<Result: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result?
    private var cancelled = false

    /// Starts `work` on a background thread at once.
    init(_ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Result) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let value = work { [self] in lock.withLock { cancelled } }
            lock.withLock { result = value }
            finished.signal()
        }
    }

    /// Asks the work to stop at its next check.
    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// The work's result, once it has returned.
    func wait() -> Result {
        finished.wait()
        // Signalled again for the next wait: the result is set once and for all.
        finished.signal()
        return lock.withLock { result! }
    }
}
