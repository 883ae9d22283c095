import FallbackAudit
import FallbackReports
import FallbackCLI
import Foundation
import FallbackMarkdown
import RovenueFallback
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

// MARK: Support

/// Runs `fallback-site` like `run`, with environment variables.
func run(_ arguments: [String], files: [String: String] = [:], variables: [String: String]) -> Run {
    let capture = Capture()
    let environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) },
        writeError: { capture.appendError($0) },
        readFile: { path in
            if let text = files[path] { return Array(text.utf8) }
            if let written = capture.file(path) { return written }
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        },
        writeFile: { path, bytes in capture.write(path, bytes) },
        now: { Date(timeIntervalSince1970: 1_790_000_000) },
        variables: variables)
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, written) = capture.snapshot
    return Run(status: status, output: output, error: error, written: written)
}

/// A snapshot whose placements serve nothing (one `serves-nothing` warning each), under `keys`.
func servesNothingSnapshot(keys: [String]) -> String {
    let entries = keys.map { key in
        let quoted = JSONValue.quoted(key)
        return #"\#(quoted):{"placement":{"identifier":\#(quoted),"revision":1}}"#
    }
    return #"{"formatVersion":1,"generatedAt":1760000000000,"projectId":"p","placements":{\#(entries.joined(separator: ","))}}"#
}

/// Keys and messages built to break tables, open tags and code spans, and smuggle commands.
let hostileTexts = [
    "a | b || c",
    "line one\nline two\r\nline three",
    "<script>alert(1)</script>",
    "`code` and ``more``",
    "</td></tr><tr><td>x",
    "**bold** _em_ [link](javascript:alert(1)) ![img](x.png)",
    "@octocat #1 <!-- comment -->",
    "back\\slash\\",
    "&lt;escaped&gt; &amp; &#60;",
    "https://evil.test/x www.evil.test",
    "100% done, 50:50\n::error::injected",
    "controls \u{1}\u{7F}\u{FFFE} end",
]

/// A report over synthetic findings, one per message, for the writers alone.
func syntheticReport(
    messages: [String], keys: [String]? = nil, path: String = "dir/a,b:c%.json",
    severity: (Int) -> Severity = { [.error, .warning, .info][$0 % 3] }
) -> CheckReport {
    let findings = messages.enumerated().map { index, message in
        Finding(
            ruleId: "serves-nothing", severity: severity(index), message: message,
            placementKey: keys?[index] ?? "key\(index)", pointer: "/placements/key\(index)", line: index + 1, column: 2)
    }
    let file = CheckReport.File(
        path: path, status: .loaded(verdict: "the SDK loads \(messages.count) entries"), findings: findings,
        placementKeys: keys ?? messages.indices.map { "key\($0)" })
    return CheckReport(
        title: "fallback-site check", tool: ReportTool(name: "fallback-site", version: "0.1.0"), files: [file],
        rules: CheckReport.rules(enabledBy: AuditConfiguration()), failOn: .error)
}

/// What the text of a rendered cell says, tags and entities undone.
func cellText(_ html: String) -> String {
    var text = html.replacingOccurrences(of: "<br>", with: "\n")
    for tag in ["<code>", "</code>"] { text = text.replacingOccurrences(of: tag, with: "") }
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
        text = text.replacingOccurrences(of: entity, with: character)
    }
    return text.replacingOccurrences(of: "\u{200B}", with: "")
}

/// What a text reads as in a rendered report: line breaks as line feeds, other C0 controls and DEL
/// as U+FFFD, the other hidden characters (bidi and C1 controls, noncharacters) spelled out.
func rendered(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
        if scalar == "\n" || scalar == "\r" {
            scalars.append("\n")
        } else if scalar.value < 0x20 || scalar.value == 0x7F {
            scalars.append("\u{FFFD}")
        } else if VisibleText.isHidden(scalar) {
            scalars.append(contentsOf: VisibleText.visibleName(of: scalar).unicodeScalars)
        } else {
            scalars.append(scalar)
        }
    }
    return String(scalars)
}

/// The body rows of every table in `html`, as their cells' inner HTML.
func tableRows(_ html: String) -> [[String]] {
    var rows: [[String]] = []
    for body in html.components(separatedBy: "<tbody>").dropFirst() {
        let tbody = body.components(separatedBy: "</tbody>")[0]
        for row in tbody.components(separatedBy: "<tr>").dropFirst() {
            let cells = row.components(separatedBy: "<td>").dropFirst().map { $0.components(separatedBy: "</td>")[0] }
            rows.append(Array(cells))
        }
    }
    return rows
}

/// Counts elements and keeps attributes, through Foundation's XML parser.
final class XMLSummary: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var attributes: [String: [[String: String]]] = [:]
    var error: Error?

    static func parse(_ text: String) -> XMLSummary {
        let summary = XMLSummary()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = summary
        if !parser.parse() { summary.error = parser.parserError ?? CocoaError(.featureUnsupported) }
        return summary
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        counts[elementName, default: 0] += 1
        attributes[elementName, default: []].append(attributeDict)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = parseError
    }
}

/// Undoes a workflow command's percent-encoding.
func unescapeWorkflow(_ text: String) -> String {
    var text = text
    for (code, character) in [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")] {
        text = text.replacingOccurrences(of: code, with: character)
    }
    return text
}

/// The command of a line that is a workflow command with GitHub's syntax, else nil.
func workflowCommand(_ line: Substring) -> Substring? {
    let pattern = /^::(error|warning|notice)( (file|line|col|endLine|endColumn|title)=[^,:\r\n]*(,(file|line|col|endLine|endColumn|title)=[^,:\r\n]*)*)?::[^\r\n]*$/
    return line.wholeMatch(of: pattern)?.1
}

let rejectedSnapshot = #"{"formatVersion":2,"placements":{}}"#

// MARK: Tests

@Suite("check --format: JSON")
struct JSONFormatTests {
    @Test func parsesWithFoundation() throws {
        let result = run(["check", "--format", "json", funnelEraPath, "bad.json"], files: ["bad.json": rejectedSnapshot])
        let report = try jsonObject(result.output)
        #expect((report["files"] as? [Any])?.count == 2)
    }
}

@Suite("check --format junit")
struct JUnitFormatTests {
    @Test func isWellFormedWithTheRightCounts() throws {
        let result = run(["check", "--format", "junit", funnelEraPath, "bad.json", "/nonexistent/x.json"], files: ["bad.json": rejectedSnapshot])
        #expect(result.status == 2)
        let xml = XMLSummary.parse(result.output)
        #expect(xml.error == nil, "\(String(describing: xml.error))")
        #expect(xml.counts["testsuites"] == 1)
        #expect(xml.counts["testsuite"] == 3)

        let rules = Rule.all.filter { $0.category != .history }
        let fileRules = rules.count { $0.category == .file }
        let placementRules = rules.count - fileRules
        // funnel-era: 6 placements; 3 errors in 3 different cases fail at --fail-on error.
        let suites = try #require(xml.attributes["testsuite"])
        #expect(suites[0]["tests"] == String(fileRules + 6 * placementRules))
        #expect(suites[0]["failures"] == "3")
        // The rejected file: file-rejected fails, the other file rules were not checked.
        #expect(suites[1]["tests"] == String(fileRules))
        #expect(suites[1]["failures"] == "1")
        #expect(suites[1]["skipped"] == String(fileRules - 1))
        // The unreadable file: one case in error.
        #expect(suites[2]["tests"] == "1")
        #expect(suites[2]["errors"] == "1")

        let totals = try #require(xml.attributes["testsuites"]?.first)
        #expect(totals["tests"] == String(xml.counts["testcase"] ?? -1))
        #expect(totals["failures"] == String(xml.counts["failure"] ?? -1))
        #expect(totals["errors"] == String(xml.counts["error"] ?? -1))
        #expect(totals["skipped"] == String(xml.counts["skipped"] ?? -1))

        let cases = try #require(xml.attributes["testcase"])
        #expect(cases.contains { $0["classname"] == funnelEraPath && $0["name"] == "trial_reminder/entry-skipped" })
        #expect(cases.contains { $0["classname"] == "bad.json" && $0["name"] == "file-rejected" })
        #expect(Set(cases.filter { $0["classname"] == funnelEraPath }.compactMap { $0["name"] }).count == fileRules + 6 * placementRules)
    }

    @Test func findingsBelowTheThresholdPass() throws {
        let xml = XMLSummary.parse(run(["check", "--format", "junit", "--fail-on", "never", funnelEraPath]).output)
        #expect(xml.error == nil)
        #expect(xml.counts["failure"] == nil)
        #expect((xml.counts["system-out"] ?? 0) > 0)
        let strict = XMLSummary.parse(run(["check", "--format", "junit", "--fail-on", "info", funnelEraPath]).output)
        // 19 findings in 10 (placement, rule) cases: remote-media twice for two placements,
        // text-not-localized for the onboarding control funnel's 8 pages and the win-back paywall page.
        #expect(strict.counts["failure"] == 10)
    }

    /// Placement keys are told apart by their bytes, as the SDK's map tells them: "café" composed
    /// and decomposed are two placements, each case with its own finding (an error for the first,
    /// a warning for the second), not both findings twice.
    @Test func keysThatStringCallsEqualAreTwoCases() throws {
        let report = syntheticReport(messages: ["composed", "decomposed"], keys: ["caf\u{E9}", "cafe\u{301}"])
        let xml = XMLSummary.parse(JUnitReport.render(report))
        #expect(xml.error == nil)
        #expect(xml.counts["failure"] == 1)
        let suite = try #require(xml.attributes["testsuite"]?.first)
        #expect(suite["failures"] == "1")
    }

    /// Findings of placements the file does not list (a diff's changes) are grouped a run at a
    /// time: each (placement, rule) is one case, in the order of its first finding, with every
    /// finding of it however they are interleaved, and keys are told apart by their bytes.
    @Test func findingsOfUnlistedPlacementsAreOneCaseEachInOrderOfTheirFirst() throws {
        let long = String(repeating: "k", count: 100_000)
        let keys = ["a", "a", "b", "a", long, long, "caf\u{E9}", "cafe\u{301}", long, "b"]
        let findings = keys.enumerated().map { index, key in
            Finding(ruleId: "serves-nothing", severity: .error, message: "m\(index)", placementKey: key, pointer: "/placements/x", line: index + 1, column: 2)
        }
        let file = CheckReport.File(path: "f.json", status: .loaded(verdict: "v"), findings: findings, placementKeys: [])
        let report = CheckReport(
            title: "t", tool: ReportTool(name: "t", version: "0"), files: [file], rules: CheckReport.rules(enabledBy: AuditConfiguration()),
            failOn: .error)
        let xml = JUnitReport.render(report)
        let summary = XMLSummary.parse(xml)
        #expect(summary.error == nil)
        let names = try #require(summary.attributes["testcase"]).compactMap { $0["name"] }.filter { $0.hasSuffix("/serves-nothing") }
        #expect(names == ["a", "b", long, "caf\u{E9}", "cafe\u{301}"].map { "\($0)/serves-nothing" })
        // Each case holds its findings: a's three, b's two, the long key's three, in file order.
        for (key, messages) in [("a", ["m0", "m1", "m3"]), ("b", ["m2", "m9"]), (long, ["m4", "m5", "m8"])] {
            let start = try #require(xml.range(of: "name=\"\(key)/serves-nothing\""))
            let end = xml.range(of: "</testcase>", range: start.upperBound..<xml.endIndex)?.lowerBound ?? xml.endIndex
            let body = String(xml[start.upperBound..<end])
            #expect(messages.allSatisfy { body.contains("\($0)") }, "\(key.prefix(10)): \(body.prefix(300))")
            #expect(keys.indices.filter { !messages.contains("m\($0)") }.allSatisfy { !body.contains("m\($0)\n") && !body.contains("m\($0)<") })
        }
    }

    @Test func hostileKeysAndMessagesStayWellFormed() throws {
        let report = syntheticReport(messages: hostileTexts, keys: hostileTexts)
        let xml = XMLSummary.parse(JUnitReport.render(report))
        #expect(xml.error == nil, "\(String(describing: xml.error))")
        let names = Set(try #require(xml.attributes["testcase"]).compactMap { $0["name"] })
        for key in hostileTexts where !key.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" || $0.value == 0xFFFE }) {
            #expect(names.contains("\(key)/serves-nothing"), "\(key)")
        }
        #expect(names.contains("controls \u{FFFD}\u{7F}\u{FFFD} end/serves-nothing"))
    }
}

@Suite("check --format sarif")
struct SARIFFormatTests {
    func object(_ value: Any?, _ what: String) throws -> [String: Any] {
        try #require(value as? [String: Any], "\(what) is not an object")
    }

    func array(_ value: Any?, _ what: String) throws -> [Any] {
        try #require(value as? [Any], "\(what) is not an array")
    }

    @Test func hasEveryRequiredPropertyAtEveryLevel() throws {
        let result = run(
            ["check", "--format", "sarif", "--rules-url", "https://example.test/docs/rules.md", funnelEraPath, "bad.json", "/nonexistent/x.json"],
            files: ["bad.json": rejectedSnapshot])
        #expect(result.status == 2)
        let log = try jsonObject(result.output)
        // sarifLog: version and runs are required.
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let runs = try array(log["runs"], "runs")
        #expect(runs.count == 1)
        // run: tool is required; tool: driver; toolComponent: name.
        let run = try object(runs[0], "run")
        let driver = try object(try object(run["tool"], "tool")["driver"], "driver")
        #expect(driver["name"] as? String == "fallback-site")
        #expect(driver["version"] as? String == "0.1.0")
        // reportingDescriptor: id; multiformatMessageString: text; reportingConfiguration.level in the enum.
        let rules = try array(driver["rules"], "rules").map { try object($0, "rule") }
        var ids: [String] = []
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            ids.append(id)
            #expect(try object(rule["shortDescription"], "shortDescription")["text"] is String)
            #expect(["none", "note", "warning", "error"].contains(try object(rule["defaultConfiguration"], "defaultConfiguration")["level"] as? String))
            if let help = rule["helpUri"] as? String {
                #expect(help == "https://example.test/docs/rules.md#\(id)")
            } else {
                #expect(id == "file-unreadable", "only the rule docs/rules.md does not list has no helpUri")
            }
        }
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains("file-unreadable"))
        let checkRules = Rule.all.filter { $0.category != .history }
        #expect(Array(ids.prefix(checkRules.count)) == checkRules.map(\.id.rawValue))
        // invocation: executionSuccessful; notification: message.
        let invocation = try object(try array(run["invocations"], "invocations").first, "invocation")
        #expect(invocation["executionSuccessful"] as? Bool == false)
        for notification in try array(invocation["toolExecutionNotifications"], "notifications") {
            #expect(try object(try object(notification, "notification")["message"], "message")["text"] is String)
        }
        // result: message (with text); ruleId/ruleIndex agree; level in the enum; locations resolve.
        let results = try array(run["results"], "results").map { try object($0, "result") }
        #expect(results.count == 19 + 1 + 1)
        for result in results {
            #expect(try object(result["message"], "message")["text"] is String)
            let ruleId = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == ruleId)
            #expect(["none", "note", "warning", "error"].contains(result["level"] as? String))
            let locations = try array(result["locations"], "locations")
            #expect(locations.count == 1)
            let physical = try object(try object(locations[0], "location")["physicalLocation"], "physicalLocation")
            let uri = try #require(try object(physical["artifactLocation"], "artifactLocation")["uri"] as? String)
            #expect(URL(string: uri) != nil)
            if let region = physical["region"] {
                let region = try object(region, "region")
                #expect((region["startLine"] as? Int ?? 0) >= 1)
                #expect((region["startColumn"] as? Int ?? 0) >= 1)
            } else {
                #expect(ruleId == "file-unreadable")
            }
        }
        let rejected = try #require(results.first { $0["ruleId"] as? String == "file-rejected" })
        #expect(rejected["level"] as? String == "error")
        let unreadable = try #require(results.first { $0["ruleId"] as? String == "file-unreadable" })
        #expect(unreadable["level"] as? String == "error")
        let entrySkipped = try #require(results.first { $0["ruleId"] as? String == "entry-skipped" })
        let region = try object(try object(try object(try array(entrySkipped["locations"], "").first, "")["physicalLocation"], "")["region"], "")
        let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: funnelEraPath))))
        let record = try #require(file.entries.first { $0.key == "trial_reminder" })
        let location = file.location(of: try #require(record.failure).source)
        #expect(region["startLine"] as? Int == location.line)
        #expect(region["startColumn"] as? Int == location.column)
    }

    @Test func levelsAndURIs() {
        #expect(SARIFReport.level(.error) == "error")
        #expect(SARIFReport.level(.warning) == "warning")
        #expect(SARIFReport.level(.info) == "note")
        #expect(SARIFReport.uri("Examples/a b#1.json") == "Examples/a%20b%231.json")
        #expect(SARIFReport.uri("/tmp/x.json") == "file:///tmp/x.json")
        #expect(SARIFReport.uri("c:d.json") == "c%3Ad.json")
    }

    @Test func aCleanRunSucceedsWithNoResults() throws {
        let result = run(["check", "--format", "sarif", "a.json"], files: ["a.json": servesNothingSnapshot(keys: [])])
        #expect(result.status == 0)
        let log = try jsonObject(result.output)
        let run = try object(try array(log["runs"], "runs").first, "run")
        #expect(try array(run["results"], "results").isEmpty)
        #expect(try object(try array(run["invocations"], "").first, "")["executionSuccessful"] as? Bool == true)
    }
}

@Suite("check --format github")
struct GitHubFormatTests {
    @Test func everyLineIsAWorkflowCommand() throws {
        let result = run(["check", "--format", "github", funnelEraPath, "bad.json", "/nonexistent/x.json"], files: ["bad.json": rejectedSnapshot])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(result.output.hasSuffix("\n"))
        #expect(lines.count == 19 + 1 + 1)
        for line in lines {
            #expect(workflowCommand(line) != nil, "\(line)")
        }
        // Most severe first, so GitHub's cap on shown annotations keeps the errors.
        let kinds = lines.map { $0.dropFirst(2).prefix { $0 != " " } }
        #expect(kinds == kinds.sorted { ["error": 0, "warning": 1, "notice": 2][$0]! < ["error": 0, "warning": 1, "notice": 2][$1]! })
        #expect(lines.contains { $0.hasPrefix("::error file=bad.json,line=1,col=18,title=file-rejected::") })
        #expect(lines.contains { $0.hasPrefix("::error file=/nonexistent/x.json,title=file-unreadable::cannot read") })
        #expect(lines.contains { $0.hasPrefix("::error file=\(funnelEraPath),line=1023,col=21,title=entry-skipped (trial_reminder)::") })
    }

    @Test func escapingRoundTrips() throws {
        let report = syntheticReport(messages: hostileTexts, keys: hostileTexts)
        let lines = GitHubAnnotations.render(report).split(separator: "\n")
        #expect(lines.count == hostileTexts.count)
        var messages: [String] = []
        for line in lines {
            let command = try #require(workflowCommand(line), "\(line)")
            let properties = String(line.dropFirst(2 + command.count))
            let split = try #require(properties.range(of: "::"))
            let list = properties[..<split.lowerBound].dropFirst()
            var values: [String: String] = [:]
            for pair in list.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                values[String(parts[0])] = unescapeWorkflow(String(parts.count > 1 ? parts[1] : ""))
            }
            #expect(values["file"] == "dir/a,b:c%.json")
            messages.append(unescapeWorkflow(String(properties[split.upperBound...])))
            let title = try #require(values["title"])
            #expect(title.hasPrefix("serves-nothing ("))
        }
        // The runner gives back each message exactly, but for the hidden characters, which the log
        // shows spelled out.
        #expect(Set(messages) == Set(hostileTexts.map { VisibleText.forTerminal($0, keepingLineBreaks: true) }))
    }

    @Test func escapesAsTheRunnerDoes() {
        #expect(WorkflowCommand.escapeData("50% a\r\nb: c, d") == "50%25 a%0D%0Ab: c, d")
        #expect(WorkflowCommand.escapeProperty("50% a\r\nb: c, d") == "50%25 a%0D%0Ab%3A c%2C d")
        #expect(WorkflowCommand("warning", properties: [.init("file", "a.json"), .init("line", "3")], message: "m").line == "::warning file=a.json,line=3::m")
        #expect(WorkflowCommand("notice", message: "m").line == "::notice::m")
    }

    @Test func aCleanRunPrintsNothing() {
        let clean = servesNothingSnapshot(keys: [])
        let result = run(["check", "--format", "github", "a.json"], files: ["a.json": clean])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
    }
}

@Suite("check --format markdown")
struct MarkdownFormatTests {
    @Test func rendersATableRowPerFinding() throws {
        let result = run(["check", "--format", "markdown", "--rules-url", "https://example.test/docs/rules.md", funnelEraPath])
        let html = Markdown.html(from: result.output)
        let rows = tableRows(html)
        #expect(rows.count == 19)
        #expect(rows.allSatisfy { $0.count == 4 })
        #expect(html.contains("<h2>fallback-site check</h2>"))
        #expect(html.contains(#"<a href="https://example.test/docs/rules.md#entry-skipped"><code>entry-skipped</code></a>"#))
        #expect(rows.contains { cellText($0[2]) == "\(funnelEraPath):1023:21" && cellText($0[1]) == "trial_reminder" })
        #expect(result.output.contains("#### Errors (3)"))
        #expect(result.output.contains("the SDK loads 5 of 6 entries\\; 1 skipped"))
    }

    @Test func hostileKeysNeitherBreakTheTableNorBecomeMarkup() throws {
        let snapshot = servesNothingSnapshot(keys: hostileTexts)
        let result = run(["check", "--format", "markdown", "--fail-on", "never", "a.json"], files: ["a.json": snapshot])
        let html = Markdown.html(from: result.output)
        let rows = tableRows(html)
        let json = try jsonObject(run(["check", "--format", "json", "a.json"], files: ["a.json": snapshot]).output)
        let findings = ((json["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        #expect(rows.count == findings.count)
        #expect(rows.allSatisfy { $0.count == 4 })
        #expect(Set(rows.map { cellText($0[1]) }) == Set(hostileTexts.map(rendered)))
        #expect(Set(rows.map { cellText($0[3]) }) == Set(findings.map { rendered($0["message"] as? String ?? "") }))
        assertNoInjectedMarkup(html)
    }

    @Test func hostileMessagesRoundTripThroughCmark() {
        let report = syntheticReport(messages: hostileTexts, keys: hostileTexts)
        let html = Markdown.html(from: MarkdownReport.render(report))
        let rows = tableRows(html)
        #expect(rows.count == hostileTexts.count)
        #expect(rows.allSatisfy { $0.count == 4 })
        let expected = hostileTexts.map(rendered)
        #expect(Set(rows.map { cellText($0[3]) }) == Set(expected))
        #expect(Set(rows.map { cellText($0[1]) }) == Set(expected))
        #expect(rows.allSatisfy { cellText($0[2]).hasPrefix("dir/a,b:c%.json:") })
        assertNoInjectedMarkup(html)
    }

    func assertNoInjectedMarkup(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for forbidden in ["<script", "<strong>bold", "<em>em", "<img", "javascript:alert(1)\"", "<!--", "<a href=\"https://evil", "<a href=\"http://www.evil"] {
            #expect(!html.contains(forbidden), "\(forbidden) in the rendered report", sourceLocation: sourceLocation)
        }
        #expect(!html.contains("@octocat"), "a mention GitHub would notify", sourceLocation: sourceLocation)
    }

    @Test func longSectionsAreCollapsed() {
        let report = syntheticReport(messages: (0..<40).map { "message \($0)" })
        let markdown = MarkdownReport.render(report)
        // 14 errors, 13 warnings, 13 infos: each over 10 rows.
        #expect(markdown.components(separatedBy: "<details><summary>").count - 1 == 3)
        #expect(markdown.contains("<details><summary>Errors (14)</summary>"))
        let html = Markdown.html(from: markdown)
        #expect(html.components(separatedBy: "<details>").count - 1 == 3)
        #expect(tableRows(html).count == 40)
    }

    @Test func aHugeResultIsCutUnderTheLimitAndSaysWhat() {
        // 100,000 findings of about 200 bytes each: 2,000 errors and 2,000 warnings, the rest infos.
        let message = "A message with | pipes, <tags> and `ticks`, long enough to count."
        let severity: (Int) -> Severity = { $0 % 50 == 0 ? .error : $0 % 50 == 1 ? .warning : .info }
        let report = syntheticReport(messages: Array(repeating: message, count: 100_000), severity: severity)
        let markdown = MarkdownReport.render(report)
        let size = markdown.utf8.count
        #expect(size <= MarkdownReport.defaultByteLimit)
        #expect(size < MarkdownReport.gitHubSummaryLimit)
        #expect(size > MarkdownReport.defaultByteLimit * 9 / 10, "the budget is used, not wasted")

        let rows = tableRows(Markdown.html(from: markdown))
        #expect(rows.allSatisfy { $0.count == 4 })
        #expect(rows.count > 4_000 && rows.count < 100_000)
        // The most severe first: every error and warning is shown, infos are cut.
        #expect(markdown.contains("<details><summary>Errors (2000)</summary>"))
        #expect(markdown.contains("<details><summary>Warnings (2000)</summary>"))
        #expect(markdown.contains("<details><summary>Infos (96000)</summary>"))
        #expect(!markdown.contains("more errors not shown") && !markdown.contains("more warnings not shown"))
        let cut = 100_000 - rows.count
        #expect(markdown.contains("_\(cut) more infos not shown: the report is cut to fit GitHub's 1 MiB limit._"))
        #expect(markdown.contains("**Cut to stay under GitHub's 1 MiB summary limit:** \(cut) findings not shown (\(cut) infos)."))
    }

    @Test(arguments: [4_000, 20_000, 100_000])
    func anyLimitIsKept(limit: Int) {
        let report = syntheticReport(messages: (0..<2_000).map { "finding number \($0) with some words" })
        let markdown = MarkdownReport.render(report, byteLimit: limit)
        #expect(markdown.utf8.count <= limit)
        #expect(markdown.contains("findings not shown"))
        let html = Markdown.html(from: markdown)
        #expect(tableRows(html).allSatisfy { $0.count == 4 })
    }
}

@Suite("check configuration")
struct CheckConfigurationTests {
    let warningOnly = servesNothingSnapshot(keys: ["a"])

    @Test func theFileSetsTheThresholdAndTheFlagWins() {
        let files = ["a.json": warningOnly, ".fallback-site.json": #"{"failOn": "warning"}"#]
        #expect(run(["check", "a.json"], files: files).status == 1)
        #expect(run(["check", "--fail-on", "error", "a.json"], files: files).status == 0)
        #expect(run(["check", "a.json"], files: ["a.json": warningOnly]).status == 0)
        let explicit = ["a.json": warningOnly, "ci.json": #"{"failOn": "never"}"#, ".fallback-site.json": #"{"failOn": "warning"}"#]
        #expect(run(["check", "--config", "ci.json", "a.json"], files: explicit).status == 0, "--config replaces .fallback-site.json")
        #expect(run(["check", "--config", "ci.json", "--fail-on", "warning", "a.json"], files: explicit).status == 1)
    }

    @Test func offRemovesFindingsInEveryFormat() throws {
        let files = [".fallback-site.json": #"{"rules": {"remote-media": "off", "serves-nothing": "error"}}"#]
        let text = run(["check", funnelEraPath], files: files)
        #expect(!text.output.contains("[remote-media]"))
        #expect(text.output.contains("error: [serves-nothing]"))
        let json = try jsonObject(run(["check", "--format", "json", funnelEraPath], files: files).output)
        let findings = ((json["files"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        #expect(!findings.contains { $0["rule"] as? String == "remote-media" })
        #expect(findings.contains { $0["rule"] as? String == "serves-nothing" && $0["severity"] as? String == "error" })
        for format in ["markdown", "github", "junit", "sarif"] {
            #expect(!run(["check", "--format", format, funnelEraPath], files: files).output.contains("remote-media"), "\(format)")
        }
    }

    @Test func unknownRuleIdIsAUsageErrorWithItsPosition() {
        let files = ["a.json": warningOnly, ".fallback-site.json": "{\n  \"rules\": {\n    \"remote-medai\": \"off\"\n  }\n}\n"]
        let result = run(["check", "a.json"], files: files)
        #expect(result.status == 2)
        #expect(result.error.contains(#".fallback-site.json:3:5: unknown rule id "remote-medai" (did you mean "remote-media"?)"#))
        #expect(result.output.isEmpty)
    }

    @Test func badValuesAreUsageErrors() {
        for (config, expected) in [
            (#"{"failOn": "loud"}"#, "c.json:1:12: failOn must be"),
            (#"{"rules": {"file-rejected": "off"}}"#, "c.json:1:29: file-rejected cannot be changed"),
            ("{", "c.json:1:2: not valid JSON"),
        ] {
            let result = run(["check", "--config", "c.json", "a.json"], files: ["a.json": warningOnly, "c.json": config])
            #expect(result.status == 2)
            #expect(result.error.contains(expected), "\(result.error)")
        }
        let missing = run(["check", "--config", "/nonexistent/c.json", "a.json"], files: ["a.json": warningOnly])
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read the configuration /nonexistent/c.json"))
        let badURL = run(["check", "--rules-url", "docs/rules.md", "a.json"], files: ["a.json": warningOnly])
        #expect(badURL.status == 2)
        #expect(badURL.error.contains("--rules-url"))
    }

    @Test func rulesURLComesFromTheFileUnlessTheFlagSetsIt() {
        let files = ["a.json": warningOnly, ".fallback-site.json": #"{"rulesUrl": "https://file.test/rules.md"}"#]
        #expect(run(["check", "--format", "sarif", "a.json"], files: files).output.contains("https://file.test/rules.md#serves-nothing"))
        let flagged = run(["check", "--format", "sarif", "--rules-url", "https://flag.test/rules.md", "a.json"], files: files).output
        #expect(flagged.contains("https://flag.test/rules.md#serves-nothing"))
        #expect(!flagged.contains("file.test"))
    }
}

@Suite("check --summary")
struct SummaryTests {
    @Test func appendsTheMarkdownReportToTheStepSummary() throws {
        let variables = ["GITHUB_STEP_SUMMARY": "summary.md"]
        let files = ["summary.md": "# Earlier step\n"]
        let result = run(["check", "--format", "github", "--summary", funnelEraPath], files: files, variables: variables)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("::error"))
        let written = String(decoding: try #require(result.written["summary.md"]), as: UTF8.self)
        #expect(written.hasPrefix("# Earlier step\n## fallback\\-site check\n"))
        #expect(written.contains("<code>entry\\-skipped</code>"))
    }

    @Test func withoutTheVariableItSaysSoAndGoesOn() {
        let result = run(["check", "--summary", paywallEraPath], variables: [:])
        #expect(result.status == 0)
        #expect(result.error.contains("GITHUB_STEP_SUMMARY is not set"))
        #expect(result.output.contains("the SDK loads 6 of 6 entries"))
        #expect(result.written.isEmpty)
    }
}

@Suite("A failed load never reads as clean")
struct NeverCleanTests {
    @Test(arguments: ["text", "json", "markdown", "github", "junit", "sarif"])
    func aRejectedFileFailsInEveryFormat(format: String) throws {
        let result = run(["check", "--format", format, "--fail-on", "never", "bad.json"], files: ["bad.json": rejectedSnapshot])
        #expect(result.status == 1)
        let output = result.output
        switch format {
        case "text":
            #expect(output.contains("bad.json:1:18: error: [file-rejected]"))
        case "json":
            let file = try #require((try jsonObject(output)["files"] as? [[String: Any]])?.first)
            #expect(file["fatal"] is [String: Any])
        case "markdown":
            #expect(output.contains("**❌ 1 of 1 file fails**"))
            #expect(tableRows(Markdown.html(from: output)).contains { cellText($0[0]) == "file-rejected" })
        case "github":
            #expect(output.hasPrefix("::error file=bad.json,line=1,col=18,title=file-rejected::"))
        case "junit":
            let xml = XMLSummary.parse(output)
            #expect(xml.error == nil)
            #expect(xml.counts["failure"] == 1)
            #expect(xml.attributes["testsuites"]?.first?["failures"] == "1")
        default:
            let run = try #require((try jsonObject(output)["runs"] as? [[String: Any]])?.first)
            let results = try #require(run["results"] as? [[String: Any]])
            #expect(results.contains { $0["ruleId"] as? String == "file-rejected" && $0["level"] as? String == "error" })
        }
    }

    @Test(arguments: ["text", "json", "markdown", "github", "junit", "sarif"])
    func anUnreadableFileIsAnErrorInEveryFormat(format: String) throws {
        let result = run(["check", "--format", format, "--fail-on", "never", "/nonexistent/x.json"])
        #expect(result.status == 2)
        let output = result.output
        switch format {
        case "text":
            #expect(output == "/nonexistent/x.json: error: [file-unreadable] cannot read /nonexistent/x.json: no such file\n")
            #expect(result.error.isEmpty, "the report names it; standard error does not repeat it")
        case "json":
            let file = try #require((try jsonObject(output)["files"] as? [[String: Any]])?.first)
            #expect(file["readable"] as? Bool == false)
            #expect(file["fatal"] is [String: Any])
        case "markdown":
            #expect(output.contains("**❌ 1 of 1 file fails**"))
            #expect(output.contains("**cannot read:** no such file"))
        case "github":
            #expect(output == "::error file=/nonexistent/x.json,title=file-unreadable::cannot read /nonexistent/x.json: no such file\n")
        case "junit":
            let xml = XMLSummary.parse(output)
            #expect(xml.error == nil)
            #expect(xml.counts["error"] == 1)
        default:
            let run = try #require((try jsonObject(output)["runs"] as? [[String: Any]])?.first)
            let results = try #require(run["results"] as? [[String: Any]])
            #expect(results.contains { $0["ruleId"] as? String == "file-unreadable" && $0["level"] as? String == "error" })
            #expect((run["invocations"] as? [[String: Any]])?.first?["executionSuccessful"] as? Bool == false)
        }
    }
}
