@testable import FallbackCLI
import Foundation
import Testing

@Suite("History: a rejected snapshot is an error")
struct RejectedSnapshotHistoryTests {
    /// A folder whose every snapshot the SDK rejects once printed "no findings" and exited 0.
    @Test(arguments: ["text", "json", "github", "markdown", "junit", "sarif"], [nil, "never", "info"])
    func aFolderOfRejectedSnapshotsFails(format: String, failOn: String?) throws {
        try withInputTestFolder { folder in
            try Data(#"{"formatVersion":2,"placements":{}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/a.json"))
            try Data("not json".utf8).write(to: URL(fileURLWithPath: folder + "/b.json"))
            let result = runWithDiskReads(["history", folder, "--format", format] + (failOn.map { ["--fail-on", $0] } ?? []))
            #expect(result.status == ExitStatus.failure, "\(result.output)\(result.error)")
            #expect(result.output.contains(format == "markdown" ? #"file\-rejected"# : "file-rejected"))
            switch format {
            case "text":
                #expect(result.output.contains("a.json:1:"))
                #expect(result.output.contains("2 snapshots; 2 errors"))
            case "json":
                let object = try jsonObject(result.output)
                #expect(object["fails"] as? Bool == true)
                #expect((object["findings"] as? [[String: Any]])?.map { $0["snapshot"] as? String } == ["a.json", "b.json"])
            case "github":
                #expect(result.output.contains("::error file=\(folder)/a.json,line=1"))
                #expect(result.output.contains("::error file=\(folder)/b.json,line=1"))
            default:
                break
            }
        }
    }

    /// One rejected snapshot among good ones fails too, and its finding points into it.
    @Test func oneRejectedSnapshotAmongGoodOnesFails() throws {
        try withInputTestFolder { folder in
            try Data(loadableSnapshotText.utf8).write(to: URL(fileURLWithPath: folder + "/a.json"))
            try Data(#"{"formatVersion":1,"placements":{"x":}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/b.json"))
            try Data(loadableSnapshotText.replacingOccurrences(of: "1764000000000", with: "1764000001000").utf8)
                .write(to: URL(fileURLWithPath: folder + "/c.json"))
            let result = runWithDiskReads(["history", folder, "--stale-after", "100000"])
            #expect(result.status == ExitStatus.failure, "\(result.output)")
            #expect(
                result.output.split(separator: "\n").contains { $0.hasPrefix("\(folder)/b.json:1:") && $0.contains(": error: [file-rejected] ") },
                "\(result.output)")
            #expect(result.output.hasSuffix("3 snapshots; 1 error\n"))
        }
    }
}
