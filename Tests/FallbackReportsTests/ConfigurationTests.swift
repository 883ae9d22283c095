import FallbackAudit
import FallbackReports
import RovenueFallback
import Testing
import FallbackTestSupport

@Suite("Configuration files")
struct ConfigurationTests {
    func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        try Configuration(bytes: Array(text.utf8), path: "cfg.json")
    }

    @Test func readsEverySetting() throws {
        let configuration = try parse(
            #"{"rules": {"remote-media": "off", "single-variant": "info", "serves-nothing": "error"}, "failOn": "warning", "staleAfterDays": 30, "rulesUrl": "https://example.test/docs/rules.md"}"#
        )
        #expect(configuration.audit.overrides == ["remote-media": .off, "single-variant": .severity(.info), "serves-nothing": .severity(.error)])
        #expect(configuration.failOn == .warning)
        #expect(configuration.staleAfterDays == 30)
        #expect(configuration.rulesURL == "https://example.test/docs/rules.md")
    }

    @Test func anEmptyObjectChangesNothing() throws {
        #expect(try parse("{}") == Configuration())
    }

    @Test func offRemovesTheRulesFindings() throws {
        let text = Snap.funnelFile(extra: ##""theme":{"logoUrl":"https://x.test/logo.png","bg":"#FFF"},"##, [Snap.page("p1")])
        #expect(findings(text).contains { $0.ruleId == "remote-media" })
        let configuration = try parse(#"{"rules": {"remote-media": "off"}}"#)
        #expect(!findings(text, configuration: configuration.audit).contains { $0.ruleId == "remote-media" })
        #expect(!CheckReport.rules(enabledBy: configuration.audit).contains { $0.id == "remote-media" })
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let text: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Bad(text: "{\n  \"rules\": {\n    \"remote-medai\": \"off\"\n  }\n}", line: 3, column: 5, message: #"unknown rule id "remote-medai" (did you mean "remote-media"?)"#),
        Bad(text: #"{"rules": {"remote-media": "loud"}}"#, line: 1, column: 28, message: "the severity of remote-media must be"),
        Bad(text: #"{"rules": {"remote-media": "off", "remote-media": "info"}}"#, line: 1, column: 35, message: #"duplicate key "remote-media""#),
        Bad(text: #"{"rules": {"file-rejected": "off"}}"#, line: 1, column: 29, message: "file-rejected cannot be changed"),
        Bad(text: #"{"rules": ["remote-media"]}"#, line: 1, column: 11, message: "rules must be an object"),
        Bad(text: #"{"failOn": "sometimes"}"#, line: 1, column: 12, message: #"failOn must be "error", "warning", "info" or "never""#),
        Bad(text: #"{"staleAfterDays": 1.5}"#, line: 1, column: 20, message: "staleAfterDays must be a whole number of days"),
        Bad(text: #"{"staleAfterDays": 0}"#, line: 1, column: 20, message: "at least 1"),
        Bad(text: #"{"staleAfterDays": "30"}"#, line: 1, column: 20, message: #"found the string "30""#),
        Bad(text: #"{"rulesUrl": "docs/rules.md"}"#, line: 1, column: 14, message: "rulesUrl must be an http or https URL"),
        Bad(text: #"{"failon": "error"}"#, line: 1, column: 2, message: #"unknown key "failon" (did you mean "failOn"?)"#),
        Bad(text: #"{"failOn": "error", "failOn": "never"}"#, line: 1, column: 21, message: #"duplicate key "failOn""#),
        Bad(text: "{\n  \"failOn\": \"error\",\n}", line: 3, column: 1, message: "not valid JSON"),
        Bad(text: "[]", line: 1, column: 1, message: "expected an object"),
        Bad(text: "", line: 1, column: 1, message: "not valid JSON"),
    ])
    func badValuesNameFileLineAndColumn(bad: Bad) {
        #expect {
            try parse(bad.text)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.path == "cfg.json" && error.line == bad.line && error.column == bad.column
                && error.message.contains(bad.message)
                && error.description.hasPrefix("cfg.json:\(bad.line):\(bad.column): ")
        }
    }

    @Test func fileRejectedMayBeRestatedAsError() throws {
        #expect(try parse(#"{"rules": {"file-rejected": "error"}}"#).audit.overrides["file-rejected"] == .severity(.error))
    }
}

@Suite("Report model")
struct CheckReportModelTests {
    @Test func aRejectedFileKeepsFileRejectedAtErrorWhateverTheFindings() {
        let file = FallbackFile(text: #"{"formatVersion":2}"#)
        for findings in [[], file.audit().map { finding in
            Finding(
                ruleId: finding.ruleId, severity: .info, message: finding.message, placementKey: nil, pointer: finding.pointer,
                line: finding.line, column: finding.column)
        }] {
            let checked = CheckReport.File(path: "bad.json", file: file, findings: findings)
            #expect(checked.isRejected)
            #expect(checked.findings.filter { $0.ruleId == "file-rejected" }.map(\.severity) == [.error])
            #expect(checked.fails(at: .never))
        }
    }

    @Test(arguments: FailureThreshold.allCases)
    func thresholds(threshold: FailureThreshold) {
        let failing = Severity.allCases.filter(threshold.fails)
        switch threshold {
        case .error: #expect(failing == [.error])
        case .warning: #expect(Set(failing) == [.error, .warning])
        case .info: #expect(Set(failing) == Set(Severity.allCases))
        case .never: #expect(failing.isEmpty)
        }
    }
}
