import FallbackAudit
import FallbackHistory

extension CheckReport {
    /// A timeline as the CI writers read it: one subject, the history, with each history finding
    /// located in the snapshot it is about, at that snapshot's `SnapshotStamp.location` (the file
    /// in the repository an annotation points at). A snapshot the SDK rejects is a `file-rejected`
    /// finding, which fails the run at every threshold.
    public init(history timeline: Timeline, failOn: FailureThreshold, tool: ReportTool) {
        let findings = timeline.findings.map(\.finding)
        let locations = timeline.findings.map { item in
            Location(path: item.snapshot.location, line: item.finding.line, column: item.finding.column)
        }
        let subject = File(
            path: "history of \(timeline.snapshots.count) snapshots", status: .loaded(verdict: Self.verdict(timeline)),
            findings: findings, locations: locations, placementKeys: timeline.placements.map(\.key))
        self.init(title: "fallback-site history", tool: tool, files: [subject], rules: Self.historyRules, failOn: failOn)
        subjectNoun = "history"
    }

    /// The rules a history report describes: `file-rejected` and the history checks.
    static let historyRules = ([Rule.fileRejected] + Rule.all.filter { $0.category == .history }).map(ReportRule.init)

    /// What the SDK makes of the series: `every snapshot loads`, or `1 of 3 snapshots is rejected`.
    /// The findings' counts are not repeated here: every writer shows them beside it.
    static func verdict(_ timeline: Timeline) -> String {
        let total = timeline.snapshots.count
        let rejected = timeline.snapshots.count { $0.rejection != nil }
        if rejected == 0 { return total == 1 ? "the snapshot loads" : "every snapshot loads" }
        let noun = total == 1 ? "snapshot" : "snapshots"
        return "\(rejected) of \(total) \(noun) \(rejected == 1 ? "is" : "are") rejected"
    }
}
