// The runs of one row: the best and the median of each figure, and how a whole-process row is printed.
import Foundation

/// The middle of `values` once sorted (the mean of the two middle ones for an even count); nan when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Every run of one whole-process row. Each figure is taken over the runs on its own: the best
/// (lowest) wall, user and system times, their medians, and the highest peak.
struct ChildRuns: Sendable {
    /// The runs in the order they ran; never empty.
    let runs: [ChildRun]

    init(_ runs: [ChildRun]) {
        precondition(!runs.isEmpty, "a row has at least one run")
        self.runs = runs
    }

    /// The lowest of each time and the highest peak, as one run (its times may come from different runs).
    var best: ChildRun {
        ChildRun(
            seconds: runs.map(\.seconds).min()!, userSeconds: runs.map(\.userSeconds).min()!,
            systemSeconds: runs.map(\.systemSeconds).min()!, peakBytes: runs.map(\.peakBytes).max()!, exitStatus: 0)
    }

    /// The median of each time, with the highest peak.
    var median: ChildRun {
        ChildRun(
            seconds: fallback_bench.median(runs.map(\.seconds)), userSeconds: fallback_bench.median(runs.map(\.userSeconds)),
            systemSeconds: fallback_bench.median(runs.map(\.systemSeconds)), peakBytes: runs.map(\.peakBytes).max()!, exitStatus: 0)
    }

    /// "best 1.350 s wall, 2.200 user, 0.200 sys; median 1.700 s wall, 2.250 user, 0.900 sys; peak 65 MB",
    /// without the median for a single run.
    var summary: String {
        func times(_ run: ChildRun) -> String {
            "\(decimal(run.seconds, places: 3)) s wall, \(decimal(run.userSeconds, places: 3)) user, \(decimal(run.systemSeconds, places: 3)) sys"
        }
        let peak = "peak \(decimal(megabytes(best.peakBytes), places: 0)) MB"
        guard runs.count > 1 else { return "\(times(best)); \(peak)" }
        return "best \(times(best)); median \(times(median)); \(peak)"
    }
}

extension ChildRun {
    /// The mean wall, user and system time of `runs` (run one after another, as one run of their
    /// average length) and their highest peak.
    init(meanOf runs: [ChildRun]) {
        precondition(!runs.isEmpty, "a mean of at least one run")
        let count = Double(runs.count)
        self.init(
            seconds: runs.reduce(0) { $0 + $1.seconds } / count, userSeconds: runs.reduce(0) { $0 + $1.userSeconds } / count,
            systemSeconds: runs.reduce(0) { $0 + $1.systemSeconds } / count, peakBytes: runs.map(\.peakBytes).max()!, exitStatus: 0)
    }
}

/// How `ours` compares with `anchor` by wall time and by user time, best against best and median
/// against median (and by CPU time, user and system, best against best).
struct RunComparison: Sendable {
    var wall: Double
    var user: Double
    var medianWall: Double
    var medianUser: Double
    /// By CPU time (user and system), best against best.
    var cpu: Double
    /// For runs made in alternated rounds (`measureAlternated`): the median, over the rounds, of
    /// the wall-time ratio within each round; nil otherwise.
    var roundMedianWall: Double?

    /// `ours` over `anchor` (a growth in time); with `speed`, `anchor` over `ours` (how many times
    /// faster ours is). `alternated`: run `i` of each was made in the same round.
    init(_ ours: ChildRuns, _ anchor: ChildRuns, speed: Bool = false, alternated: Bool = false) {
        func of(_ a: Double, _ b: Double) -> Double { speed ? ratio(b, a) : ratio(a, b) }
        let (oursBest, anchorBest, oursMedian, anchorMedian) = (ours.best, anchor.best, ours.median, anchor.median)
        wall = of(oursBest.seconds, anchorBest.seconds)
        user = of(oursBest.userSeconds, anchorBest.userSeconds)
        medianWall = of(oursMedian.seconds, anchorMedian.seconds)
        medianUser = of(oursMedian.userSeconds, anchorMedian.userSeconds)
        cpu = of(oursBest.userSeconds + oursBest.systemSeconds, anchorBest.userSeconds + anchorBest.systemSeconds)
        if alternated, ours.runs.count == anchor.runs.count {
            roundMedianWall = fallback_bench.median(zip(ours.runs, anchor.runs).map { of($0.seconds, $1.seconds) })
        }
    }

    /// "7.90× by wall time, 9.20× by user time (medians 8.10×, 9.30×; by CPU time 12.40×)", and for
    /// alternated runs "; round by round, median 8.00×" before the parenthesis closes.
    var summary: String {
        func times(_ value: Double) -> String { "\(decimal(value, places: 2))×" }
        let rounds = roundMedianWall.map { "; round by round, median \(times($0))" } ?? ""
        return "\(times(wall)) by wall time, \(times(user)) by user time (medians \(times(medianWall)), \(times(medianUser)); "
            + "by CPU time \(times(cpu))\(rounds))"
    }
}

/// Seconds as "1.35 s" (times of whole processes, in a goal's anchor).
func secondsText(_ seconds: Double) -> String { "\(decimal(seconds, places: 2)) s" }

/// Seconds as "60.5 ms" (times in one process, in a goal's anchor).
func millisecondsText(_ seconds: Double) -> String { "\(decimal(seconds * 1000, places: 1)) ms" }
