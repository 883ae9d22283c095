import Foundation
import Testing

/// `make examples` prints at most one screen for the Examples, with each release's errors visible:
/// the `fallback-site` lines of the Makefile's `examples` recipe run as written (through `sh`, in
/// the repository's root, so `Examples/*.json` expands as make expands it), with the built tool
/// for `$(SWIFT) run -q fallback-site` and a temporary folder for `$(SITE_OUT)`.
@Suite(
    "make examples fits on one screen",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct MakeExamplesOutputTests {
    /// One screen: what a 80×25 terminal shows without scrolling.
    static let screenLines = 25

    /// The `examples` recipe's lines, without their leading tab.
    static func recipe() throws -> [String] {
        let makefile = try String(contentsOfFile: repositoryPath("Makefile"), encoding: .utf8)
        let lines = makefile.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("examples:") }, "no examples target in the Makefile")
        return lines[(start + 1)...].prefix { $0.hasPrefix("\t") }.map { String($0.dropFirst()) }
    }

    /// Runs `command` with `sh -c` in the repository's root; standard output and error together.
    static func shell(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A recipe line as the shell runs it: the built tool for `$(SWIFT) run -q fallback-site`,
    /// `site` for `$(SITE_OUT)`.
    static func command(_ line: String, tool: String, site: String) throws -> String {
        let line = line.hasPrefix("@") ? String(line.dropFirst()) : line
        let prefix = "$(SWIFT) run -q fallback-site "
        guard line.hasPrefix(prefix) else { return line.replacingOccurrences(of: "$(SITE_OUT)", with: site) }
        return "'\(tool)' " + line.dropFirst(prefix.count).replacingOccurrences(of: "$(SITE_OUT)", with: site)
    }

    @Test func theRecipeFitsOnOneScreenAndShowsEveryError() throws {
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let recipe = try Self.recipe()
        // SwiftPM's own progress lines would push the findings off the screen.
        for line in recipe where line.contains("$(SWIFT)") {
            #expect(line.contains(" -q "), "\(line) is not quiet")
        }
        let check = try #require(recipe.first { $0.contains("fallback-site check") }, "the recipe checks no snapshots")
        try withInputTestFolder { folder in
            var printed = 0
            var checkOutput = ""
            for line in recipe where !line.contains("$(SWIFT) build") {
                let result = try Self.shell(try Self.command(line, tool: tool, site: folder + "/_site"))
                #expect(result.status == 0, "\(line): \(result.output)")
                // make echoes each line not starting with @ before it runs it.
                printed += (line.hasPrefix("@") ? 0 : 1) + result.output.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                if line == check { checkOutput = result.output }
            }
            #expect(printed <= Self.screenLines, "make examples prints \(printed) lines")

            // Every error of every release, as the JSON report lists them, has its line.
            let json = try Self.shell(try Self.command(check, tool: tool, site: folder) + " --format json")
            let files = try #require(try jsonObject(json.output)["files"] as? [[String: Any]])
            #expect(files.count == 5)
            var errors = 0
            for file in files {
                let path = try #require(file["path"] as? String)
                #expect(path.hasPrefix("Examples/"))
                #expect(checkOutput.contains("\n\(path): the SDK ") || checkOutput.hasPrefix("\(path): the SDK "), "no verdict for \(path)")
                for finding in try #require(file["findings"] as? [[String: Any]]) where finding["severity"] as? String == "error" {
                    let line = try #require(finding["line"] as? Int)
                    let column = try #require(finding["column"] as? Int)
                    let rule = try #require(finding["rule"] as? String)
                    #expect(checkOutput.contains("\(path):\(line):\(column): error: [\(rule)] "), "\(path) \(rule)")
                    errors += 1
                }
            }
            #expect(errors == 3, "the Examples hold three errors (Examples/README.md)")
        }
    }
}
