import FallbackDiff
import FallbackReports
import RovenueFallback

/// `fallback-site diff`: what changes for an offline device between two snapshots, by class.
enum DiffCommand: Command {
    static let signature = CommandSignature(
        name: "diff",
        abstract: "Compare two fallback snapshots: what changes for an offline device, breaking first.",
        discussion: """
            Matches placements by key, then variants, funnels, pages and paywalls by id, and classifies every change \
            as breaking, notable or info (docs/diff.md). For each experiment whose variants or weights change, counts \
            exactly how many of the 10,000 buckets draw another variant. github, junit and sarif report each change \
            as a finding of its kind: breaking an error, notable a warning, info a notice. Exits 0 when no change \
            reaches --fail-on (else the configuration's diffFailOn, else breaking), 1 when one does (a rejected \
            snapshot always does), 2 for usage errors, unreadable paths and a bad configuration file.
            """,
        positionals: [
            .init(name: "old", arity: .one, help: "The earlier snapshot ('-' reads standard input).", completion: .file),
            .init(name: "new", arity: .one, help: "The later snapshot ('-' reads standard input).", completion: .file),
        ],
        options: ReportOptions<ChangeThreshold>.options,
        flags: ReportOptions<ChangeThreshold>.flags,
        examples: [
            .init(
                "What changes between two releases; exits 1 when a change is breaking:",
                "diff Examples/2026-03-03-release-3.0.json Examples/2026-04-14-release-3.1.json"),
            .init(
                "A pull-request comment that fails only on notable changes or worse:",
                "diff Examples/2026-04-14-release-3.1.json Examples/2026-05-19-release-3.2.json --format markdown --fail-on notable"),
        ])

    struct Options: Sendable {
        var old: String
        var new: String
        var report: ReportOptions<ChangeThreshold>
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let paths = arguments.positionals
        if paths[0] == "-", paths[1] == "-" { throw UsageError(message: "Only one snapshot can be read from standard input") }
        return Options(old: paths[0], new: paths[1], report: ReportOptions(arguments))
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        var environment = environment
        let progress = ProgressLine.attach(to: &environment, quiet: false)
        guard let configuration = options.report.configuration.load(in: environment) else { return ExitStatus.usage }
        let failOn = options.report.threshold(in: configuration)
        let title = "\(CommandLineTool.name) diff"
        let tool = ReportTool(name: CommandLineTool.name, version: CommandLineTool.version)

        var bytes: [[UInt8]] = []
        var sides: [UnreadableDiffReport.Side] = []
        for path in [options.old, options.new] {
            progress.update("Reading \(path)")
            do {
                bytes.append(try environment.readFile(path))
                sides.append(.init(path: path, readError: nil))
            } catch {
                let reason = CommandEnvironment.describe(error)
                // json and text name the path in the report itself, as check does; the other
                // formats, often written to a file, also say it where a person sees it.
                if options.report.format != .json, options.report.format != .text {
                    environment.writeError("error: cannot read \(path): \(reason)\n")
                }
                sides.append(.init(path: path, readError: reason))
            }
        }
        guard bytes.count == 2 else {
            progress.clear()
            let report = UnreadableDiffReport(old: sides[0], new: sides[1], failOn: failOn, title: title, tool: tool)
            options.report.write(report, configuration: configuration, in: environment)
            _ = options.report.appendSummary(of: report, in: environment)
            return ExitStatus.usage
        }
        progress.update("Parsing \(options.old)")
        let old = FallbackFile(bytes: bytes[0])
        progress.update("Parsing \(options.new)")
        let new = FallbackFile(bytes: bytes[1])
        progress.update("Comparing \(options.old) with \(options.new)")
        let diff = SnapshotDiff(old: old, new: new)
        progress.clear()
        let report = DiffReport(
            diff: diff, oldPath: options.old, newPath: options.new, failOn: failOn, title: title, tool: tool)
        options.report.write(report, configuration: configuration, in: environment)
        if !options.report.appendSummary(of: report, in: environment) { return ExitStatus.usage }
        return report.fails ? ExitStatus.failure : ExitStatus.success
    }
}
