import Foundation
import Testing

/// Every format names an unreadable file's rule, `file-unreadable`, and counts it as an error,
/// whether the path is missing or is a folder.
@Suite("an unreadable file is a file-unreadable error in every format")
struct UnreadableFileReportTests {
    static let formats = ["text", "json", "markdown", "github", "junit", "sarif"]

    /// A missing path, and a folder where a file is expected, with what the message says.
    static func unreadablePaths() throws -> [(path: String, reason: String)] {
        let folder = try temporaryFolder()
        return [(folder + "/missing.json", "no such file"), (folder, "it is a folder, not a regular file")]
    }

    @Test(arguments: formats)
    func everyFormatNamesTheRuleAndCountsAnError(format: String) throws {
        for (path, reason) in try Self.unreadablePaths() {
            let result = runAt(["check", "--format", format, "--fail-on", "never", path], clock: Date())
            #expect(result.status == 2)
            let output = result.output
            let message = "cannot read \(path): \(reason)"
            switch format {
            case "text":
                #expect(output == "\(path): error: [file-unreadable] \(message)\n")
            case "json":
                let report = try jsonObject(output)
                let file = try #require((report["files"] as? [[String: Any]])?.first)
                let fatal = try #require(file["fatal"] as? [String: Any])
                #expect(fatal["rule"] as? String == "file-unreadable")
                #expect(fatal["summary"] as? String == "The file could not be read; nothing in it was checked.")
                #expect(fatal["severity"] as? String == "error")
                #expect(fatal["message"] as? String == message)
                #expect(file["verdict"] as? String == message)
                #expect((report["summary"] as? [String: Int])?["errors"] == 1)
            case "markdown":
                #expect(output.contains("**❌ 1 of 1 file fails** (fail-on: never) · 1 error\n"))
                #expect(output.contains("<code>file\\-unreadable</code>"))
            case "github":
                #expect(output.contains("title=file-unreadable::\(message)"))
            case "junit":
                #expect(output.contains(#"<error type="file-unreadable""#))
                #expect(output.contains(#"errors="1""#))
            default:
                let run = try #require((try jsonObject(output)["runs"] as? [[String: Any]])?.first)
                let results = try #require(run["results"] as? [[String: Any]])
                #expect(results.count { $0["ruleId"] as? String == "file-unreadable" && $0["level"] as? String == "error" } == 1)
            }
        }
    }

    /// Beside a readable file, the unreadable one is in the totals.
    @Test func theTotalsCountTheUnreadableFile() throws {
        let (path, _) = try #require(try Self.unreadablePaths().first)
        let result = runAt(["check", funnelEraPath, path], clock: Date())
        #expect(result.status == 2)
        #expect(result.output.hasSuffix("2 files (4 errors, 12 warnings; 4 infos not shown: --verbose lists them)\n"))
        let json = try jsonObject(runAt(["check", funnelEraPath, path, "--format", "json"], clock: Date()).output)
        #expect((json["summary"] as? [String: Int])?["errors"] == 4)
    }
}
