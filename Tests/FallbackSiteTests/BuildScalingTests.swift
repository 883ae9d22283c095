import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// A build's site-wide work (a pass over every entry, every finding or every byte of the snapshot)
/// is done once, not once per page: counted with `BuildWorkMeter`, never timed. Each bound is what
/// a build that does the work once needs; the old code did it for each page, pages × placements.
@Suite("Site-wide work is done once per build")
struct BuildScalingTests {
    /// `count` placements that all serve the funnel `shared`, each with a finding (its identifier is
    /// not its key), and every fifth skipped with an experiment (its revision is a string).
    static func snapshot(placements count: Int) -> [UInt8] {
        let funnel = #"{"id":"shared","slug":"shared","pages":[{"id":"a","type":"info"}]}"#
        let experiment = #"{"id":"e","key":"k","variants":[{"variantId":"v","weight":1,"funnel":\#(funnel)}]}"#
        let entries = (0..<count).map { index in
            index % 5 == 4
                ? #""p\#(index)":{"placement":{"identifier":"p\#(index)","revision":"1"},"experiment":\#(experiment)}"#
                : #""p\#(index)":{"placement":{"identifier":"q\#(index)","revision":1},"funnel":\#(funnel)}"#
        }
        return Array((#"{"formatVersion":1,"placements":{"# + entries.joined(separator: ",") + "}}").utf8)
    }

    static func model(placements count: Int, overviewRows: Int) -> SiteModel {
        let bytes = snapshot(placements: count)
        let file = FallbackFile(bytes: bytes)
        var model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), title: nil,
            referenceDate: nil)
        model.overviewRowLimit = overviewRows
        return model
    }

    /// Every page's context and the search index, with the model made under the same meter.
    static func measuredBuild(placements count: Int, overviewRows: Int) -> (model: SiteModel, meter: BuildWorkMeter) {
        let meter = BuildWorkMeter()
        let model = SiteModel.$workMeter.withValue(meter) {
            let model = Self.model(placements: count, overviewRows: overviewRows)
            for page in model.pages { _ = model.context(for: page, values: PageValues()) }
            _ = model.searchIndex
            return model
        }
        return (model, meter)
    }

    @Test func eachPlacementsRecordIsFoundWithoutWalkingTheEntries() throws {
        let count = 400
        let (model, meter) = Self.measuredBuild(placements: count, overviewRows: 100)
        #expect(model.snapshot.file.entries.count == count)
        #expect(model.skippedExperiments.count == count / 5)
        // One lookup per placement page and per skipped experiment's page; walking the entries to
        // each key looked at count × count / 2 records.
        #expect(meter.count(.entryLookup) <= count + count / 5)
    }

    @Test func theOverviewsOrderDigestAndCountsAreMadeOnceForAllItsPages() throws {
        let count = 400
        let (model, meter) = Self.measuredBuild(placements: count, overviewRows: 10)
        #expect(model.overviewPageCount == 40)
        // Sorted once, hashed once, counted a bounded number of times, whatever the number of
        // overview pages: by page, 40 × the entries, 40 × the bytes and 80 × the findings.
        #expect(meter.count(.overviewOrder) == count)
        #expect(meter.count(.snapshotDigest) == model.snapshot.bytes.count)
        let findings = model.snapshot.findings.count
        try #require(findings >= count)
        // Once for the site's totals; each placement's own findings (the placement pages) sum to
        // the whole again.
        #expect(meter.count(.findingCount) <= 3 * findings)
    }

    @Test func aFunnelServedByEveryPlacementIsIndexedWithoutWalkingItsUses() throws {
        let count = 400
        let (model, meter) = Self.measuredBuild(placements: count, overviewRows: 500)
        let shared = try #require(model.funnelInfo(id: "shared"))
        #expect(shared.uses.count == count - count / 5)
        // One look per copy of the funnel; walking its uses for each copy is count × count.
        #expect(meter.count(.funnelUseLookup) <= count)
    }

    /// Paywalls are told apart by their content as written without keeping each content whole:
    /// a copy of every paywall's JSON was the largest thing a 10,000-placement build held beside
    /// the loaded snapshot.
    @Test func paywallVersionsAreToldApartWithoutKeepingTheirContents() throws {
        func paywall(_ name: String) -> String { PaywallPageTests.paywall("pw", name: name) }
        // Three contents under one id, each served twice; a fourth copy spells the first with other spacing.
        let names = ["a", "b", "c", "a", "b", "c"]
        var entries = names.enumerated().map { #""p\#($0)":{"placement":{"identifier":"p\#($0)","revision":1},"paywall":\#(paywall($1))}"# }
        entries.append(#""q":{"placement":{"identifier":"q","revision":1},"paywall": \#(paywall("a").replacingOccurrences(of: #",""#, with: #" , ""#))}"#)
        let bytes = Array((#"{"formatVersion":1,"placements":{"# + entries.joined(separator: ",") + "}}").utf8)
        let meter = BuildWorkMeter()
        let model = SiteModel.$workMeter.withValue(meter) {
            let file = FallbackFile(bytes: bytes)
            return SiteModel(snapshot: .init(name: "s.json", bytes: bytes, file: file, findings: []), title: nil, referenceDate: nil)
        }
        let info = try #require(model.paywallInfo(id: "pw"))
        #expect(info.versions.map(\.name) == ["a", "b", "c"])
        #expect(info.uses.map(\.version) == [0, 1, 2, 0, 1, 2, 0])
        #expect(meter.count(.paywallContentKept) == 0)
    }

    /// What the overview lists is what it listed before its order was kept: problems first, by key.
    @Test func theKeptOverviewOrderListsEveryPlacementOnceProblemsFirst() throws {
        let model = Self.model(placements: 57, overviewRows: 10)
        let listed = (1...model.overviewPageCount).flatMap { model.overviewPage(number: $0, root: "").placements.map(\.path) }
        #expect(listed == model.entriesProblemsFirst().map { model.placementPath($0.key) })
        #expect(Set(listed).count == 57)
    }
}
