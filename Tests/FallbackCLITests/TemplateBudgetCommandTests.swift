import Foundation
import Testing

/// Hostile templates and contexts through `template render` and `build`: a one-line error with the
/// template (or context file), line and column, a non-zero exit, and the previous site kept.
@Suite("template render and build with hostile templates")
struct TemplateBudgetCommandTests {
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aPartialThatIncludesItselfTwiceIsAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write("{{> boom}}", to: folder + "/page.md")
        try Self.write("x{{> boom}}{{> boom}}", to: folder + "/boom.md")
        try Self.write("{}", to: folder + "/c.json")
        let result = run(["template", "render", folder + "/page.md", "--context", folder + "/c.json", "--partials", folder])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("error: \(folder)/boom.md:1:"), "\(result.error.prefix(300))")
        #expect(result.error.contains(#"partial "boom" would be expanded more than"#))
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test func sectionsNested5000DeepAreAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.write(String(repeating: "{{#a}}", count: 5_000) + String(repeating: "{{/a}}", count: 5_000), to: folder + "/page.md")
        try Self.write(#"{"a": true}"#, to: folder + "/c.json")
        let result = run(["template", "render", folder + "/page.md", "--context", folder + "/c.json"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: \(folder)/page.md:1:"), "\(result.error.prefix(300))")
        #expect(result.error.contains("sections nested deeper than"))
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test(arguments: ["[", #"{"a":"#])
    func aContextNested10000DeepIsAnError(opening: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let closing = opening == "[" ? "]" : "}"
        try Self.write(String(repeating: opening, count: 10_000) + "1" + String(repeating: closing, count: 10_000), to: folder + "/c.json")
        try Self.write("{{#a}}{{.}}{{/a}}", to: folder + "/page.md")
        let result = run(["template", "render", folder + "/page.md", "--context", folder + "/c.json"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: \(folder)/c.json:1:"), "\(result.error.prefix(300))")
        #expect(result.error.contains("nested deeper than"))
        #expect(result.error.split(separator: "\n").count == 1)
    }

    /// A context as deep as the limit still renders.
    @Test func aContextAtTheDepthLimitRenders() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let depth = 200
        try Self.write(String(repeating: #"{"a":"#, count: depth) + "7" + String(repeating: "}", count: depth), to: folder + "/c.json")
        try Self.write("{{" + Array(repeating: "a", count: depth).joined(separator: ".") + "}}", to: folder + "/page.md")
        let result = run(["template", "render", folder + "/page.md", "--context", folder + "/c.json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "7")
    }

    /// A theme whose partial explodes fails the build with the partial's name and position, and the
    /// site built before stays as it was.
    @Test func aBuildWithAnExplodingPartialKeepsThePreviousSite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/site"
        let example = repositoryPath("Examples/2026-06-23-release-3.3.json")
        #expect(run(["build", example, "--out", out, "--quiet"]).status == 0)
        let before = try Self.contents(of: out)
        #expect(!before.isEmpty)
        try Self.write("x{{> severity-stats}}{{> severity-stats}}", to: folder + "/templates/partials/severity-stats.md")
        let result = run(["build", example, "--out", out, "--templates", folder + "/templates"])
        #expect(result.status != 0)
        #expect(result.error.hasPrefix("error: \(folder)/templates/partials/severity-stats.md:1:"), "\(result.error.prefix(300))")
        // Which limit stops it first depends on how many steps the page took before the partial
        // (each expansion costs about 4 of the 2,000,000 steps, and 500,000 expansions are allowed):
        // either is the right outcome, as long as it names the partial and its position.
        #expect(
            result.error.contains(#"partial "severity-stats" would be expanded more than"#)
                || result.error.contains("rendering would go past"), "\(result.error.prefix(300))")
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(try Self.contents(of: out) == before)
    }

    /// Every file below `folder` with its bytes.
    static func contents(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder)! {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = FileManager.default.contents(atPath: folder + "/" + path)
            }
        }
        return files
    }
}
