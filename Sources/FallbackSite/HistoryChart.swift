import FallbackAudit
import FallbackHistory
import Foundation
import RovenueFallback

/// Placements and findings over a series of snapshots as an inline SVG line chart, styled by class.
enum HistoryChart {
    static let width = 720.0
    static let height = 200.0
    static let margin = (left: 40.0, right: 16.0, top: 16.0, bottom: 28.0)

    static func svg(for snapshots: [SnapshotRecord]) -> String {
        let series: [(name: String, className: String, values: [Int])] = [
            ("placements", "hc-line is-placements", snapshots.map(\.entryCount)),
            ("loaded", "hc-line is-loaded", snapshots.map(\.loadedCount)),
            ("findings", "hc-line is-findings", snapshots.map { $0.findingCounts.total }),
        ]
        let maximum = max(1, series.flatMap(\.values).max() ?? 1)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ index: Int) -> Double {
            snapshots.count < 2 ? margin.left + plotWidth / 2 : margin.left + plotWidth * Double(index) / Double(snapshots.count - 1)
        }
        func y(_ value: Int) -> Double { margin.top + plotHeight * (1 - Double(value) / Double(maximum)) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = "<svg class=\"history-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "role=\"img\" aria-labelledby=\"hc-title\"><title id=\"hc-title\">Placements, loaded entries and findings in each of \(snapshots.count) snapshots</title>"
        svg += "<line class=\"hc-axis\" x1=\"\(number(margin.left))\" y1=\"\(number(y(0)))\" x2=\"\(number(width - margin.right))\" y2=\"\(number(y(0)))\"/>"
        svg += "<text class=\"hc-tick\" x=\"\(number(margin.left - 6))\" y=\"\(number(y(maximum) + 4))\" text-anchor=\"end\">\(maximum)</text>"
        svg += "<text class=\"hc-tick\" x=\"\(number(margin.left - 6))\" y=\"\(number(y(0) + 4))\" text-anchor=\"end\">0</text>"
        for line in series {
            let points = line.values.enumerated().map { "\(number(x($0.offset))),\(number(y($0.element)))" }.joined(separator: " ")
            svg += "<polyline class=\"\(line.className)\" points=\"\(points)\"><title>\(line.name)</title></polyline>"
            for (index, value) in line.values.enumerated() {
                svg += "<circle class=\"\(line.className)\" cx=\"\(number(x(index)))\" cy=\"\(number(y(value)))\" r=\"3\">"
                    + "<title>\(SnapshotText.plainText(snapshots[index].stamp.name, oneLine: true)): \(value) \(line.name)</title></circle>"
            }
        }
        for index in snapshots.indices where snapshots.count <= 12 || index % max(1, snapshots.count / 12) == 0 {
            svg += "<text class=\"hc-tick\" x=\"\(number(x(index)))\" y=\"\(number(height - 8))\" text-anchor=\"middle\">\(index + 1)</text>"
        }
        return svg + "</svg>"
    }
}
