import Foundation
import Testing

/// `check`'s output in every format, byte for byte, against `Tests/Golden/check/`: the reports as
/// they were before the writers learned to place a finding outside the file it belongs to (for `diff`).
@Suite("check output stays byte-identical")
struct CheckReportRegressionTests {
    static let formats: [(format: String, suffix: String)] = [
        ("text", "txt"), ("json", "json"), ("markdown", "md"), ("github", "github.txt"), ("junit", "junit.xml"), ("sarif", "sarif"),
    ]

    static func files() throws -> [String: String] {
        ["funnel-era-fallback.json": try String(contentsOfFile: funnelEraPath, encoding: .utf8), "bad.json": rejectedSnapshot]
    }

    static func golden(_ name: String) throws -> String {
        try String(contentsOfFile: repositoryPath("Tests/Golden/check/\(name)"), encoding: .utf8)
    }

    @Test(arguments: formats.map(\.format))
    func theFunnelEraFixture(format: String) throws {
        let suffix = try #require(Self.formats.first { $0.format == format }).suffix
        let result = run(["check", "--format", format, "funnel-era-fallback.json"], files: try Self.files())
        #expect(result.status == 1)
        #expect(result.output == (try Self.golden("funnel-era.\(suffix)")))
    }

    @Test(arguments: formats.map(\.format))
    func withARejectedAndAnUnreadableFile(format: String) throws {
        let suffix = try #require(Self.formats.first { $0.format == format }).suffix
        let result = run(
            ["check", "--format", format, "--fail-on", "warning", "funnel-era-fallback.json", "bad.json", "missing.json"],
            files: try Self.files())
        #expect(result.status == 2)
        #expect(result.output == (try Self.golden("funnel-era-rejected-missing.\(suffix)")))
    }
}
