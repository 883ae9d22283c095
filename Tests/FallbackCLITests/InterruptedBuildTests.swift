import Foundation
import Testing

/// The `fallback-site` executable that `swift test` built beside the test bundle.
let toolPath: String? = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent("fallback-site").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return nil
}()

@Suite("A build killed midway", .enabled(if: toolPath != nil, "needs the built fallback-site executable"))
struct InterruptedBuildTests {
    func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: toolPath!)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func leavesThePreviousSiteUntouched() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let out = root + "/site"
        let first = try launch(["build", repositoryPath("Examples/2026-03-03-release-3.0.json"), "--out", out, "--quiet"])
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/index.html"))

        let big = root + "/big.json"
        let sample = try launch(["sample", "--placements", "4000", "--out", big])
        sample.waitUntilExit()
        let killed = try launch(["build", big, "--out", out, "--quiet"])
        // Long enough to be rendering or writing, far too short to finish.
        Thread.sleep(forTimeInterval: 0.8)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal)

        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/index.html")) == before)
        #expect(FileManager.default.fileExists(atPath: out + "/.fallback-site"))

        // The next build cleans up what the killed one left beside the output.
        let next = try launch(["build", repositoryPath("Examples/2026-03-03-release-3.0.json"), "--out", out, "--quiet"])
        next.waitUntilExit()
        #expect(next.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["big.json", "site"])
    }
}
