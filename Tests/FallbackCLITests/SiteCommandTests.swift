import Foundation
import Testing

/// The folder that holds every temporary folder this test process makes; removed when the process
/// exits, so no test leaves anything behind in the system's temporary folder.
let temporaryRoot: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-cli-tests-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: temporaryRoot) }
    return path
}()

/// A fresh temporary folder inside `temporaryRoot`.
func temporaryFolder() throws -> String {
    let path = temporaryRoot + "/cli-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func text(at path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

@Suite("fallback-site build, theme, context and template")
struct SiteCommandTests {
    let example = repositoryPath("Examples/2026-06-23-release-3.3.json")

    @Test func buildWritesTheSiteAndSaysWhereToOpenIt() throws {
        let out = try temporaryFolder() + "/site"
        let result = run(["build", example, "--out", out])
        #expect(result.status == 0)
        #expect(result.error.contains("open \(out)/index.html"))
        #expect(text(at: out + "/index.html")?.contains("the SDK loads 7 of 8 entries; 1 skipped") == true)
        #expect(FileManager.default.fileExists(atPath: out + "/assets/site.js"))
    }

    @Test func aFolderBuildsTheNewestWithItsHistoryAndChanges() throws {
        let out = try temporaryFolder() + "/site"
        #expect(run(["build", repositoryPath("Examples"), "--out", out, "--quiet"]).status == 0)
        let history = try #require(text(at: out + "/history.html"))
        #expect(history.components(separatedBy: "<tr").count - 2 == 5)
        #expect(history.contains("1 added (streak_rescue) · 1 removed (spring_sale)"))
        #expect(history.contains("content-changed-same-revision"))
        #expect(text(at: out + "/index.html")?.contains("2026-07-21-release-3.4.json") == true)
        #expect(text(at: out + "/changes.html")?.contains("placement-removed") == true)
        let onboarding = try #require(text(at: out + "/placements/onboarding.html"))
        #expect(onboarding.contains("<h2 id=\"revisions-title\">Revisions</h2>"))
        #expect(onboarding.contains("<strong>revision 6</strong>"))
    }

    @Test func gitHistoryGivesTheSameTimelineAsTheFolder() throws {
        let repository = try temporaryFolder()
        func git(_ arguments: String...) throws { try runGit(arguments, in: repository) }
        try git("init", "-q")
        try git("config", "user.email", "ci@example.com")
        try git("config", "user.name", "CI")
        let examples = try FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples")).filter { $0.hasSuffix(".json") }.sorted()
        for name in examples {
            try Data(contentsOf: URL(fileURLWithPath: repositoryPath("Examples/\(name)"))).write(to: URL(fileURLWithPath: repository + "/rovenue-fallback.json"))
            try git("add", "rovenue-fallback.json")
            try git("commit", "-q", "-m", "Release \(name)")
        }
        let out = try temporaryFolder() + "/site"
        #expect(run(["build", "--git-history", repository + "/rovenue-fallback.json", "--out", out, "--quiet"]).status == 0)
        let history = try #require(text(at: out + "/history.html"))
        #expect(history.contains("Release 2026-07-21-release-3.4.json"))
        #expect(history.contains("1 added (streak_rescue) · 1 removed (spring_sale)"))
        #expect(history.components(separatedBy: "<tr").count - 2 == 5)
    }

    @Test func buildHonoursTheConfigurationFile() throws {
        let root = try temporaryFolder()
        try Data(#"{"rules": {"remote-media": "off"}}"#.utf8).write(to: URL(fileURLWithPath: root + "/config.json"))
        #expect(run(["build", example, "--out", root + "/site", "--config", root + "/config.json", "--quiet"]).status == 0)
        let checks = try #require(text(at: root + "/site/checks.html"))
        #expect(!checks.contains("remote-media"))
        #expect(checks.contains("entry-skipped"))
        try Data(#"{"rules": {"remote-medai": "off"}}"#.utf8).write(to: URL(fileURLWithPath: root + "/bad.json"))
        let bad = run(["build", example, "--out", root + "/other", "--config", root + "/bad.json"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("bad.json:1:12"))
    }

    @Test func twoBuildsInSeparateRunsAreByteIdentical() throws {
        let root = try temporaryFolder()
        #expect(run(["build", example, "--out", root + "/a", "--quiet"]).status == 0)
        #expect(run(["build", example, "--out", root + "/b", "--quiet"]).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root + "/a").sorted()
        #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: root + "/b").sorted()))
        for file in files {
            #expect(FileManager.default.contents(atPath: root + "/a/" + file) == FileManager.default.contents(atPath: root + "/b/" + file), "\(file)")
        }
    }

    @Test func buildRefusesAFolderItDidNotWriteUnlessForced() throws {
        let out = try temporaryFolder()
        _ = FileManager.default.createFile(atPath: out + "/notes.txt", contents: Data("mine".utf8))
        let refused = run(["build", example, "--out", out])
        #expect(refused.status == 2)
        #expect(refused.error.contains("pass --force"))
        #expect(text(at: out + "/notes.txt") == "mine")
        #expect(run(["build", example, "--out", out, "--force", "--quiet"]).status == 0)
        #expect(text(at: out + "/notes.txt") == nil)
    }

    @Test func exportedThemeOverridesFileByFile() throws {
        let root = try temporaryFolder()
        #expect(run(["theme", "export", root + "/theme"]).status == 0)
        let checks = root + "/theme/templates/checks.md"
        let original = try #require(text(at: checks))
        #expect(FileManager.default.fileExists(atPath: root + "/theme/assets/site.css"))
        #expect(FileManager.default.fileExists(atPath: root + "/theme/templates/layout.html"))
        // Only the checks template changes; every other page keeps the built-in one.
        let overrides = root + "/overrides"
        try FileManager.default.createDirectory(atPath: overrides, withIntermediateDirectories: true)
        try Data(original.replacingOccurrences(of: "<h1>Checks</h1>", with: "<h1>Release checks</h1>").utf8)
            .write(to: URL(fileURLWithPath: overrides + "/checks.md"))
        let out = root + "/site"
        #expect(run(["build", example, "--out", out, "--templates", overrides, "--quiet"]).status == 0)
        #expect(text(at: out + "/checks.html")?.contains("<h1>Release checks</h1>") == true)
        #expect(text(at: out + "/index.html")?.contains("Placements") == true)
    }

    @Test func aBrokenTemplateNamesItsLineAndColumn() throws {
        let overrides = try temporaryFolder()
        try Data("# Checks\n\n{{#groups}}\n".utf8).write(to: URL(fileURLWithPath: overrides + "/checks.md"))
        let result = run(["build", example, "--out", try temporaryFolder() + "/site", "--templates", overrides])
        #expect(result.status != 0)
        #expect(result.error.contains("checks.md:3:1"))
    }

    /// A template whose Markdown cmark-gfm would fill or walk quadratically (a table of short rows
    /// under a wide header, a row of many cells, images left open before many links) fails the
    /// build with exit 2, the template's path and what to change, before cmark-gfm reads it;
    /// nothing is written.
    @Test(arguments: [
        ("|" + String(repeating: "a|", count: 1_000) + "\n|" + String(repeating: "-|", count: 1_000) + "\n" + String(repeating: "x\n", count: 3_000),
         "a table of 1000 columns"),
        ("|a|\n|-|\n" + String(repeating: "|", count: 20_000) + "\n", "a line of 20000 pipes"),
        (String(repeating: "![[]()", count: 20_000), "image openers (`![`) left open (20000 by then)"),
    ])
    func aTemplateWhoseMarkdownCmarkWouldBlowUpFailsTheBuild(markdown: String, says: String) throws {
        let overrides = try temporaryFolder()
        try Data(("# Checks\n\n" + markdown + "\n").utf8).write(to: URL(fileURLWithPath: overrides + "/checks.md"))
        let out = try temporaryFolder() + "/site"
        let result = run(["build", example, "--out", out, "--templates", overrides])
        #expect(result.status == 2)
        #expect(result.error.contains(overrides + "/checks.md: the Markdown it renders has, "), "\(result.error)")
        #expect(result.error.contains(says), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: out + "/checks.html"))
    }

    /// A value is written at every tag that names it, which a render's budget counts as its token:
    /// a paywall's 10 KB name in an attribute inside sections over its 1,000 config texts twice is
    /// a page of 10 GB. The page stops at the bytes its snapshot allows and the build fails with
    /// exit 2, naming the template; a value named a few times builds.
    @Test(arguments: [(#"{{#configTexts}}{{#configTexts}}<i title="{{name}}"></i>{{/configTexts}}{{/configTexts}}"#, false),
                      (#"{{#configTexts}}<i title="{{name}}"></i>{{/configTexts}}"#, true)])
    func aPageOfValuesPutInPastItsBudgetFailsTheBuild(loop: String, builds: Bool) throws {
        let root = try temporaryFolder()
        let data = (0..<1_000).map { #""s\#($0)":"t\#($0)""# }.joined(separator: ",")
        let snapshot = #"{"formatVersion":1,"generatedAt":1700000000000,"projectId":"p","placements":{"k":{"placement":{"identifier":"k","revision":1},"paywall":{"id":"pw","identifier":"i","name":""# + String(repeating: "N", count: 10_000) + #"","configFormatVersion":1,"remoteConfig":{"locale":"en","data":{"# + data + #"}},"offering":null}}}}"#
        try Data(snapshot.utf8).write(to: URL(fileURLWithPath: root + "/snapshot.json"))
        let overrides = root + "/templates"
        try FileManager.default.createDirectory(atPath: overrides, withIntermediateDirectories: true)
        try Data(("# Paywall\n\n{{#versions}}{{#preview}}" + loop + "{{/preview}}{{/versions}}\n").utf8)
            .write(to: URL(fileURLWithPath: overrides + "/paywall.md"))
        let out = root + "/site"
        let result = run(["build", root + "/snapshot.json", "--out", out, "--templates", overrides, "--quiet"])
        if builds {
            #expect(result.status == 0, "\(result.error)")
        } else {
            #expect(result.status == 2)
            #expect(result.error.contains(overrides + "/paywall.md: with its values put in, the page would pass the "), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func contextPrintsThePageContextAsJSON() throws {
        let result = run(["context", example, "--page", "placement:trial_ending"])
        #expect(result.status == 0)
        let context = try jsonObject(result.output)
        #expect(context["key"] as? String == "trial_ending")
        #expect((context["skip"] as? [String: Any])?["reason"] as? String == #"/placements/trial_ending/placement/revision: expected an integer, found the string "5""#)
        #expect((context["source"] as? String)?.hasPrefix("<pre class=\"source\">") == true)
        #expect(run(["context", example, "--page", "funnel:nope"]).status == 1)
        #expect(run(["context", example, "--page", "planet"]).status == 2)
    }

    @Test(arguments: [("html", "a &lt;b&gt; <b>c</b> [x](y) part"), ("markdown", "a &lt;b&gt; <b>c</b> \\[x\\]\\(y\\) part"), ("none", "a <b> <b>c</b> [x](y) part")])
    func templateRenderUsesTheEscapingAndPartials(mode: String, expected: String) throws {
        let folder = try temporaryFolder()
        try Data("{{value}} {{> bold}} {{link}} {{> missing}}part".utf8).write(to: URL(fileURLWithPath: folder + "/page.md"))
        try Data("<b>{{name}}</b>".utf8).write(to: URL(fileURLWithPath: folder + "/bold.md"))
        try Data(#"{"value": "a <b>", "name": "c", "link": "[x](y)"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/context.json"))
        let result = run(["template", "render", folder + "/page.md", "--context", folder + "/context.json", "--partials", folder, "--escape", mode])
        #expect(result.status == 0)
        #expect(result.output == expected)
    }

    @Test func templateRenderReportsBadContextJSONWithItsPosition() throws {
        let folder = try temporaryFolder()
        try Data("{{x}}".utf8).write(to: URL(fileURLWithPath: folder + "/t.md"))
        try Data("{\n  \"x\": 1,\n}".utf8).write(to: URL(fileURLWithPath: folder + "/c.json"))
        let result = run(["template", "render", folder + "/t.md", "--context", folder + "/c.json"])
        #expect(result.status == 1)
        #expect(result.error.contains("c.json:3:1"))
    }
}
