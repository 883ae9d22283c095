import FallbackAudit
import FallbackDiff
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The changes page's copy diffs (issue 9 point 6): each changed text's locales, old and new in
/// full with the words that differ, and a link to the page's row on the funnel page.
@Suite("Changes page: copy diffs")
struct CopyDiffPageTests {
    /// A snapshot with one funnel whose pages are `pages` (JSON objects).
    static func snapshot(_ name: String, _ pages: [String]) -> SiteModel.Snapshot {
        let text =
            #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"onb":{"placement":{"identifier":"onb","revision":1},"#
            + #""funnel":{"id":"fnl_copy","slug":"copy","name":"Copy test","locales":["en","de","fr"],"defaultLocale":"en","paywalls":{},"#
            + #""pages":[\#(pages.joined(separator: ","))]}}}}"#
        let bytes = Array(text.utf8)
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
    }

    static let longText = String(repeating: "Each word of this long sentence stays exactly as written. ", count: 40)

    static let oldPages = [
        #"{"id":"pg_plain","type":"statement","title":"Sleep better tonight","body":"\#(longText)The old end."}"#,
        #"{"id":"pg_locales","type":"statement","title":{"en":"Welcome","fr":"Bienvenue"}}"#,
        #"{"id":"pg_space","type":"statement","body":"Breathe  in"}"#,
        #"{"id":"pg_markup","type":"statement","title":"Tap <b>here</b>"}"#,
        #"{"id":"pg_quiz","type":"single_choice","question_id":"q","options":[{"label":{"en":"Sleep"},"value":"a"}]}"#,
    ]
    static let newPages = [
        #"{"id":"pg_plain","type":"statement","title":{"en":"Sleep better tonight","de":"Heute Nacht besser schlafen"},"body":"\#(longText)The new end."}"#,
        #"{"id":"pg_locales","type":"statement","title":{"en":"Welcome back","de":"Willkommen"}}"#,
        #"{"id":"pg_space","type":"statement","body":"Breathe in"}"#,
        #"{"id":"pg_markup","type":"statement","title":"Tap <i>here</i><script>x()</script>"}"#,
        #"{"id":"pg_quiz","type":"single_choice","question_id":"q","options":[{"label":{"en":"Sleep well"},"value":"a"}]}"#,
    ]

    static func model() -> SiteModel {
        SiteModel(snapshot: snapshot("new.json", newPages), baseline: snapshot("old.json", oldPages), title: nil, referenceDate: nil)
    }

    /// The copy changes of the changes page's context, by page and field.
    static func copyRows() throws -> [String: ChangesPage.ChangeRow] {
        let page = try #require(model().changesPage(root: "", values: PageValues()))
        let rows = page.groups.flatMap(\.changes).filter { $0.kind == ChangeKind.copyChanged.id }
        var byPage: [String: ChangesPage.ChangeRow] = [:]
        for row in rows {
            let message = row.message
            let key = try #require(message.split(separator: "\"").dropFirst(3).first.map(String.init), "\(message)")
            byPage[key + " " + (message.contains("body") ? "body" : message.contains("label") ? "label" : "title")] = row
        }
        return byPage
    }

    static func rendered() throws -> [String: String] {
        try SiteBuilder(model: model(), theme: .builtIn).files().compactMapValues { String(bytes: $0, encoding: .utf8) }
    }

    @Test func everyCopyChangeCarriesItsLocalesAndNoJSON() throws {
        let rows = try Self.copyRows()
        #expect(Set(rows.keys) == ["pg_plain title", "pg_plain body", "pg_locales title", "pg_space body", "pg_markup title", "pg_quiz label"])
        for row in rows.values {
            let copy = try #require(row.copy)
            #expect(!copy.locales.isEmpty)
        }
    }

    @Test func aPlainStringTurnedIntoATextPerLocaleSaysSo() throws {
        let copy = try #require(try Self.copyRows()["pg_plain title"]?.copy)
        #expect(copy.form == "Was one text for every locale; now a text per locale.")
        #expect(copy.locales.map(\.locale) == ["de"])
        #expect(copy.locales.map(\.status) == ["changed"])
        #expect(copy.unchanged.map(\.locale) == ["en"])
        #expect(copy.hasUnchanged)
    }

    @Test func addedAndRemovedLocalesHaveOneSide() throws {
        let copy = try #require(try Self.copyRows()["pg_locales title"]?.copy)
        #expect(copy.form == nil)
        #expect(copy.locales.map { "\($0.locale) \($0.statusText) \($0.hasOld) \($0.hasNew)" } == [
            "en changed true true", "de added: no text before false true", "fr removed: no text now true false",
        ])
    }

    @Test func aWhitespaceOnlyChangeIsMarked() throws {
        let locale = try #require(try Self.copyRows()["pg_space body"]?.copy?.locales.first)
        #expect(locale.locale == "every locale")
        #expect(locale.whitespaceOnly)
        #expect(locale.statusText == "only whitespace changed")
        #expect(locale.old?.filter(\.removed).map(\.whitespace) == [true])
        #expect(locale.new?.filter(\.added).map(\.whitespace) == [true])
    }

    @Test func theFunnelPageLinkNamesThePageRow() throws {
        let rows = try Self.copyRows()
        let link = try #require(rows["pg_quiz label"]?.funnelPage)
        #expect(link.page == "pg_quiz")
        #expect(link.funnel == "Copy test")
        #expect(link.path == "funnels/fnl_copy.html#page-pg_quiz")
    }

    @Test func thePageShowsLongTextsWholeWithTheChangedWordsMarked() throws {
        let html = try #require(try Self.rendered()["changes.html"])
        // The whole text, more than the 1,000 characters other snapshot text is cut at.
        #expect(Self.longText.count > SnapshotText.textLength)
        #expect(html.contains(Self.longText + "The <del><span class=\"visually-hidden\">removed: </span>old</del> end."))
        #expect(html.contains(Self.longText + "The <ins><span class=\"visually-hidden\">added: </span>new</ins> end."))
        #expect(html.contains("<span class=\"visually-hidden\">Locale </span>de</span>"))
        #expect(html.contains(#"<del class="copy-ws"><span class="visually-hidden">removed: </span>··</del>"#))
        #expect(html.contains("Was one text for every locale; now a text per locale."))
        // No JSON from/to lines for a copy change.
        #expect(!html.contains("class=\"finding-pointer\">from"))
    }

    @Test func snapshotTextInACopyDiffStaysText() throws {
        let html = try #require(try Self.rendered()["changes.html"])
        #expect(!html.contains("<script>x()"))
        #expect(!html.contains("<i>here"))
        #expect(html.contains("&gt;&lt;script&gt;x()&lt;/script"))
        #expect(html.contains("Tap &lt;<ins><span class=\"visually-hidden\">added: </span>i</ins>&gt;here"))
    }

    @Test func everyLinkOfTheChangesPageResolves() throws {
        let files = try Self.rendered()
        let html = try #require(files["changes.html"])
        #expect(html.contains(#"<a href="funnels/fnl_copy.html#page-pg_quiz"><code>pg_quiz</code></a>"#))
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    /// The changes page's copy diff of page `pg_shared`'s title going from `old` to `new`, and the page.
    static func sharedCopy(_ old: String, _ new: String) throws -> (copy: ChangesPage.CopyDiff, html: String) {
        let page = { (title: String) in #"{"id":"pg_shared","type":"statement","title":\#(title)}"# }
        let model = SiteModel(
            snapshot: Self.snapshot("new.json", [page(new)]), baseline: Self.snapshot("old.json", [page(old)]), title: nil, referenceDate: nil)
        let changes = try #require(model.changesPage(root: "", values: PageValues()))
        let copy = try #require(changes.groups.flatMap(\.changes).first { $0.kind == ChangeKind.copyChanged.id }?.copy)
        let html = try #require(
            try SiteBuilder(model: model, theme: .builtIn).files()["changes.html"].flatMap { String(bytes: $0, encoding: .utf8) })
        return (copy, html)
    }

    static let sharedPlain = String(repeating: "One text for all. ", count: 2_000)
    static let shortTitles = #"{"en":"Hello","de":"Hallo","fr":"Salut","es":"Hola","it":"Ciao","nl":"Hoi"}"#

    @Test func aLongSharedTextIsShownOnceAboveTheLocales() throws {
        let (copy, html) = try Self.sharedCopy(#""\#(Self.sharedPlain)""#, Self.shortTitles)
        #expect(copy.shared?.before == true)
        #expect(copy.locales.map { "\($0.locale) \($0.hasOld) \($0.oldShared) \($0.hasNew) \($0.newShared)" } == [
            "en false true true false", "de false true true false", "fr false true true false", "es false true true false",
            "it false true true false", "nl false true true false",
        ])
        #expect(html.components(separatedBy: "One text for all.").count - 1 == 2_000)
        #expect(html.contains("the text before, written once for the locales below that show only their own text"))
        #expect(html.components(separatedBy: "The text for every locale, above").count - 1 == 6)
        #expect(html.contains(#"<ins><span class="visually-hidden">added: </span>Hallo</ins>"#))
        // The text listed once comes before the first locale.
        let shared = try #require(html.range(of: "copy-shared\""))
        let firstLocale = try #require(html.range(of: "</span>en</span>"))
        #expect(shared.lowerBound < firstLocale.lowerBound)
    }

    @Test func aLongSharedTextNowIsShownOnceBelowTheLocales() throws {
        let (copy, html) = try Self.sharedCopy(Self.shortTitles, #""\#(Self.sharedPlain)""#)
        #expect(copy.shared?.before == false)
        #expect(copy.locales.allSatisfy { $0.hasOld && !$0.oldShared && !$0.hasNew && $0.newShared })
        #expect(html.components(separatedBy: "One text for all.").count - 1 == 2_000)
        #expect(html.components(separatedBy: "The text for every locale, below").count - 1 == 6)
        #expect(html.contains(#"<del><span class="visually-hidden">removed: </span>Hallo</del>"#))
        let shared = try #require(html.range(of: "copy-shared\""))
        let lastLocale = try #require(html.range(of: "</span>nl</span>"))
        #expect(shared.lowerBound > lastLocale.lowerBound)
    }

    @Test func aSharedTextCountsOnceAgainstThePagesCopyBudget() throws {
        // 6 locales × 46 KB would pass the page's 256 KB of copy; counted once, the texts show.
        let plain = String(repeating: "Forty-six kilobytes of text. ", count: 1_600)
        #expect(6 * plain.utf8.count > SiteModel.copyTextBudget && plain.utf8.count < SiteModel.copyTextBudget)
        let (copy, _) = try Self.sharedCopy(#""\#(plain)""#, Self.shortTitles)
        #expect(copy.shared != nil)
        #expect(copy.locales.count == 6)
    }

    @Test func theSiteIsTheSameBytesEveryBuild() throws {
        #expect(try Self.rendered()["changes.html"] == Self.rendered()["changes.html"])
    }
}
