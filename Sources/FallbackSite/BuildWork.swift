import Foundation

/// The site-wide work a build does while it makes pages: each pass over the whole snapshot (its
/// entries, its findings, its bytes) that a page's context asks for. A build that repeats such a
/// pass for each page grows with pages × placements; done once, it grows with the placements.
///
/// Counted only where a test asks (`BuildScalingTests`): `SiteModel.$workMeter.withValue(meter) { … }`.
/// Outside that, `SiteModel.workMeter` is nil and nothing is counted.
public final class BuildWorkMeter: @unchecked Sendable {
    /// A pass over the whole snapshot, or a lookup that may walk it.
    public enum Pass: String, Sendable, CaseIterable {
        /// Entry records looked at to find one placement's record by its key.
        case entryLookup
        /// Entries ordered for the overview (problems first).
        case overviewOrder
        /// Bytes of the snapshot hashed for the overview's SHA-256.
        case snapshotDigest
        /// Findings of the snapshot counted by severity.
        case findingCount
        /// Uses of a funnel looked at to decide whether a copy is one its page shows.
        case funnelUseLookup
        /// Paywall contents kept whole (as `JSONValue` trees) while the paywalls are collected, to
        /// tell versions apart: none since they are told apart by hash and compared when the hashes
        /// meet (`collectPaywalls`); one per distinct paywall before.
        case paywallContentKept
    }

    private let lock = NSLock()
    private var counts: [Pass: Int] = [:]

    public init() {}

    /// Records `amount` items of `pass`.
    func add(_ pass: Pass, _ amount: Int) {
        lock.lock()
        counts[pass, default: 0] += amount
        lock.unlock()
    }

    /// The items of `pass` recorded so far.
    public func count(_ pass: Pass) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[pass] ?? 0
    }
}

extension SiteModel {
    /// The meter that counts site-wide work on this task; nil (nothing counted) unless a test sets it.
    @TaskLocal public static var workMeter: BuildWorkMeter?

    /// Records `amount` items of `pass` when a meter is set.
    static func record(_ pass: BuildWorkMeter.Pass, _ amount: Int) {
        workMeter?.add(pass, amount)
    }
}
