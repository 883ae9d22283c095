import FallbackAudit
import Foundation
import Testing

/// Two keys that differ only by Unicode normalisation (`café` composed, U+00E9, and decomposed,
/// e + U+0301) are two placements, yet the text reports printed both as `café`. Text that is not
/// in Normalization Form C now spells out the characters that make it so; text that is, which is
/// nearly all text, prints as before.
@Suite("Text output tells decomposed text apart")
struct DecomposedTextTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test(arguments: ["onboarding", "caf\u{E9}", "日本語", "q\u{307}", "Ελληνικά"])
    func textInNormalizationFormCIsUnchanged(text: String) {
        #expect(VisibleText.forTerminal(text).utf8.elementsEqual(text.utf8))
    }

    @Test func decomposedTextSpellsOutItsCombiningMarks() {
        #expect(VisibleText.forTerminal(Self.decomposed) == "cafe<U+0301>")
        #expect(VisibleText.forTerminal("Placement \"\(Self.decomposed)\" and \"\(Self.composed)\"") == "Placement \"cafe<U+0301>\" and \"caf\u{E9}\"")
        // A singleton (the Kelvin sign is K under NFC) and decomposed Hangul are spelled out too.
        #expect(VisibleText.forTerminal("\u{212A}ey") == "<U+212A>ey")
        #expect(VisibleText.forTerminal("\u{1100}\u{1161}") != "\u{1100}\u{1161}")
    }

    static func snapshot(_ keys: [String], generatedAt: Int = 1_780_000_000_000) -> String {
        let entries = keys.map { key in
            #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},"paywall":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}}"#
        }
        return #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"p","placements":{\#(entries.joined(separator: ","))}}"#
    }

    @Test func diffPrintsTheTwoKeysDifferently() {
        let result = run(
            ["diff", "old.json", "new.json"],
            files: ["old.json": Self.snapshot([Self.composed]), "new.json": Self.snapshot([Self.decomposed])])
        let lines = result.output.split(separator: "\n")
        #expect(lines.contains { $0.contains("[placement-removed]") && $0.contains("caf\u{E9}") && !$0.contains("<U+0301>") }, "\(result.output)")
        #expect(lines.contains { $0.contains("[placement-added]") && $0.contains("cafe<U+0301>") }, "\(result.output)")
    }

    @Test func checkPrintsTheDecomposedKeyDistinctly() {
        // Both entries' revisions are strings, so the SDK skips both and a finding names each.
        let text = Self.snapshot([Self.composed, Self.decomposed]).replacingOccurrences(of: #""revision":1"#, with: #""revision":"1""#)
        let result = run(["check", "--fail-on", "never", "both.json"], files: ["both.json": text])
        let lines = result.output.split(separator: "\n").filter { $0.contains("[entry-skipped]") }.map { $0.drop { $0 != " " } }
        #expect(lines.count == 2, "\(result.output)")
        #expect(Set(lines).count == 2, "\(result.output)")
        #expect(lines.contains { $0.contains("\"cafe<U+0301>\"") }, "\(result.output)")
    }

    @Test func historyPrintsTheTwoKeysDifferently() throws {
        try withInputTestFolder { folder in
            try Data(Self.snapshot([Self.composed]).utf8).write(to: URL(fileURLWithPath: folder + "/1.json"))
            try Data(Self.snapshot([Self.decomposed], generatedAt: 1_781_000_000_000).utf8).write(to: URL(fileURLWithPath: folder + "/2.json"))
            let result = runWithDiskReads(["history", folder, "--stale-after", "100000"])
            #expect(result.output.contains("cafe<U+0301>"), "\(result.output)")
            #expect(result.output.contains("caf\u{E9}"), "\(result.output)")
        }
    }
}
