import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// `text-not-localized`: plain copy in a funnel that declares several locales reads the same,
/// in one language, on every device.
@Suite("Plain text in a funnel with several locales")
struct PlainTextTranslationTests {
    private static let twoLocales = #""defaultLocale":"en","locales":["en","de"],"#

    private func pageId(of finding: Finding) -> String? {
        guard case .page(_, _, let id) = finding.subject else { return nil }
        return id.string
    }

    private func plainTextFindings(_ text: String) -> [Finding] {
        findings(text).filter { $0.ruleId == "text-not-localized" }
    }

    /// `Examples/README.md`: 3.1 and 3.2 ship `pg_practice_time` with a plain English title and
    /// option labels while `fnl_calm_quiz` declares `en` and `de`; 3.3 translates them.
    @Test(arguments: [
        ("2026-04-14-release-3.1.json", true), ("2026-05-19-release-3.2.json", true), ("2026-06-23-release-3.3.json", false),
    ])
    func theExamplesFlagPracticeTimeUntilItIsTranslated(file: String, flagged: Bool) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("Examples/" + file)))
        let found = FallbackFile(bytes: bytes).audit(now: testNow).filter { $0.ruleId == "text-not-localized" }
        guard flagged else {
            #expect(found.isEmpty, "\(found)")
            return
        }
        // One finding per page the funnel is served on: the control variant of onboarding.
        let finding = try #require(found.first)
        #expect(found.count == 1, "\(found)")
        #expect(finding.severity == .warning)
        #expect(finding.placementKey == "onboarding")
        #expect(pageId(of: finding) == "pg_practice_time")
        #expect(finding.message.contains(#"Page "pg_practice_time" of funnel "fnl_calm_quiz" has 4 plain texts"#), "\(finding.message)")
        #expect(finding.message.contains(#"title"#) && finding.message.contains(#"option "evening" label"#))
        #expect(finding.message.contains(#"a first launch in "de" shows them as written"#), "\(finding.message)")
        // Keys are sorted in the Examples: the options come before the title, and the finding
        // points at the first plain text in the file.
        #expect(finding.pointer.hasSuffix("/pages/6/options/0/label"), "\(finding.pointer)")
        #expect(finding.line > 0 && finding.column > 0)
    }

    @Test func plainTextsOfAPageMakeOneFindingAtTheFirst() throws {
        let page = Snap.page(
            "p1", "single_choice",
            #""title":"Pick one","subtitle":{"en":"Any","de":"Egal"},"benefits":["Calm","Sleep"],"#
                + #""options":[{"label":"Morning","value":"am"},{"label":{"en":"Night","de":"Nacht"},"value":"pm"}]"#)
        let text = Snap.funnelFile(extra: Self.twoLocales, [page])
        let found = plainTextFindings(text)
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(pageId(of: finding) == "p1")
        #expect(finding.pointer == "/placements/onb/funnel/pages/0/title")
        let expected = try #require(Marker.after(#""title":"#).position(in: text))
        #expect(finding.line == expected.line && finding.column == expected.column)
        #expect(finding.message.contains(#"has 3 plain texts (title, benefits, option "am" label)"#), "\(finding.message)")
        #expect(finding.message.contains(#"declares "en", "de""#))
        #expect(!finding.message.contains("Night"))
    }

    @Test func localizedCopyAndASingleLocaleAreNotFindings() {
        let localized = Snap.page(
            "p1", "single_choice",
            #""title":{"en":"Pick","de":"Wähle"},"steps":{"en":["a"],"de":["b"]},"options":[{"label":{"en":"A","de":"A"},"value":"a"}]"#)
        #expect(plainTextFindings(Snap.funnelFile(extra: Self.twoLocales, [localized])).isEmpty)
        let plain = Snap.page("p1", "statement", #""title":"Hello","benefits":["One"]"#)
        #expect(plainTextFindings(Snap.funnelFile(extra: #""locales":["en"],"#, [plain])).isEmpty)
        #expect(plainTextFindings(Snap.funnelFile(extra: #""defaultLocale":"en","#, [plain])).isEmpty)
        #expect(plainTextFindings(Snap.funnelFile(extra: "", [plain])).isEmpty)
        // The same locale twice is one locale.
        #expect(plainTextFindings(Snap.funnelFile(extra: #""locales":["en","en"],"#, [plain])).isEmpty)
    }

    /// Numbers, emoji and punctuation read the same in every language; a blank text is another matter.
    @Test(arguments: ["5", "🧘", "10–15", "  ", "", "%", "4.9 ★"])
    func languageNeutralTextIsNotAFinding(_ neutral: String) {
        let page = Snap.page(
            "p1", "single_choice",
            #""title":"\#(neutral)","steps":["1","2"],"options":[{"label":"\#(neutral)","value":"a"}]"#)
        #expect(plainTextFindings(Snap.funnelFile(extra: Self.twoLocales, [page])).isEmpty)
    }

    @Test func aListWithOneWordIsAPlainText() throws {
        let page = Snap.page("p1", "statement", #""steps":["1","Breathe"]"#)
        let finding = try #require(plainTextFindings(Snap.funnelFile(extra: Self.twoLocales, [page])).first)
        #expect(finding.message.contains("has 1 plain text (steps)"), "\(finding.message)")
        #expect(finding.pointer == "/placements/onb/funnel/pages/0/steps")
    }

    /// Without `defaultLocale`, the first declared locale is the one plain copy is written in.
    @Test func theLocalesOtherThanTheDefaultAreNamed() throws {
        let page = Snap.page("p1", "statement", #""body":"Hello""#)
        let first = try #require(plainTextFindings(Snap.funnelFile(extra: #""locales":["en","de","fr"],"#, [page])).first)
        #expect(first.message.contains(#"a first launch in "de" or "fr" shows it as written, in the default locale's words ("en")"#), "\(first.message)")
        let declared = try #require(plainTextFindings(Snap.funnelFile(extra: #""defaultLocale":"de","locales":["en","de"],"#, [page])).first)
        #expect(declared.message.contains(#"a first launch in "en" shows it as written, in the default locale's words ("de")"#), "\(declared.message)")
    }

    @Test func aPageWithManyPlainLabelsListsTheFirstFew() throws {
        let options = (0..<40).map { #"{"label":"Option \#($0)","value":"v\#($0)"}"# }.joined(separator: ",")
        let page = Snap.page("p1", "single_choice", #""options":[\#(options)]"#)
        let finding = try #require(plainTextFindings(Snap.funnelFile(extra: Self.twoLocales, [page])).first)
        #expect(finding.message.contains("has 40 plain texts"))
        #expect(finding.message.contains(#"option "v4" label, and 35 more)"#), "\(finding.message)")
        #expect(!finding.message.contains(#""v5""#))
    }

    @Test func theRuleCanBeTurnedOffOnItsOwn() {
        let page = Snap.page("p1", "statement", #""body":"Hello","title":{"en":"Hi"}"#)
        let text = Snap.funnelFile(extra: Self.twoLocales, [page])
        #expect(findings(text).map(\.ruleId.rawValue).filter { $0.hasPrefix("t") } == ["text-not-localized", "translation-missing"])
        let off = findings(text, configuration: AuditConfiguration(overrides: ["text-not-localized": .off]))
        #expect(off.map(\.ruleId.rawValue).filter { $0.hasPrefix("t") } == ["translation-missing"])
    }
}
