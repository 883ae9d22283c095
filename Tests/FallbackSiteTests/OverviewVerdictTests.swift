import FallbackAudit
import FallbackHistory
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The overview opens with a verdict (ready to ship, or what is in the way, each linked), lists
/// problems first, and splits its rows over pages so a 10,000-placement file stays small (issue 9,
/// points 1 and 10).
@Suite("Overview: verdict, problems first, pages")
struct OverviewVerdictTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var errors: Int
        var warnings: Int
        /// Breaking changes since the previous snapshot; nil for a single snapshot.
        var breaking: Int?
        var ready: Bool
        var errorsText: String
        var breakingText: String?
        var warningsText: String?
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ready", errors: 0, warnings: 0, breaking: 0, ready: true, errorsText: "no errors", breakingText: "no breaking changes"),
        Case(name: "errors only", errors: 3, warnings: 0, breaking: 0, ready: false, errorsText: "3 errors", breakingText: "no breaking changes"),
        Case(name: "breaking only", errors: 0, warnings: 0, breaking: 1, ready: false, errorsText: "no errors", breakingText: "1 breaking change"),
        Case(name: "both, and a warning", errors: 1, warnings: 1, breaking: 2, ready: false, errorsText: "1 error",
             breakingText: "2 breaking changes", warningsText: "1 warning"),
        Case(name: "single snapshot, ready with warnings", errors: 0, warnings: 2, breaking: nil, ready: true, errorsText: "no errors",
             warningsText: "2 warnings"),
        Case(name: "single snapshot, an error", errors: 1, warnings: 0, breaking: nil, ready: false, errorsText: "1 error"),
    ]

    @Test(arguments: cases)
    func theVerdictIsNotReadyOnlyForAnErrorOrABreakingChange(_ example: Case) {
        var counts = SeverityCounts()
        counts.add(.error, count: example.errors)
        counts.add(.warning, count: example.warnings)
        counts.add(.info, count: 5)
        let comparison = example.breaking.map { (breaking: $0, baseline: "old.json", since: "the previous snapshot") }
        let readiness = SiteModel.readiness(counts: counts, comparison: comparison, root: "../")
        #expect(readiness.ready == example.ready)
        #expect(readiness.status == (example.ready ? "Ready to ship" : "Not ready"))
        #expect(readiness.errors.text == example.errorsText)
        #expect(readiness.errors.path == (example.errors == 0 ? nil : "../checks.html#errors"))
        #expect(readiness.errors.severity == (example.errors == 0 ? "none" : "error"))
        #expect(readiness.breaking?.text == example.breakingText)
        #expect(readiness.breaking?.path == ((example.breaking ?? 0) == 0 ? nil : "../changes.html#breaking"))
        #expect(readiness.warnings?.text == example.warningsText)
        #expect(readiness.warnings?.path == (example.warnings == 0 ? nil : "../checks.html#warnings"))
        // With a single snapshot there is nothing to be "since".
        #expect(readiness.since == comparison?.since)
        #expect(readiness.baseline == comparison?.baseline)
    }

    /// The Examples history: release 3.4 against release 3.3.
    @Test func theExamplesHistoryIsNotReadyWithOneErrorAndTwoBreakingChanges() throws {
        let files = try seriesSite(folder: repositoryRoot.appendingPathComponent("Examples").path)
        let index = try #require(files["index.html"])
        let start = try #require(index.range(of: #"<section class="verdict"#))
        let end = try #require(index.range(of: "</section>", range: start.upperBound..<index.endIndex))
        let sentence = String(index[start.lowerBound..<end.lowerBound])
        #expect(sentence.contains(">Not ready</h2>"))
        #expect(sentence.contains(#"<a class="badge sev-error" href="checks.html#errors">1 error</a>"#))
        #expect(sentence.contains(#"<a class="badge sev-error" href="changes.html#breaking">2 breaking changes</a>"#))
        #expect(sentence.contains("since the previous snapshot (<code>2026-06-23-release-3.3"))
        // Both targets exist on the built pages.
        #expect(files["checks.html"]?.contains(#"id="errors""#) == true)
        #expect(files["changes.html"]?.contains(#"id="breaking""#) == true)
    }

    @Test func aSingleSnapshotHasNoSincePart() throws {
        let files = try site(for: try example("Examples/2026-07-21-release-3.4.json"))
        let index = try #require(files["index.html"])
        #expect(index.contains(">Not ready</h2>"))
        #expect(index.contains(#"href="checks.html#errors">1 error</a>"#))
        #expect(!index.contains("breaking change"))
        #expect(!index.contains("since the"))
        #expect(index.contains(#"1 error</a> and <a class="badge sev-warning" href="checks.html#warnings">1 warning</a>."#))
    }

    /// Rows as the overview lists them: (key text, data-severity), in page order.
    static func rows(_ html: String) -> [(key: String, severity: String)] {
        let pattern = #/<tr data-kind="[^"]*" data-severity="([a-z]+)"[^>]*><th scope="row"><a href="[^"]*">([^<]*)</a>/#
        return html.matches(of: pattern).map { (key: LinkChecker.decodeEntities(String($0.output.2)), severity: String($0.output.1)) }
    }

    static func rank(_ severity: String) -> Int { severity == "error" ? 0 : severity == "warning" ? 1 : 2 }

    @Test(arguments: ["Examples/2026-07-21-release-3.4.json", "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"])
    func problemsComeFirstThenKeysInByteOrder(_ fixture: String) throws {
        let files = try site(for: try example(fixture))
        let rows = Self.rows(try #require(files["index.html"]))
        #expect(rows.count == FallbackFile(bytes: try example(fixture)).entries.count)
        #expect(rows.contains { $0.severity == "error" || $0.severity == "warning" })
        for (a, b) in zip(rows, rows.dropFirst()) {
            let (ra, rb) = (Self.rank(a.severity), Self.rank(b.severity))
            #expect(ra < rb || (ra == rb && Array(a.key.utf8).lexicographicallyPrecedes(Array(b.key.utf8))), "\(a) before \(b)")
        }
    }

    @Test func keysSortByTheirBytesNotByLocale() throws {
        // "Z" (0x5A) before "a" (0x61); precomposed "é" (0xC3 0xA9) after "e" + U+0301 (0x65 …).
        let keys = ["a", "\u{E9}", "Z", "e\u{301}"]
        let placements = keys.map { #""\#($0)":{"placement":{"identifier":"\#($0)","revision":1}}"# }.joined(separator: ",")
        let bytes = Array(#"{"formatVersion":1,"placements":{\#(placements)}}"#.utf8)
        let file = FallbackFile(bytes: bytes)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: []), title: nil, referenceDate: nil)
        #expect(model.entriesProblemsFirst().map { Array($0.key.unicodeScalars) } == ["Z", "a", "e\u{301}", "\u{E9}"].map { Array($0.unicodeScalars) })
    }

    @Test func placementsPastTheRowLimitGoOnFurtherPagesWithAPager() throws {
        let (model, files) = try Self.pagedSite(placements: 7, rowsPerPage: 3)
        let pages = ["index.html", "index-2.html", "index-3.html"]
        #expect(files["index-4.html"] == nil)
        let listed = try pages.map { Self.rows(try #require(files[$0], "\($0)")).map(\.key) }
        #expect(listed.map(\.count) == [3, 3, 1])
        #expect(listed.flatMap { $0 } == model.entriesProblemsFirst().map(\.key))
        #expect(files["index.html"]?.contains("Placements 1–3 of 7") == true)
        #expect(files["index-3.html"]?.contains("Placements 7–7 of 7") == true)
        #expect(files["index.html"]?.contains(#"<a href="index-2.html" rel="next">"#) == true)
        #expect(files["index-3.html"]?.contains(#"rel="next""#) == false)
        #expect(files["index-2.html"]?.contains(#"<span aria-current="page">2</span>"#) == true)
        #expect(files["index-2.html"]?.contains("<title>Overview, page 2") == true)
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test(arguments: 1...40) func thePagerLinksTheEndsAndTheNeighboursPastNinePages(count: Int) {
        for current in 1...count {
            let listed = OverviewPage.Pager.listedPages(count: count, current: current)
            let pages = listed.map(\.page)
            var expected = count <= 9 ? Array(1...count) : Array(Set([1, count] + ((current - 2)...(current + 2)).filter { (1...count).contains($0) })).sorted()
            // A gap of exactly one page shows that page instead.
            for gap in zip(expected, expected.dropFirst()).filter({ $1 - $0 == 2 }) { expected.append(gap.0 + 1) }
            expected.sort()
            #expect(count <= 9 || expected.count <= 9)
            #expect(pages == expected, "count \(count), current \(current)")
            #expect(listed.map(\.gapBefore) == pages.indices.map { $0 > 0 && pages[$0] != pages[$0 - 1] + 1 })
        }
    }

    @Test func aLongOverviewLinksAFewPagesFromEachPageWithGapsBetween() throws {
        let count = 25
        let (_, files) = try Self.pagedSite(placements: count, rowsPerPage: 1)
        let middle = try #require(files["index-12.html"])
        let nav = try #require(middle.range(of: #"<nav class="pager""#).map { String(middle[$0.lowerBound...].prefix { $0 != "\n" }) })
        #expect(nav.contains(#"<li><a href="index.html">1</a></li><li class="pager-gap">…</li><li><a href="index-10.html">10</a></li>"#))
        #expect(nav.contains(#"<li><span aria-current="page">12</span></li>"#))
        #expect(nav.contains(#"<li><a href="index-14.html">14</a></li><li class="pager-gap">…</li><li><a href="index-25.html">25</a></li>"#))
        #expect(!nav.contains("index-9.html\"") && !nav.contains("index-15.html\"") && !nav.contains("index-24.html\""))
        let first = try #require(files["index.html"])
        #expect(first.contains(#"<li><a href="index-3.html">3</a></li><li class="pager-gap">…</li><li><a href="index-25.html">25</a></li>"#))
        // Every page is reachable from the first by following links.
        var reached: Set<String> = ["index.html"], queue = ["index.html"]
        while let page = queue.popLast() {
            for link in Self.pagerLinks(try #require(files[page])) where reached.insert(link).inserted { queue.append(link) }
        }
        #expect(reached == Set((1...count).map { $0 == 1 ? "index.html" : "index-\($0).html" }))
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    /// The site of a file of `placements` placements `p0`, `p1`, … with `rowsPerPage` overview rows a page.
    static func pagedSite(placements: Int, rowsPerPage: Int) throws -> (SiteModel, [String: String]) {
        let members = (0..<placements).map { #""p\#($0)":{"placement":{"identifier":"p\#($0)","revision":1}}"# }.joined(separator: ",")
        let bytes = Array(#"{"formatVersion":1,"placements":{\#(members)}}"#.utf8)
        let file = FallbackFile(bytes: bytes)
        var model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), title: nil,
            referenceDate: nil)
        model.overviewRowLimit = rowsPerPage
        return (model, try SiteBuilder(model: model, theme: .builtIn).files().compactMapValues { String(bytes: $0, encoding: .utf8) })
    }

    static func pagerLinks(_ page: String) -> [String] {
        guard let start = page.range(of: #"<nav class="pager""#), let end = page[start.upperBound...].range(of: "</nav>") else { return [] }
        return page[start.lowerBound..<end.lowerBound].components(separatedBy: #"href=""#).dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
    }

    @Test func aFileThatFitsHasOneOverviewPageAndNoPager() throws {
        let files = try site(for: try example("Examples/2026-07-21-release-3.4.json"))
        #expect(!files.keys.contains { $0.hasPrefix("index-") })
        #expect(files["index.html"]?.contains(#"class="pager""#) == false)
    }
}
