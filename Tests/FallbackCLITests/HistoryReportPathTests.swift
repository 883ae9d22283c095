import Foundation
import Testing

/// Every `history` format names a finding's snapshot by where it really is: the path as given for
/// files on the command line, `folder/file` for a folder, and the path at that commit for
/// `--git-history` (which `--follow` may have renamed). Files given on the command line were once
/// named by their base name alone, and a folder's snapshots by their file name in the text report:
/// annotations pointed at files that do not exist.
@Suite("History reports name each snapshot's real path")
struct HistoryReportPathTests {
    /// Two snapshots whose second lowers the revision: one `revision-regressed` error in it.
    static let older = HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 5)
    static let newer = HistoryCommandTests.snapshot(generatedAt: 1_781_000_000_000, revision: 3)

    /// Checks that the one finding of `output` in `format` is located at `path`.
    static func expectFinding(in output: String, format: String, at path: String) throws {
        switch format {
        case "text":
            let line = output.split(separator: "\n").first { $0.contains("[revision-regressed]") }
            #expect(line?.hasPrefix("\(path):") == true, "\(output)")
        case "github":
            #expect(output.contains("::error file=\(path),line="), "\(output)")
        case "sarif":
            let run = try #require((try jsonObject(output)["runs"] as? [[String: Any]])?.first)
            let result = try #require((run["results"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "revision-regressed" })
            let physical = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let uri = (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String
            #expect(uri == (path.hasPrefix("/") ? "file://" + path : path), "\(output)")
        case "junit":
            #expect(output.contains("\(path):"), "\(output)")
            #expect(output.contains(": error: [revision-regressed]"), "\(output)")
        case "markdown":
            // Markdown escapes every ASCII punctuation character of a code span's text.
            let escaped = path.unicodeScalars.map { scalar in
                switch scalar.value {
                case 0x21...0x2F, 0x3A...0x3F, 0x5B...0x60, 0x7B...0x7E: "\\\(scalar)"
                default: "\(scalar)"
                }
            }.joined()
            #expect(output.contains("<code>\(escaped)\\:"), "\(output)")
        default:
            let findings = try #require(try jsonObject(output)["findings"] as? [[String: Any]])
            #expect(findings.filter { $0["rule"] as? String == "revision-regressed" }.map { $0["path"] as? String } == [path], "\(output)")
        }
    }

    static let formats = ["text", "github", "sarif", "junit", "markdown", "json"]

    @Test(arguments: formats)
    func filesGivenOnTheCommandLineKeepTheirPath(format: String) throws {
        try withInputTestFolder { folder in
            try Data(Self.older.utf8).write(to: URL(fileURLWithPath: folder + "/1.json"))
            try Data(Self.newer.utf8).write(to: URL(fileURLWithPath: folder + "/2.json"))
            let result = runWithDiskReads(["history", folder + "/1.json", folder + "/2.json", "--format", format])
            #expect(result.status == 1, "\(result.error)")
            try Self.expectFinding(in: result.output, format: format, at: folder + "/2.json")
        }
    }

    @Test(arguments: formats)
    func aFolderNamesItsSnapshotsUnderIt(format: String) throws {
        try withInputTestFolder { folder in
            let series = folder + "/series"
            try FileManager.default.createDirectory(atPath: series, withIntermediateDirectories: true)
            try Data(Self.older.utf8).write(to: URL(fileURLWithPath: series + "/a.json"))
            try Data(Self.newer.utf8).write(to: URL(fileURLWithPath: series + "/b.json"))
            let result = runWithDiskReads(["history", series, "--format", format])
            #expect(result.status == 1, "\(result.error)")
            try Self.expectFinding(in: result.output, format: format, at: series + "/b.json")
        }
    }

    /// A version committed before a rename is annotated at the path it had then, relative to the
    /// repository's top level, not at the path followed today.
    @Test(arguments: ["github", "json"])
    func aRenamedFileIsNamedAsItWasCommitted(format: String) throws {
        try withInputTestFolder { repository in
            func git(_ arguments: String...) throws { try runGit(arguments, in: repository) }
            try git("init", "-q")
            try git("config", "user.email", "ci@example.com")
            try git("config", "user.name", "CI")
            try Data(Self.older.utf8).write(to: URL(fileURLWithPath: repository + "/old.json"))
            try git("add", "old.json")
            try git("commit", "-q", "-m", "first")
            try git("mv", "old.json", "new.json")
            try git("commit", "-q", "-m", "rename")
            try Data(Self.newer.utf8).write(to: URL(fileURLWithPath: repository + "/new.json"))
            try git("commit", "-q", "-am", "lower")
            // The finding is in the newest version, committed as new.json; the oldest was old.json.
            let result = runWithDiskReads(["history", "--git-history", repository + "/new.json", "--format", format])
            #expect(result.status == 1, "\(result.error)")
            if format == "json" {
                let object = try jsonObject(result.output)
                let snapshots = try #require(object["snapshots"] as? [[String: Any]])
                #expect(snapshots.map { ($0["snapshot"] as? [String: Any])?["path"] as? String } == ["old.json", "new.json", "new.json"])
                let findings = try #require(object["findings"] as? [[String: Any]])
                #expect(findings.filter { $0["rule"] as? String == "revision-regressed" }.map { $0["path"] as? String } == ["new.json"])
            } else {
                #expect(result.output.contains("::error file=new.json,line="), "\(result.output)")
                #expect(!result.output.contains("file=\(repository)"), "\(result.output)")
            }
        }
    }
}
