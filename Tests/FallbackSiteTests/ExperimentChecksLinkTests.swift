import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A variant card links a finding to the Checks page only when that page lists it: the Checks page
/// cuts each rule's list at `SiteModel.listedFindingLimit`, and a link past the cut would lead
/// nowhere (review of issue 9: 105 dead `checks.html#…` links on a 1,000-placement sample).
@Suite("Experiment cards link only listed findings")
struct ExperimentChecksLinkTests {
    /// A funnel of `count` pages, each with a remote image: `count` remote-media findings (one per page).
    static func imageFunnel(_ id: String, count: Int) -> String {
        let pages = (0..<count).map { #"{"id":"p\#($0)","type":"info","title":"T","mediaUrl":"https://x.test/\#($0).png"}"# }
        return #"{"id":"\#(id)","slug":"\#(id)","pages":[\#(pages.joined(separator: ","))]}"#
    }

    @Test func aFindingPastTheChecksPagesCutIsNotLinkedThere() throws {
        let limit = SiteModel.listedFindingLimit
        // "a" comes first in the file, so its findings fill the Checks page's remote-media list.
        let text = ExperimentPageTests.file(
            #""a":{"placement":{"identifier":"a","revision":1},"funnel":\#(Self.imageFunnel("fnl_a", count: limit + 10))},"#
                + ExperimentPageTests.experiment([("v", "1", #""funnel":\#(Self.imageFunnel("fnl_v", count: 3))"#)]))
        let model = ExperimentPageTests.model(text)
        let page = try ExperimentPageTests.page(model)
        let rows = try #require(page.variants.first).healthFindings.filter { $0.rule == Rule.remoteMedia.id.rawValue }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.checksPath == nil }, "past the cut: no link to the Checks page")
        #expect(rows.allSatisfy { $0.placementPath != nil && $0.anchor != nil }, "linked to the entry's line instead")

        // Every checks.html#id an experiment page writes is a row of the Checks page.
        let files = try ExperimentPageTests.files(model)
        let checks = try #require(files["checks.html"])
        let experiment = try #require(files.first { $0.key.hasPrefix("experiments/") }?.value)
        let targets = experiment.matches(of: #/href="\.\./checks\.html#([^"]+)"/#).map { String($0.output.1) }
        for id in targets { #expect(checks.contains("id=\"\(id)\""), "\(id)") }
        #expect(!experiment.contains("See it in the checks"))
        #expect(experiment.contains("See it in the entry"))
    }

    @Test func aListedFindingIsLinkedToItsRowOnTheChecksPage() throws {
        let text = ExperimentPageTests.file(ExperimentPageTests.experiment([("v", "1", #""funnel":\#(Self.imageFunnel("fnl_v", count: 2))"#)]))
        let model = ExperimentPageTests.model(text)
        let rows = try #require(try ExperimentPageTests.page(model).variants.first).healthFindings
        #expect(!rows.isEmpty && rows.allSatisfy { $0.checksPath != nil })
        let files = try ExperimentPageTests.files(model)
        let checks = try #require(files["checks.html"])
        for row in rows { #expect(checks.contains("id=\"\(row.id)\"")) }
    }
}
