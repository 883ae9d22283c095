import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A funnel page lists the findings about the copies of its funnel that placements serve. A
/// variant's copy that a direct funnel shadows is never served (§5), so findings about it belong
/// on the placement's page only.
@Suite("Findings about a shadowed copy of a funnel")
struct ShadowedCopyFindingTests {
    /// Placement `a` serves a good `fnl_winback` directly; its experiment's variant carries a copy
    /// of `fnl_winback` whose `default_next` goes nowhere, so the audit finds `goto-unknown` and
    /// `page-unreachable` in that copy.
    static let text = """
        {"formatVersion":1,"placements":{"a":{"placement":{"identifier":"a","revision":1},
        "funnel":{"id":"fnl_winback","slug":"w","name":"W","pages":[{"id":"pg_1","type":"info","default_next":"pg_2"},{"id":"pg_2","type":"info","default_next":"end"}]},
        "experiment":{"id":"e","key":"k","variants":[
        {"variantId":"v","weight":1,"funnel":{"id":"fnl_winback","slug":"w","name":"W","pages":[{"id":"pg_1","type":"info","default_next":"pg_checkout"},{"id":"pg_2","type":"info","default_next":"end"}]}}
        ]}}}}
        """

    @Test func theFunnelPageListsNoFindingsAboutTheShadowedCopy() throws {
        let site = try FindingSubjectPageTests.builtSite(Array(Self.text.utf8))
        let findings = site.model.snapshot.findings
        // Told apart by where they point, independently of how pages pick them.
        let shadowed = findings.filter { $0.pointer.hasPrefix("/placements/a/experiment/variants/0/funnel/") }
        #expect(Set(shadowed.map(\.ruleId)).isSuperset(of: ["goto-unknown", "page-unreachable"]), "\(findings)")
        let funnelPage = try FindingSubjectPageTests.funnelPage(site, id: "fnl_winback")
        #expect(FindingSubjectPageTests.listedPositions(funnelPage).isEmpty)
        #expect(!funnelPage.contains("pg_checkout"))
        #expect(!funnelPage.contains("is-unreachable"))
        #expect(site.model.findings(forFunnel: "fnl_winback").isEmpty)
        // The placement's page still lists them.
        let placement = try #require(site.model.pages.first { $0.kind == .placement })
        let listed = FindingSubjectPageTests.listedPositions(try #require(site.files[placement.path]))
        for finding in shadowed {
            #expect(listed.contains(FindingSubjectPageTests.position(finding)), "the placement page lost \(finding)")
        }
    }
}
