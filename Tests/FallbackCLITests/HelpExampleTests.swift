import Foundation
import Testing
@testable import FallbackCLI

private let commandNames = CommandLineTool.commands.map { $0.signature.name }

@Suite("Every command's help ends with examples")
struct HelpExampleTests {
    /// `help NAME`, `NAME --help` and `NAME -h` print the same help, on standard output, exit 0.
    @Test(arguments: commandNames)
    func helpIsTheSameHoweverItIsAskedFor(name: String) {
        let asked = [run(["help", name]), run([name, "--help"]), run([name, "-h"])]
        for result in asked {
            #expect(result.status == 0)
            #expect(result.error.isEmpty)
        }
        #expect(asked[0].output == asked[1].output)
        #expect(asked[1].output == asked[2].output)
        #expect(asked[0].output.hasPrefix("OVERVIEW: "))
    }

    /// The help's last section is EXAMPLES, each a summary then `$ fallback-site NAME …` lines, the
    /// last of them running the command itself.
    @Test(arguments: commandNames)
    func helpEndsWithExamplesOfTheCommand(name: String) throws {
        let help = run([name, "--help"]).output
        let sections = help.components(separatedBy: "\nEXAMPLES:\n")
        #expect(sections.count == 2, "`\(name) --help` has no EXAMPLES: section")
        let section = try #require(sections.last)
        #expect(!section.contains("OPTIONS:") && !section.contains("ARGUMENTS:"), "EXAMPLES: is not the last section")
        let signature = try #require(CommandLineTool.command(named: name)?.signature)
        #expect(!signature.examples.isEmpty)
        for example in signature.examples {
            let lastLine = try #require(example.lines.last)
            #expect(lastLine.hasPrefix(name + " "), "the example '\(example.summary)' does not end by running \(name)")
            #expect(section.contains("  \(example.summary)\n"))
            for line in example.lines { #expect(section.contains("    $ fallback-site \(line)\n")) }
        }
    }

    @Test func theToolsOwnHelpEndsWithExamples() {
        let help = run(["--help"]).output
        #expect(help.contains("\nEXAMPLES:\n"))
        #expect(help.hasSuffix("    $ fallback-site \(CommandLineTool.examples.last!.lines.last!)\n"))
        #expect(run(["help"]).output == help)
    }
}

/// Every example in every help runs as shown: in a POSIX shell, in a temporary folder that holds
/// the repository's Examples/ and Templates/, with the built tool on PATH.
@Suite(
    "Help examples run as shown",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct HelpExamplesRunTests {
    static let examples: [(command: String, example: CommandSignature.Example)] =
        CommandLineTool.examples.map { ("fallback-site", $0) }
        + CommandLineTool.commands.flatMap { command in command.signature.examples.map { (command.signature.name, $0) } }

    @Test(arguments: examples.indices)
    func exampleRuns(index: Int) throws {
        let (command, example) = Self.examples[index]
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for input in ["Examples", "Templates"] {
            try FileManager.default.createSymbolicLink(atPath: folder + "/" + input, withDestinationPath: repositoryPath(input))
        }
        let toolFolder = URL(fileURLWithPath: tool).deletingLastPathComponent().path
        for line in example.lines {
            // HOME is the temporary folder too, so that nothing is written outside it.
            let script = "HOME=\(CompletionScript.bashQuoted(folder)) PATH=\(CompletionScript.bashQuoted(toolFolder)):\"$PATH\" fallback-site \(line)"
            let result = try runProgram("/bin/sh", ["-c", script], in: folder)
            let shown = "\(command) example '\(example.summary)': `fallback-site \(line)`"
            // 1 is a verdict (a finding or a change reaches --fail-on), not a failure to run.
            #expect([0, 1].contains(result.status), "\(shown) exits \(result.status): \(result.error)")
            #expect(!result.error.contains("Usage:") && !result.error.contains("error:"), "\(shown): \(result.error)")
        }
    }
}
