import FallbackAudit
import FallbackHistory

extension CheckReport {
    /// A timeline as the CI writers read it: one subject, the series, with each history finding
    /// located in the snapshot it is about, at the file path `path` gives for that snapshot. A
    /// snapshot the SDK rejects is a `file-rejected` finding, which fails the run at every threshold.
    public init(
        history timeline: Timeline, failOn: FailureThreshold, tool: ReportTool, path: (SnapshotStamp) -> String = { $0.name }
    ) {
        let findings = timeline.findings.map(\.finding)
        let locations = timeline.findings.map { item in
            Location(path: path(item.snapshot), line: item.finding.line, column: item.finding.column)
        }
        let verdict = "\(timeline.snapshots.count) snapshots; \(SeverityCounts(findings))"
        let subject = File(
            path: "history of \(timeline.snapshots.count) snapshots", status: .loaded(verdict: verdict), findings: findings,
            locations: locations, placementKeys: timeline.placements.map(\.key))
        let rules = ([Rule.fileRejected] + Rule.all.filter { $0.category == .history }).map(ReportRule.init)
        self.init(title: "fallback-site history", tool: tool, files: [subject], rules: rules, failOn: failOn)
    }
}
