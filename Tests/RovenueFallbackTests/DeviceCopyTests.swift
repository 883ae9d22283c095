import Testing
import RovenueFallback

/// What a device in one locale shows for funnel copy (§4 `Text = string | { <locale>: string }`,
/// `TextList = [string] | { <locale>: [string] }`): no locale fallback in the contract.
@Suite("What a device in a locale shows for funnel copy")
struct DeviceCopyTests {
    /// The first page of a funnel decoded from `pageFields`, as the SDK's loader reads it.
    private static func page(_ pageFields: String) throws -> Page {
        let text = #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"funnel":{"id":"f","slug":"f","locales":["en","de"],"pages":[{"id":"p1","type":"statement",\#(pageFields)}]}}}}"#
        let file = FallbackFile(text: text)
        return try #require(file.loadedEntries.first?.entry.funnel?.pages.first)
    }

    /// docs/rules.md, `text-missing-locale`: `"body":{"en":"We miss you","de":""}`.
    @Test func aPerLocaleObjectGivesEachLocaleItsOwnCopyAndNothingToOthers() throws {
        let body = try #require(try Self.page(#""body":{"en":"We miss you","de":""}"#).body)
        #expect(body.copy(for: "en") == .localized("We miss you"))
        #expect(body.copy(for: "de") == .localized(""))
        #expect(body.copy(for: "fr") == .missing)
        #expect(body.text(for: "fr") == nil)
        #expect(body.text(for: "de") == "")
    }

    /// docs/rules.md, `text-not-localized`: `"title":"Breathe in"` shows as written to every locale.
    @Test(arguments: ["en", "de", "fr", ""])
    func aPlainStringIsShownAsWrittenWhateverTheLocale(locale: String) throws {
        let title = try #require(try Self.page(#""title":"Breathe in""#).title)
        #expect(title.copy(for: locale) == .plain("Breathe in"))
        #expect(title.text(for: locale) == "Breathe in")
    }

    /// Locales are compared by their bytes: `"de-DE"` is not `"de"`, a decomposed `é` is not a precomposed one.
    @Test(arguments: [("de-DE", false), ("DE", false), ("de", true)])
    func localesMatchByTheirBytesOnly(locale: String, found: Bool) throws {
        let title = try #require(try Self.page(#""title":{"de":"Atme ein"}"#).title)
        #expect(title.copy(for: locale) == (found ? .localized("Atme ein") : .missing))
    }

    @Test func aDecomposedLocaleKeyIsNotTheComposedOne() throws {
        let title = try #require(try Self.page(#""title":{"e\u0301":"x"}"#).title)
        #expect(title.copy(for: "e\u{301}") == .localized("x"))
        #expect(title.copy(for: "\u{E9}") == .missing)
    }

    @Test func listsFollowTheSameRules() throws {
        let page = try Self.page(#""steps":["In","Out"],"benefits":{"en":["Sleep"],"de":[]}"#)
        let steps = try #require(page.steps)
        let benefits = try #require(page.benefits)
        #expect(steps.copy(for: "de") == .plain(["In", "Out"]))
        #expect(benefits.copy(for: "en") == .localized(["Sleep"]))
        #expect(benefits.copy(for: "de") == .localized([]))
        #expect(benefits.copy(for: "fr") == .missing)
        #expect(benefits.list(for: "fr") == nil)
    }
}
