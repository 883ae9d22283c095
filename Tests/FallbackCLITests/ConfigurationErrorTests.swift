import Foundation
import Testing
@testable import FallbackCLI

/// A configuration file that cannot be used is not a command-line mistake: like ESLint, the tool
/// exits 2 with one line naming the file, line and column, and no usage line (the command line is
/// fine); nothing is printed on standard output and nothing is written. Every command that reads
/// `--config` says so in its help.
@Suite("A bad configuration file")
struct ConfigurationErrorTests {
    /// Every command that takes `--config`, with arguments that would otherwise run it.
    static func arguments(for name: String, in folder: String) -> [String]? {
        switch name {
        case "check": [funnelEraPath]
        case "diff": [paywallEraPath, funnelEraPath]
        case "history": [paywallEraPath, funnelEraPath]
        case "build": [funnelEraPath, "--out", folder + "/site"]
        case "context": [funnelEraPath, "--page", "overview"]
        default: nil
        }
    }

    static let readers = CommandLineTool.commands.map { $0.signature }.filter { $0.option(named: "config") != nil }.map(\.name)

    @Test func everyCommandThatReadsTheFileIsCovered() {
        #expect(Set(Self.readers) == ["check", "diff", "history", "build", "context"], "give the new command's arguments in arguments(for:in:)")
    }

    @Test(arguments: readers, ["{", #"{"failOn": "loud"}"#])
    func exitsTwoWithOneLineAndNoUsage(command: String, configuration: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = try #require(Self.arguments(for: command, in: folder), "no arguments for \(command)")
        let result = run([command] + arguments + ["--config", "c.json"], files: ["c.json": configuration])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        let expected = configuration == "{" ? "error: c.json:1:2: not valid JSON" : "error: c.json:1:12: failOn must be"
        #expect(result.error.hasPrefix(expected), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(!result.error.contains("Usage:"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/site"))
    }

    /// Help that lists the exit statuses lists this one with them.
    @Test(arguments: readers)
    func helpSaysItExitsTwo(command: String) throws {
        let help = run([command, "--help"]).output
        guard let exits = help.range(of: "Exits 0") else { return }
        let two = try #require(help[exits.lowerBound...].range(of: " 2 for "), "`\(command) --help` lists no exit status 2")
        let statuses = help[two.lowerBound...].prefix { $0 != "." }
        #expect(statuses.contains("configuration"), "`\(command) --help` does not say a bad configuration file exits 2: \(statuses)")
    }
}
