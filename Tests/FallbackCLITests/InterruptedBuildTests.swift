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

/// Whether a suite that needs an outside program runs: when the program is there, and in CI
/// (`CI=true`) also when it is missing, so that the suite fails (`#require`) instead of being
/// skipped, which would read as passed.
func suiteRuns(programFound: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    programFound || ["true", "1"].contains(environment["CI"]?.lowercased() ?? "")
}

@Suite(
    "A build killed midway, or overlapped by another into the same output",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct InterruptedBuildTests {
    func launch(_ arguments: [String]) throws -> Process {
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the tool to its end and returns its exit status.
    func status(_ arguments: [String]) throws -> Int32 {
        let process = try launch(arguments)
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Waits until the build `process` has written a file into its staging folder `staging`: true
    /// then, false when it ended first.
    func waitUntilWriting(_ process: Process, into staging: String) -> Bool {
        while process.isRunning {
            if let files = try? FileManager.default.contentsOfDirectory(atPath: staging), !files.isEmpty { return true }
            usleep(200)
        }
        return false
    }

    /// The build is killed once it has started writing: as soon as its staging folder
    /// (`.site.building-PID`, beside the output) holds a file. No sleep: neither a kill that
    /// lands before writing starts nor one after the build ended can pass for this case.
    @Test func leavesThePreviousSiteUntouched() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/site"
        let example = repositoryPath("Examples/2026-03-03-release-3.0.json")
        try #require(try status(["build", example, "--out", out, "--quiet"]) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/index.html"))

        let big = root + "/big.json"
        try #require(try status(["sample", "--placements", "300", "--out", big]) == 0, "the sample step failed")
        let killed = try launch(["build", big, "--out", out, "--quiet"])
        let staging = root + "/.site.building-\(killed.processIdentifier)"
        let writing = waitUntilWriting(killed, into: staging)
        if writing { kill(killed.processIdentifier, SIGKILL) }
        killed.waitUntilExit()
        try #require(writing, "the build ended (status \(killed.terminationStatus)) before its staging folder was seen")
        #expect(killed.terminationReason == .uncaughtSignal)
        #expect(FileManager.default.fileExists(atPath: staging), "the kill landed after the staging folder was moved")

        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/index.html")) == before)
        #expect(FileManager.default.fileExists(atPath: out + "/.fallback-site"))

        // The next build cleans up what the killed one left beside the output.
        #expect(try status(["build", example, "--out", out, "--quiet"]) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["big.json", "site"])
    }

    /// A second build into the same output starts while the first is writing: it must not take the
    /// first build's temporary folder for a leftover of a killed build and remove it. Both finish,
    /// and nothing is left beside the output. No sleep: the second build starts only once the first
    /// one's staging folder holds a file, and runs to its end before the first is waited for.
    @Test func aSecondBuildLeavesALiveBuildsFolderAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("overlapped-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/site"
        let example = repositoryPath("Examples/2026-03-03-release-3.0.json")
        let big = root + "/big.json"
        try #require(try status(["sample", "--placements", "300", "--out", big]) == 0, "the sample step failed")

        let first = try launch(["build", big, "--out", out, "--quiet"])
        let writing = waitUntilWriting(first, into: root + "/.site.building-\(first.processIdentifier)")
        try #require(writing, "the first build ended (status \(first.terminationStatus)) before its staging folder was seen")
        #expect(try status(["build", example, "--out", out, "--quiet"]) == 0)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0, "the first build failed: its temporary folder was removed under it")
        #expect(FileManager.default.fileExists(atPath: out + "/index.html"))
        #expect(FileManager.default.fileExists(atPath: out + "/.fallback-site"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["big.json", "site"])
    }
}
