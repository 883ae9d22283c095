import FallbackAudit
import Foundation
import RovenueFallback
import Testing
import FallbackTestSupport

/// What each finding is about: every rule's example gets the subject its rule looks at, funnels
/// and paywalls are named with how the placement serves them, and ids compare by their bytes.
@Suite("Finding subjects")
struct FindingSubjectTests {
    static func key(_ text: String) -> ExactKey { ExactKey(text) }

    /// The number after `/<collection>/` in `pointer`.
    static func index(after collection: String, in pointer: String) -> Int? {
        guard let range = pointer.range(of: "/\(collection)/") else { return nil }
        return Int(pointer[range.upperBound...].prefix { $0.isNumber })
    }

    /// The subject `ruleCase`'s finding should have, worked out from the rule, the case's pointer and
    /// the decoded snapshot (not from how the checks report it).
    static func expectedSubject(_ ruleCase: RuleCase) throws -> FindingSubject {
        guard let placementKey = ruleCase.key else { return .file }
        let key = key(placementKey)
        let entry = FallbackFile(text: ruleCase.snapshot).loadedEntries.first { ExactKey($0.key) == key }?.entry
        switch ruleCase.rule {
        case "weights-sum", "weights-percent", "single-variant":
            return .experiment(placementKey: key, id: Self.key(try #require(entry?.experiment).id))
        case "serves-nothing" where ruleCase.label == "no variants":
            return .experiment(placementKey: key, id: Self.key(try #require(entry?.experiment).id))
        case "weight-not-positive", "duplicate-variant-id":
            let index = try #require(Self.index(after: "variants", in: ruleCase.pointer))
            return .variant(placementKey: key, index: index, id: Self.key(try #require(entry?.experiment).variants[index].variantId))
        default:
            break
        }
        guard Rule(id: ruleCase.rule)?.category == .funnel else { return .placement(key: key) }
        let funnel = try #require(entry?.funnel)
        let served = FindingSubject.ServedFunnel(placementKey: key, route: .direct, id: Self.key(funnel.id))
        guard let page = Self.index(after: "pages", in: ruleCase.pointer + "/") else { return .funnel(served) }
        return .page(of: served, index: page, id: Self.key(funnel.pages[page].id))
    }

    @Test("Every rule's example is about what its rule looks at", arguments: RuleCase.all)
    func subjectOfEveryRule(_ ruleCase: RuleCase) throws {
        let finding = try #require(findings(ruleCase.snapshot).first { $0.ruleId == ruleCase.rule && $0.pointer == ruleCase.pointer })
        #expect(finding.subject == (try Self.expectedSubject(ruleCase)))
        #expect(finding.subject.placementKey == ruleCase.key.map(Self.key))
    }

    /// Entry `a` runs an experiment: variant `v0` serves a paywall with a remote image, variant `v1`
    /// a funnel with a remote logo, a paywall with a remote image in its `paywalls` map, and a page
    /// whose `default_next` leads nowhere. Entry `b` serves a paywall with a remote image directly.
    static let servedThroughVariants = Snap.file(
        Snap.entry("a", #""experiment":{"id":"exp","key":"k","variants":[\#(variants)]}"#) + ","
            + Snap.entry("b", #""paywall":\#(remotePaywall("pwb"))"#))
    static let variants = """
        {"variantId":"v0","weight":0.5,"paywall":\(remotePaywall("pw0"))},\
        {"variantId":"v1","weight":0.5,"funnel":{"id":"f","slug":"f","theme":{"logoUrl":"https://cdn.example.com/logo.png"},\
        "paywalls":{"pwf":\(remotePaywall("pwf"))},"pages":[{"id":"p1","type":"statement","default_next":"nowhere"}]}}
        """

    static func remotePaywall(_ id: String) -> String {
        #"{"id":"\#(id)","identifier":"\#(id)","name":"P","configFormatVersion":2,"builderConfig":{"root":{"url":"https://cdn.example.com/\#(id).png"}}}"#
    }

    @Test func funnelsAndPaywallsAreNamedWithHowThePlacementServesThem() {
        let a = Self.key("a")
        let v1 = FindingSubject.Route.variant(index: 1, id: Self.key("v1"))
        let funnel = FindingSubject.ServedFunnel(placementKey: a, route: v1, id: Self.key("f"))
        let subjects = findings(Self.servedThroughVariants).map { "\($0.ruleId) \($0.pointer)" }
        let found = Dictionary(uniqueKeysWithValues: findings(Self.servedThroughVariants).map { ("\($0.ruleId) \($0.pointer)", $0.subject) })
        #expect(found.count == 5, "\(subjects)")
        let variant0 = "/placements/a/experiment/variants/0"
        let variant1 = "/placements/a/experiment/variants/1"
        #expect(
            found["remote-media \(variant0)/paywall/builderConfig"]
                == .paywall(of: .placement(key: a, route: .variant(index: 0, id: Self.key("v0"))), id: Self.key("pw0")))
        #expect(found["remote-media \(variant1)/funnel/theme"] == .funnel(funnel))
        #expect(found["remote-media \(variant1)/funnel/paywalls/pwf/builderConfig"] == .paywall(of: .funnel(funnel), id: Self.key("pwf")))
        #expect(found["goto-unknown \(variant1)/funnel/pages/0/default_next"] == .page(of: funnel, index: 0, id: Self.key("p1")))
        #expect(
            found["remote-media /placements/b/paywall/builderConfig"]
                == .paywall(of: .placement(key: Self.key("b"), route: .direct), id: Self.key("pwb")))
    }

    @Test func aVariantServingAFunnelAndAPaywallIsTheSubjectOfItsShadowing() throws {
        let funnel = #"{"id":"f","slug":"f","pages":[\#(Snap.page("p1"))]}"#
        let text = Snap.experimentFile(
            Snap.variant("v0", "0.5"), #"{"variantId":"v1","weight":0.5,"funnel":\#(funnel),"paywall":\#(Snap.paywall())}"#)
        let finding = try #require(findings(text).first { $0.ruleId == Rule.shadowedTarget.id })
        #expect(finding.subject == .variant(placementKey: Self.key("a"), index: 1, id: Self.key("v1")))
    }

    /// Two funnels of one placement whose ids differ only by normalisation are two subjects, as
    /// they are two funnels for the SDK.
    @Test func twinFunnelIdsAreTwoSubjects() throws {
        func variant(_ id: String, _ funnelId: String) -> String {
            #"{"variantId":"\#(id)","weight":0.5,"funnel":{"id":"\#(funnelId)","slug":"s","pages":[{"id":"p1","type":"statement","default_next":"nowhere"}]}}"#
        }
        let text = Snap.experimentFile(variant("v0", "fnl_caf\\u00e9"), variant("v1", "fnl_cafe\\u0301"))
        let found = findings(text).filter { $0.ruleId == Rule.gotoUnknown.id }
        #expect(found.count == 2)
        let funnels = found.compactMap(\.subject.funnel)
        #expect(funnels.map(\.id) == [Self.key("fnl_caf\u{E9}"), Self.key("fnl_cafe\u{301}")])
        // Canonically equivalent as Strings, yet different subjects.
        #expect(funnels[0].id.string == funnels[1].id.string)
        #expect(found[0].subject != found[1].subject)
        #expect(Set(found.map(\.subject)).count == 2)
    }

    /// A copy of a funnel identical to one an earlier variant serves is checked once: its findings
    /// are about the first copy.
    @Test func anIdenticalCopyIsReportedAboutTheFirst() throws {
        let funnel = #"{"id":"f","slug":"f","pages":[{"id":"p1","type":"statement","default_next":"nowhere"}]}"#
        let text = Snap.experimentFile(
            #"{"variantId":"v0","weight":0.5,"funnel":\#(funnel)}"#, #"{"variantId":"v1","weight":0.5,"funnel":\#(funnel)}"#)
        let found = findings(text).filter { $0.ruleId == Rule.gotoUnknown.id }
        #expect(found.map(\.subject.funnel?.route) == [.variant(index: 0, id: Self.key("v0"))])
    }

    @Test func historyAndDiffFindingsAreAboutAPlacementOrTheFile() {
        func finding(_ key: String?) -> Finding {
            Finding(ruleId: "revision-regressed", severity: .error, message: "m", placementKey: key, pointer: "", line: 1, column: 1)
        }
        #expect(finding("k").subject == .placement(key: Self.key("k")))
        #expect(finding("k").placementKey == "k")
        #expect(finding(nil).subject == .file)
        #expect(finding(nil).placementKey == nil)
    }

    static let funnel = FindingSubject.ServedFunnel(placementKey: ExactKey("p"), route: .variant(index: 2, id: ExactKey("v")), id: ExactKey("f"))

    /// A subject, and what it says about its placement, funnel and experiment.
    static let accessorCases: [(subject: FindingSubject, placement: String?, funnel: Bool, experiment: String?)] = [
        (.file, nil, false, nil),
        (.placement(key: ExactKey("p")), "p", false, nil),
        (.experiment(placementKey: ExactKey("p"), id: ExactKey("e")), "p", false, "p"),
        (.variant(placementKey: ExactKey("p"), index: 0, id: ExactKey("v")), "p", false, "p"),
        (.funnel(funnel), "p", true, nil),
        (.page(of: funnel, index: 3, id: ExactKey("x")), "p", true, nil),
        (.paywall(of: .funnel(funnel), id: ExactKey("pw")), "p", true, nil),
        (.paywall(of: .placement(key: ExactKey("p"), route: .variant(index: 1, id: ExactKey("v"))), id: ExactKey("pw")), "p", false, "p"),
        (.paywall(of: .placement(key: ExactKey("p"), route: .direct), id: ExactKey("pw")), "p", false, nil),
    ]

    @Test("Placement, funnel and experiment of a subject", arguments: accessorCases.indices)
    func accessors(_ index: Int) {
        let item = Self.accessorCases[index]
        #expect(item.subject.placementKey == item.placement.map(ExactKey.init))
        #expect(item.subject.funnel == (item.funnel ? Self.funnel : nil))
        #expect(item.subject.experimentPlacementKey == item.experiment.map(ExactKey.init))
    }

    @Test func placementSubjectsCompareKeysByTheirBytes() {
        let composed = FindingSubject(placementKey: "caf\u{E9}")
        let decomposed = FindingSubject(placementKey: "cafe\u{301}")
        #expect("caf\u{E9}" == "cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed, FindingSubject(placementKey: "caf\u{E9}")]).count == 2)
    }
}

@Suite("Typed rule ids")
struct RuleIDTests {
    @Test func anIdIsItsTextInEveryReport() throws {
        let finding = try #require(findings(Snap.file(#""a":{"placement":\#(Snap.placement("a"))}"#)).first)
        #expect(finding.ruleId == Rule.servesNothing.id)
        #expect(finding.ruleId.rawValue == "serves-nothing")
        #expect("\(finding.ruleId)" == "serves-nothing")
        #expect(finding.description.contains(" serves-nothing [a] "))
        #expect(finding.rule == .servesNothing)
    }

    @Test func idsOrderAsTheirText() {
        let ids = Rule.all.map(\.id)
        #expect(ids.sorted().map(\.rawValue) == ids.map(\.rawValue).sorted())
        #expect(Rule(id: Rule.ID("no-such-rule")) == nil)
    }
}
