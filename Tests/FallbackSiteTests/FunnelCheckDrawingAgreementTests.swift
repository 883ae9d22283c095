import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
@testable import FallbackSite

/// The funnel checks (`goto-unknown`, reachability) and the site's drawing resolve every `goto`
/// and `default_next` the same way: both ask `FunnelGraph`, which compares ids by their bytes, as
/// the SDK does; and the checks report `goto-unknown` exactly at the steps the drawing sends to an
/// unknown terminal.
@Suite("Funnel checks and drawings agree on every step")
struct FunnelCheckDrawingAgreementTests {
    /// Where each written step leads, as the checks resolve it: a page index, `end`, or nothing.
    static func checkedTargets(_ funnel: Funnel) -> [String] {
        let graph = FunnelContext(funnel: funnel, served: .init(placementKey: ExactKey("p"), route: .direct, id: ExactKey(funnel.id))).graph
        return graph.steps.filter { $0.kind != .nextInOrder }.map { step in
            switch step.target {
            case .page(let index), .paywall(let index): "page \(index)"
            case .end: "end"
            case .unknown: "unknown"
            }
        }
    }

    /// The same, as the drawing resolves it (its sequential steps, not written, are left out).
    static func drawnTargets(_ funnel: Funnel) -> [String] {
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        return flow.steps.filter { $0.kind != .sequential }.map { step in
            switch flow.nodes[step.to] {
            case .page(let index): "page \(index)"
            case .end: "end"
            case .unknown: "unknown"
            }
        }
    }

    /// The pointers of the written steps the drawing sends to an unknown terminal, in step order.
    static func drawnUnknownPointers(_ funnel: Funnel, pagesPointer: String) -> [String] {
        var pointers: [String] = []
        for (index, page) in funnel.pages.enumerated() {
            for rule in (page.nextRules ?? []).indices { pointers.append("\(pagesPointer)/\(index)/next_rules/\(rule)/goto") }
            if page.defaultNext != nil { pointers.append("\(pagesPointer)/\(index)/default_next") }
        }
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        let written = flow.steps.filter { $0.kind != .sequential }
        return zip(written, pointers).compactMap { step, pointer in
            if case .unknown = flow.nodes[step.to] { return pointer }
            return nil
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

    /// A file with one funnel of `pageCount` pages with ids, types, gotos and default_nexts drawn by `random`.
    static func generatedFile(pageCount: Int, random: inout SplitMix64) throws -> FallbackFile {
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
        let file = FallbackFile(text: text)
        #expect(file.loadedEntries.count == 1, "\(text)")
        return file
    }

    @Test func onGeneratedFunnelsWithTwinIds() throws {
        var random = SplitMix64(seed: 0x5EED_F00D)
        var twinsResolvedApart = 0
        var unknownSteps = 0
        for round in 0..<1_000 {
            // Small funnels are searched, large ones use dictionaries: both are covered.
            let pageCount = round % 5 == 0 ? FunnelContext.searchedPageLimit + 1 + Int(random.next() % 8) : 1 + Int(random.next() % 8)
            let file = try Self.generatedFile(pageCount: pageCount, random: &random)
            let funnel = try #require(file.loadedEntries.first?.entry.funnel)
            let checked = Self.checkedTargets(funnel)
            #expect(checked == Self.drawnTargets(funnel), "\(funnel.pages.map(\.id))")
            let reported = file.audit().filter { $0.ruleId == "goto-unknown" }.map(\.pointer)
            let drawn = Self.drawnUnknownPointers(funnel, pagesPointer: "/placements/onb/funnel/pages")
            #expect(reported == drawn, "\(funnel.pages.map(\.id))")
            unknownSteps += drawn.count
            let ids = Set(funnel.pages.map { ExactKey($0.id) })
            if ids.contains(ExactKey("caf\u{E9}")) != ids.contains(ExactKey("cafe\u{301}")) { twinsResolvedApart += 1 }
        }
        // The pool did produce funnels where only one twin is a page, and steps to nowhere.
        #expect(twinsResolvedApart > 0)
        #expect(unknownSteps > 0)
    }
}
