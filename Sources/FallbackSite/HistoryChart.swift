import FallbackAudit
import FallbackHistory
import Foundation
import RovenueFallback

/// Placements and findings by severity over a series of snapshots as an inline SVG line chart,
/// with each release named on the x-axis and a legend that tells the lines apart by dash and
/// marker as well as by colour (styled by class).
enum HistoryChart {
    static let width = 720.0
    static let height = 300.0
    static let margin = (left: 112.0, right: 24.0, top: 16.0, bottom: 124.0)
    /// The most release labels the x-axis names: past that, every n-th and the newest.
    static let labelLimit = 12
    /// The most characters of a label the axis shows; the whole label is in its `<title>`.
    static let labelLength = 24
    /// The longest series whose every point gets a marker.
    static let markerLimit = 40

    /// One line of the chart and how it is told apart.
    struct Line {
        let name: String
        let className: String
        /// `stroke-dasharray`; nil for a solid line.
        let dash: String?
        let marker: Marker
        let values: [Int]
    }

    enum Marker {
        case circle, square, triangle, diamond

        /// The marker centred at (`x`, `y`).
        func svg(x: Double, y: Double, className: String, title: String?) -> String {
            let n = HistoryChart.number
            let shape: String =
                switch self {
                case .circle: "<circle class=\"\(className)\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"3.5\">"
                case .square: "<rect class=\"\(className)\" x=\"\(n(x - 3.5))\" y=\"\(n(y - 3.5))\" width=\"7\" height=\"7\">"
                case .triangle:
                    "<path class=\"\(className)\" d=\"M\(n(x)),\(n(y - 4.5))L\(n(x + 4.5)),\(n(y + 3.5))L\(n(x - 4.5)),\(n(y + 3.5))Z\">"
                case .diamond:
                    "<path class=\"\(className)\" d=\"M\(n(x)),\(n(y - 5))L\(n(x + 5)),\(n(y))L\(n(x)),\(n(y + 5))L\(n(x - 5)),\(n(y))Z\">"
                }
            let close =
                switch self {
                case .circle: "</circle>"
                case .square: "</rect>"
                case .triangle, .diamond: "</path>"
                }
            return shape + (title.map { "<title>\($0)</title>" } ?? "") + close
        }
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The chart of `snapshots` (timeline order), each named by `labels[i]` on the axis (the
    /// snapshot's name when nil) and linked to `paths[i]` when given, in its scroll box; then the
    /// legend, as HTML.
    ///
    /// On a phone the chart keeps its drawn size in the box (`.chart-scroll`), which scrolls
    /// sideways and says so, as a funnel drawing's does: scaled to a 390 px screen, its 11 and
    /// 12 px labels were drawn at about 5 px.
    static func svg(for snapshots: [SnapshotRecord], labels: [String]? = nil, paths: [String]? = nil) -> String {
        let lines = [
            Line(name: "placements", className: "hc-line is-placements", dash: nil, marker: .circle, values: snapshots.map(\.entryCount)),
            Line(name: "errors", className: "hc-line is-errors", dash: "8 4", marker: .square, values: snapshots.map(\.findingCounts.errors)),
            Line(name: "warnings", className: "hc-line is-warnings", dash: "2 3", marker: .triangle, values: snapshots.map(\.findingCounts.warnings)),
            Line(name: "infos", className: "hc-line is-infos", dash: "10 3 2 3", marker: .diamond, values: snapshots.map(\.findingCounts.infos)),
        ]
        let maximum = max(1, lines.flatMap(\.values).max() ?? 1)
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ index: Int) -> Double {
            snapshots.count < 2 ? margin.left + plotWidth / 2 : margin.left + plotWidth * Double(index) / Double(snapshots.count - 1)
        }
        func y(_ value: Int) -> Double { margin.top + plotHeight * (1 - Double(value) / Double(maximum)) }
        func text(_ value: String) -> String { SnapshotText.plainText(value, oneLine: true) }
        let names = snapshots.map { text($0.stamp.name) }

        // With release labels that link to their pages the chart is a group of links (an image may
        // hold nothing interactive: axe's nested-interactive); without, one image.
        let role = paths == nil ? "img" : "group"
        var svg = "<svg class=\"history-chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "role=\"\(role)\" aria-labelledby=\"hc-title\"><title id=\"hc-title\">Placements, errors, warnings and infos in each of \(snapshots.count) snapshots</title>"
        svg += "<line class=\"hc-axis\" x1=\"\(number(margin.left))\" y1=\"\(number(y(0)))\" x2=\"\(number(width - margin.right))\" y2=\"\(number(y(0)))\"/>"
        svg += "<text class=\"hc-tick\" x=\"\(number(margin.left - 6))\" y=\"\(number(y(maximum) + 4))\" text-anchor=\"end\">\(maximum)</text>"
        svg += "<text class=\"hc-tick\" x=\"\(number(margin.left - 6))\" y=\"\(number(y(0) + 4))\" text-anchor=\"end\">0</text>"
        // Release labels, turned 45° so long ones never overlap; at most `labelLimit`, the newest always.
        let step = max(1, (snapshots.count + labelLimit - 1) / labelLimit)
        let labelled = snapshots.indices.filter { index in
            index == snapshots.count - 1 || (index % step == 0 && snapshots.count - 1 - index >= step)  // not too near the newest's
        }
        // Every point is marked in a short series; in a long one, the labelled releases only, so
        // the markers stay apart (the table below the chart has every number).
        let marked = snapshots.count <= markerLimit ? Array(snapshots.indices) : labelled
        for line in lines {
            let points = line.values.enumerated().map { "\(number(x($0.offset))),\(number(y($0.element)))" }.joined(separator: " ")
            let dash = line.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
            svg += "<polyline class=\"\(line.className)\"\(dash) points=\"\(points)\"><title>\(line.name)</title></polyline>"
            for index in marked {
                let value = line.values[index]
                svg += line.marker.svg(x: x(index), y: y(value), className: line.className, title: "\(names[index]): \(value) \(line.name)")
            }
        }
        for index in labelled {
            let full = labels.map { $0.indices.contains(index) ? $0[index] : snapshots[index].stamp.name } ?? snapshots[index].stamp.name
            // A long label keeps its start and its end (where a release number usually is).
            let shown = full.count > labelLength ? String(full.prefix(labelLength / 2 - 1)) + "…" + String(full.suffix(labelLength / 2)) : full
            let (tx, ty) = (x(index), y(0) + 12)
            var label = "<text class=\"hc-tick hc-release\" x=\"\(number(tx))\" y=\"\(number(ty))\" text-anchor=\"end\" "
                + "transform=\"rotate(-45 \(number(tx)) \(number(ty)))\"><title>\(text(full)) (\(names[index]))</title>\(text(shown))</text>"
            if let paths, paths.indices.contains(index) { label = "<a href=\"\(text(paths[index]))\">\(label)</a>" }
            svg += label
        }
        svg += "</svg>"
        return "<div class=\"chart-scroll\" role=\"region\" aria-label=\"History chart\">" + svg + "</div>" + legend(lines)
    }

    /// The legend: each line's name beside a sample of its dash and marker.
    static func legend(_ lines: [Line]) -> String {
        var html = "<ul class=\"hc-legend\" aria-label=\"Legend\">"
        for line in lines {
            let dash = line.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
            html += "<li><svg class=\"hc-key\" viewBox=\"0 0 36 12\" width=\"36\" height=\"12\" aria-hidden=\"true\">"
                + "<polyline class=\"\(line.className)\"\(dash) points=\"2,6 34,6\"/>"
                + line.marker.svg(x: 18, y: 6, className: line.className, title: nil)
                + "</svg>\(line.name)</li>"
        }
        return html + "</ul>"
    }
}
