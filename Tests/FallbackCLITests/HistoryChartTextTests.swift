import Foundation
import Testing

/// The history page's chart shows a snapshot's name as its table does: hidden characters spelled
/// out, none carried as they are into the page.
@Suite("History chart text")
struct HistoryChartTextTests {
    @Test func chartTitlesSpellOutControlCharacters() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshots = root + "/in"
        try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repositoryPath("Examples/2026-03-03-release-3.0.json"), toPath: snapshots + "/a\u{1B}[31mX\nnl.json")
        try FileManager.default.copyItem(atPath: repositoryPath("Examples/2026-04-14-release-3.1.json"), toPath: snapshots + "/b.json")
        let result = run(["build", snapshots, "--out", root + "/s"])
        #expect(result.status == 0, "\(result.error)")
        let page = try #require(text(at: root + "/s/history.html"))
        #expect(!page.contains("\u{1B}"))
        let chart = try #require(page.range(of: "<svg class=\"history-chart\"").map { page[$0.lowerBound...] })
        let svg = String(chart[..<(chart.range(of: "</svg>")?.upperBound ?? chart.endIndex)])
        #expect(!svg.contains("\n"))
        #expect(svg.contains("<title>a&lt;U+001B&gt;[31mX&lt;U+000A&gt;nl.json: "), "\(svg.prefix(2000))")
    }
}
