import FallbackAudit

/// One GitHub Actions workflow command: `::error file=a.json,line=3,col=7,title=…::message`.
public struct WorkflowCommand: Sendable, Hashable {
    /// One `name=value` property.
    public struct Property: Sendable, Hashable {
        public let name: String
        public let value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `error`, `warning`, `notice`, …
    public var command: String
    public var properties: [Property]
    public var message: String

    public init(_ command: String, properties: [Property] = [], message: String) {
        self.command = command
        self.properties = properties
        self.message = message
    }

    /// The command as one line (without its line feed), escaped as the runner unescapes it.
    public var line: String {
        let list = properties.map { "\($0.name)=\(Self.escapeProperty($0.value))" }.joined(separator: ",")
        return "::\(command)\(list.isEmpty ? "" : " " + list)::\(Self.escapeData(message))"
    }

    /// The message: `%`, carriage return and line feed percent-encoded, and every other hidden
    /// character spelled out (`VisibleText`): the runner's log shows the line, so an escape
    /// sequence or a bidi override in a key must not recolour or reorder it.
    public static func escapeData(_ text: String) -> String {
        escape(text, property: false)
    }

    /// A property value: as `escapeData`, and `:` and `,` too.
    public static func escapeProperty(_ text: String) -> String {
        escape(text, property: true)
    }

    /// True for the bytes the runner unescapes: `%`, carriage return, line feed, and in a
    /// property `:` and `,` (a switch, not a set: it runs on every byte of every annotation).
    private static func isSpecial(_ byte: UInt8, property: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "%"), 0x0D, 0x0A: true
        case UInt8(ascii: ":"), UInt8(ascii: ","): property
        default: false
        }
    }

    private static func escape(_ text: String, property: Bool) -> String {
        let text = VisibleText.forTerminal(text, keepingLineBreaks: true)
        guard text.utf8.contains(where: { isSpecial($0, property: property) }) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, isSpecial(UInt8(scalar.value), property: property) {
                output += "%" + MarkdownEscaping.hex(UInt8(scalar.value))
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

/// A report as GitHub Actions annotations: one workflow command per finding (`::error`, `::warning`,
/// `::notice`), most severe first, so GitHub's per-step cap on shown annotations keeps the errors.
///
/// A rejected file is an `::error` (`file-rejected`), an unreadable one an `::error` titled
/// `file-unreadable`; a clean run prints nothing. A finding without a location has no `file`,
/// `line` or `col`.
public enum GitHubAnnotations {
    static let titleKeyLimit = 100

    public static func render(_ report: CheckReport) -> String {
        let sink = ReportSink.collecting()
        write(report, to: sink)
        return sink.text()
    }

    /// The annotations, one line each, handed to `sink` as they are made.
    public static func write(_ report: CheckReport, to sink: ReportSink) {
        var output = ""
        func emit(_ command: WorkflowCommand) {
            output += command.line
            output += "\n"
            sink.handOn(ifFull: &output)
        }
        for file in report.files {
            if case .unreadable = file.status {
                emit(
                    WorkflowCommand(
                        "error", properties: [.init("file", file.path), .init("title", ReportRule.fileUnreadable.id.rawValue)],
                        message: file.verdict))
            }
        }
        for severity in Severity.allCases.sorted(by: >) {
            for file in report.files {
                for index in file.findings.indices where file.findings[index].severity == severity {
                    emit(command(for: file.findings[index], at: file.location(ofFindingAt: index)))
                }
            }
        }
        sink.write(output)
    }

    /// `error`, `warning` or `notice`.
    public static func command(for severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// The finding's annotation, on `location` when it has one.
    static func command(for finding: Finding, at location: CheckReport.Location?) -> WorkflowCommand {
        var title = finding.ruleId.rawValue
        if let key = finding.placementKey { title += " (\(MarkdownEscaping.truncated(key, to: titleKeyLimit)))" }
        var properties: [WorkflowCommand.Property] = []
        if let location {
            properties.append(.init("file", location.path))
            if let line = location.line { properties.append(.init("line", String(line))) }
            if let column = location.column { properties.append(.init("col", String(column))) }
        }
        properties.append(.init("title", title))
        return WorkflowCommand(command(for: finding.severity), properties: properties, message: finding.message)
    }
}
