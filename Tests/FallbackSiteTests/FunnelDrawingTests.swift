import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Funnel drawings")
struct FunnelDrawingTests {
    // MARK: The contract's funnel-era fixture

    @Test(arguments: FixtureFunnel.allCases)
    func everyPageIsOneBox(_ fixture: FixtureFunnel) throws {
        let funnel = try fixture.funnel()
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let boxIds = tree.all { $0.hasClass("fd-page") }.map { $0.pageId }
        #expect(boxIds == funnel.pages.map(\.id))
    }

    @Test(arguments: [
        (FixtureFunnel.onboardingControl, EdgeCounts(rule: 3, defaultNext: 2, sequential: 6, paywall: 2, end: 1)),
        (FixtureFunnel.onboardingVariantA, EdgeCounts(rule: 1, defaultNext: 0, sequential: 5, paywall: 1, end: 1)),
        (FixtureFunnel.winback, EdgeCounts(rule: 0, defaultNext: 1, sequential: 1, unknown: 1, end: 1)),
    ])
    func edgesOfEachKind(_ fixture: FixtureFunnel, expected: EdgeCounts) throws {
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: try fixture.funnel()).svg))
        #expect(EdgeCounts(tree) == expected)
    }

    @Test func conditionsLabelTheirRules() throws {
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: try FixtureFunnel.onboardingControl.funnel()).svg))
        let labels = tree.all { $0.hasClass("fd-label") }
        #expect(
            labels.filter { $0.hasClass("is-rule") }.compactMap { $0.shownText }.sorted() == [
                "1 · goal = lose_weight ∧ age ≥ 40", "1 · goal ∈ {build_muscle}", "2 · age ∈ [18, 65]",
            ])
        #expect(
            labels.filter { !$0.hasClass("is-rule") }.map { $0.shownText } == ["2 · else", "3 · else"])
    }

    @Test func winbackShowsItsUnknownTargetAndUnreachablePage() throws {
        let drawing = FunnelDrawing(funnel: try FixtureFunnel.winback.funnel(), unreachablePages: [ExactKey("pg_pay")])
        let tree = try #require(SVGNode.parse(drawing.svg))
        let unreachable = tree.all { $0.hasClass("fd-page") && $0.hasClass("is-unreachable") }
        #expect(unreachable.map { $0.pageId } == ["pg_pay"])
        let errors = tree.all { $0.hasClass("fd-terminal") && $0.hasClass("is-error") }
        #expect(errors.map { $0.shownText } == ["pg_checkout"])
        let unknownEdge = try #require(tree.all { $0.hasClass("fd-edge") && $0.hasClass("is-unknown") }.only)
        #expect(unknownEdge.attributes["data-to"] == errors.first?.attributes["id"])
        #expect(
            tree.first { $0.name == "desc" }?.text
                == "2 pages, 0 rules, 1 unreachable page, 1 step to an unknown target.")
    }

    @Test func titlesUseTheLocaleThenTheDefaultThenTheFirst() throws {
        let funnel = try FixtureFunnel.onboardingControl.funnel()
        func welcomeTitle(_ locale: String?) throws -> String? {
            let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel, locale: locale).svg))
            return tree.first { $0.hasClass("is-start") }?.first { $0.hasClass("fd-page-title") }?.text
        }
        #expect(try welcomeTitle(nil) == "Hello")
        #expect(try welcomeTitle("tr") == "Merhaba")
        #expect(try welcomeTitle("fr") == "Hello")
        let noDefault = try Build.funnel([
            Build.page("a", title: .object([.init("de", "Hallo"), .init("fr", "Salut")]))
        ])
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: noDefault).svg))
        #expect(tree.first { $0.hasClass("fd-page-title") }?.text == "Hallo")
    }

    // MARK: Targets and conditions

    @Test func paywallTargetsPointAtTheFirstPaywallPage() throws {
        let funnel = try Build.funnel([
            Build.page(
                "q", "single_choice",
                rules: [Build.rule("r", goto: "paywall", clauses: [Build.clause("goal", "eq", "x")])]),
            Build.page("info"),
            Build.page("pay1", "paywall"),
            Build.page("pay2", "paywall", defaultNext: "paywall"),
        ])
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let firstPaywall = try #require(tree.first { $0.hasClass("fd-page") && $0.pageId == "pay1" })
        #expect(firstPaywall.hasClass("is-paywall"))
        let jumps = tree.all { $0.hasClass("fd-edge") && $0.hasClass("is-paywall") }
        #expect(jumps.count == 2)
        #expect(jumps.allSatisfy { $0.attributes["data-to"] == firstPaywall.attributes["id"] })
        #expect(jumps.map { $0.hasClass("is-back") } == [false, true])
    }

    @Test func paywallWithoutAPaywallPageIsAnUnknownTarget() throws {
        let funnel = try Build.funnel([Build.page("a", defaultNext: "paywall"), Build.page("b")])
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let error = try #require(tree.all { $0.hasClass("fd-terminal") && $0.hasClass("is-error") }.only)
        #expect(error.shownText == "paywall")
        #expect(tree.all { $0.hasClass("is-unknown") && $0.hasClass("is-default") }.count == 1)
    }

    @Test func stepsBackUpAreMarked() throws {
        let funnel = try Build.funnel([
            Build.page("a"),
            Build.page("b", rules: [Build.rule("again", goto: "b", clauses: [Build.clause("q", "is_not_answered")])]),
            Build.page("c", rules: [Build.rule("loop", goto: "a", clauses: [Build.clause("q", "eq", 1)])]),
            Build.page("d", defaultNext: "end"),
        ])
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let ids = Dictionary(
            uniqueKeysWithValues: tree.all { $0.hasClass("fd-page") }.map {
                ($0.attributes["id"] ?? "", $0.pageId ?? "")
            })
        let back = tree.all { $0.hasClass("fd-edge") && $0.hasClass("is-back") }
            .map { "\(ids[$0.attributes["data-from"] ?? ""] ?? "?")→\(ids[$0.attributes["data-to"] ?? ""] ?? "?")" }
        #expect(back == ["b→b", "c→a"])
        #expect(tree.all { $0.hasClass("fd-edge") }.count == 6)
        #expect(tree.first { $0.name == "desc" }?.text?.hasSuffix("2 steps back to an earlier page.") == true)
    }

    @Test func unknownTargetsAreDrawnOncePerPageAndTarget() throws {
        let funnel = try Build.funnel([
            Build.page(
                "a",
                rules: [
                    Build.rule("r1", goto: "nowhere", clauses: [Build.clause("q", "eq", 1)]),
                    Build.rule("r2", goto: "nowhere", clauses: [Build.clause("q", "eq", 2)]),
                    Build.rule("r3", goto: "End", clauses: [Build.clause("q", "eq", 3)]),
                ]),
            Build.page("b", defaultNext: "nowhere"),
        ])
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let errors = tree.all { $0.hasClass("fd-terminal") && $0.hasClass("is-error") }
        #expect(errors.compactMap { $0.shownText } == ["nowhere", "End", "nowhere"])
        #expect(tree.all { $0.hasClass("fd-edge") && $0.hasClass("is-unknown") }.count == 4)
    }

    @Test(arguments: [
        (Build.clause("q", "neq", "40"), #"q ≠ "40""#),
        (Build.clause("q", "eq", 40), "q = 40"),
        (Build.clause("q", "eq", true), "q = true"),
        (Build.clause("q", "eq", "true"), #"q = "true""#),
        (Build.clause("q", "eq", "two words"), #"q = "two words""#),
        (Build.clause("q", "eq", .object([.init("k", 1)])), #"q = {"k":1}"#),
        (Build.clause("q", "eq"), "q = (no value)"),
        (Build.clause("q", "gt", .number(JSONNumber(text: "1e3"))), "q > 1e3"),
        (Build.clause("q", "gte", 2.5), "q ≥ 2.5"),
        (Build.clause("q", "lt", -1), "q < -1"),
        (Build.clause("q", "lte", 0), "q ≤ 0"),
        (Build.clause("age", "between", [18, 65]), "age ∈ [18, 65]"),
        (Build.clause("age", "between", 18), "age between 18"),
        (Build.clause("goal", "in", ["a", "b c", 3]), #"goal ∈ {a, "b c", 3}"#),
        (Build.clause("goal", "not_in", ["a"]), "goal ∉ {a}"),
        (Build.clause("tags", "contains", "yoga"), "tags ∋ yoga"),
        (Build.clause("q", "is_answered"), "q answered"),
        (Build.clause("q", "is_not_answered"), "q not answered"),
        (Build.clause("straße", "eq", "über"), "straße = über"),
    ])
    func clausesReadAsText(_ clause: JSONValue, expected: String) throws {
        let funnel = try Build.funnel([Build.page("a", rules: [Build.rule("r", goto: "end", clauses: [clause])])])
        #expect(try ruleLabels(funnel) == [expected])
    }

    @Test(arguments: [
        ("all", [Build.clause("a", "eq", 1), Build.clause("b", "eq", "x")], "a = 1 ∧ b = x"),
        ("any", [Build.clause("a", "eq", 1), Build.clause("b", "is_answered")], "a = 1 ∨ b answered"),
        ("all", [], "always"),
        ("any", [], "never"),
    ])
    func conditionsJoinTheirClauses(_ op: String, clauses: [JSONValue], expected: String) throws {
        let rule = Build.rule("r", goto: "end", op: op, clauses: clauses)
        let funnel = try Build.funnel([Build.page("a", rules: [rule])])
        #expect(try ruleLabels(funnel) == [expected])
    }

    /// Issue 9 point 5: a long condition wraps over lines instead of being cut with `…`.
    @Test func longLabelsWrapWhole() throws {
        let long = (1...30).map { Build.clause("question_\($0)", "eq", .string("answer_\($0)")) }
        let funnel = try Build.funnel([Build.page("a", rules: [Build.rule("r", goto: "end", clauses: long)])])
        let label = try #require(try ruleLabels(funnel).only)
        #expect(label == (1...30).map { "question_\($0) = answer_\($0)" }.joined(separator: " ∧ "))
    }

    // MARK: Markup

    @Test(arguments: FixtureFunnel.allCases)
    func markupIsWellFormedDeterministicAndClassStyled(_ fixture: FixtureFunnel) throws {
        let first = FunnelDrawing(funnel: try fixture.funnel(), unreachablePages: [ExactKey("pg_pay")])
        let second = FunnelDrawing(funnel: try fixture.funnel(), unreachablePages: [ExactKey("pg_pay")])
        #expect(first.svg == second.svg)
        let tree = try #require(SVGNode.parse(first.svg))
        #expect(tree.name == "svg")
        #expect(tree.attributes["width"] == String(first.width) && tree.attributes["height"] == String(first.height))
        #expect(tree.attributes["viewBox"] == "0 0 \(first.width) \(first.height)")
        #expect(tree.attributes["role"] == "img")
        for forbidden in ["style=", "<style", "<script", "href"] {
            #expect(!first.svg.contains(forbidden))
        }
        try expectReferencesResolve(tree)
    }

    /// Arrow heads are defined only for the kinds of step a drawing has: none for a funnel with
    /// no pages, whose drawing says so.
    @Test func aDrawingWithoutStepsDefinesNoArrowHeads() throws {
        let funnel = try #require(
            FallbackFile(text: #"{"formatVersion":1,"placements":{"p":{"funnel":{"id":"f","name":"Empty","pages":[],"slug":"f"},"placement":{"identifier":"p","revision":1}}}}"#)
                .loadedEntries.first?.entry.funnel)
        let svg = FunnelDrawing(funnel: funnel).svg
        #expect(svg.contains("No pages"))
        #expect(!svg.contains("<defs>") && !svg.contains("<marker"))
        let oneKind = FunnelDrawing(funnel: try Build.generatedFunnel(pageCount: 2)).svg
        #expect(oneKind.components(separatedBy: "<marker ").count - 1 == Set(oneKind.matches(of: /marker-end="url\(#([^)]+)\)"/).map { String($0.1) }).count)
    }

    /// Coordinates are rounded to tenths and written without a trailing `.0`: at most one decimal,
    /// never zero, and some whole.
    @Test func numbersHaveAtMostOneDecimalAndNoTrailingZero() throws {
        let svg = FunnelDrawing(funnel: try FixtureFunnel.onboardingControl.funnel()).svg
        let tree = try #require(SVGNode.parse(svg))
        let coordinates = tree.all { _ in true }.flatMap { node in
            ["x", "y", "width", "height", "rx"].compactMap { node.name == "svg" ? nil : node.attributes[$0] }
        }
        #expect(!coordinates.isEmpty)
        #expect(coordinates.allSatisfy { $0.wholeMatch(of: /-?\d+(\.[1-9])?/) != nil })
        #expect(coordinates.contains { !$0.contains(".") })
        let pathNumbers = tree.all { $0.name == "path" && $0.hasClass("fd-edge") }.flatMap {
            ($0.attributes["d"] ?? "").matches(of: /-?[\d.]+/).map { String($0.output) }
        }
        #expect(pathNumbers.allSatisfy { $0.wholeMatch(of: /-?\d+(\.[1-9])?/) != nil })
        #expect(pathNumbers.contains { !$0.contains(".") })
    }

    @Test(arguments: [
        (nil as String?, "fnl_fitness", "fd-fnl_fitness-"),
        ("flow-1", "fnl_fitness", "flow-1"),
        ("1flow", "x", "fd-1flow-"),
        (#""><script>"#, "x", "fd-script-"),
        (nil, "Über Funnel!", "fd-ber-funnel-"),
        (nil, "", "fd-"),
    ])
    func elementIdsAreSafe(_ requested: String?, funnelId: String, expectedStart: String) {
        let prefix = FunnelDrawing.elementIdPrefix(requested, funnelId: funnelId)
        #expect(prefix.hasPrefix(expectedStart))
        #expect(FunnelDrawing.isPlainIdentifier(prefix))
        #expect(FunnelDrawing.elementIdPrefix(requested, funnelId: funnelId) == prefix)
    }

    @Test func differentFunnelsGetDifferentIds() throws {
        let a = try Build.funnel(id: "Flow A", [Build.page("p")])
        let b = try Build.funnel(id: "flow-a", [Build.page("p")])
        let idsA = try #require(SVGNode.parse(FunnelDrawing(funnel: a).svg)).all { $0.attributes["id"] != nil }
        let idsB = try #require(SVGNode.parse(FunnelDrawing(funnel: b).svg)).all { $0.attributes["id"] != nil }
        #expect(Set(idsA.map { $0.attributes["id"]! }).isDisjoint(with: idsB.map { $0.attributes["id"]! }))
    }

    @Test func aFunnelWithoutPagesStillDraws() throws {
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: try Build.funnel([])).svg))
        #expect(tree.first { $0.name == "desc" }?.text == "0 pages, 0 rules.")
        #expect(tree.all { $0.hasClass("fd-page") }.isEmpty)
    }

    // MARK: Hostile snapshots

    static let hostileStrings = [
        "<script>alert(1)</script>", #""><img onerror=x>"#, "]]>", "&amp;", "' onload='x",
        "a\u{0}b\u{1}c\u{7}\u{8}\u{B}\u{C}\u{1B}[31m\u{7F}\u{85}\u{9F}\u{202E}d\u{FFFE}\u{FFFF}e\r\n\tf",
        String(repeating: "*", count: 10_000),
        "e" + String(repeating: "\u{301}", count: 5_000),
    ]

    @Test func hostileTextStaysText() throws {
        let hostile = Self.hostileStrings
        let pages = hostile.indices.map { index -> JSONValue in
            let text = JSONValue.string(hostile[index])
            return Build.page(
                hostile[index], hostile[index], title: .object([.init(hostile[index], text)]),
                rules: hostile.indices.map { other in
                    Build.rule(
                        hostile[other],
                        goto: other % 2 == 0 ? hostile[(index + other) % hostile.count] : hostile[other] + "!",
                        op: "any", clauses: [Build.clause(hostile[other], "in", [text, .string(hostile[other])])])
                },
                defaultNext: hostile[(index + 3) % hostile.count])
        }
        let funnel = try Build.funnel(id: hostile[0], slug: hostile[1], name: hostile[6], pages)
        let hostileSet = Set(hostile.map(ExactKey.init))
        let drawing = FunnelDrawing(
            funnel: funnel, unreachablePages: hostileSet, locale: hostile[2], idPrefix: hostile[1])
        let svg = drawing.svg

        let tree = try #require(SVGNode.parse(svg))
        let allowedElements: Set = ["svg", "title", "desc", "defs", "marker", "path", "g", "rect", "text", "tspan", "circle"]
        let allowedAttributes: Set = [
            "xmlns", "class", "width", "height", "viewBox", "role", "aria-labelledby", "id", "d", "data-from",
            "data-to", "marker-end", "x", "y", "rx", "refX", "refY", "markerWidth", "markerHeight", "markerUnits",
            "orient", "cx", "cy", "r", "text-anchor", "aria-hidden",
        ]
        let nodes = tree.all { _ in true }
        #expect(Set(nodes.map(\.name)).isSubset(of: allowedElements))
        #expect(Set(nodes.flatMap(\.attributes.keys)).isSubset(of: allowedAttributes))
        for value in nodes.flatMap(\.attributes.values) {
            #expect(!value.contains { "<>\"'&*".contains($0) })
        }
        for id in nodes.compactMap({ $0.attributes["id"] }) {
            #expect(FunnelDrawing.isPlainIdentifier(id))
        }
        for forbidden in ["<script", "<img", "]]>", "style=", "<style", "href", "&amp;amp;amp;"] {
            #expect(!svg.contains(forbidden))
        }
        #expect(!svg.unicodeScalars.contains { DrawingText.isUnsafe($0) && $0 != "\n" })
        #expect(!svg.contains("\r") && !svg.contains("\t"))
        #expect(nodes.contains { $0.text?.contains("<script>alert(1)</script>") == true })
        #expect(nodes.contains { $0.text?.contains("&amp;") == true })
        #expect(nodes.allSatisfy { ($0.text?.unicodeScalars.count ?? 0) < 1000 })
        #expect(svg.utf8.count < 200_000)
        #expect(tree.all { $0.hasClass("fd-page") }.count == hostile.count)
        #expect(tree.all { $0.hasClass("fd-page") && $0.hasClass("is-unreachable") }.count == hostile.count)
        try expectReferencesResolve(tree)
    }

    @Test(arguments: [
        "a\u{0}b", "\u{1}", "x\u{FFFE}y", "r\u{202E}l", "tab\there", "line\r\nbreak", "  pad  ", "e\u{301}",
    ])
    func textIsCleanedForXML(_ raw: String) throws {
        let fitted = DrawingText.fitted(raw, maxWidth: 500, fontSize: 11)
        #expect(!fitted.unicodeScalars.contains { DrawingText.isUnsafe($0) || $0.properties.isWhitespace && $0 != " " })
        #expect(fitted == fitted.trimmingCharacters(in: .whitespaces))
        #expect(SVGNode.parse("<t>\(DrawingText.escaped(fitted))</t>")?.text == fitted)
    }

    @Test func escapingCoversTheFiveXMLSpecials() {
        #expect(DrawingText.escaped(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(DrawingText.escaped("plain") == "plain")
    }

    // MARK: Size (the benchmark times the drawing: fallback-bench, "funnel drawing")

    @Test func thirtyBranchingPagesStayReadable() throws {
        let funnel = try Build.generatedFunnel(pageCount: 30)
        let drawing = FunnelDrawing(funnel: funnel)
        let tree = try #require(SVGNode.parse(drawing.svg))
        #expect(tree.all { $0.hasClass("fd-page") }.count == 30)
        #expect(drawing.width <= 1400)
        #expect(drawing.height <= 6000)
        #expect(tree.all { $0.hasClass("fd-edge") && $0.hasClass("is-back") }.isEmpty)
        try expectReferencesResolve(tree)
    }

    @Test func aWideFanWrapsIntoMoreLayers() throws {
        let targets = (1...12).map { "t\($0)" }
        let rules = targets.map { Build.rule($0, goto: $0, clauses: [Build.clause("q", "eq", .string($0))]) }
        let hub = Build.page("hub", "single_choice", rules: rules)
        let funnel = try Build.funnel([hub] + targets.map { Build.page($0, defaultNext: "end") })
        let drawing = FunnelDrawing(funnel: funnel)
        #expect(drawing.width <= 1200)
        #expect(try ruleLabels(funnel).count == 12)
    }

    @Test func aLargeFunnelDrawsEveryPage() throws {
        let funnel = try Build.generatedFunnel(pageCount: 400)
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        #expect(tree.all { $0.hasClass("fd-page") }.map { $0.pageId } == funnel.pages.map(\.id))
        try expectReferencesResolve(tree)
    }

    // MARK: Helpers

    private func ruleLabels(_ funnel: Funnel) throws -> [String] {
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        // The labels read "1 · condition": the priority is checked in ReadableFunnelGraphTests.
        return tree.all { $0.hasClass("fd-label") && $0.hasClass("is-rule") }.compactMap(\.shownText).map {
            String($0.trimmingPrefix(#/\d+ · /#))
        }
    }

    /// Every `url(#…)`, `aria-labelledby`, `data-from` and `data-to` names an element of the drawing.
    private func expectReferencesResolve(_ tree: SVGNode) throws {
        let nodes = tree.all { _ in true }
        let ids = nodes.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count)
        var references = (tree.attributes["aria-labelledby"] ?? "").split(separator: " ").map(String.init)
        #expect(references.count == 2)
        for node in nodes {
            if let marker = node.attributes["marker-end"] {
                let match = try #require(marker.wholeMatch(of: /url\(#(.+)\)/))
                references.append(String(match.1))
            }
            references += [node.attributes["data-from"], node.attributes["data-to"]].compactMap { $0 }
        }
        #expect(Set(references).isSubset(of: Set(ids)))
        // Every arrow head is one an edge uses; a drawing without edges has no `<defs>`.
        let markers = nodes.filter { $0.name == "marker" }.compactMap { $0.attributes["id"] }
        #expect(Set(markers) == Set(nodes.compactMap { $0.attributes["marker-end"] }.map { String($0.dropFirst(5).dropLast()) }))
        #expect(nodes.contains { $0.name == "defs" } == !markers.isEmpty)
    }
}

// MARK: - Fixtures and builders

enum FixtureFunnel: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case onboardingControl, onboardingVariantA, winback

    var testDescription: String { rawValue }

    static let file: FallbackFile? = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RovenueFallbackTests/Fixtures/funnel-era-fallback.json")
        return (try? Data(contentsOf: url)).map { FallbackFile(bytes: [UInt8]($0)) }
    }()

    func funnel() throws -> Funnel {
        let file = try #require(Self.file)
        let entries = Dictionary(file.loadedEntries.map { ($0.key, $0.entry) }, uniquingKeysWith: { first, _ in first })
        switch self {
        case .onboardingControl: return try #require(entries["onboarding"]?.experiment?.variants.first?.funnel)
        case .onboardingVariantA: return try #require(entries["onboarding"]?.experiment?.variants.last?.funnel)
        case .winback: return try #require(entries["winback"]?.funnel)
        }
    }
}

struct EdgeCounts: Equatable, CustomTestStringConvertible, Sendable {
    var rule = 0
    var defaultNext = 0
    var sequential = 0
    var paywall = 0
    var unknown = 0
    var back = 0
    var end = 0

    init(
        rule: Int, defaultNext: Int, sequential: Int, paywall: Int = 0, unknown: Int = 0, back: Int = 0, end: Int = 0
    ) {
        (self.rule, self.defaultNext, self.sequential) = (rule, defaultNext, sequential)
        (self.paywall, self.unknown, self.back, self.end) = (paywall, unknown, back, end)
    }

    init(_ tree: SVGNode) {
        let edges = tree.all { $0.hasClass("fd-edge") }
        func count(_ modifier: String) -> Int { edges.count { $0.hasClass(modifier) } }
        self.init(
            rule: count("is-rule"), defaultNext: count("is-default"), sequential: count("is-sequential"),
            paywall: count("is-paywall"), unknown: count("is-unknown"), back: count("is-back"), end: count("is-end"))
    }

    var testDescription: String {
        "rule \(rule), default \(defaultNext), sequential \(sequential), paywall \(paywall), unknown \(unknown), "
            + "back \(back), end \(end)"
    }
}

/// Funnels written as JSON and decoded through `FallbackFile`, as a device would read them.
enum Build {
    static func page(
        _ id: String, _ type: String = "statement", title: JSONValue? = nil, rules: [JSONValue] = [],
        defaultNext: String? = nil
    ) -> JSONValue {
        var members: [JSONValue.Member] = [.init("id", .string(id)), .init("type", .string(type))]
        if let title { members.append(.init("title", title)) }
        if type == "paywall" { members.append(.init("paywallId", "pw")) }
        members.append(.init("next_rules", .array(rules)))
        if let defaultNext { members.append(.init("default_next", .string(defaultNext))) }
        return .object(members)
    }

    static func rule(_ id: String, goto: String, op: String = "all", clauses: [JSONValue] = []) -> JSONValue {
        .object([
            .init("id", .string(id)),
            .init("condition", .object([.init("op", .string(op)), .init("clauses", .array(clauses))])),
            .init("goto", .string(goto)),
        ])
    }

    static func clause(_ question: String, _ op: String, _ value: JSONValue? = nil) -> JSONValue {
        var members: [JSONValue.Member] = [.init("question_id", .string(question)), .init("op", .string(op))]
        if let value { members.append(.init("value", value)) }
        return .object(members)
    }

    /// A file with one placement `p` serving the funnel, decoded.
    static func funnel(
        id: String = "fnl_test", slug: String = "test", name: String? = nil, _ pages: [JSONValue]
    ) throws -> Funnel {
        var members: [JSONValue.Member] = [.init("id", .string(id)), .init("slug", .string(slug))]
        if let name { members.append(.init("name", .string(name))) }
        members += [.init("defaultLocale", "en"), .init("pages", .array(pages))]
        let placement: JSONValue = .object([.init("identifier", "p"), .init("revision", 1)])
        let entry: JSONValue = .object([.init("placement", placement), .init("funnel", .object(members))])
        let file: JSONValue = .object([.init("formatVersion", 1), .init("placements", .object([.init("p", entry)]))])
        let decoded = FallbackFile(text: file.jsonText())
        return try #require(decoded.loadedEntries.first?.entry.funnel)
    }

    /// A quiz with skips ahead, a paywall and an outro: every third page branches (the benchmark
    /// times the drawing of the same funnel).
    static func generatedFunnel(pageCount: Int) throws -> Funnel {
        try #require(FallbackFile(text: SampleFunnel.fileText(pageCount: pageCount)).loadedEntries.first?.entry.funnel)
    }
}

// MARK: - A small XML tree, read with Foundation's parser

final class SVGNode {
    let name: String
    let attributes: [String: String]
    var children: [SVGNode] = []
    var text: String?

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func hasClass(_ name: String) -> Bool {
        (attributes["class"] ?? "").split(separator: " ").contains { $0 == name }
    }

    /// This node and its descendants that match, in document order.
    func all(where matches: (SVGNode) -> Bool) -> [SVGNode] {
        var found: [SVGNode] = []
        var stack = [self]
        while let node = stack.popLast() {
            if matches(node) { found.append(node) }
            stack += node.children.reversed()
        }
        return found
    }

    func first(where matches: (SVGNode) -> Bool) -> SVGNode? {
        all(where: matches).first
    }

    /// The text of the first `<text>` element in this node; the lines of a wrapped one (its
    /// `<tspan>`s) joined with spaces.
    var shownText: String? {
        guard let text = first(where: { $0.name == "text" }) else { return nil }
        let lines = text.children.filter { $0.name == "tspan" }.compactMap(\.text)
        return lines.isEmpty ? text.text : lines.joined(separator: " ")
    }

    /// The page id a page box shows.
    var pageId: String? { first { $0.hasClass("fd-page-id") }?.text }

    /// The root of `xml`, or nil when it is not well-formed.
    static func parse(_ xml: String) -> SVGNode? {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), builder.failed == false else { return nil }
        return builder.root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGNode?
        var stack: [SVGNode] = []
        var failed = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = SVGNode(name: elementName, attributes: attributes)
            if let parent = stack.last { parent.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard let node = stack.last else { return }
            node.text = (node.text ?? "") + string
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            failed = true
        }
    }
}

extension Array {
    /// The element of a one-element array.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
