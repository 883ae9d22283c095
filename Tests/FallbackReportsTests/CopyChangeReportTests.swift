import FallbackDiff
import FallbackReports
import FallbackTestSupport
import Foundation
import RovenueFallback
import Testing

/// A diff of a one-page funnel whose page carries `old`, then `new` (JSON members).
private func report(_ old: String, _ new: String) -> DiffReport {
    let file = { (members: String) in Snap.funnelFile(extra: #""paywalls":{},"#, [Snap.page("p1", "statement", members)]) }
    let diff = SnapshotDiff(old: FallbackFile(text: file(old)), new: FallbackFile(text: file(new)))
    return DiffReport(
        diff: diff, oldPath: "old.json", newPath: "new.json", failOn: .breaking, title: "t", tool: ReportTool(name: "t", version: "0"))
}

private let longText = String(repeating: "Every word of this sentence is kept as it was written. ", count: 20)

@Suite("Diff reports: a copy change shows each locale's texts in full")
struct CopyChangeReportTests {
    @Test func textListsEachLocaleInWordDiffNotation() {
        let text = report(
            #""title":{"en":"Good morning, Anna","de":"Guten Morgen","fr":"Bonjour"}"#,
            #""title":{"en":"Good evening, Anna","de":"Guten Morgen","es":"Hola"}"#
        ).text(TextStyle(listsInfos: true))
        #expect(text.contains("      en: Good [-morning-]{+evening+}, Anna\n"))
        #expect(text.contains("      es (added): {+Hola+}\n"))
        #expect(text.contains("      fr (removed): [-Bonjour-]\n"))
        // An unchanged locale is not listed, and no JSON is shown for the change.
        #expect(!text.contains("de:"))
        #expect(!text.contains("{\"en\""))
    }

    @Test func textShowsALongTextWholeAndOnOneLinePerLocale() {
        let text = report(#""body":"\#(longText)Old end.""#, #""body":"\#(longText)New end.""#).text(TextStyle(listsInfos: true))
        #expect(text.contains("      every locale: \(longText)[-Old-]{+New+} end.\n"))
        #expect(!text.contains("…"))
    }

    @Test func textShowsWhitespaceAndLineBreaks() {
        let text = report(#""body":"Breathe  in\nslowly""#, #""body":"Breathe in slowly""#).text(TextStyle(listsInfos: true))
        #expect(text.contains("      every locale (only whitespace): Breathe[-··-]{+·+}in[-↵-]{+·+}slowly\n"))
    }

    @Test func textSpellsOutHiddenCharacters() {
        let text = report(#""title":"Hi""#, #""title":"Hi \u202Eevil""#).text(TextStyle(listsInfos: true))
        #expect(text.contains("<U+202E>"))
        #expect(!text.contains("\u{202E}"))
    }

    @Test func markdownMarksRemovedAndAddedWordsInTheOldAndNewCells() throws {
        let markdown = report(#""title":{"en":"Good morning"}"#, #""title":{"en":"Good evening"}"#).markdown()
        let row = try #require(markdown.split(separator: "\n").first { $0.contains("copy-changed") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.suffix(2) == ["<code>en</code>: Good <del>morning</del>", "<code>en</code>: Good <ins>evening</ins>"])
    }

    @Test func markdownEscapesTheTextsAndSaysWhenASideHasNone() throws {
        let markdown = report(#""title":{"en":"a"}"#, #""title":{"en":"a","de":"<b>|x|</b>"}"#).markdown()
        let row = try #require(markdown.split(separator: "\n").first { $0.contains("copy-changed") })
        #expect(row.contains("<code>de \\(added\\)</code>: *none*"))
        #expect(row.contains(#"<code>de \(added\)</code>: \<b\>\|x\|\<\/b\>"#))
        #expect(!row.contains("<b>"))
    }

    @Test func markdownShowsALongTextWhole() {
        let markdown = report(#""body":"\#(longText)Old end.""#, #""body":"\#(longText)New end.""#).markdown()
        #expect(markdown.contains("<ins>New</ins> end\\."))
        #expect(markdown.components(separatedBy: "Every word of this sentence").count - 1 == 40)
    }

    @Test func jsonAddsTheTextsAndKeepsEveryOtherKey() throws {
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(report(#""title":"Hello""#, #""title":{"en":"Hello","de":"Hallo"}"#).json().utf8))
                as? [String: Any])
        let change = try #require((json["changes"] as? [[String: Any]])?.first)
        #expect(change["kind"] as? String == "copy-changed")
        #expect(change["old"] as? String == #""Hello""#)
        let copy = try #require(change["copy"] as? [String: Any])
        #expect(copy["oldForm"] as? String == "plain")
        #expect(copy["newForm"] as? String == "localized")
        let locales = try #require(copy["locales"] as? [[String: Any]])
        #expect(locales.map { $0["locale"] as? String } == ["en", "de"])
        #expect(locales.map { $0["status"] as? String } == ["unchanged", "changed"])
        #expect(locales[1]["old"] as? String == "Hello" && locales[1]["new"] as? String == "Hallo")
        #expect(locales[0]["words"] is NSNull)
        let words = try #require(locales[1]["words"] as? [[String: Any]])
        #expect(words.map { "\($0["op"] ?? "")=\($0["text"] ?? "")" } == ["removed=Hello", "added=Hallo"])
    }

    /// A plain text long enough to be listed once when three locales replace it.
    private static let sharedPlain = String(repeating: "Plain words for every locale. ", count: 1_000)
    private static let toLocales = (
        #""title":"\#(sharedPlain)""#, #""title":{"en":"Hello","de":"Hallo","fr":"\#(sharedPlain)","es":"Hola"}"#
    )

    @Test func textListsALongSharedTextOnceBeforeEachLocalesOwnText() {
        let text = report(Self.toLocales.0, Self.toLocales.1).text(TextStyle(listsInfos: true))
        #expect(text.contains("""
                  every locale (before): [-\(Self.sharedPlain)-]
                  en: {+Hello+}
                  de: {+Hallo+}
                  es: {+Hola+}

            """))
        #expect(text.components(separatedBy: "Plain words for every locale.").count - 1 == 1_000)
        let back = report(Self.toLocales.1, Self.toLocales.0).text(TextStyle(listsInfos: true))
        #expect(back.contains("      es: [-Hola-]\n      every locale (now): {+\(Self.sharedPlain)+}\n"))
    }

    @Test func markdownListsALongSharedTextOnceInItsCell() throws {
        let markdown = report(Self.toLocales.0, Self.toLocales.1).markdown()
        let row = try #require(markdown.split(separator: "\n").first { $0.contains("copy-changed") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.suffix(2).first == "<code>every locale</code>: <del>\(MarkdownEscaping.inline(Self.sharedPlain))</del>")
        #expect(cells.suffix(2).last == "<code>en</code>: <ins>Hello</ins><br><code>de</code>: <ins>Hallo</ins><br><code>es</code>: <ins>Hola</ins>")
    }

    @Test func jsonGivesASharedTextOnceAndNullsItInEachLocale() throws {
        let json = try #require(JSONSerialization.jsonObject(with: Data(report(Self.toLocales.0, Self.toLocales.1).json().utf8)) as? [String: Any])
        let change = try #require((json["changes"] as? [[String: Any]])?.first { $0["kind"] as? String == "copy-changed" })
        let copy = try #require(change["copy"] as? [String: Any])
        let shared = try #require(copy["shared"] as? [String: Any])
        #expect(shared["side"] as? String == "old" && shared["text"] as? String == Self.sharedPlain)
        let locales = try #require(copy["locales"] as? [[String: Any]])
        #expect(locales.map { $0["status"] as? String } == ["changed", "changed", "unchanged", "changed"])
        #expect(locales.allSatisfy { $0["old"] is NSNull && $0["words"] is NSNull })
        #expect(locales.map { $0["new"] as? String } == ["Hello", "Hallo", Self.sharedPlain, "Hola"])
        // An ordinary copy change says `null`.
        let plain = try #require(
            JSONSerialization.jsonObject(with: Data(report(#""title":"Hello""#, #""title":{"de":"Hallo"}"#).json().utf8)) as? [String: Any])
        let ordinary = try #require((plain["changes"] as? [[String: Any]])?.first { $0["kind"] as? String == "copy-changed" })
        #expect((ordinary["copy"] as? [String: Any])?["shared"] is NSNull)
    }

    @Test func jsonHasANullCopyForOtherKinds() throws {
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(report(#""mediaUrl":"a""#, #""mediaUrl":"b""#).json().utf8)) as? [String: Any])
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0["copy"] is NSNull })
    }
}
