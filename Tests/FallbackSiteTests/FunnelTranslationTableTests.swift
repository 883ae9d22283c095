import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The funnel page's translation table: a plain text in a funnel that declares several locales is
/// shown as written to every other locale, so it counts as "plain text", not as present.
@Suite("The funnel page's translation table counts plain text")
struct FunnelTranslationTableTests {
    private static func funnel(_ body: String) throws -> Funnel {
        let text = #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"funnel":{"id":"f","slug":"f",\#(body)}}}}"#
        let file = FallbackFile(text: text)
        return try #require(file.loadedEntries.first?.entry.funnel)
    }

    /// One plain title, one plain list with a word, a neutral "5", a localized body with no `de`.
    private static let pages =
        #""pages":[{"id":"p1","type":"statement","title":"Breathe","subtitle":"5","steps":["In","Out"],"body":{"en":"Hi"}}]"#

    @Test func plainTextIsUntranslatedForTheOtherLocalesOnly() throws {
        let funnel = try Self.funnel(#""defaultLocale":"en","locales":["en","de"],"# + Self.pages)
        let counted = FunnelText.coverage(of: funnel)
        #expect(counted.map(\.locale) == ["en", "de"])
        let english = counted[0].coverage
        #expect(english == FunnelText.Coverage(present: 4, plain: 0, total: 4))
        let german = counted[1].coverage
        // "5" reads the same in German; "Breathe" and the steps do not; the body has no "de".
        #expect(german == FunnelText.Coverage(present: 1, plain: 2, total: 4))
        #expect(german.missing == 1)
    }

    @Test func aSingleLocaleFunnelCountsPlainTextAsPresent() throws {
        let funnel = try Self.funnel(#""locales":["de"],"# + Self.pages)
        #expect(FunnelText.coverage(of: funnel).map(\.coverage) == [FunnelText.Coverage(present: 3, plain: 0, total: 4)])
    }

    /// `Examples/README.md`: `fnl_calm_quiz` v6 (3.1, 3.2) has 42 texts, 4 of them plain English on
    /// `pg_practice_time`; v7 (3.3) translates them.
    @Test(arguments: [
        ("Examples/2026-04-14-release-3.1.json", 38, 4, 90), ("Examples/2026-05-19-release-3.2.json", 38, 4, 90),
        ("Examples/2026-06-23-release-3.3.json", 42, 0, 100),
    ])
    func theCalmQuizGermanRowCountsThePlainTexts(file: String, present: Int, plain: Int, percent: Int) throws {
        let page = try #require(try site(for: try example(file))["funnels/fnl_calm_quiz.html"])
        let table = try #require(page.components(separatedBy: #"<table class="locales cards">"#).dropFirst().first?
            .components(separatedBy: "</table>").first)
        #expect(table.contains(#"<th scope="col" class="num">Plain text</th><th scope="col" class="num">Missing</th>"#))
        #expect(table.contains(
            #"<tr><th scope="row"><code>en</code></th><td class="num" data-label="Texts present">42 of 42</td><td class="num" data-label="Plain text">0</td><td class="num" data-label="Missing">0</td><td class="num" data-label="Coverage">100%</td></tr>"#))
        #expect(table.contains(
            #"<tr><th scope="row"><code>de</code></th><td class="num" data-label="Texts present">\#(present) of 42</td><td class="num" data-label="Plain text">\#(plain)</td><td class="num" data-label="Missing">0</td><td class="num" data-label="Coverage">\#(percent)%</td></tr>"#),
            "\(table)")
        #expect(page.contains("<code>de</code> \(percent)%"))
        // The page lists the finding, about pg_practice_time, while the texts are plain.
        #expect(page.contains("text-not-localized") == (plain > 0))
    }
}
