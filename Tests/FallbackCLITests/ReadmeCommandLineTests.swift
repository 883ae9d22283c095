import Foundation
import Testing

/// Every `fallback-site …` command line in README.md's code blocks runs, as a reader would type it,
/// in a temporary folder that holds what the README's examples name, and exits as documented.
///
/// A command line is one logical line of a fenced code block (a trailing `\` joins the next) that
/// starts, after any `$ `, `- run: ` or `run: `, with `fallback-site`, `swift run fallback-site` or
/// `.build/<config>/fallback-site`. `swift run fallback-site` runs the tool the tests built. Any other
/// line that names `fallback-site` followed by a word (inside `$(…)`, after a pipe) is neither
/// run nor excluded, and fails the test: teach `commandLines` to run it, or exclude it below.
@Suite(
    "README: every command line runs",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct ReadmeCommandLineTests {
    /// A command line of the README, with the line of the file it starts on.
    struct CommandLine: CustomTestStringConvertible, Sendable {
        let line: Int
        let text: String
        var testDescription: String { "README.md:\(line): \(text)" }
    }

    /// Lines a test cannot run, each with why. Matched by substring of the command line.
    static let excluded: [(match: String, reason: String)] = [
        ("--watch", "runs until interrupted"),
        ("${{", "a GitHub Actions expression, only meaningful in a workflow run"),
        ("GITHUB_TOKEN", "needs a GitHub token"),
        ("gh ", "needs the GitHub CLI and a token"),
        ("eval \"$(fallback-site completions", "loads a script into the interactive shell; CompletionScriptTests sources it"),
    ]

    /// Lines that exit with something other than 0, with the README's words for why. Matched by substring.
    static let expectedStatus: [(match: String, status: Int32, reason: String)] = [
        ("check Examples/2026-07-21-release-3.4.json ", 1, "the tour says: exit 1, an entry the SDK skips"),
        ("diff Examples/2026-06-23-release-3.3.json Examples/2026-07-21-release-3.4.json", 1, "the tour says: exit 1, breaking changes"),
    ]

    static let readme: String = (try? String(contentsOfFile: repositoryPath("README.md"), encoding: .utf8)) ?? ""

    /// Every logical line of a fenced code block, with the line it starts on.
    static func codeLines(_ text: String) -> [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        var fence: String?
        var pending: (line: Int, text: String)?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if let open = fence {
                if trimmed.hasPrefix(open), trimmed.allSatisfy({ $0 == open.first }) {
                    fence = nil
                    if let last = pending { result.append(last) }
                    pending = nil
                    continue
                }
                let joined = pending.map { (line: $0.line, text: $0.text + " " + trimmed) } ?? (line: index + 1, text: trimmed)
                if joined.text.hasSuffix("\\") {
                    pending = (joined.line, String(joined.text.dropLast()).trimmingCharacters(in: .whitespaces))
                } else {
                    pending = nil
                    result.append(joined)
                }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix { $0 == trimmed.first })
            }
        }
        return result
    }

    /// The runnable command lines, and the lines that name the tool but are not recognised as one.
    static func commandLines(_ text: String) -> (commands: [CommandLine], unrecognised: [CommandLine]) {
        let command = #/^(?:mkdir -p \S+ && )?(?:swift run (?:-c (?:debug|release) )?|\.build/(?:debug|release)/)?fallback-site(?:\s|$)/#
        let mention = #/(?:^|[\s;|&(`])(?:\S*/)?fallback-site\s+[a-z-]/#
        var commands: [CommandLine] = []
        var unrecognised: [CommandLine] = []
        for (line, raw) in codeLines(text) {
            var text = raw
            for prefix in ["$ ", "- run: ", "run: "] where text.hasPrefix(prefix) {
                text = String(text.dropFirst(prefix.count))
            }
            if text.firstMatch(of: command) != nil {
                commands.append(CommandLine(line: line, text: text))
            } else if raw.firstMatch(of: mention) != nil {
                unrecognised.append(CommandLine(line: line, text: raw))
            }
        }
        return (commands, unrecognised)
    }

    static let found = commandLines(readme)

    /// The file the README's CI job checks (`FALLBACK_FILE:` in the workflow), else a default.
    static let fallbackFile: String = {
        let match = readme.firstMatch(of: #/FALLBACK_FILE:\s*(\S+)/#)
        return match.map { String($0.1) } ?? "App/Resources/rovenue-fallback.json"
    }()

    @Test func theReadmeShowsCommandLinesAndEachIsRunOrExcluded() {
        #expect(Self.found.commands.count >= 5, "the extraction found too few command lines: \(Self.found.commands.map(\.testDescription))")
        for line in Self.found.unrecognised where !Self.excluded.contains(where: { line.text.contains($0.match) }) {
            Issue.record(
                "\(line.testDescription): names fallback-site but is neither run nor excluded; make it a command line of its own, or add it to ReadmeCommandLineTests.excluded with a reason")
        }
    }

    @Test func theExtractionJoinsContinuationsAndIgnoresOtherLines() {
        let sample = """
            text
            ```sh
            swift run fallback-site resolve a.json b \\
                --format json
            echo fallback-site
            ```
              ```yaml
                  run: fallback-site check "$F" --summary
                  path: .fallback-site
                  x=$(fallback-site check a)
              ```
            `fallback-site check inline`
            """
        let found = Self.commandLines(sample)
        #expect(found.commands.map(\.text) == ["swift run fallback-site resolve a.json b --format json", #"fallback-site check "$F" --summary"#])
        #expect(found.commands.map(\.line) == [3, 8])
        #expect(found.unrecognised.map(\.line) == [10])
    }

    /// A folder laid out as the README's examples expect: `Examples/`, the test fixtures, a git
    /// repository whose `FALLBACK_FILE` has two commits, and `previous.json` (what the CI job's
    /// diff step writes first).
    static func workspace() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/Tests/RovenueFallbackTests", withIntermediateDirectories: true)
        try manager.copyItem(atPath: repositoryPath("Examples"), toPath: folder + "/Examples")
        try manager.copyItem(atPath: repositoryPath("Tests/RovenueFallbackTests/Fixtures"), toPath: folder + "/Tests/RovenueFallbackTests/Fixtures")
        let file = folder + "/" + fallbackFile
        try manager.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try runGit(["init", "-q"], in: folder)
        for (index, release) in ["2026-03-03-release-3.0.json", "2026-05-19-release-3.2.json"].enumerated() {
            if index == 0 { try manager.copyItem(atPath: repositoryPath("Examples/" + release), toPath: folder + "/previous.json") }
            try? manager.removeItem(atPath: file)
            try manager.copyItem(atPath: repositoryPath("Examples/" + release), toPath: file)
            try runGit(["add", fallbackFile], in: folder)
            try runGit(["-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", release], in: folder)
        }
        return folder
    }

    /// Runs `line` with `sh -c` in `folder`, the built tool first on the path; nil when it has not
    /// ended after `timeout` seconds (it is then stopped).
    static func run(_ line: String, in folder: String, tool: String, timeout: Double = 120) throws -> (status: Int32, error: String)? {
        let bin = folder + "/.bin"
        if !FileManager.default.fileExists(atPath: bin + "/fallback-site") {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/fallback-site", withDestinationPath: tool)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let text = line.replacing(#/^(?:swift run (?:-c (?:debug|release) )?|\.build/(?:debug|release)/)fallback-site/#, with: "fallback-site")
        process.arguments = ["-c", text]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") && $0.key != "NO_COLOR" }
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = folder
        environment["GIT_CONFIG_GLOBAL"] = folder + "/.gitconfig-test"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["FALLBACK_FILE"] = fallbackFile
        environment["GITHUB_STEP_SUMMARY"] = folder + "/step-summary.md"
        // 2026-08-01: after every Examples release, none of them stale.
        environment["SOURCE_DATE_EPOCH"] = "1785542400"
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let error = errors.fileHandleForReading.readDataToEndOfFile()
        guard ended.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            return nil
        }
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }

    @Test func everyCommandLineExitsAsDocumented() throws {
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for command in Self.found.commands {
            if Self.excluded.contains(where: { command.text.contains($0.match) }) { continue }
            let expected = Self.expectedStatus.first { command.text.contains($0.match) }?.status ?? 0
            guard let result = try Self.run(command.text, in: folder, tool: tool) else {
                Issue.record("\(command.testDescription): still running after 120 s; exclude it with a reason if it runs until stopped")
                continue
            }
            #expect(
                result.status == expected,
                "\(command.testDescription): exit status \(result.status), expected \(expected); standard error: \(result.error)")
        }
    }
}
