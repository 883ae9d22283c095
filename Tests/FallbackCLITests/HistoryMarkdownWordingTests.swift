import Foundation
import Testing

/// The Markdown history report once read "1 of 1 file fails" about a series of snapshots, and
/// gave its counts twice on one line ("2 snapshots; 1 error, 1 warning (1 error, 1 warning)").
@Suite("History Markdown reads as a history")
struct HistoryMarkdownWordingTests {
    func markdown(_ snapshots: [String], failOn: String) throws -> String {
        try withInputTestFolder { folder in
            for (index, text) in snapshots.enumerated() {
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/\(index + 1).json"))
            }
            return runWithDiskReads(["history", folder, "--format", "markdown", "--fail-on", failOn, "--stale-after", "100000"]).output
        }
    }

    @Test func aFailingHistorySaysSoOnceWithItsCounts() throws {
        let output = try markdown(
            [
                HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 5),
                HistoryCommandTests.snapshot(generatedAt: 1_781_000_000_000, revision: 3),
                "not json",
            ], failOn: "error")
        #expect(output.contains("**❌ The history fails** (fail-on: error) · 2 errors"), "\(output)")
        #expect(!output.contains("file fails"), "\(output)")
        #expect(output.contains("- ❌ <code>history of 3 snapshots</code>: 1 of 3 snapshots is rejected (2 errors)\n"), "\(output)")
    }

    @Test func aPassingHistorySaysSo() throws {
        let output = try markdown(
            [
                HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1),
                HistoryCommandTests.snapshot(generatedAt: 1_781_000_000_000, revision: 2),
            ], failOn: "error")
        #expect(output.contains("**✅ The history passes** (fail-on: error)"), "\(output)")
        #expect(output.contains("- ✅ <code>history of 2 snapshots</code>: every snapshot loads ("), "\(output)")
        #expect(!output.contains("2 snapshots;"), "\(output)")
    }
}
