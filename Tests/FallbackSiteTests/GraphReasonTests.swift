import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// Why a `goto` leads nowhere is decided once, by `FunnelGraph` (`UnknownTarget`); the drawing's
/// terminals and tooltips and the checks' messages carry that answer instead of comparing the
/// written target with `"paywall"` themselves, and the drawing marks paywall pages as
/// `FunnelGraph.isPaywallPage` says.
@Suite("The drawing and the checks use FunnelGraph's reasons")
struct GraphReasonTests {
    /// Page `a` goes to `"paywall"` in a funnel without a paywall page, and to a page that does
    /// not exist; `b`'s `default_next` is `"paywall"` again.
    static func funnelWithoutPaywallPage() throws -> Funnel {
        try Build.funnel([
            Build.page("a", rules: [Build.rule("r1", goto: "paywall"), Build.rule("r2", goto: "nowhere")], defaultNext: "b"),
            Build.page("b", defaultNext: "paywall"),
        ])
    }

    /// The reason each unknown terminal of the drawing carries.
    static func drawnReasons(_ funnel: Funnel) -> [String: FunnelGraph.UnknownTarget] {
        var reasons: [String: FunnelGraph.UnknownTarget] = [:]
        for node in FunnelFlow(graph: FunnelGraph(funnel)).nodes {
            if case .unknown(_, let target, let reason) = node { reasons[target] = reason }
        }
        return reasons
    }

    @Test func unknownTerminalsCarryTheGraphsReason() throws {
        let funnel = try Self.funnelWithoutPaywallPage()
        let graph = FunnelGraph(funnel)
        let reasons = Self.drawnReasons(funnel)
        #expect(reasons == ["paywall": .noPaywallPage, "nowhere": .noSuchPage])
        for (written, reason) in reasons {
            #expect(graph.target(written) == .unknown(reason))
        }
    }

    @Test func tooltipsFollowTheReason() throws {
        let svg = FunnelDrawing(funnel: try Self.funnelWithoutPaywallPage()).svg
        #expect(svg.components(separatedBy: "goes to &quot;paywall&quot;, but no page has type paywall").count - 1 == 2)
        #expect(svg.components(separatedBy: "which is not a page id").count - 1 == 1)
        #expect(svg.contains("goes to &quot;nowhere&quot;, which is not a page id"))
    }

    @Test func checkMessagesFollowTheReason() throws {
        let funnel = try Self.funnelWithoutPaywallPage()
        let file = FallbackFile(text: try Self.file(of: funnel))
        let messages = Audit().findings(in: file).filter { $0.ruleId == Rule.gotoUnknown.id }.map(\.message)
        #expect(messages.count == 3)
        #expect(messages.filter { $0.contains("has no page of type paywall") }.count == 2)
        #expect(messages.filter { $0.contains("\"nowhere\", which is neither a page of funnel") }.count == 1)
    }

    /// With a paywall page, `"paywall"` leads to it: no unknown terminal, and the page is drawn as a
    /// paywall page exactly when `FunnelGraph.isPaywallPage` says so.
    @Test func paywallPagesAreMarkedAsTheGraphSays() throws {
        let funnel = try Build.funnel([
            Build.page("a", rules: [Build.rule("r1", goto: "paywall")]),
            Build.page("pay", "paywall"),
            Build.page("looks", "Paywall"),
        ])
        #expect(Self.drawnReasons(funnel).isEmpty)
        let svg = FunnelDrawing(funnel: funnel).svg
        let marked = svg.components(separatedBy: "class=\"fd-page is-paywall\"").count - 1
            + svg.components(separatedBy: "class=\"fd-page is-start is-paywall\"").count - 1
        #expect(marked == funnel.pages.filter(FunnelGraph.isPaywallPage).count)
        #expect(marked == 1)
    }

    /// The funnel's snapshot text: the decoded funnel's placement, written again.
    static func file(of funnel: Funnel) throws -> String {
        let pages: [JSONValue] = funnel.pages.map { page in
            Build.page(
                page.id, page.type,
                rules: (page.nextRules ?? []).map { Build.rule($0.id, goto: $0.goto) },
                defaultNext: page.defaultNext)
        }
        let placement: JSONValue = .object([.init("identifier", "p"), .init("revision", 1)])
        let funnelValue: JSONValue = .object([
            .init("id", .string(funnel.id)), .init("slug", "test"), .init("defaultLocale", "en"), .init("pages", .array(pages)),
        ])
        let entry: JSONValue = .object([.init("placement", placement), .init("funnel", funnelValue)])
        return JSONValue.object([.init("formatVersion", 1), .init("placements", .object([.init("p", entry)]))]).jsonText()
    }
}
