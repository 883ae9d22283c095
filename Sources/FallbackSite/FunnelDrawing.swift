import RovenueFallback

/// A drawing of a funnel's flow as an inline `<svg>` element.
///
/// Pages are boxes in layers from the first page, joined by the steps §6 of the format can take:
/// each rule's `goto` (labelled with its condition), `default_next`, and the next page in order
/// when a page has no `default_next`. `"paywall"` targets point at the first paywall page, `"end"`
/// and falling off the last page at an end terminal, anything else at an error terminal. Steps
/// back to an earlier layer run along the side so cycles stand out.
///
/// The drawing is styled only through classes (rules in `Site/assets/site.css`): it carries no `style` attribute
/// and no `<style>` element. Every text from the snapshot is cleaned for XML 1.0, shortened and
/// escaped, and element ids come from `idPrefix` and page positions only. The same funnel always
/// gives the same bytes.
public struct FunnelDrawing: Sendable {
    /// The `<svg>` element.
    public let svg: String
    /// The drawing's width in CSS pixels, as in its `width` attribute.
    public let width: Int
    /// The drawing's height in CSS pixels, as in its `height` attribute.
    public let height: Int

    /// Draws `funnel`.
    ///
    /// - Parameters:
    ///   - unreachablePageIds: Pages drawn in the error style, as a check found them.
    ///   - locale: The locale whose copy the boxes show; else the funnel's `defaultLocale`, else
    ///     the first locale a text has.
    ///   - idPrefix: Prefix of the element ids (markers, title), unique on the page that shows the
    ///     drawing. Used as given when it is a plain identifier (`[A-Za-z][A-Za-z0-9_-]*`, at most 64
    ///     characters); otherwise, and by default, one is derived from it or the funnel's id.
    public init(funnel: Funnel, unreachablePageIds: Set<String> = [], locale: String? = nil, idPrefix: String? = nil) {
        self.init(funnel: funnel, unreachablePages: Set(unreachablePageIds.map(ExactKey.init)), locale: locale, idPrefix: idPrefix)
    }

    /// Draws `funnel`, with the pages whose ids have exactly the bytes of one of `unreachablePages`
    /// in the error style (a `Set<String>` cannot tell canonically equivalent ids apart).
    public init(funnel: Funnel, unreachablePages: Set<ExactKey>, locale: String? = nil, idPrefix: String? = nil) {
        let flow = FunnelFlow(funnel: funnel)
        let layout = FlowLayout(flow: flow)
        let prefix = FunnelDrawing.elementIdPrefix(idPrefix, funnelId: funnel.id)
        var writer = DrawingWriter(
            funnel: funnel, flow: flow, layout: layout, prefix: prefix, unreachablePageIds: unreachablePages,
            locale: locale)
        svg = writer.write()
        width = writer.width
        height = writer.height
    }

    /// `requested` when it is a plain identifier; otherwise a slug of it (or of the funnel's id)
    /// and a hash of its exact bytes.
    static func elementIdPrefix(_ requested: String?, funnelId: String) -> String {
        if let requested, isPlainIdentifier(requested) { return requested }
        let source = requested ?? funnelId
        var slug: [UInt8] = []
        for byte in source.utf8 {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            if PageNames.isSlugByte(lowered) {
                slug.append(lowered)
            } else if let last = slug.last, last != UInt8(ascii: "-") {
                slug.append(UInt8(ascii: "-"))
            }
            if slug.count >= 24 { break }
        }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        let hash = SHA256Digest(of: Array(source.utf8)).hexString.prefix(8)
        return slug.isEmpty ? "fd-\(hash)" : "fd-\(String(decoding: slug, as: UTF8.self))-\(hash)"
    }

    static func isPlainIdentifier(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= 64, isASCIILetter(first) else { return false }
        return bytes.allSatisfy {
            isASCIILetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

// MARK: - The flow

/// A funnel's pages and the steps between them, as §6 runs them.
struct FunnelFlow {
    enum Node {
        case page(Int)
        /// Where the funnel ends after page `source`.
        case end(source: Int)
        /// A target of page `source` that is not a page id or `end`, or `paywall` without a paywall page.
        case unknown(source: Int, target: String)
    }

    enum Kind {
        case rule, defaultNext, sequential
    }

    struct Step {
        var from: Int
        var to: Int
        var kind: Kind
        /// The condition or `else`, as the snapshot has it (not yet made safe).
        var label: String?
        /// The whole step in words, for a tooltip (not yet made safe).
        var summary: String
        var hasCondition: Bool
        var jumpsToPaywall: Bool
    }

    let pageCount: Int
    private(set) var nodes: [Node]
    private(set) var steps: [Step] = []
    private(set) var ruleCount = 0

    init(funnel: Funnel) {
        let pages = funnel.pages
        pageCount = pages.count
        nodes = pages.indices.map(Node.page)
        var firstPage: [[UInt8]: Int] = [:]
        for (index, page) in pages.enumerated() where firstPage[Array(page.id.utf8)] == nil {
            firstPage[Array(page.id.utf8)] = index
        }
        let firstPaywallPage = pages.firstIndex { $0.type.utf8.elementsEqual("paywall".utf8) }

        for (index, page) in pages.enumerated() {
            var endNode: Int?
            var unknownNodes: [[UInt8]: Int] = [:]
            func resolve(_ target: String) -> (node: Int, name: String, paywall: Bool) {
                let bytes = Array(target.utf8)
                if bytes.elementsEqual("end".utf8) {
                    if endNode == nil {
                        endNode = nodes.count
                        nodes.append(.end(source: index))
                    }
                    return (endNode!, "end", false)
                }
                if bytes.elementsEqual("paywall".utf8), let firstPaywallPage {
                    return (firstPaywallPage, "paywall (\(pages[firstPaywallPage].id))", true)
                }
                if !bytes.elementsEqual("paywall".utf8), let page = firstPage[bytes] {
                    return (page, pages[page].id, false)
                }
                if let known = unknownNodes[bytes] {
                    return (known, target, false)
                }
                unknownNodes[bytes] = nodes.count
                nodes.append(.unknown(source: index, target: target))
                return (nodes.count - 1, target, false)
            }

            let rules = page.nextRules ?? []
            ruleCount += rules.count
            for rule in rules {
                let target = resolve(rule.goto)
                let condition = ConditionText.text(of: rule.condition)
                steps.append(
                    Step(
                        from: index, to: target.node, kind: .rule, label: condition,
                        summary: "Rule \(rule.id) of \(page.id): if \(condition) → \(target.name)",
                        hasCondition: true, jumpsToPaywall: target.paywall))
            }
            let label = rules.isEmpty ? nil : "else"
            if let defaultNext = page.defaultNext {
                let target = resolve(defaultNext)
                steps.append(
                    Step(
                        from: index, to: target.node, kind: .defaultNext, label: label,
                        summary: "\(page.id): \(rules.isEmpty ? "" : "else ")default_next → \(target.name)",
                        hasCondition: false, jumpsToPaywall: target.paywall))
            } else {
                let target: (node: Int, name: String) =
                    index + 1 < pages.count ? (index + 1, pages[index + 1].id) : (resolve("end").node, "end")
                steps.append(
                    Step(
                        from: index, to: target.node, kind: .sequential, label: label,
                        summary: "\(page.id): \(rules.isEmpty ? "" : "else ")next page → \(target.name)",
                        hasCondition: false, jumpsToPaywall: false))
            }
        }
    }

    func isTerminal(_ node: Int) -> Bool { node >= pageCount }
}

/// Conditions and clauses in words: `goal = lose_weight ∧ age ≥ 40`.
enum ConditionText {
    /// The most elements of an array value spelled out.
    static let elementLimit = 12

    static func text(of condition: Condition) -> String {
        if condition.clauses.isEmpty { return condition.op == .all ? "always" : "never" }
        return condition.clauses.map(text(of:)).joined(separator: condition.op == .all ? " ∧ " : " ∨ ")
    }

    static func text(of clause: Clause) -> String {
        let question = clause.questionId
        let value = clause.value?.owned
        switch clause.op {
        case .eq: return "\(question) = \(text(of: value))"
        case .neq: return "\(question) ≠ \(text(of: value))"
        case .gt: return "\(question) > \(text(of: value))"
        case .gte: return "\(question) ≥ \(text(of: value))"
        case .lt: return "\(question) < \(text(of: value))"
        case .lte: return "\(question) ≤ \(text(of: value))"
        case .between:
            if case .array(let bounds)? = value, bounds.count == 2 {
                return "\(question) ∈ [\(text(of: bounds[0])), \(text(of: bounds[1]))]"
            }
            return "\(question) between \(text(of: value))"
        case .in: return "\(question) ∈ \(setText(of: value))"
        case .notIn: return "\(question) ∉ \(setText(of: value))"
        case .contains: return "\(question) ∋ \(text(of: value))"
        case .isAnswered: return "\(question) answered"
        case .isNotAnswered: return "\(question) not answered"
        }
    }

    private static func setText(of value: JSONValue?) -> String {
        guard case .array(let elements)? = value else { return text(of: value) }
        let shown = elements.prefix(elementLimit).map { text(of: $0) }
        return "{" + shown.joined(separator: ", ") + (elements.count > elementLimit ? ", …" : "") + "}"
    }

    /// Compact JSON, with strings that read unambiguously left unquoted.
    static func text(of value: JSONValue?) -> String {
        guard let value else { return "(no value)" }
        switch value {
        case .string(let string): return isPlain(string) ? string : JSONValue.quoted(string)
        case .array(let elements) where elements.count > elementLimit:
            return "[" + elements.prefix(elementLimit).map { $0.jsonText() }.joined(separator: ",") + ",…]"
        default: return value.jsonText()
        }
    }

    /// A word that cannot be mistaken for a number, `true`, `false`, `null` or several values.
    static func isPlain(_ string: String) -> Bool {
        guard let first = string.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            string != "true", string != "false", string != "null"
        else { return false }
        return string.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "."
        }
    }
}

// MARK: - Text

/// Snapshot text made safe for SVG: one line, XML 1.0 characters only, shortened to a width, escaped.
enum DrawingText {
    static let ellipsis = "…"
    /// The most scalars kept of one character (a base with a pile of combining marks is one character).
    static let scalarLimit = 4

    /// `text` on one line without characters XML 1.0 or a reader would trip on, cut with `…` to
    /// fit `maxWidth` pixels at `fontSize`. Reads only as much of `text` as it keeps.
    static func fitted(_ text: String, maxWidth: Double, fontSize: Double) -> String {
        var kept: [String] = []
        var widths: [Double] = []
        var total = 0.0
        let ellipsisWidth = advance(of: "…") * fontSize
        var pendingSpace = false
        var truncated = false
        for character in text {
            guard let clean = cleaned(character) else {
                pendingSpace = !kept.isEmpty
                continue
            }
            if pendingSpace {
                kept.append(" ")
                widths.append(advance(of: " ") * fontSize)
                total += widths[widths.count - 1]
                pendingSpace = false
            }
            let width = advance(of: clean.unicodeScalars.first) * fontSize
            kept.append(clean)
            widths.append(width)
            total += width
            if total > maxWidth {
                truncated = true
                break
            }
        }
        guard truncated else { return kept.joined() }
        while let last = widths.last, total + ellipsisWidth > maxWidth || kept.last == " " {
            total -= last
            widths.removeLast()
            kept.removeLast()
        }
        return kept.joined() + ellipsis
    }

    /// `character` as drawn: `nil` for white space, U+FFFD for controls, noncharacters and bidi
    /// controls.
    static func cleaned(_ character: Character) -> String? {
        if character.isWhitespace { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in character.unicodeScalars.prefix(scalarLimit) {
            if isUnsafe(scalar) { return "\u{FFFD}" }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Controls (tab and line breaks too: a box holds one line) and what `SnapshotText` never shows as it is.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || SnapshotText.isHidden(scalar)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for XML text and attribute values.
    static func escaped(_ text: String) -> String {
        MarkupEscaping.html(text)
    }

    /// The estimated width of `text` in pixels at `fontSize`.
    static func width(of text: String, fontSize: Double) -> Double {
        text.reduce(0) { $0 + advance(of: $1.unicodeScalars.first) } * fontSize
    }

    /// An estimate of a character's advance in ems, on the wide side of common sans-serif faces
    /// (DejaVu Sans), so text rather stays inside its box.
    static func advance(of scalar: Unicode.Scalar?) -> Double {
        guard let scalar else { return 0 }
        switch scalar.value {
        case 0x20: return 0.32
        case 0x21...0x7E: return asciiAdvance[Int(scalar.value) - 0x21]
        case 0x2026: return 0.9
        case 0xFFFD: return 1.0
        case 0xC0...0x24F: return 0.66
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            return 1.0
        default: return 0.76
        }
    }

    /// Advances of `!` through `~`.
    private static let asciiAdvance: [Double] = {
        var table = [Double](repeating: 0.62, count: 0x7E - 0x20)
        func set(_ characters: String, _ advance: Double) {
            for byte in characters.utf8 { table[Int(byte) - 0x21] = advance }
        }
        set("abcdeghknopqsuvxyz", 0.62)
        set("ABCDEFGHIJKLNOPQRSTUVXYZ", 0.72)
        set("0123456789", 0.64)
        set("ijl.,:;'!|`", 0.3)
        set("frt()[]-/\\", 0.42)
        set("\"*_?^", 0.52)
        set("{}", 0.64)
        set("mwMW", 0.95)
        set("=+<>~#$&", 0.84)
        set("%@", 1.0)
        return table
    }()
}

// MARK: - Layout

/// Where everything goes: a layered (Sugiyama-style) layout, linear in pages and steps apart from
/// sorting.
///
/// 1. Steps that close a cycle are found by a depth-first search from the first page (then from
///    the pages it does not reach, in order), following lower page indices first; the rest form a
///    DAG.
/// 2. Pages the first page reaches get their longest-path depth; the others sit just above their
///    highest successor (or beside the previous reachable page); terminals go below their page.
/// 3. A layer holds at most four pages' width: nodes that do not fit move down (and their
///    successors with them), so the drawing grows in height rather than width.
/// 4. Steps spanning several layers get a placeholder in each layer they cross, so they route
///    between boxes rather than through them.
/// 5. Barycentre sweeps down and up order each layer, keeping the order with the fewest crossings.
/// 6. Each node moves towards the mean of its neighbours in the previous layer (alternately the
///    next), keeping the order and spacing of its layer (isotonic regression).
/// 7. Steps back up run in lanes beside the drawing on the nearer side, nested by length, and
///    enter their target from the side.
struct FlowLayout {
    struct Point {
        var x: Double
        var y: Double
    }

    enum Segment {
        case line(Point)
        case quad(Point, Point)
        case cubic(Point, Point, Point)
    }

    struct Path {
        var start: Point
        var segments: [Segment] = []
    }

    struct Label {
        var step: Int
        var text: String
        var x: Double
        var y: Double
        var width: Double
    }

    enum Metrics {
        static let pageWidth = 192.0
        static let pageHeight = 62.0
        static let terminalHeight = 26.0
        static let terminalMinWidth = 52.0
        static let terminalPadding = 12.0
        static let nodeGap = 28.0
        static let placeholderGap = 12.0
        /// The room in a layer for pages: four, with their gaps.
        static let layerWidth = 4 * (pageWidth + nodeGap)
        /// The room in a layer for terminals too, which only take what pages leave.
        static let terminalLayerWidth = 1.15 * layerWidth
        /// The widest the nodes may spread to line up with their neighbours.
        static let maximumWidth = 1100.0
        static let fontSize = 11.0
        static let idFontSize = 12.0
        /// How much wider bold text runs than regular.
        static let boldWidening = 1.06
        static let textPadding = 10.0
        static let labelHeight = 16.0
        static let labelRow = 19.0
        static let labelMaxTextWidth = 200.0
        static let labelPadding = 5.0
        static let labelSpacing = 6.0
        static let bend = 36.0
        static let legPitch = 6.0
        static let lanePitch = 12.0
        static let laneOffset = 22.0
        static let cornerRadius = 6.0
        static let sideEntry = 10.0
    }

    let flow: FunnelFlow
    /// Per node of the flow.
    private(set) var centerX: [Double] = []
    private(set) var top: [Double] = []
    private(set) var nodeWidth: [Double] = []
    private(set) var nodeHeight: [Double] = []
    private(set) var terminalText: [String] = []
    /// Per step.
    private(set) var isBack: [Bool] = []
    private(set) var paths: [Path] = []
    private(set) var labels: [Label] = []
    private(set) var minX = 0.0
    private(set) var maxX = 0.0
    private(set) var totalHeight = 0.0

    // Layered graph: the flow's nodes, then placeholders.
    private var layerOf: [Int] = []
    private var layers: [[Int]] = []
    private var ups: [[Int]] = []
    private var downs: [[Int]] = []
    private var x: [Double] = []
    private var slotWidth: [Double] = []
    private var chains: [[Int]] = []

    init(flow: FunnelFlow) {
        self.flow = flow
        let count = flow.nodes.count
        terminalText = flow.nodes.map { node in
            switch node {
            case .page: ""
            case .end: "end"
            case .unknown(_, let target):
                DrawingText.fitted(
                    target, maxWidth: Metrics.pageWidth - 2 * Metrics.terminalPadding, fontSize: Metrics.fontSize)
            }
        }
        nodeWidth = (0..<count).map { node in
            guard flow.isTerminal(node) else { return Metrics.pageWidth }
            let text = max(DrawingText.width(of: terminalText[node], fontSize: Metrics.fontSize), 14)
            return max(Metrics.terminalMinWidth, text + 2 * Metrics.terminalPadding)
        }
        nodeHeight = (0..<count).map { flow.isTerminal($0) ? Metrics.terminalHeight : Metrics.pageHeight }
        guard count > 0 else { return }

        assignLayers()
        addPlaceholders()
        orderLayers()
        placeHorizontally()
        route()
    }

    // MARK: Layers

    private mutating func assignLayers() {
        let pageCount = flow.pageCount
        let steps = flow.steps
        var successors = [[(to: Int, step: Int)]](repeating: [], count: pageCount)
        for (index, step) in steps.enumerated() where !flow.isTerminal(step.to) {
            successors[step.from].append((step.to, index))
        }
        for page in 0..<pageCount {
            successors[page].sort { ($0.to, $0.step) < ($1.to, $1.step) }
        }

        isBack = Array(repeating: false, count: steps.count)
        var state = [UInt8](repeating: 0, count: pageCount)
        var postorder: [Int] = []
        postorder.reserveCapacity(pageCount)
        var reached = [Bool](repeating: false, count: pageCount)
        var stack: [(page: Int, next: Int)] = []
        for root in 0..<pageCount where state[root] == 0 {
            state[root] = 1
            stack.append((root, 0))
            while let (page, next) = stack.last {
                if next < successors[page].count {
                    stack[stack.count - 1].next += 1
                    let (target, step) = successors[page][next]
                    if state[target] == 0 {
                        state[target] = 1
                        stack.append((target, 0))
                    } else if state[target] == 1 {
                        isBack[step] = true
                    }
                } else {
                    state[page] = 2
                    postorder.append(page)
                    stack.removeLast()
                }
            }
            if root == 0 {
                for page in 0..<pageCount where state[page] != 0 { reached[page] = true }
            }
        }

        var layer = [Int](repeating: 0, count: flow.nodes.count)
        for page in postorder.reversed() where reached[page] {
            for (target, step) in successors[page] where !isBack[step] {
                layer[target] = max(layer[target], layer[page] + 1)
            }
        }
        let hasForwardSuccessor = (0..<pageCount).map { page in successors[page].contains { !isBack[$0.step] } }
        var previousReachedLayer = 0
        for page in 0..<pageCount {
            if reached[page] {
                previousReachedLayer = layer[page]
            } else if !hasForwardSuccessor[page] {
                layer[page] = previousReachedLayer
            }
        }
        for page in postorder where !reached[page] && hasForwardSuccessor[page] {
            var nearest = Int.max
            for (target, step) in successors[page] where !isBack[step] { nearest = min(nearest, layer[target]) }
            layer[page] = nearest - 1
        }
        let lowest = layer[0..<pageCount].min() ?? 0
        for page in 0..<pageCount { layer[page] -= lowest }

        var predecessors = [[Int]](repeating: [], count: flow.nodes.count)
        for (index, step) in steps.enumerated() where !isBack[index] {
            predecessors[step.to].append(step.from)
        }

        // Pages first, so terminals only take the room pages leave.
        let pageOrder = (0..<pageCount).sorted { (layer[$0], $0) < (layer[$1], $1) }
        var slots = LayerSlots()
        var final = [Int](repeating: 0, count: flow.nodes.count)
        let pageCost = Metrics.pageWidth + Metrics.nodeGap
        for page in pageOrder {
            var lowestAllowed = layer[page]
            for predecessor in predecessors[page] { lowestAllowed = max(lowestAllowed, final[predecessor] + 1) }
            final[page] = slots.take(
                pageCost, limit: Metrics.layerWidth, smallest: pageCost, kind: .page, from: lowestAllowed)
        }
        let terminalOrder = (pageCount..<flow.nodes.count).sorted {
            (predecessors[$0].first.map { final[$0] } ?? 0, $0) < (predecessors[$1].first.map { final[$0] } ?? 0, $1)
        }
        for terminal in terminalOrder {
            let lowestAllowed = predecessors[terminal].map { final[$0] + 1 }.max() ?? 0
            final[terminal] = slots.take(
                nodeWidth[terminal] + Metrics.nodeGap, limit: Metrics.terminalLayerWidth,
                smallest: Metrics.terminalMinWidth + Metrics.nodeGap, kind: .terminal, from: lowestAllowed)
        }
        layerOf = final
    }

    /// Fills layers up to a width; finds the first layer with room in near-constant time.
    private struct LayerSlots {
        enum Kind: Int {
            case page, terminal
        }

        private var used: [Double] = []
        /// Per kind: for a layer with no room left, a later layer to try next (path-compressed).
        private var skips: [[Int]] = [[], []]

        /// The first layer from `lowest` with room for `cost` within `limit` (an empty layer always
        /// has room). A layer that cannot hold `smallest` more is closed to `kind` for good.
        mutating func take(_ cost: Double, limit: Double, smallest: Double, kind: Kind, from lowest: Int) -> Int {
            var layer = open(lowest, kind)
            while used[layer] > 0 && used[layer] + cost > limit {
                layer = open(layer + 1, kind)
            }
            used[layer] += cost
            if used[layer] + smallest > limit { skips[kind.rawValue][layer] = layer + 1 }
            return layer
        }

        private mutating func grow(to layer: Int) {
            while used.count <= layer {
                for kind in skips.indices { skips[kind].append(used.count) }
                used.append(0)
            }
        }

        private mutating func open(_ layer: Int, _ kind: Kind) -> Int {
            grow(to: layer)
            var root = layer
            while skips[kind.rawValue][root] != root {
                root = skips[kind.rawValue][root]
                grow(to: root)
            }
            var current = layer
            while skips[kind.rawValue][current] != current {
                let next = skips[kind.rawValue][current]
                skips[kind.rawValue][current] = root
                current = next
            }
            return root
        }
    }

    private mutating func addPlaceholders() {
        let steps = flow.steps
        slotWidth = nodeWidth
        chains = steps.map { [$0.from, $0.to] }
        func span(_ index: Int) -> Int { layerOf[steps[index].to] - layerOf[steps[index].from] }
        let long = steps.indices.filter { !isBack[$0] && span($0) > 1 }.sorted { (span($0), $0) < (span($1), $1) }
        var budget = 4 * (flow.nodes.count + steps.count) + 64
        for index in long {
            let from = layerOf[steps[index].from]
            let to = layerOf[steps[index].to]
            guard to - from - 1 <= budget else { break }
            budget -= to - from - 1
            var chain = [steps[index].from]
            for layer in (from + 1)..<to {
                chain.append(layerOf.count)
                layerOf.append(layer)
                slotWidth.append(0)
            }
            chain.append(steps[index].to)
            chains[index] = chain
        }
        ups = Array(repeating: [], count: layerOf.count)
        downs = Array(repeating: [], count: layerOf.count)
        for (index, chain) in chains.enumerated() where !isBack[index] {
            for (upper, lower) in zip(chain, chain.dropFirst()) where layerOf[lower] == layerOf[upper] + 1 {
                downs[upper].append(lower)
                ups[lower].append(upper)
            }
        }
    }

    // MARK: Order

    private mutating func orderLayers() {
        var seed = [(Double, Int)](repeating: (0, 0), count: layerOf.count)
        for (node, kind) in flow.nodes.enumerated() {
            switch kind {
            case .page(let index): seed[node] = (Double(index), node)
            case .end(let source), .unknown(let source, _): seed[node] = (Double(source) + 0.5, node)
            }
        }
        // A placeholder starts between its step's ends, so long steps can thread between boxes.
        for chain in chains where chain.count > 2 {
            let (first, last) = (chain[0], chain[chain.count - 1])
            let span = Double(layerOf[last] - layerOf[first])
            for placeholder in chain.dropFirst().dropLast() {
                let fraction = Double(layerOf[placeholder] - layerOf[first]) / span
                seed[placeholder] = (seed[first].0 + (seed[last].0 - seed[first].0) * fraction, placeholder)
            }
        }
        layers = Array(repeating: [], count: (layerOf.max() ?? -1) + 1)
        for node in layerOf.indices { layers[layerOf[node]].append(node) }
        for layer in layers.indices { layers[layer].sort { seed[$0] < seed[$1] } }

        var position = [Int](repeating: 0, count: layerOf.count)
        func index(_ layer: [Int]) {
            for (offset, node) in layer.enumerated() { position[node] = offset }
        }
        layers.forEach(index)
        var best = layers
        var bestCrossings = crossings(position)
        for round in 0..<8 where bestCrossings > 0 {
            let downward = round % 2 == 0
            let sequence = downward ? Array(layers.indices.dropFirst()) : Array(layers.indices.dropLast().reversed())
            for layer in sequence {
                let keyed = layers[layer].map { node -> (Double, Int, Int) in
                    let neighbours = downward ? ups[node] : downs[node]
                    guard !neighbours.isEmpty else { return (Double(position[node]), position[node], node) }
                    let sum = neighbours.reduce(0) { $0 + position[$1] }
                    return (Double(sum) / Double(neighbours.count), position[node], node)
                }
                layers[layer] = keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
                index(layers[layer])
            }
            let now = crossings(position)
            if now < bestCrossings {
                bestCrossings = now
                best = layers
            }
        }
        layers = best
    }

    /// Crossings between consecutive layers, counted as inversions.
    private func crossings(_ position: [Int]) -> Int {
        var total = 0
        for layer in layers.dropLast() {
            var sequence: [Int] = []
            for node in layer.sorted(by: { position[$0] < position[$1] }) {
                sequence += downs[node].map { position[$0] }.sorted()
            }
            total += Self.inversions(&sequence)
        }
        return total
    }

    static func inversions(_ values: inout [Int]) -> Int {
        guard values.count > 1 else { return 0 }
        var buffer = values
        var count = 0
        var width = 1
        while width < values.count {
            var start = 0
            while start < values.count {
                let middle = min(start + width, values.count)
                let end = min(start + 2 * width, values.count)
                var left = start
                var right = middle
                var out = start
                while left < middle && right < end {
                    if values[right] < values[left] {
                        count += middle - left
                        buffer[out] = values[right]
                        right += 1
                    } else {
                        buffer[out] = values[left]
                        left += 1
                    }
                    out += 1
                }
                while left < middle {
                    buffer[out] = values[left]
                    left += 1
                    out += 1
                }
                while right < end {
                    buffer[out] = values[right]
                    right += 1
                    out += 1
                }
                start = end
            }
            swap(&values, &buffer)
            width *= 2
        }
        return count
    }

    // MARK: Horizontal placement

    private func separation(_ left: Int, _ right: Int) -> Double {
        let leftReal = left < flow.nodes.count
        let rightReal = right < flow.nodes.count
        let gap = leftReal && rightReal ? Metrics.nodeGap : Metrics.placeholderGap
        return (slotWidth[left] + slotWidth[right]) / 2 + gap
    }

    private mutating func placeHorizontally() {
        x = Array(repeating: 0, count: layerOf.count)
        for layer in layers {
            var offsets: [Double] = [0]
            for (left, right) in zip(layer, layer.dropFirst()) {
                offsets.append(offsets.last! + separation(left, right))
            }
            let shift = (offsets.last ?? 0) / 2
            for (node, offset) in zip(layer, offsets) { x[node] = offset - shift }
        }
        let packed = x
        for round in 0..<12 {
            let downward = round % 2 == 0
            let sequence = downward ? Array(layers.indices.dropFirst()) : Array(layers.indices.dropLast().reversed())
            for layer in sequence {
                let desired = layers[layer].map { node -> Double in
                    let neighbours = downward ? ups[node] : downs[node]
                    guard !neighbours.isEmpty else { return x[node] }
                    return neighbours.reduce(0) { $0 + x[$1] } / Double(neighbours.count)
                }
                place(layer, desired: desired)
            }
        }
        // Too wide: move back towards the packed layers just enough. A blend of two placements that
        // keep order and spacing keeps them too, and is at most as wide as the blend of their widths.
        let aligned = extent(of: x)
        let compact = extent(of: packed)
        if aligned > Metrics.maximumWidth && aligned > compact {
            let share = max(0, (Metrics.maximumWidth - compact) / (aligned - compact))
            for node in x.indices { x[node] = packed[node] + share * (x[node] - packed[node]) }
        }
    }

    private func extent(of positions: [Double]) -> Double {
        var left = Double.infinity
        var right = -Double.infinity
        for node in positions.indices {
            left = min(left, positions[node] - slotWidth[node] / 2)
            right = max(right, positions[node] + slotWidth[node] / 2)
        }
        return right - left
    }

    /// Puts the nodes of `layer` as close to `desired` as their order and spacing allow (least squares,
    /// by pool-adjacent-violators).
    private mutating func place(_ layer: Int, desired: [Double]) {
        let nodes = layers[layer]
        var offsets = [Double](repeating: 0, count: nodes.count)
        for index in nodes.indices.dropFirst() {
            offsets[index] = offsets[index - 1] + separation(nodes[index - 1], nodes[index])
        }
        var blocks: [(sum: Double, count: Int)] = []
        for index in nodes.indices {
            blocks.append((desired[index] - offsets[index], 1))
            while blocks.count > 1,
                blocks[blocks.count - 2].sum / Double(blocks[blocks.count - 2].count)
                    > blocks[blocks.count - 1].sum / Double(blocks[blocks.count - 1].count)
            {
                let last = blocks.removeLast()
                blocks[blocks.count - 1].sum += last.sum
                blocks[blocks.count - 1].count += last.count
            }
        }
        var index = 0
        for block in blocks {
            let value = block.sum / Double(block.count)
            for _ in 0..<block.count {
                x[nodes[index]] = value + offsets[index]
                index += 1
            }
        }
    }

    // MARK: Routing

    private enum Side {
        case left, right
    }

    /// How a step back up runs: down out of its page, along a lane beside the drawing, into the side
    /// of its target.
    private struct BackRoute {
        var side: Side
        /// The lane on its side, from the drawing outwards; -1 for a step to its own page.
        var lane: Int
        /// Order among the back steps leaving one layer, and among those entering one, inner lanes first.
        var exitRank = 0
        var enterRank = 0
        /// Order and number of the back steps entering the same side of the same node.
        var entryRank = 0
        var entryCount = 1
    }

    /// A label waiting for its row in the band below or above a layer.
    private struct PendingLabel {
        var step: Int
        var text: String
        var center: Double
        var width: Double
        var row = 0
    }

    /// Vertical positions. Gap `g` lies above layer `g` (the last one below the last layer) and holds
    /// the labels below the layer before it, a bend, and the labels above the layer after it.
    private struct Rows {
        var layerTop: [Double] = []
        var layerHeight: [Double] = []
        var bendTop: [Double] = []
        var bendBottom: [Double] = []
        var total = 0.0

        func layerBottom(_ layer: Int) -> Double { layerTop[layer] + layerHeight[layer] }
    }

    private mutating func route() {
        let count = flow.nodes.count
        centerX = Array(x[0..<count])
        let back = planBackSteps()
        let (outPort, inPort) = ports(back: back)
        var (below, above) = pendingLabels(outPort: outPort, inPort: inPort)
        var rowsBelow: [Int] = []
        var rowsAbove: [Int] = []
        for layer in layers.indices {
            rowsBelow.append(Self.packRows(&below[layer]))
            rowsAbove.append(Self.packRows(&above[layer]))
        }
        let rows = verticalRows(rowsBelow: rowsBelow, rowsAbove: rowsAbove, back: back)
        top = (0..<count).map { rows.layerTop[layerOf[$0]] }
        totalHeight = rows.total

        paths = Array(repeating: Path(start: Point(x: 0, y: 0)), count: flow.steps.count)
        for index in flow.steps.indices where !isBack[index] {
            paths[index] = forwardPath(index, outPort: outPort[index], inPort: inPort[index], rows: rows)
        }

        let extent = nodeExtent()
        var left = extent.left
        var right = extent.right
        for label in (below + above).joined() {
            left = min(left, label.center - label.width / 2)
            right = max(right, label.center + label.width / 2)
        }
        minX = left
        maxX = right
        for index in flow.steps.indices {
            guard let route = back[index] else { continue }
            let points = backPoints(
                index, route: route, outPort: outPort[index], rows: rows, contentLeft: left, contentRight: right)
            paths[index] = Self.rounded(points)
            for point in points {
                minX = min(minX, point.x)
                maxX = max(maxX, point.x)
            }
        }

        labels = []
        for layer in layers.indices {
            for pending in below[layer] {
                let y = rows.layerBottom(layer) + 6 + Double(pending.row) * Metrics.labelRow
                labels.append(
                    Label(
                        step: pending.step, text: pending.text, x: pending.center - pending.width / 2, y: y,
                        width: pending.width))
            }
            for pending in above[layer] {
                let y = rows.layerTop[layer] - 6 - Metrics.labelHeight - Double(pending.row) * Metrics.labelRow
                labels.append(
                    Label(
                        step: pending.step, text: pending.text, x: pending.center - pending.width / 2, y: y,
                        width: pending.width))
            }
        }
        labels.sort { $0.step < $1.step }
    }

    /// The leftmost and rightmost edges of the nodes and placeholders.
    private func nodeExtent() -> (left: Double, right: Double) {
        var left = Double.infinity
        var right = -Double.infinity
        for node in x.indices {
            left = min(left, x[node] - slotWidth[node] / 2)
            right = max(right, x[node] + slotWidth[node] / 2)
        }
        return (left, right)
    }

    /// Sides, lanes and ranks of the steps back up. A step takes the side nearer to its ends, and the
    /// innermost lane free over its layers, shorter steps first, so lanes nest.
    private func planBackSteps() -> [BackRoute?] {
        let steps = flow.steps
        var back = [BackRoute?](repeating: nil, count: steps.count)
        let extent = nodeExtent()
        let middle = (extent.left + extent.right) / 2
        var lanes: [[[(low: Int, high: Int)]]] = [[], []]
        let backSteps = steps.indices.filter { isBack[$0] }
        let bySpan = backSteps.sorted {
            (layerOf[steps[$0].from] - layerOf[steps[$0].to], layerOf[steps[$0].to], $0)
                < (layerOf[steps[$1].from] - layerOf[steps[$1].to], layerOf[steps[$1].to], $1)
        }
        for index in bySpan {
            let step = steps[index]
            guard step.from != step.to else {
                back[index] = BackRoute(side: .right, lane: -1)
                continue
            }
            let side: Side = (x[step.from] + x[step.to]) / 2 >= middle ? .right : .left
            let sideIndex = side == .left ? 0 : 1
            let span = (low: layerOf[step.to], high: layerOf[step.from])
            let lane =
                lanes[sideIndex].firstIndex { taken in !taken.contains { $0.low <= span.high && span.low <= $0.high } }
                ?? lanes[sideIndex].count
            if lane == lanes[sideIndex].count { lanes[sideIndex].append([]) }
            lanes[sideIndex][lane].append(span)
            back[index] = BackRoute(side: side, lane: lane)
        }

        let byLane = backSteps.sorted { (back[$0]!.lane, $0) < (back[$1]!.lane, $1) }
        var exits = [Int](repeating: 0, count: layers.count)
        var enters = [Int](repeating: 0, count: layers.count)
        var entries: [Int: [Int]] = [:]
        for index in byLane {
            let step = steps[index]
            back[index]!.exitRank = exits[layerOf[step.from]]
            exits[layerOf[step.from]] += 1
            if step.from != step.to {
                back[index]!.enterRank = enters[layerOf[step.to]]
                enters[layerOf[step.to]] += 1
            }
            entries[step.to * 2 + (back[index]!.side == .left ? 0 : 1), default: []].append(index)
        }
        for key in entries.keys.sorted() {
            let group = entries[key]!
            for (rank, index) in group.enumerated() {
                back[index]!.entryRank = rank
                back[index]!.entryCount = group.count
            }
        }
        return back
    }

    /// Where each step leaves the bottom of its node and enters the top of its target, spread in the
    /// order of where the steps go and come from so they do not cross at the node.
    private func ports(back: [BackRoute?]) -> (out: [Double], in: [Double]) {
        let steps = flow.steps
        let count = flow.nodes.count
        var outgoing = [[Int]](repeating: [], count: count)
        var incoming = [[Int]](repeating: [], count: count)
        for index in steps.indices {
            outgoing[steps[index].from].append(index)
            if !isBack[index] { incoming[steps[index].to].append(index) }
        }
        func departure(_ index: Int) -> (Int, Double, Int) {
            guard let route = back[index] else { return (1, x[chains[index][1]], index) }
            return route.side == .left ? (0, Double(route.lane), index) : (2, -Double(route.lane), index)
        }
        func arrival(_ index: Int) -> (Double, Int) {
            (x[chains[index][chains[index].count - 2]], index)
        }
        var outPort = [Double](repeating: 0, count: steps.count)
        var inPort = [Double](repeating: 0, count: steps.count)
        for node in 0..<count {
            let left = x[node] - nodeWidth[node] / 2
            let leaving = outgoing[node].sorted { departure($0) < departure($1) }
            for (rank, index) in leaving.enumerated() {
                outPort[index] = left + nodeWidth[node] * Double(rank + 1) / Double(leaving.count + 1)
            }
            let arriving = incoming[node].sorted { arrival($0) < arrival($1) }
            for (rank, index) in arriving.enumerated() {
                inPort[index] = left + nodeWidth[node] * Double(rank + 1) / Double(arriving.count + 1)
            }
        }
        return (outPort, inPort)
    }

    /// The labels in the band below their step's page, or, for a condition whose target has fewer
    /// labelled arrivals than its page has conditions (a fan), above the target.
    private func pendingLabels(outPort: [Double], inPort: [Double]) -> (
        below: [[PendingLabel]], above: [[PendingLabel]]
    ) {
        let steps = flow.steps
        var conditionsFrom = [Int](repeating: 0, count: flow.nodes.count)
        var conditionsInto = [Int](repeating: 0, count: flow.nodes.count)
        for (index, step) in steps.enumerated() where step.hasCondition {
            conditionsFrom[step.from] += 1
            if !isBack[index] { conditionsInto[step.to] += 1 }
        }
        var below = [[PendingLabel]](repeating: [], count: layers.count)
        var above = [[PendingLabel]](repeating: [], count: layers.count)
        for (index, step) in steps.enumerated() {
            guard let raw = step.label else { continue }
            let text = DrawingText.fitted(raw, maxWidth: Metrics.labelMaxTextWidth, fontSize: Metrics.fontSize)
            let width = DrawingText.width(of: text, fontSize: Metrics.fontSize) + 2 * Metrics.labelPadding
            if !isBack[index] && step.hasCondition && conditionsInto[step.to] < conditionsFrom[step.from] {
                above[layerOf[step.to]].append(
                    PendingLabel(step: index, text: text, center: inPort[index], width: width))
            } else {
                below[layerOf[step.from]].append(
                    PendingLabel(step: index, text: text, center: outPort[index], width: width))
            }
        }
        return (below, above)
    }

    /// Gives each label the first row where it overlaps no other; returns the number of rows.
    private static func packRows(_ band: inout [PendingLabel]) -> Int {
        band.sort { ($0.center - $0.width / 2, $0.step) < ($1.center - $1.width / 2, $1.step) }
        var rowEnds: [Double] = []
        for index in band.indices {
            let start = band[index].center - band[index].width / 2
            let row = rowEnds.firstIndex { $0 + Metrics.labelSpacing <= start } ?? rowEnds.count
            if row == rowEnds.count { rowEnds.append(0) }
            rowEnds[row] = start + band[index].width
            band[index].row = row
        }
        return rowEnds.count
    }

    private func verticalRows(rowsBelow: [Int], rowsAbove: [Int], back: [BackRoute?]) -> Rows {
        let count = flow.nodes.count
        let layerCount = layers.count
        var legs = [Int](repeating: 0, count: layerCount + 1)
        for (index, route) in back.enumerated() where route != nil {
            let step = flow.steps[index]
            legs[layerOf[step.from] + 1] += 1
            if step.from != step.to { legs[layerOf[step.to]] += 1 }
        }
        var rows = Rows()
        rows.layerHeight = layers.map { layer in layer.filter { $0 < count }.map { nodeHeight[$0] }.max() ?? 0 }
        var y = 0.0
        for gap in 0...layerCount {
            if gap > 0 { y += 8 + Double(rowsBelow[gap - 1]) * Metrics.labelRow }
            rows.bendTop.append(y)
            if gap > 0 && gap < layerCount {
                y += max(Metrics.bend, 16 + Metrics.legPitch * Double(legs[gap]))
            } else if legs[gap] > 0 {
                y += 10 + Metrics.legPitch * Double(legs[gap])
            }
            rows.bendBottom.append(y)
            if gap < layerCount {
                y += 6 + Double(rowsAbove[gap]) * Metrics.labelRow
                rows.layerTop.append(y)
                y += rows.layerHeight[gap]
            }
        }
        rows.total = y
        return rows
    }

    /// Straight down from the port through the label band, a bend, straight into the next layer, and
    /// so on through the placeholders.
    private func forwardPath(_ index: Int, outPort: Double, inPort: Double, rows: Rows) -> Path {
        let count = flow.nodes.count
        let chain = chains[index]
        var current = Point(x: outPort, y: top[chain[0]] + nodeHeight[chain[0]])
        var path = Path(start: current)
        for (upper, lower) in zip(chain, chain.dropFirst()) {
            let layer = layerOf[lower]
            let arrivalX = lower < count ? inPort : x[lower]
            let from = Point(x: current.x, y: rows.bendTop[layerOf[upper] + 1])
            let to = Point(x: arrivalX, y: rows.bendBottom[layer])
            let pull = max((to.y - from.y) / 2, 12)
            path.segments.append(.line(from))
            path.segments.append(.cubic(Point(x: from.x, y: from.y + pull), Point(x: to.x, y: to.y - pull), to))
            current = Point(x: arrivalX, y: rows.layerTop[layer])
            path.segments.append(.line(current))
            if lower >= count {
                current.y = rows.layerBottom(layer)
                path.segments.append(.line(current))
            }
        }
        return path
    }

    /// Down out of the port into the gap below, across to the lane, up to the gap above the target,
    /// across to beside it and into its side.
    private func backPoints(
        _ index: Int, route: BackRoute, outPort: Double, rows: Rows, contentLeft: Double, contentRight: Double
    ) -> [Point] {
        let step = flow.steps[index]
        let sign = route.side == .right ? 1.0 : -1.0
        let exitY = rows.bendTop[layerOf[step.from] + 1] + 8 + Metrics.legPitch * Double(route.exitRank)
        let targetSide = x[step.to] + sign * nodeWidth[step.to] / 2
        let approachX = targetSide + sign * (Metrics.sideEntry + 5 * Double(route.entryCount - 1 - route.entryRank))
        let entryY =
            top[step.to] + nodeHeight[step.to] / 2 + 6 * (Double(route.entryCount - 1) / 2 - Double(route.entryRank))
        var points = [
            Point(x: outPort, y: top[step.from] + nodeHeight[step.from]),
            Point(x: outPort, y: exitY),
        ]
        if route.lane >= 0 {
            let laneX =
                route.side == .right
                ? contentRight + Metrics.laneOffset + Metrics.lanePitch * Double(route.lane)
                : contentLeft - Metrics.laneOffset - Metrics.lanePitch * Double(route.lane)
            let enterY = rows.bendBottom[layerOf[step.to]] - 8 - Metrics.legPitch * Double(route.enterRank)
            points += [Point(x: laneX, y: exitY), Point(x: laneX, y: enterY), Point(x: approachX, y: enterY)]
        } else {
            points.append(Point(x: approachX, y: exitY))
        }
        points += [Point(x: approachX, y: entryY), Point(x: targetSide, y: entryY)]
        return points
    }

    /// A polyline through `points` with rounded corners.
    static func rounded(_ points: [Point]) -> Path {
        var distinct: [Point] = []
        for point in points where distinct.last.map({ $0.x != point.x || $0.y != point.y }) ?? true {
            distinct.append(point)
        }
        var path = Path(start: distinct[0])
        for index in distinct.indices.dropFirst().dropLast() {
            let previous = distinct[index - 1]
            let corner = distinct[index]
            let next = distinct[index + 1]
            let incoming = hypot(corner.x - previous.x, corner.y - previous.y)
            let outgoing = hypot(next.x - corner.x, next.y - corner.y)
            let radius = min(Metrics.cornerRadius, incoming / 2, outgoing / 2)
            let before = Point(
                x: corner.x - (corner.x - previous.x) / incoming * radius,
                y: corner.y - (corner.y - previous.y) / incoming * radius)
            let after = Point(
                x: corner.x + (next.x - corner.x) / outgoing * radius,
                y: corner.y + (next.y - corner.y) / outgoing * radius)
            path.segments.append(.line(before))
            path.segments.append(.quad(corner, after))
        }
        if distinct.count > 1 { path.segments.append(.line(distinct[distinct.count - 1])) }
        return path
    }

    private static func hypot(_ a: Double, _ b: Double) -> Double {
        (a * a + b * b).squareRoot()
    }
}

// MARK: - Writing

/// Writes a laid-out flow as SVG text.
struct DrawingWriter {
    let funnel: Funnel
    let flow: FunnelFlow
    let layout: FlowLayout
    let prefix: String
    let unreachablePageIds: Set<ExactKey>
    let locale: String?
    private(set) var width = 0
    private(set) var height = 0
    private var output = ""
    private var offsetX = 0.0
    private var offsetY = 0.0

    static let margin = 16.0
    /// The longest tooltip, in pixels at the label font size.
    static let tooltipWidth = 2400.0

    init(
        funnel: Funnel, flow: FunnelFlow, layout: FlowLayout, prefix: String, unreachablePageIds: Set<ExactKey>,
        locale: String?
    ) {
        self.funnel = funnel
        self.flow = flow
        self.layout = layout
        self.prefix = prefix
        self.unreachablePageIds = unreachablePageIds
        self.locale = locale
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
            "viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(prefix)-title \(prefix)-desc\">\n"
        output += "<title id=\"\(prefix)-title\">\(text("Flow of funnel \(funnelName)", width: 600))</title>\n"
        output += "<desc id=\"\(prefix)-desc\">\(text(summary, width: Self.tooltipWidth))</desc>\n"
        writeMarkers()
        if empty {
            output += "<text class=\"fd-empty\" x=\"\(number(0))\" y=\"\(number(16))\">No pages</text>\n"
        } else {
            writeEdges()
            writeNodes()
            writeLabels()
        }
        output += "</svg>\n"
        return output
    }

    private var funnelName: String {
        if let name = funnel.name, !name.isEmpty { return name }
        return funnel.id
    }

    private var summary: String {
        let unreachable = funnel.pages.count { unreachablePageIds.contains(ExactKey($0.id)) }
        let unknown = flow.steps.count { step in
            if case .unknown = flow.nodes[step.to] { return true }
            return false
        }
        let back = layout.isBack.count { $0 }
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
        if layout.isBack[index] { classes += " is-back" }
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
        if layout.isBack[index] { return .back }
        if case .unknown = flow.nodes[step.to] { return .unknown }
        if step.jumpsToPaywall { return .paywall }
        return step.kind == .rule ? .rule : .plain
    }

    private mutating func writeEdges() {
        output += "<g class=\"fd-edges\">\n"
        for (index, step) in flow.steps.enumerated() {
            output += "<path class=\"fd-edge \(stepClasses(index))\" data-from=\"\(nodeId(step.from))\" "
            output += "data-to=\"\(nodeId(step.to))\" d=\"\(pathData(layout.paths[index]))\" "
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
            case .unknown(let source, let target):
                let page = funnel.pages[source].id
                let tooltip =
                    target.utf8.elementsEqual("paywall".utf8)
                    ? "\(page) goes to \"paywall\", but no page has type paywall"
                    : "\(page) goes to \(JSONValue.quoted(target)), which is not a page id, \"end\" or \"paywall\""
                writeTerminal(node, isError: true, tooltip: tooltip)
            }
        }
        output += "</g>\n"
    }

    /// A box with the page's id, type (and paywall) and copy.
    private mutating func writePage(_ index: Int, node: Int) {
        let page = funnel.pages[index]
        let isUnreachable = unreachablePageIds.contains(ExactKey(page.id))
        var classes = "fd-page"
        if index == 0 { classes += " is-start" }
        if page.type.utf8.elementsEqual("paywall".utf8) { classes += " is-paywall" }
        if isUnreachable { classes += " is-unreachable" }
        var kind = page.type
        if let paywallId = page.paywallId, !paywallId.isEmpty { kind += " · " + paywallId }
        let copy = pageText(page)
        var tooltip = "\(page.id) · \(kind)"
        if let copy { tooltip += " · " + copy }
        if isUnreachable { tooltip += " · unreachable from the first page" }

        let left = layout.centerX[node] - layout.nodeWidth[node] / 2
        let top = layout.top[node]
        let inner = FlowLayout.Metrics.pageWidth - 2 * FlowLayout.Metrics.textPadding
        let textX = number(left + FlowLayout.Metrics.textPadding + offsetX)
        output += "<g class=\"\(classes)\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(x: left, y: top, width: layout.nodeWidth[node], height: layout.nodeHeight[node], radius: 6)
        output += "<text class=\"fd-page-id\" x=\"\(textX)\" y=\"\(number(top + 18 + offsetY))\">"
        output += text(page.id, width: inner, fontSize: FlowLayout.Metrics.idFontSize * FlowLayout.Metrics.boldWidening)
        output += "</text><text class=\"fd-page-type\" x=\"\(textX)\" y=\"\(number(top + 35 + offsetY))\">"
        output += text(kind, width: inner) + "</text>"
        if let copy {
            output += "<text class=\"fd-page-title\" x=\"\(textX)\" y=\"\(number(top + 51 + offsetY))\">"
            output += text(copy, width: inner) + "</text>"
        }
        output += "</g>\n"
    }

    /// A pill with `end`, or in the error style, the unknown target.
    private mutating func writeTerminal(_ node: Int, isError: Bool, tooltip: String) {
        let left = layout.centerX[node] - layout.nodeWidth[node] / 2
        let top = layout.top[node]
        let label = layout.terminalText[node]
        let labelX = layout.centerX[node] - DrawingText.width(of: label, fontSize: FlowLayout.Metrics.fontSize) / 2
        output += "<g class=\"fd-terminal\(isError ? " is-error" : "")\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(
            x: left, y: top, width: layout.nodeWidth[node], height: layout.nodeHeight[node],
            radius: layout.nodeHeight[node] / 2)
        output += "<text x=\"\(number(labelX + offsetX))\" y=\"\(number(top + 17 + offsetY))\">"
        output += DrawingText.escaped(label) + "</text></g>\n"
    }

    private mutating func writeLabels() {
        output += "<g class=\"fd-labels\">\n"
        for label in layout.labels {
            let step = flow.steps[label.step]
            var classes = "fd-label"
            switch step.kind {
            case .rule: classes += " is-rule"
            case .defaultNext: classes += " is-default"
            case .sequential: classes += " is-sequential"
            }
            if layout.isBack[label.step] { classes += " is-back" }
            output += "<g class=\"\(classes)\"><title>\(text(step.summary, width: Self.tooltipWidth))</title>"
            output += rect(
                x: label.x, y: label.y, width: label.width, height: FlowLayout.Metrics.labelHeight, radius: 3)
            output += "<text x=\"\(number(label.x + FlowLayout.Metrics.labelPadding + offsetX))\" "
            output += "y=\"\(number(label.y + 12 + offsetY))\">\(DrawingText.escaped(label.text))</text></g>\n"
        }
        output += "</g>\n"
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

    private func text(_ raw: String, width: Double, fontSize: Double = FlowLayout.Metrics.fontSize) -> String {
        DrawingText.escaped(DrawingText.fitted(raw, maxWidth: width, fontSize: fontSize))
    }

    /// A `<rect>` at layout coordinates.
    private func rect(x: Double, y: Double, width: Double, height: Double, radius: Double) -> String {
        "<rect x=\"\(number(x + offsetX))\" y=\"\(number(y + offsetY))\" width=\"\(number(width))\" "
            + "height=\"\(number(height))\" rx=\"\(number(radius))\"/>"
    }

    private func pathData(_ path: FlowLayout.Path) -> String {
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

    private func point(_ point: FlowLayout.Point) -> String {
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
