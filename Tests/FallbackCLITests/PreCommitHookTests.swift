import FallbackCLI
import Foundation
import Testing

/// `.pre-commit-hooks.yaml`: the hook pre-commit installs from this repository.
@Suite("The pre-commit hook")
struct PreCommitHookTests {
    static func hook() throws -> WorkflowYAML {
        let text = try String(contentsOfFile: repositoryPath(".pre-commit-hooks.yaml"), encoding: .utf8)
        let hooks = try WorkflowYAML.parse(text).items
        try #require(hooks.count == 1)
        return hooks[0]
    }

    @Test func declaresASwiftHookThatPassesFileNames() throws {
        let hook = try Self.hook()
        #expect(hook["id"]?.text == "fallback-site-check")
        #expect(hook["language"]?.text == "swift")
        #expect(hook["pass_filenames"]?.text == "true")
        #expect(hook["name"]?.text?.isEmpty == false)
    }

    /// pre-commit builds the package and runs `entry` from its products: the first word must be
    /// the executable product, the rest a command that takes the file names it appends.
    @Test func entryRunsTheExecutableProductsCheck() throws {
        let entry = try #require(try Self.hook()["entry"]?.text).split(separator: " ").map(String.init)
        #expect(entry.first == CommandLineTool.name)
        let manifest = try String(contentsOfFile: repositoryPath("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".executable(name: \"\(CommandLineTool.name)\""))
        let arguments = Array(entry.dropFirst())
        #expect(arguments == ["check"])
        #expect(run(arguments + [repositoryPath("Examples/2026-03-03-release-3.0.json")]).status == 0)
        #expect(run(arguments + [repositoryPath("Examples/2026-06-23-release-3.3.json")]).status == 1)
    }

    @Test(arguments: [
        ("App/rovenue-fallback.json", true),
        ("rovenue-fallback.json", true),
        ("ios/App/Resources/rovenue-fallback.json", true),
        ("other.json", false),
        ("App/rovenue-fallback.json.bak", false),
        ("App/rovenue-fallbackXjson", false),
        ("--config=rovenue-fallback.json", false),
        ("old-rovenue-fallback.json", false),
    ])
    func filesMatchesTheFallbackFileOnly(path: String, matches: Bool) throws {
        let pattern = try #require(try Self.hook()["files"]?.text)
        // pre-commit applies `files` with Python's re.search: unanchored unless the pattern anchors.
        let expression = try NSRegularExpression(pattern: pattern)
        let found = expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        #expect(found == matches, "\(pattern) on \(path)")
    }
}
