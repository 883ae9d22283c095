import FallbackAudit
import RovenueFallback
import Foundation
import Testing

/// Keys, file names and commit subjects reach a terminal or a CI log in the text formats: an
/// escape sequence there recolours or rewrites the screen, a bidi override reorders what a person
/// reads, and a line break inside one finding starts a line a CI runner may read as a command
/// (`::error::…`). Text output spells every such character out; the machine formats keep values
/// exact (their own escaping already makes them safe).
@Suite("Text output never carries a snapshot's control characters")
struct TerminalTextTests {
    /// A key that tries all three: colour, reordering and a new line that reads as a workflow command.
    static let hostileKey = "a\u{1B}[31mRED\u{202E}gnp.exe\n::error::injected\u{9B}2J"

    static func snapshot(key: String, revision: String = #""1""#) -> String {
        let quoted = JSONValue.quoted(key)
        return #"{"formatVersion":1,"generatedAt":1790000000000,"projectId":"p","placements":{"#
            + quoted + #":{"placement":{"identifier":"#  + quoted + #","revision":"# + revision + "}}}}"
    }

    /// No ESC, no C1 control, no bidi override, and no line that starts with `::`.
    static func expectSafe(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, "\(text)", sourceLocation: sourceLocation)
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") }, "\(text)", sourceLocation: sourceLocation)
    }

    @Test func checkSpellsOutTheKeyOnOneLine() {
        let result = run(["check", "f.json"], files: ["f.json": Self.snapshot(key: Self.hostileKey)])
        #expect(result.status == 1)
        Self.expectSafe(result.output)
        #expect(result.output.contains("<U+001B>[31mRED<U+202E>gnp.exe<U+000A>::error::injected<U+009B>2J"))
        // Each finding is one line that starts with the file's path.
        for line in result.output.split(separator: "\n") { #expect(line.hasPrefix("f.json:"), "\(line)") }
    }

    @Test func aFileNameIsSpelledOutToo() {
        let name = "evil\u{1B}]0;title\u{07}.json"
        let result = run(["check", name], files: [name: Self.snapshot(key: "k", revision: "-0")])
        #expect(!result.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        #expect(result.output.contains("evil<U+001B>]0;title<U+0007>.json:"))
    }

    @Test func diffAndHistorySpellOutKeysAndValues() {
        let files = ["old.json": Self.snapshot(key: Self.hostileKey, revision: "1"), "new.json": Self.snapshot(key: Self.hostileKey, revision: "2")]
        let diff = run(["diff", "old.json", "new.json", "--verbose"], files: files)
        // The key is quoted as JSON (`\u001b`, `\n`) or spelled out (`<U+202E>`): never raw.
        #expect(diff.output.contains(#"\u001b[31mRED<U+202E>gnp.exe\n::error"#), "\(diff.output)")
        Self.expectSafe(diff.output)
        let history = run(["history", "old.json", "new.json"], files: files)
        Self.expectSafe(history.output)
    }

    @Test func resolveSpellsOutOnBothStreams() {
        let file = ["f.json": Self.snapshot(key: Self.hostileKey, revision: "1")]
        let found = run(["resolve", "f.json", Self.hostileKey], files: file)
        #expect(found.status == 0)
        Self.expectSafe(found.output)
        let missing = run(["resolve", "f.json", "x\u{1B}[2J"], files: file)
        #expect(missing.status != 0)
        #expect(!missing.error.contains("\u{1B}"))
        #expect(missing.error.contains("x<U+001B>[2J"))
    }

    /// The machine formats keep the value exact: JSON escapes ESC and the line break itself and
    /// reads back to the same key.
    @Test func jsonKeepsTheKeyExact() throws {
        let result = run(["check", "--format", "json", "f.json"], files: ["f.json": Self.snapshot(key: Self.hostileKey)])
        #expect(!result.output.contains("\u{1B}"))
        let files = try #require(try jsonObject(result.output)["files"] as? [[String: Any]])
        let skipped = try #require(files.first?["skipped"] as? [[String: Any]])
        #expect(skipped.first?["key"] as? String == Self.hostileKey)
    }

    /// GitHub annotations and Markdown summaries are read by people in the runner's log and on
    /// the pull request: no escape sequence, C1 control or bidi override reaches them raw.
    @Test(arguments: ["github", "markdown"])
    func ciFormatsForPeopleSpellThemOut(format: String) {
        let result = run(["check", "--format", format, "f.json"], files: ["f.json": Self.snapshot(key: Self.hostileKey)])
        #expect(!result.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" }, "\(result.output)")
        #expect(result.output.contains(format == "github" ? "<U+202E>" : "\\<U+202E\\>"), "\(result.output)")
        if format == "github" {
            // One workflow command per finding; the key's line break cannot start another.
            for line in result.output.split(separator: "\n") {
                #expect(["::error ", "::warning ", "::notice "].contains { line.hasPrefix($0) }, "\(line)")
            }
        } else {
            Self.expectSafe(result.output)
        }
    }

    @Test(arguments: [
        ("plain text", "plain text", "plain text"),
        ("tab\tkept", "tab\tkept", "tab\tkept"),
        ("two\nlines", "two<U+000A>lines", "two\nlines"),
        ("cr\r", "cr<U+000D>", "cr\r"),
        ("\u{7F}\u{85}\u{2028}\u{2066}x\u{2069}", "<U+007F><U+0085><U+2028><U+2066>x<U+2069>", "<U+007F><U+0085><U+2028><U+2066>x<U+2069>"),
        ("é, 日本, 🙂", "é, 日本, 🙂", "é, 日本, 🙂"),
    ])
    func visibleTextForTerminal(_ input: String, _ oneLine: String, _ keepingBreaks: String) {
        #expect(VisibleText.forTerminal(input) == oneLine)
        #expect(VisibleText.forTerminal(input, keepingLineBreaks: true) == keepingBreaks)
    }
}
