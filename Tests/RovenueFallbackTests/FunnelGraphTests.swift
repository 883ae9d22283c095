import Testing

@testable import RovenueFallback

/// `FunnelGraph`: where each step leads (§6), reachability, strongly connected components, paywall
/// pages and condition text.
@Suite("FunnelGraph")
struct FunnelGraphTests {
    /// A page as JSON text: `rules` are `(id, goto)` pairs with an always-true condition.
    static func page(
        _ id: String, _ type: String = "statement", rules: [(String, String)] = [], defaultNext: String? = nil,
        extra: String = ""
    ) -> String {
        var members = [#""id":\#(quote(id))"#, #""type":\#(quote(type))"#]
        if !rules.isEmpty {
            let written = rules.map { #"{"id":\#(quote($0.0)),"condition":{"op":"all","clauses":[]},"goto":\#(quote($0.1))}"# }
            members.append(#""next_rules":[\#(written.joined(separator: ","))]"#)
        }
        if let defaultNext { members.append(#""default_next":\#(quote(defaultNext))"#) }
        if !extra.isEmpty { members.append(extra) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The funnel of a one-placement file with `pages` (and `funnelExtra` members).
    static func funnel(_ pages: [String], funnelExtra: String = "") throws -> Funnel {
        let extra = funnelExtra.isEmpty ? "" : "," + funnelExtra
        let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"f","pages":["#
            + pages.joined(separator: ",") + "]" + extra + "}}"
        let file = FallbackFile(text: fileText(entry: entry))
        return try #require(file.loadedEntries.first?.entry.funnel)
    }

    static func graph(_ pages: [String], funnelExtra: String = "") throws -> FunnelGraph {
        FunnelGraph(try funnel(pages, funnelExtra: funnelExtra))
    }

    /// Pages added after `pages` so a funnel is past `FunnelGraph.searchedPageLimit` (looked up by
    /// dictionary) when `large`.
    static func padded(_ pages: [String], large: Bool) -> [String] {
        guard large else { return pages }
        return pages + (0..<FunnelGraph.searchedPageLimit).map { page("pad\($0)", defaultNext: "end") }
    }

    // MARK: Targets

    @Test(arguments: [false, true])
    func targetsLeadWhereSection6Says(large: Bool) throws {
        let graph = try Self.graph(Self.padded([
            Self.page("a", rules: [("r1", "c"), ("r2", "end"), ("r3", "paywall"), ("r4", "nowhere")], defaultNext: "b"),
            Self.page("b"),
            Self.page("c", "paywall"),
            Self.page("d", "paywall"),
            Self.page("c", defaultNext: "a"),
        ], large: large))
        #expect(graph.steps(from: 0).map(\.kind) == [.rule(0), .rule(1), .rule(2), .rule(3), .defaultNext])
        #expect(graph.steps(from: 0).map(\.target) == [.page(2), .end, .paywall(2), .unknown(.noSuchPage), .page(1)])
        // No default_next: the next page in order.
        #expect(graph.steps(from: 1).map(\.kind) == [.nextInOrder])
        #expect(graph.steps(from: 1).map(\.target) == [.page(2)])
        // A duplicate id: steps lead to the first page with it.
        #expect(graph.pageIndex(of: "c") == 2)
        #expect(graph.target("c") == .page(2))
        #expect(graph.firstPaywallPage == 2)
        #expect(graph.writtenTarget(of: graph.steps(from: 0).first!) == "c")
        #expect(graph.writtenTarget(of: graph.steps(from: 1).first!) == nil)
        #expect(graph.rule(of: graph.steps(from: 0).first!)?.id == "r1")
    }

    @Test func pastTheLastPageTheFunnelEnds() throws {
        let graph = try Self.graph([Self.page("a"), Self.page("b")])
        #expect(graph.steps(from: 1).map(\.target) == [.end])
        #expect(graph.steps.count == 2)
        #expect(graph.pageCount == 2)
    }

    /// `"paywall"` and `"end"` are keywords: a page with that id does not change where they lead.
    @Test(arguments: [false, true])
    func keywordsWinOverPageIds(large: Bool) throws {
        let graph = try Self.graph(Self.padded([
            Self.page("start", rules: [("r1", "paywall")], defaultNext: "end"),
            Self.page("paywall"),
            Self.page("end"),
        ], large: large))
        #expect(graph.steps(from: 0).map(\.target) == [.unknown(.noPaywallPage), .end])
        #expect(graph.firstPaywallPage == nil)
    }

    /// Ids that differ only by normalisation are two pages: each goto leads to the page with its bytes.
    @Test(arguments: [false, true])
    func canonicallyEquivalentIdsAreTwoPages(large: Bool) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // what `String ==` would wrongly conclude
        let graph = try Self.graph(Self.padded([
            Self.page("start", rules: [("r1", decomposed), ("r2", "\u{212A}")], defaultNext: composed),
            Self.page(composed, defaultNext: "end"),
            Self.page(decomposed, defaultNext: "end"),
            Self.page("K", defaultNext: "end"),
        ], large: large))
        #expect(graph.pageIndex(of: composed) == 1)
        #expect(graph.pageIndex(of: decomposed) == 2)
        #expect(graph.steps(from: 0).map(\.target) == [.page(2), .unknown(.noSuchPage), .page(1)])
        #expect(graph.pagesReachedFromFirstPage() == [true, true, true, false] + Array(repeating: false, count: large ? 32 : 0))
    }

    // MARK: Searches

    @Test func reachabilityFollowsEveryStepFromTheFirstPage() throws {
        let graph = try Self.graph([
            Self.page("a", rules: [("r1", "c")], defaultNext: "end"),
            Self.page("b"),  // nothing leads here
            Self.page("c", rules: [("r1", "e")]),  // and on to d in order
            Self.page("d", defaultNext: "nowhere"),
            Self.page("e", defaultNext: "end"),
            Self.page("f", "paywall"),  // only "paywall" would lead here
        ])
        #expect(graph.pagesReachedFromFirstPage() == [true, false, true, true, true, false])
    }

    /// 200 generated funnels of 1 to 40 pages whose rules and default_next lead to pages (ids
    /// repeated too), `end`, `paywall` or nowhere, below and past the searched page limit.
    static func generatedGraphs() throws -> [FunnelGraph] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return try (0..<200).map { round in
            let count = 1 + next(round % 10 == 0 ? 40 : 12)
            let ids = (0..<count).map { _ in "p\(next(count + 2))" }
            func target() -> String {
                switch next(8) {
                case 0: "end"
                case 1: "paywall"
                case 2: "nowhere"
                default: ids[next(count)]
                }
            }
            let pages = ids.indices.map { index in
                page(
                    ids[index], next(4) == 0 ? "paywall" : "statement", rules: (0..<next(3)).map { ("r\($0)", target()) },
                    defaultNext: next(3) == 0 ? nil : target())
            }
            return try graph(padded(pages, large: round % 7 == 0))
        }
    }

    /// The breadth-first search reaches what a plain fixpoint over `steps(from:)` reaches from the
    /// first page, on the generated funnels.
    @Test func reachabilityAgreesWithAFixpoint() throws {
        var unreached = 0
        for (round, graph) in try Self.generatedGraphs().enumerated() {
            var expected = [Bool](repeating: false, count: graph.pageCount)
            expected[0] = true
            var changed = true
            while changed {
                changed = false
                for page in expected.indices where expected[page] {
                    for step in graph.steps(from: page) {
                        guard let next = step.target.page, !expected[next] else { continue }
                        expected[next] = true
                        changed = true
                    }
                }
            }
            let reached = graph.pagesReachedFromFirstPage()
            #expect(reached == expected, "round \(round)")
            unreached += reached.count { !$0 }
        }
        #expect(unreached > 100)
    }

    /// `parents(from:within:)` gives shortest-path trees inside each start's component, on the
    /// generated funnels with a start in two of every three components: each parent has a step to
    /// its child in the same component, one step nearer its start than the child by distances a
    /// fixpoint works out; the starts and the pages no start reaches have none.
    @Test func parentsAreShortestPathTreesInsideComponents() throws {
        var treeSteps = 0
        var deepest = 0
        for (round, graph) in try Self.generatedGraphs().enumerated() {
            let component = graph.stronglyConnectedComponents()
            var starts: [Int] = []
            var started = Set<Int>()
            for page in component.indices where component[page] % 3 != 2 && started.insert(component[page]).inserted {
                starts.append(page)
            }
            var distance = [Int?](repeating: nil, count: graph.pageCount)
            for start in starts { distance[start] = 0 }
            var changed = true
            while changed {
                changed = false
                for step in graph.steps {
                    guard let from = distance[step.from], let to = step.target.page, component[to] == component[step.from],
                        distance[to].map({ $0 > from + 1 }) ?? true
                    else { continue }
                    distance[to] = from + 1
                    changed = true
                }
            }
            let parents = graph.parents(from: starts, within: component)
            #expect(parents.count == graph.pageCount, "round \(round)")
            for page in parents.indices {
                guard let depth = distance[page], depth > 0 else {
                    #expect(parents[page] == -1, "round \(round), page \(page)")
                    continue
                }
                let parent = parents[page]
                guard parent >= 0 else {
                    Issue.record("round \(round), page \(page): no parent at distance \(depth)")
                    continue
                }
                #expect(graph.steps(from: parent).contains { $0.target.page == page }, "round \(round), page \(page)")
                #expect(component[parent] == component[page], "round \(round), page \(page)")
                #expect(distance[parent] == depth - 1, "round \(round), page \(page)")
                treeSteps += 1
                deepest = max(deepest, depth)
            }
        }
        #expect(treeSteps > 100)
        #expect(deepest > 2)
    }

    @Test func aFunnelWithoutPagesReachesNothing() throws {
        let graph = try Self.graph([])
        #expect(graph.pagesReachedFromFirstPage().isEmpty)
        #expect(graph.stronglyConnectedComponents().isEmpty)
        #expect(graph.steps.isEmpty)
    }

    @Test func componentsGroupPagesThatReachOneAnother() throws {
        // a → b → c → a is a loop; d goes to itself; e goes back to b but b does not reach e.
        let graph = try Self.graph([
            Self.page("a"),
            Self.page("b"),
            Self.page("c", rules: [("r1", "a")], defaultNext: "e"),
            Self.page("d", defaultNext: "d"),
            Self.page("e", defaultNext: "b"),
            Self.page("f", defaultNext: "end"),
        ])
        let component = graph.stronglyConnectedComponents()
        #expect(component.count == 6)
        #expect(component[0] == component[1] && component[1] == component[2])
        // e reaches b and b reaches e through c: e is in the loop too.
        #expect(component[4] == component[0])
        #expect(component[3] != component[0])
        #expect(component[5] != component[0] && component[5] != component[3])
        #expect(Set(component).count == 3)
        // The shortest path inside the loop from a: a → b → c → e.
        let parents = graph.parents(from: [0], within: component)
        #expect(parents == [-1, 0, 1, -1, 2, -1])
    }

    /// 20,000 pages in order, the last going back to the first: one component, searched without
    /// recursion (a recursive search would overflow the stack).
    @Test func aLoopOfTwentyThousandPagesIsOneComponent() throws {
        let count = 20_000
        let pages = (0..<count).map { index in
            Self.page("p\(index)", defaultNext: index == count - 1 ? "p0" : "p\(index + 1)")
        }
        let graph = try Self.graph(pages)
        let component = graph.stronglyConnectedComponents()
        #expect(component.count == count)
        #expect(Set(component) == [component[0]])
        #expect(graph.pagesReachedFromFirstPage().allSatisfy { $0 })
        let parents = graph.parents(from: [0], within: component)
        #expect(parents[count - 1] == count - 2)
        #expect(parents[0] == -1)
    }

    /// 20,000 pages each going on to the next: 20,000 components of one page.
    @Test func aChainOfTwentyThousandPagesIsAComponentPerPage() throws {
        let count = 20_000
        let graph = try Self.graph((0..<count).map { Self.page("p\($0)") })
        #expect(Set(graph.stronglyConnectedComponents()).count == count)
        #expect(graph.pagesReachedFromFirstPage().allSatisfy { $0 })
    }

    // MARK: Paywall pages

    static let carried = #""paywalls":{"pw":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"offering":null}}"#

    @Test(arguments: [
        // (paywallId member, funnel carries "pw", cannot show)
        (#""paywallId":"pw""#, true, false),
        (#""paywallId":"pw""#, false, true),
        (#""paywallId":"other""#, true, true),
        (#""paywallId":"""#, true, true),
        ("", true, true),
        (#""paywallId":null"#, true, true),
    ])
    func paywallPagesShowTheirPaywallOnlyWhenCarried(paywallId: String, carries: Bool, cannotShow: Bool) throws {
        let graph = try Self.graph(
            [Self.page("a"), Self.page("pay", "paywall", extra: paywallId)], funnelExtra: carries ? Self.carried : "")
        #expect(graph.cannotShowPaywall(onPage: 1) == cannotShow)
        #expect(FunnelGraph.cannotShowPaywall(graph.funnel.pages[1], in: graph.funnel) == cannotShow)
        #expect(FunnelGraph.isPaywallPage(graph.funnel.pages[1]))
        // A page of another type never has a paywall to show.
        #expect(!graph.cannotShowPaywall(onPage: 0))
    }

    /// A paywall key compared by its bytes: the decomposed twin of a carried key is not carried.
    @Test func aPaywallKeyIsComparedByItsBytes() throws {
        let carried = #""paywalls":{"caf\#u{E9}":{"id":"p","identifier":"p","name":"P","configFormatVersion":1,"offering":null}}"#
        let graph = try Self.graph(
            [
                Self.page("composed", "paywall", extra: #""paywallId":"caf\#u{E9}""#),
                Self.page("decomposed", "paywall", extra: #""paywallId":"cafe\#u{301}""#),
            ], funnelExtra: carried)
        #expect(!graph.cannotShowPaywall(onPage: 0))
        #expect(graph.cannotShowPaywall(onPage: 1))
    }

    // MARK: Condition text

    static func condition(_ json: String) throws -> Condition {
        let page = #"{"id":"a","type":"statement","next_rules":[{"id":"r","condition":\#(json),"goto":"end"}]}"#
        return try #require(try funnel([page]).pages[0].nextRules?.first?.condition)
    }

    @Test(arguments: [
        (#"{"op":"all","clauses":[]}"#, "always"),
        (#"{"op":"any","clauses":[]}"#, "never"),
        (#"{"op":"all","clauses":[{"question_id":"goal","op":"eq","value":"lose_weight"},{"question_id":"age","op":"gte","value":40}]}"#,
         "goal = lose_weight ∧ age ≥ 40"),
        (#"{"op":"any","clauses":[{"question_id":"q","op":"neq","value":"40"},{"question_id":"q","op":"eq","value":"true"}]}"#,
         #"q ≠ "40" ∨ q = "true""#),
        (#"{"op":"all","clauses":[{"question_id":"age","op":"between","value":[18,30]}]}"#, "age ∈ [18, 30]"),
        (#"{"op":"all","clauses":[{"question_id":"age","op":"between","value":5}]}"#, "age between 5"),
        (#"{"op":"all","clauses":[{"question_id":"g","op":"in","value":["a","b c"]}]}"#, #"g ∈ {a, "b c"}"#),
        (#"{"op":"all","clauses":[{"question_id":"g","op":"not_in","value":[1,2,3,4,5,6,7,8,9,10,11,12,13]}]}"#,
         "g ∉ {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, …}"),
        (#"{"op":"all","clauses":[{"question_id":"g","op":"contains","value":"yoga"}]}"#, "g ∋ yoga"),
        (#"{"op":"all","clauses":[{"question_id":"e","op":"is_answered"},{"question_id":"f","op":"is_not_answered"}]}"#,
         "e answered ∧ f not answered"),
        (#"{"op":"all","clauses":[{"question_id":"g","op":"eq"}]}"#, "g = (no value)"),
        (#"{"op":"all","clauses":[{"question_id":"g","op":"lt","value":[1,2,3,4,5,6,7,8,9,10,11,12,13]}]}"#,
         "g < [1,2,3,4,5,6,7,8,9,10,11,12,…]"),
    ])
    func conditionsReadAsTheyRun(json: String, text: String) throws {
        #expect(FunnelGraph.text(of: try Self.condition(json)) == text)
    }
}
