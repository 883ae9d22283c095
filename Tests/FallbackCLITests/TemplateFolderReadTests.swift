import FallbackCLI
import FallbackSite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Templates, partials and assets are read from the folders a user names through `RegularFile`:
/// something there that is not a regular file is refused with one line that names it, never
/// skipped or rendered as empty. Every path is in a temporary folder.
@Suite("--templates, --assets and --partials read only regular files")
struct TemplateFolderReadTests {
    let example = repositoryPath("Examples/2026-03-03-release-3.0.json")

    func expectOneLineRefusal(_ result: Run, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), "\(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("NSCocoaErrorDomain"), "\(result.error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(result.error.contains(word), "\(result.error) should mention \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["templates", "assets"], ["page.md", "sub/page.md"])
    func aFIFOInAThemeFolderIsRefused(option: String, name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theme = folder + "/" + option
        let fifo = theme + "/" + name
        try FileManager.default.createDirectory(atPath: (fifo as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = runWithDiskReads(["build", example, "--out", folder + "/site", "--\(option)", theme])
        expectOneLineRefusal(result, mentioning: ["cannot read \(fifo): it is a FIFO, not a regular file"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/site"))
    }

    /// Hidden files are left out, as before, whatever they are.
    @Test func aHiddenFIFOIsLeftOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/templates", withIntermediateDirectories: true)
        try #require(mkfifo(folder + "/templates/.pipe", 0o600) == 0)
        let result = runWithDiskReads(["build", example, "--out", folder + "/site", "--templates", folder + "/templates", "--quiet"])
        #expect(result.status == 0, "\(result.error)")
    }

    /// A link in a theme folder is read as the file it points to, under its own name.
    @Test func aLinkToATemplateIsReadUnderItsOwnName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/templates", withIntermediateDirectories: true)
        try Data("# Linked overview\n".utf8).write(to: URL(fileURLWithPath: folder + "/mine.md"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/templates/overview.md", withDestinationPath: folder + "/mine.md")
        let theme = try Theme.builtIn(overridingTemplatesWith: folder + "/templates", assetsWith: nil)
        #expect(theme.templates["overview.md"] == "# Linked overview\n")
    }

    @Test func aFIFOPartialIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("a{{> p}}b".utf8).write(to: URL(fileURLWithPath: folder + "/page.md"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
        try FileManager.default.createDirectory(atPath: folder + "/partials", withIntermediateDirectories: true)
        try #require(mkfifo(folder + "/partials/p.md", 0o600) == 0)
        let result = runWithDiskReads(["template", "render", folder + "/page.md", "--context", folder + "/c.json", "--partials", folder + "/partials"])
        expectOneLineRefusal(result, mentioning: ["cannot read \(folder)/partials/p.md: it is a FIFO, not a regular file"])
        #expect(result.output.isEmpty)
    }

    /// A missing partial still renders as empty, as Mustache says.
    @Test func aMissingPartialRendersAsEmpty() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("a{{> p}}b".utf8).write(to: URL(fileURLWithPath: folder + "/page.md"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
        let result = runWithDiskReads(["template", "render", folder + "/page.md", "--context", folder + "/c.json", "--partials", folder])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "ab")
    }

    /// A template that exceeds a render budget is a problem with the input, like one that does not
    /// parse: exit 2, and the previous site is kept.
    @Test func aTemplateThatCannotRenderExitsTwoLikeOneThatCannotParse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/exploding/partials", withIntermediateDirectories: true)
        try Data("x{{> severity-stats}}{{> severity-stats}}".utf8).write(
            to: URL(fileURLWithPath: folder + "/exploding/partials/severity-stats.md"))
        try FileManager.default.createDirectory(atPath: folder + "/broken", withIntermediateDirectories: true)
        try Data("{{#open}}".utf8).write(to: URL(fileURLWithPath: folder + "/broken/overview.md"))
        let exploding = run(["build", example, "--out", folder + "/site", "--templates", folder + "/exploding"])
        let broken = run(["build", example, "--out", folder + "/site", "--templates", folder + "/broken"])
        #expect(broken.status == 2, "\(broken.error)")
        #expect(exploding.status == broken.status, "\(exploding.error)")
        #expect(exploding.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/site"))
    }
}
