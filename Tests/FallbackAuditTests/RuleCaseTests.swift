import FallbackAudit
import RovenueFallback
import Testing
import FallbackTestSupport

/// A snapshot that triggers a rule, where, and a close variant that must not trigger it.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: Rule.ID
    let label: String
    let snapshot: String
    let key: String?
    let pointer: String
    let marker: Marker
    /// Text the message must contain.
    let mentions: [String]
    let clean: String

    init(
        _ rule: Rule.ID, _ snapshot: String, key: String?, pointer: String, at marker: Marker, mentions: [String] = [],
        clean: String
    ) {
        self.init(rule, "", snapshot, key: key, pointer: pointer, at: marker, mentions: mentions, clean: clean)
    }

    init(
        _ rule: Rule.ID, _ label: String, _ snapshot: String, key: String?, pointer: String, at marker: Marker,
        mentions: [String] = [], clean: String
    ) {
        self.rule = rule
        self.label = label
        self.snapshot = snapshot
        self.key = key
        self.pointer = pointer
        self.marker = marker
        self.mentions = mentions
        self.clean = clean
    }

    var testDescription: String { label.isEmpty ? rule.rawValue : "\(rule) (\(label))" }
}

extension RuleCase {
    static let funnelPointer = "/placements/onb/funnel"

    static let all: [RuleCase] = file + entry + experiment + funnel

    static let file: [RuleCase] = [
        RuleCase(
            "file-rejected", #"{"formatVersion":2,"placements":{}}"#, key: nil, pointer: "/formatVersion", at: .at("2"),
            mentions: ["§2 rule 10", "unsupported fallback placements formatVersion 2 (expected 1)"],
            clean: Snap.file("")),
        RuleCase(
            "array-top-level", #"[1,{}]"#, key: nil, pointer: "", at: .at("["), mentions: ["[formatVersion, placements]"],
            clean: Snap.file("")),
        RuleCase(
            "generated-at-invalid", "seconds", Snap.file("", generatedAt: "1764400000"), key: nil, pointer: "/generatedAt",
            at: .after(#""generatedAt":"#), mentions: ["looks like seconds", "2025-11-29T07:06:40Z"], clean: Snap.file("")),
        RuleCase(
            "generated-at-invalid", "a string", Snap.file("", generatedAt: #""2025-11-29""#), key: nil,
            pointer: "/generatedAt", at: .after(#""generatedAt":"#), mentions: [#"the string "2025-11-29""#],
            clean: Snap.file("")),
        RuleCase(
            "generated-at-invalid", "missing", #"{"formatVersion":1,"projectId":"p","placements":{}}"#, key: nil, pointer: "",
            at: .at("{"), mentions: ["missing"], clean: Snap.file("")),
        RuleCase(
            "generated-at-future", Snap.file("", generatedAt: "1764403600000"), key: nil, pointer: "/generatedAt",
            at: .after(#""generatedAt":"#), mentions: ["2025-11-29T08:06:40Z is 1 h after now (2025-11-29T07:06:40Z)"],
            clean: Snap.file("", generatedAt: "1764400240000")),
        RuleCase(
            "project-id-missing", Snap.file("", projectId: #""""#), key: nil, pointer: "/projectId",
            at: .after(#""projectId":"#), mentions: ["blank"], clean: Snap.file("")),
    ]

    static let entry: [RuleCase] = [
        RuleCase(
            "entry-skipped", Snap.file(#""a":{"placement":{"identifier":"a","revision":"5"},"paywall":\#(Snap.paywall())}"#),
            key: "a", pointer: "/placements/a/placement/revision", at: .after(#""revision":"#),
            mentions: ["`fallback placement entry skipped: a`", #"expected an integer, found the string "5""#],
            clean: Snap.paywallFile),
        RuleCase(
            "array-as-object", Snap.file(#""a":{"placement":["a",1],"paywall":\#(Snap.paywall())}"#), key: "a",
            pointer: "/placements/a/placement", at: .at(#"["a",1]"#), mentions: ["This placement", "[identifier, revision]"],
            clean: Snap.paywallFile),
        RuleCase(
            "duplicate-key", "placement key",
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#) + "," + Snap.entry("a", #""paywall":\#(Snap.paywall())"#)),
            key: "a", pointer: "/placements/a", at: .at(#""a":{"#),
            mentions: ["appears 2 times", "keeps the last occurrence (line 1, column "],
            clean: Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#) + "," + Snap.entry("b", #""paywall":\#(Snap.paywall())"#))),
        RuleCase(
            "duplicate-key", "field",
            Snap.file(#""a":{"placement":{"identifier":"a","revision":1,"revision":2},"paywall":\#(Snap.paywall())}"#),
            key: "a", pointer: "/placements/a/placement/revision", at: .after(#""revision":"#),
            mentions: [#"Field "revision" is written 2 times"#], clean: Snap.paywallFile),
        RuleCase(
            "key-mismatch", Snap.file(#""a":{"placement":\#(Snap.placement("b")),"paywall":\#(Snap.paywall())}"#), key: "a",
            pointer: "/placements/a/placement/identifier", at: .after(#""identifier":"#),
            mentions: [#"placement.identifier "b""#], clean: Snap.paywallFile),
        RuleCase(
            "serves-nothing", "no target", Snap.file(#""a":{"placement":\#(Snap.placement("a"))}"#), key: "a",
            pointer: "/placements/a", at: .after(#""a":"#), mentions: ["no funnel, paywall or experiment"],
            clean: Snap.paywallFile),
        RuleCase(
            "serves-nothing", "no placement", Snap.file(#""a":{"paywall":\#(Snap.paywall())}"#), key: "a",
            pointer: "/placements/a", at: .after(#""a":"#), mentions: ["has no placement"], clean: Snap.paywallFile),
        RuleCase(
            "serves-nothing", "no variants", Snap.experimentFile(), key: "a", pointer: "/placements/a/experiment/variants",
            at: .after(#""variants":"#), mentions: ["no variants"],
            clean: Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.5"))),
        RuleCase(
            "shadowed-target",
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall()),"funnel":{"id":"f","slug":"f","pages":[\#(Snap.page("p1"))]}"#)),
            key: "a", pointer: "/placements/a/paywall", at: .after(#""paywall":"#), mentions: ["serves the funnel"],
            clean: Snap.file(Snap.entry("a", #""funnel":{"id":"f","slug":"f","pages":[\#(Snap.page("p1"))]}"#))),
        RuleCase(
            "shadowed-target", "paywall over experiment",
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall()),"experiment":{"id":"exp","key":"k","variants":[]}"#)),
            key: "a", pointer: "/placements/a/experiment", at: .after(#""experiment":"#),
            mentions: ["serves the paywall", "never draws a variant"], clean: Snap.paywallFile),
        RuleCase(
            "revision-invalid", Snap.file(#""a":{"placement":\#(Snap.placement("a", revision: "0")),"paywall":\#(Snap.paywall())}"#),
            key: "a", pointer: "/placements/a/placement/revision", at: .after(#""revision":"#), mentions: ["revision is 0"],
            clean: Snap.paywallFile),
        RuleCase(
            "identifier-invalid", "key", Snap.file(#""a ":{"placement":\#(Snap.placement("a ")),"paywall":\#(Snap.paywall())}"#),
            key: "a ", pointer: "/placements/a ", at: .at(#""a ":"#), mentions: ["leading or trailing whitespace"],
            clean: Snap.paywallFile),
        RuleCase(
            "identifier-invalid", "identifier over 160 characters",
            Snap.file(#""a":{"placement":\#(Snap.placement(String(repeating: "x", count: 161))),"paywall":\#(Snap.paywall())}"#),
            key: "a", pointer: "/placements/a/placement/identifier", at: .after(#""identifier":"#),
            mentions: ["161 characters"],
            clean: Snap.file(#""a":{"placement":\#(Snap.placement("a")),"paywall":\#(Snap.paywall())}"#)),
    ]

    static let experiment: [RuleCase] = [
        RuleCase(
            "weights-sum", Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.3")), key: "a",
            pointer: "/placements/a/experiment/variants", at: .after(#""variants":"#),
            mentions: [
                "sum to 0.8", #"the last variant "b" absorbs the missing 0.2"#, #""a" 5000 buckets (50%), "b" 5000 (50%)"#,
            ],
            clean: Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.5"))),
        RuleCase(
            "weights-percent", Snap.experimentFile(Snap.variant("a", "50"), Snap.variant("b", "50")), key: "a",
            pointer: "/placements/a/experiment/variants", at: .after(#""variants":"#),
            mentions: [#"every subscriber draws "a""#, #""a" 10000 buckets (100%), "b" 0 (0%)"#, "(50, 50)"],
            clean: Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.5"))),
        RuleCase(
            "weight-not-positive", Snap.experimentFile(Snap.variant("a", "1"), Snap.variant("b", "0")), key: "a",
            pointer: "/placements/a/experiment/variants/1/weight", at: .after(#""variantId":"b","weight":"#),
            mentions: ["receives 0 of 10000 buckets (0%), so no subscriber draws it"],
            clean: Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.5"))),
        RuleCase(
            "single-variant", Snap.experimentFile(Snap.variant("a", "1")), key: "a", pointer: "/placements/a/experiment/variants",
            at: .after(#""variants":"#), mentions: [#"single variant "a""#],
            clean: Snap.experimentFile(Snap.variant("a", "0.5"), Snap.variant("b", "0.5"))),
        RuleCase(
            "duplicate-variant-id", Snap.experimentFile(Snap.variant("a", "0.4"), Snap.variant("a", "0.6")), key: "a",
            pointer: "/placements/a/experiment/variants/1/variantId", at: .after(#"},{"variantId":"#),
            mentions: ["#1 and #2"], clean: Snap.experimentFile(Snap.variant("a", "0.4"), Snap.variant("b", "0.6"))),
    ]

    static let funnel: [RuleCase] = [
        RuleCase(
            "funnel-empty", Snap.funnelFile(extra: "", []), key: "onb", pointer: "\(funnelPointer)/pages",
            at: .after(#""pages":"#), mentions: [#"Funnel "f" has no pages"#], clean: Snap.funnelFile(extra: "", [Snap.page("p1")])),
        RuleCase(
            "page-type-unknown", Snap.funnelFile(extra: "", [Snap.page("p1", "welcom")]), key: "onb",
            pointer: "\(funnelPointer)/pages/0/type", at: .after(#""type":"#), mentions: [#"did you mean "welcome"?"#],
            clean: Snap.funnelFile(extra: "", [Snap.page("p1", "welcome")])),
        RuleCase(
            "duplicate-page-id", Snap.funnelFile(extra: "", [Snap.page("p1"), Snap.page("p1")]), key: "onb",
            pointer: "\(funnelPointer)/pages/1/id", at: .after(#"},{"id":"#), mentions: ["#1 and #2"],
            clean: Snap.funnelFile(extra: "", [Snap.page("p1"), Snap.page("p2")])),
        RuleCase(
            "goto-unknown", "rule", Snap.funnelFile(welcome: #""next_rules":[\#(Snap.rule("r1", goto: "p9"))]"#), key: "onb",
            pointer: "\(funnelPointer)/pages/0/next_rules/0/goto", at: .after(#""goto":"#),
            mentions: [#"Rule "r1" on page "p1" goes to "p9", which is neither a page"#],
            clean: Snap.funnelFile(welcome: #""next_rules":[\#(Snap.rule("r1", goto: "p3"))]"#)),
        RuleCase(
            "goto-unknown", "paywall without a paywall page",
            Snap.funnelFile(extra: "", [Snap.page("p1", "welcome", #""default_next":"paywall""#), Snap.page("p2")]),
            key: "onb", pointer: "\(funnelPointer)/pages/0/default_next", at: .after(#""default_next":"#),
            mentions: ["no page of type paywall"],
            clean: Snap.funnelFile(extra: "", [Snap.page("p1", "welcome", #""default_next":"end""#), Snap.page("p2")])),
        RuleCase(
            "cycle", "loop", Snap.funnelFile(question: #""next_rules":[\#(Snap.rule("back", goto: "p1"))]"#), key: "onb",
            pointer: "\(funnelPointer)/pages/1/next_rules/0/goto", at: .after(#""goto":"#),
            mentions: ["closing the loop p1 → p2 → p1"],
            clean: Snap.funnelFile(question: #""next_rules":[\#(Snap.rule("back", goto: "p3"))]"#)),
        RuleCase(
            "cycle", "self", Snap.funnelFile(welcome: #""default_next":"p1""#), key: "onb",
            pointer: "\(funnelPointer)/pages/0/default_next", at: .after(#""default_next":"#),
            mentions: ["goes to its own page", "p1 → p1"], clean: Snap.funnelFile(welcome: #""default_next":"p2""#)),
        RuleCase(
            "cycle", "back edge that closes no loop",
            Snap.funnelFile(
                extra: "",
                [Snap.page("p1", "welcome", #""default_next":"end""#), Snap.page("p2", "statement", #""default_next":"p1""#)]),
            key: "onb", pointer: "\(funnelPointer)/pages/1/default_next", at: .after(#""statement","default_next":"#),
            mentions: ["(p2 → p1). No path leads from p1 back to p2", "even in a branch never taken"],
            clean: Snap.funnelFile(
                extra: "",
                [Snap.page("p1", "welcome", #""default_next":"p2""#), Snap.page("p2", "statement", #""default_next":"end""#)])),
        RuleCase(
            "page-unreachable", Snap.funnelFile(welcome: #""default_next":"p3""#), key: "onb",
            pointer: "\(funnelPointer)/pages/1", at: .at(#"{"id":"p2""#), mentions: [#"Page "p2" (#2)"#],
            clean: Snap.funnelFile(welcome: #""default_next":"p2""#)),
        RuleCase(
            "duplicate-question-id", Snap.funnelFile(paywallPage: #""paywallId":"pw","question_id":"goal""#), key: "onb",
            pointer: "\(funnelPointer)/pages/2/question_id", at: .after(#""paywallId":"pw","question_id":"#),
            mentions: [#"Pages "p2" and "p3" both ask question_id "goal""#],
            clean: Snap.funnelFile(paywallPage: #""paywallId":"pw","question_id":"plan""#)),
        RuleCase(
            "question-unknown",
            Snap.funnelFile(question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("gaol", "is_answered")))]"#),
            key: "onb", pointer: "\(funnelPointer)/pages/1/next_rules/0/condition/clauses/0/question_id",
            at: .after(#"{"question_id":"#), mentions: [#"did you mean "goal"?"#, "always false"],
            clean: Snap.funnelFile(
                question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "is_answered")))]"#)),
        RuleCase(
            "question-not-yet-asked",
            Snap.funnelFile(welcome: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "neq", #""a""#)))]"#),
            key: "onb", pointer: "\(funnelPointer)/pages/0/next_rules/0/condition/clauses/0/question_id",
            at: .after(#"{"question_id":"#), mentions: [#"first asked on page "p2" (#2)"#, "`neq` is always true"],
            clean: Snap.funnelFile(
                question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "neq", #""a""#)))]"#)),
        RuleCase(
            "clause-value-invalid",
            Snap.funnelFile(question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "between", "[65,18]")))]"#),
            key: "onb", pointer: "\(funnelPointer)/pages/1/next_rules/0/condition/clauses/0/value",
            at: .after(#""op":"between","value":"#), mentions: ["min 65 above max 18"],
            clean: Snap.funnelFile(
                question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "between", "[18,65]")))]"#)),
        RuleCase(
            "clause-option-unknown",
            Snap.funnelFile(question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "eq", #""c""#)))]"#),
            key: "onb", pointer: "\(funnelPointer)/pages/1/next_rules/0/condition/clauses/0/value",
            at: .after(#""op":"eq","value":"#), mentions: [#"with "c""#, #"(values: "a", "b")"#],
            clean: Snap.funnelFile(
                question: #""next_rules":[\#(Snap.rule("r", goto: "p3", clauses: Snap.clause("goal", "eq", #""a""#)))]"#)),
        RuleCase(
            "options-missing", Snap.funnelFile(extra: "", [Snap.page("p1", "single_choice")]), key: "onb",
            pointer: "\(funnelPointer)/pages/0", at: .at(#"{"id":"p1""#), mentions: ["single_choice page with no options"],
            clean: Snap.funnelFile(extra: "", [Snap.page("p1", "single_choice", Snap.options)])),
        RuleCase(
            "paywall-unavailable-offline", "not carried", Snap.funnelFile(paywallPage: #""paywallId":"pwx""#), key: "onb",
            pointer: "\(funnelPointer)/pages/2/paywallId", at: .after(#""paywallId":"#),
            mentions: [#"shows paywall "pwx""#, #"(it carries "pw"; did you mean "pw"?)"#], clean: Snap.funnelFile()),
        RuleCase(
            "paywall-unavailable-offline", "no paywallId", Snap.funnelFile(paywallPage: #""headline":"Go""#), key: "onb",
            pointer: "\(funnelPointer)/pages/2", at: .at(#"{"id":"p3""#), mentions: ["has no paywallId"],
            clean: Snap.funnelFile()),
        RuleCase(
            "translation-missing",
            Snap.funnelFile(
                welcome: #""title":{"en":"Hi","de":""}"#, extra: #""locales":["en","de"],"paywalls":{"pw":\#(Snap.paywall())},"#),
            key: "onb", pointer: "\(funnelPointer)/pages/0/title/de", at: .after(#""de":"#),
            mentions: [#"Page "p1" title has no copy for locale "de" (blank)"#],
            clean: Snap.funnelFile(
                welcome: #""title":{"en":"Hi","de":"Hallo"}"#,
                extra: #""locales":["en","de"],"paywalls":{"pw":\#(Snap.paywall())},"#)),
        RuleCase(
            "text-not-localized",
            Snap.funnelFile(welcome: #""title":"Hi""#, extra: #""locales":["en","de"],"paywalls":{"pw":\#(Snap.paywall())},"#),
            key: "onb", pointer: "\(funnelPointer)/pages/0/title", at: .after(#""title":"#),
            mentions: [#"Page "p1" of funnel "f" has 1 plain text (title)"#, #"a first launch in "de" shows it as written"#],
            clean: Snap.funnelFile(welcome: #""title":"Hi""#, extra: #""locales":["en"],"paywalls":{"pw":\#(Snap.paywall())},"#)),
        RuleCase(
            "remote-media", Snap.funnelFile(welcome: #""mediaUrl":"https://cdn.example.com/a.png""#), key: "onb",
            pointer: "\(funnelPointer)/pages/0", at: .at(#"{"id":"p1""#), mentions: ["mediaUrl https://cdn.example.com/a.png"],
            clean: Snap.funnelFile(welcome: #""termsUrl":"https://example.com/terms""#)),
    ]
}

@Suite("Every rule: a snapshot that triggers it and a close variant that does not")
struct RuleCaseTests {
    @Test("Triggers", arguments: RuleCase.all)
    func triggers(_ ruleCase: RuleCase) throws {
        let rule = try #require(Rule(id: ruleCase.rule))
        let found = findings(ruleCase.snapshot).filter { $0.ruleId == ruleCase.rule }
        let finding = try #require(
            found.first { $0.pointer == ruleCase.pointer }, "no \(ruleCase.rule) at \(ruleCase.pointer) in \(found)")
        let expected = try #require(ruleCase.marker.position(in: ruleCase.snapshot))
        #expect(finding.severity == rule.severity)
        #expect(finding.placementKey == ruleCase.key)
        #expect(finding.line == expected.line)
        #expect(finding.column == expected.column)
        for text in ruleCase.mentions {
            #expect(finding.message.contains(text), "\(finding.message) lacks \(text)")
        }
    }

    @Test("Close variant does not trigger", arguments: RuleCase.all)
    func closeVariant(_ ruleCase: RuleCase) {
        let found = findings(ruleCase.clean).filter { $0.ruleId == ruleCase.rule }
        #expect(found.isEmpty, "\(found)")
    }

    /// History rules need a series; `HistoryRuleTests` has their cases.
    @Test func everyRuleHasACase() {
        let covered = Set(RuleCase.all.map(\.rule))
        let snapshotRules = Rule.all.filter { $0.category != .history }.map(\.id)
        #expect(Set(snapshotRules).subtracting(covered).isEmpty)
        #expect(covered.subtracting(snapshotRules).isEmpty)
    }

    @Test("Clean building blocks draw no finding at all", arguments: [
        Snap.file(""), Snap.paywallFile, Snap.funnelFile(),
        Snap.experimentFile(Snap.variant("a", "0.34"), Snap.variant("b", "0.33"), Snap.variant("c", "0.33")),
    ])
    func cleanSnapshots(_ text: String) {
        #expect(findings(text).isEmpty)
    }
}
