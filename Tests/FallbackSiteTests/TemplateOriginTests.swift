@testable import FallbackSite
import Foundation
import Testing

/// A template error says where the template is: a file the user gave by its path, a template the
/// tool carries as built in.
@Suite("Template origin in errors")
struct TemplateOriginTests {
    @Test func aBuiltInTemplateIsSaidToBeBuiltIn() throws {
        var templates = Theme.builtIn.templates
        templates["overview.md"] = "# Overview\n{{/nothing}}"
        let error = #expect(throws: TemplateError.self) { try TemplateSet(theme: Theme(templates: templates, assets: [:])) }
        #expect(error?.description.hasPrefix("built-in template overview.md:2:1") == true, "\(String(describing: error))")
    }

    @Test func anOverrideKeepsThePathItWasReadFrom() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("origin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/partials", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("x\n{{/nothing}}".utf8).write(to: URL(fileURLWithPath: root + "/partials/findings.md"))
        let theme = try Theme.builtIn(overridingTemplatesWith: root + "/", assetsWith: nil)
        let error = #expect(throws: TemplateError.self) { try TemplateSet(theme: theme) }
        #expect(error?.description.hasPrefix("\(root)/partials/findings.md:2:1") == true, "\(String(describing: error))")
    }
}
