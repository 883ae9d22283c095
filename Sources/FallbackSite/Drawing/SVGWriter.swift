import FallbackMustache
import RovenueFallback

/// Writes a laid-out flow as SVG, straight into UTF-8 bytes: literals, numbers and ids are
/// appended as bytes, snapshot text is fitted (`DrawingText.fitted`) and escaped as
/// `MarkupEscaping.html` escapes it (`ListingBytes.appendHTML`), with no `String` per piece.
struct DrawingWriter: ~Copyable {
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
    /// The bytes so far: short pieces appended in a few instructions (`ByteWriter`).
    private var output = ByteWriter(capacity: 64)
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

    /// The `<svg>` element, as UTF-8.
    mutating func write() -> [UInt8] {
        let empty = flow.nodes.isEmpty
        let contentWidth = empty ? 160 : layout.maxX - layout.minX
        let contentHeight = empty ? 24 : layout.totalHeight
        width = Int((contentWidth + 2 * Self.margin).rounded(.up))
        height = Int((contentHeight + 2 * Self.margin).rounded(.up))
        offsetX = Self.margin - (empty ? 0 : layout.minX)
        offsetY = Self.margin
        output = ByteWriter(capacity: 4096 + flow.nodes.count * 900 + flow.steps.count * 700)

        put("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fd\" width=\"")
        putInt(width)
        put("\" height=\"")
        putInt(height)
        put("\" viewBox=\"0 0 ")
        putInt(width)
        put(" ")
        putInt(height)
        put(pageAnchors == nil ? "\" role=\"img\" aria-labelledby=\"" : "\" role=\"group\" aria-labelledby=\"")
        putString(prefix)
        put("-title ")
        putString(prefix)
        put("-desc\">\n<title id=\"")
        putString(prefix)
        put("-title\">")
        putText("Flow of funnel \(funnelName)", width: 600)
        put("</title>\n<desc id=\"")
        putString(prefix)
        put("-desc\">")
        putText(summary, width: Self.tooltipWidth)
        put("</desc>\n")
        writeMarkers()
        if empty {
            put("<text class=\"fd-empty\" x=\"")
            putNumber(0)
            put("\" y=\"")
            putNumber(16)
            put("\">No pages</text>\n")
        } else {
            writeEdges()
            writeNodes()
            writeLabels()
            writeBadges()
        }
        put("</svg>\n")
        return output.take()
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

    private enum ArrowKind: CaseIterable {
        case plain, rule, paywall, back, unknown

        var name: StaticString {
            switch self {
            case .plain: "plain"
            case .rule: "rule"
            case .paywall: "paywall"
            case .back: "back"
            case .unknown: "unknown"
            }
        }
    }

    /// The arrow heads the edges use, each once; none (and no `<defs>`) for a drawing without
    /// steps. Only those: all five made about 1.2 KB of every funnel page's drawing, used or not.
    private mutating func writeMarkers() {
        var used: Set<ArrowKind> = []
        for index in flow.steps.indices { used.insert(arrow(index)) }
        guard !used.isEmpty else { return }
        put("<defs>\n")
        for kind in ArrowKind.allCases where used.contains(kind) {
            put("<marker id=\"")
            putString(prefix)
            put("-arrow-")
            put(kind.name)
            put("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" ")
            put("markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">")
            put("<path class=\"fd-arrow")
            if kind != .plain {
                put(" is-")
                put(kind.name)
            }
            put("\" d=\"M0,1L10,5L0,9z\"/></marker>\n")
        }
        put("</defs>\n")
    }

    /// Appends the element id of `node`.
    private mutating func putNodeId(_ node: Int) {
        putString(prefix)
        switch flow.nodes[node] {
        case .page(let index):
            put("-page-")
            putInt(index)
        case .end:
            put("-end-")
            putInt(node - flow.pageCount)
        case .unknown:
            put("-unknown-")
            putInt(node - flow.pageCount)
        }
    }

    /// Appends the classes of step `index` after `fd-edge ` or `fd-badge `.
    private mutating func putStepClasses(_ index: Int) {
        let step = flow.steps[index]
        switch step.kind {
        case .rule: put("is-rule")
        case .defaultNext: put("is-default")
        case .sequential: put("is-sequential")
        }
        if layout.runsBack(LayoutStepID(index)) { put(" is-back") }
        if step.jumpsToPaywall { put(" is-paywall") }
        switch flow.nodes[step.to] {
        case .unknown: put(" is-unknown")
        case .end: put(" is-end")
        case .page: break
        }
    }

    private func arrow(_ index: Int) -> ArrowKind {
        let step = flow.steps[index]
        if layout.runsBack(LayoutStepID(index)) { return .back }
        if case .unknown = flow.nodes[step.to] { return .unknown }
        if step.jumpsToPaywall { return .paywall }
        return step.kind == .rule ? .rule : .plain
    }

    private mutating func writeEdges() {
        put("<g class=\"fd-edges\">\n")
        for index in flow.steps.indices {
            put("<path class=\"fd-edge ")
            putStepClasses(index)
            put("\" ")
            putEnds(index)
            put(" d=\"")
            putPath(layout.path(of: LayoutStepID(index)))
            put("\" marker-end=\"url(#")
            putString(prefix)
            put("-arrow-")
            put(arrow(index).name)
            put(")\"/>\n")
        }
        put("</g>\n")
    }

    private mutating func writeNodes() {
        put("<g class=\"fd-nodes\">\n")
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
        put("</g>\n")
    }

    /// A box with the page's id, type (and paywall) and copy.
    private mutating func writePage(_ index: Int, node: Int) {
        let page = funnel.pages[index]
        let isUnreachable = unreachablePages.contains(index)
        var kind = page.type
        if let paywallId = page.paywallId, !paywallId.isEmpty { kind += " · " + paywallId }
        let copy = pageText(page)
        let fontSize = GraphLayout.Metrics.fontSize
        let kindReading = DrawingText.unchangedWidth(of: kind, fontSize: fontSize)
        let copyReading = copy.map { DrawingText.unchangedWidth(of: $0, fontSize: fontSize) }
        let tooltip = TooltipPieces(
            id: page.id, kind: kind, kindReading: kindReading, copy: copy, copyReading: copyReading, isUnreachable: isUnreachable)

        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let inner = GraphLayout.Metrics.pageWidth - 2 * GraphLayout.Metrics.textPadding
        let textX = left + GraphLayout.Metrics.textPadding + offsetX
        let anchor = pageAnchors.map { $0[index] }
        if let anchor {
            put("<a class=\"fd-link\" href=\"#")
            putEscaped(anchor)
            put("\" data-node=\"")
            putNodeId(node)
            put("\" aria-label=\"")
            if let width = tooltip.width,
                Self.surelyWithin(width + Self.ariaLabelWidth(number: index + 1, of: funnel.pages.count), Self.tooltipWidth)
            {
                // Kept as it is, as `putText` would find: written from its pieces.
                put("Page ")
                putInt(index + 1)
                put(" of ")
                putInt(funnel.pages.count)
                put(": ")
                putPieces(tooltip)
                put(". Go to its row in the pages table")
            } else {
                putText("Page \(index + 1) of \(funnel.pages.count): \(tooltip.joined). Go to its row in the pages table", width: Self.tooltipWidth)
            }
            put("\">")
        }
        put("<g class=\"fd-page")
        if index == 0 { put(" is-start") }
        if FunnelGraph.isPaywallPage(page) { put(" is-paywall") }
        if isUnreachable { put(" is-unreachable") }
        put("\" id=\"")
        putNodeId(node)
        put("\"><title>")
        if let width = tooltip.width, Self.surelyWithin(width, Self.tooltipWidth) {
            putPieces(tooltip)
        } else {
            putText(tooltip.joined, width: Self.tooltipWidth)
        }
        put("</title>")
        putRect(x: left, y: top, width: frame.width, height: frame.height, radius: 6)
        let idFontSize = GraphLayout.Metrics.idFontSize * GraphLayout.Metrics.boldWidening
        putBoxLine("<text class=\"fd-page-id\" x=\"", x: textX, y: top + 18 + offsetY, page.id, width: inner, fontSize: idFontSize)
        putBoxLine("<text class=\"fd-page-type\" x=\"", x: textX, y: top + 35 + offsetY, kind, width: inner, reading: kindReading)
        if let copy {
            putBoxLine("<text class=\"fd-page-title\" x=\"", x: textX, y: top + 51 + offsetY, copy, width: inner, reading: copyReading)
        }
        put(anchor == nil ? "</g>\n" : "</g></a>\n")
    }

    /// A page box's tooltip, `id · kind · copy · unreachable from the first page`, as its pieces,
    /// with the width `DrawingText.unchangedWidth` sums for the whole when `fitted` keeps every
    /// piece as it is (so the whole too, the pieces joined by single spaces around `·`).
    struct TooltipPieces {
        var id: String
        var kind: String
        var copy: String?
        var isUnreachable: Bool
        /// Nil when a piece is empty or `fitted` would change it (or only a `Character` reading tells).
        var width: Double?

        static let unreachableNote = "unreachable from the first page"

        init(
            id: String, kind: String, kindReading: DrawingText.UnchangedWidth, copy: String?,
            copyReading: DrawingText.UnchangedWidth?, isUnreachable: Bool
        ) {
            self.id = id
            self.kind = kind
            self.copy = copy
            self.isUnreachable = isUnreachable
            let fontSize = GraphLayout.Metrics.fontSize
            guard !id.isEmpty, !kind.isEmpty, case .width(let idWidth) = DrawingText.unchangedWidth(of: id, fontSize: fontSize),
                case .width(let kindWidth) = kindReading
            else { return }
            var total = idWidth + DrawingWriter.joinWidth + kindWidth
            if let copy {
                guard !copy.isEmpty, case .width(let copyWidth) = copyReading else { return }
                total += DrawingWriter.joinWidth + copyWidth
            }
            if isUnreachable { total += DrawingWriter.joinWidth + DrawingWriter.unreachableNoteWidth }
            width = total
        }

        /// The tooltip as one string.
        var joined: String {
            var tooltip = "\(id) · \(kind)"
            if let copy { tooltip += " · " + copy }
            if isUnreachable { tooltip += " · " + Self.unreachableNote }
            return tooltip
        }
    }

    /// Appends the tooltip's pieces, escaped, joined as `TooltipPieces.joined` joins them.
    private mutating func putPieces(_ tooltip: TooltipPieces) {
        putEscaped(tooltip.id)
        put(" · ")
        putEscaped(tooltip.kind)
        if let copy = tooltip.copy {
            put(" · ")
            putEscaped(copy)
        }
        if tooltip.isUnreachable { put(" · unreachable from the first page") }
    }

    /// The width of ` · ` between two pieces that neither start nor end with a space, at the
    /// tooltip's font size: a space, the dot, a space.
    static let joinWidth = {
        let fontSize = GraphLayout.Metrics.fontSize
        return 2 * DrawingText.advance(of: " ") * fontSize + DrawingText.advance(of: "·") * fontSize
    }()

    static let unreachableNoteWidth = DrawingText.width(of: TooltipPieces.unreachableNote, fontSize: GraphLayout.Metrics.fontSize)

    /// The width the aria label of page `number` of `count` adds around its tooltip:
    /// `Page <number> of <count>: ` before it and `. Go to its row in the pages table` after.
    static func ariaLabelWidth(number: Int, of count: Int) -> Double {
        let fontSize = GraphLayout.Metrics.fontSize
        var digits = 0.0
        for digit in String(number).unicodeScalars { digits += DrawingText.advance(of: digit) * fontSize }
        for digit in String(count).unicodeScalars { digits += DrawingText.advance(of: digit) * fontSize }
        return ariaLabelConstantWidth + digits
    }

    /// `ariaLabelWidth` but for the numbers: `Page`, `of`, `:`, `. Go to its row in the pages table`
    /// and the four spaces between them and the tooltip.
    static let ariaLabelConstantWidth = {
        let fontSize = GraphLayout.Metrics.fontSize
        return ["Page", "of", ":", ". Go to its row in the pages table"].map { DrawingText.width(of: $0, fontSize: fontSize) }.reduce(0, +)
            + 4 * DrawingText.advance(of: " ") * fontSize
    }()

    /// The width `DrawingText.unchangedWidth` sums for the `summary` of a labelled step when
    /// `fitted` keeps each of its pieces (page id, rule id, condition, target) as it is, added up
    /// from the pieces; nil when one is empty or would change, or for a step without a label.
    static func summaryWidth(of step: FunnelFlow.Step) -> Double? {
        let fontSize = GraphLayout.Metrics.fontSize
        func width(_ text: String) -> Double? {
            guard !text.isEmpty, case .width(let width) = DrawingText.unchangedWidth(of: text, fontSize: fontSize) else { return nil }
            return width
        }
        guard let condition = step.condition, let page = width(step.pageId), let target = width(step.targetName) else { return nil }
        var total = numberWidth(step.priority) + page + target
        switch step.kind {
        case .rule:
            guard let rule = width(step.ruleId ?? ""), let condition = width(condition) else { return nil }
            total += rule + condition + ruleSummaryWordsWidth
        case .defaultNext: total += elseSummaryWordsWidth + DrawingText.width(of: "default_next", fontSize: fontSize)
        case .sequential: total += elseSummaryWordsWidth + DrawingText.width(of: "next page", fontSize: fontSize)
        }
        return total
    }

    /// The width of `number`'s digits at the tooltip's font size.
    static func numberWidth(_ number: Int) -> Double {
        var width = 0.0
        for digit in String(number).unicodeScalars { width += DrawingText.advance(of: digit) * GraphLayout.Metrics.fontSize }
        return width
    }

    /// A rule's summary but for its number, ids, condition and target: `.`, `Rule`, `of`, `:`,
    /// `if`, `→` and the eight spaces between the pieces.
    static let ruleSummaryWordsWidth = {
        let fontSize = GraphLayout.Metrics.fontSize
        return [".", "Rule", "of", ":", "if", "→"].map { DrawingText.width(of: $0, fontSize: fontSize) }.reduce(0, +)
            + 8 * DrawingText.advance(of: " ") * fontSize
    }()

    /// The summary of a page's last step after its rules but for its number, page id, way
    /// (`default_next` or `next page`) and target: `.`, `:`, `else`, `→` and the five spaces
    /// between the pieces.
    static let elseSummaryWordsWidth = {
        let fontSize = GraphLayout.Metrics.fontSize
        return [".", ":", "else", "→"].map { DrawingText.width(of: $0, fontSize: fontSize) }.reduce(0, +)
            + 5 * DrawingText.advance(of: " ") * fontSize
    }()

    /// Appends the `summary` of a labelled step, escaped, from its pieces.
    private mutating func putSummary(of step: FunnelFlow.Step) {
        putInt(step.priority)
        switch step.kind {
        case .rule:
            put(". Rule ")
            putEscaped(step.ruleId ?? "")
            put(" of ")
            putEscaped(step.pageId)
            put(": if ")
            putEscaped(step.condition ?? "")
        case .defaultNext, .sequential:
            put(". ")
            putEscaped(step.pageId)
            put(step.kind == .defaultNext ? ": else default_next" : ": else next page")
        }
        put(" → ")
        putEscaped(step.targetName)
    }

    /// True when a text of `width`, summed in another order than `FittingLine` sums it, is within
    /// `maxWidth` however the sums round: a pixel is a margin many orders of magnitude wider than
    /// any rounding of a few thousand additions.
    static func surelyWithin(_ width: Double, _ maxWidth: Double) -> Bool {
        width + 1 < maxWidth
    }

    /// One line of a page box: `opening` (a `<text>` element up to its `x` value), `x`, `y`, and
    /// `text` fitted to `width` and escaped; `reading`, when given, is `text`'s
    /// `DrawingText.unchangedWidth` at `fontSize`, so it is not read again to see that it fits.
    private mutating func putBoxLine(
        _ opening: StaticString, x: Double, y: Double, _ text: String, width: Double, fontSize: Double = GraphLayout.Metrics.fontSize,
        reading: DrawingText.UnchangedWidth? = nil
    ) {
        put(opening)
        putNumber(x)
        put("\" y=\"")
        putNumber(y)
        put("\">")
        if case .width(let sum) = reading, !(sum > width) {
            putEscaped(text)
        } else {
            putText(text, width: width, fontSize: fontSize)
        }
        put("</text>")
    }

    /// A pill with `end`, or in the error style, the unknown target.
    private mutating func writeTerminal(_ node: Int, isError: Bool, tooltip: String) {
        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let label = frame.terminalText
        let labelX = frame.centerX - DrawingText.width(of: label, fontSize: GraphLayout.Metrics.fontSize) / 2
        put(isError ? "<g class=\"fd-terminal is-error\" id=\"" : "<g class=\"fd-terminal\" id=\"")
        putNodeId(node)
        put("\"><title>")
        putText(tooltip, width: Self.tooltipWidth)
        put("</title>")
        putRect(x: left, y: top, width: frame.width, height: frame.height, radius: frame.height / 2)
        put("<text x=\"")
        putNumber(labelX + offsetX)
        put("\" y=\"")
        putNumber(top + 17 + offsetY)
        put("\">")
        putEscaped(label)
        put("</text></g>\n")
    }

    private mutating func writeLabels() {
        put("<g class=\"fd-labels\">\n")
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            switch step.kind {
            case .rule: put("<g class=\"fd-label is-rule")
            case .defaultNext: put("<g class=\"fd-label is-default")
            case .sequential: put("<g class=\"fd-label is-sequential")
            }
            if layout.runsBack(label.step) { put(" is-back") }
            put("\" ")
            putEnds(label.step.index)
            put("><title>")
            if let width = Self.summaryWidth(of: step), Self.surelyWithin(width, Self.tooltipWidth) {
                putSummary(of: step)
            } else {
                putText(step.summary, width: Self.tooltipWidth)
            }
            put("</title>")
            putRect(x: label.x, y: label.y, width: label.width, height: label.height, radius: 3)
            let x = label.x + GraphLayout.Metrics.labelPadding + offsetX
            put("<text>")
            for (row, line) in label.lines.enumerated() {
                let baseline = label.y + GraphLayout.Metrics.labelVerticalPadding + 11 + Double(row) * GraphLayout.Metrics.labelLine
                put("<tspan x=\"")
                putNumber(x)
                put("\" y=\"")
                putNumber(baseline + offsetY)
                put("\">")
                putEscaped(line)
                put("</tspan>")
            }
            put("</text></g>\n")
        }
        put("</g>\n")
    }

    /// A numbered bead where each labelled step leaves its page: its priority, so a step can be
    /// told from its neighbours and matched with its label however the labels stack.
    private mutating func writeBadges() {
        put("<g class=\"fd-badges\" aria-hidden=\"true\">\n")
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            put("<g class=\"fd-badge ")
            putStepClasses(label.step.index)
            put("\" ")
            putEnds(label.step.index)
            put("><circle cx=\"")
            putNumber(label.port.x + offsetX)
            put("\" cy=\"")
            putNumber(label.port.y + offsetY)
            put("\" r=\"")
            putNumber(GraphLayout.Metrics.badgeRadius)
            put("\"/><text x=\"")
            putNumber(label.port.x + offsetX)
            put("\" y=\"")
            putNumber(label.port.y + 3.5 + offsetY)
            put("\" text-anchor=\"middle\">")
            putInt(step.priority)
            put("</text></g>\n")
        }
        put("</g>\n")
    }

    /// The `data-from` and `data-to` attributes of step `index`: the ids of the nodes it joins.
    private mutating func putEnds(_ index: Int) {
        put("data-from=\"")
        putNodeId(flow.steps[index].from)
        put("\" data-to=\"")
        putNodeId(flow.steps[index].to)
        put("\"")
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

        /// The entry's bit in a set of entries: 1 shifted by its place in `allCases`.
        var bit: UInt {
            switch self {
            case .sequential: 1 << 0
            case .rule: 1 << 1
            case .defaultNext: 1 << 2
            case .paywall: 1 << 3
            case .back: 1 << 4
            case .end: 1 << 5
            case .unknown: 1 << 6
            case .unreachable: 1 << 7
            }
        }
    }

    /// The styles this drawing uses, in legend order.
    var legendEntries: [LegendEntry] {
        let used = usedLegendEntries
        return LegendEntry.allCases.filter { used & $0.bit != 0 }
    }

    /// The styles this drawing uses, a bit each by their place in `LegendEntry.allCases` (a
    /// `Set` of them cost some 12,000 instructions a drawing).
    private var usedLegendEntries: UInt {
        let (sequential, rule, defaultNext, paywall, back, end, unknown) = (
            LegendEntry.sequential.bit, LegendEntry.rule.bit, LegendEntry.defaultNext.bit, LegendEntry.paywall.bit,
            LegendEntry.back.bit, LegendEntry.end.bit, LegendEntry.unknown.bit
        )
        var used: UInt = 0
        for (index, step) in flow.steps.enumerated() {
            switch step.kind {
            case .rule: used |= rule
            case .defaultNext: used |= defaultNext
            case .sequential: used |= sequential
            }
            if step.jumpsToPaywall { used |= paywall }
            if layout.runsBack(LayoutStepID(index)) { used |= back }
            switch flow.nodes[step.to] {
            case .end: used |= end
            case .unknown: used |= unknown
            case .page: break
            }
        }
        if funnel.pages.indices.contains(where: unreachablePages.contains) { used |= LegendEntry.unreachable.bit }
        return used
    }

    /// An HTML list with a key and a sentence for every style the drawing uses, so no style is told
    /// by its colour alone.
    var legend: String {
        let used = usedLegendEntries
        var html = "<ul class=\"legend fd-legend\" aria-label=\"Legend of the page graph\">"
        for (index, item) in Self.legendItems.enumerated() where used & 1 << index != 0 { html += item }
        return html + "</ul>"
    }

    /// Each style's item of the legend, in legend order: the same in every drawing, so made once.
    static let legendItems: [String] = LegendEntry.allCases.map(legendItem)

    /// The legend's item for `entry`: its key and its sentence.
    static func legendItem(_ entry: LegendEntry) -> String {
        var html = "<li data-style=\"\(entry.rawValue)\"><svg class=\"legend-key fd-key\" viewBox=\"0 0 28 12\" width=\"28\" "
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
        return html + "</svg>\(DrawingText.escaped(entry.text))</li>"
    }

    /// The copy a page box shows: its title, else headline, body or subtitle.
    private func pageText(_ page: Page) -> String? {
        // In turn, with no array of the four made for each box.
        if let title = page.title, let text = localized(title) { return text }
        if let headline = page.headline, let text = localized(headline) { return text }
        if let body = page.body, let text = localized(body) { return text }
        if let subtitle = page.subtitle, let text = localized(subtitle) { return text }
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

    // MARK: Bytes

    @inline(__always)
    private mutating func put(_ text: StaticString) {
        output.append(text)
    }

    private mutating func putString(_ text: String) {
        output.append(text)
    }

    /// Appends `number` as `String(number)` spells it.
    private mutating func putInt(_ number: Int) {
        ListingBytes.appendDecimal(number, to: &output)
    }

    /// Appends `text` escaped as `DrawingText.escaped` escapes it.
    private mutating func putEscaped(_ text: String) {
        var text = text
        text.withUTF8 { ListingBytes.appendHTML($0, to: &output) }
    }

    /// Appends snapshot text fitted to `width` pixels at `fontSize`, escaped.
    private mutating func putText(_ raw: String, width: Double, fontSize: Double = GraphLayout.Metrics.fontSize) {
        putEscaped(DrawingText.fitted(raw, maxWidth: width, fontSize: fontSize))
    }

    /// A `<rect>` at layout coordinates.
    private mutating func putRect(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        put("<rect x=\"")
        putNumber(x + offsetX)
        put("\" y=\"")
        putNumber(y + offsetY)
        put("\" width=\"")
        putNumber(width)
        put("\" height=\"")
        putNumber(height)
        put("\" rx=\"")
        putNumber(radius)
        put("\"/>")
    }

    private mutating func putPath(_ path: GraphLayout.Path) {
        put("M")
        putPoint(path.start)
        for segment in path.segments {
            switch segment {
            case .line(let to):
                put("L")
                putPoint(to)
            case .quad(let control, let to):
                put("Q")
                putPoint(control)
                put(" ")
                putPoint(to)
            case .cubic(let first, let second, let to):
                put("C")
                putPoint(first)
                put(" ")
                putPoint(second)
                put(" ")
                putPoint(to)
            }
        }
    }

    private mutating func putPoint(_ point: GraphLayout.Point) {
        putNumber(point.x + offsetX)
        put(",")
        putNumber(point.y + offsetY)
    }

    /// Appends `value` rounded to tenths, without the decimal when it is whole (`302.9`, `84`;
    /// `0` when not finite): a drawing's coordinates are mostly whole, and their `.0` was about
    /// 2.5% of a funnel page's SVG.
    private mutating func putNumber(_ value: Double) {
        guard value.isFinite else { return put("0") }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        if tenths < 0 { output.append(byte: UInt8(ascii: "-")) }
        ListingBytes.appendDecimal(Int(magnitude / 10), to: &output)
        guard magnitude % 10 != 0 else { return }
        output.append(byte: UInt8(ascii: "."))
        output.append(byte: UInt8(ascii: "0") + UInt8(magnitude % 10))
    }
}
