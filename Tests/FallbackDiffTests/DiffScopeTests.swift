import RovenueFallback
import Testing

@testable import FallbackDiff
import FallbackTestSupport

/// The ids a change is reported under (`ChangeScope`), and that each change of a diff keeps the
/// scope of the comparison that found it, whatever was compared before it.
@Suite("Diff: each change carries the scope it was found in") struct DiffScopeTests {
    static let whereCases: [(ChangeScope, String)] = [
        (ChangeScope(placement: "a"), "The placement"),
        (ChangeScope(placement: "a").variant("v"), "Variant \"v\""),
        (ChangeScope(placement: "a", funnel: "f"), "Funnel \"f\""),
        (ChangeScope(placement: "a", variant: "v", funnel: "f"), "Funnel \"f\" (variant \"v\")"),
        (ChangeScope(placement: "a", variant: "v", funnel: "f").page("p"), "Funnel \"f\" (variant \"v\"), page \"p\""),
        (ChangeScope(placement: "a", funnel: "f").paywall("k"), "Funnel \"f\", paywall \"k\""),
        (ChangeScope(placement: "a", variant: "v", funnel: "f").paywall("k"), "Funnel \"f\" (variant \"v\"), paywall \"k\""),
        (ChangeScope(placement: "a", paywall: "pw"), "Paywall \"pw\""),
        (ChangeScope(placement: "a", variant: "v", paywall: "pw"), "Paywall \"pw\" (variant \"v\")"),
    ]

    @Test(arguments: whereCases)
    func whereTextNamesTheScope(scope: ChangeScope, expected: String) {
        #expect(scope.whereText == expected)
    }

    @Test func narrowingKeepsTheOuterIdsAndLeavesTheOriginal() {
        let funnel = ChangeScope(placement: "a", variant: "v", funnel: "f")
        let page = funnel.page("p")
        let paywall = funnel.paywall("k")
        #expect(page == ChangeScope(placement: "a", variant: "v", funnel: "f").page("p"))
        #expect([page.placement, page.variant, page.funnel, page.page, page.paywall] == ["a", "v", "f", "p", nil])
        #expect([paywall.placement, paywall.variant, paywall.funnel, paywall.page, paywall.paywall] == ["a", "v", "f", nil, "k"])
        #expect(funnel.page == nil && funnel.paywall == nil)
        #expect(ChangeScope.file == ChangeScope(placement: nil))
    }

    /// `placement variant funnel paywall page` of each change of `kind`, `-` for none.
    private static func ids(_ diff: SnapshotDiff, _ kind: ChangeKind) -> [String] {
        diff.changes.filter { $0.kind == kind }.map { change in
            [change.placementKey, change.variantId, change.funnelId, change.paywallId, change.pageId].map { $0 ?? "-" }
                .joined(separator: " ")
        }
    }

    /// A funnel whose page `p3` shows paywall `pw` from the map `paywalls` (JSON members).
    private static func funnel(_ id: String, paywalls: String, title: String, pageOrder: [String] = ["p1", "p3"]) -> String {
        let pages = [
            "p1": Snap.page("p1", "welcome", #""title":"\#(title)""#),
            "p3": Snap.page("p3", "paywall", #""paywallId":"pw""#),
        ]
        return
            #"{"id":"\#(id)","slug":"\#(id)","paywalls":{\#(paywalls)},"pages":[\#(pageOrder.map { pages[$0]! }.joined(separator: ","))]}"#
    }

    /// Changes found inside a page, a funnel paywall and a variant, each followed by one found
    /// outside it: the later change carries none of the inner ids.
    @Test func eachChangeCarriesOnlyTheScopeItWasFoundIn() {
        let old = Snap.file(
            #""a":{"placement":\#(Snap.placement("a")),"experiment":{"id":"exp","key":"k","variants":["#
                + #"{"variantId":"v1","weight":1,"funnel":\#(Self.funnel("f", paywalls: #""pw":\#(Snap.paywall()),"x":\#(Snap.paywall("x"))"#, title: "Hi"))},"#
                + #"{"variantId":"v2","weight":1,"paywall":\#(Snap.paywall("q"))}]}}"#)
        let new = Snap.file(
            #""a":{"placement":\#(Snap.placement("a", revision: "2")),"experiment":{"id":"exp","key":"k","variants":["#
                + #"{"variantId":"v1","weight":3,"funnel":\#(Self.funnel("f", paywalls: #""x":\#(Snap.paywall("x"))"#, title: "Hello", pageOrder: ["p3", "p1"]))},"#
                + #"{"variantId":"v2","weight":1,"paywall":\#(Snap.paywall("q"))},"#
                + #"{"variantId":"v3","weight":1,"paywall":\#(Snap.paywall("r"))}]}}"#)
        let diff = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))

        #expect(Self.ids(diff, .revisionChanged) == ["a - - - -"])
        #expect(Self.ids(diff, .variantAdded) == ["a v3 - - -"])
        #expect(Self.ids(diff, .weightsChanged) == ["a - - - -"])
        #expect(Self.ids(diff, .copyChanged) == ["a v1 f - p1"])
        #expect(Self.ids(diff, .pagesReordered) == ["a v1 f - -"])
        #expect(Self.ids(diff, .funnelPaywallRemoved) == ["a v1 f pw -"])
        #expect(Self.ids(diff, .paywallUnreachableOffline) == ["a v1 f - p3"])
        let unreachable = diff.changes.first { $0.kind == .paywallUnreachableOffline }
        #expect(unreachable?.message.hasPrefix(#"Funnel "f" (variant "v1"), page "p3": "#) == true)
    }

    /// A placement compared after another placement's funnel pages carries only its own key.
    @Test func aPlacementDoesNotInheritThePreviousPlacementsScope() {
        let funnelEntry = { (title: String) in
            #""onb":{"placement":\#(Snap.placement("onb")),"funnel":\#(Self.funnel("f", paywalls: #""pw":\#(Snap.paywall())"#, title: title))}"#
        }
        let old = Snap.file(funnelEntry("Hi") + "," + Snap.entry("z", #""paywall":\#(Snap.paywall())"#))
        let new = Snap.file(
            funnelEntry("Hello") + "," + #""z":{"placement":\#(Snap.placement("z", revision: "2")),"paywall":\#(Snap.paywall())}"#)
        let diff = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))
        #expect(Self.ids(diff, .copyChanged) == ["onb - f - p1"])
        #expect(Self.ids(diff, .revisionChanged) == ["z - - - -"])
        #expect(diff.changes.first { $0.kind == .revisionChanged }?.message == "Revision 1 → 2.")
    }
}
