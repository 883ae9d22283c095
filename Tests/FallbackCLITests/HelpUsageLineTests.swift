@testable import FallbackCLI
import Foundation
import Testing

/// The USAGE lines read as a command is typed: positionals first, an action word literally.
@Suite("Usage lines and help help")
struct HelpUsageLineTests {
    func usageLine(_ command: String) -> String? {
        run([command, "--help"]).output.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map(String.init)
    }

    @Test func templateUsageNamesTheActionBeforeOptions() {
        #expect(
            usageLine("template")
                == "USAGE: fallback-site template render <template-file> --context <json-file> [--partials <dir>] [--escape <mode>]")
    }

    @Test func themeUsageNamesTheAction() {
        #expect(usageLine("theme") == "USAGE: fallback-site theme export <dir> [--force]")
    }

    @Test func usageErrorShowsTheSameUsage() {
        let result = run(["template", "render"])
        #expect(result.error.contains("Usage: fallback-site template render <template-file> --context <json-file>"), "\(result.error)")
    }

    @Test func helpHelpPrintsTheToolsHelp() {
        let result = run(["help", "help"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(result.output == run(["--help"]).output)
    }

    /// The example passes --partials the templates folder, which is what the help says it is,
    /// and the rendered page holds what the partials it names render (not an empty include).
    @Test func templateExampleRendersItsPartials() throws {
        let example = try #require(TemplateCommand.signature.examples.first)
        let renderLine = try #require(example.lines.last)
        #expect(renderLine.hasSuffix("--partials Templates"))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let context = run(["context", repositoryPath("Examples/2026-07-21-release-3.4.json"), "--page", "checks"])
        #expect(context.status == 0)
        let contextPath = folder + "/checks.json"
        try Data(context.output.utf8).write(to: URL(fileURLWithPath: contextPath))
        let template = repositoryPath("Templates/checks.md")
        let withPartials = run(["template", "render", template, "--context", contextPath, "--partials", repositoryPath("Templates")])
        let without = run(["template", "render", template, "--context", contextPath])
        #expect(withPartials.status == 0, "\(withPartials.error)")
        #expect(withPartials.output.count > without.output.count, "the example's partials render nothing")
    }
}
