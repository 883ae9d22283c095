import Foundation
import Testing

/// `history` with a snapshot it cannot read once printed no report in any format (empty standard
/// output, exit 2, one line on standard error), while `check` reports such a file as a
/// `file-unreadable` error in every format. The timeline cannot be folded without the snapshot,
/// so the report is that error alone, in every format, and the exit status stays 2.
@Suite("history: an unreadable snapshot is a file-unreadable error in every format")
struct HistoryUnreadableReportTests {
    /// A folder with one readable snapshot, and the path of one that is not there.
    func series() throws -> (folder: String, missing: String, good: String) {
        let folder = try temporaryFolder()
        let good = folder + "/ok.json"
        try Data(HistoryCommandTests.snapshot(generatedAt: 1_780_000_000_000, revision: 1).utf8).write(to: URL(fileURLWithPath: good))
        return (folder, folder + "/missing.json", good)
    }

    @Test func textNamesTheFileAsCheckDoes() throws {
        let (folder, missing, good) = try series()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = run(["history", missing, good])
        #expect(result.status == 2)
        #expect(result.output.contains("\(missing): error: [file-unreadable] cannot read \(missing): no such file\n"))
        #expect(result.output.hasSuffix("no such file\nNothing was folded (1 error)\n"))
        #expect(!result.error.contains("cannot read"))
    }

    @Test func jsonHasTheFatalErrorAndCountsIt() throws {
        let (folder, missing, good) = try series()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = run(["history", "--format", "json", missing, good])
        #expect(result.status == 2)
        #expect(!result.error.contains("cannot read"))
        let object = try jsonObject(result.output)
        let files = try #require(object["unreadable"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files[0]["path"] as? String == missing)
        #expect(files[0]["readable"] as? Bool == false)
        #expect(files[0]["verdict"] as? String == "cannot read \(missing): no such file")
        let fatal = try #require(files[0]["fatal"] as? [String: Any])
        #expect(fatal["message"] as? String == "cannot read \(missing): no such file")
        #expect(fatal["rule"] as? String == "file-unreadable")
        #expect(fatal["severity"] as? String == "error")
        #expect((fatal["summary"] as? String)?.isEmpty == false)
        #expect((object["snapshots"] as? [Any])?.isEmpty == true)
        #expect((object["summary"] as? [String: Any])?["errors"] as? Int == 1)
        #expect(object["fails"] as? Bool == true)
    }

    @Test(arguments: [
        ("github", "::error file=PATH,title=file-unreadable::cannot read PATH: no such file"),
        ("junit", #"<error type="file-unreadable" message="cannot read PATH: no such file">"#),
        ("sarif", #""ruleId": "file-unreadable""#),
        ("markdown", "file\\-unreadable"),
    ])
    func everyOtherFormatReportsTheError(format: String, expected: String) throws {
        let (folder, missing, good) = try series()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = run(["history", "--format", format, missing, good])
        #expect(result.status == 2)
        let shown = format == "markdown" ? expected : expected.replacingOccurrences(of: "PATH", with: missing)
        #expect(result.output.contains(shown), "\(result.output)")
        // Formats often written to a file also say it where a person sees it, as check does.
        #expect(result.error.contains("error: cannot read \(missing): no such file"))
    }
}
