import FallbackAudit
import RovenueFallback

/// A report as SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
///
/// One run: `tool.driver` names the tool and describes every rule that ran (id, summary, default
/// level, `helpUri` when the rules' documentation has an address); each finding is a result with
/// its rule, level (`error`, `warning`, `note`), message and `file:line:column` (no `locations` when
/// it has none). A rejected file is a `file-rejected` result; an unreadable file is an `error`
/// result of `file-unreadable`, a notification, and `executionSuccessful: false`.
public enum SARIFReport {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    public static let version = "2.1.0"

    /// `document(report)` as pretty-printed JSON text with a final line feed, written straight into
    /// bytes (`PrettyJSONWriter`): the text `jsonText([.prettyPrinted])` gives.
    public static func render(_ report: CheckReport) -> String {
        // Reserved generously: capacity never written costs no memory (see `CheckedFilesReport.json()`).
        let sink = ReportSink.collecting(reservingCapacity: report.files.reduce(8192) { $0 + 1024 + $1.findings.count * 2048 })
        write(report, to: sink)
        return sink.text()
    }

    /// The text `render(_:)` returns, handed to `sink` a chunk at a time: each result is written
    /// as it is made, so the log is never held whole, as text or as a tree.
    public static func write(_ report: CheckReport, to sink: ReportSink) {
        let run = Run(report)
        var writer = PrettyJSONWriter(output: sink)
        writer.beginObject()
        writer.pair("$schema", schema)
        writer.pair("version", version)
        writer.key("runs")
        writer.beginArray()
        writer.beginObject()
        writer.key("tool")
        writer.value(.object([.init("driver", .object(run.driver))]))
        writer.key("invocations")
        writer.value(.array([.object(run.invocation)]))
        writer.key("results")
        writer.beginArray()
        run.forEachResult { writer.value($0) }
        writer.end()
        writer.end()
        writer.end()
        writer.end()
        writer.finish()
    }

    /// The SARIF log as a JSON value.
    public static func document(_ report: CheckReport) -> JSONValue {
        let run = Run(report)
        var results: [JSONValue] = []
        results.reserveCapacity(report.files.reduce(0) { $0 + $1.findings.count + 1 })
        run.forEachResult { results.append($0) }
        return .object([
            .init("$schema", .string(schema)),
            .init("version", .string(version)),
            .init("runs", .array([
                .object([
                    .init("tool", .object([.init("driver", .object(run.driver))])),
                    .init("invocations", .array([.object(run.invocation)])),
                    .init("results", .array(results)),
                ])
            ])),
        ])
    }

    /// The log's one run: the driver with every rule that ran or was reported, the invocation,
    /// and its results in order, made one at a time (`forEachResult(_:)`).
    struct Run {
        let report: CheckReport
        let driver: [JSONValue.Member]
        let invocation: [JSONValue.Member]
        private let ruleIndex: [Rule.ID: Int]

        init(_ report: CheckReport) {
            self.report = report
            var rules = report.rules
            var listed = Set(rules.map(\.id))
            for file in report.files {
                for id in ruleIds(of: file) where !listed.contains(id) {
                    if let rule = report.rule(id) {
                        rules.append(rule)
                        listed.insert(id)
                    }
                }
            }
            ruleIndex = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

            var notifications: [JSONValue] = []
            for file in report.files where file.isUnreadable {
                notifications.append(.object([
                    .init("level", "error"), .init("message", .object([.init("text", .string(file.verdict))])),
                    .init("locations", .array([location(path: file.path, line: nil, column: nil)])),
                ]))
            }

            var driver: [JSONValue.Member] = [.init("name", .string(report.tool.name)), .init("version", .string(report.tool.version))]
            if let uri = report.tool.informationURI { driver.append(.init("informationUri", .string(uri))) }
            driver.append(.init("rules", .array(rules.map { descriptor($0, tool: report.tool) })))
            self.driver = driver

            var invocation: [JSONValue.Member] = [.init("executionSuccessful", .bool(notifications.isEmpty))]
            if !notifications.isEmpty { invocation.append(.init("toolExecutionNotifications", .array(notifications))) }
            self.invocation = invocation
        }

        /// Calls `body` with each result in order: per file, its unreadable error, then its findings.
        func forEachResult(_ body: (JSONValue) -> Void) {
            var uris = URICache()
            for file in report.files {
                if case .unreadable = file.status {
                    body(
                        result(
                            rule: ReportRule.fileUnreadable.id, index: ruleIndex[ReportRule.fileUnreadable.id], level: .error,
                            message: file.verdict, location: location(path: file.path, line: nil, column: nil), placement: nil))
                }
                for index in file.findings.indices {
                    let place = file.location(ofFindingAt: index)
                    let ruleId = file.findings[index].ruleId
                    body(
                        result(
                            rule: ruleId, index: ruleIndex[ruleId], level: file.findings[index].severity,
                            message: file.findings[index].message,
                            location: place.map { location(uri: uris.uri($0.path), line: $0.line, column: $0.column) },
                            placement: file.findings[index].placementKey,
                            pointer: RepeatedText.shortened(pointer: file.findings[index].jsonPointer)))
                }
            }
        }
    }

    /// `error`, `warning` or `note`.
    public static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    static func ruleIds(of file: CheckReport.File) -> [Rule.ID] {
        (file.isUnreadable ? [ReportRule.fileUnreadable.id] : []) + file.findings.map(\.ruleId)
    }

    static func descriptor(_ rule: ReportRule, tool: ReportTool) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("id", .string(rule.id.rawValue)),
            .init("shortDescription", .object([.init("text", .string(rule.summary))])),
            .init("defaultConfiguration", .object([.init("level", .string(level(rule.severity)))])),
        ]
        if let url = tool.helpURL(for: rule) { members.append(.init("helpUri", .string(url))) }
        members.append(.init("properties", .object([.init("tags", .array([.string(rule.category)]))])))
        return .object(members)
    }

    /// One result; without `locations` when it has no location.
    static func result(
        rule: Rule.ID, index: Int?, level severity: Severity, message: String, location: JSONValue?, placement: String?,
        pointer: String? = nil
    ) -> JSONValue {
        var members: [JSONValue.Member] = [.init("ruleId", .string(rule.rawValue))]
        if let index { members.append(.init("ruleIndex", .number(JSONNumber(index)))) }
        members += [
            .init("level", .string(level(severity))),
            .init("message", .object([.init("text", .string(message))])),
        ]
        if let location { members.append(.init("locations", .array([location]))) }
        var properties: [JSONValue.Member] = []
        if let placement { properties.append(.init("placement", .string(RepeatedText.shortened(placement)))) }
        if let pointer { properties.append(.init("pointer", .string(RepeatedText.shortened(pointer: pointer)))) }
        if !properties.isEmpty { members.append(.init("properties", .object(properties))) }
        return .object(members)
    }

    static func location(path: String, line: Int?, column: Int?) -> JSONValue {
        location(uri: uri(path), line: line, column: column)
    }

    /// Each path's URI, encoded once: a file's findings all name it.
    struct URICache {
        private var uris: [String: String] = [:]

        mutating func uri(_ path: String) -> String {
            if let known = uris[path] { return known }
            let encoded = SARIFReport.uri(path)
            uris[path] = encoded
            return encoded
        }
    }

    static func location(uri: String, line: Int?, column: Int?) -> JSONValue {
        var physical: [JSONValue.Member] = [.init("artifactLocation", .object([.init("uri", .string(uri))]))]
        if let line, let column, line >= 1, column >= 1 {
            physical.append(.init("region", .object([
                .init("startLine", .number(JSONNumber(line))), .init("startColumn", .number(JSONNumber(column))),
            ])))
        }
        return .object([.init("physicalLocation", .object(physical))])
    }

    /// A path as a URI reference: relative paths stay relative (code scanning resolves them against
    /// the repository), absolute ones become `file://` URIs; anything outside RFC 3986's unreserved
    /// characters and `/` is percent-encoded.
    public static func uri(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + MarkdownEscaping.hex(byte)
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
