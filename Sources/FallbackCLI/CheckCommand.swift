import FallbackAudit
import RovenueFallback

/// `fallback-site check`: what the SDK's loader does with each file, and every check finding.
enum CheckCommand: Command {
    static let signature = CommandSignature(
        name: "check",
        abstract: "Check fallback files as the SDK's loader reads them, and lint what they serve offline.",
        discussion: """
            Reports, like a compiler, where the SDK would reject each file, which entries it would skip and why, \
            and every finding of the rule catalogue (docs/rules.md), then a one-line verdict per file. Exits 0 when \
            no finding reaches --fail-on, 1 when one does (a rejected file always does), 2 for usage errors, \
            unreadable paths and a bad configuration file. Settings come from --config FILE, else from \
            .fallback-site.json in the current directory when there is one; command-line options win over the file.
            """,
        positionals: [.init(name: "file", arity: .oneOrMore, help: "rovenue-fallback.json snapshots ('-' reads standard input).")],
        options: [
            .init(
                name: "format", valueName: "format", help: "Output format.", choices: ["text", "json", "markdown", "github", "junit", "sarif"],
                defaultValue: "text"),
            .init(
                name: "fail-on", valueName: "severity", help: "The lowest severity that fails the run.",
                choices: FailureThreshold.allCases.map(\.rawValue), defaultValue: "error"),
            .init(name: "config", valueName: "file", help: "Configuration file (default: \(Configuration.fileName) when present)."),
            .init(name: "rules-url", valueName: "url", help: "Address of docs/rules.md, for rule links in markdown and SARIF."),
        ],
        flags: [
            .init(name: "summary", help: "Also append the markdown report to $GITHUB_STEP_SUMMARY."),
        ])

    /// One file's outcome: unreadable, or read with its findings.
    struct FileReport {
        let path: String
        let file: FallbackFile?
        let readError: String?
        let findings: [Finding]
    }

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        guard let configuration = loadConfiguration(arguments, in: environment) else { return ExitStatus.usage }
        let failOn = arguments.options["fail-on"]?.last.flatMap(FailureThreshold.init(rawValue:)) ?? configuration.failOn ?? .error
        var rulesURL = configuration.rulesURL
        if let flag = arguments.options["rules-url"]?.last {
            guard Configuration.isWebURL(flag) else {
                return CommandLineTool.usageError(
                    "The value '\(flag)' is invalid for '--rules-url <url>': expected an http or https URL",
                    usage: signature.usage(tool: CommandLineTool.name), helpName: "\(CommandLineTool.name) check", environment)
            }
            rulesURL = flag
        }

        let audit = Audit(now: environment.now(), configuration: configuration.audit)
        var reports: [FileReport] = []
        var files: [CheckReport.File] = []
        for path in arguments.positionals {
            do {
                let file = FallbackFile(bytes: try environment.readFile(path))
                let checked = CheckReport.File(path: path, file: file, findings: audit.findings(in: file))
                files.append(checked)
                reports.append(FileReport(path: path, file: file, readError: nil, findings: checked.findings))
            } catch {
                let reason = CommandEnvironment.describe(error)
                files.append(CheckReport.File(path: path, unreadable: reason))
                reports.append(FileReport(path: path, file: nil, readError: reason, findings: []))
            }
        }
        let report = CheckReport(
            title: "\(CommandLineTool.name) check",
            tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version, rulesURL: rulesURL),
            files: files, rules: CheckReport.rules(enabledBy: configuration.audit), failOn: failOn)

        let format = arguments.value("format", in: signature) ?? "text"
        let markdown = format == "markdown" || arguments.has("summary") ? MarkdownReport.render(report) : ""
        switch format {
        case "json": environment.writeOutput(jsonReport(reports).jsonText([.prettyPrinted]) + "\n")
        case "markdown": environment.writeOutput(markdown)
        case "github": environment.writeOutput(GitHubAnnotations.render(report))
        case "junit": environment.writeOutput(JUnitReport.render(report))
        case "sarif": environment.writeOutput(SARIFReport.render(report))
        default: environment.writeOutput(textReport(reports))
        }
        if format != "json" {
            for report in reports where report.readError != nil {
                environment.writeError("error: cannot read \(report.path): \(report.readError!)\n")
            }
        }

        var status = report.fails ? ExitStatus.failure : ExitStatus.success
        if arguments.has("summary"), !appendSummary(markdown, in: environment) {
            status = ExitStatus.usage
        }
        if reports.contains(where: { $0.readError != nil }) { status = ExitStatus.usage }
        return status
    }

    // MARK: Configuration

    /// The configuration from `--config`, else from `.fallback-site.json` when it exists, else the defaults;
    /// nil after reporting a file that cannot be read or used.
    static func loadConfiguration(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Configuration? {
        let explicit = arguments.options["config"]?.last
        let path = explicit ?? Configuration.fileName
        let bytes: [UInt8]
        do {
            bytes = try environment.readFile(path)
        } catch {
            if explicit == nil, CommandEnvironment.isMissingFile(error) { return Configuration() }
            environment.writeError("error: cannot read the configuration \(path): \(CommandEnvironment.describe(error))\n")
            return nil
        }
        do {
            return try Configuration(bytes: bytes, path: path)
        } catch {
            environment.writeError("error: \(error)\n")
            return nil
        }
    }

    // MARK: Summary

    /// Appends `markdown` to `$GITHUB_STEP_SUMMARY`; false when that fails. Without the variable it says so and goes on.
    static func appendSummary(_ markdown: String, in environment: CommandEnvironment) -> Bool {
        guard let path = environment.variables["GITHUB_STEP_SUMMARY"], !path.isEmpty else {
            environment.writeError("warning: --summary: GITHUB_STEP_SUMMARY is not set; no summary written\n")
            return true
        }
        do {
            try environment.appendFile(path, Array((markdown + "\n").utf8))
            return true
        } catch {
            environment.writeError("error: cannot append the summary to \(path): \(CommandEnvironment.describe(error))\n")
            return false
        }
    }

    // MARK: Text

    /// `line:column: severity: [rule] message`, the message on one line as a terminal shows it.
    static func findingLine(_ finding: Finding) -> String {
        "\(finding.line):\(finding.column): \(finding.severity.rawValue): [\(finding.ruleId)] \(VisibleText.forTerminal(finding.message))"
    }

    /// Lines for a terminal or a CI log: every path and message is one line with its hidden
    /// characters spelled out (`VisibleText`), so no key or file name can colour, move or start a line.
    static func textReport(_ reports: [FileReport]) -> String {
        var output = ""
        for report in reports {
            guard let file = report.file else { continue }
            let path = VisibleText.forTerminal(report.path)
            for finding in report.findings {
                output += "\(path):\(findingLine(finding))\n"
            }
            output += "\(path): \(VisibleText.forTerminal(verdict(file)))\(tally(report.findings))\n"
        }
        if reports.count > 1 {
            let all = reports.flatMap(\.findings)
            output += "\(reports.count) files\(tally(all))\n"
        }
        return output
    }

    /// The loader's outcome in one line, with the SDK's message when it throws.
    static func verdict(_ file: FallbackFile) -> String {
        file.rejection.map { "\(file.verdict): \($0.message)" } ?? file.verdict
    }

    static func tally(_ findings: [Finding]) -> String {
        let counts = Severity.allCases.sorted(by: >).compactMap { severity -> String? in
            let count = findings.count { $0.severity == severity }
            guard count > 0 else { return nil }
            let noun = switch severity {
            case .error: count == 1 ? "error" : "errors"
            case .warning: count == 1 ? "warning" : "warnings"
            case .info: count == 1 ? "info" : "infos"
            }
            return "\(count) \(noun)"
        }
        return counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))"
    }

    // MARK: JSON

    static func jsonReport(_ reports: [FileReport]) -> JSONValue {
        var files: [JSONValue] = []
        for report in reports {
            guard let file = report.file else {
                files.append(.object([
                    .init("path", .string(report.path)),
                    .init("fatal", .object([
                        .init("message", .string("cannot read \(report.path): \(report.readError ?? "")")), .init("line", nil),
                        .init("column", nil),
                    ])),
                    .init("readable", false), .init("loaded", []), .init("skipped", []), .init("findings", []),
                ]))
                continue
            }
            let fatal: JSONValue = file.rejection.map { rejection in
                .object([
                    .init("message", .string(rejection.message)), .init("line", integer(rejection.position.line)),
                    .init("column", integer(rejection.position.column)), .init("rule", .string(rejection.rule.section)),
                    .init("summary", .string(rejection.rule.summary)),
                ])
            } ?? nil
            let skipped: [JSONValue] = file.entries.compactMap { record in
                guard let failure = record.failure else { return nil }
                let location = file.location(of: failure.source)
                return .object([
                    .init("key", .string(record.key)), .init("reason", .string("\(location.pointer): \(failure.expectation)")),
                    .init("pointer", .string(location.pointer)), .init("line", integer(location.line)),
                    .init("column", integer(location.column)),
                ])
            }
            files.append(.object([
                .init("path", .string(report.path)), .init("fatal", fatal), .init("readable", true),
                .init("loaded", .array(file.loadedEntries.map { .string($0.key) })), .init("skipped", .array(skipped)),
                .init("findings", .array(report.findings.map(json))), .init("verdict", .string(verdict(file))),
            ]))
        }
        let all = reports.flatMap(\.findings)
        return .object([
            .init("files", .array(files)),
            .init("summary", .object([
                .init("errors", integer(all.count { $0.severity == .error })),
                .init("warnings", integer(all.count { $0.severity == .warning })),
                .init("infos", integer(all.count { $0.severity == .info })),
            ])),
        ])
    }

    static func json(_ finding: Finding) -> JSONValue {
        .object([
            .init("rule", .string(finding.ruleId.rawValue)), .init("severity", .string(finding.severity.rawValue)),
            .init("message", .string(finding.message)), .init("placement", finding.placementKey.map { .string($0) } ?? nil),
            .init("pointer", .string(finding.pointer)), .init("line", integer(finding.line)), .init("column", integer(finding.column)),
        ])
    }

    static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}
