import FallbackAudit
import RovenueFallback
import Testing
import FallbackTestSupport

/// A finding reduced to what the fixture tests pin down.
struct Located: Hashable, CustomStringConvertible {
    let rule: String
    let key: String?
    let pointer: String
    let line: Int
    let column: Int

    init(_ rule: String, _ key: String?, _ pointer: String, _ line: Int, _ column: Int) {
        self.rule = rule
        self.key = key
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    init(_ finding: Finding) {
        self.init(finding.ruleId.rawValue, finding.placementKey, finding.pointer, finding.line, finding.column)
    }

    var description: String { "\(line):\(column) \(rule) [\(key ?? "")] \(pointer)" }
}

@Suite("The contract's example files")
struct FixtureAuditTests {
    @Test func funnelEraFindings() throws {
        let file = FallbackFile(bytes: try fixtureBytes("funnel-era-fallback.json"))
        let found = file.audit(now: testNow)
        // The control funnel declares "en" and "tr" but writes most of its copy as plain English
        // strings; the win-back paywall page's headline is plain too: text-not-localized, one per page.
        let control = "/placements/onboarding/experiment/variants/0/funnel"
        #expect(found.map(Located.init) == [
            Located("text-not-localized", "onboarding", "\(control)/pages/0/body", 38, 27),
            Located("text-not-localized", "onboarding", "\(control)/pages/1/title", 49, 28),
            Located("text-not-localized", "onboarding", "\(control)/pages/2/title", 67, 28),
            Located("text-not-localized", "onboarding", "\(control)/pages/3/body", 94, 27),
            Located("text-not-localized", "onboarding", "\(control)/pages/4/title", 139, 28),
            Located("text-not-localized", "onboarding", "\(control)/pages/5/title", 147, 28),
            Located("text-not-localized", "onboarding", "\(control)/pages/6/headline", 158, 31),
            Located("text-not-localized", "onboarding", "\(control)/pages/7/title", 168, 28),
            Located(
                "remote-media", "onboarding",
                "/placements/onboarding/experiment/variants/0/funnel/paywalls/pwl_demo_default/builderConfig", 202, 36),
            Located("remote-media", "onboarding", "/placements/onboarding/experiment/variants/1/funnel/pages/2", 420, 17),
            Located("remote-media", "onboarding_short", "/placements/onboarding_short/funnel/pages/2", 693, 11),
            Located(
                "remote-media", "onboarding_short", "/placements/onboarding_short/funnel/paywalls/pwl_demo_default/builderConfig",
                743, 30),
            Located("serves-nothing", "settings_banner", "/placements/settings_banner", 968, 24),
            Located("translation-missing", "winback", "/placements/winback/funnel/pages/0/body/de", 998, 21),
            Located("goto-unknown", "winback", "/placements/winback/funnel/pages/0/default_next", 1005, 29),
            Located("page-unreachable", "winback", "/placements/winback/funnel/pages/1", 1007, 11),
            Located("text-not-localized", "winback", "/placements/winback/funnel/pages/1/headline", 1010, 25),
            Located("paywall-unavailable-offline", "winback", "/placements/winback/funnel/pages/1/paywallId", 1011, 26),
            Located("entry-skipped", "trial_reminder", "/placements/trial_reminder/placement/revision", 1023, 21),
        ])
        let severities = Dictionary(found.map { ($0.ruleId, $0.severity) }, uniquingKeysWith: { first, _ in first })
        #expect(severities["entry-skipped"] == .error)
        #expect(severities["goto-unknown"] == .error)
        #expect(severities["paywall-unavailable-offline"] == .error)
        #expect(severities["translation-missing"] == .warning)
        #expect(severities["text-not-localized"] == .warning)
        #expect(severities["remote-media"] == .info)

        let message = { (rule: Rule.ID) in found.first { $0.ruleId == rule }?.message ?? "" }
        #expect(message("entry-skipped").contains("`fallback placement entry skipped: trial_reminder`"))
        #expect(message("entry-skipped").contains(#"expected an integer, found the string "5""#))
        #expect(message("goto-unknown").contains(#""pg_checkout""#))
        #expect(message("paywall-unavailable-offline").contains(#""pwl_missing""#))
        #expect(message("translation-missing").contains(#"locale "de" (blank)"#))
        #expect(message("text-not-localized").contains(#"a first launch in "tr" shows it as written"#))
        #expect(found.contains { $0.ruleId == "remote-media" && $0.message.contains("https://cdn.example.com/onboarding/plan.png") })
    }

    /// 6 of 6 load. The only findings: `settings_none` serves nothing, and the builder paywall's hero
    /// image needs the network. The 0.34/0.33/0.33 split sums to 1 within 1e-9 and draws no finding.
    @Test func paywallEraFindings() throws {
        let file = FallbackFile(bytes: try fixtureBytes("paywall-era-fallback.json"))
        #expect(file.loadedCount == 6)
        let found = file.audit(now: testNow)
        #expect(found.map(Located.init) == [
            Located("remote-media", "builder_onboarding", "/placements/builder_onboarding/paywall/builderConfig", 17, 26),
            Located("serves-nothing", "settings_none", "/placements/settings_none", 330, 22),
        ])
        #expect(found[0].message.contains("root/children/0/url/light https://cdn.example.com/hero.png"))
        #expect(found[0].message.contains("root/children/0/url/dark https://cdn.example.com/hero-dark.png"))
        #expect(Bucketing.shares(weights: [0.34, 0.33, 0.33]) == [3400, 3300, 3300])
    }

    @Test("Findings come ordered by line, column, then rule id", arguments: ["funnel-era-fallback.json", "paywall-era-fallback.json"])
    func ordered(_ name: String) throws {
        let found = FallbackFile(bytes: try fixtureBytes(name)).audit(now: testNow)
        let keys = found.map { [String($0.line), String($0.column), $0.ruleId] }
        #expect(found == found.sorted { ($0.line, $0.column, $0.ruleId) < ($1.line, $1.column, $1.ruleId) }, "\(keys)")
        #expect(found == FallbackFile(bytes: try fixtureBytes(name)).audit(now: testNow))
    }
}
