import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// `cycle`: one finding per set of pages that all reach one another (a strongly connected
/// component with a step back), each of bounded length, so a large looping funnel costs linear work.
/// The 20,000-page funnel took 53 s and 6.5 GB with one finding per page; the coarse time limit
/// makes a return to that fail instead of only slowing the suite.
@Suite("cycle findings per component", .timeLimit(.minutes(2)))
struct CycleComponentTests {
    /// A funnel of `count` pages `p1`…; `extra(i)` adds fields to page `i` (0-based).
    static func funnel(_ count: Int, _ extra: (Int) -> String = { _ in "" }) -> String {
        Snap.funnelFile(extra: "", (0..<count).map { Snap.page("p\($0 + 1)", "statement", extra($0)) })
    }

    static func backRule(_ id: String, to target: String) -> String {
        #""next_rules":[\#(Snap.rule(id, goto: target))]"#
    }

    static func cycles(_ text: String) -> [Finding] {
        findings(text).filter { $0.ruleId == "cycle" }
    }

    /// The issue's case: 20,000 pages in order, each with a rule back to the first. Before, 20,000
    /// findings each spelled out a loop up to 20,000 pages long (2 GB of text).
    @Test func aLargeFunnelThatAllLoopsBackIsOneBoundedFinding() throws {
        let count = 20_000
        let found = Self.cycles(Self.funnel(count) { Self.backRule("r\($0 + 1)", to: "p1") })
        #expect(found.count == 1)
        let message = try #require(found.first).message
        #expect(message.utf8.count < 1_000, "\(message.prefix(2_000))")
        #expect(message.contains("\(count) pages"))
        #expect(message.contains("… and \(count - 5) more"))
        #expect(message.contains("\(count) steps"))
        #expect(try #require(found.first).pointer == "/placements/onb/funnel/pages/0/next_rules/0/goto")
    }

    /// A 20,000-page loop closed once at the end: its drawing keeps the first pages and says how
    /// many it leaves out.
    @Test func aLongLoopIsDrawnShortened() throws {
        let count = 20_000
        let found = Self.cycles(Self.funnel(count) { $0 == count - 1 ? #""default_next":"p1""# : "" })
        #expect(found.count == 1)
        let message = try #require(found.first).message
        #expect(message.utf8.count < 1_000)
        #expect(message.contains("closing the loop p1 → p2 → p3 → p4 → p5 → p6 → … and \(count - 7) more → p\(count) → p1"))
        #expect(try #require(found.first).pointer == "/placements/onb/funnel/pages/\(count - 1)/default_next")
    }

    /// Many small loops side by side: one finding each, found in linear time (the loop search
    /// allocates nothing per loop).
    @Test func manyDisjointLoopsAreOneFindingEach() {
        let pairs = 5_000
        let found = Self.cycles(Self.funnel(2 * pairs) { $0 % 2 == 1 ? Self.backRule("back", to: "p\($0)") : "" })
        #expect(found.count == pairs)
        #expect(found.allSatisfy { $0.message.contains("closing the loop p") && !$0.message.contains("reach one another") })
    }

    @Test func twoDisjointCyclesAreTwoFindings() {
        let found = Self.cycles(Self.funnel(4) { [1: Self.backRule("back", to: "p1"), 3: Self.backRule("again", to: "p3")][$0] ?? "" })
        #expect(found.map(\.pointer) == [
            "/placements/onb/funnel/pages/1/next_rules/0/goto", "/placements/onb/funnel/pages/3/next_rules/0/goto",
        ])
        #expect(found[0].message.contains("closing the loop p1 → p2 → p1"))
        #expect(found[1].message.contains("closing the loop p3 → p4 → p3"))
    }

    /// Two steps back inside one set of pages that reach one another: one finding, at the step into
    /// the first page, naming both.
    @Test func stepsBackInsideOneComponentAreOneFinding() throws {
        let found = Self.cycles(Self.funnel(4) { [2: Self.backRule("r3", to: "p2"), 3: Self.backRule("r4", to: "p1")][$0] ?? "" })
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.pointer == "/placements/onb/funnel/pages/3/next_rules/0/goto")
        #expect(finding.message.contains(#"Rule "r4" on page "p4" goes back to earlier page "p1", closing the loop p1 → p2 → p3 → p4 → p1"#))
        #expect(finding.message.contains("4 pages (p1, p2, p3, p4) reach one another through 2 steps back"))
    }

    @Test func aSelfLoopIsOneFinding() throws {
        let found = Self.cycles(Self.funnel(3) { $0 == 1 ? #""default_next":"p2""# : "" })
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains(#"default_next of page "p2" goes to its own page, closing the loop p2 → p2"#))
        #expect(found.first?.pointer == "/placements/onb/funnel/pages/1/default_next")
    }

    @Test func aFunnelWithoutStepsBackHasNone() {
        #expect(Self.cycles(Self.funnel(5) { $0 == 0 ? #""default_next":"p3","next_rules":[\#(Snap.rule("skip", goto: "p5"))]"# : "" }).isEmpty)
    }

    @Test func aCycleThroughDefaultNextOnly() throws {
        let found = Self.cycles(Self.funnel(3) { [0: #""default_next":"p3""#, 2: #""default_next":"p1""#][$0] ?? "" })
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains("closing the loop p1 → p3 → p1"))
    }

    @Test func aCycleThroughRulesOnly() throws {
        let found = Self.cycles(
            Self.funnel(3) {
                [0: #""default_next":"end","next_rules":[\#(Snap.rule("ahead", goto: "p3"))]"#, 2: #""default_next":"end","# + Self.backRule("back", to: "p1")][$0] ?? ""
            })
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains(#"Rule "back" on page "p3" goes back to earlier page "p1", closing the loop p1 → p3 → p1"#))
    }

    /// A step back that closes no loop is still reported, once, where it is written.
    @Test func aStepBackThatClosesNoLoopIsStillReported() throws {
        let found = Self.cycles(Self.funnel(3) { [0: #""default_next":"end""#, 2: #""default_next":"p1""#][$0] ?? "" })
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains("No path leads from p1 back to p3"))
    }

    /// Ids longer than a message can show are shortened in the loop's drawing.
    @Test func longPageIdsAreShortenedInTheLoop() throws {
        let long = String(repeating: "x", count: 100_000)
        let pages = [Snap.page(long), Snap.page("p2", "statement", #""default_next":"\#(long)""#)]
        let found = Self.cycles(Snap.funnelFile(extra: "", pages))
        #expect(found.count == 1)
        #expect(try #require(found.first).message.utf8.count < 1_000)
    }

    /// Which funnels are flagged does not change: exactly those with a step to an earlier page or
    /// the same one. Each set of pages that reach one another through such a step is one finding;
    /// each step back between two such sets is one more. Checked against a reachability matrix on
    /// seeded random funnels.
    @Test func findingsMatchAReachabilityOracle() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<300 {
            let count = Int.random(in: 1...7, using: &generator)
            var targets: [[Int]] = []
            for _ in 0..<count {
                targets.append((0..<Int.random(in: 0...2, using: &generator)).map { _ in Int.random(in: 0..<count, using: &generator) })
            }
            let hasDefault = (0..<count).map { _ in Bool.random(using: &generator) }
            let text = Self.funnel(count) { page in
                var fields: [String] = []
                var rules = targets[page]
                if hasDefault[page], let last = rules.popLast() { fields.append(#""default_next":"p\#(last + 1)""#) }
                if !rules.isEmpty {
                    fields.append(#""next_rules":[\#(rules.enumerated().map { Snap.rule("r\($0.offset)", goto: "p\($0.element + 1)") }.joined(separator: ","))]"#)
                }
                return fields.joined(separator: ",")
            }
            // Every edge, as the audit's graph has them: rules, default_next, else the next page.
            var edges = [[Bool]](repeating: [Bool](repeating: false, count: count), count: count)
            var backSteps: [(from: Int, to: Int)] = []
            for page in 0..<count {
                for target in targets[page] {
                    edges[page][target] = true
                    if target <= page { backSteps.append((page, target)) }
                }
                if !(hasDefault[page] && !targets[page].isEmpty), page + 1 < count { edges[page][page + 1] = true }
            }
            var reach = edges
            for middle in 0..<count {
                for from in 0..<count where reach[from][middle] {
                    for to in 0..<count where reach[middle][to] { reach[from][to] = true }
                }
            }
            func sameComponent(_ a: Int, _ b: Int) -> Bool { a == b ? reach[a][a] : reach[a][b] && reach[b][a] }
            let looping = backSteps.filter { sameComponent($0.from, $0.to) }
            let components = Set(looping.map { step in (0..<count).first { sameComponent($0, step.from) }! })
            let expected = components.count + backSteps.count - looping.count
            let found = Self.cycles(text)
            #expect(found.count == expected, "\(text)")
            #expect(found.isEmpty == backSteps.isEmpty)
        }
    }
}
