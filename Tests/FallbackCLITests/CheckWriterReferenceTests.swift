import FallbackAudit
@testable import FallbackReports
import Foundation
import RovenueFallback
import Testing

/// The CI writers that `check` made faster for 10,000-placement files (issue 10): each still writes
/// byte for byte what it wrote before, checked against the earlier code kept here as a reference,
/// across the fixtures, the examples and reports built to reach every branch.
@Suite("check's CI writers match their reference")
struct CheckWriterReferenceTests {
    /// Every checked snapshot the repository has, at fail thresholds that fail and pass cases.
    static func fixtureReports() throws -> [CheckReport] {
        let paths = [
            repositoryPath("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"),
            repositoryPath("Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json"),
        ] + (try FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples")))
            .filter { $0.hasSuffix(".json") }.sorted().map { repositoryPath("Examples/\($0)") }
        var reports: [CheckReport] = []
        for threshold in [FailureThreshold.error, .info] {
            let files = try paths.map { path -> (path: String, outcome: Result<FallbackFile, UnreadableFile>) in
                (URL(fileURLWithPath: path).lastPathComponent, .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))))
            } + [
                ("bad & <rejected>.json", .success(FallbackFile(bytes: Array(#"[{"formatVersion":1}]"#.utf8)))),
                ("missing \"one\".json", .failure(UnreadableFile(reason: "no such file"))),
            ]
            reports.append(
                CheckedFilesReport(
                    files: files, audit: Audit(now: Date(timeIntervalSince1970: 1_790_000_000)), failOn: threshold,
                    title: "fallback-site check", tool: ReportTool(name: "fallback-site", version: "1", rulesURL: "https://x.test/rules.md")
                ).ciReport)
        }
        return reports
    }

    /// Reports that reach the branches fixtures do not: repeated placement keys, findings outside
    /// the cases the rules give, a rejected file that lists placements, findings placed elsewhere.
    static func edgeReports() -> [CheckReport] {
        func finding(_ rule: Rule.ID, _ severity: Severity, _ message: String, key: String?, line: Int = 3) -> Finding {
            Finding(ruleId: rule, severity: severity, message: message, placementKey: key, pointer: "/p", line: line, column: 7)
        }
        let findings = [
            finding("serves-nothing", .warning, "m <1> & \"q\"", key: "k/1"),
            finding("serves-nothing", .error, "second\nline", key: "k/1", line: 4),
            finding("no-such-rule", .info, "unknown rule", key: "k/1"),
            finding("no-such-rule", .info, "unknown rule, file", key: nil),
            finding("serves-nothing", .warning, "a key the file does not list", key: "elsewhere"),
            finding("serves-nothing", .warning, "about the file", key: nil),
            finding(Rule.fileRejected.id, .error, "rejected", key: nil),
            finding("generated-at-invalid", .warning, "a file rule about a placement", key: "k/1"),
        ] + hostileTexts.enumerated().map { finding("key-mismatch", .info, $1, key: $1, line: 10 + $0) }
        let rules = CheckReport.rules(enabledBy: AuditConfiguration())
        let tool = ReportTool(name: "fallback-site", version: "1")
        let loaded = CheckReport.File(
            path: "a b/c&d.json", status: .loaded(verdict: "loads <2>"), findings: findings,
            placementKeys: ["k/1", "k/1", "z"] + hostileTexts)
        let rejected = CheckReport.File(
            path: "r.json", status: .rejected(verdict: "rejected"), findings: Array(findings.prefix(7)), placementKeys: ["k/1"])
        let placed = CheckReport.File(
            path: "old → new", status: .loaded(verdict: "diff"), findings: Array(findings.prefix(3)),
            locations: [.init(path: "new.json", line: 3, column: 1), nil, .init(path: "old dir/o%.json", line: nil, column: nil)],
            placementKeys: [])
        let unreadable = CheckReport.File(path: "gone.json", unreadable: "permission denied")
        return [rules, []].flatMap { rules in
            [FailureThreshold.error, .warning, .never].map { threshold in
                CheckReport(title: "t <&>", tool: tool, files: [loaded, rejected, placed, unreadable], rules: rules, failOn: threshold)
            }
        }
    }

    @Test func junitMatchesTheReference() throws {
        for report in try Self.fixtureReports() + Self.edgeReports() {
            #expect(JUnitReport.render(report) == ReferenceJUnit.render(report))
        }
    }

    @Test func githubAnnotationsMatchTheReference() throws {
        for report in try Self.fixtureReports() + Self.edgeReports() {
            #expect(GitHubAnnotations.render(report) == ReferenceGitHub.render(report))
        }
        for text in hostileTexts + ["50% a\r\nb: c, d", ":,%", "", "plain"] {
            #expect(WorkflowCommand.escapeData(text) == ReferenceGitHub.escape(text, including: []))
            #expect(WorkflowCommand.escapeProperty(text) == ReferenceGitHub.escape(text, including: [UInt8(ascii: ":"), UInt8(ascii: ",")]))
        }
    }

    /// The JSON report's `loaded` keys, read from the records, are `loadedEntries`' keys.
    @Test func loadedKeysAreTheLoadedEntriesKeys() throws {
        let skipping = #"{"formatVersion":1,"generatedAt":1760000000000,"projectId":"p","placements":{"#
            + #""a":{"placement":{"identifier":"a","revision":1}},"b":{"placement":{"identifier":"b","revision":"x"}},"#
            + #""c":{"placement":{"identifier":"c","revision":2}},"a":{"placement":{"identifier":"a","revision":3}}}}"#
        let files = [FallbackFile(bytes: Array(skipping.utf8)), FallbackFile(bytes: Array(#"[1]"#.utf8))]
            + (try [funnelEraPath, repositoryPath("Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json")].map {
                FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: $0))))
            })
        #expect(CheckedFilesReport.loadedKeys(files[0]) == ["a", "c"])
        for file in files {
            #expect(CheckedFilesReport.loadedKeys(file) == file.loadedEntries.map(\.key))
        }
    }

    /// SARIF lists each rule once, the report's first, then the rules only findings name, in the
    /// order met; each location's URI is its own path's.
    @Test func sarifListsRulesOnceAndEncodesEachPath() throws {
        let report = try #require(Self.edgeReports().last)
        let text = SARIFReport.render(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ruleIds = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ruleIds == ["serves-nothing", Rule.fileRejected.id.rawValue, "generated-at-invalid", "key-mismatch", "file-unreadable"])
        let results = try #require(run["results"] as? [[String: Any]])
        for result in results {
            // A rule no catalogue knows has no index.
            guard let index = result["ruleIndex"] as? Int else {
                #expect(result["ruleId"] as? String == "no-such-rule")
                continue
            }
            #expect(ruleIds[index] == result["ruleId"] as? String)
        }
        let uris = results.compactMap { result -> String? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        #expect(Set(uris) == ["a%20b/c%26d.json", "r.json", "new.json", "old%20dir/o%25.json", "gone.json"])
        #expect(uris.count == results.count - 1)
    }
}

// MARK: - The writers as they were

/// `JUnitReport` before it wrote into one buffer (commit acaa973).
private enum ReferenceJUnit {
    static func render(_ report: CheckReport) -> String {
        var suites: [String] = []
        var totals = JUnitReport.Tally()
        for file in report.files {
            let (suite, tally) = self.suite(file, report: report)
            suites.append(suite)
            totals.add(tally)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(MarkupEscaping.xmlAttribute(report.title))\"\(totals.attributes)>\n"
            + suites.joined()
            + "</testsuites>\n"
    }

    private struct CaseKey: Hashable {
        let placement: String?
        let rule: Rule.ID
    }

    static func suite(_ file: CheckReport.File, report: CheckReport) -> (String, JUnitReport.Tally) {
        let classname = MarkupEscaping.xmlAttribute(file.path)
        var tally = JUnitReport.Tally()
        var cases = ""
        func open(_ name: String) -> String {
            "    <testcase classname=\"\(classname)\" name=\"\(MarkupEscaping.xmlAttribute(name))\" time=\"0\""
        }
        if case .unreadable(let reason) = file.status {
            tally.tests = 1
            tally.errors = 1
            cases = open(ReportRule.fileUnreadable.id.rawValue) + ">\n"
                + "      <error type=\"\(ReportRule.fileUnreadable.id)\" message=\"\(MarkupEscaping.xmlAttribute(file.verdict))\">"
                + "\(MarkupEscaping.xmlText(reason))</error>\n    </testcase>\n"
            return (suiteElement(file, tally: tally, cases: cases), tally)
        }
        var findingsByCase: [CaseKey: [(finding: Finding, location: CheckReport.Location?)]] = [:]
        var order: [CaseKey] = []
        let fileRules = report.rules.filter { $0.scope == .file }.map(\.id)
        let placementRules = report.rules.filter { $0.scope == .placement }.map(\.id)
        order += fileRules.map { CaseKey(placement: nil, rule: $0) }
        for key in file.placementKeys {
            order += placementRules.map { CaseKey(placement: key, rule: $0) }
        }
        var known = Set(order)
        for (index, finding) in file.findings.enumerated() {
            let key = CaseKey(placement: report.rule(finding.ruleId)?.scope == .file ? nil : finding.placementKey, rule: finding.ruleId)
            if known.insert(key).inserted { order.append(key) }
            findingsByCase[key, default: []].append((finding, file.location(ofFindingAt: index)))
        }
        for key in order {
            let name = key.placement.map { "\($0)/\(key.rule)" } ?? key.rule.rawValue
            let findings = findingsByCase[key] ?? []
            tally.tests += 1
            let failing = findings.filter { file.isFailure($0.finding, at: report.failOn) }
            let lines = findings.map { line($0.finding, at: $0.location) }.joined(separator: "\n")
            if let first = failing.first?.finding {
                tally.failures += 1
                cases += open(name) + ">\n"
                    + "      <failure type=\"\(first.severity.rawValue)\" message=\"\(MarkupEscaping.xmlAttribute(first.message))\">"
                    + MarkupEscaping.xmlText(lines) + "</failure>\n    </testcase>\n"
            } else if !findings.isEmpty {
                cases += open(name) + ">\n      <system-out>" + MarkupEscaping.xmlText(lines) + "</system-out>\n    </testcase>\n"
            } else if file.isRejected, key.placement == nil {
                tally.skipped += 1
                cases += open(name) + ">\n      <skipped message=\"not checked: the SDK rejects this file\"/>\n    </testcase>\n"
            } else {
                cases += open(name) + "/>\n"
            }
        }
        return (suiteElement(file, tally: tally, cases: cases), tally)
    }

    static func suiteElement(_ file: CheckReport.File, tally: JUnitReport.Tally, cases: String) -> String {
        "  <testsuite name=\"\(MarkupEscaping.xmlAttribute(file.path))\"\(tally.attributes)>\n"
            + "    <properties>\n      <property name=\"verdict\" value=\"\(MarkupEscaping.xmlAttribute(file.verdict))\"/>\n    </properties>\n"
            + cases
            + "  </testsuite>\n"
    }

    static func line(_ finding: Finding, at location: CheckReport.Location?) -> String {
        (location.map { "\($0.text): " } ?? "") + "\(finding.severity.rawValue): [\(finding.ruleId)] \(finding.message)"
    }
}

/// `GitHubAnnotations` before its escaping tested bytes without a set (commit acaa973).
private enum ReferenceGitHub {
    static func escape(_ text: String, including extra: Set<UInt8>) -> String {
        let text = VisibleText.forTerminal(text, keepingLineBreaks: true)
        let special = extra.union([UInt8(ascii: "%"), 0x0D, 0x0A])
        guard text.utf8.contains(where: special.contains) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, special.contains(UInt8(scalar.value)) {
                let digits = Array("0123456789ABCDEF")
                output += "%" + String([digits[Int(scalar.value >> 4)], digits[Int(scalar.value & 0x0F)]])
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func line(_ command: String, _ properties: [(String, String)], _ message: String) -> String {
        let list = properties.map { "\($0.0)=\(escape($0.1, including: [UInt8(ascii: ":"), UInt8(ascii: ",")]))" }.joined(separator: ",")
        return "::\(command)\(list.isEmpty ? "" : " " + list)::\(escape(message, including: []))"
    }

    static func render(_ report: CheckReport) -> String {
        var lines: [String] = []
        for file in report.files {
            if case .unreadable = file.status {
                lines.append(line("error", [("file", file.path), ("title", ReportRule.fileUnreadable.id.rawValue)], file.verdict))
            }
        }
        for severity in Severity.allCases.sorted(by: >) {
            for file in report.files {
                for (index, finding) in file.findings.enumerated() where finding.severity == severity {
                    let location = file.location(ofFindingAt: index)
                    var title = finding.ruleId.rawValue
                    if let key = finding.placementKey { title += " (\(MarkdownEscaping.truncated(key, to: 100)))" }
                    var properties: [(String, String)] = []
                    if let location {
                        properties.append(("file", location.path))
                        if let line = location.line { properties.append(("line", String(line))) }
                        if let column = location.column { properties.append(("col", String(column))) }
                    }
                    properties.append(("title", title))
                    lines.append(line(GitHubAnnotations.command(for: finding.severity), properties, finding.message))
                }
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
