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

    /// A plain text of 30,000 bytes, listed once when ten short locales replace it (10 × 30,000
    /// repeated bytes pass four times the texts), and one more locale, `fr`, long enough to be
    /// compared word by word.
    private static let sharedPlain = String(repeating: "Plain words for every locale. ", count: 1_000)
    private static let shortLocales = [
        ("en", "Hello"), ("de", "Hallo"), ("es", "Hola"), ("it", "Ciao"), ("pt", "Olá"), ("nl", "Hoi"), ("sv", "Hej"), ("da", "Hej"),
        ("fi", "Moi"), ("pl", "Cześć"),
    ]
    private static let frenchText = "Des mots " + sharedPlain.dropFirst("Plain words ".count)
    private static var localized: String {
        #""title":{"# + (shortLocales + [("fr", frenchText)]).map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",") + "}"
    }
    private static let toLocales = (#""title":"\#(sharedPlain)""#, localized)

    @Test func textListsALongSharedTextOnceBeforeTheLocalesThatShowOnlyTheirOwn() {
        let text = report(Self.toLocales.0, Self.toLocales.1).text(TextStyle(listsInfos: true))
        let lines = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("      ") }
        #expect(lines.first == "      every locale (before): [-\(Self.sharedPlain)-]")
        #expect(Array(lines.dropFirst().prefix(Self.shortLocales.count)) == Self.shortLocales.map { "      \($0.0): {+\($0.1)+}" })
        // The long locale is compared word by word, the plain text repeated beside it.
        #expect(lines.dropFirst(Self.shortLocales.count + 1).first?.hasPrefix("      fr: [-Plain words-]{+Des mots+} for every locale.") == true)
        #expect(text.components(separatedBy: "for every locale.").count - 1 == 2_000)
        let back = report(Self.toLocales.1, Self.toLocales.0).text(TextStyle(listsInfos: true))
        #expect(back.contains("      pl: [-Cześć-]\n"))
        #expect(back.contains("\n      every locale (now): {+\(Self.sharedPlain)+}\n"))
    }

    @Test func markdownListsALongSharedTextOnceInItsCell() throws {
        func cells(_ old: String, _ new: String) throws -> (old: [String], new: [String]) {
            let markdown = report(old, new).markdown()
            let row = try #require(markdown.split(separator: "\n").first { $0.contains("copy-changed") })
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[cells.count - 2].components(separatedBy: "<br>"), cells[cells.count - 1].components(separatedBy: "<br>"))
        }
        let plain = MarkdownEscaping.inline(Self.sharedPlain)
        let forward = try cells(Self.toLocales.0, Self.toLocales.1)
        #expect(forward.old.first == "<code>every locale</code>: <del>\(plain)</del>")
        // Beside it, only `fr` repeats the plain text, compared word by word.
        #expect(forward.old.count == 2 && forward.old[1].hasPrefix("<code>fr</code>: <del>Plain words</del>"))
        #expect(Array(forward.new.prefix(Self.shortLocales.count)) == Self.shortLocales.map { "<code>\($0.0)</code>: <ins>\(MarkdownEscaping.inline($0.1))</ins>" })
        #expect(forward.new.count == Self.shortLocales.count + 1)
        let back = try cells(Self.toLocales.1, Self.toLocales.0)
        #expect(back.new.first == "<code>every locale</code>: <ins>\(plain)</ins>")
        #expect(back.new.count == 2 && back.new[1].hasPrefix("<code>fr</code>: <ins>Plain words</ins>"))
        #expect(Array(back.old.prefix(Self.shortLocales.count)) == Self.shortLocales.map { "<code>\($0.0)</code>: <del>\(MarkdownEscaping.inline($0.1))</del>" })
    }

    @Test func jsonGivesASharedTextOnceAndNullsItBesideTheLocalesThatOmitIt() throws {
        let json = try #require(JSONSerialization.jsonObject(with: Data(report(Self.toLocales.0, Self.toLocales.1).json().utf8)) as? [String: Any])
        let change = try #require((json["changes"] as? [[String: Any]])?.first { $0["kind"] as? String == "copy-changed" })
        let copy = try #require(change["copy"] as? [String: Any])
        let shared = try #require(copy["shared"] as? [String: Any])
        #expect(shared["side"] as? String == "old" && shared["text"] as? String == Self.sharedPlain)
        let locales = try #require(copy["locales"] as? [[String: Any]])
        #expect(locales.map { $0["sharedOmitted"] as? Bool } == Array(repeating: true, count: Self.shortLocales.count) + [false])
        #expect(locales.prefix(Self.shortLocales.count).allSatisfy { $0["old"] is NSNull && $0["words"] is NSNull && $0["status"] as? String == "changed" })
        #expect(locales.map { $0["new"] as? String } == Self.shortLocales.map(\.1) + [Self.frenchText])
        #expect(locales[Self.shortLocales.count]["old"] as? String == Self.sharedPlain && locales[Self.shortLocales.count]["words"] is [[String: Any]])
        // The reverse names the new side, and an ordinary copy change says `null` and `false`.
        let back = try #require(JSONSerialization.jsonObject(with: Data(report(Self.toLocales.1, Self.toLocales.0).json().utf8)) as? [String: Any])
        let backCopy = try #require((back["changes"] as? [[String: Any]])?.first { $0["kind"] as? String == "copy-changed" }?["copy"] as? [String: Any])
        #expect((backCopy["shared"] as? [String: Any])?["side"] as? String == "new")
        #expect((backCopy["locales"] as? [[String: Any]])?.first?["new"] is NSNull)
        let plain = try #require(
            JSONSerialization.jsonObject(with: Data(report(#""title":"Hello""#, #""title":{"de":"Hallo"}"#).json().utf8)) as? [String: Any])
        let ordinary = try #require((plain["changes"] as? [[String: Any]])?.first { $0["kind"] as? String == "copy-changed" })
        let ordinaryCopy = try #require(ordinary["copy"] as? [String: Any])
        #expect(ordinaryCopy["shared"] is NSNull)
        #expect((ordinaryCopy["locales"] as? [[String: Any]])?.first?["sharedOmitted"] as? Bool == false)
    }

    /// The JSON report writes a copy change a locale at a time; its text is still `jsonValue`'s,
    /// byte for byte, for each kind of copy change and for a change with no copy.
    @Test(arguments: [
        (#""title":"Hello""#, #""title":{"de":"Hallo","en":"Hello  there"}"#),
        (#""title":{"de":"Hallo","en":"Hi","fr":"Salut"}"#, #""title":{"en":"Hi!","fr":"Salut"}"#),
        (#""title":{"de":"Hallo"}"#, #""title":"Hallo\nWelt""#),
        (#""mediaUrl":"a","cta":"Go""#, #""mediaUrl":"b","cta":{"en":"Go on"}"#),
    ])
    func jsonWrittenALocaleAtATimeIsTheValuesText(old: String, new: String) {
        let report = report(old, new)
        #expect(report.rendered(as: .json) == report.jsonValue.jsonText([.prettyPrinted]) + "\n")
    }

    @Test func jsonOfASharedTextWrittenALocaleAtATimeIsTheValuesText() {
        for (old, new) in [Self.toLocales, (Self.toLocales.1, Self.toLocales.0)] {
            let report = report(old, new)
            #expect(report.rendered(as: .json) == report.jsonValue.jsonText([.prettyPrinted]) + "\n")
        }
    }

    @Test func jsonHasANullCopyForOtherKinds() throws {
        let json = try #require(
            JSONSerialization.jsonObject(with: Data(report(#""mediaUrl":"a""#, #""mediaUrl":"b""#).json().utf8)) as? [String: Any])
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0["copy"] is NSNull })
    }
}
