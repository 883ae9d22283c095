import FallbackAudit
import FallbackReports
import Testing

/// A report's totals: every finding of every file by severity, and each file that could not be read
/// as one `file-unreadable` error, so a failed read never reads as a clean result.
@Suite struct CheckReportCountsTests {
    private func finding(_ severity: Severity) -> Finding {
        Finding(ruleId: "remote-media", severity: severity, message: "m", placementKey: nil, pointer: "", line: 1, column: 1)
    }

    private func report(_ files: [CheckReport.File]) -> CheckReport {
        CheckReport(
            title: "fallback-site check", tool: ReportTool(name: "fallback-site", version: "0.1.0"), files: files,
            rules: CheckReport.rules(enabledBy: AuditConfiguration()), failOn: .error)
    }

    private func loaded(_ path: String, _ severities: [Severity]) -> CheckReport.File {
        CheckReport.File(
            path: path, status: .loaded(verdict: "the SDK loads 1 entry"), findings: severities.map(finding),
            placementKeys: ["key"])
    }

    @Test(arguments: [0, 1, 3])
    func unreadableFilesCountAsErrorsBesideTheFindings(unreadable: Int) {
        let files = [loaded("a.json", [.error, .warning, .info, .info]), loaded("b.json", [.warning])]
            + (0..<unreadable).map { CheckReport.File(path: "missing-\($0).json", unreadable: "no such file") }
        let counts = report(files).counts
        #expect(counts.errors == 1 + unreadable)
        #expect(counts.warnings == 2)
        #expect(counts.infos == 2)
    }

    @Test func anEmptyReportCountsNothing() {
        #expect(report([]).counts == SeverityCounts())
    }
}
