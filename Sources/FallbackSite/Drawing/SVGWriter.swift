import RovenueFallback

/// Writes a laid-out flow as SVG text.
struct DrawingWriter {
    let funnel: Funnel
    let flow: FunnelFlow
    let layout: GraphLayout
    let prefix: String
    /// Positions of the pages drawn in the error style.
    let unreachablePages: Set<Int>
    let locale: String?
    /// Per page position, the id of the page's row the page's box links to; none: boxes are not links.
    let pageAnchors: [String]?
    private(set) var width = 0
    private(set) var height = 0
    private var output = ""
    private var offsetX = 0.0
    private var offsetY = 0.0

    static let margin = 16.0
    /// The longest tooltip, in pixels at the label font size.
    static let tooltipWidth = 2400.0

    init(
        funnel: Funnel, flow: FunnelFlow, layout: GraphLayout, prefix: String, unreachablePages: Set<Int>,
        locale: String?, pageAnchors: [String]?
    ) {
        self.funnel = funnel
        self.flow = flow
        self.layout = layout
        self.prefix = prefix
        self.unreachablePages = unreachablePages
        self.locale = locale
        self.pageAnchors = pageAnchors.flatMap { $0.count == funnel.pages.count ? $0 : nil }
    }

    mutating func write() -> String {
        let empty = flow.nodes.isEmpty
        let contentWidth = empty ? 160 : layout.maxX - layout.minX
        let contentHeight = empty ? 24 : layout.totalHeight
        width = Int((contentWidth + 2 * Self.margin).rounded(.up))
        height = Int((contentHeight + 2 * Self.margin).rounded(.up))
        offsetX = Self.margin - (empty ? 0 : layout.minX)
        offsetY = Self.margin
        output.reserveCapacity(4096 + flow.nodes.count * 600 + flow.steps.count * 400)

        output += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fd\" width=\"\(width)\" height=\"\(height)\" "
        output +=
            "viewBox=\"0 0 \(width) \(height)\" role=\"\(pageAnchors == nil ? "img" : "group")\" aria-labelledby=\"\(prefix)-title \(prefix)-desc\">\n"
        output += "<title id=\"\(prefix)-title\">\(text("Flow of funnel \(funnelName)", width: 600))</title>\n"
        output += "<desc id=\"\(prefix)-desc\">\(text(summary, width: Self.tooltipWidth))</desc>\n"
        writeMarkers()
        if empty {
            output += "<text class=\"fd-empty\" x=\"\(number(0))\" y=\"\(number(16))\">No pages</text>\n"
        } else {
            writeEdges()
            writeNodes()
            writeLabels()
            writeBadges()
        }
        output += "</svg>\n"
        return output
    }

    private var funnelName: String {
        if let name = funnel.name, !name.isEmpty { return name }
        return funnel.id
    }

    private var summary: String {
        let unreachable = funnel.pages.indices.count { unreachablePages.contains($0) }
        let unknown = flow.steps.count { step in
            if case .unknown = flow.nodes[step.to] { return true }
            return false
        }
        let back = layout.backStepCount
        var parts = [counted(flow.pageCount, "page"), counted(flow.ruleCount, "rule")]
        if unreachable > 0 { parts.append(counted(unreachable, "unreachable page")) }
        if unknown > 0 {
            parts.append(counted(unknown, "step to an unknown target", plural: "steps to an unknown target"))
        }
        if back > 0 {
            parts.append(counted(back, "step back to an earlier page", plural: "steps back to an earlier page"))
        }
        return parts.joined(separator: ", ") + "."
    }

    private func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    private enum ArrowKind: String, CaseIterable {
        case plain, rule, paywall, back, unknown
    }

    private mutating func writeMarkers() {
        output += "<defs>\n"
        for kind in ArrowKind.allCases {
            let modifier = kind == .plain ? "" : " is-\(kind.rawValue)"
            output += "<marker id=\"\(prefix)-arrow-\(kind.rawValue)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
            output += "markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
            output += "<path class=\"fd-arrow\(modifier)\" d=\"M0,1L10,5L0,9z\"/></marker>\n"
        }
        output += "</defs>\n"
    }

    private func nodeId(_ node: Int) -> String {
        switch flow.nodes[node] {
        case .page(let index): "\(prefix)-page-\(index)"
        case .end: "\(prefix)-end-\(node - flow.pageCount)"
        case .unknown: "\(prefix)-unknown-\(node - flow.pageCount)"
        }
    }

    private func stepClasses(_ index: Int) -> String {
        let step = flow.steps[index]
        var classes: String
        switch step.kind {
        case .rule: classes = "is-rule"
        case .defaultNext: classes = "is-default"
        case .sequential: classes = "is-sequential"
        }
        if layout.runsBack(LayoutStepID(index)) { classes += " is-back" }
        if step.jumpsToPaywall { classes += " is-paywall" }
        switch flow.nodes[step.to] {
        case .unknown: classes += " is-unknown"
        case .end: classes += " is-end"
        case .page: break
        }
        return classes
    }

    private func arrow(_ index: Int) -> ArrowKind {
        let step = flow.steps[index]
        if layout.runsBack(LayoutStepID(index)) { return .back }
        if case .unknown = flow.nodes[step.to] { return .unknown }
        if step.jumpsToPaywall { return .paywall }
        return step.kind == .rule ? .rule : .plain
    }

    private mutating func writeEdges() {
        output += "<g class=\"fd-edges\">\n"
        for index in flow.steps.indices {
            output += "<path class=\"fd-edge \(stepClasses(index))\" \(ends(index)) "
            output += "d=\"\(pathData(layout.path(of: LayoutStepID(index))))\" "
            output += "marker-end=\"url(#\(prefix)-arrow-\(arrow(index).rawValue))\"/>\n"
        }
        output += "</g>\n"
    }

    private mutating func writeNodes() {
        output += "<g class=\"fd-nodes\">\n"
        for node in flow.nodes.indices {
            switch flow.nodes[node] {
            case .page(let index):
                writePage(index, node: node)
            case .end:
                writeTerminal(node, isError: false, tooltip: "The funnel ends")
            case .unknown(let source, let target, let reason):
                let page = funnel.pages[source].id
                let tooltip =
                    switch reason {
                    case .noPaywallPage: "\(page) goes to \"paywall\", but no page has type paywall"
                    case .noSuchPage: "\(page) goes to \(JSONValue.quoted(target)), which is not a page id, \"end\" or \"paywall\""
                    }
                writeTerminal(node, isError: true, tooltip: tooltip)
            }
        }
        output += "</g>\n"
    }

    /// A box with the page's id, type (and paywall) and copy.
    private mutating func writePage(_ index: Int, node: Int) {
        let page = funnel.pages[index]
        let isUnreachable = unreachablePages.contains(index)
        var classes = "fd-page"
        if index == 0 { classes += " is-start" }
        if FunnelGraph.isPaywallPage(page) { classes += " is-paywall" }
        if isUnreachable { classes += " is-unreachable" }
        var kind = page.type
        if let paywallId = page.paywallId, !paywallId.isEmpty { kind += " · " + paywallId }
        let copy = pageText(page)
        var tooltip = "\(page.id) · \(kind)"
        if let copy { tooltip += " · " + copy }
        if isUnreachable { tooltip += " · unreachable from the first page" }

        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let inner = GraphLayout.Metrics.pageWidth - 2 * GraphLayout.Metrics.textPadding
        let textX = number(left + GraphLayout.Metrics.textPadding + offsetX)
        let anchor = pageAnchors.map { $0[index] }
        if let anchor {
            let name = "Page \(index + 1) of \(funnel.pages.count): \(tooltip). Go to its row in the pages table"
            output += "<a class=\"fd-link\" href=\"#\(DrawingText.escaped(anchor))\" data-node=\"\(nodeId(node))\" "
            output += "aria-label=\"\(text(name, width: Self.tooltipWidth))\">"
        }
        output += "<g class=\"\(classes)\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(x: left, y: top, width: frame.width, height: frame.height, radius: 6)
        output += "<text class=\"fd-page-id\" x=\"\(textX)\" y=\"\(number(top + 18 + offsetY))\">"
        output += text(page.id, width: inner, fontSize: GraphLayout.Metrics.idFontSize * GraphLayout.Metrics.boldWidening)
        output += "</text><text class=\"fd-page-type\" x=\"\(textX)\" y=\"\(number(top + 35 + offsetY))\">"
        output += text(kind, width: inner) + "</text>"
        if let copy {
            output += "<text class=\"fd-page-title\" x=\"\(textX)\" y=\"\(number(top + 51 + offsetY))\">"
            output += text(copy, width: inner) + "</text>"
        }
        output += anchor == nil ? "</g>\n" : "</g></a>\n"
    }

    /// A pill with `end`, or in the error style, the unknown target.
    private mutating func writeTerminal(_ node: Int, isError: Bool, tooltip: String) {
        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let label = frame.terminalText
        let labelX = frame.centerX - DrawingText.width(of: label, fontSize: GraphLayout.Metrics.fontSize) / 2
        output += "<g class=\"fd-terminal\(isError ? " is-error" : "")\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(
            x: left, y: top, width: frame.width, height: frame.height, radius: frame.height / 2)
        output += "<text x=\"\(number(labelX + offsetX))\" y=\"\(number(top + 17 + offsetY))\">"
        output += DrawingText.escaped(label) + "</text></g>\n"
    }

    private mutating func writeLabels() {
        output += "<g class=\"fd-labels\">\n"
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            var classes = "fd-label"
            switch step.kind {
            case .rule: classes += " is-rule"
            case .defaultNext: classes += " is-default"
            case .sequential: classes += " is-sequential"
            }
            if layout.runsBack(label.step) { classes += " is-back" }
            output += "<g class=\"\(classes)\" \(ends(label.step.index))>"
            output += "<title>\(text(step.summary, width: Self.tooltipWidth))</title>"
            output += rect(x: label.x, y: label.y, width: label.width, height: label.height, radius: 3)
            let x = number(label.x + GraphLayout.Metrics.labelPadding + offsetX)
            output += "<text>"
            for (row, line) in label.lines.enumerated() {
                let baseline = label.y + GraphLayout.Metrics.labelVerticalPadding + 11 + Double(row) * GraphLayout.Metrics.labelLine
                output += "<tspan x=\"\(x)\" y=\"\(number(baseline + offsetY))\">\(DrawingText.escaped(line))</tspan>"
            }
            output += "</text></g>\n"
        }
        output += "</g>\n"
    }

    /// A numbered bead where each labelled step leaves its page: its priority, so a step can be
    /// told from its neighbours and matched with its label however the labels stack.
    private mutating func writeBadges() {
        output += "<g class=\"fd-badges\" aria-hidden=\"true\">\n"
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            output += "<g class=\"fd-badge \(stepClasses(label.step.index))\" \(ends(label.step.index))>"
            output += "<circle cx=\"\(number(label.port.x + offsetX))\" cy=\"\(number(label.port.y + offsetY))\" "
            output += "r=\"\(number(GraphLayout.Metrics.badgeRadius))\"/>"
            output += "<text x=\"\(number(label.port.x + offsetX))\" y=\"\(number(label.port.y + 3.5 + offsetY))\" "
            output += "text-anchor=\"middle\">\(step.priority)</text></g>\n"
        }
        output += "</g>\n"
    }

    /// The `data-from` and `data-to` attributes of step `index`: the ids of the nodes it joins.
    private func ends(_ index: Int) -> String {
        "data-from=\"\(nodeId(flow.steps[index].from))\" data-to=\"\(nodeId(flow.steps[index].to))\""
    }

    // MARK: Legend

    /// The styles a drawing can use, in the order the legend lists them.
    enum LegendEntry: String, CaseIterable {
        case sequential, rule, defaultNext = "default", paywall, back, end, unknown, unreachable

        var text: String {
            switch self {
            case .sequential: "next page in order (no rule matched, no default_next)"
            case .rule: "rule, numbered in the order the SDK tries them: the first that matches wins"
            case .defaultNext: "default_next (no rule matched)"
            case .paywall: "to the paywall page (\"paywall\")"
            case .back: "back to an earlier page (a loop)"
            case .end: "the funnel ends"
            case .unknown: "error: a target that is no page (unknown target)"
            case .unreachable: "error: a page no path from the first page reaches"
            }
        }
    }

    /// The styles this drawing uses, in legend order.
    var legendEntries: [LegendEntry] {
        var used: Set<LegendEntry> = []
        for (index, step) in flow.steps.enumerated() {
            switch step.kind {
            case .rule: used.insert(.rule)
            case .defaultNext: used.insert(.defaultNext)
            case .sequential: used.insert(.sequential)
            }
            if step.jumpsToPaywall { used.insert(.paywall) }
            if layout.runsBack(LayoutStepID(index)) { used.insert(.back) }
            switch flow.nodes[step.to] {
            case .end: used.insert(.end)
            case .unknown: used.insert(.unknown)
            case .page: break
            }
        }
        if funnel.pages.indices.contains(where: unreachablePages.contains) { used.insert(.unreachable) }
        return LegendEntry.allCases.filter(used.contains)
    }

    /// An HTML list with a key and a sentence for every style the drawing uses, so no style is told
    /// by its colour alone.
    var legend: String {
        var html = "<ul class=\"legend fd-legend\" aria-label=\"Legend of the page graph\">"
        for entry in legendEntries {
            html += "<li data-style=\"\(entry.rawValue)\"><svg class=\"legend-key fd-key\" viewBox=\"0 0 28 12\" width=\"28\" "
            html += "height=\"12\" aria-hidden=\"true\" focusable=\"false\">"
            switch entry {
            case .sequential: html += "<path class=\"fd-edge is-sequential\" d=\"M1,6L27,6\"/>"
            case .rule:
                html += "<path class=\"fd-edge is-rule\" d=\"M1,6L27,6\"/><g class=\"fd-badge is-rule\">"
                html += "<circle cx=\"14\" cy=\"6\" r=\"5.5\"/><text x=\"14\" y=\"9\" text-anchor=\"middle\">1</text></g>"
            case .defaultNext: html += "<path class=\"fd-edge is-default\" d=\"M1,6L27,6\"/>"
            case .paywall: html += "<path class=\"fd-edge is-paywall\" d=\"M1,6L27,6\"/>"
            case .back: html += "<path class=\"fd-edge is-back\" d=\"M1,6L27,6\"/>"
            // Nodes get key classes of their own, so the page's own boxes can be counted by class.
            case .end: html += "<rect class=\"fd-key-end\" x=\"1\" y=\"1\" width=\"26\" height=\"10\" rx=\"5\"/>"
            case .unknown:
                html += "<path class=\"fd-edge is-unknown\" d=\"M1,6L12,6\"/>"
                html += "<rect class=\"fd-key-unknown\" x=\"13\" y=\"1\" width=\"14\" height=\"10\" rx=\"5\"/>"
            case .unreachable:
                html += "<rect class=\"fd-key-unreachable\" x=\"1\" y=\"1\" width=\"26\" height=\"10\" rx=\"2\"/>"
            }
            html += "</svg>\(DrawingText.escaped(entry.text))</li>"
        }
        return html + "</ul>"
    }

    /// The copy a page box shows: its title, else headline, body or subtitle.
    private func pageText(_ page: Page) -> String? {
        for candidate in [page.title, page.headline, page.body, page.subtitle] {
            if let candidate, let text = localized(candidate) { return text }
        }
        return nil
    }

    private func localized(_ text: LocalizedText) -> String? {
        func shown(_ text: String?) -> String? {
            guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
            return text
        }
        switch text {
        case .plain(let string): return shown(string)
        case .localized(let map):
            if let locale, let text = shown(map[locale]) { return text }
            if let defaultLocale = funnel.defaultLocale, let text = shown(map[defaultLocale]) { return text }
            return map.values.lazy.compactMap(shown).first
        }
    }

    private func text(_ raw: String, width: Double, fontSize: Double = GraphLayout.Metrics.fontSize) -> String {
        DrawingText.escaped(DrawingText.fitted(raw, maxWidth: width, fontSize: fontSize))
    }

    /// A `<rect>` at layout coordinates.
    private func rect(x: Double, y: Double, width: Double, height: Double, radius: Double) -> String {
        "<rect x=\"\(number(x + offsetX))\" y=\"\(number(y + offsetY))\" width=\"\(number(width))\" "
            + "height=\"\(number(height))\" rx=\"\(number(radius))\"/>"
    }

    private func pathData(_ path: GraphLayout.Path) -> String {
        var data = "M" + point(path.start)
        for segment in path.segments {
            switch segment {
            case .line(let to): data += "L" + point(to)
            case .quad(let control, let to): data += "Q" + point(control) + " " + point(to)
            case .cubic(let first, let second, let to):
                data += "C" + point(first) + " " + point(second) + " " + point(to)
            }
        }
        return data
    }

    private func point(_ point: GraphLayout.Point) -> String {
        number(point.x + offsetX) + "," + number(point.y + offsetY)
    }

    /// `value` with exactly one decimal.
    func number(_ value: Double) -> String {
        guard value.isFinite else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        return "\(tenths < 0 ? "-" : "")\(magnitude / 10).\(magnitude % 10)"
    }
}
