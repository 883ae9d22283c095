import FallbackAudit
import FallbackHistory
import FallbackReports
import Foundation

/// `fallback-site history`: a series of snapshots as a timeline, and the history checks, for CI.
enum HistoryCommand: Command {
    static let signature = CommandSignature(
        name: "history",
        abstract: "Fold a series of snapshots into a timeline and run the history checks.",
        discussion: """
            Reads one or more snapshots, a folder of them, or --git-history PATH (every committed version of a file), \
            orders them by generatedAt, then by the order given (or commit order), and folds them one at a time. \
            Prints each snapshot with what changed, then the history findings (revision-regressed, project-changed, \
            snapshot-stale, content-changed-same-revision, snapshot-tie, snapshot-back-in-time); a snapshot the SDK \
            rejects is a file-rejected error. --git-history reads the path as a literal file name. Exits 0 when no \
            finding reaches --fail-on (else the configuration's failOn, else error), 1 when one does or a snapshot \
            is rejected, 2 for usage errors, unreadable snapshots and a bad configuration file. snapshot-stale and generated-at-future take \
            --now, else SOURCE_DATE_EPOCH, else the clock as now.
            """,
        positionals: [.init(name: "snapshot", arity: .zeroOrMore, help: "Snapshots, or one folder of them.", completion: .file)],
        options: [gitHistory.declaration] + ReportOptions<FailureThreshold>.options + [staleAfter.declaration, now.declaration],
        flags: ReportOptions<FailureThreshold>.flags,
        examples: [
            .init("The timeline of the releases in a folder:", "history Examples"),
            .init(
                "Two releases as JSON, the newest stale after 30 days (--git-history PATH reads a file's commits instead):",
                "history Examples/2026-06-23-release-3.3.json Examples/2026-07-21-release-3.4.json --stale-after 30 --format json"),
        ])

    static let gitHistory = TypedOption<String>(
        name: "git-history", valueName: "path", help: "Every version of a snapshot committed on HEAD's first-parent line (a merge is one).", completion: .file)
    static let staleAfter = TypedOption<DayCount>(
        name: "stale-after", valueName: "days", help: "How old the newest snapshot may be.",
        defaultDescription: "the configuration's `staleAfterDays`, else \(DayCount.defaultStaleAfter)")
    static let now = SourceDateEpoch.option(default: "SOURCE_DATE_EPOCH, else the clock")

    struct Options: Sendable {
        var snapshots: [String]
        var gitHistory: String?
        var source: any SnapshotSource
        /// `--stale-after`; nil leaves it to the configuration.
        var staleAfter: DayCount?
        /// `--now`; nil leaves it to `SOURCE_DATE_EPOCH`, else the clock.
        var now: SourceDateEpoch?
        var report: ReportOptions<FailureThreshold>
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let gitHistory = arguments.value(gitHistory)
        // One file is a timeline of one: the checks that need a pair have nothing to say, the
        // others (snapshot-stale, file-rejected) still apply.
        let paths = arguments.positionals
        guard let source = SnapshotSeries.source(paths: paths, gitHistory: gitHistory) ?? (paths.count == 1 ? SnapshotFiles(paths: paths) : nil)
        else {
            throw UsageError(message: "Give one or more snapshots, a folder of them, or --git-history <path>")
        }
        return Options(
            snapshots: arguments.positionals, gitHistory: gitHistory, source: source, staleAfter: arguments.value(staleAfter),
            now: arguments.value(now), report: ReportOptions(arguments))
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        var environment = environment
        let progress = ProgressLine.attach(to: &environment, quiet: false)
        guard let configuration = options.report.configuration.load(in: environment) else { return ExitStatus.usage }
        let staleAfterDays = options.staleAfter?.days ?? configuration.staleAfterDays ?? DayCount.defaultStaleAfter
        let failOn = options.report.threshold(in: configuration)
        guard let now = SourceDateEpoch.now(given: options.now, in: environment, clock: environment.now()) else { return ExitStatus.usage }
        let timeline: Timeline
        do {
            let snapshots = options.gitHistory == nil ? "snapshots" : "commits"
            // One pass while the snapshots come in time order; after one out of order, the rest
            // are read for their times, then all are checked again in timeline order.
            timeline = try SnapshotSeries.timeline(
                of: options.source,
                HistoryOptions(now: now, staleAfterDays: staleAfterDays, audit: Audit(now: now, configuration: configuration.audit))
            ) { step in
                switch step {
                case .scanned(let done, let total): progress.update("Reading \(snapshots)", done, of: total)
                case .folded(let record, let done, let total): progress.update("Checking \(snapshots)", done, of: total, item: record.stamp.name)
                }
            }
            progress.clear()
        } catch {
            progress.clear()
            // A snapshot that cannot be read is a file-unreadable error in the report, as check
            // reports it; json and text name it there, the other formats also on standard error.
            if case .unreadable(let path, let reason) = error as? HistoryError {
                let report = UnreadableHistoryReport(
                    path: path, reason: reason, failOn: failOn, tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version))
                options.report.write(report, configuration: configuration, in: environment)
                if options.report.format != .json, options.report.format != .text { environment.writeError("error: \(error)\n") }
                _ = options.report.appendSummary(of: report, in: environment)
                return ExitStatus.usage
            }
            environment.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        let report = HistoryReport(
            timeline: timeline, failOn: failOn, tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version))
        options.report.write(report, configuration: configuration, in: environment)
        if !options.report.appendSummary(of: report, in: environment) { return ExitStatus.usage }
        return report.fails ? ExitStatus.failure : ExitStatus.success
    }
}

/// A whole number of days, at least 1 (`--stale-after`).
struct DayCount: ArgumentValue {
    /// The days a snapshot may age when neither `--stale-after` nor the configuration says: the
    /// history checks' own default.
    static var defaultStaleAfter: Int { HistoryOptions().staleAfterDays }

    let days: Int

    init?(argument: String) {
        guard let days = Int(argument), days >= 1 else { return nil }
        self.days = days
    }

    static let expectation = "expected a whole number of days, at least 1"
    var argumentText: String { String(days) }
}
