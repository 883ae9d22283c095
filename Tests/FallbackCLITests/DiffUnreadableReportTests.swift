import Foundation
import Testing

/// `diff` with a snapshot it cannot read once wrote nothing at all in JSON, while `check` writes
/// the file with its `fatal` error: a job reading the JSON found an empty document. Now each side
/// says whether it was read, with `fatal` as `check` writes it; the exit status stays 2.
@Suite("diff: an unreadable snapshot in JSON")
struct DiffUnreadableReportTests {
    @Test func jsonNamesTheUnreadableSideWithItsFatalError() throws {
        let good = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let result = run(["diff", "/nonexistent/nope.json", "good.json", "--format", "json"], files: ["good.json": good])
        #expect(result.status == 2)
        // Named in the report, as check names it, and not again on standard error.
        #expect(!result.error.contains("cannot read"))
        let object = try jsonObject(result.output)
        let old = try #require(object["old"] as? [String: Any])
        #expect(old["path"] as? String == "/nonexistent/nope.json")
        #expect(old["readable"] as? Bool == false)
        let fatal = try #require(old["fatal"] as? [String: Any])
        #expect(fatal["message"] as? String == "cannot read /nonexistent/nope.json: no such file")
        #expect(fatal["line"] is NSNull && fatal["column"] is NSNull)
        let new = try #require(object["new"] as? [String: Any])
        #expect(new["path"] as? String == "good.json")
        #expect(new["readable"] as? Bool == true)
        #expect(new["fatal"] is NSNull)
        #expect((object["changes"] as? [Any])?.isEmpty == true)
        #expect((object["rebucketing"] as? [Any])?.isEmpty == true)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["failed"] as? Bool == true)
        // The unreadable path is a file-unreadable error, counted as breaking.
        #expect(summary["breaking"] as? Int == 1)
    }

    @Test func bothSidesUnreadable() throws {
        let result = run(["diff", "/nonexistent/a.json", "/nonexistent/b.json", "--format", "json"])
        #expect(result.status == 2)
        let object = try jsonObject(result.output)
        for side in ["old", "new"] {
            let snapshot = try #require(object[side] as? [String: Any])
            #expect(snapshot["readable"] as? Bool == false)
            #expect((snapshot["fatal"] as? [String: Any])?["message"] as? String != nil)
        }
    }

    /// A comparison that ran says both sides were read, so one key tells a reader which kind it has.
    @Test func aComparisonThatRanSaysBothSidesWereRead() throws {
        let old = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let new = HistoryCommandTests.snapshot(generatedAt: 1_781_000_000_000, revision: 2)
        let result = run(["diff", "old.json", "new.json", "--format", "json"], files: ["old.json": old, "new.json": new])
        let object = try jsonObject(result.output)
        #expect((object["old"] as? [String: Any])?["readable"] as? Bool == true)
        #expect((object["new"] as? [String: Any])?["readable"] as? Bool == true)
    }
}
