import Foundation
import Testing

/// The hook's `args: ['--']`: pre-commit appends file names after it, so a name that looks like
/// an option is a file.
@Suite("The pre-commit hook ends options before file names")
struct PreCommitOptionEndTests {
    static let optionLikeName = "--format=json/rovenue-fallback.json"

    @Test func argsEndWithTheEndOfOptions() throws {
        let args = try #require(try PreCommitHookTests.hook()["args"]?.items).map(\.text)
        #expect(args.last == "--")
    }

    /// The file the `files` pattern lets through reads as a file after the hook's arguments,
    /// and as an option without them.
    @Test func anOptionLikeFolderIsReadAsAFile() throws {
        let hook = try PreCommitHookTests.hook()
        let entry = try #require(hook["entry"]?.text).split(separator: " ").map(String.init).dropFirst()
        let args = try #require(hook["args"]?.items).compactMap(\.text)
        let snapshot = try String(contentsOfFile: repositoryPath("Examples/2026-06-23-release-3.3.json"), encoding: .utf8)
        let withArgs = run(Array(entry) + args + [Self.optionLikeName], files: [Self.optionLikeName: snapshot])
        #expect(withArgs.status == 1, "\(withArgs.error)")
        #expect(withArgs.output.contains("rovenue-fallback.json"))
        #expect(withArgs.output.contains("entry-skipped"))
        let withoutArgs = run(Array(entry) + [Self.optionLikeName], files: [Self.optionLikeName: snapshot])
        #expect(withoutArgs.status == 2)
    }
}
