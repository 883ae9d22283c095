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

    /// JUnit has a case per placement only for the rules about a placement (`revision-regressed`,
    /// `content-changed-same-revision`); the rules about snapshots as a whole have one case for the
    /// series. Each had a case per key ever seen: 1,000,000 keys wrote 565 MB.
    @Test func junitListsSnapshotRulesOncePerSeries() throws {
        let result = run(["history", repositoryPath("Examples"), "--stale-after", "30", "--fail-on", "warning", "--format", "junit"])
        let xml = XMLSummary.parse(result.output)
        #expect(xml.error == nil)
        let names = try #require(xml.attributes["testcase"]).compactMap { $0["name"] }
        let keys = ["home_banner", "onboarding", "onboarding_v2", "paywall_settings", "sleep_setup", "spring_sale",
                    "streak_rescue", "trial_ending", "winback"]
        let perPlacement = ["revision-regressed", "content-changed-same-revision"]
        let perSeries = ["project-changed", "snapshot-stale", "snapshot-tie", "snapshot-back-in-time"]
        #expect(Set(names) == Set(["file-rejected"] + perSeries + keys.flatMap { key in perPlacement.map { "\(key)/\($0)" } }))
        #expect(names.count == 1 + perSeries.count + keys.count * perPlacement.count)
        #expect(xml.counts["failure"] == 1, "snapshot-stale, once")
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
        // A revision's first snapshot is named by its place in `snapshots`, with its name and
        // time; the path is there, once.
        let snapshots = try #require(report["snapshots"] as? [[String: Any]]).compactMap { $0["snapshot"] as? [String: Any] }
        for revision in try #require(spring["revisions"] as? [[String: Any]]) {
            let seen = try #require(revision["firstSeen"] as? [String: Any])
            let index = try #require(seen["index"] as? Int)
            #expect(seen["name"] as? String == snapshots[index]["name"] as? String)
            #expect(seen["generatedAt"] as? Int == snapshots[index]["generatedAt"] as? Int)
            #expect(seen["path"] == nil && (snapshots[index]["path"] as? String)?.hasSuffix(".json") == true)
        }
    }

    /// A commit's subject is in `snapshots` once, not in every revision it first shows: a long
    /// subject over many placements made the JSON their product.
    @Test func aCommitsSubjectIsWrittenOnceInJSON() throws {
        try withInputTestFolder { repository in
            func git(_ arguments: String...) throws { try runGit(arguments, in: repository) }
            try git("init", "-q")
            try git("config", "user.email", "ci@example.com")
            try git("config", "user.name", "CI")
            let placements = (0..<50).map { #""p\#($0)":{"placement":{"identifier":"p\#($0)","revision":1}}"# }.joined(separator: ",")
            try Data(#"{"formatVersion":1,"placements":{\#(placements)}}"#.utf8).write(to: URL(fileURLWithPath: repository + "/rovenue-fallback.json"))
            let subject = "Release " + String(repeating: "s", count: 10_000)
            try git("add", "rovenue-fallback.json")
            try git("commit", "-q", "-m", subject)
            let result = runWithDiskReads(["history", "--git-history", repository + "/rovenue-fallback.json", "--format", "json"])
            #expect(result.output.components(separatedBy: subject).count - 1 == 1)
            let report = try jsonObject(result.output)
            let placementList = try #require(report["placements"] as? [[String: Any]])
            #expect(placementList.count == 50)
            let seen = try #require((placementList.first?["revisions"] as? [[String: Any]])?.first?["firstSeen"] as? [String: Any])
            #expect(seen["index"] as? Int == 0)
            #expect((seen["commit"] as? [String: Any])?["subject"] == nil && (seen["commit"] as? [String: Any])?["hash"] is String)
        }
    }

    @Test func oneFileIsATimelineOfOne() {
        let result = run(["history", repositoryPath("Examples/2026-03-03-release-3.0.json")])
        #expect(result.status == 0)
        #expect(result.output.contains("1 snapshot;"))
    }
}
