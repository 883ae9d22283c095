import FallbackAudit
import FallbackMarkdown
import FallbackMustache
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Pages made as bytes end to end (issue 10, render cost): the Mustache output, cmark-gfm's HTML,
/// the body and the source listings stay UTF-8 bytes. Every page must be byte for byte what the
/// `String` path (render to a `String`, `Markdown.html(from:)`, `substitute(in:)`, the body
/// registered as a `String`) made.
@Suite("Pages as bytes")
struct PageBytesTests {
    /// A page through the `String` path, as `SiteBuilder.renderBytes` made it before.
    static func referencePage(_ page: SitePage, builder: SiteBuilder) throws -> [UInt8] {
        let values = PageValues()
        let budget = builder.renderBudget(for: page)
        let templates = builder.templates
        let template = try #require(templates.templates[page.template])
        let markdown = try template.render(builder.model.context(for: page, values: values), partials: templates.partials, escaping: values.escaping, budget: budget)
        let body = values.substitute(in: Markdown.html(from: markdown))
        let layout = try #require(templates.templates["layout.html"])
        let html = try layout.render(
            builder.layoutContext(for: page, content: values.html(body)).mustacheValue, partials: templates.partials, escaping: values.escaping,
            budget: budget)
        return values.substitutedBytes(in: html)
    }

    static func snapshot(_ bytes: [UInt8], _ name: String) -> SiteModel.Snapshot {
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
    }

    static let inputs = [
        "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json", "Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json",
        "Examples/2026-03-03-release-3.0.json", "Examples/2026-05-19-release-3.2.json", "Examples/2026-07-21-release-3.4.json",
    ]

    @Test(arguments: inputs)
    func everyPageIsWhatTheStringPathMade(input: String) throws {
        let model = SiteModel(
            snapshot: Self.snapshot(try example(input), input), baseline: Self.snapshot(try example("Examples/2026-04-14-release-3.1.json"), "before.json"),
            title: nil, referenceDate: nil)
        let builder = try SiteBuilder(model: model, theme: .builtIn)
        #expect(model.pages.count > 5)
        for page in model.pages {
            let bytes = try builder.renderBytes(page)
            let reference = try Self.referencePage(page, builder: builder)
            #expect(bytes == reference, "\(page.path)")
        }
    }

    @Test func hostileValuesInABytesValueAndATextValueSubstituteAlike() {
        let values = PageValues()
        let hostile = "<script>x</script> \"q\" 'a' é \u{202E}"
        let trusted = "<b title=\"x\">é</b>"
        let asText = values.html(trusted)
        let asBytes = values.html(utf8: Array(trusted.utf8))
        let value = values.escaping.escape(hostile)
        let page = "<p title=\"\(value)\">\(asText.token)|\(asBytes.token)|\(value)</p>"
        #expect(values.substitute(in: page) == "<p title=\"\(SnapshotText.attribute(hostile))\">\(trusted)|\(trusted)|\(SnapshotText.html(hostile))</p>")
        // A bytes value shows as its text where a context is shown to people.
        #expect(values.resolvingTokens(in: .list([.string(asBytes.token)])) == .list([.string(trusted)]))
        // So does one inside a record, which is shown as its dictionary.
        let record = MustacheValue.record(MustacheRecord(keys: MustacheKeys(["html", "left out"]), values: [.string(asBytes.token), nil]))
        #expect(values.resolvingTokens(in: .list([record])) == .list([.dictionary(["html": .string(trusted)])]))
    }
}
