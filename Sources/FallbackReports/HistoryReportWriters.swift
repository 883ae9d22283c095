import FallbackAudit
import FallbackHistory
import RovenueFallback

/// A series of snapshots folded into a timeline, with the history findings, written in every
/// `ReportFormat`.
public struct HistoryReport: FormattedReport {
    public let timeline: Timeline
    public let failOn: FailureThreshold
    public let ciReport: CheckReport

    /// Findings are located at each snapshot's `SnapshotStamp.location`: the path as given, a
    /// folder's snapshots under the folder, every committed version at the path it was committed as.
    public init(timeline: Timeline, failOn: FailureThreshold, tool: ReportTool) {
        self.timeline = timeline
        self.failOn = failOn
        ciReport = CheckReport(history: timeline, failOn: failOn, tool: tool)
    }

    /// When a snapshot was generated, as the text report shows it.
    static func date(_ stamp: SnapshotStamp) -> String {
        stamp.generatedAt.map(EpochMilliseconds.isoDate) ?? "no generatedAt"
    }

    /// Each snapshot with what changed, then the history findings (`FindingListText`) and their
    /// count, with how to list the infos the style leaves out.
    public func text(_ style: TextStyle) -> String {
        var output = ""
        for record in timeline.snapshots {
            let commit = record.stamp.commit.map { " \($0.shortHash) \(VisibleText.forTerminal($0.subject))" } ?? ""
            output += "\(style.paint(record.stamp.name, .location)) (\(Self.date(record.stamp))\(commit)): \(record.countsSummary)\n"
            output += "    \(VisibleText.forTerminal(record.changes.summary))\n"
        }
        let subject = ciReport.files[0]
        let list = FindingListText(
            timeline.findings.map { item in
                .init(path: Self.findingPath(item.snapshot), finding: item.finding, fails: subject.isFailure(item.finding, at: failOn))
            },
            style: style)
        output += list.text
        let counts = style.counts(SeverityCounts(timeline.findings.map(\.finding)), hiddenInfos: list.hiddenInfos, hint: true)
        output += "\(timeline.snapshots.count) \(timeline.snapshots.count == 1 ? "snapshot" : "snapshots"); \(counts.isEmpty ? "no findings" : counts)\n"
        return output
    }

    /// Where the text report says a finding is: the snapshot's location, and for a git history
    /// the commit too (`abc1234:path`, its name), since the file at that path has moved on.
    static func findingPath(_ stamp: SnapshotStamp) -> String {
        stamp.commit == nil ? stamp.location : stamp.name
    }

    /// `json()` is written as it is made, a placement or a finding at a time; the other formats
    /// as every report writes them.
    public func write(as format: ReportFormat, style: TextStyle, to sink: ReportSink) {
        guard format == .json else { return writeReport(as: format, style: style, to: sink) }
        writeJSON(to: sink)
    }

    public func json() -> String {
        let sink = ReportSink.collecting()
        writeJSON(to: sink)
        return sink.text()
    }

    /// `jsonValue`'s text, written one member at a time: each placement's and each finding's
    /// object is made, written and let go, so the report never holds the whole tree or its text (a
    /// history of a million keys made a 700 MB document from a tree of several gigabytes).
    private func writeJSON(to sink: ReportSink) {
        var writer = PrettyJSONWriter(output: sink)
        writer.beginObject()
        writer.key("snapshots")
        writer.beginArray()
        for record in timeline.snapshots { writer.value(Self.json(record)) }
        writer.end()
        writer.key("placements")
        writer.beginArray()
        for history in timeline.placements { writer.value(Self.json(history)) }
        writer.end()
        writer.key("findings")
        writer.beginArray()
        for item in timeline.findings { writer.value(Self.json(item)) }
        writer.end()
        for (name, value) in trailingJSONMembers {
            writer.key(text: name)
            writer.value(value)
        }
        writer.end()
        writer.finish()
    }

    /// The snapshots, each placement's revisions, the findings, their counts and the verdict.
    public var jsonValue: JSONValue {
        .object(
            [
                .init("snapshots", .array(timeline.snapshots.map(Self.json))), .init("placements", .array(timeline.placements.map(Self.json))),
                .init("findings", .array(timeline.findings.map(Self.json))),
            ] + trailingJSONMembers.map { .init($0.name, $0.value) })
    }

    /// The members after the findings: `unreadable`, `summary`, `failOn` and `fails`.
    private var trailingJSONMembers: [(name: String, value: JSONValue)] {
        [
            ("unreadable", []), ("summary", Self.json(SeverityCounts(timeline.findings.map(\.finding)))), ("failOn", .string(failOn.rawValue)),
            ("fails", .bool(fails)),
        ]
    }

    private static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    private static func json(_ counts: SeverityCounts) -> JSONValue {
        .object([.init("errors", integer(counts.errors)), .init("warnings", integer(counts.warnings)), .init("infos", integer(counts.infos))])
    }

    private static func json(_ record: SnapshotRecord) -> JSONValue {
        let stamp = record.stamp
        let snapshot: JSONValue = .object([
            .init("name", .string(stamp.name)), .init("path", .string(stamp.location)),
            .init(TopLevelField.generatedAt, stamp.generatedAt.map { .number(JSONNumber(text: String($0))) } ?? nil),
            .init("commit", stamp.commit.map { .object([.init("hash", .string($0.hash)), .init("date", .string($0.authorDate)), .init("subject", .string($0.subject))]) } ?? nil),
        ])
        return .object([
            .init("snapshot", snapshot), .init(TopLevelField.projectId, record.projectId.map { .string($0) } ?? nil),
            .init("rejected", .bool(record.rejection != nil)), .init("entries", integer(record.entryCount)),
            .init("loaded", integer(record.loadedCount)), .init("skipped", integer(record.skippedCount)),
            .init("findings", json(record.findingCounts)), .init("changes", .string(record.changes.summary)),
        ])
    }

    /// A placement's revisions. A revision names its first snapshot by its place in `snapshots`,
    /// its name, time and commit hash: the path and the commit's subject are in `snapshots` once,
    /// not copied into each of thousands of revisions (a 1 MB subject once made a gigabyte of JSON).
    private static func json(_ history: PlacementHistory) -> JSONValue {
        func seen(_ stamp: SnapshotStamp) -> JSONValue {
            .object([
                .init("index", integer(stamp.index)), .init("name", .string(stamp.name)),
                .init(TopLevelField.generatedAt, stamp.generatedAt.map { .number(JSONNumber(text: String($0))) } ?? nil),
                .init("commit", stamp.commit.map { .object([.init("hash", .string($0.hash)), .init("date", .string($0.authorDate))]) } ?? nil),
            ])
        }
        return .object([
            .init("key", .string(history.key)),
            .init("revisions", .array(history.revisions.map { revision in
                .object([
                    .init(Placement.Field.revision, revision.revisionText.map { .string($0) } ?? nil), .init("firstSeen", seen(revision.firstSeen)),
                    .init("removed", .bool(revision.isRemoved)), .init("summary", .string(revision.summary)),
                ])
            })),
        ])
    }

    private static func json(_ item: HistoryFinding) -> JSONValue {
        .object([
            .init("rule", .string(item.finding.ruleId.rawValue)), .init("severity", .string(item.finding.severity.rawValue)),
            .init("message", .string(item.finding.message)), .init("placement", RepeatedText.shortened(item.finding.placementKey).map { .string($0) } ?? nil),
            .init("snapshot", .string(item.snapshot.name)), .init("path", .string(item.snapshot.location)),
            .init("pointer", .string(RepeatedText.shortened(pointer: item.finding.jsonPointer))),
            .init("line", integer(item.finding.line)), .init("column", integer(item.finding.column)),
        ])
    }
}

/// A history that could not be folded because a snapshot could not be read: a timeline needs every
/// snapshot in order, so nothing is folded and the report is the `file-unreadable` error alone,
/// written as `check` writes an unreadable file in every format, so it never reads as clean.
public struct UnreadableHistoryReport: FormattedReport {
    public let path: String
    public let reason: String
    public let failOn: FailureThreshold
    public let ciReport: CheckReport

    public init(path: String, reason: String, failOn: FailureThreshold, tool: ReportTool) {
        self.path = path
        self.reason = reason
        self.failOn = failOn
        ciReport = CheckReport(
            title: "fallback-site history", tool: tool, files: [CheckReport.File(path: path, unreadable: reason)],
            rules: CheckReport.historyRules + [.fileUnreadable], failOn: failOn)
    }

    /// `PATH: error: [file-unreadable] cannot read PATH: REASON`, then `Nothing was folded (1 error)`.
    public func text(_ style: TextStyle) -> String {
        CheckedFilesReport.unreadableLine(path: path, reason: reason, style: style)
            + "Nothing was folded\(style.tally(ciReport.counts, hiddenInfos: 0, hint: false))\n"
    }

    public func json() -> String {
        jsonValue.jsonText([.prettyPrinted]) + "\n"
    }

    /// The keys of a history's JSON, with no snapshots, placements or findings, and the unreadable
    /// snapshot as `check` writes an unreadable file, counted as an error.
    public var jsonValue: JSONValue {
        func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
        let counts = ciReport.counts
        let message = CheckedFilesReport.unreadableMessage(path: path, reason: reason)
        return .object([
            .init("snapshots", []), .init("placements", []), .init("findings", []),
            .init("unreadable", .array([.object([
                .init("path", .string(path)), .init("readable", false),
                .init("fatal", CheckedFilesReport.unreadableFatal(path: path, reason: reason)), .init("verdict", .string(message)),
            ])])),
            .init("summary", .object([
                .init("errors", integer(counts.errors)), .init("warnings", integer(counts.warnings)), .init("infos", integer(counts.infos)),
            ])),
            .init("failOn", .string(failOn.rawValue)), .init("fails", true),
        ])
    }

    public var fails: Bool { true }
}
