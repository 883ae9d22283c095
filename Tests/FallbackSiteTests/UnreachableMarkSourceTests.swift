import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A funnel page's unreachable marks (the drawing's boxes and the table's column) say what the
/// funnel's graph says, whatever the configuration does with the `page-unreachable` rule.
@Suite("Unreachable marks come from the funnel's graph")
struct UnreachableMarkSourceTests {
    /// `p1` ends the funnel; `p2`, `p3` follow it and nothing reaches them.
    static let text = """
        {"formatVersion":1,"placements":{"a":{"placement":{"identifier":"a","revision":1},"funnel":{"id":"f","slug":"f","name":"F","pages":[
        {"id":"p1","type":"info","default_next":"end"},{"id":"p2","type":"info","default_next":"p3"},{"id":"p3","type":"info","default_next":"end"}]}}}}
        """

    /// The funnel page of `text` audited with `configuration`.
    static func funnelPage(_ configuration: AuditConfiguration) throws -> (html: String, findings: [Finding]) {
        let bytes = Array(Self.text.utf8)
        let file = FallbackFile(bytes: bytes)
        let findings = Audit(configuration: configuration).findings(in: file)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "snapshot.json", bytes: bytes, file: file, findings: findings), title: nil, referenceDate: nil)
        let files = try SiteBuilder(model: model, theme: .builtIn).files()
        let page = try #require(files.first { $0.key.hasPrefix("funnels/") })
        return (String(decoding: page.value, as: UTF8.self), findings)
    }

    static func marks(_ html: String) -> (boxes: Int, rows: Int) {
        (html.components(separatedBy: #"class="fd-page is-unreachable""#).count - 1, html.components(separatedBy: #"class="is-unreachable""#).count - 1)
    }

    @Test func marksStayWhenTheRuleIsOff() throws {
        let on = try Self.funnelPage(AuditConfiguration())
        let off = try Self.funnelPage(AuditConfiguration(overrides: [Rule.pageUnreachable.id: .off]))
        #expect(on.findings.contains { $0.ruleId == Rule.pageUnreachable.id })
        #expect(!off.findings.contains { $0.ruleId == Rule.pageUnreachable.id })
        #expect(Self.marks(on.html) == (2, 2))
        #expect(Self.marks(off.html) == (2, 2))
        #expect(off.html.contains("2 unreachable pages."))
    }
}
