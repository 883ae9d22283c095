import Foundation
import Testing

/// `context` prints the Changes and History pages' contexts, given the inputs `build` takes for them.
@Suite("context of the changes and history pages")
struct ContextSeriesPagesTests {
    static let examples = repositoryPath("Examples")
    static let older = repositoryPath("Examples/2026-05-19-release-3.2.json")
    static let newest = repositoryPath("Examples/2026-06-23-release-3.3.json")

    /// The arguments, and the names the page gives the snapshot and its baseline.
    static let changes: [(arguments: [String], snapshot: String, baseline: String)] = [
        (["context", examples, "--page", "changes"], "2026-07-21-release-3.4.json", "2026-06-23-release-3.3.json"),
        (["context", newest, "--baseline", older, "--page", "changes"], newest, older),
        (["context", older, newest, "--page", "changes"], "2026-06-23-release-3.3.json", "2026-05-19-release-3.2.json"),
    ]

    @Test(arguments: changes.indices)
    func theChangesPage(index: Int) throws {
        let (arguments, snapshot, baseline) = Self.changes[index]
        let result = runAt(arguments, clock: Date())
        #expect(result.status == 0, "\(result.error)")
        let context = try jsonObject(result.output)
        #expect(context["kind"] as? String == "changes")
        #expect(context["snapshot"] as? String == snapshot)
        #expect(context["baseline"] as? String == baseline)
    }

    /// Snapshot pages and pair pages take positions, and a wrong one says which exist (review of issue 9).
    @Test(arguments: [
        (["--page", "snapshot:2026-07-21-release-3.4"], "(snapshot pages take a position, oldest first: 0 to 4)"),
        (["--page", "changes:9"], "(pair pages are numbered from 0, oldest pair first: 0 to 3)"),
    ])
    func aWrongPositionSaysWhichExist(page: [String], hint: String) throws {
        let result = runAt(["context", Self.examples] + page, clock: Date())
        #expect(result.status == 1)
        #expect(result.error.hasSuffix(hint + "\n"), "\(result.error)")
    }

    @Test func snapshotAndPairPagesByPosition() throws {
        let snapshot = runAt(["context", Self.examples, "--page", "snapshot:0"], clock: Date())
        #expect(snapshot.status == 0, "\(snapshot.error)")
        #expect(try jsonObject(snapshot.output)["kind"] as? String == "snapshot")
        let pair = runAt(["context", Self.examples, "--page", "changes:0"], clock: Date())
        #expect(pair.status == 0, "\(pair.error)")
        #expect(try jsonObject(pair.output)["baseline"] as? String == "2026-03-03-release-3.0.json")
        // One snapshot has no series to walk.
        let single = runAt(["context", Self.newest, "--page", "snapshot:0"], clock: Date())
        #expect(single.status == 1)
        #expect(single.error.contains("(it needs several snapshots, a folder of them or --git-history PATH)"))
    }

    @Test func theHistoryPageOfAFolder() throws {
        let result = runAt(["context", Self.examples, "--page", "history"], clock: Date())
        #expect(result.status == 0, "\(result.error)")
        let context = try jsonObject(result.output)
        #expect(context["kind"] as? String == "history")
        for name in ["2026-03-03-release-3.0.json", "2026-06-23-release-3.3.json"] {
            #expect(result.output.contains(name))
        }
    }

    /// The context is the page `build` writes from the same inputs: its time is `--now`, else
    /// `SOURCE_DATE_EPOCH`, else none, never the clock.
    @Test func theTimeIsNowElseSourceDateEpochNeverTheClock() {
        let byClock = runAt(["context", Self.examples, "--page", "history"], clock: Date(timeIntervalSince1970: 1_811_808_000))
        let otherClock = runAt(["context", Self.examples, "--page", "history"], clock: Date(timeIntervalSince1970: 1_782_864_000))
        #expect(byClock.output == otherClock.output)
        let byNow = runAt(["context", Self.examples, "--page", "history", "--now", "2027-06-01T00:00:00Z"], clock: Date())
        let byVariable = runAt(["context", Self.examples, "--page", "history"], clock: Date(), variables: ["SOURCE_DATE_EPOCH": "1811808000"])
        #expect(byNow.status == 0)
        #expect(byNow.output == byVariable.output)
        #expect(byNow.output != byClock.output)
        #expect(byNow.output.contains("snapshot-stale"))
    }

    @Test(arguments: ["changes", "history"])
    func oneSnapshotHasNoSuchPageAndSaysWhatItNeeds(page: String) {
        let result = runAt(["context", Self.newest, "--page", page], clock: Date())
        #expect(result.status == 1)
        #expect(result.error.contains("has no \(page) page"))
        #expect(result.error.contains(page == "changes" ? "--baseline FILE" : "--git-history PATH"))
    }

    @Test func anUnreadableBaselineIsAnUnreadablePath() {
        let result = runAt(["context", Self.newest, "--baseline", "/nonexistent/old.json", "--page", "changes"], clock: Date())
        #expect(result.status == 2)
        #expect(result.error == "error: cannot read /nonexistent/old.json: no such file\n")
    }
}
