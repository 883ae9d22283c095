import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

@Suite("Configuration, ordering and the file as a whole")
struct AuditBehaviourTests {
    @Test func configurationTurnsRulesOffOrChangesTheirSeverity() {
        let text = Snap.file(#""a":{"placement":\#(Snap.placement("a"))}"#, projectId: #""""#)
        #expect(findings(text).map(\.ruleId) == ["project-id-missing", "serves-nothing"])
        let configuration = AuditConfiguration(overrides: ["serves-nothing": .severity(.error), "project-id-missing": .off])
        let found = findings(text, configuration: configuration)
        #expect(found.map(\.ruleId) == ["serves-nothing"])
        #expect(found.first?.severity == .error)
    }

    @Test func overridesParseAndUnknownIdsAreListed() {
        #expect(AuditConfiguration.Override("off") == .off)
        #expect(AuditConfiguration.Override("info") == .severity(.info))
        #expect(AuditConfiguration.Override("fatal") == nil)
        let configuration = AuditConfiguration(overrides: ["cycle": .off, "zzz": .off, "aaa": .severity(.info)])
        #expect(configuration.unknownRuleIds == ["aaa", "zzz"])
        #expect(configuration.severity(of: .cycle) == nil)
        #expect(configuration.severity(of: .gotoUnknown) == .error)
    }

    @Test func findingsAtOnePlaceAreOrderedByRuleId() {
        let long = String(repeating: "x", count: 161)
        let found = findings(Snap.file(#""a":{"placement":\#(Snap.placement(long)),"paywall":\#(Snap.paywall())}"#))
        #expect(found.map(\.ruleId) == ["identifier-invalid", "key-mismatch"])
        #expect(found[0].line == found[1].line && found[0].column == found[1].column)
    }

    @Test func keyAndIdentifierAreComparedByTheirBytes() {
        // "é" precomposed as the key, decomposed as the identifier: equal to Swift, different to the SDK.
        let found = findings(Snap.file(#""caf\u00e9":{"placement":\#(Snap.placement("cafe\u{301}")),"paywall":\#(Snap.paywall())}"#))
        let mismatch = found.first { $0.ruleId == "key-mismatch" }
        #expect(mismatch != nil)
        #expect(mismatch?.message.contains("finds nothing offline") == true)
    }

    @Test func descriptionReadsLikeACompilerDiagnostic() throws {
        let finding = try #require(findings(Snap.file(#""a":{"placement":\#(Snap.placement("a"))}"#)).first)
        #expect(finding.description.hasPrefix("1:87 warning serves-nothing [a] /placements/a: Placement \"a\""))
        #expect(finding.rule == .servesNothing)
    }

    static let rejected: [(text: String, rules: [Rule.ID], section: String)] = [
        (#"{"formatVersion":1,"placements":{"a":{}},}"#, ["file-rejected"], "§2 rule 1"),
        ("\u{FEFF}" + Snap.file(""), ["file-rejected"], "§2 rule 2"),
        (#"{"formatVersion":1,"placements":null}"#, ["file-rejected"], "§2 rule 9"),
        (#"{"formatVersion":1.0,"placements":{"a":{"placement":{"identifier":"","revision":0}}}}"#, ["file-rejected"], "§2 rule 10"),
        (#"[1,{},3]"#, ["array-top-level", "file-rejected"], "§2, array quirk"),
    ]

    @Test("A rejected file gets file-rejected and nothing else but array-top-level", arguments: rejected)
    func rejectedFile(_ item: (text: String, rules: [Rule.ID], section: String)) throws {
        let found = findings(item.text)
        #expect(found.map(\.ruleId) == item.rules)
        let finding = try #require(found.first { $0.ruleId == "file-rejected" })
        #expect(finding.message.contains(item.section))
        #expect(finding.message.contains("The SDK's message: \"fallback placements file is not valid JSON")
            || finding.message.contains("The SDK's message: \"unsupported fallback placements formatVersion"))
    }

    @Test func byteOrderMarkNamesTheLoadersThatThrow() throws {
        let finding = try #require(findings("\u{FEFF}" + Snap.file("")).first)
        #expect(finding.message.contains("Swift's file-URL loader strips the byte-order mark"))
        #expect(finding.line == 1 && finding.column == 1)
    }

    @Test func generatedAtInTheFutureNeedsANow() {
        let text = Snap.file("", generatedAt: "9999999999999")
        #expect(FallbackFile(text: text).audit().isEmpty)
        #expect(FallbackFile(text: text).audit(now: testNow).map(\.ruleId) == ["generated-at-future"])
        #expect(FallbackFile(text: text).audit(now: testNow)[0].message.contains("2286-11-20T17:46:39Z"))
    }

    @Test("generated-at-invalid for implausible values", arguments: [
        "0", "-0", "-1", "-9223372036854775808", "99999999999", "1.7644e12", "1764400000000.0", "18446744073709551616",
        "true", "null", "[]",
    ])
    func generatedAtImplausible(_ value: String) {
        #expect(findings(Snap.file("", generatedAt: value)).map(\.ruleId) == ["generated-at-invalid"])
    }

    @Test("generatedAt values that pass", arguments: ["100000000000", "1764400000000", "1764400300000"])
    func generatedAtPlausible(_ value: String) {
        #expect(findings(Snap.file("", generatedAt: value)).isEmpty)
    }

    @Test func generatedAtInMicrosecondsIsInvalid() throws {
        let finding = try #require(findings(Snap.file("", generatedAt: "1764400000000000")).first)
        #expect(finding.ruleId == "generated-at-invalid")
        #expect(finding.message.contains("micro"))
    }

    @Test func arrayFormsAreNamedFromWhereTheySit() {
        let funnel = #"["f","f",null,null,null,null,null,[["p1","statement"]]]"#
        let found = findings(Snap.file(Snap.entry("a", #""funnel":\#(funnel)"#))).filter { $0.ruleId == "array-as-object" }
        #expect(found.map(\.pointer) == ["/placements/a/funnel", "/placements/a/funnel/7/0"])
        #expect(found[0].message.hasPrefix("This funnel is written as an array of its fields [id, slug, name"))
        #expect(found[1].message.hasPrefix("This page is written as an array of its fields [id, type]"))
    }

    @Test func aVariantWithBothAFunnelAndAPaywallServesTheFunnel() throws {
        let variant = #"{"variantId":"a","weight":1,"paywall":\#(Snap.paywall()),"funnel":{"id":"f","slug":"f","pages":[\#(Snap.page("p1"))]}}"#
        let found = findings(Snap.experimentFile(variant, Snap.variant("b", "0")))
        let finding = try #require(found.first { $0.ruleId == "shadowed-target" })
        #expect(finding.pointer == "/placements/a/experiment/variants/0/paywall")
    }
}

@Suite("Concurrent checking")
struct ConcurrencyTests {
    /// Entries of every kind, with findings at many places: keys written twice, keys that name other
    /// entries, funnels with gaps, loops and media.
    static let manyEntries: String = {
        var entries: [String] = []
        for index in 0..<300 {
            let key = "p\(index % 290)"
            switch index % 6 {
            case 0:
                entries.append(#""\#(key)":{"placement":\#(Snap.placement(key))}"#)
            case 1:
                entries.append(#""\#(key)":{"placement":\#(Snap.placement("p\(index + 1)")),"paywall":\#(Snap.paywall())}"#)
            case 2:
                let pages = [
                    Snap.page("a", "info", #""title":{"en":"A"},"mediaUrl":"https://x.test/\#(index).png""#),
                    Snap.page("b", "statement", #""default_next":"a""#),
                    Snap.page("c"),
                ]
                entries.append(
                    Snap.entry(key, #""funnel":{"id":"f\#(index)","slug":"f","locales":["en","de"],"pages":[\#(pages.joined(separator: ","))]}"#))
            case 3:
                entries.append(Snap.entry(key, #""paywall":\#(Snap.paywall()),"experiment":{"id":"e","key":"k","variants":[]}"#))
            case 4:
                entries.append(#""\#(key)":{"placement":{"identifier":"\#(key)","revision":"1"}}"#)
            default:
                entries.append(Snap.entry(key, #""paywall":\#(Snap.paywall())"#))
            }
        }
        return Snap.file(entries.joined(separator: ","), projectId: "null")
    }()

    @Test(arguments: [2, 3, 7, 64, 1000])
    func chunksDoNotChangeTheFindings(chunks: Int) {
        let file = FallbackFile(text: Self.manyEntries)
        let audit = Audit(now: testNow)
        let serial = audit.findings(in: file, chunks: 1)
        #expect(Set(serial.map(\.ruleId)).count >= 8)
        #expect(audit.findings(in: file, chunks: chunks) == serial)
        #expect(audit.findings(in: file) == serial)
    }
}

@Suite("Funnel checks")
struct FunnelCheckTests {
    static func clauseFile(_ op: String, _ value: String?) -> String {
        let age = Snap.page("p0", "number_input", #""question_id":"age""#)
        let rule = Snap.rule("r", goto: "end", clauses: Snap.clause("age", op, value))
        return Snap.funnelFile(extra: "", [age, Snap.page("p1", "statement", #""next_rules":[\#(rule)]"#)])
    }

    static let clauseValues: [(op: String, value: String?, valid: Bool)] = [
        ("is_answered", nil, true), ("is_answered", "null", true), ("is_answered", "true", false),
        ("is_not_answered", nil, true), ("is_not_answered", "1", false),
        ("eq", "40", true), ("eq", #""40""#, true), ("eq", nil, false), ("eq", "null", false),
        ("neq", "[1]", true), ("neq", nil, false),
        ("gt", "1", true), ("gte", "1.5", true), ("lt", "-2", true), ("lte", "0", true),
        ("gt", #""1""#, false), ("lte", nil, false), ("lt", "[1]", false),
        ("between", "[18,65]", true), ("between", "[5,5]", true), ("between", "[65,18]", false), ("between", "[1]", false),
        ("between", "[1,2,3]", false), ("between", #"[1,"2"]"#, false), ("between", "5", false),
        ("in", "[1,2]", true), ("in", "[]", true), ("in", "1", false), ("not_in", #"["a"]"#, true), ("not_in", nil, false),
        ("contains", #""a""#, true), ("contains", "1", false), ("contains", #"["a"]"#, false),
    ]

    @Test("clause-value-invalid follows §6's table", arguments: clauseValues)
    func clauseValue(_ item: (op: String, value: String?, valid: Bool)) {
        let found = findings(Self.clauseFile(item.op, item.value)).filter { $0.ruleId == "clause-value-invalid" }
        #expect(found.isEmpty == item.valid, "\(found)")
    }

    @Test func anIdenticalFunnelInTwoVariantsIsCheckedOnce() {
        let pretty = """
            {
              "id": "f", "slug": "f",
              "pages": [ { "id": "p1", "type": "info", "mediaUrl": "https://x.test/a.png" } ]
            }
            """
        let compact = #"{"id":"f","slug":"f","pages":[{"id":"p1","type":"info","mediaUrl":"https://x.test/a.png"}]}"#
        let changed = #"{"id":"f","slug":"f","pages":[{"id":"p1","type":"info","mediaUrl":"https://x.test/b.png"}]}"#
        func variants(_ first: String, _ second: String) -> String {
            Snap.experimentFile(
                #"{"variantId":"a","weight":0.5,"funnel":\#(first)}"#, #"{"variantId":"b","weight":0.5,"funnel":\#(second)}"#)
        }
        let same = findings(variants(compact, pretty)).filter { $0.ruleId == "remote-media" }
        #expect(same.map(\.pointer) == ["/placements/a/experiment/variants/0/funnel/pages/0"])
        let different = findings(variants(compact, changed)).filter { $0.ruleId == "remote-media" }
        #expect(different.count == 2)
    }

    @Test func remoteMediaSkipsLinksCopyAndDataURLsAndListsTheRest() throws {
        let page = Snap.page(
            "p1", "info",
            #""title":"https://not.media/","mediaUrl":"data:image/png;base64,AA","background":{"type":"image","url":"/img/bg.png"},"#
                + #""termsUrl":"https://example.com/terms","button":{"action":{"url":"https://example.com"}},"#
                + #""options":[{"label":"A","value":"a","imageUrl":"https://x.test/a.png"}]"#)
        let found = findings(Snap.funnelFile(extra: "", [page])).filter { $0.ruleId == "remote-media" }
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.message.contains("2 remote URLs"))
        #expect(finding.message.contains("background/url /img/bg.png, options/0/imageUrl https://x.test/a.png"))
    }

    /// A message lists a URL or path of up to `FoundMedia.listedTextLimit` characters whole and cuts
    /// a longer one there, with `…`, so a URL of megabytes is not copied into every report; what
    /// `RemoteMedia` lists stays whole. Characters, not bytes: `é` and `日` are two and three.
    @Test(arguments: [2_048, 2_049, 1_000_000], ["a", "é", "日"])
    func remoteMediaMessagesCutAURLPastTheLimit(length: Int, letter: String) throws {
        let prefix = "https://x.test/"
        let url = prefix + String(repeating: letter, count: length - prefix.count)
        let longKey = String(repeating: letter, count: length - "/imageUrl".count)
        let page = Snap.page("p1", "info", #""mediaUrl":"\#(url)","\#(longKey)":{"imageUrl":"https://x.test/b.png"}"#)
        let text = Snap.funnelFile(extra: "", [page])
        let finding = try #require(findings(text).first { $0.ruleId == "remote-media" })
        let limit = FoundMedia.listedTextLimit
        let listedURL = length <= limit ? url : String(url.prefix(limit)) + "…"
        let listedPath = length <= limit ? longKey + "/imageUrl" : String((longKey + "/imageUrl").prefix(limit)) + "…"
        #expect(finding.message.contains("mediaUrl \(listedURL), \(listedPath) https://x.test/b.png."))
        #expect(finding.message.utf8.count < 2 * 3 * limit + 400)
        let file = FallbackFile(text: text)
        let firstPage = try #require(file.entries.first?.entry?.funnel?.pages.first)
        let listed = RemoteMedia.urls(on: firstPage, in: file)
        #expect(listed.map(\.url) == [url, "https://x.test/b.png"])
        #expect(listed.map(\.path) == ["mediaUrl", longKey + "/imageUrl"])
    }

    /// Builder configs are long and repeated across an export; each paywall still gets its own finding,
    /// and configs that differ only between their first and last 64 bytes are told apart.
    @Test func repeatedBuilderConfigsAreReportedForEachPaywall() throws {
        func paywall(_ image: String) -> String {
            let padding = String(repeating: "x", count: 70)
            let config = #"{"a":"\#(padding)","image":{"url":"https://x.test/\#(image).png"},"z":"\#(padding)"}"#
            return #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"builderConfig":\#(config),"offering":null}"#
        }
        let entries = [("a", "1"), ("b", "1"), ("c", "2"), ("d", "1")].map { key, image in
            Snap.entry(key, #""paywall":\#(paywall(image))"#)
        }
        let found = findings(Snap.file(entries.joined(separator: ","))).filter { $0.ruleId == "remote-media" }
        #expect(found.map(\.pointer) == ["a", "b", "c", "d"].map { "/placements/\($0)/paywall/builderConfig" })
        #expect(found.map { $0.message.contains("image/url https://x.test/2.png") } == [false, false, true, false])
        #expect(found.map { $0.message.contains("image/url https://x.test/1.png") } == [true, true, false, true])
    }

    @Test func themeLogoIsRemoteMediaWhenSet() throws {
        let text = Snap.funnelFile(extra: ##""theme":{"logoUrl":"https://x.test/logo.png","bg":"#FFF"},"##, [Snap.page("p1")])
        let finding = try #require(findings(text).first { $0.ruleId == "remote-media" })
        #expect(finding.pointer == "/placements/onb/funnel/theme")
        #expect(findings(Snap.funnelFile(extra: #""theme":{"logoUrl":""},"#, [Snap.page("p1")])).isEmpty)
    }

    @Test func reachabilityFollowsRulesDefaultNextPageOrderAndPaywall() {
        let pages = [
            Snap.page("p1", "welcome", #""next_rules":[\#(Snap.rule("r", goto: "paywall"))],"default_next":"end""#),
            Snap.page("p2"),
            Snap.page("p3", "paywall", #""paywallId":"pw""#),
            Snap.page("p4", "success"),
        ]
        let found = findings(Snap.funnelFile(pages))
        #expect(found.map(\.ruleId) == ["page-unreachable"])
        #expect(found.first?.pointer == "/placements/onb/funnel/pages/1")
    }

    @Test func aLongerLoopIsDrawnInFull() throws {
        let pages = [
            Snap.page("a"), Snap.page("b"), Snap.page("c", "statement", #""default_next":"b""#), Snap.page("d"),
        ]
        let found = findings(Snap.funnelFile(extra: "", pages)).filter { $0.ruleId == "cycle" }
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains("closing the loop b → c → b"))
    }

    @Test func translationsCoverListsAndOptionLabels() {
        let page = Snap.page(
            "p1", "single_choice",
            #""benefits":{"en":["One"],"de":[]},"options":[{"label":{"en":"A"},"value":"a"},{"label":"B","value":"b"}]"#)
        let found = findings(Snap.funnelFile(extra: #""locales":["en","de"],"#, [page])).filter { $0.ruleId == "translation-missing" }
        #expect(found.map(\.pointer) == ["/placements/onb/funnel/pages/0/benefits/de", "/placements/onb/funnel/pages/0/options/0/label"])
        #expect(found[0].message.contains("an empty list"))
        #expect(found[1].message.contains(#"option "a" label has no copy for locale "de" (missing)"#))
    }
}

@Suite("Positions")
struct PositionTests {
    /// Columns count Unicode scalars, however long the line and wherever the multi-byte text falls.
    @Test(arguments: [1, 7, 4095, 4096, 4097, 9000])
    func columnsOnALongCompactLine(padding: Int) throws {
        let project = String(repeating: "é", count: padding / 3) + String(repeating: "x", count: padding - padding / 3)
        let text = Snap.file(#""a":{"placement":\#(Snap.placement("a"))},"b":{"placement":\#(Snap.placement("b"))}"#, projectId: #""\#(project)""#)
        let found = findings(text)
        #expect(found.map(\.ruleId) == ["serves-nothing", "serves-nothing"])
        for (finding, key) in zip(found, ["a", "b"]) {
            let expected = try #require(Marker.after(#""\#(key)":"#).position(in: text))
            #expect(finding.line == expected.line && finding.column == expected.column, "\(finding)")
        }
    }
}
