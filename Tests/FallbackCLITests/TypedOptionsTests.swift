import FallbackReports
import Foundation
import Testing
@testable import FallbackCLI

/// The row of `command --help` that describes `label` (e.g. `--fail-on <severity>`), wrapped rows joined.
private func helpRow(_ command: String, _ label: String) -> String? {
    let lines = run([command, "--help"]).output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let index = lines.firstIndex(where: { $0.hasPrefix("  \(label)") }) else { return nil }
    var row = lines[index]
    if row.trimmingCharacters(in: .whitespaces) == label, index + 1 < lines.count { row += lines[index + 1] }
    return row
}

private func example(_ release: String) -> String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples"))) ?? []
    return repositoryPath("Examples/" + (names.first { $0.hasSuffix("release-\(release).json") } ?? release))
}

@Suite("Help states every default truthfully")
struct TruthfulHelpTests {
    /// Regression: `check --help` said `(default: error)` and `diff --help` `(default: breaking)`,
    /// where the configuration's `failOn` / `diffFailOn` decides when the option is not given.
    @Test(arguments: [
        ("check", "--fail-on <severity>", "(default: the configuration's `failOn`, else error)"),
        ("history", "--fail-on <severity>", "(default: the configuration's `failOn`, else error)"),
        ("diff", "--fail-on <class>", "(default: the configuration's `diffFailOn`, else breaking)"),
    ])
    func failOnDefersToTheConfiguration(command: String, label: String, stated: String) throws {
        let row = try #require(helpRow(command, label), "no \(label) in \(command) --help")
        #expect(row.contains(stated), "\(command): \(row)")
        #expect(!row.contains("(default: error)") && !row.contains("(default: breaking)"), "\(command): \(row)")
    }

    /// Every option with a default says what it is, in the same words wherever the option is shared.
    @Test(arguments: [
        ("check", "--format <format>", "(default: text)"),
        ("diff", "--format <format>", "(default: text)"),
        ("history", "--format <format>", "(default: text)"),
        ("check", "--config <file>", "(default: .fallback-site.json when present)"),
        ("diff", "--config <file>", "(default: .fallback-site.json when present)"),
        ("history", "--config <file>", "(default: .fallback-site.json when present)"),
        ("build", "--config <file>", "(default: .fallback-site.json when present)"),
        ("history", "--stale-after <days>", "(default: the configuration's `staleAfterDays`, else 90)"),
        ("build", "--baseline <file>", "(default: the one before the newest)"),
        ("build", "--title <title>", "(default: from the project id)"),
        ("check", "--rules-url <url>", "(default: the configuration's `rulesUrl`, else none)"),
        ("resolve", "--subscriber <id>", "(default: rov_000000000000000000000000)"),
        ("resolve", "--format <format>", "(default: text)"),
        ("sample", "--seed <s>", "(default: 1)"),
        ("template", "--escape <mode>", "(default: html)"),
    ])
    func everyDefaultIsStated(command: String, label: String, stated: String) throws {
        let row = try #require(helpRow(command, label), "no \(label) in \(command) --help")
        #expect(row.contains(stated), "\(command): \(row)")
        #expect(row.components(separatedBy: "(default:").count == 2, "one default per row: \(row)")
    }

    /// The discussion of `history` named a default (`--fail-on (default error)`) that the
    /// configuration overrides.
    @Test func historyDiscussionDoesNotHideTheConfiguration() {
        let help = run(["history", "--help"]).output
        #expect(!help.contains("(default error)"))
    }
}

@Suite("What help says is what runs")
struct HelpMatchesBehaviourTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let command: [String]
        let configKey: String
        let passing: String
        let failing: String
        var testDescription: String { command[0] }
    }

    /// Each command fails by default on these inputs, passes when the configuration's threshold is
    /// `never`, and fails again when `--fail-on` overrides the configuration.
    static let cases: [Case] = [
        Case(command: ["check", funnelEraPath], configKey: "failOn", passing: "never", failing: "error"),
        Case(command: ["diff", example("3.1"), example("3.2")], configKey: "diffFailOn", passing: "never", failing: "breaking"),
        Case(
            command: ["history", example("3.0"), example("3.3"), funnelEraPath], configKey: "failOn", passing: "never",
            failing: "error"),
    ]

    @Test(arguments: cases)
    func theConfigurationDecidesUnlessTheOptionIsGiven(_ item: Case) {
        let config = ["cfg.json": #"{"\#(item.configKey)": "\#(item.passing)"}"#]
        #expect(run(item.command).status == 1)
        #expect(run(item.command + ["--config", "cfg.json"], files: config).status == 0)
        #expect(run(item.command + ["--config", "cfg.json", "--fail-on", item.failing], files: config).status == 1)
    }
}

@Suite("ReportFormat as an option value")
struct ReportFormatArgumentTests {
    @Test func everyFormatIsSpelledByItsName() {
        #expect(ReportFormat.allValueStrings == ["text", "json", "markdown", "github", "junit", "sarif"])
        for format in ReportFormat.allCases {
            #expect(ReportFormat(argument: format.rawValue) == format)
            #expect(format.argumentText == format.rawValue)
        }
        // Spelled exactly, as before: no case folding, no prefixes, no spaces.
        for text in ["JSON", "Json", "js", " json", "json ", ""] {
            #expect(ReportFormat(argument: text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("jsn", "json"), ("txt", "text"), ("markdwn", "markdown"), ("githb", "github"), ("junt", "junit"), ("sarf", "sarif"),
        ("xml", nil), ("yaml", nil), ("html", nil),
    ] as [(String, String?)])
    func aTypoIsAnsweredWithTheClosestFormat(typo: String, suggestion: String?) {
        let message = ReportOptions<FailureThreshold>.format.declaration.invalid(typo).message
        let list = "Please provide one of 'text', 'json', 'markdown', 'github', 'junit' and 'sarif'."
        #expect(message.hasPrefix("The value '\(typo)' is invalid for '--format <format>'. \(list)"))
        if let suggestion {
            #expect(message.hasSuffix("\(list) Did you mean '\(suggestion)'?"))
        } else {
            #expect(message.hasSuffix(list))
        }
    }

    @Test func theCommandLineSaysDidYouMean() {
        let result = run(["check", paywallEraPath, "--format", "jsn"])
        #expect(result.status == 2)
        #expect(result.error.contains("'junit' and 'sarif'. Did you mean 'json'?\nUsage: fallback-site check"))
        #expect(result.output.isEmpty)
    }

    @Test func unknownOptionsAndSubcommandsSuggestTheClosest() {
        let option = run(["diff", "a.json", "b.json", "--fial-on", "never"])
        #expect(option.status == 2)
        #expect(option.error.contains("Unknown option '--fial-on' (did you mean '--fail-on'?)"))
        let flag = run(["check", "a.json", "--sumary"])
        #expect(flag.error.contains("Unknown option '--sumary' (did you mean '--summary'?)"))
        let subcommand = run(["histroy", "a.json"])
        #expect(subcommand.status == 2)
        #expect(subcommand.error.contains("Unknown subcommand 'histroy' (did you mean 'history'?)"))
        #expect(run(["check", "a.json", "--colour"]).error.contains("Unknown option '--colour' (did you mean '--color'?)"))
        #expect(run(["check", "a.json", "--frobnicate"]).error.contains("Unknown option '--frobnicate'\n"))
    }
}

@Suite("Options are parsed once into typed values")
struct ParsedOnceTests {
    func parsed(_ command: any Command.Type, _ arguments: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try command.signature.parse(arguments) else { throw UsageError(message: "help") }
        return parsed
    }

    @Test func reportOptionsAreTyped() throws {
        let check = CheckCommand.options(try parsed(CheckCommand.self, ["a.json", "--format", "sarif", "--fail-on", "never", "--summary"]))
        #expect(check.report.format == .sarif)
        #expect(check.report.failOn == .never)
        #expect(check.report.appendsSummary)
        #expect(check.report.configuration.path == nil)
        #expect(check.files == ["a.json"])

        let diff = try DiffCommand.options(try parsed(DiffCommand.self, ["a", "b", "--fail-on=notable", "--config", "c.json"]))
        #expect(diff.report.format == .text)
        #expect(diff.report.failOn == .notable)
        #expect(diff.report.configuration.path == "c.json")
        #expect(!diff.report.appendsSummary)
    }

    @Test func theLastValueWins() throws {
        let options = CheckCommand.options(try parsed(CheckCommand.self, ["a.json", "--format", "json", "--format", "junit"]))
        #expect(options.report.format == .junit)
    }

    @Test func theThresholdIsTheOptionElseTheConfigurationElseTheFallback() {
        let given = ReportOptions<FailureThreshold>(ParsedArguments(values: ["fail-on": [FailureThreshold.info]]))
        let absent = ReportOptions<FailureThreshold>(ParsedArguments())
        #expect(given.threshold(in: Configuration(failOn: .never)) == .info)
        #expect(absent.threshold(in: Configuration(failOn: .warning)) == .warning)
        #expect(absent.threshold(in: Configuration()) == .error)
        // diff reads its own key: `failOn` is about findings, not about what a release changes.
        let diff = ReportOptions<ChangeThreshold>(ParsedArguments())
        #expect(diff.threshold(in: Configuration(failOn: .never)) == .breaking)
        #expect(diff.threshold(in: Configuration(diffFailOn: .notable)) == .notable)
    }

    @Test func openEndedValuesAreCheckedWhenParsed() throws {
        #expect(throws: UsageError.self) { try parsed(HistoryCommand.self, ["a", "b", "--stale-after", "0"]) }
        #expect(try HistoryCommand.options(parsed(HistoryCommand.self, [repositoryPath("Examples"), "--stale-after", "7"])).staleAfter?.days == 7)
        #expect(throws: UsageError.self) { try parsed(CheckCommand.self, ["a.json", "--rules-url", "ftp://x"]) }
        #expect(throws: UsageError.self) { try parsed(SampleCommand.self, ["--placements", "1000001", "--out", "-"]) }
        let sample = SampleCommand.options(try parsed(SampleCommand.self, ["--placements", "3", "--out", "-"]))
        #expect(sample.placements.count == 3)
        #expect(sample.seed == 1)
    }
}

/// One run with `variables` as the environment and the step summary captured in memory.
private func run(_ arguments: [String], variables: [String: String]) -> (status: Int32, output: String, error: String, summary: String) {
    let capture = Capture()
    let environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
        readFile: { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }, writeFile: { capture.write($0, $1) },
        now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: variables,
        appendFile: { path, bytes in capture.write(path, (capture.file(path) ?? []) + bytes) })
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, files) = capture.snapshot
    return (status, output, error, files["summary.md"].map { String(decoding: $0, as: UTF8.self) } ?? "")
}

@Suite("The shared report options behave the same in check, diff and history")
struct SharedReportOptionsTests {
    /// A valid invocation of each command that reports findings or changes.
    static let commands: [[String]] = [
        ["check", funnelEraPath],
        ["diff", example("3.1"), example("3.2")],
        ["history", example("3.0"), example("3.3"), funnelEraPath],
    ]

    @Test(arguments: commands)
    func theGroupIsDeclaredOnce(command: [String]) throws {
        for label in ["--format <format>", "--config <file>", "--color <when>", "--summary", "--verbose"] {
            let row = try #require(helpRow(command[0], label))
            #expect(row == helpRow("check", label), "\(command[0]) \(label)")
        }
        let usage = try #require(run([command[0], "--help"]).output.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(usage.contains("[--format <format>] [--fail-on <"))
        #expect(usage.contains("[--config <file>]"))
        #expect(usage.contains("[--color <when>]"))
        #expect(usage.hasSuffix("[--summary] [--verbose]"))
    }

    @Test(arguments: commands, [
        (["--format", "jsn"], "The value 'jsn' is invalid for '--format <format>'. Please provide one of 'text', 'json', 'markdown', 'github', 'junit' and 'sarif'. Did you mean 'json'?"),
        (["--format"], "Missing value for '--format <format>'"),
        (["--config"], "Missing value for '--config <file>'"),
        (["--summary=yes"], "The flag '--summary' does not take a value"),
        (["--config", "/nonexistent/cfg.json"], "error: cannot read the configuration /nonexistent/cfg.json: "),
    ])
    func mistakesReadTheSame(command: [String], mistake: (arguments: [String], message: String)) {
        let result = run(command + mistake.arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(mistake.message), "\(command[0]): \(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test(arguments: commands)
    func everyFormatGivesTheSameExitStatus(command: [String]) {
        let text = run(command)
        #expect(text.status == 1)
        for format in ReportFormat.allCases {
            let spaced = run(command + ["--format", format.rawValue])
            let joined = run(command + ["--format=\(format.rawValue)"])
            #expect(spaced.status == text.status, "\(command[0]) --format \(format)")
            #expect(joined.output == spaced.output, "\(command[0]) --format=\(format)")
            #expect(!spaced.output.isEmpty)
        }
        #expect(run(command + ["--format", "json"]).output.hasPrefix("{"))
    }

    @Test(arguments: commands)
    func summaryAppendsTheMarkdownReport(command: [String]) {
        let markdown = run(command + ["--format", "markdown"]).output
        let withSummary = run(command + ["--summary"], variables: ["GITHUB_STEP_SUMMARY": "summary.md"])
        #expect(withSummary.summary == markdown + "\n")
        #expect(withSummary.status == 1)
        let unset = run(command + ["--summary"], variables: [:])
        #expect(unset.error.contains("warning: --summary: GITHUB_STEP_SUMMARY is not set; no summary written"))
        #expect(unset.summary.isEmpty)
    }
}
