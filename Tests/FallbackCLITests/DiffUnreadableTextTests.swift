import Foundation
import Testing

/// `diff` with an unreadable path once printed nothing on standard output in text, and in JSON
/// gave a `fatal` without `rule`, `summary` and `severity` and counted nothing; `check` names the
/// file in its report, once, with those fields. Now `diff` does as `check` does.
@Suite("diff: an unreadable path is reported as check reports it")
struct DiffUnreadableTextTests {
    @Test func textPrintsTheErrorLineAndNothingOnStandardError() {
        let good = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let result = run(["diff", "/nonexistent/nope.json", "good.json"], files: ["good.json": good])
        #expect(result.status == 2)
        #expect(result.output.contains("/nonexistent/nope.json: error: [file-unreadable] cannot read /nonexistent/nope.json: no such file\n"))
        #expect(!result.error.contains("cannot read"))
    }

    @Test func jsonFatalHasTheRuleAndIsCounted() throws {
        let good = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let result = run(["diff", "good.json", "/nonexistent/nope.json", "--format", "json"], files: ["good.json": good])
        #expect(result.status == 2)
        #expect(!result.error.contains("cannot read"))
        let object = try jsonObject(result.output)
        let new = try #require(object["new"] as? [String: Any])
        let fatal = try #require(new["fatal"] as? [String: Any])
        #expect(fatal["rule"] as? String == "file-unreadable")
        #expect(fatal["severity"] as? String == "error")
        #expect((fatal["summary"] as? String)?.isEmpty == false)
        #expect((object["summary"] as? [String: Any])?["breaking"] as? Int == 1)
    }

    @Test func ciFormatsStillSayItOnStandardError() {
        let good = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let result = run(["diff", "/nonexistent/nope.json", "good.json", "--format", "github"], files: ["good.json": good])
        #expect(result.status == 2)
        #expect(result.error.contains("error: cannot read /nonexistent/nope.json: no such file"))
    }
}
