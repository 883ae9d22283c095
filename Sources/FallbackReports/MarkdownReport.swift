import FallbackAudit

/// A report as GitHub-Flavored Markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`.
///
/// A verdict line per file, then per file a table of findings for each severity (rule, placement,
/// `file:line:column`, message), sections longer than `collapsedRowCount` rows folded in
/// `<details>`. The whole report stays within a byte limit: when the findings do not fit, the most
/// severe are kept and the report says how many of each severity were cut.
public enum MarkdownReport {
    /// GitHub's limit on a step's summary: 1 MiB.
    public static let gitHubSummaryLimit = 1_048_576
    /// The default size limit: under GitHub's, with room for other output of the same step.
    public static let defaultByteLimit = 1_000_000
    /// Sections with more rows than this are collapsed.
    public static let collapsedRowCount = 10

    static let messageLimit = 2_000
    static let keyLimit = 200
    static let pathLimit = 300
    /// Bytes kept free for the closing notice.
    static let reserve = 1_024
    /// An upper bound on a section's bytes besides its rows: heading or `<details>`, table head, cut note.
    static let sectionOverhead = 400

    /// `report` as Markdown of at most `byteLimit` UTF-8 bytes (or its header alone, if that is longer).
    public static func render(_ report: CheckReport, byteLimit: Int = defaultByteLimit) -> String {
        var output = header(report)
        let budget = byteLimit - reserve
        var used = output.utf8.count

        var listedFiles = 0
        for file in report.files {
            let line = verdictLine(file, failOn: report.failOn)
            guard used + line.utf8.count <= budget else { break }
            output += line
            used += line.utf8.count
            listedFiles += 1
        }
        output += "\n"
        used += 1

        // Rows are chosen most severe first across all files; the first that does not fit ends the choice,
        // so each section shows a prefix of its findings.
        let headings = report.files.prefix(listedFiles).map { fileHeading($0, failOn: report.failOn) }
        var shown = Array(repeating: [Severity: [String]](), count: listedFiles)
        choosing: for severity in Severity.allCases.sorted(by: >) {
            for (index, file) in report.files.prefix(listedFiles).enumerated() {
                for (findingIndex, finding) in file.findings.enumerated() where finding.severity == severity {
                    let row = self.row(finding, at: file.location(ofFindingAt: findingIndex), report: report)
                    var cost = row.utf8.count
                    if shown[index].isEmpty { cost += headings[index].utf8.count }
                    if shown[index][severity] == nil { cost += sectionOverhead }
                    guard used + cost <= budget else { break choosing }
                    used += cost
                    shown[index][severity, default: []].append(row)
                }
            }
        }

        for (index, file) in report.files.prefix(listedFiles).enumerated() where !shown[index].isEmpty {
            output += headings[index]
            let counts = SeverityCounts(file.findings)
            for severity in Severity.allCases.sorted(by: >) {
                guard let rows = shown[index][severity] else { continue }
                output += section(severity, total: counts[severity], rows: rows)
            }
        }

        let cut = omitted(report, listedFiles: listedFiles, shown: shown)
        if cut.files > 0 || cut.findings.total > 0 {
            output += cutNotice(cut, title: report.title)
        }
        return output
    }

    // MARK: Parts

    static func header(_ report: CheckReport) -> String {
        let failing = report.files.count { $0.fails(at: report.failOn) }
        let files = report.files.count
        let status = if let noun = report.subjectNoun {
            failing > 0 ? "❌ The \(noun) fails" : "✅ The \(noun) passes"
        } else if failing > 0 {
            "❌ \(failing) of \(files) \(files == 1 ? "file fails" : "files fail")"
        } else {
            "✅ \(files == 1 ? "The file passes" : "All \(files) files pass")"
        }
        return "## \(MarkdownEscaping.inline(report.title))\n\n**\(status)** (fail-on: \(report.failOn.rawValue)) · "
            + "\(report.counts.description)\n\n"
    }

    static func icon(_ file: CheckReport.File, failOn: FailureThreshold) -> String {
        if file.fails(at: failOn) { return "❌" }
        return file.findings.isEmpty ? "✅" : "⚠️"
    }

    static func path(_ file: CheckReport.File) -> String {
        MarkdownEscaping.code(MarkdownEscaping.truncated(file.path, to: pathLimit))
    }

    static func verdictLine(_ file: CheckReport.File, failOn: FailureThreshold) -> String {
        let verdict: String
        switch file.status {
        case .loaded(let text), .rejected(let text):
            verdict = MarkdownEscaping.inline(MarkdownEscaping.truncated(text, to: messageLimit))
                + " (\(SeverityCounts(file.findings).description))"
        case .unreadable(let reason):
            verdict = "**cannot read:** " + MarkdownEscaping.inline(MarkdownEscaping.truncated(reason, to: messageLimit))
                + "; nothing was checked (1 error: " + MarkdownEscaping.code(ReportRule.fileUnreadable.id.rawValue) + ")"
        }
        return "- \(icon(file, failOn: failOn)) \(path(file)): \(verdict)\n"
    }

    static func fileHeading(_ file: CheckReport.File, failOn: FailureThreshold) -> String {
        "### \(icon(file, failOn: failOn)) \(path(file))\n\n"
    }

    static let tableHead = "| Rule | Placement | Location | Message |\n| --- | --- | --- | --- |\n"

    static func row(_ finding: Finding, at place: CheckReport.Location?, report: CheckReport) -> String {
        let ruleCode = MarkdownEscaping.code(finding.ruleId.rawValue)
        let rule = report.tool.helpURL(for: report.rule(finding.ruleId)).map { "[\(ruleCode)](\(MarkdownEscaping.linkDestination($0)))" } ?? ruleCode
        let placement = finding.placementKey.map { MarkdownEscaping.code(MarkdownEscaping.truncated($0, to: keyLimit)) } ?? "—"
        let location = place.map { place in
            var shown = place
            shown.path = MarkdownEscaping.truncated(place.path, to: pathLimit)
            return MarkdownEscaping.code(shown.text)
        } ?? "—"
        let message = MarkdownEscaping.inline(MarkdownEscaping.truncated(finding.message, to: messageLimit))
        return "| \(rule) | \(placement) | \(location) | \(message) |\n"
    }

    static func sectionTitle(_ severity: Severity, total: Int) -> String {
        let name = severity.noun(count: 2)
        return "\(name.prefix(1).uppercased())\(name.dropFirst()) (\(total))"
    }

    static func section(_ severity: Severity, total: Int, rows: [String]) -> String {
        let title = sectionTitle(severity, total: total)
        let cutNote = rows.count < total
            ? "_\(total - rows.count) more \(severity.noun(count: total - rows.count)) not shown: the report is cut to fit "
                + "GitHub's 1 MiB limit._\n\n"
            : ""
        let table = tableHead + rows.joined() + "\n" + cutNote
        if rows.count > collapsedRowCount {
            return "<details><summary>\(title)</summary>\n\n\(table)</details>\n\n"
        }
        return "#### \(title)\n\n\(table)"
    }

    // MARK: Cut

    struct Omitted {
        var files = 0
        var findings = SeverityCounts()
    }

    static func omitted(_ report: CheckReport, listedFiles: Int, shown: [[Severity: [String]]]) -> Omitted {
        var cut = Omitted()
        for (index, file) in report.files.enumerated() {
            let counts = SeverityCounts(file.findings)
            for severity in Severity.allCases {
                let shownCount = index < listedFiles ? shown[index][severity]?.count ?? 0 : 0
                cut.findings.add(severity, count: counts[severity] - shownCount)
            }
            if index >= listedFiles { cut.files += 1 }
        }
        return cut
    }

    static func cutNotice(_ cut: Omitted, title: String) -> String {
        var parts: [String] = []
        if cut.findings.total > 0 {
            parts.append("\(cut.findings.total) \(cut.findings.total == 1 ? "finding" : "findings") not shown (\(cut.findings))")
        }
        if cut.files > 0 {
            parts.append("\(cut.files) \(cut.files == 1 ? "file" : "files") not listed")
        }
        return "---\n\n**Cut to stay under GitHub's 1 MiB summary limit:** \(parts.joined(separator: "; ")). "
            + "\(MarkdownEscaping.code(title + " --format text")) lists everything.\n"
    }
}
