import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
@testable import FallbackSite

/// The funnel checks (`goto-unknown`, reachability) and the site's drawing resolve every `goto`
/// and `default_next` the same way: both compare ids by their bytes, as the SDK does.
@Suite("Funnel checks and drawings agree on every step")
struct FunnelCheckDrawingAgreementTests {
    /// Where each written step leads, as the checks resolve it: a page index, `end`, or nothing.
    static func checkedTargets(_ funnel: Funnel) -> [String] {
        let context = FunnelContext(funnel: funnel, served: .init(placementKey: ExactKey("p"), route: .direct, id: ExactKey(funnel.id)))
        var targets: [String] = []
        for page in funnel.pages {
            for name in (page.nextRules ?? []).map(\.goto) + [page.defaultNext].compactMap({ $0 }) {
                switch context.target(name) {
                case .page(let index): targets.append("page \(index)")
                case .end: targets.append("end")
                case .unknown: targets.append("unknown")
                }
            }
        }
        return targets
    }

    /// The same, as the drawing resolves it (its sequential steps, not written, are left out).
    static func drawnTargets(_ funnel: Funnel) -> [String] {
        let flow = FunnelFlow(funnel: funnel)
        return flow.steps.filter { $0.kind != .sequential }.map { step in
            switch flow.nodes[step.to] {
            case .page(let index): "page \(index)"
            case .end: "end"
            case .unknown: "unknown"
            }
        }
    }

    @Test(arguments: FixtureFunnel.allCases)
    func onTheFixtures(_ fixture: FixtureFunnel) throws {
        let funnel = try fixture.funnel()
        #expect(Self.checkedTargets(funnel) == Self.drawnTargets(funnel))
        #expect(!Self.checkedTargets(funnel).isEmpty)
    }

    /// Ids drawn from a pool of canonically equivalent twins (é composed and decomposed, K and
    /// the Kelvin sign), `end`, `paywall` and names no page has.
    static let idPool = ["caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "p", "end", "paywall", "nowhere"]

    /// A funnel of `pageCount` pages with ids, types, gotos and default_nexts drawn by `random`.
    static func generatedFunnel(pageCount: Int, random: inout SplitMix64) throws -> Funnel {
        func pick(_ pool: [String]) -> String { pool[Int(random.next() % UInt64(pool.count))] }
        let pages = (0..<pageCount).map { index -> String in
            let id = random.next() % 4 == 0 ? "page\(index)" : pick(idPool)
            let type = random.next() % 3 == 0 ? "paywall" : "statement"
            let rules = (0..<Int(random.next() % 3)).map { rule in
                #"{"id":"r\#(rule)","condition":{"op":"all","clauses":[]},"goto":"\#(pick(idPool))"}"#
            }
            let next = random.next() % 4 == 0 ? "" : #","default_next":"\#(pick(idPool))""#
            return #"{"id":"\#(id)","type":"\#(type)","next_rules":[\#(rules.joined(separator: ","))]\#(next)}"#
        }
        let text = #"{"formatVersion":1,"placements":{"onb":{"placement":{"identifier":"onb","revision":1},"#
            + #""funnel":{"id":"f","slug":"f","pages":[\#(pages.joined(separator: ","))]}}}}"#
        return try #require(FallbackFile(text: text).loadedEntries.first?.entry.funnel, "\(text)")
    }

    @Test func onGeneratedFunnelsWithTwinIds() throws {
        var random = SplitMix64(seed: 0x5EED_F00D)
        var twinsResolvedApart = 0
        for round in 0..<400 {
            // Small funnels are searched, large ones use dictionaries: both are covered.
            let pageCount = round % 5 == 0 ? FunnelContext.searchedPageLimit + 1 + Int(random.next() % 8) : 1 + Int(random.next() % 8)
            let funnel = try Self.generatedFunnel(pageCount: pageCount, random: &random)
            let checked = Self.checkedTargets(funnel)
            #expect(checked == Self.drawnTargets(funnel), "\(funnel.pages.map(\.id))")
            let ids = Set(funnel.pages.map { ExactKey($0.id) })
            if ids.contains(ExactKey("caf\u{E9}")) != ids.contains(ExactKey("cafe\u{301}")) { twinsResolvedApart += 1 }
        }
        // The pool did produce funnels where only one twin is a page.
        #expect(twinsResolvedApart > 0)
    }
}
