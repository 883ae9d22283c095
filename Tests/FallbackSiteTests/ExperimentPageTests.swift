import FallbackAudit
import FallbackHistory
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The experiment page (issue 9, point 7): variant cards with their health, the variants' funnels
/// compared with the first's, the allocation across a series with what each change does to
/// subscribers' buckets (§5), and a page for each experiment whose entry the SDK skips.
@Suite("Experiment pages")
struct ExperimentPageTests {
    /// Snapshot texts held in memory, named `1.json`, `2.json`, … in source order.
    struct Texts: SnapshotSource {
        let texts: [String]

        func references() throws -> [SnapshotReference] {
            texts.indices.map { SnapshotReference(name: "\($0 + 1).json", location: String($0)) }
        }

        func bytes(of reference: SnapshotReference) throws -> [UInt8] {
            Array(texts[Int(reference.location)!].utf8)
        }
    }

    static func file(_ placements: String, generatedAt: Int = 1_764_400_000_000) -> String {
        #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"proj_1","placements":{\#(placements)}}"#
    }

    static func paywall(_ id: String) -> String {
        #"{"id":"\#(id)","identifier":"\#(id)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
    }

    static let controlFunnel =
        #"{"id":"fnl_c","slug":"c","name":"Control quiz","pages":[{"id":"a","type":"statement","title":"Hi","default_next":"b"},{"id":"b","type":"statement","default_next":"c"},{"id":"c","type":"statement","title":"Bye"}]}"#
    /// `b` removed, `d` added, `c`'s title changed, `a` and `c` routed elsewhere (`c` to a page that does not exist: an error).
    static let variantFunnel =
        #"{"id":"fnl_v","slug":"v","name":"Short quiz","pages":[{"id":"a","type":"statement","title":"Hi","default_next":"c"},{"id":"c","type":"statement","title":"Farewell","default_next":"zzz"},{"id":"d","type":"statement"}]}"#

    static func experiment(key: String = "k1", id: String = "exp_1", _ variants: [(String, String, String)]) -> String {
        let written = variants.map { #"{"variantId":"\#($0.0)","weight":\#($0.1),\#($0.2)}"# }.joined(separator: ",")
        return #""exp_place":{"placement":{"identifier":"exp_place","revision":1},"experiment":{"id":"\#(id)","key":"\#(key)","variants":[\#(written)]}}"#
    }

    static let threeVariants = experiment([
        ("control", "0.5", #""funnel":\#(controlFunnel)"#), ("short", "0.3", #""funnel":\#(variantFunnel)"#),
        ("pay", "0.2", #""paywall":\#(paywall("pw_x"))"#),
    ])

    static func model(_ text: String, timeline: Timeline? = nil) -> SiteModel {
        let bytes = Array(text.utf8)
        let file = FallbackFile(bytes: bytes)
        return SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), baseline: nil,
            timeline: timeline, title: nil, referenceDate: nil)
    }

    /// The model of the last of `texts`, with the series' timeline.
    static func seriesModel(_ texts: [String]) throws -> SiteModel {
        let timeline = try SnapshotSeries(Texts(texts: texts)).timeline(HistoryOptions())
        return model(texts[texts.count - 1], timeline: timeline)
    }

    static func page(_ model: SiteModel, placement: String = "exp_place") throws -> ExperimentPage {
        let page = try #require(model.page(.experiment, id: placement))
        let values = PageValues()
        return try #require(
            model.experimentPage(placementKey: placement, root: page.root, values: values)
                ?? model.skippedExperimentPage(placementKey: placement, root: page.root, values: values))
    }

    static func files(_ model: SiteModel) throws -> [String: String] {
        try SiteBuilder(model: model, theme: .builtIn).files().compactMapValues { String(bytes: $0, encoding: .utf8) }
    }

    // MARK: Variant cards

    @Test func eachVariantsCardSaysWhatItServesAndItsPageCount() throws {
        let page = try Self.page(Self.model(Self.file(Self.threeVariants)))
        #expect(page.variants.map(\.variantId) == ["control", "short", "pay"])
        #expect(page.variants.map(\.share) == ["50%", "30%", "20%"])
        #expect(page.variants[0].funnel?.name == "Control quiz")
        #expect(page.variants[0].funnel?.pageCount == 3)
        #expect(page.variants[0].funnel?.path == "../funnels/fnl_c.html")
        #expect(page.variants[1].funnel?.pageCount == 3)
        #expect(page.variants[2].funnel == nil)
        #expect(page.variants[2].paywall?.id == "pw_x")
        #expect(page.variants[2].paywall?.path == "../paywalls/pw_x.html")
        #expect(page.variants.allSatisfy { $0.nothing == nil })
    }

    /// A funnel of one page is "1 page" wherever a page count is written (a variant's card, the
    /// comparison, the funnel's own page), and a comparison with one other difference says so (the renamed variant differs in its name; the other in its slug and name).
    @Test func oneOfAnythingIsWrittenInTheSingular() throws {
        let renamed = Self.controlFunnel.replacingOccurrences(of: #""name":"Control quiz""#, with: #""name":"Renamed quiz""#)
        let text = Self.file(Self.experiment([
            ("control", "0.5", #""funnel":\#(Self.controlFunnel)"#), ("renamed", "0.3", #""funnel":\#(renamed)"#),
            ("one", "0.2", #""funnel":{"id":"fnl_one","slug":"one","name":"One","pages":[{"id":"a","type":"statement","title":"Hi"}]}"#),
        ]))
        let model = Self.model(text)
        let page = try Self.page(model)
        #expect(page.comparison.map(\.otherChanges) == [1, 2])
        let files = try Self.files(model)
        let experiment = try #require(files["experiments/exp_place.html"])
        #expect(experiment.contains("One</a> · 1 page</dd>") && experiment.contains("One</a> · 1 page <span"))
        #expect(experiment.contains("Control quiz</a> · 3 pages</dd>"))
        #expect(experiment.contains("· 1 other difference</span>") && experiment.contains("· 2 other differences</span>"))
        let funnel = try #require(files["funnels/fnl_one.html"])
        #expect(funnel.contains("· 1 page.</p>"))
        #expect(try #require(files["funnels/fnl_c.html"]).contains("· 3 pages.</p>"))
        #expect(!files.values.contains { $0.contains(" 1 pages") || $0.contains(" 1 other differences") })
    }

    @Test func aVariantsHealthCountsTheFindingsAboutItAndWhatItServes() throws {
        let model = Self.model(Self.file(Self.threeVariants))
        let page = try Self.page(model)
        // The variant's funnel routes page c to a page that does not exist: an error on its card only.
        let short = page.variants[1]
        #expect(short.health.errors == 1)
        #expect(short.healthSummary.hasPrefix("1 error"))
        #expect(short.healthSeverity == "error")
        #expect(short.healthFindings.contains { $0.rule == "goto-unknown" })
        #expect(page.variants[0].health.errors == 0)
        #expect(page.variants[0].health.warnings == 0)
        #expect(page.variants[0].healthSummary == "no errors or warnings")
        #expect(page.variants[0].healthSeverity == "none")
        // Each finding of a card is on the checks page under the id the card links to.
        let checks = try #require(try Self.files(model)["checks.html"])
        for finding in short.healthFindings { #expect(checks.contains(#"id="\#(finding.id)""#)) }
        let experimentHTML = try #require(try Self.files(model)["experiments/exp_place.html"])
        #expect(experimentHTML.contains(#"href="../checks.html#\#(short.healthFindings[0].id)""#))
        #expect(experimentHTML.contains("1 error"))
    }

    // MARK: Variant funnels compared

    @Test func eachVariantsFunnelIsComparedWithTheFirstVariants() throws {
        let page = try Self.page(Self.model(Self.file(Self.threeVariants)))
        #expect(page.control == "control")
        #expect(page.comparison.map(\.variantId) == ["short", "pay"])
        let short = page.comparison[0]
        #expect(short.note == nil)
        #expect(short.added.map(\.id) == ["d"])
        #expect(short.removed.map(\.id) == ["b"])
        #expect(short.copyChanged.map(\.id) == ["c"])
        #expect(short.routingChanged.map(\.id) == ["a", "c"])
        #expect(!short.reordered)
        // Added and changed pages link into the variant's funnel, removed ones into the first variant's.
        #expect(short.added[0].path == "../funnels/fnl_v.html#page-d")
        #expect(short.removed[0].path == "../funnels/fnl_c.html#page-b")
        #expect(page.comparison[1].note?.contains("paywall") == true)
        #expect(page.comparison[1].added.isEmpty)
    }

    @Test func twoVariantsServingTheSameFunnelCompareAsTheSame() throws {
        let text = Self.file(
            Self.experiment([("a", "0.5", #""funnel":\#(Self.controlFunnel)"#), ("b", "0.5", #""funnel":\#(Self.controlFunnel)"#)]))
        let row = try #require(try Self.page(Self.model(text)).comparison.first)
        #expect(row.note == "the same funnel as a, page for page")
        #expect(row.added.isEmpty && row.removed.isEmpty && row.copyChanged.isEmpty && row.routingChanged.isEmpty)
    }

    /// An experiment whose first variant serves a funnel of `pages` pages and whose `variants` others
    /// each serve a funnel of its one page `p0`, which the first variant also has.
    static func wideExperiment(pages: Int, variants: Int) -> String {
        let controlPages = (0..<pages).map { #"{"id":"p\#($0)","type":"statement","title":"T"}"# }.joined(separator: ",")
        let control = #"{"id":"fnl_wide","slug":"w","name":"Wide","pages":[\#(controlPages)]}"#
        let others = (0..<variants).map { index in
            ("v\(index)", "0", #""funnel":{"id":"fnl_\#(index)","slug":"s\#(index)","pages":[{"id":"p0","type":"statement","title":"T"}]}"#)
        }
        return Self.file(Self.experiment([("control", "1", #""funnel":\#(control)"#)] + others))
    }

    @Test(arguments: [
        (SiteModel.comparedPageLimit + 1, SiteModel.comparedVariantLimit, 0),
        (SiteModel.comparedPageLimit + 40, SiteModel.comparedVariantLimit + 7, 7),
    ])
    func theComparisonNamesAtMostItsLimitsAndCountsTheRest(pages: Int, variants: Int, variantsLeftOut: Int) throws {
        let model = Self.model(Self.wideExperiment(pages: pages, variants: variants))
        let page = try Self.page(model)
        #expect(page.comparison.count == min(variants, SiteModel.comparedVariantLimit))
        #expect(page.comparison.map(\.variantId) == (0..<min(variants, SiteModel.comparedVariantLimit)).map { "v\($0)" })
        #expect(page.moreComparedVariants == variantsLeftOut)
        for row in page.comparison {
            // Every page but p0 is removed: the first 20 named, in order, the rest counted.
            #expect(row.removed.map(\.id) == (1...SiteModel.comparedPageLimit).map { "p\($0)" })
            #expect(row.moreRemoved == pages - 1 - SiteModel.comparedPageLimit)
            #expect(row.moreAdded == 0 && row.moreCopyChanged == 0 && row.moreRoutingChanged == 0)
        }
        let html = try #require(try Self.files(model)["experiments/exp_place.html"])
        let leftOut = pages - 1 - SiteModel.comparedPageLimit
        #expect(html.contains("</code></a> and \(leftOut) more") == (leftOut > 0))
        #expect(!html.contains("and 0 more"))
        #expect(html.contains("And \(variantsLeftOut) more variants, not compared here.") == (variantsLeftOut > 0))
    }

    // MARK: Allocation history

    static func paywallVariants(_ weights: [(String, String)]) -> [(String, String, String)] {
        weights.map { ($0.0, $0.1, #""paywall":\#(paywall("pw_" + $0.0))"#) }
    }

    @Test func theHistoryNotesWhatEachChangeDoesToSubscribersBuckets() throws {
        let half = Self.paywallVariants([("a", "0.5"), ("b", "0.5")])
        let thirds = Self.paywallVariants([("a", "0.34"), ("b", "0.33"), ("c", "0.33")])
        let texts = [
            Self.file(#""other":{"placement":{"identifier":"other","revision":1},"paywall":\#(Self.paywall("pw"))}"#, generatedAt: 1_764_000_000_000),
            Self.file(Self.experiment(half), generatedAt: 1_764_100_000_000),
            Self.file(Self.experiment(half), generatedAt: 1_764_200_000_000),
            Self.file(Self.experiment(thirds), generatedAt: 1_764_300_000_000),
            Self.file(Self.experiment(key: "k2", thirds), generatedAt: 1_764_400_000_000),
            Self.file(Self.experiment(key: "k2", id: "exp_renamed", thirds), generatedAt: 1_764_500_000_000),
        ]
        let history = try #require(try Self.page(Self.seriesModel(texts)).history)
        #expect(history.map(\.snapshots) == ["1.json", "2.json … 3.json (2 snapshots)", "4.json", "5.json", "6.json"])
        #expect(history.map(\.moves) == [nil, "start", "some", "everyone", "none"])
        #expect(history.map(\.present) == [false, true, true, true, true])
        #expect(history[0].state == "the placement is not in this snapshot yet")
        #expect(history[1].weights.map(\.share) == ["50%", "50%"])
        #expect(history[3].weights.map(\.weight) == ["0.34", "0.33", "0.33"])
        #expect(history[3].key == "k2")
        // 50/50 → 34/33/33 under one key: the buckets 3400–4999 go from a to b, 6700–9999 from b to c.
        let some = try #require(history[2].note)
        #expect(some.contains("49.0% of them") && some.contains("4,900 of 10,000 buckets"))
        #expect(some.contains("a → b (buckets 3400–4999)") && some.contains("b → c (buckets 6700–9999)"))
        #expect(history[3].note?.contains("every subscriber is drawn again") == true)
        #expect(history[4].note?.contains("the id does not enter bucketing, so nobody moves") == true)
        #expect(history.map(\.current) == [false, false, false, false, true])
    }

    @Test func anExperimentThatStopsIsNoted() throws {
        let half = Self.paywallVariants([("a", "0.5"), ("b", "0.5")])
        let texts = [
            Self.file(Self.experiment(half), generatedAt: 1_764_100_000_000),
            Self.file(#""exp_place":{"placement":{"identifier":"exp_place","revision":2},"paywall":\#(Self.paywall("pw"))}"#, generatedAt: 1_764_200_000_000),
            Self.file(Self.experiment(half), generatedAt: 1_764_300_000_000),
        ]
        let history = try #require(try Self.page(Self.seriesModel(texts)).history)
        #expect(history.map(\.moves) == [nil, "end", "start"])
        #expect(history[1].state == "serves paywall pw, no experiment")
    }

    @Test func oneSnapshotHasNoHistoryAndThePageSaysSo() throws {
        let model = Self.model(Self.file(Self.threeVariants))
        let page = try Self.page(model)
        #expect(page.history == nil)
        #expect(!page.hasHistory)
        let html = try #require(try Self.files(model)["experiments/exp_place.html"])
        #expect(html.contains("there is no allocation history"))
    }

    // MARK: Skipped experiments

    /// An entry whose experiment has a variant with neither funnel nor paywall, with markup in its text.
    static let skippedText = file(
        #""exp_place":{"placement":{"identifier":"exp_place","revision":1},"experiment":{"id":"exp_skip","key":"k</pre><script>alert(1)</script>","variants":[{"variantId":"a","weight":0.5,"paywall":\#(paywall("pw"))},{"variantId":"b","weight":0.5}]}},"#
            + #""Exp_Place":{"placement":{"identifier":"Exp_Place","revision":1},"experiment":{"id":"exp_ok","key":"k","variants":[{"variantId":"a","weight":1,"paywall":\#(paywall("pw"))}]}}"#)

    @Test func aSkippedExperimentGetsAPageThatSaysWhyTheWholeEntryFails() throws {
        let model = Self.model(Self.skippedText)
        let page = try Self.page(model)
        let skipped = try #require(page.skipped)
        #expect(page.id == "exp_skip")
        #expect(page.serves == OfflineTarget.skippedSummary)
        #expect(skipped.inExperiment)
        #expect(skipped.variantCount == 2)
        #expect(skipped.pointer == "/placements/exp_place/experiment/variants/1")
        #expect(skipped.explanation.contains("skips the whole entry"))
        #expect(skipped.explanation.contains("no subscriber is drawn into any variant"))
        // The place is the entry-skipped finding's.
        let finding = try #require(model.snapshot.findings.first { $0.ruleId.rawValue == "entry-skipped" && $0.placementKey == "exp_place" })
        #expect((skipped.line, skipped.column) == (finding.line, finding.column))
        #expect(page.findings.contains { $0.rule == "entry-skipped" })
    }

    @Test func aSkippedExperimentsPageIsLinkedEverywhereAndItsTextStaysText() throws {
        let model = Self.model(Self.skippedText)
        let site = try Self.files(model)
        let valid = try #require(model.page(.experiment, id: "Exp_Place"))
        let skipped = try #require(model.page(.experiment, id: "exp_place"))
        // Named among the experiments: the two never share a file.
        #expect(valid.path != skipped.path)
        #expect(skipped.path == "experiments/exp_place.html")
        let html = try #require(site[skipped.path])
        #expect(html.contains("Error: skipped with its entry."))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains(#"id="L"#))
        #expect(site["index.html"]?.contains(#"href="experiments/exp_place.html">why its experiment is skipped"#) == true)
        #expect(site["placements/exp_place.html"]?.contains(#"href="../experiments/exp_place.html">why the whole entry fails"#) == true)
        #expect(site["checks.html"]?.contains(#"class="experiment-link" href="experiments/exp_place.html""#) == true)
        let search = try #require(site[SearchIndex.path])
        #expect(search.contains(#""experiments/exp_place.html""#))
        #expect(model.searchIndex.entries.contains { $0.kind == .experimentId && $0.text == "exp_skip" && $0.path == skipped.path })
        // The valid experiment's page is still the valid one.
        #expect(site[valid.path]?.contains("skipped with its entry") == false)
    }

    @Test func aFailureOutsideTheExperimentSaysSo() throws {
        let text = Self.file(
            #""exp_place":{"placement":{"identifier":"exp_place","revision":"5"},"experiment":{"id":"e","key":"k","variants":[{"variantId":"a","weight":1,"paywall":\#(Self.paywall("pw"))}]}}"#)
        let skipped = try #require(try Self.page(Self.model(text)).skipped)
        #expect(!skipped.inExperiment)
        #expect(skipped.pointer == "/placements/exp_place/placement/revision")
        #expect(skipped.explanation.contains("outside the experiment"))
    }

    @Test func anEntrySkippedWithoutAnExperimentHasNoExperimentPage() {
        let model = Self.model(Self.file(#""p":{"placement":{"identifier":"p","revision":"5"},"paywall":\#(Self.paywall("pw"))}"#))
        #expect(model.skippedExperiments.isEmpty)
        #expect(model.page(.experiment, id: "p") == nil)
    }
}
