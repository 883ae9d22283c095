import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Pages pick the findings about what they show: a funnel page lists the findings about that
/// funnel, its pages and the paywalls it carries, not those of other funnels the same placement
/// serves.
@Suite("Findings on the page of their subject")
struct FindingSubjectPageTests {
    /// The site of `bytes`, written to a fresh temporary folder and read back (path → HTML); the
    /// folder is removed before returning.
    static func builtSite(_ bytes: [UInt8]) throws -> (model: SiteModel, files: [String: String]) {
        let file = FallbackFile(bytes: bytes)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "snapshot.json", bytes: bytes, file: file, findings: Audit().findings(in: file)),
            title: nil, referenceDate: nil)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("finding-subject-pages-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(try SiteBuilder(model: model, theme: .builtIn).files())
        var files: [String: String] = [:]
        for page in model.pages {
            files[page.path] = String(decoding: try #require(FileManager.default.contents(atPath: out + "/" + page.path)), as: UTF8.self)
        }
        return (model, files)
    }

    /// The `line:column` of each finding a page lists.
    static func listedPositions(_ html: String) -> [String] {
        guard let start = html.range(of: "<ol class=\"findings\">"), let end = html.range(of: "</ol>", range: start.upperBound..<html.endIndex)
        else { return [] }
        let list = String(html[start.upperBound..<end.lowerBound])
        let pattern = try! NSRegularExpression(pattern: "line ([0-9]+), column ([0-9]+)</")
        return pattern.matches(in: list, range: NSRange(list.startIndex..., in: list)).map { match in
            "\(list[Range(match.range(at: 1), in: list)!]):\(list[Range(match.range(at: 2), in: list)!])"
        }
    }

    static func position(_ finding: Finding) -> String { "\(finding.line):\(finding.column)" }

    static func funnelPage(_ site: (model: SiteModel, files: [String: String]), id: String) throws -> String {
        let page = try #require(site.model.pages.first { $0.kind == .funnel && $0.id.map { Array($0.utf8) } == Array(id.utf8) }, "no page for \(id)")
        return try #require(site.files[page.path])
    }

    /// In the fixture, placement `onboarding` runs an experiment whose variant `control` serves
    /// `fnl_fitness` and whose variant `variant_a` serves `fnl_short`.
    @Test func theFitnessFunnelPageListsOnlyItsOwnFindings() throws {
        let bytes = try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json")
        let site = try Self.builtSite(bytes)
        let findings = site.model.snapshot.findings
        // Told apart by where they point, independently of how pages pick them.
        let fitness = findings.filter { $0.pointer.hasPrefix("/placements/onboarding/experiment/variants/0/funnel/") }
        let short = findings.filter { $0.pointer.hasPrefix("/placements/onboarding/experiment/variants/1/funnel/") }
        #expect(!fitness.isEmpty && !short.isEmpty, "the fixture no longer has findings in both funnels")
        let listed = Self.listedPositions(try Self.funnelPage(site, id: "fnl_fitness"))
        for finding in short {
            #expect(!listed.contains(Self.position(finding)), "fnl_fitness lists fnl_short's \(finding)")
        }
        #expect(listed.sorted() == fitness.map(Self.position).sorted())
    }

    @Test func theShortFunnelPageListsTheFindingsOfEveryCopyButNoOtherFunnels() throws {
        let bytes = try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json")
        let site = try Self.builtSite(bytes)
        let findings = site.model.snapshot.findings
        let copies = ["/placements/onboarding/experiment/variants/1/funnel/", "/placements/onboarding_short/funnel/"]
        let short = findings.filter { finding in copies.contains { finding.pointer.hasPrefix($0) } }
        let listed = Self.listedPositions(try Self.funnelPage(site, id: "fnl_short"))
        #expect(listed.sorted() == short.map(Self.position).sorted())
    }

    /// Two funnels of one placement whose ids differ only by normalisation (`café` composed and
    /// decomposed): the SDK tells them apart, so each page lists its own findings.
    @Test func twinFunnelIdsOfOnePlacementKeepTheirOwnFindings() throws {
        let text = """
            {"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"experiment":{"id":"e","key":"k","variants":[
            {"variantId":"a","weight":0.5,"funnel":{"id":"fnl_caf\\u00e9","slug":"one","name":"One","pages":[{"id":"p1","type":"info","default_next":"nowhere"}]}},
            {"variantId":"b","weight":0.5,"funnel":{"id":"fnl_cafe\\u0301","slug":"two","name":"Two","pages":[{"id":"q1","type":"info","default_next":"end"},{"id":"q2","type":"info"}]}}
            ]}}}}
            """
        let site = try Self.builtSite(Array(text.utf8))
        let findings = site.model.snapshot.findings
        let composed = findings.filter { $0.pointer.hasPrefix("/placements/p/experiment/variants/0/funnel/") }
        let decomposed = findings.filter { $0.pointer.hasPrefix("/placements/p/experiment/variants/1/funnel/") }
        #expect(composed.map(\.ruleId) == ["goto-unknown"])
        #expect(decomposed.map(\.ruleId) == ["page-unreachable"])
        let composedPage = try Self.funnelPage(site, id: "fnl_caf\u{E9}")
        let decomposedPage = try Self.funnelPage(site, id: "fnl_cafe\u{301}")
        #expect(Self.listedPositions(composedPage) == composed.map(Self.position))
        #expect(Self.listedPositions(decomposedPage) == decomposed.map(Self.position))
        // Only the second funnel's page is marked unreachable.
        #expect(decomposedPage.contains("is-unreachable"))
        #expect(!composedPage.contains("is-unreachable"))
    }

    /// A page of a funnel is marked unreachable from the findings about that very copy: a page of
    /// another funnel with the same page id does not mark it.
    @Test func unreachableMarksComeFromTheDrawnFunnelOnly() throws {
        let text = """
            {"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"experiment":{"id":"e","key":"k","variants":[
            {"variantId":"a","weight":0.5,"funnel":{"id":"fnl_a","slug":"a","name":"A","pages":[{"id":"x1","type":"info"},{"id":"x2","type":"info"}]}},
            {"variantId":"b","weight":0.5,"funnel":{"id":"fnl_b","slug":"b","name":"B","pages":[{"id":"x1","type":"info","default_next":"end"},{"id":"x2","type":"info"}]}}
            ]}}}}
            """
        let site = try Self.builtSite(Array(text.utf8))
        #expect(!(try Self.funnelPage(site, id: "fnl_a")).contains("is-unreachable"))
        #expect(try Self.funnelPage(site, id: "fnl_b").contains("is-unreachable"))
    }
}

@Suite("Findings on the experiment page")
struct ExperimentPageFindingTests {
    /// An experiment whose weights sum to 0.9 and whose second variant's paywall loads remote media,
    /// with a funnel in its first variant that has its own finding.
    static let text = """
        {"formatVersion":1,"generatedAt":1764400000000,"projectId":"proj","placements":{"p":{"placement":{"identifier":"p","revision":1},"experiment":{"id":"e","key":"k","variants":[
        {"variantId":"a","weight":0.5,"funnel":{"id":"fnl_a","slug":"a","name":"A","pages":[{"id":"x1","type":"info","default_next":"nowhere"}]}},
        {"variantId":"b","weight":0.4,"paywall":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":2,"builderConfig":{"root":{"url":"https://cdn.example.com/a.png"}}}}
        ]}}}}
        """

    @Test func theExperimentPageListsTheExperimentsAndItsVariantsFindings() throws {
        let site = try FindingSubjectPageTests.builtSite(Array(Self.text.utf8))
        let findings = site.model.snapshot.findings
        #expect(Set(findings.map(\.ruleId)) == ["weights-sum", "goto-unknown", "remote-media"], "\(findings)")
        let page = try #require(site.model.pages.first { $0.kind == .experiment })
        let listed = FindingSubjectPageTests.listedPositions(try #require(site.files[page.path]))
        let expected = findings.filter { $0.ruleId != "goto-unknown" }.map(FindingSubjectPageTests.position)
        #expect(listed == expected)
    }
}
