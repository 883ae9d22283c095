import FallbackAudit
import Foundation
import RovenueFallback

/// `fallback-site history`: a series of snapshots as a timeline, and the history checks, for CI.
enum HistoryCommand: Command {
    static let signature = CommandSignature(
        name: "history",
        abstract: "Fold a series of snapshots into a timeline and run the history checks.",
        discussion: """
            Reads several snapshots, a folder of them, or --git-history PATH (every committed version of a file), \
            orders them by generatedAt, then by the order given (or commit order), and folds them one at a time. \
            Prints each snapshot with what changed, then the history findings (revision-regressed, project-changed, \
            snapshot-stale, content-changed-same-revision, snapshot-tie, snapshot-back-in-time); a snapshot the SDK \
            rejects is a file-rejected error. --git-history reads the path as a literal file name. Exits 0 when no \
            finding reaches --fail-on (default error), 1 when one does or a snapshot is rejected, 2 for usage errors \
            and unreadable snapshots.
            """,
        positionals: [.init(name: "snapshot", arity: .zeroOrMore, help: "Snapshots, or one folder of them.")],
        options: [
            .init(name: "git-history", valueName: "path", help: "Every committed version of a snapshot in a git repository."),
            .init(
                name: "format", valueName: "format", help: "Output format.",
                choices: ["text", "json", "markdown", "github", "junit", "sarif"], defaultValue: "text"),
            .init(
                name: "fail-on", valueName: "severity", help: "The lowest severity that fails the run (default: the configuration's, else error).",
                choices: FailureThreshold.allCases.map(\.rawValue)),
            .init(name: "stale-after", valueName: "days", help: "How old the newest snapshot may be (default: the configuration's, else 90)."),
            .init(name: "config", valueName: "file", help: "Configuration file (default: \(Configuration.fileName) when present)."),
        ],
        flags: [.init(name: "summary", help: "Also append the markdown report to $GITHUB_STEP_SUMMARY.")])

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        let usage = signature.usage(tool: CommandLineTool.name)
        let helpName = "\(CommandLineTool.name) history"
        guard
            let source = seriesSource(paths: arguments.positionals, gitHistory: arguments.value("git-history", in: signature))
        else {
            return CommandLineTool.usageError(
                "Give several snapshots, a folder of them, or --git-history <path>", usage: usage, helpName: helpName, environment)
        }
        guard let configuration = CheckCommand.loadConfiguration(arguments, in: environment) else { return ExitStatus.usage }
        var staleAfterDays = configuration.staleAfterDays ?? 90
        if let text = arguments.value("stale-after", in: signature) {
            guard let days = Int(text), days >= 1 else {
                return CommandLineTool.usageError(
                    "The value '\(text)' is invalid for '--stale-after <days>': expected a whole number of days, at least 1", usage: usage,
                    helpName: helpName, environment)
            }
            staleAfterDays = days
        }
        let failOn = arguments.value("fail-on", in: signature).flatMap(FailureThreshold.init(rawValue:)) ?? configuration.failOn ?? .error
        let now = environment.now()
        let timeline: Timeline
        do {
            timeline = try SnapshotSeries(source).timeline(
                HistoryOptions(now: now, staleAfterDays: staleAfterDays, audit: Audit(now: now, configuration: configuration.audit)))
        } catch {
            environment.writeError("error: \(error)\n")
            return ExitStatus.usage
        }

        // Annotations must name the file in the repository: a folder's snapshots by their path, and
        // every committed version by the file it was committed as.
        let gitPath = arguments.value("git-history", in: signature)
        let folder = arguments.positionals.count == 1 && gitPath == nil ? arguments.positionals[0] : nil
        let report = CheckReport(
            history: timeline, failOn: failOn, tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version),
            path: { stamp in gitPath ?? folder.map { ($0 as NSString).appendingPathComponent(stamp.name) } ?? stamp.name })
        let markdown = MarkdownReport.render(report)
        switch arguments.value("format", in: signature) {
        case "json": environment.writeOutput(json(timeline, failOn: failOn, fails: report.fails).jsonText([.prettyPrinted]) + "\n")
        case "markdown": environment.writeOutput(markdown)
        case "github": environment.writeOutput(GitHubAnnotations.render(report))
        case "junit": environment.writeOutput(JUnitReport.render(report))
        case "sarif": environment.writeOutput(SARIFReport.render(report))
        default: environment.writeOutput(text(timeline))
        }
        if arguments.has("summary"), !CheckCommand.appendSummary(markdown, in: environment) { return ExitStatus.usage }
        return report.fails ? ExitStatus.failure : ExitStatus.success
    }

    static func date(_ stamp: SnapshotStamp) -> String {
        stamp.generatedAt.map(EpochMilliseconds.isoDate) ?? "no generatedAt"
    }

    static func text(_ timeline: Timeline) -> String {
        var output = ""
        for record in timeline.snapshots {
            let commit = record.stamp.commit.map { " \($0.shortHash) \(VisibleText.forTerminal($0.subject))" } ?? ""
            output += "\(VisibleText.forTerminal(record.stamp.name)) (\(date(record.stamp))\(commit)): \(record.countsSummary)\n"
            output += "    \(VisibleText.forTerminal(record.changes.summary))\n"
        }
        for item in timeline.findings {
            output += "\(VisibleText.forTerminal(item.snapshot.name)):\(CheckCommand.findingLine(item.finding))\n"
        }
        output += "\(timeline.snapshots.count) snapshots; \(SeverityCounts(timeline.findings.map(\.finding)))\n"
        return output
    }

    static func json(_ timeline: Timeline, failOn: FailureThreshold, fails: Bool) -> JSONValue {
        func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        func counts(_ counts: SeverityCounts) -> JSONValue {
            .object([.init("errors", integer(counts.errors)), .init("warnings", integer(counts.warnings)), .init("infos", integer(counts.infos))])
        }
        func stamp(_ stamp: SnapshotStamp) -> JSONValue {
            .object([
                .init("name", .string(stamp.name)),
                .init("generatedAt", stamp.generatedAt.map { .number(JSONNumber(text: String($0))) } ?? nil),
                .init("commit", stamp.commit.map { .object([.init("hash", .string($0.hash)), .init("date", .string($0.authorDate)), .init("subject", .string($0.subject))]) } ?? nil),
            ])
        }
        let snapshots: [JSONValue] = timeline.snapshots.map { record in
            .object([
                .init("snapshot", stamp(record.stamp)), .init("projectId", record.projectId.map { .string($0) } ?? nil),
                .init("rejected", .bool(record.rejection != nil)), .init("entries", integer(record.entryCount)),
                .init("loaded", integer(record.loadedCount)), .init("skipped", integer(record.skippedCount)),
                .init("findings", counts(record.findingCounts)), .init("changes", .string(record.changes.summary)),
            ])
        }
        let placements: [JSONValue] = timeline.placements.map { history in
            .object([
                .init("key", .string(history.key)),
                .init("revisions", .array(history.revisions.map { revision in
                    .object([
                        .init("revision", revision.revisionText.map { .string($0) } ?? nil), .init("firstSeen", stamp(revision.firstSeen)),
                        .init("removed", .bool(revision.isRemoved)), .init("summary", .string(revision.summary)),
                    ])
                })),
            ])
        }
        let findings: [JSONValue] = timeline.findings.map { item in
            .object([
                .init("rule", .string(item.finding.ruleId.rawValue)), .init("severity", .string(item.finding.severity.rawValue)),
                .init("message", .string(item.finding.message)), .init("placement", item.finding.placementKey.map { .string($0) } ?? nil),
                .init("snapshot", .string(item.snapshot.name)), .init("pointer", .string(item.finding.pointer)),
                .init("line", integer(item.finding.line)), .init("column", integer(item.finding.column)),
            ])
        }
        return .object([
            .init("snapshots", .array(snapshots)), .init("placements", .array(placements)), .init("findings", .array(findings)),
            .init("summary", counts(SeverityCounts(timeline.findings.map(\.finding)))), .init("failOn", .string(failOn.rawValue)),
            .init("fails", .bool(fails)),
        ])
    }
}
