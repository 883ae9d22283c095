import Foundation
import Testing

/// A suite that needs Chromium, Node or the built tool is skipped on a developer's machine when
/// the program is missing, and fails in CI (`CI=true`), where a skip would read as passed.
@Suite("Skipped suites in CI")
struct SkippedSuiteTests {
    @Test(arguments: [
        (true, [:], true),
        (true, ["CI": "true"], true),
        (false, [:], false),
        (false, ["CI": "false"], false),
        (false, ["CI": ""], false),
        (false, ["CI": "true"], true),
        (false, ["CI": "1"], true),
        (false, ["CI": "TRUE"], true),
    ] as [(Bool, [String: String], Bool)])
    func aMissingProgramSkipsOnlyOutsideCI(found: Bool, environment: [String: String], runs: Bool) {
        #expect(suiteRuns(programFound: found, environment: environment) == runs)
    }

    /// A folder for PATH with every program of today's PATH except those named `hidden`.
    static func path(hiding hidden: Set<String>, in folder: String) throws -> String {
        let bin = folder + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        var linked = Set<String>()
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: String(directory))) ?? []
            where !hidden.contains(name) && linked.insert(name).inserted {
                try FileManager.default.createSymbolicLink(atPath: bin + "/" + name, withDestinationPath: "\(directory)/\(name)")
            }
        }
        return bin
    }

    /// Site/test/run.sh with `environment` and PATH lacking `hidden`; its exit status and output.
    static func runThemeTests(hiding hidden: Set<String>, ci: Bool) throws -> (status: Int32, output: String) {
        let bash = try #require(executable("bash"))
        let scratch = try TemporaryFolder("runner")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = try path(hiding: hidden, in: scratch.path)
        environment["TMPDIR"] = scratch.path
        environment["CI"] = ci ? "true" : nil
        environment["CHROMIUM"] = nil
        environment["FALLBACK_SITE"] = scratch.path + "/no-such-tool"
        // Whether `make browser-deps` fetched axe-core on this machine must not change the count.
        environment["AXE_JS"] = scratch.path + "/no-such-axe.min.js"
        let script = repositoryRoot.appendingPathComponent("Site/test/run.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bash)
        process.arguments = [script]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["bin"], "run.sh left files behind")
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let browsers: Set<String> = ["chromium", "chromium-browser", "google-chrome"]

    @Test func theThemeTestsFailInCIWithoutChromiumOrTheTool() throws {
        let result = try Self.runThemeTests(hiding: Self.browsers, ci: true)
        #expect(result.status != 0)
        #expect(result.output.contains("error: the browser tests (mocks and built sites) cannot run: Chromium is not on PATH"))
        #expect(result.output.contains("error: the built-site tests cannot run: no fallback-site executable"))
        let last = try #require(result.output.split(separator: "\n").last)
        #expect(last.wholeMatch(of: /0 passed, [1-9][0-9]* failed, 0 skipped/) != nil, "\(last)")
    }

    @Test func theThemeTestsFailInCIWithoutNode() throws {
        let result = try Self.runThemeTests(hiding: Self.browsers.union(["node", "nodejs"]), ci: true)
        #expect(result.status != 0)
        #expect(result.output.contains("error: every theme test cannot run: node is not on PATH"))
        #expect(!result.output.contains("RESULT passed="))
    }

    /// Outside CI the same run skips, and says so in its last line; the Node-only tests still run.
    @Test(.enabled(if: suiteRuns(programFound: node != nil), "needs Node"))
    func theThemeTestsSkipVisiblyOutsideCI() throws {
        try #require(node != nil, "Node is not on PATH (make browser-deps); CI=true does not skip")
        let result = try Self.runThemeTests(hiding: Self.browsers, ci: false)
        #expect(result.status == 0, "\(result.output.suffix(1000))")
        #expect(result.output.contains("SKIPPED: the browser tests (mocks and built sites): Chromium is not on PATH"))
        #expect(result.output.contains("SKIPPED: the accessibility gate (axe-core): no axe.min.js at"))
        #expect(result.output.contains("RESULT passed="))
        let last = try #require(result.output.split(separator: "\n").last)
        #expect(last.wholeMatch(of: /[1-9][0-9]* passed, 0 failed, 3 skipped/) != nil, "\(last)")
    }
}
