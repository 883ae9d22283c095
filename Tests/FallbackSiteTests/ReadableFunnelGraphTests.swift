import FallbackAudit
import FallbackMustache
import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// Issue 9 point 5: rule labels at their source with their priority and never cut short, parallel
/// steps told apart, a legend for every style used, page boxes that link to their rows, and an
/// outline that stays readable for big funnels.
@Suite("Readable funnel graphs")
struct ReadableFunnelGraphTests {
    /// `a`: a long rule to `b`, a short rule to `b` and `default_next` `b` (three parallel steps),
    /// then `b` with one rule to `end` and no `default_next` (the next page in order, `c`).
    private static func parallelFunnel() throws -> Funnel {
        let long = (1...8).map { Build.clause("question_number_\($0)", "eq", .string("a_rather_long_answer_\($0)")) }
        return try Build.funnel([
            Build.page(
                "a",
                rules: [
                    Build.rule("long", goto: "b", clauses: long),
                    Build.rule("short", goto: "b", clauses: [Build.clause("goal", "eq", .string("calm"))]),
                ], defaultNext: "b"),
            Build.page("b", rules: [Build.rule("done", goto: "end", clauses: [Build.clause("age", "gte", 40)])]),
            Build.page("c", defaultNext: "end"),
        ])
    }

    private struct ShownLabel {
        var from: String
        var to: String
        var lines: [String]
        var title: String
    }

    private static func labels(_ tree: SVGNode) -> [ShownLabel] {
        tree.all { $0.name == "g" && $0.hasClass("fd-label") }.map { label in
            ShownLabel(
                from: label.attributes["data-from"] ?? "", to: label.attributes["data-to"] ?? "",
                lines: label.all { $0.name == "tspan" }.map { $0.text ?? "" },
                title: label.first { $0.name == "title" }?.text ?? "")
        }
    }

    private static func withoutSpaces(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
    }

    @Test func labelsCarryTheirPriorityAndTheWholeCondition() throws {
        let funnel = try Self.parallelFunnel()
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        let labels = Self.labels(tree)
        let conditions = (funnel.pages[0].nextRules ?? []).map { FunnelGraph.text(of: $0.condition) }
        // The SDK tries rule 1, rule 2, then default_next; on `b`, its rule, then the next page.
        let expected = ["1 · " + conditions[0], "2 · " + conditions[1], "3 · else", "1 · age ≥ 40", "2 · else"]
        #expect(labels.map { Self.withoutSpaces($0.lines.joined()) } == expected.map(Self.withoutSpaces))
        #expect(labels.allSatisfy { label in !label.lines.joined().contains(DrawingText.ellipsis) })
        // The long condition wraps over lines, none wider than a label.
        #expect(labels[0].lines.count > 2)
        for line in labels.flatMap(\.lines) {
            #expect(DrawingText.width(of: line, fontSize: GraphLayout.Metrics.fontSize) <= GraphLayout.Metrics.labelMaxTextWidth)
        }
        #expect(labels[0].title.hasPrefix("1. Rule long of a: if question_number_1 = a_rather_long_answer_1"))
    }

    @Test func labelsSitBelowThePageTheyLeave() throws {
        let drawing = FunnelDrawing(funnel: try Self.parallelFunnel(), idPrefix: "t")
        let tree = try #require(SVGNode.parse(drawing.svg))
        func box(_ id: String?) throws -> (top: Double, bottom: Double) {
            let node = try #require(tree.first { $0.attributes["id"] == id })
            let rect = try #require(node.first { $0.name == "rect" })
            let top = try #require(Double(rect.attributes["y"] ?? ""))
            return (top, top + (Double(rect.attributes["height"] ?? "") ?? 0))
        }
        let labels = tree.all { $0.name == "g" && $0.hasClass("fd-label") }
        #expect(labels.count == 5)
        for label in labels {
            let rect = try #require(label.first { $0.name == "rect" })
            let top = try #require(Double(rect.attributes["y"] ?? ""))
            let bottom = top + (Double(rect.attributes["height"] ?? "") ?? 0)
            // Below the page it leaves, above the page it leads to.
            #expect(top >= (try box(label.attributes["data-from"])).bottom)
            #expect(bottom <= (try box(label.attributes["data-to"])).top)
        }
    }

    @Test func parallelStepsAreDistinctAndNumbered() throws {
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: try Self.parallelFunnel(), idPrefix: "t").svg))
        let parallel = tree.all { $0.hasClass("fd-edge") && $0.attributes["data-from"] == "t-page-0" }
        #expect(parallel.count == 3)
        #expect(Set(parallel.compactMap { $0.attributes["data-to"] }) == ["t-page-1"])
        #expect(Set(parallel.compactMap { $0.attributes["d"] }).count == 3)
        let badges = tree.all { $0.hasClass("fd-badge") && $0.attributes["data-from"] == "t-page-0" }
        #expect(badges.map { $0.shownText } == ["1", "2", "3"])
        let centres = badges.compactMap { $0.first { $0.name == "circle" }?.attributes["cx"] }
        #expect(Set(centres).count == 3)
        // Each bead sits on its own step: where the step's path starts.
        for (edge, centre) in zip(parallel, centres) {
            let start = try #require(edge.attributes["d"]?.dropFirst().split(separator: ",").first)
            #expect(String(start) == centre)
        }
    }

    @Test(arguments: [
        (FixtureFunnel.onboardingControl, "", Set(["sequential", "rule", "default", "paywall", "end"])),
        (FixtureFunnel.winback, "pg_pay", Set(["sequential", "default", "end", "unknown", "unreachable"])),
    ])
    func theLegendNamesEveryStyleUsed(_ fixture: FixtureFunnel, unreachable: String, expected: Set<String>) throws {
        let marked: Set<ExactKey> = unreachable.isEmpty ? [] : [ExactKey(unreachable)]
        let drawing = FunnelDrawing(funnel: try fixture.funnel(), unreachablePages: marked)
        let legend = try #require(SVGNode.parse(drawing.legend))
        let entries = legend.all { $0.name == "li" }
        let styles = entries.compactMap { $0.attributes["data-style"] }
        #expect(Set(styles) == expected)
        // Every style a step of the drawing has is in the legend.
        let tree = try #require(SVGNode.parse(drawing.svg))
        for edge in tree.all(where: { $0.hasClass("fd-edge") }) {
            let modifiers = (edge.attributes["class"] ?? "").split(separator: " ").filter { $0.hasPrefix("is-") }
            for modifier in modifiers { #expect(styles.contains(String(modifier.dropFirst(3)))) }
        }
        // Each entry says in words what it is, beside a key drawn in its style.
        for entry in entries {
            #expect(!(entry.text ?? "").trimmingCharacters(in: .whitespaces).isEmpty)
            #expect(entry.first { $0.name == "svg" }?.attributes["aria-hidden"] == "true")
        }
    }

    @Test func pageBoxesLinkToTheirRows() throws {
        let funnel = try Self.parallelFunnel()
        let anchors = funnel.pages.map { "page-" + $0.id }
        let tree = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel, unreachablePageIndices: [], pageAnchors: anchors).svg))
        #expect(tree.attributes["role"] == "group")
        let links = tree.all { $0.name == "a" }
        #expect(links.map { $0.attributes["href"] } == anchors.map { "#" + $0 })
        for (index, link) in links.enumerated() {
            #expect(link.hasClass("fd-link"))
            #expect(link.attributes["aria-label"]?.hasPrefix("Page \(index + 1) of 3: \(funnel.pages[index].id)") == true)
            #expect(link.children.first?.attributes["id"] == link.attributes["data-node"])
        }
        // An anchor stays an attribute value, whatever it holds.
        let hostile = try #require(
            SVGNode.parse(
                FunnelDrawing(
                    funnel: funnel, unreachablePageIndices: [], pageAnchors: [#"x"><script>1</script>"#, "a&b", "c'd"]
                ).svg))
        #expect(hostile.all { $0.name == "a" }.map { $0.attributes["href"] } == [#"#x"><script>1</script>"#, "#a&b", "#c'd"])
        #expect(hostile.all { $0.name == "script" }.isEmpty)
        // Without anchors the drawing is one image with no links.
        let image = try #require(SVGNode.parse(FunnelDrawing(funnel: funnel).svg))
        #expect(image.attributes["role"] == "img" && image.all { $0.name == "a" }.isEmpty)
    }

    @Test func aHostileConditionIsCappedInTheDrawingAndWholeInItsTooltip() throws {
        let clauses = (1...2000).map { Build.clause("q\($0)", "eq", .string("<b>\($0)</b>")) }
        let funnel = try Build.funnel([Build.page("a", rules: [Build.rule("r", goto: "end", clauses: clauses)])])
        let drawing = FunnelDrawing(funnel: funnel)
        let tree = try #require(SVGNode.parse(drawing.svg))
        let label = try #require(Self.labels(tree).first)
        #expect(label.lines.count == GraphLayout.Metrics.labelMaxLines)
        #expect(label.lines.last?.hasSuffix(DrawingText.ellipsis) == true)
        #expect(label.title.hasPrefix(#"1. Rule r of a: if q1 = "<b>1</b>" ∧ q2"#))
        #expect(!drawing.svg.contains("<b>"))
    }

    @Test(arguments: [
        "", "else", "1 · goal = lose_weight ∧ age ≥ 40", String(repeating: "x", count: 90),
        "a " + String(repeating: "é", count: 70) + " b", "日本語のテキスト " + String(repeating: "長", count: 40),
    ])
    func wrappingKeepsEveryCharacter(_ text: String) {
        let lines = DrawingText.wrapped(text, maxWidth: 120, fontSize: 11, maxLines: 50)
        #expect(Self.withoutSpaces(lines.joined()) == Self.withoutSpaces(text))
        for line in lines {
            #expect(DrawingText.width(of: line, fontSize: 11) <= 120)
            #expect(!line.hasPrefix(" ") && !line.hasSuffix(" "))
        }
    }

    // MARK: The funnel page

    @Test func aBigFunnelOpensItsOutline() throws {
        let pages = try site(for: Array(SampleFunnel.fileText(pageCount: 60).utf8))
        let page = try #require(pages.first { $0.key.hasPrefix("funnels/") }?.value)
        #expect(page.contains(#"<details class="funnel-outline" open>"#))
        #expect(page.contains(#"<details class="graph-drawing">"#))
        let outline = try #require(page.components(separatedBy: #"<ol class="outline-pages">"#).dropFirst().first?
            .components(separatedBy: "</details>").first)
        #expect(outline.components(separatedBy: #"<li id="outline-page-"#).count - 1 == 60)
        // page_1 branches: its two rules first, then the next page in order, each linked.
        let first = try #require(outline.components(separatedBy: #"<li id="outline-page-page_1">"#).dropFirst().first?
            .components(separatedBy: "</ol></li>").first)
        let priorities = first.matches(of: /<span class="step-priority">(\d+)\.<\/span>/).map { String($0.1) }
        #expect(priorities == ["1", "2", "3"])
        #expect(first.contains(##"(rule skip_1)</span> → <a href="#page-page_3"><code>page_3</code></a>"##))
        #expect(first.contains(##"else <span class="muted">(next page in order)</span> → <a href="#page-page_2">"##))
        // Every target link names a row of the pages table.
        let rows = Set(page.matches(of: /<tr id="([^"]+)"/).map { String($0.1) })
        for link in outline.matches(of: #/<a href="#([^"]+)">/#) { #expect(rows.contains(String(link.1))) }
    }

    /// A drawing of hundreds of boxes reads as nothing and weighs about 2.5 KB of SVG a page (12.8 MB
    /// for 5,000 pages): past `drawnPagesLimit` pages the funnel is not drawn, the page says why,
    /// and the outline, open, lists every page.
    @Test(arguments: [FunnelPage.drawnPagesLimit, FunnelPage.drawnPagesLimit + 1])
    func aFunnelPastTheDrawingLimitIsListedNotDrawn(pageCount: Int) throws {
        let pages = try site(for: Array(SampleFunnel.fileText(pageCount: pageCount).utf8))
        let page = try #require(pages.first { $0.key.hasPrefix("funnels/") }?.value)
        let drawn = pageCount <= FunnelPage.drawnPagesLimit
        #expect(page.contains(#"<details class="graph-drawing">"#) == drawn)
        #expect(page.contains("<svg") == drawn)
        #expect(page.contains(#"<ul class="legend fd-legend""#) == drawn)
        #expect(page.contains("Not drawn: \(pageCount) pages are more than the \(FunnelPage.drawnPagesLimit) a drawing shows legibly.") == !drawn)
        #expect(page.contains(#"<details class="funnel-outline" open>"#))
        #expect(page.components(separatedBy: #"<li id="outline-page-"#).count - 1 == pageCount)
        #expect(PageSafetyScan.problems(in: page).isEmpty)
    }

    /// A funnel's page writes an outline line and a row for each of its pages however bare (and a
    /// preview for each of the first `FunnelPreviews.pageLimit`): 34,000 pages of
    /// `{"id":…,"type":"info"}` (1 MB) make a page past the 16 MiB a render of that snapshot may
    /// otherwise write, which failed the build. It builds, every page listed.
    @Test func aFunnelOfManyBarePagesBuilds() throws {
        let count = 34_000
        let bare = (0..<count).map { #"{"id":"p\#($0)","type":"info"}"# }.joined(separator: ",")
        let text = #"{"formatVersion":1,"placements":{"p":{"funnel":{"id":"fnl_bare","name":"Bare","pages":[\#(bare)],"slug":"bare"},"placement":{"identifier":"p","revision":1}}}}"#
        let pages = try site(for: Array(text.utf8))
        let page = try #require(pages["funnels/fnl_bare.html"])
        #expect(page.utf8.count > MustacheBudget.standard.outputBytes)
        #expect(page.components(separatedBy: #"<li id="outline-page-"#).count - 1 == count)
        #expect(page.components(separatedBy: #"<li class="preview" id="preview-"#).count - 1 == FunnelPreviews.pageLimit)
        #expect(page.contains("Not drawn: \(count) pages"))
    }

    @Test func aFunnelsPageGetsAnAllowancePerPageAndNoOtherPageDoes() throws {
        let bytes = Array(SampleFunnel.fileText(pageCount: 40).utf8)
        let file = FallbackFile(bytes: bytes)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "snapshot.json", bytes: bytes, file: file, findings: Audit().findings(in: file)),
            baseline: nil, title: nil, referenceDate: nil)
        let builder = try SiteBuilder(model: model, theme: .builtIn)
        #expect(model.pages.contains { $0.kind == .funnel })
        for page in model.pages {
            let placements = try #require(file.document.root.members.first { $0.key == "placements" }?.value)
            let funnelValues = try #require(placements.members.first?.value.members.first { $0.key == "funnel" }?.value)
            let values = file.document.subtreeEnd(ofNode: funnelValues.index) - funnelValues.index
            #expect(values > 40 * 3)
            let expected = page.kind == .funnel ? builder.renderBudget.adding(SiteBuilder.perSubjectValue, times: values) : builder.renderBudget
            #expect(builder.renderBudget(for: page) == expected, "\(page.path)")
        }
    }

    @Test func aSmallFunnelShowsItsDrawingWithLinksAndLegend() throws {
        let pages = try site(for: try example("Examples/2026-06-23-release-3.3.json"))
        let page = try #require(pages["funnels/fnl_calm_quiz.html"])
        #expect(page.contains(#"<details class="graph-drawing" open>"#))
        #expect(page.contains(#"<details class="funnel-outline">"#))
        #expect(page.contains(#"<ul class="legend fd-legend""#))
        let rows = Set(page.matches(of: /<tr id="([^"]+)"/).map { String($0.1) })
        let nodes = page.matches(of: #/<a class="fd-link" href="#([^"]+)"/#).map { String($0.1) }
        #expect(!nodes.isEmpty)
        for node in nodes { #expect(rows.contains(node)) }
        #expect(PageSafetyScan.problems(in: page).isEmpty)
    }
}
