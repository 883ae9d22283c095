import FallbackAudit
import FallbackMustache
import Foundation
import Testing

@testable import FallbackSite
import RovenueFallback

/// The page of a funnel, an experiment or a paywall writes a row or more for every item of what it
/// shows, however short the item; its render budget grows with that subject's JSON values, so a
/// file the SDK takes never fails the build, while every other page keeps the snapshot's budget.
@Suite("Render budgets of pages that list their subject")
struct PageBudgetTests {
    static func builder(for bytes: [UInt8]) throws -> SiteBuilder {
        let file = FallbackFile(bytes: bytes)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "snapshot.json", bytes: bytes, file: file, findings: Audit().findings(in: file)),
            baseline: nil, title: nil, referenceDate: nil)
        return try SiteBuilder(model: model, theme: .builtIn)
    }

    @Test func onlyTheSubjectPagesGetAnAllowanceAndItIsTheirSubtree() throws {
        let builder = try Self.builder(for: try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        let document = builder.model.snapshot.file.document
        let subjectKinds: Set<SitePage.Kind> = [.funnel, .experiment, .paywall]
        #expect(Set(builder.model.pages.map(\.kind)).isSuperset(of: subjectKinds))
        for page in builder.model.pages {
            let count = builder.subjectValueCount(of: page)
            #expect((count > 0) == subjectKinds.contains(page.kind), "\(page.path)")
            #expect(builder.renderBudget(for: page) == builder.renderBudget.adding(SiteBuilder.perSubjectValue, times: count), "\(page.path)")
            if page.kind == .experiment, let info = builder.model.experimentInfo(placementKey: page.id ?? "") {
                let node = info.experiment.source.node
                #expect(document.kind(ofNode: node) == .object)
                #expect(count == document.subtreeEnd(ofNode: node) - node)
            }
        }
    }

    /// 21,000 variants of a small paywall (2.2 MB) make an experiment page past the 16 MiB a
    /// render of that snapshot may otherwise write: it failed the build. It builds, every variant
    /// shown (17,000 did too until the comparison table stopped at `SiteModel.comparedVariantLimit`).
    @Test func anExperimentOfManyVariantsBuilds() throws {
        let count = 21_000
        let variants = (0..<count).map { #"{"paywall":{"configFormatVersion":1,"id":"w","identifier":"w","name":"P"},"variantId":"v\#($0)","weight":1}"# }
        let text = #"{"formatVersion":1,"placements":{"p":{"experiment":{"id":"e1","key":"k1","variants":[\#(variants.joined(separator: ","))]},"placement":{"identifier":"p","revision":1}}}}"#
        let pages = try site(for: Array(text.utf8))
        let page = try #require(pages["experiments/p.html"])
        #expect(page.utf8.count > MustacheBudget.standard.outputBytes)
        #expect(page.contains("v20999"))
    }
}
