import Foundation
import Testing

/// `-0` has one answer in every command (fallback-format.md §2.1, §4): the SDK's parser reads it as
/// the float -0.0, so `"revision": -0` is not an int and the entry is skipped, exactly like
/// `"revision": 0.0`; and inside content `-0` is the same value as `-0.0` (and `0.0`), not the
/// same as `0`. Each command is driven through the CLI, on files in a temporary folder.
@Suite("-0 is one answer in resolve, check, diff, history and the site")
struct NegativeZeroTests {
    /// A snapshot whose placement `a` has `revision` (object form, or the array quirk) and serves a
    /// paywall whose remote config carries `data`.
    static func snapshot(revision: String, arrayForm: Bool = false, data: String = "0", generatedAt: Int = 1_780_000_000_000) -> String {
        let paywall = #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":{"locale":"en","data":{"n":\#(data)}},"offering":null}"#
        let entry = arrayForm
            ? #"[["a",\#(revision)],\#(paywall)]"#
            : #"{"placement":{"identifier":"a","revision":\#(revision)},"paywall":\#(paywall)}"#
        return #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"p","placements":{"a":\#(entry)}}"#
    }

    /// Writes `texts` as `1.json`, `2.json`, … in a new temporary folder and returns their paths.
    static func write(_ texts: [String]) throws -> [String] {
        let folder = try temporaryFolder()
        return try texts.enumerated().map { index, text in
            let path = folder + "/\(index + 1).json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let skippingRevisions = ["-0", "-0.0", "0.0"]

    @Test(arguments: skippingRevisions, [false, true])
    func resolveSkipsTheEntry(revision: String, arrayForm: Bool) throws {
        let paths = try Self.write([Self.snapshot(revision: revision, arrayForm: arrayForm)])
        let result = run(["resolve", paths[0], "a", "--format", "json"])
        #expect(result.status == 1)
        let report = try jsonObject(result.output)
        #expect(report["servedFromFallback"] as? Bool == false)
        let error = try #require(report["error"] as? String)
        #expect(error.contains("the SDK skips placement 'a'"), "\(error)")
        #expect(error.contains("expected an integer, found the number \(revision)"), "\(error)")
    }

    @Test func resolveServesTheEntryWhoseRevisionIsZero() throws {
        let paths = try Self.write([Self.snapshot(revision: "0")])
        let result = run(["resolve", paths[0], "a", "--format", "json"])
        #expect(result.status == 0)
        let report = try jsonObject(result.output)
        #expect(report["served"] as? String == "paywall")
        #expect(report["revision"] as? Int == 0)
    }

    @Test(arguments: skippingRevisions, [false, true])
    func checkReportsTheEntrySkipped(revision: String, arrayForm: Bool) throws {
        let paths = try Self.write([Self.snapshot(revision: revision, arrayForm: arrayForm)])
        let result = run(["check", paths[0], "--format", "json"])
        #expect(result.status == 1)
        let report = try jsonObject(result.output)
        let files = try #require(report["files"] as? [[String: Any]], "\(result.output)")
        let findings = try #require(files.first?["findings"] as? [[String: Any]], "\(result.output)")
        let rules = findings.compactMap { $0["rule"] as? String }
        #expect((files.first?["skipped"] as? [[String: Any]])?.first?["key"] as? String == "a")
        #expect(rules.contains("entry-skipped"), "\(result.output)")
        #expect(!rules.contains("revision-invalid"), "\(result.output)")
    }

    @Test(arguments: skippingRevisions)
    func diffSeesTheEntryStopDecoding(revision: String) throws {
        let paths = try Self.write([Self.snapshot(revision: "1"), Self.snapshot(revision: revision)])
        let result = run(["diff", paths[0], paths[1], "--format", "json"])
        let report = try jsonObject(result.output)
        let changes = try #require(report["changes"] as? [[String: Any]], "\(result.output)")
        #expect(changes.compactMap { $0["kind"] as? String } == ["entry-now-skipped"], "\(result.output)")
    }

    @Test(arguments: skippingRevisions)
    func historySeesTheEntryStopDecoding(revision: String) throws {
        let paths = try Self.write([
            Self.snapshot(revision: "1"), Self.snapshot(revision: revision, generatedAt: 1_781_000_000_000),
        ])
        let result = run(["history", paths[0], paths[1], "--format", "json"])
        let report = try jsonObject(result.output)
        let placements = try #require(report["placements"] as? [[String: Any]], "\(result.output)")
        let revisions = try #require(placements.first?["revisions"] as? [[String: Any]])
        #expect(revisions.compactMap { $0["revision"] as? String } == ["1", revision])
        let summary = try #require(revisions.last?["summary"] as? String)
        #expect(summary.contains("no longer decodes"), "\(summary)")
    }

    /// Content the SDK reads alike is no change, whether the diff or the history's fingerprint asks;
    /// `0` and `-0` (an int and a float) are a change to both.
    @Test(arguments: [("-0", "-0.0", false), ("-0", "0.0", false), ("1.0", "1.00", false), ("0", "-0", true), ("1", "1.0", true)])
    func diffAndHistoryAgreeOnContent(old: String, new: String, changed: Bool) throws {
        let paths = try Self.write([
            Self.snapshot(revision: "1", data: old), Self.snapshot(revision: "1", data: new, generatedAt: 1_781_000_000_000),
        ])
        let diff = try jsonObject(run(["diff", paths[0], paths[1], "--format", "json"]).output)
        let changes = try #require(diff["changes"] as? [[String: Any]])
        #expect(changes.isEmpty == !changed, "\(changes)")

        let history = try jsonObject(run(["history", paths[0], paths[1], "--format", "json"]).output)
        let placements = try #require(history["placements"] as? [[String: Any]])
        let revisions = try #require(placements.first?["revisions"] as? [[String: Any]])
        #expect(revisions.count == (changed ? 2 : 1), "\(revisions)")
        let findings = (history["findings"] as? [[String: Any]]) ?? []
        let sameRevision = findings.contains { $0["rule"] as? String == "content-changed-same-revision" }
        #expect(sameRevision == changed, "\(findings)")
    }

    @Test(arguments: skippingRevisions)
    func theSiteShowsTheEntrySkipped(revision: String) throws {
        let paths = try Self.write([
            Self.snapshot(revision: "1"), Self.snapshot(revision: revision, generatedAt: 1_781_000_000_000),
        ])
        let folder = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        let out = try temporaryFolder() + "/site"
        #expect(run(["build", folder, "--out", out, "--quiet"]).status == 0)
        let index = try #require(text(at: out + "/index.html"))
        #expect(index.contains("the SDK loads 0 of 1 entry; 1 skipped"), "\(index)")
        let page = try #require(text(at: out + "/placements/a.html"))
        #expect(page.contains("expected an integer, found the number \(revision)"), "\(page)")
        #expect(page.contains("no longer decodes"))
        #expect(text(at: out + "/changes.html")?.contains("entry-now-skipped") == true)
    }

    /// The site's history and changes pages agree on content the SDK reads alike.
    @Test func theSiteRecordsNoChangeForAnotherSpellingOfMinusZero() throws {
        let paths = try Self.write([
            Self.snapshot(revision: "1", data: "-0"), Self.snapshot(revision: "1", data: "-0.0", generatedAt: 1_781_000_000_000),
        ])
        let folder = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        let out = try temporaryFolder() + "/site"
        #expect(run(["build", folder, "--out", out, "--quiet"]).status == 0)
        let history = try #require(text(at: out + "/history.html"))
        #expect(!history.contains("content-changed-same-revision"), "\(history)")
        let page = try #require(text(at: out + "/placements/a.html"))
        #expect(!page.contains("changed, same"), "\(page)")
    }
}
