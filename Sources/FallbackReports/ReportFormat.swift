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
    /// Writes the report in `format` to `sink` as it is made: the text `rendered(as:style:)`
    /// returns, without holding it whole when the sink hands it on in chunks. Unless the report
    /// has its own, `writeReport(as:style:to:)`.
    func write(as format: ReportFormat, style: TextStyle, to sink: ReportSink)
}

extension FormattedReport {
    public func markdown() -> String { MarkdownReport.render(ciReport) }

    public var fails: Bool { ciReport.fails }

    /// The whole report in `format`, as a command writes it to standard output. `style` applies
    /// to `text` only: every other format lists every finding, without colour.
    public func rendered(as format: ReportFormat, style: TextStyle = TextStyle()) -> String {
        let sink = ReportSink.collecting()
        write(as: format, style: style, to: sink)
        return sink.text()
    }

    public func write(as format: ReportFormat, style: TextStyle, to sink: ReportSink) {
        writeReport(as: format, style: style, to: sink)
    }

    /// `format` as every report writes it: its own `text(_:)`, `json()` and `markdown()` whole,
    /// and the CI writers (GitHub, JUnit, SARIF) in chunks as `sink` takes them.
    public func writeReport(as format: ReportFormat, style: TextStyle, to sink: ReportSink) {
        switch format {
        case .text: sink.write(text(style))
        case .json: sink.write(json())
        case .markdown: sink.write(markdown())
        case .github: GitHubAnnotations.write(ciReport, to: sink)
        case .junit: JUnitReport.write(ciReport, to: sink)
        case .sarif: SARIFReport.write(ciReport, to: sink)
        }
    }
}
