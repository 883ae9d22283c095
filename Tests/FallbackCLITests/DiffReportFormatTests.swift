import FallbackAudit
import FallbackDiff
import FallbackReports
import Foundation
import FallbackMarkdown
import RovenueFallback
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

private func example(_ release: String) -> String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples"))) ?? []
    return repositoryPath("Examples/" + (names.first { $0.hasSuffix("-release-\(release).json") } ?? release))
}

/// One change as `diff --format json` lists it: the oracle the other formats are held to.
private struct ListedChange {
    let changeClass: String
    let kind: String
    let placement: String?
    let message: String
    /// The path, line and column a report must show: the new snapshot's place, else the old one's.
    let path: String?
    let line: Int?
    let column: Int?

    /// The JUnit case the change belongs to: `placement/kind`, or the kind alone.
    var caseName: String { placement.map { "\($0)/\(kind)" } ?? kind }

    func fails(at failOn: String) -> Bool {
        switch failOn {
        case "breaking": changeClass == "breaking" || kind == "file-rejected"
        case "notable": changeClass != "info" || kind == "file-rejected"
        default: kind == "file-rejected"
        }
    }
}

private func listedChanges(_ old: String, _ new: String, files: [String: String] = [:]) throws -> [ListedChange] {
    let json = try jsonObject(run(["diff", old, new, "--format", "json"], files: files).output)
    let changes = try #require(json["changes"] as? [[String: Any]])
    return try changes.map { change in
        let newLocation = change["newLocation"] as? [String: Any]
        let oldLocation = change["oldLocation"] as? [String: Any]
        let location = newLocation ?? oldLocation
        return ListedChange(
            changeClass: try #require(change["class"] as? String), kind: try #require(change["kind"] as? String),
            placement: change["placement"] as? String, message: try #require(change["message"] as? String),
            path: newLocation != nil ? new : oldLocation != nil ? old : nil, line: location?["line"] as? Int,
            column: location?["column"] as? Int)
    }
}

/// A workflow command's properties and message, unescaped.
private func workflowParts(_ line: Substring) throws -> (command: String, properties: [String: String], names: [String], message: String) {
    let command = try #require(workflowCommand(line), "not a workflow command: \(line)")
    let rest = String(line.dropFirst(2 + command.count))
    let split = try #require(rest.range(of: "::"))
    var properties: [String: String] = [:]
    var names: [String] = []
    for pair in rest[..<split.lowerBound].dropFirst().split(separator: ",") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        names.append(String(parts[0]))
        properties[String(parts[0])] = unescapeWorkflow(String(parts.count > 1 ? parts[1] : ""))
    }
    return (String(command), properties, names, unescapeWorkflow(String(rest[split.upperBound...])))
}

/// Each `<testcase>`'s name and the elements directly inside it, through Foundation's XML parser.
private final class JUnitCases: NSObject, XMLParserDelegate {
    var cases: [(name: String, children: Set<String>)] = []
    var suites: [[String: String]] = []
    var totals: [String: String] = [:]
    var error: Error?
    private var depth = 0
    private var caseDepth: Int?

    static func parse(_ text: String) -> JUnitCases {
        let result = JUnitCases()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = result
        if !parser.parse() { result.error = parser.parserError ?? CocoaError(.featureUnsupported) }
        return result
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch elementName {
        case "testsuites": totals = attributes
        case "testsuite": suites.append(attributes)
        case "testcase":
            cases.append((attributes["name"] ?? "", []))
            caseDepth = depth
        default:
            if let caseDepth, depth == caseDepth + 1 { cases[cases.count - 1].children.insert(elementName) }
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "testcase" { caseDepth = nil }
        depth -= 1
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = parseError
    }
}

private func object(_ value: Any?, _ what: String) throws -> [String: Any] {
    try #require(value as? [String: Any], "\(what) is not an object")
}

private func array(_ value: Any?, _ what: String) throws -> [Any] {
    try #require(value as? [Any], "\(what) is not an array")
}

private let releasePairs = [("3.1", "3.2"), ("3.3", "3.4")]
private let failOnLevels = ["breaking", "notable", "never"]
private let reportFormats = ["text", "json", "markdown", "github", "junit", "sarif"]

@Suite("diff --format github|junit|sarif")
struct DiffReportFormatTests {
    @Test(arguments: releasePairs)
    func githubAnnotatesEachChangeWhereItIs(old: String, new: String) throws {
        let (oldPath, newPath) = (example(old), example(new))
        let changes = try listedChanges(oldPath, newPath)
        let result = run(["diff", oldPath, newPath, "--format", "github"])
        #expect(result.status == 1)
        #expect(result.output.hasSuffix("\n"))
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == changes.count)
        let commands = ["breaking": "error", "notable": "warning", "info": "notice"]
        for (line, change) in zip(lines, changes) {
            let parts = try workflowParts(line)
            #expect(parts.command == commands[change.changeClass])
            #expect(parts.names == ["file", "line", "col", "title"])
            #expect(parts.properties["file"] == change.path)
            #expect(parts.properties["line"] == change.line.map(String.init))
            #expect(parts.properties["col"] == change.column.map(String.init))
            #expect(parts.properties["title"] == "\(change.kind)" + (change.placement.map { " (\($0))" } ?? ""))
            #expect(parts.message.hasPrefix(change.message))
        }
        #expect(changes.contains { $0.path == newPath }, "changes in the new snapshot carry its path")
    }

    @Test func githubPlacesARemovedPlacementInTheOldSnapshot() throws {
        let output = run(["diff", example("3.1"), example("3.2"), "--format", "github"]).output
        let first = try workflowParts(try #require(output.split(separator: "\n").first))
        #expect(first.command == "error")
        #expect(first.properties["title"] == "placement-removed (spring_sale)")
        #expect(first.properties["file"] == example("3.1"))
        let weights = try #require(output.split(separator: "\n").first { $0.contains("title=weights-changed") })
        let parts = try workflowParts(weights)
        #expect(parts.properties["file"] == example("3.2"))
        #expect(parts.message.hasSuffix(#"{"control":0.5,"short_quiz":0.5} → {"control":0.34,"short_quiz":0.33,"breath_first":0.33}"#))
        #expect(parts.message.contains("moves 49.0% of subscribers"))
    }

    @Test(arguments: releasePairs)
    func junitFailsExactlyTheChangesAtOrAboveFailOn(old: String, new: String) throws {
        let (oldPath, newPath) = (example(old), example(new))
        let changes = try listedChanges(oldPath, newPath)
        for failOn in failOnLevels {
            let result = run(["diff", oldPath, newPath, "--format", "junit", "--fail-on", failOn])
            let xml = JUnitCases.parse(result.output)
            #expect(xml.error == nil, "\(String(describing: xml.error))")
            #expect(xml.suites.count == 1)
            #expect(xml.suites.first?["name"] == "\(oldPath) → \(newPath)")

            let failing = Set(xml.cases.filter { $0.children.contains("failure") }.map(\.name))
            #expect(failing == Set(changes.filter { $0.fails(at: failOn) }.map(\.caseName)), "--fail-on \(failOn)")
            let passingWithChanges = Set(xml.cases.filter { $0.children == ["system-out"] }.map(\.name))
            #expect(passingWithChanges == Set(changes.filter { !$0.fails(at: failOn) }.map(\.caseName)), "--fail-on \(failOn)")
            let fileCases = xml.cases.filter { $0.children.isEmpty }.map(\.name)
            #expect(fileCases == ["file-rejected", "project-changed", "generated-earlier"])

            #expect(xml.totals["tests"] == String(xml.cases.count))
            #expect(xml.totals["failures"] == String(failing.count))
            #expect(xml.totals["errors"] == "0")
            #expect(result.status == (failOn == "never" ? 0 : 1))
        }
    }

    @Test func junitListsEveryChangeInItsCase() throws {
        let (oldPath, newPath) = (example("3.3"), example("3.4"))
        let output = run(["diff", oldPath, newPath, "--format", "junit", "--fail-on", "notable"]).output
        #expect(JUnitCases.parse(output).error == nil)
        let prefixes = try listedChanges(oldPath, newPath).map { change in
            "\(try #require(change.path)):\(try #require(change.line)):\(try #require(change.column)): "
                + "\(["breaking": "error", "notable": "warning", "info": "info"][change.changeClass]!): [\(change.kind)] "
        }
        for prefix in prefixes {
            #expect(output.contains(MarkupEscaping.xmlText(prefix)), "\(prefix)")
        }
        #expect(output.contains(#"<failure type="error" message="Placement &quot;onboarding_v2&quot; is removed"#))
    }

    @Test(arguments: releasePairs)
    func sarifHasTheRequiredPropertiesAndOneResultPerChange(old: String, new: String) throws {
        let (oldPath, newPath) = (example(old), example(new))
        let changes = try listedChanges(oldPath, newPath)
        let result = run(["diff", oldPath, newPath, "--format", "sarif"])
        #expect(result.status == 1)
        let log = try jsonObject(result.output)
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let runs = try array(log["runs"], "runs")
        #expect(runs.count == 1)
        let run = try object(runs[0], "run")
        let driver = try object(try object(run["tool"], "tool")["driver"], "driver")
        #expect(driver["name"] as? String == "fallback-site")
        let rules = try array(driver["rules"], "rules").map { try object($0, "rule") }
        let ids = try rules.map { try #require($0["id"] as? String) }
        #expect(ids == ChangeKind.allCases.map(\.id))
        for rule in rules {
            #expect(try object(rule["shortDescription"], "shortDescription")["text"] is String)
            let level = try object(rule["defaultConfiguration"], "defaultConfiguration")["level"] as? String
            let kind = try #require(ChangeKind(rawValue: rule["id"] as? String ?? ""))
            #expect(level == ["breaking": "error", "notable": "warning", "info": "note"][kind.changeClass.rawValue])
        }
        let invocation = try object(try array(run["invocations"], "invocations").first, "invocation")
        #expect(invocation["executionSuccessful"] as? Bool == true)

        let results = try array(run["results"], "results").map { try object($0, "result") }
        #expect(results.count == changes.count)
        for (result, change) in zip(results, changes) {
            #expect(result["ruleId"] as? String == change.kind)
            #expect(ids[try #require(result["ruleIndex"] as? Int)] == change.kind)
            #expect(result["level"] as? String == ["breaking": "error", "notable": "warning", "info": "note"][change.changeClass])
            #expect((try object(result["message"], "message")["text"] as? String)?.hasPrefix(change.message) == true)
            let locations = try array(result["locations"], "locations")
            #expect(locations.count == 1)
            let physical = try object(try object(locations[0], "location")["physicalLocation"], "physicalLocation")
            let uri = try object(physical["artifactLocation"], "artifactLocation")["uri"] as? String
            #expect(uri == SARIFReport.uri(try #require(change.path)))
            let region = try object(physical["region"], "region")
            #expect(region["startLine"] as? Int == change.line)
            #expect(region["startColumn"] as? Int == change.column)
            #expect((try object(result["properties"], "properties")["placement"] as? String) == change.placement)
        }
    }

    @Test(arguments: releasePairs)
    func exitStatusIsTheSameInEveryFormat(old: String, new: String) {
        for failOn in failOnLevels {
            let expected = run(["diff", example(old), example(new), "--fail-on", failOn]).status
            #expect(expected == (failOn == "never" ? 0 : 1))
            for format in reportFormats {
                let result = run(["diff", example(old), example(new), "--format", format, "--fail-on", failOn])
                #expect(result.status == expected, "--format \(format) --fail-on \(failOn)")
                #expect(result.error.isEmpty)
            }
        }
    }

    @Test func anUnchangedSnapshotIsClean() throws {
        let path = example("3.0")
        #expect(run(["diff", path, path, "--format", "github"]).output.isEmpty)
        let junit = JUnitCases.parse(run(["diff", path, path, "--format", "junit"]).output)
        #expect(junit.error == nil)
        #expect(junit.cases.map(\.name) == ["file-rejected", "project-changed", "generated-earlier"])
        #expect(junit.totals["failures"] == "0")
        let sarif = try jsonObject(run(["diff", path, path, "--format", "sarif"]).output)
        let results = try array(try object(try array(sarif["runs"], "runs").first, "run")["results"], "results")
        #expect(results.isEmpty)
    }
}

@Suite("diff: a failed load never reads as clean")
struct DiffNeverCleanTests {
    static let base = #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{}}"#

    @Test(arguments: reportFormats, ["old", "new"])
    func aRejectedSnapshotIsAnErrorInEveryFormat(format: String, side: String) throws {
        let files = side == "old" ? ["old.json": rejectedSnapshot, "new.json": Self.base] : ["old.json": Self.base, "new.json": rejectedSnapshot]
        let result = run(["diff", "old.json", "new.json", "--format", format, "--fail-on", "never"], files: files)
        #expect(result.status == 1)
        let output = result.output
        let path = "\(side).json"
        switch format {
        case "text":
            #expect(output.contains("Breaking (1)\n  - (file) [file-rejected] The \(side) snapshot is rejected by the SDK"))
        case "json":
            let changes = try #require(try jsonObject(output)["changes"] as? [[String: Any]])
            #expect(changes.map { $0["kind"] as? String } == ["file-rejected"])
            #expect(changes.first?["class"] as? String == "breaking")
        case "markdown":
            #expect(output.contains("**Breaking: 1**"))
            #expect(output.contains("| *file* | file-rejected |"))
        case "github":
            #expect(output.hasPrefix("::error file=\(path),line=1,col=18,title=file-rejected::The \(side) snapshot is rejected"))
            #expect(output.split(separator: "\n").count == 1)
        case "junit":
            let xml = JUnitCases.parse(output)
            #expect(xml.error == nil)
            #expect(xml.cases.first { $0.name == "file-rejected" }?.children == ["failure"])
            #expect(xml.totals["failures"] == "1")
            #expect(xml.cases.filter { $0.children == ["skipped"] }.map(\.name) == ["project-changed", "generated-earlier"])
        default:
            let run = try object(try array(try jsonObject(output)["runs"], "runs").first, "run")
            let results = try array(run["results"], "results").map { try object($0, "result") }
            #expect(results.count == 1)
            #expect(results.first?["ruleId"] as? String == "file-rejected")
            #expect(results.first?["level"] as? String == "error")
        }
    }

    @Test(arguments: reportFormats)
    func anUnreadablePathIsAnErrorInEveryFormat(format: String) throws {
        let result = run(["diff", "/nonexistent/old.json", "new.json", "--format", format, "--fail-on", "never"], files: ["new.json": Self.base])
        #expect(result.status == 2)
        // text and json name the path in the report, as check does; the others also on standard error.
        let named = ["text", "json"].contains(format)
        #expect(result.error == (named ? "" : "error: cannot read /nonexistent/old.json: no such file\n"))
        let output = result.output
        switch format {
        case "text":
            #expect(output == "/nonexistent/old.json: error: [file-unreadable] cannot read /nonexistent/old.json: no such file\nNothing was compared (1 error)\n")
        case "json":
            let old = try #require(try jsonObject(output)["old"] as? [String: Any])
            #expect((old["fatal"] as? [String: Any])?["message"] as? String == "cannot read /nonexistent/old.json: no such file")
        case "markdown":
            #expect(output.contains("**❌ Nothing was compared:**"))
            #expect(output.contains("- cannot read \\/nonexistent\\/old\\.json: no such file"))
        case "github":
            #expect(output == "::error file=/nonexistent/old.json,title=file-unreadable::cannot read /nonexistent/old.json: no such file\n")
        case "junit":
            let xml = JUnitCases.parse(output)
            #expect(xml.error == nil)
            #expect(xml.cases.map(\.name) == ["file-unreadable"])
            #expect(xml.cases.first?.children == ["error"])
            #expect(xml.totals["errors"] == "1")
        default:
            let run = try object(try array(try jsonObject(output)["runs"], "runs").first, "run")
            let results = try array(run["results"], "results").map { try object($0, "result") }
            #expect(results.map { $0["ruleId"] as? String } == ["file-unreadable"])
            #expect(results.first?["level"] as? String == "error")
            #expect(try object(try array(run["invocations"], "").first, "")["executionSuccessful"] as? Bool == false)
        }
    }

    @Test func bothUnreadablePathsAreReported() {
        let result = run(["diff", "/nonexistent/a.json", "/nonexistent/b.json", "--format", "github"])
        #expect(result.status == 2)
        #expect(
            result.output == "::error file=/nonexistent/a.json,title=file-unreadable::cannot read /nonexistent/a.json: no such file\n"
                + "::error file=/nonexistent/b.json,title=file-unreadable::cannot read /nonexistent/b.json: no such file\n")
    }
}

@Suite("diff --config and --summary")
struct DiffConfigurationTests {
    static func experiment(_ weights: (String, String)) -> String {
        let paywall = #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
        return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"#
            + #""experiment":{"id":"exp","key":"k","variants":[{"variantId":"x","weight":\#(weights.0),"paywall":\#(paywall)},"#
            + #"{"variantId":"y","weight":\#(weights.1),"paywall":\#(paywall)}]}}}}"#
    }

    /// Only a notable change: the weights move.
    static let notableOnly = ["old.json": experiment(("0.5", "0.5")), "new.json": experiment(("0.6", "0.4"))]

    @Test func diffFailOnSetsTheDefaultAndTheFlagWins() {
        let arguments = ["diff", "old.json", "new.json"]
        #expect(run(arguments, files: Self.notableOnly).status == 0)
        var files = Self.notableOnly
        files[".fallback-site.json"] = #"{"diffFailOn": "notable"}"#
        #expect(run(arguments, files: files).status == 1)
        #expect(run(arguments + ["--fail-on", "breaking"], files: files).status == 0)
        let json = run(arguments + ["--format", "json"], files: files).output
        #expect(json.contains(#""failOn": "notable""#))
        files["ci.json"] = #"{"diffFailOn": "never"}"#
        #expect(run(arguments + ["--config", "ci.json"], files: files).status == 0, "--config replaces .fallback-site.json")
    }

    @Test func checksFailOnDoesNotApplyToDiff() {
        var files = Self.notableOnly
        files[".fallback-site.json"] = #"{"failOn": "info", "rules": {"remote-media": "off"}}"#
        #expect(run(["diff", "old.json", "new.json"], files: files).status == 0)
    }

    @Test func aBadConfigurationIsAUsageError() {
        var files = Self.notableOnly
        files["c.json"] = #"{"diffFailOn": "info"}"#
        let result = run(["diff", "old.json", "new.json", "--config", "c.json"], files: files)
        #expect(result.status == 2)
        #expect(result.error.contains(#"c.json:1:16: diffFailOn must be "breaking", "notable" or "never", found the string "info""#))
        #expect(result.output.isEmpty)
        let missing = run(["diff", "old.json", "new.json", "--config", "/nonexistent/c.json"], files: files)
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read the configuration /nonexistent/c.json"))
    }

    @Test func summaryAppendsTheMarkdownReport() throws {
        let (old, new) = (example("3.1"), example("3.2"))
        let markdown = run(["diff", old, new, "--format", "markdown"]).output
        let variables = ["GITHUB_STEP_SUMMARY": "summary.md"]
        let result = run(["diff", old, new, "--format", "github", "--summary"], files: ["summary.md": "# Earlier step\n"], variables: variables)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("::error"))
        let written = String(decoding: try #require(result.written["summary.md"]), as: UTF8.self)
        #expect(written == "# Earlier step\n" + markdown + "\n")
        #expect(Markdown.html(from: written).contains("<h3>Breaking (1)</h3>"))
    }

    @Test func summaryOfADiffThatCouldNotRunSaysSo() throws {
        let variables = ["GITHUB_STEP_SUMMARY": "summary.md"]
        let result = run(["diff", "/nonexistent/old.json", example("3.2"), "--summary"], files: ["summary.md": ""], variables: variables)
        #expect(result.status == 2)
        let written = String(decoding: try #require(result.written["summary.md"]), as: UTF8.self)
        #expect(written.contains("**❌ Nothing was compared:**"))
        #expect(written.contains("cannot read \\/nonexistent\\/old\\.json: no such file"))
    }

    @Test func summaryWithoutTheVariableSaysSoAndGoesOn() {
        let result = run(["diff", example("3.1"), example("3.2"), "--summary", "--fail-on", "never"], variables: [:])
        #expect(result.status == 0)
        #expect(result.error.contains("GITHUB_STEP_SUMMARY is not set"))
        #expect(result.written.isEmpty)
    }
}

@Suite("Report writers: findings placed outside their subject")
struct ReportLocationTests {
    static func report(_ location: CheckReport.Location?) -> CheckReport {
        let finding = Finding(ruleId: "field-changed", severity: .info, message: "m", placementKey: nil, pointer: "", line: 0, column: 0)
        let file = CheckReport.File(
            path: "a.json → b.json", status: .loaded(verdict: "v"), findings: [finding], locations: [location], placementKeys: [])
        return CheckReport(
            title: "fallback-site diff", tool: ReportTool(name: "fallback-site", version: "0.1.0"), files: [file],
            rules: ReportRule.changeKinds, failOn: .error)
    }

    @Test func aFindingWithoutALocationHasNone() throws {
        let report = Self.report(nil)
        #expect(GitHubAnnotations.render(report) == "::notice title=field-changed::m\n")
        #expect(JUnitReport.render(report).contains("<system-out>info: [field-changed] m</system-out>"))
        let run = try object(try array(try jsonObject(SARIFReport.render(report))["runs"], "runs").first, "run")
        let result = try object(try array(run["results"], "results").first, "result")
        #expect(result["locations"] == nil)
        #expect(MarkdownReport.render(report).contains("| <code>field\\-changed</code> | — | — | m |"))
    }

    @Test func aFindingElsewhereIsShownThere() {
        let report = Self.report(CheckReport.Location(path: "b.json", line: 3, column: 7))
        #expect(GitHubAnnotations.render(report) == "::notice file=b.json,line=3,col=7,title=field-changed::m\n")
        #expect(JUnitReport.render(report).contains("<system-out>b.json:3:7: info: [field-changed] m</system-out>"))
        #expect(SARIFReport.render(report).contains(#""uri": "b.json""#))
    }

    @Test func thresholdsMapClassesToSeverities() {
        #expect(ChangeThreshold.breaking.failureThreshold == .error)
        #expect(ChangeThreshold.notable.failureThreshold == .warning)
        #expect(ChangeThreshold.never.failureThreshold == .never)
        #expect(ChangeClass.allCases.map(\.severity) == [.error, .warning, .info])
    }
}
