import FallbackAudit
import FallbackReports
import RovenueFallback

/// `fallback-site check`: what the SDK's loader does with each file, and every check finding.
enum CheckCommand: Command {
    static let signature = CommandSignature(
        name: "check",
        abstract: "Check fallback files as the SDK's loader reads them, and lint what they serve offline.",
        discussion: """
            Reports, like a compiler, where the SDK would reject each file, which entries it would skip and why, \
            and the findings of the rule catalogue (docs/rules.md), then a one-line verdict per file. Text lists \
            errors and warnings and counts infos (--verbose, or showInfos in the configuration, lists them; an info \
            that fails the run is always listed); every other format has every finding. Exits 0 when \
            no finding reaches --fail-on, 1 when one does (a rejected file always does), 2 for usage errors, \
            unreadable paths and a bad configuration file. The checks that depend on the time (generated-at-future) \
            take --now, else SOURCE_DATE_EPOCH, else the clock as now. Settings come from --config FILE, else from \
            .fallback-site.json in the current directory when there is one; command-line options win over the file.
            """,
        positionals: [
            .init(name: "file", arity: .oneOrMore, help: "rovenue-fallback.json snapshots ('-' reads standard input).", completion: .file)
        ],
        options: ReportOptions<FailureThreshold>.options + [rulesURL.declaration, now.declaration],
        flags: ReportOptions<FailureThreshold>.flags,
        examples: [
            .init("Check every release in Examples/ as the SDK loads it:", "check Examples/*.json"),
            .init(
                "Fail on warnings too, and print GitHub annotations:",
                "check Examples/2026-07-21-release-3.4.json --fail-on warning --format github"),
        ])

    static let rulesURL = TypedOption<WebURL>(
        name: "rules-url", valueName: "url", help: "Address of docs/rules.md, for rule links in markdown and SARIF.",
        defaultDescription: "the configuration's `rulesUrl`, else none")
    static let now = SourceDateEpoch.option(default: "SOURCE_DATE_EPOCH, else the clock")

    struct Options: Sendable {
        var files: [String]
        var report: ReportOptions<FailureThreshold>
        /// `--rules-url`; nil leaves it to the configuration.
        var rulesURL: WebURL?
        /// `--now`; nil leaves it to `SOURCE_DATE_EPOCH`, else the clock.
        var now: SourceDateEpoch?
    }

    static func options(_ arguments: ParsedArguments) -> Options {
        Options(files: arguments.positionals, report: ReportOptions(arguments), rulesURL: arguments.value(rulesURL), now: arguments.value(now))
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        guard let configuration = options.report.configuration.load(in: environment) else { return ExitStatus.usage }
        guard let now = SourceDateEpoch.now(given: options.now, in: environment, clock: environment.now()) else { return ExitStatus.usage }
        // Lazy: each file is read, loaded and audited in turn and dropped before the next is read,
        // so memory does not grow with the number of files (the report keeps summaries and findings).
        // Each file's entries are decoded, audited and let go a chunk at a time (`Audit.check`), so
        // the typed model of a whole file is never alive: only its text and nodes (`FallbackTopLevel`).
        // The last file's top level is left for the process's exit to free (`ExitKeeper`); each
        // earlier one goes before the next is read.
        let files = options.files.lazy.map { path -> (path: String, outcome: Result<FallbackTopLevel, UnreadableFile>) in
            environment.exitKeeper.releaseAll()
            do {
                let topLevel = FallbackTopLevel(bytes: try environment.readFile(path))
                environment.exitKeeper.keep(topLevel)
                return (path, .success(topLevel))
            } catch {
                return (path, .failure(UnreadableFile(reason: CommandEnvironment.describe(error))))
            }
        }
        let report = CheckedFilesReport(
            topLevels: files, audit: Audit(now: now, configuration: configuration.audit),
            failOn: options.report.threshold(in: configuration), title: "\(CommandLineTool.name) check",
            tool: ReportTool(
                name: CommandLineTool.name, version: CommandLineTool.version, rulesURL: options.rulesURL?.text ?? configuration.rulesURL))

        options.report.write(report, configuration: configuration, in: environment)
        // json and text name the unreadable file in the report itself; the other formats, often
        // written to a file, also say it where a person sees it.
        if options.report.format != .json, options.report.format != .text {
            for input in report.inputs {
                if let reason = input.readError { environment.writeError("error: cannot read \(input.path): \(reason)\n") }
            }
        }
        var status = report.fails ? ExitStatus.failure : ExitStatus.success
        if !options.report.appendSummary(of: report, in: environment) { status = ExitStatus.usage }
        if report.inputs.contains(where: { $0.readError != nil }) { status = ExitStatus.usage }
        environment.exitKeeper.keep(report)
        return status
    }
}

/// An http or https address (`--rules-url`).
struct WebURL: ArgumentValue {
    let text: String

    init?(argument: String) {
        guard WebAddress.isWebURL(argument) else { return nil }
        text = argument
    }

    static let expectation = "expected an http or https URL"
    var argumentText: String { text }
}
