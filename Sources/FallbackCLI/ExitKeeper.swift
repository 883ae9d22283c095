import Foundation

/// Holds what a command has finished with until the process exits, so the exit, not the command,
/// discards it.
///
/// A loaded 50 MB snapshot is millions of small allocations: freeing them one by one costs `check`
/// about a tenth of a second after the report is written, and the process's exit returns the same
/// memory at once. The real process (`CommandEnvironment.live`) keeps; an environment made for a
/// test does not (`ExitKeeper.none`), so a test that runs many commands frees each as it ends.
///
/// A command lets go of what it kept (`releaseAll()`) before it reads the next large input, so
/// memory holds one input at a time, as it would without the keeper. Keeping never delays output:
/// everything is written before `run` returns, and `exit` ends the process after it.
public final class ExitKeeper: @unchecked Sendable {
    private let lock = NSLock()
    private let keeps: Bool
    private var kept: [any Sendable] = []

    /// A keeper that keeps what it is given (`keeps`) or lets it go at once.
    public init(keeps: Bool) {
        self.keeps = keeps
    }

    /// Lets every value go as soon as the command drops it: for tests and long-lived callers.
    public static var none: ExitKeeper { ExitKeeper(keeps: false) }

    /// The real process's keeper: what it keeps is discarded by the process's exit.
    static let process = ExitKeeper(keeps: true)

    /// Keeps `value` (when this keeper keeps) until `releaseAll()` or the process's exit.
    public func keep(_ value: any Sendable) {
        guard keeps else { return }
        lock.withLock { kept.append(value) }
    }

    /// Lets go of everything kept, now: what nothing else holds is freed here.
    public func releaseAll() {
        let released = lock.withLock {
            let values = kept
            kept = []
            return values
        }
        _ = released
    }

    /// How many values are kept.
    public var count: Int { lock.withLock { kept.count } }

    /// The values kept, in the order given.
    var values: [any Sendable] { lock.withLock { kept } }
}
