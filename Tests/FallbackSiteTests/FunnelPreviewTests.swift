import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The funnel page's phone previews: what a device in each locale shows offline (issue 9, point 4).
@Suite("Phone previews show what each locale sees")
struct FunnelPreviewTests {
    private static func snapshot(funnel body: String) -> String {
        #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"funnel":{"id":"f","slug":"f",\#(body)}}}}"#
    }

    private static func funnel(_ body: String) throws -> Funnel {
        try #require(FallbackFile(text: snapshot(funnel: body)).loadedEntries.first?.entry.funnel)
    }

    /// The lines of page `index`'s screen for each previewed locale, as (role, text, mark).
    private static func screens(_ body: String, page index: Int = 0) throws -> [String: [PreviewLine]] {
        let pages = FunnelPreviews(funnel: try funnel(body)).pages(anchor: { "page-" + $0 }, images: { _ in [] })
        return Dictionary(uniqueKeysWithValues: pages[index].screens.map { ($0.locale, $0.lines) })
    }

    /// The contract's words (docs/rules.md): a plain title, a per-locale body with an empty `de`,
    /// options with a missing `de`, a neutral "5".
    private static let quiz =
        #""defaultLocale":"en","locales":["en","de"],"pages":[{"id":"p1","type":"single_choice","title":"Breathe in","subtitle":"5","body":{"en":"We miss you","de":""},"options":[{"label":{"en":"Morning","de":"Morgens"},"value":"m"},{"label":{"en":"Evening"},"value":"e"}],"cta":{"en":"Next","de":"Weiter"}}]"#

    @Test func theDefaultLocaleSeesItsCopyUnmarked() throws {
        let english = try #require(try Self.screens(Self.quiz)["en"])
        #expect(english.map(\.role) == ["title", "subtitle", "body", "option", "option", "cta"])
        #expect(english.map(\.text) == ["Breathe in", "5", "We miss you", "Morning", "Evening", "Next"])
        #expect(english.allSatisfy { $0.mark == nil })
    }

    @Test func anotherLocaleSeesPlainTextInTheDefaultLocaleAndBlanksWhereCopyIsMissing() throws {
        let german = try #require(try Self.screens(Self.quiz)["de"])
        #expect(german.map(\.text) == ["Breathe in", "5", nil, "Morgens", nil, "Weiter"])
        #expect(german.map(\.mark) == [
            "not translated: shows the en text in de", nil, "blank on device: the de copy is empty", nil, "blank on device: no de copy", nil,
        ])
    }

    @Test func aFunnelWithOneLocaleShowsPlainTextUnmarked() throws {
        let screens = try Self.screens(#""locales":["de"],"pages":[{"id":"p1","type":"statement","title":"Atme ein"}]"#)
        #expect(Array(screens.keys) == ["de"])
        #expect(screens["de"]?.map(\.mark) == [nil])
    }

    @Test func aFunnelThatNamesNoLocalePreviewsTheLocalesItsCopyIsWrittenIn() throws {
        let screens = try Self.screens(#""pages":[{"id":"p1","type":"statement","title":"Hi","body":{"fr":"Salut","en":"Hello"}}]"#)
        #expect(screens["fr"]?.map(\.text) == ["Hi", "Salut"])
        #expect(screens["en"]?.map(\.text) == ["Hi", "Hello"])
        #expect(screens.values.allSatisfy { $0.allSatisfy { $0.mark == nil } })
    }

    @Test func aFunnelWithOnlyPlainCopyAndNoLocaleHasOneScreenForAnyLocale() throws {
        let funnel = try Self.funnel(#""pages":[{"id":"p1","type":"statement","title":"Hi"}]"#)
        let previews = FunnelPreviews(funnel: funnel)
        let screens = previews.pages(anchor: { $0 }, images: { _ in [] })[0].screens
        #expect(screens.map(\.locale) == ["any locale"])
        #expect(screens[0].lang == nil)
        #expect(screens[0].isDefault)
        #expect(screens[0].lines.map(\.text) == ["Hi"])
        #expect(screens[0].lines.map(\.mark) == [nil])
        #expect(previews.switchLocales.isEmpty)
    }

    @Test func listsShowEachItemAndMarkBlankOnes() throws {
        let screens = try Self.screens(
            #""defaultLocale":"en","locales":["en","de"],"pages":[{"id":"p1","type":"info","steps":{"en":["In",""]},"benefits":["Sleep"]}]"#)
        let german = try #require(screens["de"])
        #expect(german.map(\.text) == ["Sleep", nil])
        #expect(german.map(\.mark) == ["not translated: shows the en text in de (the whole list)", "blank on device: no de copy"])
        let english = try #require(screens["en"])
        #expect(english.map(\.text) == ["Sleep", "In", nil])
        #expect(english.map(\.mark) == [nil, nil, "blank item on device"])
    }

    @Test func declaredLocalesAreDistinctByTheirBytesAndCapped() throws {
        let many = (0..<20).map { "\"l\($0)\"" }.joined(separator: ",")
        let funnel = try Self.funnel(#""locales":["en","en",\#(many)],"pages":[]"#)
        let previews = FunnelPreviews(funnel: funnel)
        #expect(previews.locales.count == FunnelPreviews.localeLimit)
        #expect(previews.locales.prefix(2) == ["en", "l0"])
        #expect(previews.declaredLocaleCount == 21)
        #expect(previews.defaultLocale == "en")
    }

    @Test func theDefaultScreenIsTheDefaultLocaleElseTheFirstDeclared() throws {
        let declared = FunnelPreviews(funnel: try Self.funnel(#""defaultLocale":"de","locales":["en","de"],"pages":[]"#))
        #expect(declared.switchLocales.map(\.isDefault) == [false, true])
        let undeclared = FunnelPreviews(funnel: try Self.funnel(#""defaultLocale":"fr","locales":["en","de"],"pages":[]"#))
        #expect(undeclared.switchLocales.map(\.isDefault) == [true, false])
    }

    // MARK: The built page

    private static func page(_ body: String) throws -> String {
        try #require(try site(for: Array(snapshot(funnel: body).utf8))["funnels/f.html"])
    }

    @Test func eachRowLinksToItsPreviewAndEachPreviewLinksBack() throws {
        let html = try Self.page(Self.quiz)
        #expect(html.contains(#"<tr id="page-p1">"#))
        #expect(html.contains(##"<a class="preview-link" href="#preview-page-p1">Preview</a>"##))
        #expect(html.contains(#"<li class="preview" id="preview-page-p1">"#))
        #expect(html.contains(##"<a href="#page-p1">Back to the row of <code>p1</code></a>"##))
        // The default locale's screen is open without script; the other is one click away.
        #expect(html.contains(#"<details class="preview-screen" data-locale="en" open><summary>en</summary>"#))
        #expect(html.contains(#"<details class="preview-screen" data-locale="de"><summary>de · 3 marked</summary>"#))
        #expect(html.contains(#"<button type="button" class="preview-locale" data-preview-locale="de" aria-pressed="false">de</button>"#))
        #expect(html.contains(#"<span class="pv-mark">not translated: shows the en text in de</span>"#))
    }

    @Test func remoteImagesArePlaceholders() throws {
        let html = try Self.page(
            #""locales":["en"],"pages":[{"id":"p1","type":"statement","mediaUrl":"https://cdn.example.com/a.png","title":{"en":"Hi"}}]"#)
        #expect(html.contains(#"<p class="pv-image">image: mediaUrl (remote, not bundled)</p>"#))
    }

    @Test func anOptionsImageStandsWithItsOption() throws {
        let funnel = try Self.funnel(
            #""locales":["en"],"pages":[{"id":"p1","type":"picture_choice","title":"Pick","options":[{"label":"A","value":"a"},{"label":"B","value":"b","imageUrl":"https://cdn.example.com/b.png"}]}]"#)
        let lines = FunnelPreviews(funnel: funnel).lines(of: funnel.pages[0], locale: "en", images: ["mediaUrl", "options/1/imageUrl"])
        #expect(lines.map(\.role) == ["image", "title", "option", "image", "option"])
        #expect(lines[3].text == "image: options/1/imageUrl (remote, not bundled)")
    }

    @Test func hostileTextStaysText() throws {
        let html = try Self.page(
            #""locales":["en"],"pages":[{"id":"p1","type":"statement","title":{"en":"<script>alert(1)</script>\u202Egnp.exe"}}]"#)
        let previews = try #require(html.components(separatedBy: #"<section class="previews""#).dropFirst().first)
        #expect(!previews.contains("<script>"))
        #expect(previews.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(previews.contains(#"<span class="control-char">&lt;U+202E&gt;</span>"#))
    }

    /// 60 pages in 10 locales, each with a title, a body and four options: the page stays small,
    /// because each locale's text is written once and the structure is shared.
    @Test func aBigFunnelPageStaysWellUnderAMegabyte() throws {
        let locales = (0..<10).map { "l\($0)" }
        func text(_ words: String) -> String {
            "{" + locales.map { "\"\($0)\":\"\(words) in \($0)\"" }.joined(separator: ",") + "}"
        }
        let pages = (0..<60).map { index in
            let options = (0..<4).map { option in
                "{\"label\":" + text("Option \(option) of page \(index)") + ",\"value\":\"v\(option)\"}"
            }
            return "{\"id\":\"p\(index)\",\"type\":\"single_choice\",\"question_id\":\"q\(index)\",\"title\":"
                + text("What do you want to practise on page \(index)") + ",\"body\":" + text("A longer body text that explains the question")
                + ",\"options\":[" + options.joined(separator: ",") + "],\"cta\":" + text("Next") + "}"
        }
        let body = #""defaultLocale":"l0","locales":[\#(locales.map { "\"\($0)\"" }.joined(separator: ","))],"pages":[\#(pages.joined(separator: ","))]"#
        let html = try Self.page(body)
        #expect(html.contains(#"id="preview-page-p59""#))
        #expect(html.utf8.count < 1_000_000, "\(html.utf8.count) bytes")
    }

    /// A funnel of thousands of pages in 16 locales made tens of thousands of screens (27 MB for
    /// 5,000 pages): only the first `FunnelPreviews.pageLimit` pages are previewed, the page says
    /// so, and only their rows link to a preview, so no link on the page points nowhere.
    @Test(arguments: [FunnelPreviews.pageLimit, FunnelPreviews.pageLimit + 1, 2 * FunnelPreviews.pageLimit + 7])
    func previewsStopAtThePageLimitAndEveryLinkHasItsPreview(pageCount: Int) throws {
        let locales = (0..<16).map { "l\($0)" }
        let pages = (0..<pageCount).map { #"{"id":"p\#($0)","type":"statement","title":"Page \#($0)"}"# }
        let body = #""locales":[\#(locales.map { "\"\($0)\"" }.joined(separator: ","))],"pages":[\#(pages.joined(separator: ","))]"#
        let html = try Self.page(body)
        let previewed = min(pageCount, FunnelPreviews.pageLimit)
        let previews = html.matches(of: /<li class="preview" id="(preview-page-[^"]+)">/).map { String($0.1) }
        #expect(previews == (0..<previewed).map { "preview-page-p\($0)" })
        #expect(html.components(separatedBy: #"<details class="preview-screen""#).count - 1 == previewed * locales.count)
        // Every row is there; a row links to its preview exactly when there is one.
        #expect(html.components(separatedBy: #"<tr id="page-p"#).count - 1 == pageCount)
        let links = html.matches(of: /<a class="preview-link" href="#([^"]+)">/).map { String($0.1) }
        #expect(links == previews)
        let note = "Only the first \(FunnelPreviews.pageLimit) of the \(pageCount) pages are previewed;"
        #expect(html.contains(note) == (pageCount > FunnelPreviews.pageLimit))
        #expect(PageSafetyScan.problems(in: html).isEmpty)
    }

    // MARK: Examples

    /// `Examples/README.md`: `fnl_calm_quiz` v6 has `pg_practice_time`'s title and options as plain English strings.
    @Test func theCalmQuizPracticeTimePageIsMarkedForGerman() throws {
        let html = try #require(try site(for: try example("Examples/2026-04-14-release-3.1.json"))["funnels/fnl_calm_quiz.html"])
        let preview = try #require(html.components(separatedBy: #"<li class="preview" id="preview-page-pg_practice_time">"#)
            .dropFirst().first?.components(separatedBy: "</li>").first)
        let german = try #require(preview.components(separatedBy: #"data-locale="de""#).dropFirst().first)
        #expect(german.contains("When do you want to practise?"))
        #expect(german.contains("not translated: shows the en text in de"))
        let english = try #require(preview.components(separatedBy: #"data-locale="en""#).dropFirst().first?
            .components(separatedBy: "</details>").first)
        #expect(!english.contains("pv-mark"))
    }

    /// `Examples/README.md`: `pwl_trial_end_v2` is a remote-config paywall (`remoteConfig.locale` `en`).
    @Test func aPaywallPageHasAPreviewOfItsOfferingAndRemoteConfig() throws {
        let files = try site(for: try example("Examples/2026-07-21-release-3.4.json"))
        let html = try #require(files["paywalls/pwl_trial_end_v2.html"])
        let preview = try #require(html.components(separatedBy: #"<div class="preview paywall-preview">"#).dropFirst().first?
            .components(separatedBy: "<h3>Remote config</h3>").first)
        #expect(preview.contains(#"<div class="phone-screen" lang="en">"#))
        #expect(preview.contains(#"<p class="pv-config"><span class="pv-path">/cta</span> <span class="pv-text">Stay on Premium</span></p>"#))
        #expect(preview.contains(#"<span class="pv-path">SUBSCRIPTION · App Store <code>app.stillpoint.premium.monthly</code> · Google Play <code>premium</code></span>"#))
        #expect(preview.contains("The remote config's text is written in <code>en</code>"))
    }
}
