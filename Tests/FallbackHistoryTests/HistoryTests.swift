import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
@testable import FallbackHistory
import FallbackHistoryTestSupport
import FallbackTestSupport

// MARK: - Support

/// The history findings of a series written as a JSON array of snapshots (the form of the
/// examples in `docs/rules.md`), checked at `testNow` with the default threshold.
func historyFindings(_ series: String) throws -> [Finding] {
    let document = JSONDocument(text: series)
    let texts = document.root.elements.map { String(decoding: document.bytes[$0.byteRange], as: UTF8.self) }
    return try timeline(texts).findings.map(\.finding)
}

let examplesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples").path

let exampleNames = [
    "2026-03-03-release-3.0.json", "2026-04-14-release-3.1.json", "2026-05-19-release-3.2.json",
    "2026-06-23-release-3.3.json", "2026-07-21-release-3.4.json",
]

/// An entry `key` at `revision` serving paywall `paywall`.
func paywallEntry(_ key: String, revision: String = "1", paywall: String = "pw") -> String {
    #""\#(key)":{"placement":\#(Snap.placement(key, revision: revision)),"paywall":\#(Snap.paywall(paywall))}"#
}

/// Everything a timeline says except snapshot names and commits, one line per fact; snapshot
/// names inside messages are replaced by their index.
func facts(_ timeline: Timeline) -> [String] {
    let names = timeline.snapshots.map(\.stamp).sorted { $0.name.count > $1.name.count }
    func anonymous(_ text: String) -> String {
        names.reduce(text) { $0.replacingOccurrences(of: $1.name, with: "#\($1.index)") }
    }
    func stamp(_ stamp: SnapshotStamp) -> String { "#\(stamp.index)@\(stamp.generatedAt.map(String.init) ?? "-")" }
    var lines = timeline.snapshots.map { record in
        "snapshot \(stamp(record.stamp)) source \(record.sourceIndex) project \(record.projectId ?? "-") "
            + "rejected \(record.rejection != nil) \(record.countsSummary) | \(record.changes.summary) | \(record.changes.hashValue)"
    }
    for history in timeline.placements {
        for revision in history.revisions {
            lines.append(
                "\(history.key) \(stamp(revision.firstSeen))…\(stamp(revision.lastSeen)) rev \(revision.revisionText ?? "-") "
                    + "id \(revision.identifier ?? "-") \(revision.served.map(String.init(describing:)) ?? "removed") "
                    + "\(revision.fingerprint?.hexString ?? "-") \(revision.changes.rawValue) | \(revision.summary)")
        }
    }
    lines += timeline.findings.map { "\(stamp($0.snapshot)) \(anonymous($0.finding.description))" }
    lines.append("current \(timeline.currentIndex.map(String.init) ?? "-")")
    return lines
}

/// Runs `git` in `directory`; fails the test on a non-zero exit.
@discardableResult
func runGit(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git"] + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " ")): \(text)")
    return text
}

/// A fresh temporary folder, removed by `body`'s end.
func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
}

/// A git repository with a local identity and no signing.
func makeRepository(_ folder: String) throws {
    try runGit(["-c", "init.defaultBranch=main", "init", "-q"], in: folder)
    try runGit(["config", "user.name", "History Test"], in: folder)
    try runGit(["config", "user.email", "history@example.com"], in: folder)
    try runGit(["config", "commit.gpgsign", "false"], in: folder)
}

// MARK: - Examples

@Suite("History: the Examples as a series")
struct ExamplesHistoryTests {
    static let examples = Result { try SnapshotSeries(SnapshotFolder(path: examplesPath)).timeline() }

    @Test func snapshotsInOrderWithCountsAndChanges() throws {
        let timeline = try Self.examples.get()
        #expect(timeline.snapshots.map(\.stamp.name) == exampleNames)
        #expect(timeline.snapshots.map(\.stamp.generatedAt) == [1772529161000, 1776182588000, 1779180475000, 1782214219000, 1784642737000])
        #expect(timeline.snapshots.map(\.entryCount) == [7, 7, 7, 8, 7])
        #expect(timeline.snapshots.map(\.loadedCount) == [7, 7, 7, 7, 6])
        #expect(timeline.snapshots.map(\.skippedCount) == [0, 0, 0, 1, 1])
        #expect(timeline.snapshots.allSatisfy { $0.projectId == "proj_7Hq2Vx9LmK4tRw" && $0.rejection == nil })
        #expect(timeline.snapshots.map(\.findingCounts.errors) == [0, 1, 0, 1, 1])
        #expect(timeline.currentIndex == 4)

        let changes = timeline.snapshots.map(\.changes)
        #expect(changes[0].isBaseline)
        #expect(changes[0].summary == "baseline: 7 placements")
        // 3.1: a funnel edit and a winback funnel v3 under the same revisions; spring_sale bumped, same content.
        #expect(changes[1].revisionBumps == [.init(key: "spring_sale", from: 1, to: 2)])
        #expect(changes[1].contentChanges == ["onboarding", "winback"])
        #expect(changes[1].added.isEmpty && changes[1].removed.isEmpty)
        // 3.2: the experiment grows; a branching rule; streak_rescue added, spring_sale removed; winback fixed.
        #expect(changes[2].added == ["streak_rescue"])
        #expect(changes[2].removed == ["spring_sale"])
        #expect(changes[2].revisionBumps == [.init(key: "onboarding", from: 4, to: 5)])
        #expect(changes[2].contentChanges == ["onboarding", "sleep_setup", "winback"])
        // 3.3: the alias key, trial_ending skipped, the translation fixed, home_banner bumped.
        #expect(changes[3].added == ["onboarding_v2"])
        #expect(changes[3].revisionBumps == [.init(key: "home_banner", from: 2, to: 3)])
        #expect(changes[3].contentChanges == ["onboarding", "trial_ending"])
        #expect(changes[3].stoppedDecoding == ["trial_ending"])
        // 3.4: the alias gone, the experiment concluded, trial_ending back, paywall_settings skipped.
        #expect(changes[4].removed == ["onboarding_v2"])
        #expect(changes[4].revisionBumps == [
            .init(key: "onboarding", from: 5, to: 6), .init(key: "paywall_settings", from: 3, to: 4),
            .init(key: "trial_ending", from: 4, to: 5),
        ])
        #expect(changes[4].contentChanges == ["onboarding", "paywall_settings"])
        #expect(changes[4].stoppedDecoding == ["paywall_settings"])
        #expect(changes[4].decodesAgain == ["trial_ending"])
        #expect(changes[2].summary
            == "1 added (streak_rescue) · 1 removed (spring_sale) · 1 revision bump (onboarding 4 → 5) · "
            + "3 content changes (onboarding, sleep_setup, winback)")
    }

    /// Each placement's states: (first snapshot index, revision as written, what it serves, summary).
    @Test func everyPlacementRevisionTheReadmeTells() throws {
        let timeline = try Self.examples.get()
        #expect(timeline.placements.map(\.key) == [
            "home_banner", "onboarding", "onboarding_v2", "paywall_settings", "sleep_setup", "spring_sale", "streak_rescue",
            "trial_ending", "winback",
        ])
        func states(_ key: String) throws -> [String] {
            try #require(timeline.placement(key)).revisions.map { revision in
                "\(revision.firstSeen.index)-\(revision.lastSeen.index) \(revision.revisionText ?? "-") "
                    + "\(revision.served.map(String.init(describing:)) ?? "removed") | \(revision.summary)"
            }
        }
        #expect(try states("home_banner") == [
            "0-2 2 nothing (no funnel, paywall or experiment) | first seen at rev 2: nothing (no funnel, paywall or experiment)",
            "3-4 3 nothing (no funnel, paywall or experiment) | rev 2 → 3; same content",
        ])
        #expect(try states("onboarding") == [
            "0-0 4 experiment exp_onb_quiz_len (control 0.5, short_quiz 0.5) | first seen at rev 4: experiment exp_onb_quiz_len (control 0.5, short_quiz 0.5)",
            "1-1 4 experiment exp_onb_quiz_len (control 0.5, short_quiz 0.5) | experiment exp_onb_quiz_len: control: funnel fnl_calm_quiz v5 → v6",
            "2-2 5 experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33) | rev 4 → 5; experiment exp_onb_quiz_len: variant breath_first added (funnel fnl_breath_first v1), weights 0.5/0.5 → 0.34/0.33/0.33",
            "3-3 5 experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33) | experiment exp_onb_quiz_len: control: funnel fnl_calm_quiz v6 → v7",
            "4-4 6 funnel fnl_breath_first v2 | rev 5 → 6; experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33) → funnel fnl_breath_first v2",
        ])
        #expect(try states("onboarding_v2") == [
            "3-3 5 experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33) | added at rev 5: experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33) (identifier \"onboarding\")",
            "4-4 - removed | removed; was rev 5: experiment exp_onb_quiz_len (control 0.34, short_quiz 0.33, breath_first 0.33)",
        ])
        #expect(try states("paywall_settings") == [
            "0-3 3 paywall pwl_premium_std | first seen at rev 3: paywall pwl_premium_std",
            "4-4 4 nothing (the entry does not decode) | rev 3 → 4; no longer decodes (at /placements/paywall_settings/experiment/variants/2, expected a variant with a funnel or a paywall, found neither); was paywall pwl_premium_std",
        ])
        #expect(try states("sleep_setup") == [
            "0-1 2 funnel fnl_sleep_setup v3 | first seen at rev 2: funnel fnl_sleep_setup v3",
            "2-4 2 funnel fnl_sleep_setup v4 | funnel fnl_sleep_setup v3 → v4",
        ])
        #expect(try states("spring_sale") == [
            "0-0 1 funnel fnl_spring_sale v1 | first seen at rev 1: funnel fnl_spring_sale v1",
            "1-1 2 funnel fnl_spring_sale v1 | rev 1 → 2; same content",
            "2-4 - removed | removed; was rev 2: funnel fnl_spring_sale v1",
        ])
        #expect(try states("streak_rescue") == ["2-4 1 funnel fnl_streak_rescue v1 | added at rev 1: funnel fnl_streak_rescue v1"])
        #expect(try states("trial_ending") == [
            "0-2 4 paywall pwl_trial_end | first seen at rev 4: paywall pwl_trial_end",
            "3-3 \"5\" nothing (the entry does not decode) | revision 4 → \"5\"; no longer decodes (at /placements/trial_ending/placement/revision, expected an integer, found the string \"5\"); was paywall pwl_trial_end",
            "4-4 5 paywall pwl_trial_end_v2 | rev 4 → 5; decodes again: serves paywall pwl_trial_end_v2",
        ])
        #expect(try states("winback") == [
            "0-0 3 funnel fnl_winback v2 | first seen at rev 3: funnel fnl_winback v2",
            "1-1 3 funnel fnl_winback v3 | funnel fnl_winback v2 → v3",
            "2-4 3 funnel fnl_winback v3 | funnel fnl_winback v3 changed, same version",
        ])
        let spring = try #require(timeline.placement("spring_sale"))
        #expect(spring.revisions[0].fingerprint == spring.revisions[1].fingerprint)
        #expect(spring.revisions[1].changes == [.revisionRaised])
        #expect(spring.latest.isRemoved)
        #expect(spring.firstSeen.name == exampleNames[0])
        #expect(try #require(timeline.placement("trial_ending")).revisions[1].changes.contains(.stoppedDecoding))
        #expect(timeline.placement("no_such_key") == nil)
    }

    @Test func findingsAreTheContentChangesUnderAnUnchangedRevision() throws {
        let timeline = try Self.examples.get()
        #expect(timeline.findings.map { "\($0.snapshot.index) \($0.finding.ruleId) \($0.finding.placementKey ?? "-")" } == [
            "1 content-changed-same-revision onboarding", "1 content-changed-same-revision winback",
            "2 content-changed-same-revision sleep_setup", "2 content-changed-same-revision winback",
            "3 content-changed-same-revision onboarding",
        ])
        let first = try #require(timeline.findings.first)
        #expect(first.finding.severity == .info)
        #expect(first.finding.pointer == "/placements/onboarding")
        #expect(first.finding.message.contains("at the same revision 4 as in 2026-03-03-release-3.0.json"))
        #expect(first.finding.message.contains("funnel fnl_calm_quiz v5 → v6"))
    }

    @Test func theExamplesGoStaleNinetyDaysAfterTheLastRelease() throws {
        let series = try SnapshotSeries(SnapshotFolder(path: examplesPath))
        let july = Date(timeIntervalSince1970: 1_784_642_737)
        let fresh = try series.timeline(HistoryOptions(now: july.addingTimeInterval(90 * 86_400)))
        #expect(!fresh.findings.contains { $0.finding.ruleId == "snapshot-stale" })
        let stale = try series.timeline(HistoryOptions(now: july.addingTimeInterval(91 * 86_400)))
        let finding = try #require(stale.findings.first { $0.finding.ruleId == "snapshot-stale" })
        #expect(finding.snapshot.name == exampleNames[4])
        #expect(finding.finding.pointer == "/generatedAt")
        #expect(finding.finding.message.contains("91 d"))
    }
}

// MARK: - Sources

@Suite("History: sources")
struct HistorySourceTests {
    /// The five Examples committed in turn as `rovenue-fallback.json`, one commit each, with fixed dates.
    @Test func gitHistoryGivesTheSameTimelineAsTheFolder() throws {
        try withTemporaryFolder { folder in
            try makeRepository(folder)
            let target = (folder as NSString).appendingPathComponent("rovenue-fallback.json")
            let dates = ["2026-03-03T10:00:00+00:00", "2026-04-14T17:00:00+00:00", "2026-05-19T09:00:00+00:00",
                         "2026-06-23T12:00:00+00:00", "2026-07-21T15:00:00+00:00"]
            for (name, date) in zip(exampleNames, dates) {
                try? FileManager.default.removeItem(atPath: target)
                try FileManager.default.copyItem(atPath: (examplesPath as NSString).appendingPathComponent(name), toPath: target)
                try runGit(["add", "rovenue-fallback.json"], in: folder)
                try runGit(
                    ["commit", "-q", "-m", "Bundle \(name)"], in: folder,
                    environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
            }
            // An unrelated commit does not add a snapshot.
            try "notes".write(toFile: (folder as NSString).appendingPathComponent("NOTES.md"), atomically: true, encoding: .utf8)
            try runGit(["add", "NOTES.md"], in: folder)
            try runGit(["commit", "-q", "-m", "Notes"], in: folder)

            let source = GitFileHistory(file: target)
            let references = try source.references()
            #expect(references.map { $0.commit?.subject } == exampleNames.map { "Bundle \($0)" })
            #expect(references.map { $0.commit?.authorDate } == dates)
            #expect(references.allSatisfy { $0.commit?.hash.count == 40 && $0.location == "rovenue-fallback.json" })
            #expect(references.allSatisfy { $0.name == "\($0.commit!.shortHash):rovenue-fallback.json" })

            let throughGit = try SnapshotSeries(source).timeline(HistoryOptions(now: testNow))
            let throughFolder = try SnapshotSeries(SnapshotFolder(path: examplesPath)).timeline(HistoryOptions(now: testNow))
            #expect(facts(throughGit) == facts(throughFolder))
            #expect(throughGit.snapshots.map { $0.stamp.commit?.subject } == exampleNames.map { "Bundle \($0)" })
            let onboarding = try #require(throughGit.placement("onboarding"))
            #expect(onboarding.revisions[2].firstSeen.commit?.subject == "Bundle 2026-05-19-release-3.2.json")
        }
    }

    /// A rename is followed; a commit that only renames repeats the snapshot, a tie. The file sits
    /// in a subfolder, so paths in the log are relative to the top level, not to the folder.
    @Test func gitHistoryFollowsRenames() throws {
        try withTemporaryFolder { folder in
            try makeRepository(folder)
            let app = (folder as NSString).appendingPathComponent("App")
            try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
            let old = (app as NSString).appendingPathComponent("fallback.json")
            try Snap.file(paywallEntry("a"), generatedAt: "1764000000000").write(toFile: old, atomically: true, encoding: .utf8)
            try runGit(["add", "App/fallback.json"], in: folder)
            try runGit(["commit", "-q", "-m", "First"], in: folder)
            try runGit(["mv", "App/fallback.json", "App/rovenue-fallback.json"], in: folder)
            try runGit(["commit", "-q", "-m", "Rename"], in: folder)
            let new = (app as NSString).appendingPathComponent("rovenue-fallback.json")
            try Snap.file(paywallEntry("a", revision: "2"), generatedAt: "1764100000000").write(toFile: new, atomically: true, encoding: .utf8)
            try runGit(["commit", "-q", "-am", "Second"], in: folder)

            let source = GitFileHistory(file: new)
            #expect(source.repository == app && source.path == "rovenue-fallback.json")
            #expect(try source.references().map(\.location) == ["App/fallback.json", "App/rovenue-fallback.json", "App/rovenue-fallback.json"])
            let timeline = try SnapshotSeries(source).timeline()
            #expect(timeline.snapshots.map { $0.stamp.commit?.subject } == ["First", "Rename", "Second"])
            #expect(timeline.snapshots[0].stamp.name.hasSuffix(":App/fallback.json"))
            #expect(timeline.findings.map(\.finding.ruleId) == ["snapshot-tie"])
            #expect(timeline.snapshots[1].changes.summary == "no placement changes")
            #expect(timeline.snapshots[2].changes.revisionBumps == [.init(key: "a", from: 1, to: 2)])
        }
    }

    /// Two branches raise different placements, and the merge takes both (a conflict on the one-line
    /// file, resolved by hand). The versions are the first-parent line, merge included: before, the
    /// merge was left out (HEAD's own version missing) and the other branch's commit came in date
    /// order among the branch's, so "b" read as going from revision 2 down to 1.
    @Test func gitHistoryIsTheFirstParentLineWithItsMerges() throws {
        try withTemporaryFolder { folder in
            try makeRepository(folder)
            let file = (folder as NSString).appendingPathComponent("rovenue-fallback.json")
            func commit(a: String, b: String, at seconds: Int, _ message: String, all: Bool = true) throws {
                try Snap.file(paywallEntry("a", revision: a) + "," + paywallEntry("b", revision: b), generatedAt: "\(seconds)000")
                    .write(toFile: file, atomically: true, encoding: .utf8)
                try runGit(["add", "rovenue-fallback.json"], in: folder)
                let date = ["GIT_COMMITTER_DATE": "\(seconds) +0000", "GIT_AUTHOR_DATE": "\(seconds) +0000"]
                try runGit(["commit", "-q", "-m", message], in: folder, environment: date)
            }
            try commit(a: "1", b: "1", at: 1_764_000_000, "Base")
            try runGit(["checkout", "-q", "-b", "side"], in: folder)
            try commit(a: "1", b: "2", at: 1_764_100_000, "Side: b 2")
            try runGit(["checkout", "-q", "main"], in: folder)
            try commit(a: "2", b: "1", at: 1_764_200_000, "Main: a 2")
            try runGit(["merge", "-q", "--no-ff", "-s", "ours", "--no-commit", "side"], in: folder)
            try commit(a: "2", b: "2", at: 1_764_300_000, "Merge side")

            let source = GitFileHistory(repository: folder, path: "rovenue-fallback.json")
            #expect(try source.references().map { $0.commit?.subject } == ["Base", "Main: a 2", "Merge side"])
            let timeline = try SnapshotSeries(source).timeline()
            #expect(timeline.snapshots.map { $0.stamp.commit?.subject } == ["Base", "Main: a 2", "Merge side"])
            #expect(timeline.currentIndex == 2)
            #expect(timeline.snapshots[2].changes.revisionBumps == [.init(key: "b", from: 1, to: 2)])
            #expect(!timeline.findings.contains { $0.finding.ruleId == "revision-regressed" })
            let head = try runGit(["rev-parse", "HEAD:rovenue-fallback.json"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try source.references().last?.object == head)
        }
    }

    /// A symbolic link committed at the path is read as no version (its blob is the path it points
    /// to), nor is a submodule (its object is another repository's commit): either is a clear error
    /// naming the commit, where the link's target was read as a rejected snapshot and the submodule
    /// failed with "no object … in the repository".
    @Test(arguments: ["a symbolic link", "a submodule"])
    func aLinkOrASubmoduleAtThePathIsAClearError(kind: String) throws {
        try withTemporaryFolder { folder in
            try makeRepository(folder)
            let file = (folder as NSString).appendingPathComponent("rovenue-fallback.json")
            try Snap.file(paywallEntry("a")).write(toFile: file, atomically: true, encoding: .utf8)
            try runGit(["add", "rovenue-fallback.json"], in: folder)
            try runGit(["commit", "-q", "-m", "File"], in: folder)
            try runGit(["rm", "-q", "rovenue-fallback.json"], in: folder)
            if kind == "a symbolic link" {
                try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "elsewhere.json")
                try runGit(["add", "rovenue-fallback.json"], in: folder)
            } else {
                let object = try runGit(["rev-parse", "HEAD"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
                try runGit(["update-index", "--add", "--cacheinfo", "160000,\(object),rovenue-fallback.json"], in: folder)
            }
            try runGit(["commit", "-q", "-m", "Replaced"], in: folder)
            let hash = try runGit(["rev-parse", "--short=7", "HEAD"], in: folder).trimmingCharacters(in: .whitespacesAndNewlines)
            let error = HistoryError.committedAsNonFile(path: "rovenue-fallback.json", commit: hash, kind: kind)
            #expect(throws: error) { try GitFileHistory(repository: folder, path: "rovenue-fallback.json").references() }
            #expect(error.description == "--git-history reads a committed file, and in commit \(hash) rovenue-fallback.json is \(kind)")
        }
    }

    @Test func aFolderThatIsNotARepositoryIsAClearError() throws {
        try withTemporaryFolder { folder in
            #expect(throws: HistoryError.notAGitRepository(path: folder)) {
                try GitFileHistory(repository: folder, path: "rovenue-fallback.json").references()
            }
            let missing = (folder as NSString).appendingPathComponent("missing")
            #expect(throws: HistoryError.notAGitRepository(path: missing)) {
                try GitFileHistory(repository: missing, path: "rovenue-fallback.json").references()
            }
        }
    }

    @Test func aFileNeverCommittedIsAClearError() throws {
        try withTemporaryFolder { folder in
            try makeRepository(folder)
            try Snap.file("").write(toFile: (folder as NSString).appendingPathComponent("rovenue-fallback.json"), atomically: true, encoding: .utf8)
            #expect(throws: HistoryError.neverCommitted(path: "rovenue-fallback.json", repository: folder)) {
                try SnapshotSeries(GitFileHistory(repository: folder, path: "rovenue-fallback.json"))
            }
            try "notes".write(toFile: (folder as NSString).appendingPathComponent("NOTES.md"), atomically: true, encoding: .utf8)
            try runGit(["add", "NOTES.md"], in: folder)
            try runGit(["commit", "-q", "-m", "Notes"], in: folder)
            #expect(throws: HistoryError.neverCommitted(path: "rovenue-fallback.json", repository: folder)) {
                try GitFileHistory(repository: folder, path: "rovenue-fallback.json").references()
            }
            let error = HistoryError.neverCommitted(path: "rovenue-fallback.json", repository: folder)
            #expect(error.description == "rovenue-fallback.json was never committed in the git repository at \(folder)")
        }
    }

    /// A symbolic link to nothing is listed, and reading it fails with its path: left out, the
    /// series silently lost that release (and the current snapshot was another). A link to a file
    /// and one to a folder are read as what they point to.
    @Test func aDanglingLinkInAFolderIsListedAndFailsToRead() throws {
        try withTemporaryFolder { folder in
            try Snap.file("").write(toFile: (folder as NSString).appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
            let fm = FileManager.default
            try fm.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent("c.json"), withDestinationPath: "gone.json")
            // An editor's lock file and any hidden name are not snapshots, as the shell's `*.json` reads the folder.
            try fm.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent(".#a.json"), withDestinationPath: "user@host.1:1")
            try Snap.file("").write(toFile: (folder as NSString).appendingPathComponent(".hidden.json"), atomically: true, encoding: .utf8)
            try fm.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent("b.json"), withDestinationPath: "a.json")
            try fm.createDirectory(atPath: (folder as NSString).appendingPathComponent("d"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: (folder as NSString).appendingPathComponent("d.json"), withDestinationPath: "d")
            let source = SnapshotFolder(path: folder)
            let references = try source.references()
            #expect(references.map(\.name) == ["a.json", "b.json", "c.json"])
            #expect(try source.bytes(of: references[1]) == Array(Snap.file("").utf8))
            #expect(throws: HistoryError.self) { try source.bytes(of: references[2]) }
        }
    }

    @Test func aFolderReadsItsJSONFilesOnlyInNameOrder() throws {
        try withTemporaryFolder { folder in
            for name in ["b.json", "a.json", "notes.txt"] {
                try Snap.file("").write(toFile: (folder as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let nested = (folder as NSString).appendingPathComponent("older")
            try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
            try Snap.file("").write(toFile: (nested as NSString).appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
            #expect(try SnapshotFolder(path: folder).references().map(\.name) == ["a.json", "b.json"])
            let empty = (folder as NSString).appendingPathComponent("empty")
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            #expect(throws: HistoryError.noSnapshots(folder: empty)) { try SnapshotFolder(path: empty).references() }
            #expect(throws: HistoryError.unreadable(path: empty + "/none", reason: "not a readable folder")) {
                try SnapshotFolder(path: empty + "/none").references()
            }
        }
    }

    @Test func filesKeepTheOrderGiven() throws {
        let paths = exampleNames.reversed().map { (examplesPath as NSString).appendingPathComponent($0) }
        let series = try SnapshotSeries(SnapshotFiles(paths: paths))
        #expect(series.members.map(\.reference.name) == exampleNames)
        #expect(series.members.map(\.sourceIndex) == [4, 3, 2, 1, 0])
        #expect(throws: HistoryError.self) { try SnapshotFiles(paths: ["/no/such/file.json"]).bytes(of: .init(name: "x", location: "/no/such/file.json")) }
    }
}

// MARK: - Rules

/// A series (in source order) that triggers a history rule in one snapshot, and a close variant that does not.
struct HistoryRuleCase: Sendable, CustomTestStringConvertible {
    let rule: Rule.ID
    let label: String
    let series: [String]
    /// The snapshot (by position in `series`) the finding points into.
    let snapshot: Int
    let key: String?
    let pointer: String
    let marker: Marker
    let mentions: [String]
    let clean: [String]

    init(
        _ rule: Rule.ID, _ series: [String], in snapshot: Int, key: String? = nil, pointer: String, at marker: Marker,
        mentions: [String] = [], clean: [String]
    ) {
        self.init(rule, "", series, in: snapshot, key: key, pointer: pointer, at: marker, mentions: mentions, clean: clean)
    }

    init(
        _ rule: Rule.ID, _ label: String, _ series: [String], in snapshot: Int, key: String? = nil, pointer: String,
        at marker: Marker, mentions: [String] = [], clean: [String]
    ) {
        self.rule = rule
        self.label = label
        self.series = series
        self.snapshot = snapshot
        self.key = key
        self.pointer = pointer
        self.marker = marker
        self.mentions = mentions
        self.clean = clean
    }

    var testDescription: String { label.isEmpty ? rule.rawValue : "\(rule) (\(label))" }

    static let day = 86_400_000
    /// `generatedAt` texts a day apart, the last one day before `testNow`.
    static func time(_ daysBeforeNow: Int) -> String { String(1_764_400_000_000 - daysBeforeNow * day) }

    static let all: [HistoryRuleCase] = [
        HistoryRuleCase(
            "revision-regressed",
            [Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(2)), Snap.file(paywallEntry("a", revision: "1"), generatedAt: time(1))],
            in: 1, key: "a", pointer: "/placements/a/placement/revision", at: .after(#""revision":"#),
            mentions: ["from revision 2 in 1.json to 1"],
            clean: [Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(2)), Snap.file(paywallEntry("a", revision: "3"), generatedAt: time(1))]),
        HistoryRuleCase(
            "revision-regressed", "across a revision that is not an integer",
            [
                Snap.file(paywallEntry("a", revision: "3"), generatedAt: time(3)),
                Snap.file(paywallEntry("a", revision: #""4""#), generatedAt: time(2)),
                Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(1)),
            ],
            in: 2, key: "a", pointer: "/placements/a/placement/revision", at: .after(#""revision":"#),
            mentions: ["from revision 3 in 1.json to 2"],
            clean: [
                Snap.file(paywallEntry("a", revision: "3"), generatedAt: time(3)),
                Snap.file(paywallEntry("a", revision: #""4""#), generatedAt: time(2)),
                Snap.file(paywallEntry("a", revision: "4"), generatedAt: time(1)),
            ]),
        HistoryRuleCase(
            "project-changed",
            [Snap.file(paywallEntry("a"), generatedAt: time(2)), Snap.file(paywallEntry("a"), generatedAt: time(1), projectId: #""proj_staging""#)],
            in: 1, pointer: "/projectId", at: .after(#""projectId":"#), mentions: [#""proj_staging""#, #"1.json names "proj_1""#],
            clean: [
                Snap.file(paywallEntry("a"), generatedAt: time(3)), Snap.file(paywallEntry("a"), generatedAt: time(2), projectId: "null"),
                Snap.file(paywallEntry("a"), generatedAt: time(1)),
            ]),
        HistoryRuleCase(
            "snapshot-stale", "past the threshold",
            [Snap.file(paywallEntry("a"), generatedAt: time(91))],
            in: 0, pointer: "/generatedAt", at: .after(#""generatedAt":"#), mentions: ["past the 90-day threshold", "91 d"],
            clean: [Snap.file(paywallEntry("a"), generatedAt: time(89))]),
        HistoryRuleCase(
            "snapshot-stale", "older than a later change",
            [Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(1)), Snap.file(paywallEntry("a"), generatedAt: time(2))],
            in: 1, pointer: "/generatedAt", at: .after(#""generatedAt":"#),
            mentions: ["2.json, the current snapshot", "was generated before 1.json", "1 revision bump (a 1 → 2)"],
            clean: [Snap.file(paywallEntry("a"), generatedAt: time(1)), Snap.file(paywallEntry("a"), generatedAt: time(2))]),
        HistoryRuleCase(
            "content-changed-same-revision",
            [Snap.file(paywallEntry("a"), generatedAt: time(2)), Snap.file(paywallEntry("a", paywall: "pw2"), generatedAt: time(1))],
            in: 1, key: "a", pointer: "/placements/a", at: .after(#""a":"#),
            mentions: ["same revision 1 as in 1.json", "paywall pw → paywall pw2"],
            clean: [
                Snap.file(paywallEntry("a"), generatedAt: time(3)),
                // The same content written with spaces and keys in another order.
                Snap.file(#""a": { "paywall": \#(Snap.paywall()), "placement": \#(Snap.placement("a")) }"#, generatedAt: time(2)),
                Snap.file(paywallEntry("a", revision: "2", paywall: "pw2"), generatedAt: time(1)),
            ]),
        HistoryRuleCase(
            "snapshot-tie",
            [Snap.file(paywallEntry("a"), generatedAt: time(1)), Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(1))],
            in: 1, pointer: "/generatedAt", at: .after(#""generatedAt":"#), mentions: ["same generatedAt as 1.json"],
            clean: [Snap.file(paywallEntry("a"), generatedAt: time(2)), Snap.file(paywallEntry("a", revision: "2"), generatedAt: time(1))]),
        HistoryRuleCase(
            "snapshot-back-in-time",
            [Snap.file(paywallEntry("a"), generatedAt: time(1)), Snap.file(paywallEntry("a"), generatedAt: time(3))],
            in: 1, pointer: "/generatedAt", at: .after(#""generatedAt":"#),
            mentions: ["2.json comes after 1.json in source order but was generated 2 d earlier"],
            clean: [Snap.file(paywallEntry("a"), generatedAt: time(3)), Snap.file(paywallEntry("a"), generatedAt: time(1))]),
    ]
}

@Suite("History: every rule, a series that triggers it and a close variant that does not")
struct HistoryRuleTests {
    @Test("Triggers", arguments: HistoryRuleCase.all)
    func triggers(_ ruleCase: HistoryRuleCase) throws {
        let rule = try #require(Rule(id: ruleCase.rule))
        #expect(rule.category == .history)
        let found = try timeline(ruleCase.series).findings.filter { $0.finding.ruleId == ruleCase.rule }
        let name = "\(ruleCase.snapshot + 1).json"
        let match = try #require(
            found.first { $0.snapshot.name == name && $0.finding.pointer == ruleCase.pointer },
            "no \(ruleCase.rule) at \(ruleCase.pointer) in \(name): \(found)")
        let expected = try #require(ruleCase.marker.position(in: ruleCase.series[ruleCase.snapshot]))
        #expect(match.finding.severity == rule.severity)
        #expect(match.finding.placementKey == ruleCase.key)
        #expect(match.finding.line == expected.line)
        #expect(match.finding.column == expected.column)
        for text in ruleCase.mentions {
            #expect(match.finding.message.contains(text), "\(match.finding.message) lacks \(text)")
        }
    }

    @Test("Close variant does not trigger", arguments: HistoryRuleCase.all)
    func closeVariant(_ ruleCase: HistoryRuleCase) throws {
        let found = try timeline(ruleCase.clean).findings.filter { $0.finding.ruleId == ruleCase.rule }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func everyHistoryRuleHasACase() {
        let history = Set(Rule.all.filter { $0.category == .history }.map(\.id))
        #expect(history == Set(HistoryRuleCase.all.map(\.rule)))
        #expect(history == [
            "revision-regressed", "project-changed", "snapshot-stale", "content-changed-same-revision", "snapshot-tie",
            "snapshot-back-in-time",
        ])
    }

    @Test func theConfigurationTurnsHistoryRulesOffOrChangesTheirSeverity() throws {
        let series = HistoryRuleCase.all[0].series
        let configuration = AuditConfiguration(overrides: ["revision-regressed": .severity(.warning)])
        let options = HistoryOptions(now: testNow, audit: Audit(now: testNow, configuration: configuration))
        let found = try SnapshotSeries(TextSnapshots(series)).timeline(options).findings
        #expect(found.map(\.finding.severity) == [.warning])
        let off = HistoryOptions(audit: Audit(configuration: AuditConfiguration(overrides: ["revision-regressed": .off])))
        #expect(try SnapshotSeries(TextSnapshots(series)).timeline(off).findings.isEmpty)
    }

    @Test func stalenessNeedsANowAndHonoursTheThreshold() throws {
        let series = [Snap.file(paywallEntry("a"), generatedAt: HistoryRuleCase.time(30))]
        #expect(try SnapshotSeries(TextSnapshots(series)).timeline().findings.isEmpty)
        #expect(try timeline(series, staleAfterDays: 31).findings.isEmpty)
        #expect(try timeline(series, staleAfterDays: 29).findings.map(\.finding.ruleId) == ["snapshot-stale"])
    }
}

// MARK: - Order

@Suite("History: order, ties and snapshots that go back in time")
struct HistoryOrderTests {
    @Test func tiesKeepSourceOrder() throws {
        let first = Snap.file(paywallEntry("a"), generatedAt: "1764000000000")
        let second = Snap.file(paywallEntry("a", revision: "2"), generatedAt: "1764000000000")
        let series = try SnapshotSeries(TextSnapshots([first, second]))
        #expect(series.members.map(\.reference.name) == ["1.json", "2.json"])
        let timeline = try series.timeline()
        #expect(timeline.findings.map(\.description).count == 1)
        #expect(timeline.findings.first?.snapshot.name == "2.json")
        #expect(timeline.findings.first?.finding.ruleId == "snapshot-tie")
        #expect(timeline.snapshots[1].changes.revisionBumps == [.init(key: "a", from: 1, to: 2)])
    }

    /// Committed as 3, 1, 2 (days): the timeline reads 1, 2, 3; the last two commits went back in time.
    @Test func snapshotsThatGoBackInTimeAreReorderedAndReported() throws {
        let texts = [3, 1, 2].map { Snap.file(paywallEntry("a"), generatedAt: String(1_764_000_000_000 + $0 * 86_400_000)) }
        let timeline = try timeline(texts)
        #expect(timeline.snapshots.map(\.stamp.name) == ["2.json", "3.json", "1.json"])
        #expect(timeline.snapshots.map(\.sourceIndex) == [1, 2, 0])
        #expect(timeline.currentIndex == 1)
        #expect(timeline.findings.map { "\($0.snapshot.name) \($0.finding.ruleId)" } == [
            "2.json snapshot-back-in-time", "3.json snapshot-back-in-time",
        ])
        #expect(timeline.findings[1].finding.message.contains("3.json comes after 1.json in source order but was generated 1 d earlier"))
        // The later export records no change, so the current one is not stale for it.
        #expect(!timeline.findings.contains { $0.finding.ruleId == "snapshot-stale" })
    }

    @Test func aSnapshotWithoutGeneratedAtStaysAfterItsSourcePredecessor() throws {
        let texts = [
            Snap.file(paywallEntry("a"), generatedAt: "1764200000000"),
            Snap.file(paywallEntry("a", revision: "2"), generatedAt: "null"),
            Snap.file(paywallEntry("a", revision: "3"), generatedAt: "1764100000000"),
        ]
        let series = try SnapshotSeries(TextSnapshots(texts))
        #expect(series.members.map(\.reference.name) == ["3.json", "1.json", "2.json"])
        #expect(series.members.map(\.generatedAt) == [1764100000000, 1764200000000, nil])
    }

    @Test func aRejectedSnapshotCarriesPlacementsOver() throws {
        let texts = [
            Snap.file(paywallEntry("a"), generatedAt: "1764100000000"), "{\"formatVersion\":2,\"placements\":{}}",
            Snap.file(paywallEntry("a"), generatedAt: "1764200000000"),
        ]
        let timeline = try timeline(texts)
        #expect(timeline.snapshots[1].rejection?.rule == .unsupportedFormatVersion)
        #expect(timeline.snapshots[1].changes.summary
            == "rejected by the SDK (§2 rule 10: formatVersion is not the integer 1); placements carried over")
        #expect(timeline.snapshots[2].changes.summary == "no placement changes")
        let a = try #require(timeline.placement("a"))
        #expect(a.revisions.count == 1)
        #expect(a.latest.lastSeen.index == 2)
    }

    @Test func aPlacementRemovedAndAddedAgain() throws {
        let texts = [
            Snap.file(paywallEntry("a") + "," + paywallEntry("b"), generatedAt: "1764100000000"),
            Snap.file(paywallEntry("b"), generatedAt: "1764200000000"),
            Snap.file(paywallEntry("b"), generatedAt: "1764300000000"),
            Snap.file(paywallEntry("a", revision: "2") + "," + paywallEntry("b"), generatedAt: "1764400000000"),
        ]
        let timeline = try timeline(texts)
        let a = try #require(timeline.placement("a"))
        #expect(a.revisions.map(\.summary) == [
            "first seen at rev 1: paywall pw", "removed; was rev 1: paywall pw", "added again at rev 2: paywall pw",
        ])
        #expect(a.revisions.map { "\($0.firstSeen.index)-\($0.lastSeen.index)" } == ["0-0", "1-2", "3-3"])
        #expect(a.revisions[1].isRemoved && a.revisions[1].changes == .removed)
        #expect(timeline.snapshots.map(\.changes.summary) == [
            "baseline: 2 placements", "1 removed (a)", "no placement changes", "1 added (a)",
        ])
        #expect(try #require(timeline.placement("b")).revisions.count == 1)
        #expect(timeline.findings.isEmpty)
    }

    /// A removal is last seen in the last snapshot folded while the key is missing: the one
    /// before it comes back, or the last of the series; a snapshot the SDK rejects is not folded.
    @Test func aRemovedPlacementIsLastSeenInTheLastSnapshotFolded() throws {
        let rejected = "{\"formatVersion\":2,\"placements\":{}}"
        let both = paywallEntry("a") + "," + paywallEntry("b") + "," + paywallEntry("c")
        let texts = [
            Snap.file(both, generatedAt: "1764100000000"),
            Snap.file(paywallEntry("b"), generatedAt: "1764200000000"),
            Snap.file(paywallEntry("b"), generatedAt: "1764300000000"),
            rejected,
            Snap.file(paywallEntry("b") + "," + paywallEntry("c"), generatedAt: "1764400000000"),
            Snap.file(paywallEntry("b"), generatedAt: "1764500000000"),
            rejected,
        ]
        let timeline = try timeline(texts)
        let spans = { (key: String) in
            try #require(timeline.placement(key)).revisions.map { "\($0.firstSeen.index)-\($0.lastSeen.index)" }
        }
        // a: removed in 1, missing in every snapshot folded after (2, 4 and 5; 3 and 6 are rejected).
        #expect(try spans("a") == ["0-0", "1-5"])
        // c: removed in 1, back in 4 (the snapshot folded before it is 2), removed again in 5.
        #expect(try spans("c") == ["0-0", "1-2", "4-4", "5-5"])
        #expect(try spans("b") == ["0-5"])
    }

    @Test func theScanReadsTheLastTopLevelGeneratedAtOnly() {
        func scan(_ text: String) -> Int64? { GeneratedAtScan.generatedAt(in: Array(text.utf8)) }
        #expect(scan(#"{"formatVersion":1,"generatedAt":1764000000000,"placements":{}}"#) == 1764000000000)
        #expect(scan(#"{"placements":{"a":{"generatedAt":5,"s":"}\"{"}},"generatedAt":7}"#) == 7)
        #expect(scan("\u{FEFF} { \"generatedAt\" : 12 , \"generatedAt\" : 13 }") == 13)
        #expect(scan(#"{"gener\u0061tedAt":42}"#) == 42)
        #expect(scan(#"{"generatedAt":1.5e12}"#) == nil)
        #expect(scan(#"{"generatedAt":"1764000000000"}"#) == nil)
        #expect(scan(#"[1,{}]"#) == nil)
        #expect(scan(#"{"generatedAt":-0}"#) == nil)
        #expect(scan(#"{"generatedAt":99,"placements":{"#) == 99)
    }

    /// The scan passes containers 64 bytes at a time; one byte at a time it reads the same
    /// `generatedAt`, on the sample and on texts that put backslashes and quotes where they trip
    /// a block scan (outside strings, at a block's edge).
    @Test(arguments: [
        #"{"placements":{"a":{"generatedAt":5,"s":"}\"{"}},"generatedAt":7}"#,
        #"{"placements":[\"],"generatedAt":8}"#,
        #"{"placements":[\"],"generatedAt":8}"],"generatedAt":9}"#,
        "{\"placements\":[\"" + String(repeating: "a", count: 61) + "\\\"],\"generatedAt\":10}\"],\"generatedAt\":11}",
        "{\"p\":[" + String(repeating: "[1,\"]\"],", count: 50) + "0],\"generatedAt\":12}",
    ])
    func theBlockScanReadsWhatTheByteScanReads(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(GeneratedAtScan.generatedAt(in: bytes, path: .vector) == GeneratedAtScan.generatedAt(in: bytes, path: .scalar))
    }

    @Test func theBlockScanPassesLargePlacements() {
        let entries = (0..<300).map { #""k\#($0)":{"placement":{"id":"x\#($0)","s":"a\\\"b{[","generatedAt":1}}"# }
        let text = #"{"formatVersion":1,"generatedAt":5,"placements":{"# + entries.joined(separator: ",") + #"},"generatedAt":1764000000000}"#
        let bytes = Array(text.utf8)
        #expect(GeneratedAtScan.generatedAt(in: bytes) == 1_764_000_000_000)
        #expect(GeneratedAtScan.generatedAt(in: bytes, path: .scalar) == 1_764_000_000_000)
    }
}

// MARK: - Streaming

/// Logs every read of a source, so a test can see when snapshots are read.
final class LoggingSource: SnapshotSource, @unchecked Sendable {
    let inner: TextSnapshots
    private let lock = NSLock()
    private var log: [String] = []

    init(_ inner: TextSnapshots) {
        self.inner = inner
    }

    func note(_ event: String) { lock.withLock { log.append(event) } }
    var events: [String] { lock.withLock { log } }

    func references() throws -> [SnapshotReference] { try inner.references() }

    func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        note("read \(reference.name)")
        return try inner.bytes(of: reference)
    }
}

@Suite("History: the fold holds one snapshot at a time")
struct HistoryStreamingTests {
    /// True when `value` holds, at any depth, a parse or anything that keeps one alive.
    static func holdsSnapshot(_ value: Any) -> Bool {
        if value is JSONDocument || value is JSONDocument.Value || value is FallbackFile || value is EntryRecord
            || value is FallbackEntry
        {
            return true
        }
        return Mirror(reflecting: value).children.contains { holdsSnapshot($0.value) }
    }

    @Test func theBuilderKeepsNoSnapshotBetweenSteps() throws {
        let series = try SnapshotSeries(SnapshotFolder(path: examplesPath))
        var builder = TimelineBuilder(options: HistoryOptions(now: testNow))
        for member in series.members {
            builder.add(FallbackFile(bytes: try series.source.bytes(of: member.reference)), as: member)
            #expect(!Self.holdsSnapshot(builder))
        }
        let timeline = builder.finish()
        #expect(!Self.holdsSnapshot(timeline))
        #expect(facts(timeline) == facts(try series.timeline(HistoryOptions(now: testNow))))
        // The histories moved into the timeline; asking again gives the same one.
        #expect(facts(builder.finish()) == facts(timeline))
        #expect(!timeline.placements.isEmpty)
    }

    /// A stamp's fields live in a shared box: stamps made apart with the same fields are equal
    /// and hash alike, and any field that differs tells them apart.
    @Test func stampsAreEqualByTheirFields() {
        let commit = Commit(hash: String(repeating: "a", count: 40), authorDate: "2026-12-01T00:00:00Z", subject: "export")
        let stamp = SnapshotStamp(index: 2, name: "b.json", location: "dir/b.json", generatedAt: 5, commit: commit)
        let same = SnapshotStamp(index: 2, name: "b.json", location: "dir/b.json", generatedAt: 5, commit: commit)
        #expect(stamp == same && stamp.hashValue == same.hashValue && Set([stamp, same]).count == 1)
        let others = [
            SnapshotStamp(index: 3, name: "b.json", location: "dir/b.json", generatedAt: 5, commit: commit),
            SnapshotStamp(index: 2, name: "c.json", location: "dir/b.json", generatedAt: 5, commit: commit),
            SnapshotStamp(index: 2, name: "b.json", location: "dir/c.json", generatedAt: 5, commit: commit),
            SnapshotStamp(index: 2, name: "b.json", location: "dir/b.json", generatedAt: nil, commit: commit),
            SnapshotStamp(index: 2, name: "b.json", location: "dir/b.json", generatedAt: 5, commit: nil),
        ]
        for other in others { #expect(stamp != other, "\(other)") }
        #expect(stamp.index == 2 && stamp.name == "b.json" && stamp.location == "dir/b.json" && stamp.generatedAt == 5 && stamp.commit == commit)
    }

    /// Listing reads each snapshot once for its date; the fold then reads one, folds it, and only
    /// then reads the next, in timeline order.
    @Test func snapshotsAreReadLazilyOneAtATime() throws {
        let texts = [3, 1, 2].map { Snap.file(paywallEntry("a"), generatedAt: String(1_764_000_000_000 + $0 * 86_400_000)) }
        let source = LoggingSource(TextSnapshots(texts))
        let series = try SnapshotSeries(source)
        #expect(source.events == ["read 1.json", "read 2.json", "read 3.json"])
        _ = try series.timeline { record in source.note("fold \(record.stamp.name)") }
        // Each snapshot is read once more, in timeline order, and folded after its read. The next
        // one is read while one is folded (`SnapshotReadAhead`), so "read 3" may come before or
        // after "fold 2"; the one after it is read only once "fold 2" is done: one ahead at most.
        let events = Array(source.events.dropFirst(3))
        #expect(events.filter { $0.hasPrefix("read") } == ["read 2.json", "read 3.json", "read 1.json"])
        #expect(events.filter { $0.hasPrefix("fold") } == ["fold 2.json", "fold 3.json", "fold 1.json"])
        func place(_ event: String) -> Int { events.firstIndex(of: event) ?? -1 }
        for name in ["1.json", "2.json", "3.json"] {
            #expect(place("read \(name)") < place("fold \(name)"), "\(name)")
        }
        #expect(place("fold 2.json") < place("read 1.json"))
    }
}

// MARK: - Fingerprints

@Suite("History: content fingerprints")
struct HistoryFingerprintTests {
    /// The digest the fingerprint stands for: the owned value's canonical text (compact, sorted
    /// keys, numbers as the SDK reads them).
    static func expected(_ value: JSONDocument.Value, excludingKey: String? = nil, excludingElement: Int? = nil) -> SHA256Digest {
        var owned = value.owned
        if let excludingKey, case .object(let members) = owned {
            owned = .object(members.filter { !$0.key.utf8.elementsEqual(excludingKey.utf8) })
        }
        if let excludingElement, case .array(var elements) = owned, excludingElement < elements.count {
            elements.remove(at: excludingElement)
            owned = .array(elements)
        }
        return SHA256Digest(of: Array(owned.jsonText(.canonical).utf8))
    }

    static func isCanonical(_ value: JSONDocument.Value) -> Bool {
        value.isWrittenCanonically
    }

    @Test("Every entry of the Examples", arguments: exampleNames)
    func examples(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: (examplesPath as NSString).appendingPathComponent(name))))
        let file = FallbackFile(bytes: bytes)
        #expect(Self.isCanonical(file.document.root))
        for record in file.entries {
            let value = file.document.value(at: record.value.node)
            #expect(Self.isCanonical(value))
            #expect(ContentFingerprint.digest(of: value, excludingKey: "placement") == Self.expected(value, excludingKey: "placement"))
            #expect(ContentFingerprint.digest(of: value) == Self.expected(value))
        }
    }

    @Test("Text as written or walked gives the digest of its canonical form", arguments: [
        (#"{"a":1,"b":[true,false,null],"c":{"d":"x"}}"#, true),
        (#"{"a":"line\nbreak \"quoted\" back\\slash \u001f\t"}"#, true),
        (#"{ "a":1}"#, false),
        (#"{"b":1,"a":2}"#, false),
        (#"{"a":1,"a":2}"#, false),
        (#"{"a":"\/"}"#, false),
        (#"{"a":"\u00e9"}"#, false),
        (#"{"a":"\u001F"}"#, false),
        (#"{"a":"\u000a"}"#, false),
        (#"{"\u0061":1}"#, false),
        ("[1,\n2]", false),
        (#"[{"z":1,"y":[{"b":2,"a":1}]},"é",-0,1e5]"#, false),
        (#"[{"y":[{"a":1,"b":2}],"z":1},"é",0.0,100000.0]"#, true),
        // A number is canonical as the SDK reads it: `-0` and `1e5` are the floats 0.0 and 100000.0.
        (#"[{"y":[{"a":1,"b":2}],"z":1},"é",-0,1e5]"#, false),
        ("[0.5,1.0,1e20,-1.5,18446744073709551615,-9223372036854775808,12345678901234567]", true),
        ("[-0.0]", false), ("[0.50]", false), ("[1E20]", false), ("[18446744073709551616]", false),
    ])
    func canonicalForm(_ text: String, canonical: Bool) {
        let document = JSONDocument(text: text)
        #expect(document.syntaxError == nil)
        #expect(Self.isCanonical(document.root) == canonical)
        #expect(ContentFingerprint.digest(of: document.root) == Self.expected(document.root))
    }

    @Test("The excluded member or element leaves no stray comma", arguments: [
        #"{"placement":{"revision":1},"z":2}"#, #"{"a":1,"placement":{"revision":1},"z":2}"#,
        #"{"a":1,"placement":{"revision":1}}"#, #"{"placement":1}"#, #"{"a":1}"#, #"{"z":1, "placement":2}"#,
    ])
    func excludedMember(_ text: String) {
        let root = JSONDocument(text: text).root
        #expect(ContentFingerprint.digest(of: root, excludingKey: "placement") == Self.expected(root, excludingKey: "placement"))
    }

    @Test("The array quirk leaves out its first element", arguments: [
        #"[{"identifier":"a","revision":1},null,null,{"id":"f"}]"#, #"[{"identifier":"a","revision":1}]"#, "[]", "[1, 2]",
    ])
    func excludedElement(_ text: String) {
        let root = JSONDocument(text: text).root
        #expect(ContentFingerprint.digest(of: root, excludingElement: 0) == Self.expected(root, excludingElement: 0))
    }
}
