/// The formats a `check`, `diff` or `history` report is written in.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// Lines for a terminal or a CI log, every hidden character spelled out (`VisibleText`);
    /// errors and warnings listed, infos counted unless the `TextStyle` lists them.
    case text
    /// One pretty-printed JSON document; `README.md` and `docs/diff.md` give each report's shape.
    case json
    /// GitHub-Flavored Markdown, for a pull-request comment or a job summary (`MarkdownReport`).
    case markdown
    /// GitHub Actions workflow commands, one annotation per finding (`GitHubAnnotations`).
    case github
    /// JUnit XML (`JUnitReport`).
    case junit
    /// SARIF 2.1.0 (`SARIFReport`).
    case sarif
}

/// A report that can be written in every `ReportFormat`: text and JSON of its own, and the CI
/// formats from the `CheckReport` it gathers.
///
/// ```swift
/// let report = DiffReport(diff: diff, oldPath: "a.json", newPath: "b.json", failOn: .breaking, tool: tool)
/// print(report.rendered(as: .markdown), terminator: "")
/// ```
public protocol FormattedReport: Sendable {
    /// The report as the CI writers (`MarkdownReport`, `GitHubAnnotations`, `JUnitReport`,
    /// `SARIFReport`) read it.
    var ciReport: CheckReport { get }
    /// The report for a terminal or a CI log, listing and colouring as `style` says.
    func text(_ style: TextStyle) -> String
    /// The report as one JSON document with a final line break.
    func json() -> String
    /// The Markdown report: `MarkdownReport` of `ciReport` unless the report has its own.
    func markdown() -> String
    /// True when the run fails: a finding or change reaches the threshold, or a file is rejected
    /// or unreadable.
    var fails: Bool { get }
}

extension FormattedReport {
    public func markdown() -> String { MarkdownReport.render(ciReport) }

    public var fails: Bool { ciReport.fails }

    /// The whole report in `format`, as a command writes it to standard output. `style` applies
    /// to `text` only: every other format lists every finding, without colour.
    public func rendered(as format: ReportFormat, style: TextStyle = TextStyle()) -> String {
        switch format {
        case .text: text(style)
        case .json: json()
        case .markdown: markdown()
        case .github: GitHubAnnotations.render(ciReport)
        case .junit: JUnitReport.render(ciReport)
        case .sarif: SARIFReport.render(ciReport)
        }
    }
}
