import Foundation
import Testing

/// `template render --partials DIR` finds a partial exactly where `build --templates DIR` does.
@Suite("template render and build find the same partials")
struct PartialLookupTests {
    /// A partial's file below the templates folder, and the tag that names it.
    static let cases: [(file: String, tag: String)] = [
        ("partials/p.md", "p"), ("partials/p.html", "p"), ("p.md", "p"), ("p.html", "p.html"), ("partials/q.md", "partials/q"),
    ]

    @Test(arguments: cases.indices)
    func bothFindThePartial(index: Int) throws {
        let (file, tag) = Self.cases[index]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let templates = folder + "/templates"
        try FileManager.default.createDirectory(atPath: templates + "/partials", withIntermediateDirectories: true)
        try Data("marker-\(index)-found".utf8).write(to: URL(fileURLWithPath: "\(templates)/\(file)"))
        try Data("# Overview\n\n{{> \(tag)}}".utf8).write(to: URL(fileURLWithPath: templates + "/overview.md"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))

        let rendered = runAt(
            ["template", "render", templates + "/overview.md", "--context", folder + "/c.json", "--partials", templates], clock: Date())
        #expect(rendered.status == 0, "\(rendered.error)")
        #expect(rendered.output == "# Overview\n\nmarker-\(index)-found")

        let built = runAt(["build", paywallEraPath, "--templates", templates, "--out", folder + "/site", "--quiet"], clock: Date())
        #expect(built.status == 0, "\(built.error)")
        #expect(text(at: folder + "/site/index.html")?.contains("marker-\(index)-found") == true)
    }

    /// A partial's name cannot leave the folder, nor name a hidden file the build would not read:
    /// also where a `/` is part of a larger `Character` (here after a prepended U+0600), which the
    /// file system still splits at.
    @Test(arguments: ["../secret", "partials/../../secret", ".hidden", "/etc/hostname", "\u{600}/.hidden", "\u{600}/../.hidden"])
    func aNameOutsideTheFolderIsNotRead(tag: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let templates = folder + "/templates"
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try Data("leaked".utf8).write(to: URL(fileURLWithPath: folder + "/secret.md"))
        try Data("leaked".utf8).write(to: URL(fileURLWithPath: templates + "/.hidden.md"))
        try FileManager.default.createDirectory(atPath: templates + "/\u{600}", withIntermediateDirectories: true)
        try Data("leaked".utf8).write(to: URL(fileURLWithPath: templates + "/\u{600}/.hidden.md"))
        try Data("a{{> \(tag)}}b".utf8).write(to: URL(fileURLWithPath: templates + "/page.md"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
        let result = runAt(["template", "render", templates + "/page.md", "--context", folder + "/c.json", "--partials", templates], clock: Date())
        #expect(result.status == 0)
        #expect(result.output == "ab")
    }
}
