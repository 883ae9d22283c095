// The issue's goals as values: a measured figure against its bound, judged when printed, never hard-coded.

/// One goal of the benchmark: a figure the run measured (or could not) against the bound it must meet.
struct Goal: Sendable, Equatable {
    /// How a figure is compared with the goal's limit.
    enum Bound: Sendable, Equatable {
        /// The figure must be at least the limit (a speed-up, a throughput).
        case atLeast(Double)
        /// The figure must be below the limit (a time, a memory peak, a growth ratio).
        case below(Double)
        /// The figure must be at most the limit ("within 1.2×").
        case atMost(Double)
    }

    /// How a figure and its limit are written.
    enum Unit: Sendable, Equatable {
        case times, megabytesPerSecond, seconds, megabytes, kilobytes, count

        func format(_ value: Double) -> String {
            switch self {
            case .times: return "\(decimal(value, places: 2))×"
            case .megabytesPerSecond: return "\(decimal(value, places: 0)) MB/s"
            case .seconds: return "\(decimal(value, places: 2)) s"
            case .megabytes: return "\(decimal(value, places: 0)) MB"
            case .kilobytes: return "\(decimal(value, places: 1)) kB"
            case .count: return decimal(value, places: 0)
            }
        }
    }

    /// What is measured, e.g. "whole-process check vs JSONDecoder".
    var name: String
    var bound: Bound
    var unit: Unit
    /// The measured figure; nil when this run did not measure it, infinity when the run failed.
    var figure: Double?
    /// Why the figure is missing, or how to measure it.
    var note = ""
    /// The same figure from CPU time (user and system) instead of wall time, for goals on whole
    /// processes: on a busy machine wall time stretches with the load, CPU time much less.
    var cpuFigure: Double?
    /// The same figure from user time alone: the steadiest, since system time swings with the
    /// state of the file system (see `FileSystemSettling`).
    var userFigure: Double?
    /// What the figure was computed from, measured in the same run: "352.0 ms vs JSONDecoder 472.0 ms".
    var anchor = ""

    /// True when the figure meets the bound; nil when there is no figure.
    var holds: Bool? { judge(figure) }

    /// True when `figure` meets the bound; nil when there is no figure.
    func judge(_ figure: Double?) -> Bool? {
        guard let figure, !figure.isNaN else { return nil }
        switch bound {
        case .atLeast(let limit): return figure >= limit
        case .below(let limit): return figure < limit
        case .atMost(let limit): return figure <= limit
        }
    }

    /// "holds", "misses", or "not measured".
    var verdict: String {
        switch holds {
        case true?: return "holds"
        case false?: return "misses"
        case nil: return "not measured"
        }
    }

    /// The bound as written in the issue: "≥ 3.00×", "< 400 MB".
    var boundText: String {
        switch bound {
        case .atLeast(let limit): return "≥ \(unit.format(limit))"
        case .below(let limit): return "< \(unit.format(limit))"
        case .atMost(let limit): return "≤ \(unit.format(limit))"
        }
    }

    /// One line of the summary: the goal, its bound, the figure and the verdict.
    var summaryLine: String {
        let figureText = figure.map(unit.format) ?? "—"
        let name = self.name.padded(to: 58)
        let bound = boundText.padded(to: 12)
        var notes = note.isEmpty ? [] : [note]
        let alternatives = [("user time", userFigure), ("CPU time", cpuFigure)].compactMap { label, figure in
            figure.map { "by \(label) \(unit.format($0)): \(judge($0) == true ? "holds" : "misses")" }
        }
        notes.insert(contentsOf: alternatives, at: 0)
        if !anchor.isEmpty { notes.insert(anchor, at: 0) }
        let line = "\(name) \(bound) \(figureText.padded(to: 12)) \(verdict)"
        return notes.isEmpty ? line : "\(line) (\(notes.joined(separator: "; ")))"
    }
}

/// How a measurement grew from N to 10N.
enum Growth: String, Sendable, Equatable {
    /// Under 12× the time for 10× the input.
    case linear
    /// 12× to 50×: more than linear, less than quadratic (n log n at these sizes is about 13×).
    case superlinear = "worse than linear"
    /// 50× or more: the shape of quadratic work (100× for 10× the input).
    case quadratic = "quadratic"
    /// The N run took too little time above the process's start-up to judge.
    case tooSmall = "too small to judge"

    /// Judges `ratio` (the time at 10N over the time at N, start-up taken off both).
    /// `small` is the time at N above start-up; below `minimumSeconds` the ratio is noise.
    init(ratio: Double, small: Double, minimumSeconds: Double = 0.04) {
        if !(small >= minimumSeconds) || !ratio.isFinite {
            self = .tooSmall
        } else if ratio < 12 {
            self = .linear
        } else if ratio < 50 {
            self = .superlinear
        } else {
            self = .quadratic
        }
    }
}

/// A ratio of two times that stays finite: `numerator / denominator`, with a zero denominator giving infinity.
func ratio(_ numerator: Double, _ denominator: Double) -> Double {
    denominator > 0 ? numerator / denominator : .infinity
}

/// `value` with exactly `places` decimals and thousands separators, the same on every platform.
func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-∞" : "∞") }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    var digits = String(whole)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    grouped = digits + grouped
    let sign = value < 0 && scaled > 0 ? "-" : ""
    guard places > 0 else { return sign + grouped }
    let fractionText = String(fraction)
    return sign + grouped + "." + String(repeating: "0", count: places - fractionText.count) + fractionText
}

/// Megabytes (10^6 bytes) of `bytes`.
func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_000_000 }

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
