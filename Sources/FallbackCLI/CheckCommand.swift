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
            no finding reaches --fail-on, 1 when one does (a rejected file always does), 2 for usage errors and \
            unreadable paths.
            """,
        positionals: [.init(name: "file", arity: .oneOrMore, help: "rovenue-fallback.json snapshots ('-' reads standard input).")],
        options: [
            .init(name: "format", valueName: "format", help: "Output format.", choices: ["text", "json"], defaultValue: "text"),
            .init(
                name: "fail-on", valueName: "severity", help: "The lowest severity that fails the run.",
                choices: ["error", "warning", "info", "never"], defaultValue: "error"),
        ])

    /// One file's outcome: unreadable, or read with its findings.
    struct FileReport {
        let path: String
        let file: FallbackFile?
        let readError: String?
        let findings: [Finding]
    }

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        let failOn = arguments.value("fail-on", in: signature) ?? "error"
        let threshold: Severity? = failOn == "never" ? nil : Severity(rawValue: failOn)
        let now = environment.now()
        var reports: [FileReport] = []
        for path in arguments.positionals {
            do {
                let bytes = try environment.readFile(path)
                let file = FallbackFile(bytes: bytes)
                reports.append(FileReport(path: path, file: file, readError: nil, findings: Audit(now: now).findings(in: file)))
            } catch {
                reports.append(FileReport(path: path, file: nil, readError: CommandEnvironment.describe(error), findings: []))
            }
        }

        if arguments.value("format", in: signature) == "json" {
            environment.writeOutput(jsonReport(reports).jsonText([.prettyPrinted]) + "\n")
        } else {
            environment.writeOutput(textReport(reports))
            for report in reports where report.readError != nil {
                environment.writeError("error: cannot read \(report.path): \(report.readError!)\n")
            }
        }

        if reports.contains(where: { $0.readError != nil }) { return ExitStatus.usage }
        let failed = reports.contains { report in
            report.file?.rejection != nil || report.findings.contains { finding in threshold.map { finding.severity >= $0 } ?? false }
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    // MARK: Text

    static func textReport(_ reports: [FileReport]) -> String {
        var output = ""
        for report in reports {
            guard let file = report.file else { continue }
            for finding in report.findings {
                output += "\(report.path):\(finding.line):\(finding.column): \(finding.severity.rawValue): [\(finding.ruleId)] \(finding.message)\n"
            }
            output += "\(report.path): \(verdict(file))\(tally(report.findings))\n"
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
            .init("rule", .string(finding.ruleId)), .init("severity", .string(finding.severity.rawValue)),
            .init("message", .string(finding.message)), .init("placement", finding.placementKey.map { .string($0) } ?? nil),
            .init("pointer", .string(finding.pointer)), .init("line", integer(finding.line)), .init("column", integer(finding.column)),
        ])
    }

    static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}
