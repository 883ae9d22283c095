import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Keys and ids that differ only by Unicode normalisation are different for the SDK (it compares
/// bytes), so the site keeps them apart too.
@Suite("Canonically equivalent keys and ids on the site")
struct NormalisationSiteTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// Two placements whose keys, funnel ids and experiment ids differ only by normalisation, with
    /// different content and findings.
    static let snapshot = """
        {"formatVersion":1,"placements":{
        "caf\\u00e9":{"placement":{"identifier":"caf\\u00e9","revision":1},"funnel":{"id":"fnl_caf\\u00e9","slug":"first","name":"First funnel","pages":[{"id":"p1","type":"info","default_next":"nowhere"}]}},
        "cafe\\u0301":{"placement":{"identifier":"cafe\\u0301","revision":2},"funnel":{"id":"fnl_cafe\\u0301","slug":"second","name":"Second funnel","pages":[{"id":"p1","type":"info"},{"id":"p2","type":"info"}]}},
        "exp_caf\\u00e9":{"placement":{"identifier":"exp_caf\\u00e9","revision":1},"experiment":{"id":"exp_first","key":"k1","variants":[{"variantId":"a","weight":1,"paywall":{"id":"pw1","identifier":"pw1","name":"P1","configFormatVersion":1}}]}},
        "exp_cafe\\u0301":{"placement":{"identifier":"exp_cafe\\u0301","revision":1},"experiment":{"id":"exp_second","key":"k2","variants":[{"variantId":"b","weight":1,"paywall":{"id":"pw2","identifier":"pw2","name":"P2","configFormatVersion":1}}]}}
        }}
        """

    static func model() -> SiteModel {
        let bytes = Array(snapshot.utf8)
        let file = FallbackFile(bytes: bytes)
        return SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), title: nil,
            referenceDate: nil)
    }

    static func page(_ files: [String: String], _ model: SiteModel, _ kind: SitePage.Kind, _ id: String) throws -> String {
        let page = try #require(model.pages.first { $0.kind == kind && $0.id.map { Array($0.utf8) } == Array(id.utf8) })
        return try #require(files[page.path])
    }

    @Test func eachFunnelGetsItsOwnPage() throws {
        let model = Self.model()
        #expect(model.funnels.count == 2)
        let files = try site(for: Array(Self.snapshot.utf8))
        let funnelPages = files.filter { $0.key.hasPrefix("funnels/") }
        #expect(funnelPages.count == 2)
        #expect(funnelPages.values.contains { $0.contains("First funnel") && !$0.contains("Second funnel") })
        #expect(funnelPages.values.contains { $0.contains("Second funnel") && !$0.contains("First funnel") })
    }

    @Test func eachPlacementLinksItsOwnFunnelAndExperiment() throws {
        let model = Self.model()
        let files = try site(for: Array(Self.snapshot.utf8))
        for (key, name) in [(Self.composed, "First funnel"), (Self.decomposed, "Second funnel")] {
            let placement = try Self.page(files, model, .placement, key)
            let funnelPath = try #require(model.funnels.first { $0.funnel.name == name }?.fileName)
            #expect(placement.contains("href=\"../funnels/\(funnelPath).html\""), "\(name)")
            #expect(placement.contains(name))
        }
        for (key, id) in [("exp_" + Self.composed, "exp_first"), ("exp_" + Self.decomposed, "exp_second")] {
            let placement = try Self.page(files, model, .placement, key)
            #expect(placement.contains("<code>\(id)</code>"), "\(id)")
            let experiment = try Self.page(files, model, .experiment, key)
            #expect(experiment.contains("<code>\(id)</code>"), "\(id)")
        }
    }

    @Test func findingsOfTwoPlacementsAreNotMerged() throws {
        let model = Self.model()
        let files = try site(for: Array(Self.snapshot.utf8))
        for key in [Self.composed, Self.decomposed] {
            let expected = model.snapshot.findings.count { $0.placementKey.map { Array($0.utf8) } == Array(key.utf8) }
            let placement = try Self.page(files, model, .placement, key)
            #expect(placement.components(separatedBy: "<li class=\"finding ").count - 1 == expected, "\(key.unicodeScalars.map(\.value))")
        }
        // The unknown target is only in the first funnel; its page alone reports it.
        let first = try Self.page(files, model, .funnel, "fnl_" + Self.composed)
        let second = try Self.page(files, model, .funnel, "fnl_" + Self.decomposed)
        #expect(first.contains("nowhere"))
        #expect(!second.contains("nowhere"))
    }

    @Test func pagesAreFoundByTheirExactId() {
        let model = Self.model()
        for key in [Self.composed, Self.decomposed] {
            let page = model.page(.placement, id: key)
            #expect(page?.id.map { Array($0.utf8) } == Array(key.utf8))
        }
        #expect(model.page(.placement, id: Self.composed)?.path != model.page(.placement, id: Self.decomposed)?.path)
    }
}
