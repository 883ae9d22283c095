import RovenueFallback
import Testing

@testable import FallbackDiff
import FallbackTestSupport

/// `old`'s runs as `[-removed-]` and `new`'s as `{+added+}`, git's `--word-diff=plain` notation.
private func notation(_ diff: WordDiff) -> String {
    diff.segments.map { segment in
        switch segment.operation {
        case .same: segment.text
        case .removed: "[-\(segment.text)-]"
        case .added: "{+\(segment.text)+}"
        }
    }.joined()
}

private func joined(_ segments: [WordDiff.Segment]) -> String {
    segments.map(\.text).joined()
}

/// A text of `count` words `prefix0 prefix1 …`, about `count * (prefix.count + 4)` characters.
private func words(_ prefix: String, _ count: Int) -> String {
    (0..<count).map { "\(prefix)\($0)" }.joined(separator: " ")
}

@Suite("Word diff: the words that differ between two texts")
struct WordDiffTests {
    static let cases: [(old: String, new: String, expected: String)] = [
        ("Hello", "Hello", "Hello"),
        ("", "Hello", "{+Hello+}"),
        ("Hello", "", "[-Hello-]"),
        ("Start your day", "Start your morning", "Start your [-day-]{+morning+}"),
        ("Sleep better tonight", "Sleep much better tonight", "Sleep {+much +}better tonight"),
        ("Sleep much better tonight", "Sleep better tonight", "Sleep [-much -]better tonight"),
        ("Hello, world!", "Hello world!", "Hello[-,-] world!"),
        ("one two three four", "one three two four", "one [-two -]three{+ two+} four"),
        // Changed words with only a space between them read as one replacement.
        ("Guten Morgen, Anna", "Schönen Abend, Anna", "[-Guten Morgen-]{+Schönen Abend+}, Anna"),
        // A word is a whole run of letters: a changed letter replaces the word.
        ("colour", "color", "[-colour-]{+color+}"),
        // Accented and non-Latin letters are letters.
        ("Schlaf gut, Jürgen", "Schlaf gut, Jörg", "Schlaf gut, [-Jürgen-]{+Jörg+}"),
        ("Доброе утро", "Добрый вечер", "[-Доброе утро-]{+Добрый вечер+}"),
        ("صباح الخير", "مساء الخير", "[-صباح-]{+مساء+} الخير"),
        // Scripts without spaces differ character by character.
        ("今日はいい天気", "今日は悪い天気", "今日は[-い-]{+悪+}い天気"),
        ("开始你的一天", "开始你的早晨", "开始你的[-一天-]{+早晨+}"),
        // A grapheme cluster is never split.
        ("Go 👍🏽 now", "Go 👍🏿 now", "Go [-👍🏽-]{+👍🏿+} now"),
        // Composed and decomposed é are different bytes, so different words.
        ("caf\u{E9}", "cafe\u{301}", "[-caf\u{E9}-]{+cafe\u{301}+}"),
        // Whitespace is kept exactly.
        ("a  b", "a b", "a[-  -]{+ +}b"),
        ("line one\nline two", "line one line two", "line one[-\n-]{+ +}line two"),
    ]

    @Test(arguments: cases)
    func marksTheWordsThatDiffer(old: String, new: String, expected: String) {
        let diff = WordDiff(old: old, new: new)
        #expect(notation(diff) == expected)
        #expect(!diff.isCoarse)
    }

    @Test(arguments: cases)
    func eachSideReadsBackExactly(old: String, new: String, expected: String) {
        let diff = WordDiff(old: old, new: new)
        #expect(joined(diff.oldSegments).utf8.elementsEqual(old.utf8))
        #expect(joined(diff.newSegments).utf8.elementsEqual(new.utf8))
        #expect(diff.oldSegments.allSatisfy { $0.operation != .added })
        #expect(diff.newSegments.allSatisfy { $0.operation != .removed })
    }

    @Test func adjacentRunsOfOneOperationAreMerged() {
        let diff = WordDiff(old: "a b c d", new: "a x y d")
        #expect(diff.segments.map(\.operation) == [.same, .removed, .added, .same])
        for (left, right) in zip(diff.segments, diff.segments.dropFirst()) {
            #expect(left.operation != right.operation)
        }
    }

    @Test func theEditIsTheShortest() {
        // One word moved: one removed and one added, never the whole middle.
        let diff = WordDiff(old: "a b c d e f", new: "a c d e b f")
        let changed = diff.segments.filter { $0.operation != .same }.map(\.text)
        #expect(changed.count == 2)
        #expect(changed.allSatisfy { $0.contains("b") })
    }

    @Test func splitsWordsWhitespaceAndOtherCharacters() {
        #expect(WordDiff.words(of: "Hi,  you're 2nd!") == ["Hi", ",", "  ", "you", "'", "re", " ", "2nd", "!"])
        #expect(WordDiff.words(of: "snake_case x") == ["snake_case", " ", "x"])
        #expect(WordDiff.words(of: "日本語") == ["日", "本", "語"])
        #expect(WordDiff.words(of: "สวัสดี").count > 1)
        #expect(WordDiff.words(of: "").isEmpty)
        #expect(WordDiff.words(of: " \t\n ") == [" \t\n "])
    }

    @Test func whitespaceOnlyChangesAreTold() {
        #expect(WordDiff(old: "Sleep  better", new: "Sleep better").changesOnlyWhitespace)
        #expect(WordDiff(old: "Sleep better", new: "Sleep better ").changesOnlyWhitespace)
        #expect(WordDiff(old: "Sleep better", new: "Sleep\nbetter").changesOnlyWhitespace)
        #expect(!WordDiff(old: "Sleep better", new: "Sleep best").changesOnlyWhitespace)
        #expect(!WordDiff(old: "Same", new: "Same").changesOnlyWhitespace)
        let trailing = WordDiff(old: "Sleep better", new: "Sleep better ")
        #expect(trailing.segments.last == WordDiff.Segment(.added, " "))
        #expect(trailing.segments.last?.isWhitespace == true)
    }

    // MARK: Bounds

    /// Two texts with every word changed: Myers would need as many edits as words.
    @Test func aTextWithEveryWordChangedStopsAtTheEditBound() {
        let old = words("old", 5_000)
        let new = words("new", 5_000)
        let diff = WordDiff(old: old, new: new, maxEdits: 100)
        #expect(diff.isCoarse)
        #expect(notation(diff) == "[-\(old)-]{+\(new)+}")
        // The search stops after about maxEdits² / 2 diagonals, not 10,000 words squared.
        #expect(diff.steps < 100 * 100)
    }

    @Test func theCoarseFallbackKeepsTheCommonPrefixAndSuffix() {
        let old = "Start: " + words("a", 300) + " :end"
        let new = "Start: " + words("b", 300) + " :end"
        let diff = WordDiff(old: old, new: new, maxEdits: 10)
        #expect(diff.isCoarse)
        #expect(diff.segments.first == WordDiff.Segment(.same, "Start: "))
        #expect(diff.segments.last == WordDiff.Segment(.same, " :end"))
        #expect(diff.segments.map(\.operation) == [.same, .removed, .added, .same])
        #expect(joined(diff.oldSegments) == old && joined(diff.newSegments) == new)
    }

    @Test func theStepBoundStopsTheSearch() {
        let old = words("x", 2_000)
        let new = words("y", 2_000)
        let diff = WordDiff(old: old, new: new, maxEdits: 1_000_000, maxSteps: 5_000)
        #expect(diff.isCoarse)
        #expect(diff.steps <= 5_000 + 10_000)
    }

    /// 100 KB on each side with every word changed: the default bounds keep the work linear.
    @Test func aHundredKilobyteRewriteStaysLinear() {
        let old = words("alpha", 12_000)
        let new = words("omega", 12_000)
        #expect(old.utf8.count > 100_000)
        let diff = WordDiff(old: old, new: new)
        #expect(diff.isCoarse)
        let tokens = WordDiff.words(of: old).count + WordDiff.words(of: new).count
        #expect(diff.steps <= WordDiff.stepsPerWord * tokens + tokens)
        #expect(joined(diff.oldSegments) == old && joined(diff.newSegments) == new)
    }

    /// 100 KB with a few words changed: the prefix and suffix take linear steps and the middle is exact.
    @Test func aFewChangesInALongTextAreExact() {
        let base = (0..<12_000).map { "w\($0)" }
        var changed = base
        changed[100] = "CHANGED"
        changed[6_000] = "ALSO"
        let diff = WordDiff(old: base.joined(separator: " "), new: changed.joined(separator: " "))
        #expect(!diff.isCoarse)
        #expect(diff.segments.filter { $0.operation == .removed }.map(\.text) == ["w100", "w6000"])
        #expect(diff.segments.filter { $0.operation == .added }.map(\.text) == ["CHANGED", "ALSO"])
        #expect(diff.steps < 4 * 24_000)
    }

    @Test func equalTextsTakeOneStepPerWord() {
        let text = words("same", 1_000)
        let diff = WordDiff(old: text, new: text)
        #expect(diff.segments == [WordDiff.Segment(.same, text)])
        #expect(diff.steps == WordDiff.words(of: text).count)
    }
}

@Suite("Copy change: each locale's old and new text")
struct CopyChangeTests {
    private static func changes(_ old: String, _ new: String) -> [CopyChange] {
        let old = Snap.funnelFile(extra: #""paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p1", "welcome", old)])
        let new = Snap.funnelFile(extra: #""paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p1", "welcome", new)])
        return SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)).changes.compactMap(\.copy)
    }

    private static func rows(_ copy: CopyChange) -> [String] {
        copy.locales.map { "\($0.locale ?? "*") \($0.status.rawValue) \($0.old ?? "-") → \($0.new ?? "-")" }
    }

    @Test func aPlainStringChanged() throws {
        let copy = try #require(Self.changes(#""title":"Good morning""#, #""title":"Good evening""#).first)
        #expect(copy.oldForm == .plain && copy.newForm == .plain)
        #expect(Self.rows(copy) == ["* changed Good morning → Good evening"])
        #expect(copy.locales[0].words.map(notation) == "Good [-morning-]{+evening+}")
    }

    @Test func localizedTextsPairByLocaleWithAddedAndRemovedLocales() throws {
        let copy = try #require(
            Self.changes(#""title":{"en":"Hi","de":"Hallo","fr":"Salut"}"#, #""title":{"en":"Hi there","es":"Hola","de":"Hallo"}"#).first)
        #expect(copy.oldForm == .localized && copy.newForm == .localized)
        #expect(
            Self.rows(copy) == ["en changed Hi → Hi there", "es added - → Hola", "de unchanged Hallo → Hallo", "fr removed Salut → -"])
        #expect(copy.changedLocales.map(\.locale) == ["en", "es", "fr"])
    }

    @Test func aPlainStringTurnedIntoLocalizedTextsComparesItWithEachLocale() throws {
        let copy = try #require(Self.changes(#""title":"Hello""#, #""title":{"en":"Hello","de":"Hallo"}"#).first)
        #expect(copy.oldForm == .plain && copy.newForm == .localized)
        #expect(Self.rows(copy) == ["en unchanged Hello → Hello", "de changed Hello → Hallo"])
        let back = try #require(Self.changes(#""title":{"en":"Hello","de":"Hallo"}"#, #""title":"Hello""#).first)
        #expect(back.oldForm == .localized && back.newForm == .plain)
        #expect(Self.rows(back) == ["en unchanged Hello → Hello", "de changed Hallo → Hello"])
    }

    @Test func aTextAddedOrRemovedHasOneSide() throws {
        let added = try #require(Self.changes(#""title":"Hi""#, #""title":"Hi","subtitle":{"en":"Welcome"}"#).first)
        #expect(added.oldForm == .absent && added.newForm == .localized)
        #expect(Self.rows(added) == ["en added - → Welcome"])
        let removed = try #require(Self.changes(#""title":"Hi","subtitle":"Welcome""#, #""title":"Hi""#).first)
        #expect(removed.oldForm == .plain && removed.newForm == .absent)
        #expect(Self.rows(removed) == ["* removed Welcome → -"])
    }

    @Test func aWhitespaceOnlyChangeIsTold() throws {
        let copy = try #require(Self.changes(#""title":"Sleep better""#, #""title":"Sleep  better ""#).first)
        #expect(copy.locales[0].status == .changed)
        #expect(copy.locales[0].changesOnlyWhitespace)
    }

    @Test func aListReadsAsItsItemsOnePerLine() throws {
        let copy = try #require(Self.changes(#""benefits":["Calm","Focus"]"#, #""benefits":["Calm","Deep focus"]"#).first)
        #expect(Self.rows(copy) == ["* changed Calm\nFocus → Calm\nDeep focus"])
    }

    @Test func anOptionLabelCarriesItsTexts() throws {
        let old = Snap.funnelFile(
            extra: #""paywalls":{"pw":\#(Snap.paywall())},"#,
            [Snap.page("p2", "single_choice", #""question_id":"goal","options":[{"label":{"en":"Sleep"},"value":"a"}]"#)])
        let new = Snap.funnelFile(
            extra: #""paywalls":{"pw":\#(Snap.paywall())},"#,
            [Snap.page("p2", "single_choice", #""question_id":"goal","options":[{"label":{"en":"Sleep well"},"value":"a"}]"#)])
        let change = try #require(SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)).changes.first)
        #expect(change.kind == .copyChanged)
        #expect(change.copy.map(Self.rows) == ["en changed Sleep → Sleep well"])
    }

    /// A plain title `plain`, then a title per locale: `short` locales saying `new 0`, `new 1`, …,
    /// and the `others` (locale, text) after them.
    private static func plainToLocales(_ plain: String, short: Int, others: [(String, String)] = []) -> CopyChange? {
        let locales = (0..<short).map { #""s\#($0)":"new \#($0)""# } + others.map { #""\#($0.0)":"\#($0.1)""# }
        return Self.changes(#""title":"\#(plain)""#, #""title":{\#(locales.joined(separator: ","))}"#).first
    }

    @Test func manyShortLocalesLeaveALongPlainTextToBeListedOnce() throws {
        let plain = String(repeating: "a", count: 20_000)
        // 5 × 20,000 repeated bytes pass both 16 KiB and four times the texts (80,100).
        let copy = try #require(Self.plainToLocales(plain, short: 5))
        #expect(copy.sharedSide == .old)
        #expect(copy.sharedText == plain)
        #expect(copy.locales.map(\.status) == Array(repeating: .changed, count: 5))
        // Each locale still reads the plain text as its old text, but no word diff is made.
        #expect(copy.locales.allSatisfy { $0.old == plain && $0.omitsSharedSide && $0.words == nil })
        #expect(copy.textBytes == 20_000 + "new 0new 1new 2new 3new 4".utf8.count)
    }

    @Test(arguments: [(16, false), (17, true)])
    func theRepeatedBytesDecideAtTheLimit(short: Int, listedOnce: Bool) throws {
        // 16 × 1,000 bytes stay within 16 KiB (and pass four times the texts); 17 × 1,000 pass both.
        let copy = try #require(Self.plainToLocales(String(repeating: "a", count: 1_000), short: short))
        #expect((copy.sharedSide == .old) == listedOnce)
        #expect(copy.changedLocales.allSatisfy { $0.omitsSharedSide == listedOnce && ($0.words == nil) == listedOnce })
    }

    @Test func aLocaleAQuarterAsLongOrLongerIsComparedWordByWordBesideTheTextListedOnce() throws {
        let plain = String(repeating: "word ", count: 4_000)
        let respaced = plain + " "
        let edited = "WORD " + plain.dropFirst(5)
        let quarter = String(plain.prefix(5_000))
        let copy = try #require(Self.plainToLocales(plain, short: 30, others: [("ws", respaced), ("ed", edited), ("qu", quarter)]))
        #expect(copy.sharedSide == .old)
        let long = copy.locales.suffix(3)
        #expect(long.map(\.locale) == ["ws", "ed", "qu"])
        #expect(long.allSatisfy { !$0.omitsSharedSide && $0.words != nil })
        #expect(long.map(\.changesOnlyWhitespace) == [true, false, false])
        #expect(copy.locales.prefix(30).allSatisfy { $0.omitsSharedSide && $0.words == nil })
        // The text listed once counts once; the locales compared with it count it again.
        let ownBytes = copy.locales.prefix(30).reduce(0) { $0 + ($1.new?.utf8.count ?? 0) }
        #expect(copy.textBytes == 4 * plain.utf8.count + respaced.utf8.count + edited.utf8.count + quarter.utf8.count + ownBytes)
    }

    @Test func eachSideReadsAsTheReportsShowIt() throws {
        let plain = String(repeating: "word ", count: 4_000)
        let edited = "WORD " + plain.dropFirst(5)
        let copy = try #require(Self.plainToLocales(plain, short: 30, others: [("ed", edited)]))
        let short = copy.locales[0]
        #expect(short.omittedSide == .old)
        #expect(short.runs(of: .old) == nil)
        #expect(short.runs(of: .new) == [WordDiff.Segment(.added, "new 0")])
        let compared = try #require(copy.locales.last)
        #expect(compared.omittedSide == nil)
        #expect(compared.runs(of: .old) == compared.words?.oldSegments && compared.runs(of: .new) == compared.words?.newSegments)
        // Without a text listed once, a side without a word diff is one kept run; a missing side is nil.
        let added = try #require(Self.changes(#""title":{"en":"Hi"}"#, #""title":{"en":"Hi","de":"Hallo"}"#).first?.changedLocales.first)
        #expect(added.runs(of: .old) == nil)
        #expect(added.runs(of: .new) == [WordDiff.Segment(.same, "Hallo")])
    }

    @Test func oneDifferingLocaleKeepsItsWordDiffHoweverLongTheText() throws {
        let copy = try #require(Self.plainToLocales(String(repeating: "a", count: 200_000), short: 1))
        #expect(copy.sharedSide == nil)
        #expect(copy.changedLocales.count == 1 && copy.changedLocales[0].words != nil)
        #expect(copy.textBytes == 200_000 + "new 0".utf8.count)
    }

    @Test func aLongPlainTextReplacingManyShortLocalesIsListedOnceAsTheNewSide() throws {
        let plain = String(repeating: "b", count: 30_000)
        let old = (0..<6).map { #""l\#($0)":"old \#($0)""# }.joined(separator: ",")
        let copy = try #require(Self.changes(#""title":{\#(old)}"#, #""title":"\#(plain)""#).first)
        #expect(copy.sharedSide == .new)
        #expect(copy.sharedText == plain)
        #expect(copy.locales.map { $0.old ?? "" } == (0..<6).map { "old \($0)" })
        #expect(copy.locales.allSatisfy { $0.new == plain && $0.omitsSharedSide && $0.words == nil })
    }

    @Test func shortTextsKeepAWordDiffPerLocale() throws {
        let copy = try #require(Self.changes(#""title":"Hello""#, #""title":{"en":"Hello there","de":"Hallo","fr":"Salut"}"#).first)
        #expect(copy.sharedSide == nil && copy.sharedText == nil)
        #expect(copy.changedLocales.allSatisfy { $0.words != nil && !$0.omitsSharedSide })
        #expect(copy.textBytes == 3 * 5 + "Hello thereHalloSalut".utf8.count)
    }

    @Test func otherKindsCarryNoTexts() {
        let old = Snap.funnelFile(extra: #""paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p1", "welcome", #""mediaUrl":"a""#)])
        let new = Snap.funnelFile(extra: #""paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p1", "welcome", #""mediaUrl":"b""#)])
        let changes = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)).changes
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.copy == nil })
    }
}
