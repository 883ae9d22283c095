import FallbackAudit
import RovenueFallback

/// What `check` found in the files it was given: each file as the SDK's loader reads it, with the
/// audit's findings, or why it could not be read; written in every `ReportFormat`.
public struct CheckedFilesReport: FormattedReport {
    /// One file's outcome: read, with its findings, or unreadable.
    public struct Input: Sendable {
        public let path: String
        /// What the loader made of the file; nil when it could not be read.
        public let loader: LoaderSummary?
        /// Why the file could not be read (`no such file`, …); nil when it was read.
        public let readError: String?
        /// The findings, ordered by position; a rejected file's include its `file-rejected` error.
        public let findings: [Finding]

        /// A file that was read; `checked` gives its findings as reports show them. Keeps only the
        /// loader's summary of `file`, not the file.
        public init(path: String, file: FallbackFile, checked: CheckReport.File) {
            self.init(path: path, loader: LoaderSummary(file), checked: checked)
        }

        /// A file that was read, by the loader's summary of it; `checked` gives its findings as
        /// reports show them.
        public init(path: String, loader: LoaderSummary, checked: CheckReport.File) {
            self.path = path
            self.loader = loader
            self.readError = nil
            self.findings = checked.findings
        }

        /// A file that could not be read, and why.
        public init(path: String, unreadable reason: String) {
            self.path = path
            self.loader = nil
            self.readError = reason
            self.findings = []
        }
    }

    /// What the SDK's loader made of one file, as the text and JSON reports show it: why it throws,
    /// the keys that load and the entries it skips with where and why. Small next to the file, so a
    /// report over many files keeps these and lets each file go once it is checked.
    public struct LoaderSummary: Sendable, Hashable {
        /// An entry the loader skips: its key, where its decoding failed and what it expected there.
        public struct SkippedEntry: Sendable, Hashable {
            public let key: String
            public let location: FallbackFile.Location
            public let expectation: String

            public init(key: String, location: FallbackFile.Location, expectation: String) {
                self.key = key
                self.location = location
                self.expectation = expectation
            }
        }

        /// Why the SDK throws on the file; nil when it loads.
        public let rejection: FallbackRejection?
        /// The loader's outcome in one line, with the SDK's message when it throws (`CheckedFilesReport.verdict(_:)`).
        public let verdict: String
        /// The keys of the entries that load, in file order.
        public let loadedKeys: [String]
        /// The entries the loader skips, in file order.
        public let skipped: [SkippedEntry]

        /// One entry as a summary keeps it: the key of an entry that loads, or where and why the
        /// loader skips one. Made from each record as it is decoded, so the record can go.
        public enum Entry: Sendable, Hashable {
            /// The entry decodes: the SDK loads it under `key`.
            case loaded(key: String)
            /// The entry fails to decode: the SDK skips it.
            case skipped(SkippedEntry)

            /// The summary of `record`, an entry of `topLevel`.
            public init(_ record: EntryRecord, in topLevel: FallbackTopLevel) {
                switch record.outcome {
                case .loaded: self = .loaded(key: record.key)
                case .skipped(let failure):
                    self = .skipped(SkippedEntry(key: record.key, location: topLevel.location(of: failure.source), expectation: failure.expectation))
                }
            }
        }

        /// The summary of `file`, computed once.
        public init(_ file: FallbackFile) {
            self.init(file.topLevel, entries: file.entries.map { Entry($0, in: file.topLevel) })
        }

        /// The summary of a file from its top level and the summary of each of its entries, in file
        /// order (as `Audit.check(_:summarizing:)` gives them).
        public init(_ topLevel: FallbackTopLevel, entries: [Entry]) {
            rejection = topLevel.rejection
            var loadedKeys: [String] = []
            var skipped: [SkippedEntry] = []
            for entry in entries {
                switch entry {
                case .loaded(let key): loadedKeys.append(key)
                case .skipped(let skippedEntry): skipped.append(skippedEntry)
                }
            }
            verdict = CheckedFilesReport.verdict(topLevel, loadedCount: loadedKeys.count, skippedCount: skipped.count)
            self.loadedKeys = loadedKeys
            self.skipped = skipped
        }
    }

    public let inputs: [Input]
    public let ciReport: CheckReport

    /// Checks each file of `files` (read, or the reason it could not be) with `audit`, one at a
    /// time: the report keeps each file's `LoaderSummary` and findings, not the file, so a lazy
    /// sequence (`paths.lazy.map { read($0) }`) keeps one file in memory however many there are.
    ///
    /// `title` and `tool` name the program in the CI formats, which list the rules `audit`'s
    /// configuration leaves on.
    public init<Files: Sequence>(
        files: Files, audit: Audit, failOn: FailureThreshold, title: String, tool: ReportTool
    ) where Files.Element == (path: String, outcome: Result<FallbackFile, UnreadableFile>) {
        self.init(
            checked: files.lazy.map { path, outcome in
                (path, outcome.map { file in
                    let report = CheckReport.File(path: path, file: file, findings: audit.findings(in: file))
                    return Checked(loader: LoaderSummary(file), report: report)
                })
            },
            audit: audit, failOn: failOn, title: title, tool: tool)
    }

    /// Checks each file of `files` as the initializer over whole files does, with the same report,
    /// but decodes and audits each file's entries a chunk at a time (`Audit.check(_:summarizing:)`):
    /// only the top level of one file and the entries in flight are alive, never the typed model
    /// of every entry. What `check` runs.
    public init<Files: Sequence>(
        topLevels files: Files, audit: Audit, failOn: FailureThreshold, title: String, tool: ReportTool
    ) where Files.Element == (path: String, outcome: Result<FallbackTopLevel, UnreadableFile>) {
        self.init(
            checked: files.lazy.map { path, outcome in
                (path, outcome.map { topLevel in
                    let (findings, entries) = audit.check(topLevel) { LoaderSummary.Entry($0, in: topLevel) }
                    let loader = LoaderSummary(topLevel, entries: entries)
                    let report = CheckReport.File(path: path, topLevel: topLevel, verdict: loader.verdict, findings: findings)
                    return Checked(loader: loader, report: report)
                })
            },
            audit: audit, failOn: failOn, title: title, tool: tool)
    }

    /// What the report keeps of a file it read.
    private struct Checked {
        let loader: LoaderSummary
        let report: CheckReport.File
    }

    private init<Files: Sequence>(
        checked files: Files, audit: Audit, failOn: FailureThreshold, title: String, tool: ReportTool
    ) where Files.Element == (String, Result<Checked, UnreadableFile>) {
        var inputs: [Input] = []
        var checked: [CheckReport.File] = []
        for (path, outcome) in files {
            switch outcome {
            case .success(let file):
                checked.append(file.report)
                inputs.append(Input(path: path, loader: file.loader, checked: file.report))
            case .failure(let unreadable):
                checked.append(CheckReport.File(path: path, unreadable: unreadable.reason))
                inputs.append(Input(path: path, unreadable: unreadable.reason))
            }
        }
        self.inputs = inputs
        ciReport = CheckReport(
            title: title, tool: tool, files: checked, rules: CheckReport.rules(enabledBy: audit.configuration), failOn: failOn)
    }

    // MARK: Text

    /// Lines for a terminal or a CI log, like a compiler's (`FindingListText`), then one verdict
    /// line per file and, for several files, their total. Infos the style does not list are counted
    /// on the verdict lines; the last line says how to list them. Every path and message is one
    /// line with its hidden characters spelled out (`VisibleText`), so no key or file name can
    /// colour, move or start a line. An unreadable file is one `file-unreadable` error, counted in
    /// the totals.
    public func text(_ style: TextStyle) -> String {
        let sink = ReportSink.collecting()
        writeText(style, to: sink)
        return sink.text()
    }

    /// `json()` and `text(_:)` are written as they are made, a file at a time (the text) or a
    /// chunk at a time (the JSON); the CI formats as every report writes them.
    public func write(as format: ReportFormat, style: TextStyle, to sink: ReportSink) {
        switch format {
        case .text: writeText(style, to: sink)
        case .json: writeJSON(to: sink)
        default: writeReport(as: format, style: style, to: sink)
        }
    }

    /// The text `text(_:)` returns, handed to `sink` after each file.
    private func writeText(_ style: TextStyle, to sink: ReportSink) {
        var output = ""
        var hiddenInfos = 0
        for (report, checked) in zip(inputs, ciReport.files) {
            guard let loader = report.loader else {
                output += Self.unreadableLine(path: report.path, reason: report.readError ?? "", style: style)
                continue
            }
            let list = FindingListText(
                report.findings.map { .init(path: report.path, finding: $0, fails: checked.isFailure($0, at: ciReport.failOn)) },
                style: style)
            hiddenInfos += list.hiddenInfos
            output += list.text
            output += "\(style.paint(report.path, .location)): \(VisibleText.forTerminal(loader.verdict))"
            // With one file its verdict is the last line, which says how to list what it leaves out.
            output += "\(style.tally(SeverityCounts(report.findings), hiddenInfos: list.hiddenInfos, hint: inputs.count == 1))\n"
            sink.handOn(ifFull: &output)
        }
        if inputs.count > 1 {
            output += "\(inputs.count) files\(style.tally(ciReport.counts, hiddenInfos: hiddenInfos, hint: true))\n"
        }
        sink.write(output)
    }

    /// `cannot read PATH: REASON`: what an unreadable file's error says in every format.
    static func unreadableMessage(_ input: Input) -> String {
        unreadableMessage(path: input.path, reason: input.readError ?? "")
    }

    /// `cannot read PATH: REASON`.
    static func unreadableMessage(path: String, reason: String) -> String {
        "cannot read \(path): \(reason)"
    }

    /// `PATH: error: [file-unreadable] cannot read PATH: REASON`: an unreadable file in every text
    /// report (`check`, `diff`, `history`), coloured as a finding is.
    static func unreadableLine(path: String, reason: String, style: TextStyle) -> String {
        let rule = ReportRule.fileUnreadable
        return "\(style.paint(path, .location)): \(style.paint(rule.severity)): [\(style.paint(rule.id.rawValue, .rule))] "
            + "\(VisibleText.forTerminal(unreadableMessage(path: path, reason: reason)))\n"
    }

    /// An unreadable file's `fatal` in every JSON report: the message, no position, and the
    /// `file-unreadable` rule with its summary and severity.
    static func unreadableFatal(path: String, reason: String) -> JSONValue {
        let rule = ReportRule.fileUnreadable
        return .object([
            .init("message", .string(unreadableMessage(path: path, reason: reason))), .init("line", nil), .init("column", nil),
            .init("rule", .string(rule.id.rawValue)), .init("summary", .string(rule.summary)),
            .init("severity", .string(rule.severity.rawValue)),
        ])
    }

    /// The loader's outcome in one line, with the SDK's message when it throws.
    public static func verdict(_ file: FallbackFile) -> String {
        verdict(file.topLevel, loadedCount: file.loadedCount, skippedCount: file.skippedCount)
    }

    /// The loader's outcome in one line for a file whose entries load and are skipped as counted.
    public static func verdict(_ topLevel: FallbackTopLevel, loadedCount: Int, skippedCount: Int) -> String {
        let verdict = topLevel.verdict(loadedCount: loadedCount, skippedCount: skippedCount)
        return topLevel.rejection.map { "\(verdict): \($0.message)" } ?? verdict
    }

    // MARK: JSON

    /// `jsonValue` as pretty-printed text, written straight into bytes (`PrettyJSONWriter`)
    /// without building the tree: the same text as `jsonValue.jsonText([.prettyPrinted]) + "\n"`.
    public func json() -> String {
        // Reserved generously: capacity never written costs no memory; a buffer that grows holds
        // its text twice while it is copied.
        let sink = ReportSink.collecting(
            reservingCapacity: inputs.reduce(4096) { $0 + 1024 + ($1.loader?.loadedKeys.count ?? 0) * 128 + $1.findings.count * 1024 })
        writeJSON(to: sink)
        return sink.text()
    }

    /// The text `json()` returns, handed to `sink` a chunk at a time as it is written.
    private func writeJSON(to sink: ReportSink) {
        var writer = PrettyJSONWriter(output: sink)
        writer.beginObject()
        writer.key("files")
        writer.beginArray()
        for report in inputs {
            writer.beginObject()
            writer.key("path")
            writer.string(report.path)
            guard let loader = report.loader else {
                writer.key("fatal")
                writer.value(Self.unreadableFatal(path: report.path, reason: report.readError ?? ""))
                writer.key("readable")
                writer.value(false)
                for name: StaticString in ["loaded", "skipped", "findings"] {
                    writer.key(name)
                    writer.beginArray()
                    writer.end()
                }
                writer.key("verdict")
                writer.string(Self.unreadableMessage(report))
                writer.end()
                continue
            }
            writer.key("fatal")
            if let rejection = loader.rejection {
                writer.beginObject()
                writer.pair("message", rejection.message)
                writer.pair("line", rejection.position.line)
                writer.pair("column", rejection.position.column)
                writer.pair("rule", rejection.rule.section)
                writer.pair("summary", rejection.rule.summary)
                writer.end()
            } else {
                writer.null()
            }
            writer.key("readable")
            writer.value(true)
            writer.key("loaded")
            writer.beginArray()
            writer.elements(loader.loadedKeys, estimatedBytes: { $0.utf8.count + 8 }) { writer, key in writer.string(key) }
            writer.end()
            writer.key("skipped")
            writer.beginArray()
            for entry in loader.skipped {
                writer.beginObject()
                writer.pair("key", entry.key)
                writer.pair("reason", "\(entry.location.pointer): \(entry.expectation)")
                writer.pair("pointer", entry.location.pointer)
                writer.pair("line", entry.location.line)
                writer.pair("column", entry.location.column)
                writer.end()
            }
            writer.end()
            writer.key("findings")
            writer.beginArray()
            // Thousands of findings, seven keys each: spelled once for their depth.
            let keys = writer.keysOfElementObjects(["rule", "severity", "message", "placement", "pointer", "line", "column"])
            // Each finding's fields read in place (`findings[index].…`), never the finding copied whole.
            let findings = report.findings
            let estimatedBytes = { (index: Int) in
                160 + findings[index].message.utf8.count + min(findings[index].placementKey?.utf8.count ?? 0, RepeatedText.wholeLimit)
                    + min(findings[index].jsonPointer.utf8Count, RepeatedText.wholePointerLimit)
            }
            writer.elements(count: findings.count, estimatedBytes: estimatedBytes) { writer, index in
                writer.beginObject()
                writer.key(0, of: keys)
                writer.string(findings[index].ruleId.rawValue)
                writer.key(1, of: keys)
                writer.string(findings[index].severity.rawValue)
                writer.key(2, of: keys)
                writer.string(findings[index].message)
                writer.key(3, of: keys)
                writer.string(orNull: RepeatedText.shortened(findings[index].placementKey))
                writer.key(4, of: keys)
                writer.string(RepeatedText.shortened(pointer: findings[index].jsonPointer))
                writer.key(5, of: keys)
                writer.integer(findings[index].line)
                writer.key(6, of: keys)
                writer.integer(findings[index].column)
                writer.end()
            }
            writer.end()
            writer.pair("verdict", loader.verdict)
            writer.end()
        }
        writer.end()
        let counts = ciReport.counts
        writer.key("summary")
        writer.beginObject()
        writer.pair("errors", counts.errors)
        writer.pair("warnings", counts.warnings)
        writer.pair("infos", counts.infos)
        writer.end()
        writer.end()
        writer.finish()
    }

    /// Per file: whether it was read, the loader's fatal error, loaded and skipped entries, and the
    /// findings; then a count of findings by severity. `json()` writes the same text without it.
    public var jsonValue: JSONValue {
        var files: [JSONValue] = []
        for report in inputs {
            guard let loader = report.loader else {
                files.append(.object([
                    .init("path", .string(report.path)),
                    .init("fatal", Self.unreadableFatal(path: report.path, reason: report.readError ?? "")),
                    .init("readable", false), .init("loaded", []), .init("skipped", []), .init("findings", []),
                    .init("verdict", .string(Self.unreadableMessage(report))),
                ]))
                continue
            }
            let fatal: JSONValue = loader.rejection.map { rejection in
                .object([
                    .init("message", .string(rejection.message)), .init("line", Self.integer(rejection.position.line)),
                    .init("column", Self.integer(rejection.position.column)), .init("rule", .string(rejection.rule.section)),
                    .init("summary", .string(rejection.rule.summary)),
                ])
            } ?? nil
            let skipped: [JSONValue] = loader.skipped.map { entry in
                .object([
                    .init("key", .string(entry.key)), .init("reason", .string("\(entry.location.pointer): \(entry.expectation)")),
                    .init("pointer", .string(entry.location.pointer)), .init("line", Self.integer(entry.location.line)),
                    .init("column", Self.integer(entry.location.column)),
                ])
            }
            files.append(.object([
                .init("path", .string(report.path)), .init("fatal", fatal), .init("readable", true),
                .init("loaded", .array(loader.loadedKeys.map(JSONValue.string))), .init("skipped", .array(skipped)),
                .init("findings", .array(report.findings.map(Self.json))), .init("verdict", .string(loader.verdict)),
            ]))
        }
        let counts = ciReport.counts
        return .object([
            .init("files", .array(files)),
            .init("summary", .object([
                .init("errors", Self.integer(counts.errors)), .init("warnings", Self.integer(counts.warnings)),
                .init("infos", Self.integer(counts.infos)),
            ])),
        ])
    }

    /// The keys of the entries that load, in file order: `loadedEntries`' keys, without copying
    /// each entry out of its record.
    static func loadedKeys(_ file: FallbackFile) -> [String] {
        file.entries.compactMap { record in
            if case .loaded = record.outcome { return record.key }
            return nil
        }
    }

    static func json(_ finding: Finding) -> JSONValue {
        .object([
            .init("rule", .string(finding.ruleId.rawValue)), .init("severity", .string(finding.severity.rawValue)),
            .init("message", .string(finding.message)),
            .init("placement", RepeatedText.shortened(finding.placementKey).map { .string($0) } ?? nil),
            .init("pointer", .string(RepeatedText.shortened(pointer: finding.jsonPointer))), .init("line", integer(finding.line)), .init("column", integer(finding.column)),
        ])
    }

    static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}

/// A file a report names that could not be read, and why (`no such file`, `permission denied`, …).
public struct UnreadableFile: Error, Sendable, Hashable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}
