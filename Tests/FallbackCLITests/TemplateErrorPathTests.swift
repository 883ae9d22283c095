import Foundation
import Testing

/// A template error names a file an editor can open: an override by the path the user gave
/// (`th/templates/overview.md:3:1`), a built-in template as built in.
@Suite("Template error paths")
struct TemplateErrorPathTests {
    static let snapshot = repositoryPath("Examples/2026-07-21-release-3.4.json")

    func build(templates: String, in root: String) -> Run {
        run(["build", Self.snapshot, "--out", root + "/site", "--templates", templates])
    }

    @Test func anOverrideIsNamedByItsPath() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let templates = root + "/th/templates"
        try FileManager.default.createDirectory(atPath: templates + "/partials", withIntermediateDirectories: true)
        try Data("# Overview\n\n{{#snapshot}}\n".utf8).write(to: URL(fileURLWithPath: templates + "/overview.md"))
        let result = build(templates: templates, in: root)
        #expect(result.status != 0)
        #expect(result.error.contains("error: \(templates)/overview.md:3:1"), "\(result.error)")
        try FileManager.default.removeItem(atPath: templates + "/overview.md")
        try Data("{{#findings}}\n".utf8).write(to: URL(fileURLWithPath: templates + "/partials/findings.md"))
        let partial = build(templates: templates + "/", in: root)
        #expect(partial.error.contains("error: \(templates)/partials/findings.md:1:1"), "\(partial.error)")
    }

    @Test func aMissingTemplatesFolderIsSaidNotToExist() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = build(templates: root + "/gone", in: root)
        #expect(result.status != 0)
        #expect(result.error.contains("\(root)/gone does not exist"), "\(result.error)")
        let file = root + "/file"
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(build(templates: file, in: root).error.contains("\(file) is not a folder"))
    }
}
