import Foundation
import Testing

/// `diff` text once listed every change on its own line, so two samples of 60 placements gave a
/// screen per kind, while `check` and `history` group three or more findings of one rule in one
/// file under one heading (`FindingListText`). Now `diff` groups three or more changes of one kind
/// in one class under `[kind] N changes`, each change still on its own indented line.
@Suite("diff text: repeated changes of one kind are grouped")
struct DiffTextGroupingTests {
    static func sample(seed: Int) -> String {
        run(["sample", "--placements", "60", "--seed", String(seed), "--out", "-"]).output
    }

    @Test func manyChangesOfOneKindShareOneHeading() throws {
        let result = run(["diff", "a.json", "b.json"], files: ["a.json": Self.sample(seed: 1), "b.json": Self.sample(seed: 2)])
        let json = run(["diff", "a.json", "b.json", "--format", "json"], files: ["a.json": Self.sample(seed: 1), "b.json": Self.sample(seed: 2)])
        let changes = try #require(try jsonObject(json.output)["changes"] as? [[String: Any]])
        let removed = changes.filter { $0["kind"] as? String == "placement-removed" }
        #expect(removed.count >= 3)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let headings = lines.filter { $0.contains("[placement-removed]") }
        #expect(headings == ["  [placement-removed] \(removed.count) changes"])
        // Each change keeps its placement and its message, indented under the heading.
        for change in removed {
            let key = try #require(change["placement"] as? String)
            let message = try #require(change["message"] as? String)
            #expect(lines.contains("    - \(key) \(message)"), "\(key)")
        }
    }

    @Test func twoChangesOfOneKindStayOnTheirOwnLines() {
        let old = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1)
        let new = HistoryCommandTests.snapshot(generatedAt: 1_781_000_000_000, revision: 2)
        let result = run(["diff", "old.json", "new.json", "--verbose"], files: ["old.json": old, "new.json": new])
        #expect(result.output.contains("  - a [revision-changed] "))
        #expect(!result.output.contains(" changes\n  "))
    }
}
