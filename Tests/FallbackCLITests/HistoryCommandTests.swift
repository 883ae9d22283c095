import Foundation
import Testing

@Suite("fallback-site history")
struct HistoryCommandTests {
    /// A snapshot whose one placement has `revision` and serves paywall `paywall`.
    static func snapshot(generatedAt: Int, revision: Int, paywall: String = "pw", project: String = "proj_1") -> String {
        #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"\#(project)","placements":{"a":{"placement":{"identifier":"a","revision":\#(revision)},"paywall":{"id":"\#(paywall)","identifier":"\#(paywall)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}}}}"#
    }

    func write(_ files: [String: String]) throws -> String {
        let folder = try temporaryFolder()
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return folder
    }

    @Test func theExamplesFoldCleanlyAndTellTheirStory() throws {
        let result = run(["history", repositoryPath("Examples"), "--verbose"])
        #expect(result.status == 0)
        #expect(result.output.contains("1 added (streak_rescue) · 1 removed (spring_sale)"))
        #expect(result.output.contains("[content-changed-same-revision]"))
        #expect(result.output.hasSuffix("5 snapshots; 5 infos\n"))
    }

    @Test func staleAfterTurnsTheNewestSnapshotStale() {
        // The test clock reads 2026-09-21; the newest example is from 2026-07-21.
        let result = run(["history", repositoryPath("Examples"), "--stale-after", "30", "--fail-on", "warning"])
        #expect(result.status == 1)
        #expect(result.output.contains("[snapshot-stale]"))
        #expect(run(["history", repositoryPath("Examples"), "--stale-after", "0"]).status == 2)
    }

    @Test func aRevisionThatGoesDownFailsTheRun() throws {
        let folder = try write([
            "1.json": Self.snapshot(generatedAt: 1_780_000_000_000, revision: 5),
            "2.json": Self.snapshot(generatedAt: 1_781_000_000_000, revision: 3),
        ])
        let result = run(["history", folder + "/1.json", folder + "/2.json"])
        #expect(result.status == 1)
        #expect(result.output.contains(": error: [revision-regressed]"))
        #expect(run(["history", folder + "/1.json", folder + "/2.json", "--fail-on", "never"]).status == 0)
    }

    @Test func anotherProjectIsAnError() throws {
        let folder = try write([
            "1.json": Self.snapshot(generatedAt: 1_780_000_000_000, revision: 1),
            "2.json": Self.snapshot(generatedAt: 1_781_000_000_000, revision: 1, project: "proj_staging"),
        ])
        let result = run(["history", folder, "--format", "github"])
        #expect(result.status == 1)
        #expect(result.output.contains("::error file=\(folder)/2.json,line=1,col="))
        #expect(result.output.contains("title=project-changed"))
    }

    @Test func jsonListsSnapshotsPlacementsAndFindings() throws {
        let report = try jsonObject(run(["history", repositoryPath("Examples"), "--format", "json"]).output)
        #expect((report["snapshots"] as? [[String: Any]])?.count == 5)
        let placements = try #require(report["placements"] as? [[String: Any]])
        let spring = try #require(placements.first { $0["key"] as? String == "spring_sale" })
        #expect((spring["revisions"] as? [[String: Any]])?.compactMap { $0["revision"] as? String } == ["1", "2"])
        #expect((report["summary"] as? [String: Int])?["infos"] == 5)
    }

    @Test func oneFileIsATimelineOfOne() {
        let result = run(["history", repositoryPath("Examples/2026-03-03-release-3.0.json")])
        #expect(result.status == 0)
        #expect(result.output.contains("1 snapshot;"))
    }
}
