import Foundation
import Testing

/// `history SNAPSHOT`: one file is a timeline of one. The checks that need a pair have nothing to
/// say; `snapshot-stale` and `file-rejected` still apply.
@Suite("history of one snapshot")
struct SingleSnapshotHistoryTests {
    static let snapshot = repositoryPath("Examples/2026-06-23-release-3.3.json")

    @Test func oneSnapshotIsATimelineOfOne() throws {
        let result = runAt(["history", Self.snapshot, "--format", "json", "--now", "2026-07-01T00:00:00Z"], clock: Date())
        #expect(result.status == 0, "\(result.error)")
        let report = try jsonObject(result.output)
        #expect((report["snapshots"] as? [[String: Any]])?.count == 1)
        #expect((report["findings"] as? [[String: Any]])?.isEmpty ?? true)
    }

    @Test func aStaleSnapshotIsStillReported() {
        let result = runAt(["history", Self.snapshot, "--fail-on", "warning", "--now", "2027-06-01T00:00:00Z"], clock: Date())
        #expect(result.status == 1)
        #expect(result.output.contains("\(Self.snapshot):1:34: warning: [snapshot-stale]"))
        #expect(result.output.hasSuffix("1 snapshot; 1 warning\n"))
    }

    @Test func aRejectedSnapshotFails() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"formatVersion":2}"#.utf8).write(to: URL(fileURLWithPath: folder + "/bad.json"))
        let result = runAt(["history", folder + "/bad.json", "--fail-on", "never"], clock: Date())
        #expect(result.status == 1)
        #expect(result.output.contains("error: [file-rejected]"))
    }

    @Test func noSnapshotIsAUsageError() {
        let result = run(["history"])
        #expect(result.status == 2)
        #expect(result.error.contains("Give one or more snapshots, a folder of them, or --git-history <path>"))
    }
}
