import Foundation
import Testing

/// The action's diff report names, heading outline, per-file sites and explicit binary path, and
/// the README workflow's `diff-fail-on` on pushes.
@Suite(
    "The GitHub Action: report names, outline, sites per file",
    .enabled(if: suiteRuns(programFound: toolPath != nil && programOnPath("git") != nil), "needs git and the built fallback-site executable"))
struct GitHubActionReviewTests {
    typealias Workspace = GitHubActionTests.Workspace

    static func headingLevels(_ markdown: String) -> [Int] {
        markdown.split(separator: "\n").compactMap { (line: Substring) -> Int? in
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && line.dropFirst(hashes).first == " " ? hashes : nil
        }
    }

    @Test func theDiffReportNamesTheBaseCommitAndNestsUnderTheFileHeading() throws {
        let workspace = try Workspace(committing: GitHubActionTests.before)
        defer { workspace.close() }
        try workspace.place(GitHubActionTests.after)
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": "base", "diff-fail-on": "never"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try String(contentsOfFile: try #require(outcome.outputs["diff-report"]), encoding: .utf8)
        let oldRow = #"\| old \| [0-9a-f]{7,40}\\:App\\/rovenue\\-fallback\\.json \|"#
        #expect(report.range(of: oldRow, options: .regularExpression) != nil, "\(report)")
        #expect(report.contains("| new | App\\/rovenue\\-fallback\\.json |"))
        #expect(!report.contains("runner"), "no temporary path in the report")
        let levels = Self.headingLevels(report)
        #expect(levels.first == 2)
        for (previous, next) in zip(levels, levels.dropFirst()) { #expect(next <= previous + 1, "\(levels)") }
        #expect(report.contains("## App\\/rovenue\\-fallback\\.json (base base)\n\n### Fallback snapshot diff"))
    }

    @Test func aConfigurationInTheRepositoryStillAppliesToTheDiff() throws {
        let workspace = try Workspace(committing: GitHubActionTests.before)
        defer { workspace.close() }
        try workspace.place(GitHubActionTests.after)
        try #"{"diffFailOn": "never"}"#.write(toFile: workspace.repository + "/.fallback-site.json", atomically: true, encoding: .utf8)
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": "base"])
        #expect(outcome.outputs["diff-status"] == "0", "\(outcome.stdout)\(outcome.stderr)")
    }

    /// The runner puts a failing `fallback-site` first on PATH: the action calls the binary by the
    /// path `setup-key` exports.
    @Test func theActionCallsTheExportedBinaryNotTheOneOnPath() throws {
        let workspace = try Workspace(committing: GitHubActionTests.before)
        defer { workspace.close() }
        try workspace.place(GitHubActionTests.after)
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": "base", "site-dir": "_site"])
        #expect(!outcome.stderr.contains("the bare fallback-site on PATH ran"))
        #expect(outcome.outputs["check-status"] == "0")
        #expect(outcome.outputs["diff-status"] == "1")
        let action = try String(contentsOfFile: repositoryPath("action.yml"), encoding: .utf8)
        #expect(action.contains("FALLBACK_SITE: ${{ steps.setup-key.outputs.bin }}/fallback-site"))
    }

    @Test func severalSnapshotsGetOneSiteEachAndAnIndex() throws {
        let workspace = try Workspace(committing: nil)
        defer { workspace.close() }
        try workspace.place(GitHubActionTests.clean, at: "ios/rovenue-fallback.json")
        try workspace.place(GitHubActionTests.after, at: "android/app/rovenue-fallback.json")
        let outcome = try workspace.run(["snapshots": "**/rovenue-fallback.json", "site-dir": "_site"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.outputs["site-dir"] == "_site")
        let site = workspace.repository + "/_site"
        #expect(FileManager.default.fileExists(atPath: site + "/ios/index.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/android-app/index.html"))
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        #expect(index.contains("<a href=\"ios/index.html\">ios/rovenue-fallback.json</a>"))
        #expect(index.contains("<a href=\"android-app/index.html\">android/app/rovenue-fallback.json</a>"))
        // Each site is one snapshot's: no page of the iOS site names the Android file.
        let iosPages = try FileManager.default.subpathsOfDirectory(atPath: site + "/ios").filter { $0.hasSuffix(".html") }
        for page in iosPages {
            let text = try String(contentsOfFile: site + "/ios/" + page, encoding: .utf8)
            #expect(!text.contains("android/app"), "\(page)")
            #expect(!text.contains("android&#x2F;app") && !text.contains("android&#47;app"), "\(page)")
        }
    }

    @Test func anOptionLikeOrHostileFolderNameStaysInsideTheSiteFolder() throws {
        let workspace = try Workspace(committing: nil)
        defer { workspace.close() }
        try workspace.place(GitHubActionTests.clean, at: "<b>&x/rovenue-fallback.json")
        try workspace.place(GitHubActionTests.clean, at: "--a b/rovenue-fallback.json")
        let outcome = try workspace.run(["snapshots": "*/rovenue-fallback.json", "site-dir": "_site"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let index = try String(contentsOfFile: workspace.repository + "/_site/index.html", encoding: .utf8)
        #expect(index.contains("&lt;b&gt;&amp;x/rovenue-fallback.json"))
        #expect(!index.contains("<b>"))
        #expect(FileManager.default.fileExists(atPath: workspace.repository + "/_site/--a_b/index.html"))
    }
}

/// The README's workflow, parsed: it passes only inputs the action has, and on a push reports
/// the diff against the previous tag without failing.
@Suite("The README's GitHub Actions workflow")
struct ReadmeWorkflowTests {
    static func workflow() throws -> WorkflowYAML {
        let readme = try String(contentsOfFile: repositoryPath("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```yaml\n# .github/workflows/fallback.yml\n"))
        let end = try #require(readme[start.upperBound...].range(of: "\n```\n"))
        return try WorkflowYAML.parse(String(readme[start.upperBound..<end.lowerBound]) + "\n")
    }

    @Test func theActionStepPassesKnownInputsAndNeverFailsAPushOnADiff() throws {
        let steps = try #require(try Self.workflow()["jobs"]?["fallback"]?["steps"]?.items)
        let step = try #require(steps.first { $0["id"]?.text == "fallback" })
        let action = try WorkflowYAML.parse(try String(contentsOfFile: repositoryPath("action.yml"), encoding: .utf8))
        let inputs = Set(action["inputs"]?.entries.map(\.key) ?? [])
        let with = step["with"]?.entries ?? []
        for entry in with { #expect(inputs.contains(entry.key), "\(entry.key)") }
        #expect(step["with"]?["diff-fail-on"]?.text == "${{ github.event_name == 'push' && 'never' || '' }}")
    }
}
