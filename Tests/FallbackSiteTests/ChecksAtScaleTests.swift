import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Issue 9 point 9: the checks page groups findings by rule with infos collapsed, every finding has
/// a permalink, and every rule has a page quoting `docs/rules.md` that each finding links to.
@Suite("Checks at scale: permalinks and rule pages")
struct ChecksAtScaleTests {
    /// Keys a snapshot may hold: markup, quotes, a fragment sign, spaces, non-ASCII, control characters, length.
    static let hostileKeys = [
        #"\"><script>alert(1)</script>"#, "a b#c", "ключ", #"x\u0000y"#, "f-serves-nothing-1-2", String(repeating: "k", count: 300), "   ",
    ]

    /// No `projectId` (an info), an entry the SDK skips (an error), and an entry that serves nothing
    /// (a warning) under each hostile key.
    static let snapshot: [UInt8] = {
        let entries = hostileKeys.map { key in
            #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1}}"#
        }
        let skipped = #""bad":{"placement":{"identifier":"bad","revision":"5"}}"#
        return Array(#"{"formatVersion":1,"generatedAt":1764400000000,"placements":{\#((entries + [skipped]).joined(separator: ","))}}"#.utf8)
    }()

    static func matches(_ pattern: String, in text: String, group: Int = 1) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            String(text[Range(match.range(at: group), in: text)!])
        }
    }

    static func findingIds(_ html: String) -> [String] {
        matches(#"<li class="finding [^"]*" id="([^"]*)""#, in: html)
    }

    @Test func everyFindingHasASafeUniquePermalink() throws {
        let files = try site(for: Self.snapshot)
        let checks = try #require(files["checks.html"])
        let ids = Self.findingIds(checks)
        let audit = Audit().findings(in: FallbackFile(bytes: Self.snapshot))
        #expect(ids.count == audit.count)
        #expect(Set(ids).count == ids.count, "ids repeat: \(ids)")
        for id in ids {
            #expect(id.wholeMatch(of: /f-[a-z0-9-]{1,40}-[0-9]+-[0-9]+-[0-9a-f]{10}(-[0-9]+)?/) != nil, "unsafe id \(id)")
            // The visible `#` link points at the row's own id.
            #expect(checks.contains(##"<a class="permalink" href="#\##(id)" aria-label="Link to this "##))
        }
        #expect(!checks.contains("<script>alert"))
    }

    @Test func permalinksAreTheSameInEveryBuildAndOnEveryPage() throws {
        let first = try site(for: Self.snapshot)
        let second = try site(for: Self.snapshot)
        #expect(Self.findingIds(first["checks.html"]!) == Self.findingIds(second["checks.html"]!))
        // A placement's page lists its findings under the ids the checks page gives them.
        let checksIds = Set(Self.findingIds(first["checks.html"]!))
        let placementIds = first.filter { $0.key.hasPrefix("placements/") }.values.flatMap { Self.findingIds($0) }
        #expect(!placementIds.isEmpty)
        #expect(Set(placementIds).isSubset(of: checksIds))
    }

    @Test func theIdDependsOnWhatTheFindingIsAndIdenticalFindingsStayApart() {
        func finding(_ key: String?, message: String = "m", line: Int = 3) -> Finding {
            Finding(ruleId: "serves-nothing", severity: .warning, message: message, placementKey: key, pointer: "/placements/x", line: line, column: 7)
        }
        let base = FindingPermalink.id(for: finding("a"))
        #expect(base.hasPrefix("f-serves-nothing-3-7-"))
        #expect(FindingPermalink.id(for: finding("a")) == base)
        #expect(FindingPermalink.id(for: finding("b")) != base)
        #expect(FindingPermalink.id(for: finding(nil)) != FindingPermalink.id(for: finding("")))
        #expect(FindingPermalink.id(for: finding("a", message: "n")) != base)
        #expect(FindingPermalink.ids(for: [finding("a"), finding("a"), finding("a")]) == [base, base + "-2", base + "-3"])
        let hostile = Finding(
            ruleId: Rule.ID(#"x"><img src=y>"#), severity: .info, message: "", placementKey: nil, pointer: "", line: 1, column: 1)
        #expect(FindingPermalink.id(for: hostile).wholeMatch(of: /f-ximgsrcy-1-1-[0-9a-f]{10}/) != nil)
        let empty = Finding(ruleId: Rule.ID("<>"), severity: .info, message: "", placementKey: nil, pointer: "", line: 1, column: 1)
        #expect(FindingPermalink.id(for: empty).hasPrefix("f-rule-1-1-"))
    }

    @Test func infosStartCollapsedAndOtherSeveritiesOpenOneGroupPerRule() throws {
        let checks = try #require(try site(for: Self.snapshot)["checks.html"])
        let groups = Self.matches(#"<section class="rule-group" data-rule="([a-z-]+)" data-severity="([a-z]+)""#, in: checks)
        let audit = Audit().findings(in: FallbackFile(bytes: Self.snapshot))
        let expected = Severity.allCases.sorted(by: >).flatMap { severity in
            Set(audit.filter { $0.severity == severity }.map(\.ruleId.rawValue)).sorted()
        }
        #expect(groups == expected)
        #expect(expected.contains("project-id-missing"))
        let details = Self.matches(
            #"data-severity="([a-z]+)" aria-labelledby="[^"]*">\n<h3[^\n]*\n<p>[^\n]*</p>\n(<details class="rule-findings"(?: open)?>)"#, in: checks,
            group: 0)
        #expect(details.count == groups.count)
        for block in details {
            let isInfo = block.contains(#"data-severity="info""#)
            #expect(block.hasSuffix(isInfo ? #"<details class="rule-findings">"# : #"<details class="rule-findings" open>"#), "\(block)")
        }
        #expect(details.contains { $0.contains(#"data-severity="info""#) })
        #expect(details.contains { $0.contains(#"data-severity="error""#) })
        // Each rule's heading names it and its count, and links to its page.
        #expect(checks.contains(#"<h3 id="rule-error-entry-skipped"><a href="rules/entry-skipped.html"><code>entry-skipped</code></a> <span class="muted">(1)</span></h3>"#))
    }

    @Test func everyRuleHasAPageQuotingItsDocumentationAndThisSnapshotsFindings() throws {
        let files = try site(for: Self.snapshot)
        let findings = Audit().findings(in: FallbackFile(bytes: Self.snapshot))
        for rule in Rule.all {
            let page = try #require(files["rules/\(rule.id.rawValue).html"], "no page for \(rule.id)")
            #expect(page.contains("<h1><code>\(rule.id.rawValue)</code>"))
            #expect(page.contains(MarkupEscaping.html(rule.summary)), "\(rule.id)")
            // File, entry, experiment and funnel rules say what happens on a first launch; history rules, on release.
            #expect(page.contains(rule.category == .history ? "On release" : "On a first launch"), "\(rule.id) does not quote docs/rules.md")
            #expect(!page.contains("Default severity: <strong>"), "\(rule.id) repeats the severity line")
            let expected = findings.filter { $0.ruleId == rule.id }.count
            #expect(Self.findingIds(page).count == expected, "\(rule.id)")
            #expect(page.contains("<dd>\(expected) \(expected == 1 ? "finding" : "findings")</dd>"), "\(rule.id)")
        }
    }

    @Test func everyFindingLinksToItsRulesPageFromEveryPage() throws {
        let files = try site(for: Self.snapshot)
        var links = 0
        for (path, html) in files where path.hasSuffix(".html") {
            let rows = Self.matches(#"(<li class="finding [^\n]*)"#, in: html)
            for row in rows {
                let rule = try #require(Self.matches(#"data-rule="([^"]*)""#, in: row).first)
                let href = try #require(Self.matches(#"<a class="rule-link" href="([^"]*)""#, in: row).first, "\(path): \(rule) is not linked")
                let target = URL(fileURLWithPath: "/site/" + path).deletingLastPathComponent().appendingPathComponent(href).standardized.path
                #expect(target == "/site/rules/\(rule).html", "\(path)")
                #expect(files[String(target.dropFirst("/site/".count))] != nil)
                links += 1
            }
        }
        #expect(links > 0)
    }

    /// The binary quotes the rules' documentation as built in, and that is `docs/rules.md` itself:
    /// one source, a section for every rule of the catalogue and no section for a rule it lacks.
    @Test func theEmbeddedDocumentationIsDocsRulesMdWithASectionPerRule() throws {
        let onDisk = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(RuleDocumentation.text == onDisk)
        #expect(Set(RuleDocumentation.sections.keys) == Set(Rule.all.map(\.id)))
        for rule in Rule.all {
            let section = try #require(RuleDocumentation.sections[rule.id])
            #expect(section.contains(rule.category == .history ? "On release" : "On a first launch"), "\(rule.id)")
            #expect(!section.contains("### "), "\(rule.id) runs into the next section")
        }
    }

    @Test func sectionsEndAtTheNextHeadingButNotInsideACodeBlock() {
        let sections = RuleDocumentation.sections(of: """
            ## File
            ### `a`
            Default severity: **error** · Category: file

            Text of a.
            ```
            ## not a heading
            ```
            ### `b`
            Text of b.
            ## History
            Intro.
            """)
        #expect(sections["a"] == "Text of a.\n```\n## not a heading\n```")
        #expect(sections["b"] == "Text of b.")
        #expect(sections.count == 2)
    }
}
