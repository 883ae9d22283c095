import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

// The catalogue's documentation runs each history rule's example through the history, so the
// catalogue's tests live with the first module that has every rule's implementation.

@Suite("The rule catalogue")
struct CatalogueTests {
    @Test func idsAreUniqueStableAndFindable() {
        let ids = Rule.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in Rule.all {
            #expect(Rule(id: rule.id) == rule)
            #expect(rule.id.rawValue.allSatisfy { $0.isLowercase || $0 == "-" }, "\(rule.id)")
            #expect(!rule.summary.isEmpty)
        }
        #expect(Rule(id: "no-such-rule") == nil)
        #expect(Rule.all.count == 40)
    }

    @Test func defaultSeverities() {
        let errors = Rule.all.filter { $0.severity == .error }.map(\.id)
        #expect(errors == [
            "file-rejected", "entry-skipped", "weights-percent", "duplicate-variant-id", "funnel-empty", "duplicate-page-id",
            "goto-unknown", "cycle", "duplicate-question-id", "question-unknown", "clause-value-invalid",
            "paywall-unavailable-offline", "revision-regressed", "project-changed",
        ])
        #expect(Rule.all.filter { $0.severity == .info }.map(\.id) == [
            "project-id-missing", "remote-media", "content-changed-same-revision", "snapshot-tie",
        ])
    }

    @Test func severitiesCompareByHowMuchTheyMatter() {
        #expect(Severity.info < .warning)
        #expect(Severity.warning < .error)
        #expect([Severity.error, .info, .warning].sorted() == [.info, .warning, .error])
    }

    /// `docs/rules.md` has a section per rule, headed by its id, that states its default severity and
    /// category and gives an example that triggers it (for a history rule, a JSON array of snapshots).
    @Test func everyRuleIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let sections = text.components(separatedBy: "\n### `").dropFirst()
        let documented = Dictionary(
            sections.map { section in
                (String(section.prefix { $0 != "`" }), section)
            },
            uniquingKeysWith: { first, _ in first })
        for rule in Rule.all {
            let section = try #require(documented[rule.id.rawValue], "no section for \(rule.id)")
            #expect(section.contains("Default severity: **\(rule.severity.rawValue)**"), "\(rule.id)")
            #expect(section.contains("Category: \(rule.category.rawValue)"), "\(rule.id)")
            let example = try #require(
                section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first,
                "\(rule.id) has no example")
            if rule.category == .history {
                #expect(try historyFindings(example).contains { $0.ruleId == rule.id }, "the example of \(rule.id) does not trigger it")
                continue
            }
            let snapshot = example.hasPrefix("{") || example.hasPrefix("[") ? example : Snap.file(example)
            #expect(findings(snapshot).contains { $0.ruleId == rule.id }, "the example of \(rule.id) does not trigger it")
        }
        #expect(Set(documented.keys) == Set(Rule.all.map(\.id.rawValue)))
    }
}
