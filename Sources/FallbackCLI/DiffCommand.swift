import FallbackAudit
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
            .init(name: "old", arity: .one, help: "The earlier snapshot ('-' reads standard input)."),
            .init(name: "new", arity: .one, help: "The later snapshot ('-' reads standard input)."),
        ],
        options: [
            .init(
                name: "format", valueName: "format", help: "Output format.", choices: ["text", "json", "markdown", "github", "junit", "sarif"],
                defaultValue: "text"),
            .init(
                name: "fail-on", valueName: "class", help: "The lowest class of change that fails the run.",
                choices: ChangeThreshold.allCases.map(\.rawValue), defaultValue: "breaking"),
            .init(name: "config", valueName: "file", help: "Configuration file (default: \(Configuration.fileName) when present)."),
        ],
        flags: [
            .init(name: "summary", help: "Also append the markdown report to $GITHUB_STEP_SUMMARY."),
        ])

    /// The rows a markdown section shows before it says how many it left out.
    static let markdownRowLimit = 250

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        let paths = arguments.positionals
        if paths[0] == "-", paths[1] == "-" {
            return CommandLineTool.usageError(
                "Only one snapshot can be read from standard input", usage: signature.usage(tool: CommandLineTool.name),
                helpName: "\(CommandLineTool.name) \(signature.name)", environment)
        }
        guard let configuration = CheckCommand.loadConfiguration(arguments, in: environment) else { return ExitStatus.usage }
        let failOn = arguments.options["fail-on"]?.last.flatMap(ChangeThreshold.init(rawValue:)) ?? configuration.diffFailOn ?? .breaking
        let format = arguments.value("format", in: signature) ?? "text"
        let title = "\(CommandLineTool.name) diff"
        let tool = ReportTool(name: CommandLineTool.name, version: CommandLineTool.version)

        var bytes: [[UInt8]] = []
        var unreadable: [(path: String, reason: String)] = []
        for path in paths {
            do {
                bytes.append(try environment.readFile(path))
            } catch {
                let reason = CommandEnvironment.describe(error)
                environment.writeError("error: cannot read \(path): \(reason)\n")
                unreadable.append((path, reason))
            }
        }
        guard unreadable.isEmpty else {
            let report = CheckReport(unreadable: unreadable, failOn: failOn, title: title, tool: tool)
            let markdown = unreadableMarkdown(unreadable)
            switch format {
            case "markdown": environment.writeOutput(markdown)
            case "github": environment.writeOutput(GitHubAnnotations.render(report))
            case "junit": environment.writeOutput(JUnitReport.render(report))
            case "sarif": environment.writeOutput(SARIFReport.render(report))
            default: break
            }
            if arguments.has("summary") { _ = CheckCommand.appendSummary(markdown, in: environment) }
            return ExitStatus.usage
        }
        let diff = SnapshotDiff(old: FallbackFile(bytes: bytes[0]), new: FallbackFile(bytes: bytes[1]))
        let failed = diff.hasRejectedSnapshot || failOn.changeClass.map(diff.reaches) == true
        let report = CheckReport(diff: diff, oldPath: paths[0], newPath: paths[1], failOn: failOn, title: title, tool: tool)

        let markdown = format == "markdown" || arguments.has("summary") ? markdownReport(diff, paths: (paths[0], paths[1])) : ""
        switch format {
        case "json":
            let json = jsonReport(diff, paths: (paths[0], paths[1]), failOn: failOn.rawValue, failed: failed)
            environment.writeOutput(json.jsonText([.prettyPrinted]) + "\n")
        case "markdown": environment.writeOutput(markdown)
        case "github": environment.writeOutput(GitHubAnnotations.render(report))
        case "junit": environment.writeOutput(JUnitReport.render(report))
        case "sarif": environment.writeOutput(SARIFReport.render(report))
        default: environment.writeOutput(textReport(diff, paths: (paths[0], paths[1])))
        }
        if arguments.has("summary"), !CheckCommand.appendSummary(markdown, in: environment) {
            return ExitStatus.usage
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }

    static func title(_ changeClass: ChangeClass) -> String {
        switch changeClass {
        case .breaking: "Breaking"
        case .notable: "Notable"
        case .info: "Info"
        }
    }

    static func summary(_ diff: SnapshotDiff) -> String {
        ChangeClass.allCases.map { "\(diff.count($0)) \($0.rawValue)" }.joined(separator: ", ")
    }

    static func moveText(_ move: Rebucketing.Move) -> String {
        let ranges = move.ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        let ids = "\(JSONValue.quoted(move.from)) → \(JSONValue.quoted(move.to))"
        return "\(ids): \(move.buckets) buckets (\(ranges.joined(separator: ", ")))"
    }

    static func rebucketingText(_ item: Rebucketing) -> String {
        "experiment \(JSONValue.quoted(item.experimentId)): \(item) (\(item.movedBuckets) of \(Bucketing.bucketCount) buckets)"
    }

    // MARK: Text

    /// A key as typed, or as a JSON string when it has characters a terminal would act on.
    static func display(_ key: String?) -> String {
        guard let key else { return "(file)" }
        let plain = !key.isEmpty && !key.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "\"" || $0 == "\\" }
        return plain ? key : JSONValue.quoted(key)
    }

    static func textReport(_ diff: SnapshotDiff, paths: (old: String, new: String)) -> String {
        var output = ""
        for (label, path, snapshot) in [("old", paths.old, diff.old), ("new", paths.new, diff.new)] {
            var line = "\(label): \(path): \(snapshot.verdict)"
            if let rejection = snapshot.rejection { line += ": \(rejection)" }
            if let date = snapshot.generatedAtDate { line += " (generated \(date))" }
            output += VisibleText.forTerminal(line) + "\n"
        }
        if diff.changes.isEmpty {
            output += "\nNo changes.\n"
        }
        for changeClass in ChangeClass.allCases {
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { continue }
            output += "\n\(title(changeClass)) (\(changes.count))\n"
            for change in changes {
                output += VisibleText.forTerminal("  - \(display(change.placementKey)) [\(change.kind.rawValue)] \(change.message)") + "\n"
                if change.oldValue != nil || change.newValue != nil {
                    output += VisibleText.forTerminal("      \(change.oldValue ?? "(none)") → \(change.newValue ?? "(none)")") + "\n"
                }
            }
        }
        if !diff.rebucketing.isEmpty {
            output += "\nRe-bucketing\n"
            for item in diff.rebucketing {
                output += VisibleText.forTerminal("  - \(display(item.placementKey)): \(rebucketingText(item))") + "\n"
                for move in item.moves { output += VisibleText.forTerminal("      \(moveText(move))") + "\n" }
            }
        }
        output += "\n\(summary(diff))\n"
        return output
    }

    // MARK: JSON

    static func jsonReport(_ diff: SnapshotDiff, paths: (old: String, new: String), failOn: String, failed: Bool) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? nil }
        func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        func location(_ location: FallbackFile.Location?) -> JSONValue {
            guard let location else { return nil }
            return .object([
                .init("pointer", .string(location.pointer)), .init("line", integer(location.line)),
                .init("column", integer(location.column)),
            ])
        }
        func snapshot(_ path: String, _ snapshot: SnapshotDiff.Snapshot) -> JSONValue {
            .object([
                .init("path", .string(path)), .init("verdict", .string(snapshot.verdict)), .init("rejected", .bool(snapshot.isRejected)),
                .init("rejection", text(snapshot.rejection)),
                .init("generatedAt", snapshot.generatedAt.map { .number(JSONNumber(text: String($0))) } ?? nil),
                .init("generatedAtDate", text(snapshot.generatedAtDate)), .init("projectId", text(snapshot.projectId)),
                .init("entries", integer(snapshot.entryCount)), .init("loaded", integer(snapshot.loadedCount)),
            ])
        }
        let changes: [JSONValue] = diff.changes.map { change in
            .object([
                .init("class", .string(change.changeClass.rawValue)), .init("kind", .string(change.kind.rawValue)),
                .init("placement", text(change.placementKey)), .init("variant", text(change.variantId)),
                .init("funnel", text(change.funnelId)), .init("page", text(change.pageId)), .init("paywall", text(change.paywallId)),
                .init("field", text(change.field)), .init("message", .string(change.message)), .init("old", text(change.oldValue)),
                .init("new", text(change.newValue)), .init("pointer", text(change.pointer)),
                .init("oldLocation", location(change.oldLocation)), .init("newLocation", location(change.newLocation)),
            ])
        }
        let shares = { (shares: [Rebucketing.Share]) -> JSONValue in
            .array(
                shares.map { share in
                    .object([
                        .init("variant", .string(share.variantId)), .init("weight", .number(JSONNumber(share.weight))),
                        .init("buckets", integer(share.buckets)),
                    ])
                })
        }
        let rebucketing: [JSONValue] = diff.rebucketing.map { item in
            .object([
                .init("placement", .string(item.placementKey)), .init("experiment", .string(item.experimentId)),
                .init("experimentKey", .string(item.experimentKey)), .init("movedBuckets", integer(item.movedBuckets)),
                .init("movedShare", .number(JSONNumber(item.movedShare))), .init("movedPercent", .string(item.movedPercent)),
                .init("split", .string(item.splitText)), .init("oldVariants", shares(item.old)), .init("newVariants", shares(item.new)),
                .init(
                    "moves",
                    .array(
                        item.moves.map { move in
                            .object([
                                .init("from", .string(move.from)), .init("to", .string(move.to)), .init("buckets", integer(move.buckets)),
                                .init("ranges", .array(move.ranges.map { [integer($0.lowerBound), integer($0.upperBound)] })),
                            ])
                        })),
            ])
        }
        return .object([
            .init("old", snapshot(paths.old, diff.old)), .init("new", snapshot(paths.new, diff.new)),
            .init("changes", .array(changes)), .init("rebucketing", .array(rebucketing)),
            .init(
                "summary",
                .object([
                    .init("breaking", integer(diff.count(.breaking))), .init("notable", integer(diff.count(.notable))),
                    .init("info", integer(diff.count(.info))), .init("failOn", .string(failOn)), .init("failed", .bool(failed)),
                ])),
        ])
    }

    // MARK: Markdown

    /// `text` as literal Markdown inline content, safe in a table cell (the reports' escaping).
    static func markdownEscaped(_ text: String) -> String {
        MarkdownEscaping.inline(text)
    }

    /// The markdown report of a diff that could not run: which paths could not be read, and why.
    static func unreadableMarkdown(_ unreadable: [(path: String, reason: String)]) -> String {
        var lines = ["## Fallback snapshot diff", "", "**❌ Nothing was compared:**", ""]
        lines += unreadable.map { "- cannot read \(markdownEscaped($0.path)): \(markdownEscaped($0.reason))" }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdownReport(_ diff: SnapshotDiff, paths: (old: String, new: String)) -> String {
        let escape = markdownEscaped
        var lines = ["## Fallback snapshot diff", ""]
        lines.append(
            ChangeClass.allCases.map { changeClass in
                let text = "\(title(changeClass)): \(diff.count(changeClass))"
                return changeClass == .breaking && diff.count(.breaking) > 0 ? "**\(text)**" : text
            }.joined(separator: " · "))
        lines += ["", "| | snapshot | loader | generated |", "| --- | --- | --- | --- |"]
        for (label, path, snapshot) in [("old", paths.old, diff.old), ("new", paths.new, diff.new)] {
            let verdict = snapshot.rejection.map { "\(snapshot.verdict): \($0)" } ?? snapshot.verdict
            lines.append("| \(label) | \(escape(path)) | \(escape(verdict)) | \(escape(snapshot.generatedAtDate ?? "")) |")
        }
        if diff.changes.isEmpty {
            lines += ["", "No changes."]
        }
        for changeClass in ChangeClass.allCases {
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { continue }
            let heading = "\(title(changeClass)) (\(changes.count))"
            lines.append("")
            if changeClass == .info {
                lines += ["<details>", "<summary>\(heading)</summary>", ""]
            } else {
                lines += ["### \(heading)", ""]
            }
            lines += ["| placement | kind | change | old | new |", "| --- | --- | --- | --- | --- |"]
            for change in changes.prefix(markdownRowLimit) {
                let cells = [
                    change.placementKey.map(escape) ?? "*file*", change.kind.rawValue, escape(change.message),
                    escape(change.oldValue ?? ""),
                    escape(change.newValue ?? ""),
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            if changes.count > markdownRowLimit {
                lines += [
                    "",
                    "\(changes.count - markdownRowLimit) more \(changeClass.rawValue) changes not shown; `--format json` lists them all.",
                ]
            }
            if changeClass == .info {
                lines += ["", "</details>"]
            }
        }
        if !diff.rebucketing.isEmpty {
            lines += ["", "### Re-bucketing", "", "| placement | experiment | split | moved | moves |", "| --- | --- | --- | --- | --- |"]
            for item in diff.rebucketing {
                let moved = "\(item.movedBuckets) of \(Bucketing.bucketCount) buckets (\(item.movedPercent) of subscribers)"
                let moves = item.moves.map(moveText).joined(separator: "; ")
                let cells = [item.placementKey, item.experimentId, item.splitText, moved, moves].map(escape)
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
