import FallbackAudit
import FallbackHistory
import FallbackHistoryTestSupport
import FallbackReports
import FallbackTestSupport
import Foundation
import RovenueFallback
import Testing

/// `history --format json` is written a placement and a finding at a time (`HistoryReport.json()`,
/// and `write(as:style:to:)` into a sink that hands its text on in chunks), and gives the same text
/// as the whole tree it describes (`jsonValue`), on the examples' series, on series with keys,
/// names and messages to escape, removals and returns, and on one snapshot.
@Suite("History JSON written as it is made")
struct HistoryJSONStreamTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    static func timelines() throws -> [(String, Timeline)] {
        let hostileKey = "k\u{0}\"\\\u{202E}é\u{301}"
        let first = Snap.file(
            Snap.entry("a", Snap.placement("a", revision: "2")) + "," + Snap.entry(hostileKey, Snap.placement("x")),
            generatedAt: "1764300000000")
        let second = Snap.file(Snap.entry("a", Snap.placement("a", revision: "1")), generatedAt: "1764350000000")
        let third = Snap.file(Snap.entry(hostileKey, Snap.placement("y", revision: "3")), generatedAt: "1764200000000")
        return [
            ("examples", try SnapshotSeries(SnapshotFolder(path: examples)).timeline(HistoryOptions(now: testNow))),
            ("removals, returns, a regression and a snapshot back in time", try timeline([first, second, third, first])),
            ("one snapshot", try timeline([first])),
        ]
    }

    @Test func theStreamedTextIsTheTreesText() throws {
        for (name, timeline) in try Self.timelines() {
            for failOn in [FailureThreshold.error, .warning] {
                let report = HistoryReport(timeline: timeline, failOn: failOn, tool: ReportTool(name: "fallback-site history", version: "0"))
                let expected = report.jsonValue.jsonText([.prettyPrinted]) + "\n"
                #expect(report.json() == expected, "\(name)")
                #expect(report.rendered(as: .json) == expected, "\(name)")
                // In chunks as a command writes them, each handed on when it fills.
                var chunks: [String] = []
                let sink = ReportSink(chunkSize: 64) { chunks.append($0) }
                report.write(as: .json, style: TextStyle(), to: sink)
                sink.finish()
                #expect(chunks.joined() == expected, "\(name)")
                #expect(chunks.count > 10, "\(name): \(chunks.count) chunks")
            }
        }
    }
}
