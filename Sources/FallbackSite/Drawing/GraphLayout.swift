/// A node of a graph to lay out, by its position among the graph's nodes.
struct LayoutNodeID: Hashable, Comparable {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }
}

/// A step (directed edge) of a graph to lay out, by its position among the graph's steps.
struct LayoutStepID: Hashable, Comparable {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }
}

/// What `GraphLayout` needs to know of a graph: boxes, terminals, and labelled steps between them.
///
/// Nodes `0..<boxCount` are boxes, in the order a reader expects them (the layout starts each
/// layer in that order); the nodes after them are terminals, small pills that hang below a box.
/// Steps are drawn in their order, from one node to another.
protocol LayeredGraph {
    /// The number of nodes, boxes and terminals.
    var nodeCount: Int { get }
    /// The number of boxes: the first nodes.
    var boxCount: Int { get }
    /// The number of steps.
    var stepCount: Int { get }
    /// For a terminal node: the text its pill shows (not yet fitted or escaped), and the box it hangs from.
    func terminal(_ node: LayoutNodeID) -> (text: String, box: LayoutNodeID)
    /// The node `step` leaves.
    func from(_ step: LayoutStepID) -> LayoutNodeID
    /// The node `step` leads to.
    func to(_ step: LayoutStepID) -> LayoutNodeID
    /// The text shown on `step` at the node it leaves (not yet wrapped or escaped), if any.
    func label(of step: LayoutStepID) -> String?
}

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
///    next), keeping the order and spacing of its layer (isotonic regression), for six pairs of
///    rounds or until a pair changes nothing.
/// 7. Steps back up run in lanes beside the drawing on the nearer side, nested by length, and
///    enter their target from the side.
struct GraphLayout {
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
        var step: LayoutStepID
        /// The label's text wrapped to lines (not yet escaped).
        var lines: [String]
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        /// Where the step leaves its node: the centre of the badge with its priority.
        var port: Point
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
        /// One line of a label, and the padding above and below its lines.
        static let labelLine = 14.0
        static let labelVerticalPadding = 3.0
        static let labelMaxTextWidth = 200.0
        /// More lines than this (some 1,300 characters) only come from hostile or absurd
        /// conditions; the outline and the pages table show them whole.
        static let labelMaxLines = 40
        /// The room below a node for the badges with the priorities of its steps.
        static let badgeBand = 22.0
        static let badgeRadius = 7.5
        static let labelPadding = 5.0
        static let labelSpacing = 6.0
        static let bend = 36.0
        static let legPitch = 6.0
        static let lanePitch = 12.0
        static let laneOffset = 22.0
        static let cornerRadius = 6.0
        static let sideEntry = 10.0
    }

    /// One step of the graph, as the layout reads it.
    private struct Edge {
        var from: Int
        var to: Int
        var label: String?
    }

    /// Nodes `0..<boxCount` are boxes, the rest terminals.
    private let boxCount: Int
    private let nodeCount: Int
    private let edges: [Edge]
    /// Per node: where it starts in the order of its layer (a box at its position, a terminal just
    /// after the box it hangs from).
    private let seeds: [Double]
    /// Per node of the graph.
    private var centerX: [Double] = []
    private var top: [Double] = []
    private var nodeWidth: [Double] = []
    private var nodeHeight: [Double] = []
    private var terminalText: [String] = []
    /// Per step.
    private var isBack: [Bool] = []
    private var paths: [Path] = []
    /// The step labels, in step order.
    private(set) var labels: [Label] = []
    private(set) var minX = 0.0
    private(set) var maxX = 0.0
    private(set) var totalHeight = 0.0

    // Layered graph: the graph's nodes, then placeholders.
    private var layerOf: [Int] = []
    private var layers: [[Int]] = []
    private var ups: [[Int]] = []
    private var downs: [[Int]] = []
    private var x: [Double] = []
    private var slotWidth: [Double] = []
    private var chains: [[Int]] = []

    /// False: `placeHorizontally` runs all its rounds, even those that change nothing (the tests'
    /// reference for stopping once they do).
    private let settlesPlacement: Bool

    /// Lays out `graph`; `settlingEarly` false runs every placement round (for the tests).
    init<Graph: LayeredGraph>(graph: Graph, settlingEarly: Bool = true) {
        settlesPlacement = settlingEarly
        let count = graph.nodeCount
        boxCount = graph.boxCount
        nodeCount = count
        edges = (0..<graph.stepCount).map { index in
            let step = LayoutStepID(index)
            return Edge(
                from: graph.from(step).index, to: graph.to(step).index, label: graph.label(of: step))
        }
        var seeds = (0..<count).map(Double.init)
        terminalText = (0..<count).map { node in
            guard node >= graph.boxCount else { return "" }
            let terminal = graph.terminal(LayoutNodeID(node))
            seeds[node] = Double(terminal.box.index) + 0.5
            return DrawingText.fitted(
                terminal.text, maxWidth: Metrics.pageWidth - 2 * Metrics.terminalPadding, fontSize: Metrics.fontSize)
        }
        self.seeds = seeds
        nodeWidth = (0..<count).map { node in
            guard node >= graph.boxCount else { return Metrics.pageWidth }
            let text = max(DrawingText.width(of: terminalText[node], fontSize: Metrics.fontSize), 14)
            return max(Metrics.terminalMinWidth, text + 2 * Metrics.terminalPadding)
        }
        nodeHeight = (0..<count).map { $0 >= graph.boxCount ? Metrics.terminalHeight : Metrics.pageHeight }
        guard count > 0 else { return }

        assignLayers()
        addPlaceholders()
        orderLayers()
        placeHorizontally()
        route()
    }

    // MARK: Reading the layout

    /// Where a node sits, in layout coordinates.
    struct Frame {
        var centerX: Double
        var top: Double
        var width: Double
        var height: Double
        /// A terminal's text, fitted to its pill (not yet escaped); empty for a box.
        var terminalText: String
    }

    /// Where `node` sits.
    func frame(of node: LayoutNodeID) -> Frame {
        Frame(
            centerX: centerX[node.index], top: top[node.index], width: nodeWidth[node.index], height: nodeHeight[node.index],
            terminalText: terminalText[node.index])
    }

    /// True when `step` closes a cycle and runs back up beside the drawing.
    func runsBack(_ step: LayoutStepID) -> Bool {
        isBack[step.index]
    }

    /// The number of steps that run back up.
    var backStepCount: Int {
        isBack.count { $0 }
    }

    /// The line `step` is drawn as.
    func path(of step: LayoutStepID) -> Path {
        paths[step.index]
    }

    // MARK: Layers

    private mutating func assignLayers() {
        let pageCount = boxCount
        let steps = edges
        var successors = [[(to: Int, step: Int)]](repeating: [], count: pageCount)
        for (index, step) in steps.enumerated() where step.to < boxCount {
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

        var layer = [Int](repeating: 0, count: nodeCount)
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

        var predecessors = [[Int]](repeating: [], count: nodeCount)
        for (index, step) in steps.enumerated() where !isBack[index] {
            predecessors[step.to].append(step.from)
        }

        // Pages first, so terminals only take the room pages leave.
        let pageOrder = (0..<pageCount).sorted { (layer[$0], $0) < (layer[$1], $1) }
        var slots = LayerSlots()
        var final = [Int](repeating: 0, count: nodeCount)
        let pageCost = Metrics.pageWidth + Metrics.nodeGap
        for page in pageOrder {
            var lowestAllowed = layer[page]
            for predecessor in predecessors[page] { lowestAllowed = max(lowestAllowed, final[predecessor] + 1) }
            final[page] = slots.take(
                pageCost, limit: Metrics.layerWidth, smallest: pageCost, kind: .page, from: lowestAllowed)
        }
        let terminalOrder = (pageCount..<nodeCount).sorted {
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
        let steps = edges
        slotWidth = nodeWidth
        chains = steps.map { [$0.from, $0.to] }
        func span(_ index: Int) -> Int { layerOf[steps[index].to] - layerOf[steps[index].from] }
        let long = steps.indices.filter { !isBack[$0] && span($0) > 1 }.sorted { (span($0), $0) < (span($1), $1) }
        var budget = 4 * (nodeCount + steps.count) + 64
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
        for node in 0..<nodeCount { seed[node] = (seeds[node], node) }
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
        // Room the rounds share: the keys of a layer being sorted, and the crossings' sequences.
        var keyed: [OrderKey] = []
        var scratch = CrossingScratch()
        var best = layers
        var bestCrossings = crossings(position, scratch: &scratch)
        for round in 0..<8 where bestCrossings > 0 {
            let downward = round % 2 == 0
            // Down: every layer after the first, in order; up: every layer before the last, last first.
            for step in 0..<max(0, layers.count - 1) {
                let layer = downward ? step + 1 : layers.count - 2 - step
                keyed.removeAll(keepingCapacity: true)
                for node in layers[layer] {
                    let neighbours = downward ? ups[node] : downs[node]
                    guard !neighbours.isEmpty else {
                        keyed.append(OrderKey(barycentre: Double(position[node]), position: position[node], node: node))
                        continue
                    }
                    var sum = 0
                    for neighbour in neighbours { sum += position[neighbour] }
                    keyed.append(OrderKey(barycentre: Double(sum) / Double(neighbours.count), position: position[node], node: node))
                }
                // Positions differ within a layer, so no two keys tie and the order is the one a stable sort gives.
                keyed.sort { ($0.barycentre, $0.position) < ($1.barycentre, $1.position) }
                for (offset, key) in keyed.enumerated() {
                    layers[layer][offset] = key.node
                    position[key.node] = offset
                }
            }
            let now = crossings(position, scratch: &scratch)
            if now < bestCrossings {
                bestCrossings = now
                best = layers
            }
        }
        layers = best
    }

    /// A node of a layer being ordered, by the mean position of its neighbours, then its own. A
    /// struct, not a tuple: an array of tuples looks its storage's metadata up at run time on every
    /// allocation.
    private struct OrderKey {
        var barycentre: Double
        var position: Int
        var node: Int
    }

    /// The arrays `crossings` fills, kept with their room from one count to the next.
    private struct CrossingScratch {
        var sequence: [Int] = []
        var buffer: [Int] = []
    }

    /// Crossings between consecutive layers, counted as inversions. `position` is each node's
    /// place in its layer, as `orderLayers` keeps it, so a layer is already in position order.
    private func crossings(_ position: [Int], scratch: inout CrossingScratch) -> Int {
        var total = 0
        for layer in layers.dropLast() {
            scratch.sequence.removeAll(keepingCapacity: true)
            for node in layer {
                // Each node's positions below, sorted: a few by inserting each as it is appended
                // (a slice's `sort()` cost some 2,000 instructions a node), more by `sort()`, so
                // a node with thousands of steps costs no quadratic time.
                let start = scratch.sequence.count
                guard downs[node].count <= 16 else {
                    for below in downs[node] { scratch.sequence.append(position[below]) }
                    scratch.sequence[start...].sort()
                    continue
                }
                for below in downs[node] { Self.insert(position[below], into: &scratch.sequence, sortedFrom: start) }
            }
            total += Self.inversions(&scratch.sequence, buffer: &scratch.buffer)
        }
        return total
    }

    /// Appends `value` to `sequence`, whose elements from `start` are in ascending order, and moves
    /// it down to its place among them, so they stay in order.
    static func insert(_ value: Int, into sequence: inout [Int], sortedFrom start: Int) {
        var slot = sequence.count
        sequence.append(value)
        while slot > start && sequence[slot - 1] > value {
            sequence[slot] = sequence[slot - 1]
            slot -= 1
        }
        sequence[slot] = value
    }

    /// The pairs of `values` out of order, counted by a merge sort that leaves `values` sorted;
    /// `buffer` is room to merge in (its contents do not matter).
    static func inversions(_ values: inout [Int], buffer: inout [Int]) -> Int {
        guard values.count > 1 else { return 0 }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: values)
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
        let leftReal = left < nodeCount
        let rightReal = right < nodeCount
        let gap = leftReal && rightReal ? Metrics.nodeGap : Metrics.placeholderGap
        return (slotWidth[left] + slotWidth[right]) / 2 + gap
    }

    private mutating func placeHorizontally() {
        x = Array(repeating: 0, count: layerOf.count)
        // Each layer's offsets from its first node, by its order and spacing alone: the same in
        // every round, so found once rather than at each of the about 80 placements of a layer
        // (78,000 in the 1k build, each with three arrays of its own).
        let offsets = layers.map { nodes in
            var offsets = [Double](repeating: 0, count: nodes.count)
            for index in nodes.indices.dropFirst() {
                offsets[index] = offsets[index - 1] + separation(nodes[index - 1], nodes[index])
            }
            return offsets
        }
        for (layer, nodes) in layers.enumerated() {
            let shift = (offsets[layer].last ?? 0) / 2
            for (node, offset) in zip(nodes, offsets[layer]) { x[node] = offset - shift }
        }
        let packed = x
        // Reused by every placement.
        var desired: [Double] = []
        var blocks: [PlacementBlock] = []
        let widest = layers.map(\.count).max() ?? 0
        desired.reserveCapacity(widest)
        blocks.reserveCapacity(widest)
        // A round reads nothing but `x`, so once a pair of rounds (down, then up) gives back the
        // very bits it started from, every later pair does too: the rounds left would change
        // nothing (most funnels settle in two or three pairs of the six).
        var pairStart: [Double] = []
        pairStart.reserveCapacity(x.count)
        for round in 0..<Self.placementRounds {
            let downward = round % 2 == 0
            if downward && settlesPlacement {
                if round > 0 && Self.sameBits(x, pairStart) { break }
                pairStart.removeAll(keepingCapacity: true)
                pairStart.append(contentsOf: x)
            }
            // Down: every layer after the first, in order; up: every layer before the last, last first.
            for step in 0..<max(0, layers.count - 1) {
                let layer = downward ? step + 1 : layers.count - 2 - step
                desired.removeAll(keepingCapacity: true)
                for node in layers[layer] {
                    let neighbours = downward ? ups[node] : downs[node]
                    guard !neighbours.isEmpty else {
                        desired.append(x[node])
                        continue
                    }
                    var sum = 0.0
                    for neighbour in neighbours { sum += x[neighbour] }
                    desired.append(sum / Double(neighbours.count))
                }
                place(layer, desired: desired, offsets: offsets[layer], blocks: &blocks)
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

    /// The rounds of `placeHorizontally`, in pairs: down, then up.
    static let placementRounds = 12

    /// True when `left` and `right` hold the same bits, element by element (`==` would take `0`
    /// for `-0` and no NaN for itself).
    static func sameBits(_ left: [Double], _ right: [Double]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0.bitPattern == $1.bitPattern }
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

    /// A run of a layer's nodes that `place` moves as one, by the sum of their desired offsets.
    /// A struct, not a tuple: an array of tuples looked its storage's metadata up at run time on
    /// every allocation.
    private struct PlacementBlock {
        var sum: Double
        var count: Int
    }

    /// Puts the nodes of `layer` as close to `desired` as their order and spacing (`offsets` from
    /// the first node) allow (least squares, by pool-adjacent-violators); `blocks` is room to work in.
    private mutating func place(_ layer: Int, desired: [Double], offsets: [Double], blocks: inout [PlacementBlock]) {
        let nodes = layers[layer]
        blocks.removeAll(keepingCapacity: true)
        for index in nodes.indices {
            blocks.append(PlacementBlock(sum: desired[index] - offsets[index], count: 1))
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

    /// A label waiting for its row in the band below its layer.
    struct PendingLabel {
        var step: Int
        var lines: [String]
        var center: Double
        var width: Double
        var height: Double
        var row = 0
        /// From the top of the band's first row.
        var offset = 0.0
    }

    /// Vertical positions. Gap `g` lies above layer `g` (the last one below the last layer) and holds
    /// the badges and labels below the layer before it, and a bend.
    private struct Rows {
        var layerTop: [Double] = []
        var layerHeight: [Double] = []
        var bendTop: [Double] = []
        var bendBottom: [Double] = []
        var total = 0.0

        func layerBottom(_ layer: Int) -> Double { layerTop[layer] + layerHeight[layer] }
    }

    private mutating func route() {
        let count = nodeCount
        centerX = Array(x[0..<count])
        let back = planBackSteps()
        let (outPort, inPort) = ports(back: back)
        var below = pendingLabels(outPort: outPort)
        let bands = below.indices.map { layer in
            below[layer].isEmpty ? 0 : Metrics.badgeBand + Self.packRows(&below[layer])
        }
        let rows = verticalRows(bands: bands, back: back)
        top = (0..<count).map { rows.layerTop[layerOf[$0]] }
        totalHeight = rows.total

        paths = Array(repeating: Path(start: Point(x: 0, y: 0)), count: edges.count)
        for index in edges.indices where !isBack[index] {
            paths[index] = forwardPath(index, outPort: outPort[index], inPort: inPort[index], rows: rows)
        }

        let extent = nodeExtent()
        var left = extent.left
        var right = extent.right
        for label in below.joined() {
            left = min(left, label.center - label.width / 2)
            right = max(right, label.center + label.width / 2)
        }
        minX = left
        maxX = right
        for index in edges.indices {
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
                let from = edges[pending.step].from
                labels.append(
                    Label(
                        step: LayoutStepID(pending.step), lines: pending.lines, x: pending.center - pending.width / 2,
                        y: rows.layerBottom(layer) + Metrics.badgeBand + pending.offset, width: pending.width,
                        height: pending.height,
                        port: Point(x: outPort[pending.step], y: top[from] + nodeHeight[from] + Metrics.badgeRadius + 2)))
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
        let steps = edges
        var back = [BackRoute?](repeating: nil, count: steps.count)
        let extent = nodeExtent()
        let middle = (extent.left + extent.right) / 2
        var lanes: [[[(low: Int, high: Int)]]] = [[], []]
        let backSteps = steps.indices.filter { isBack[$0] }
        // Read by the sort keys, which would otherwise copy the whole layout (see `ports(back:)`).
        let layerOf = layerOf
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
        let steps = edges
        let count = nodeCount
        // The sort keys read these, not `self`: a closure that captures `self` copies the whole
        // layout (twenty arrays) for every sort, about 115,000 times in the 1k build.
        let x = x, chains = chains
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
            // Sorted in place, and only when there are two or more: the keys are distinct (each
            // ends with the step's index), so any sort gives the one order, and most nodes have
            // one step each way (a `sorted` copy cost some 1,800 instructions).
            if outgoing[node].count > 1 { outgoing[node].sort { departure($0) < departure($1) } }
            let leaving = outgoing[node]
            for (rank, index) in leaving.enumerated() {
                outPort[index] = left + nodeWidth[node] * Double(rank + 1) / Double(leaving.count + 1)
            }
            if incoming[node].count > 1 { incoming[node].sort { arrival($0) < arrival($1) } }
            let arriving = incoming[node]
            for (rank, index) in arriving.enumerated() {
                inPort[index] = left + nodeWidth[node] * Double(rank + 1) / Double(arriving.count + 1)
            }
        }
        return (outPort, inPort)
    }

    /// The labels in the band below the node their step leaves, each centred on where the step
    /// leaves it.
    private func pendingLabels(outPort: [Double]) -> [[PendingLabel]] {
        var below = [[PendingLabel]](repeating: [], count: layers.count)
        for (index, step) in edges.enumerated() {
            guard let raw = step.label else { continue }
            let lines = DrawingText.wrapped(
                raw, maxWidth: Metrics.labelMaxTextWidth, fontSize: Metrics.fontSize, maxLines: Metrics.labelMaxLines)
            let textWidth = lines.map { DrawingText.width(of: $0, fontSize: Metrics.fontSize) }.max() ?? 0
            below[layerOf[step.from]].append(
                PendingLabel(
                    step: index, lines: lines, center: outPort[index], width: textWidth + 2 * Metrics.labelPadding,
                    height: Double(lines.count) * Metrics.labelLine + 2 * Metrics.labelVerticalPadding))
        }
        return below
    }

    /// Gives each label the first row where it overlaps no other, and each row the height of its
    /// tallest label; returns the height of the rows.
    ///
    /// The labels go by where they start, so a row free for one label (it ends far enough before
    /// it) stays free for every later one until it is given out again: the rows that end are moved
    /// to the free ones as the labels pass them, and each label takes the first free row. Looking
    /// through every row for each label cost the labels times the rows (one row each for many
    /// rules between the same two pages: 200,000 rules took 6.1 s of CPU).
    static func packRows(_ band: inout [PendingLabel]) -> Double {
        band.sort { ($0.center - $0.width / 2, $0.step) < ($1.center - $1.width / 2, $1.step) }
        var rowEnds: [Double] = []
        var rowHeights: [Double] = []
        var busy = MinimumHeap<Int> { rowEnds[$0] < rowEnds[$1] }
        var free = MinimumHeap<Int> { $0 < $1 }
        for index in band.indices {
            let start = band[index].center - band[index].width / 2
            while let row = busy.first, rowEnds[row] + Metrics.labelSpacing <= start {
                free.push(busy.removeFirst())
            }
            let row = free.isEmpty ? rowEnds.count : free.removeFirst()
            if row == rowEnds.count {
                rowEnds.append(0)
                rowHeights.append(0)
            }
            rowEnds[row] = start + band[index].width
            rowHeights[row] = max(rowHeights[row], band[index].height)
            band[index].row = row
            busy.push(row)
        }
        var offsets: [Double] = []
        var total = 0.0
        for height in rowHeights {
            offsets.append(total)
            total += height + 3
        }
        for index in band.indices { band[index].offset = offsets[band[index].row] }
        return total
    }

    private func verticalRows(bands: [Double], back: [BackRoute?]) -> Rows {
        let count = nodeCount
        let layerCount = layers.count
        var legs = [Int](repeating: 0, count: layerCount + 1)
        for (index, route) in back.enumerated() where route != nil {
            let step = edges[index]
            legs[layerOf[step.from] + 1] += 1
            if step.from != step.to { legs[layerOf[step.to]] += 1 }
        }
        var rows = Rows()
        // The tallest node of each layer (placeholders have no height), with no arrays per layer.
        rows.layerHeight = layers.map { layer in
            var tallest: Double?
            for node in layer where node < count { tallest = max(tallest ?? nodeHeight[node], nodeHeight[node]) }
            return tallest ?? 0
        }
        rows.layerTop.reserveCapacity(layerCount)
        rows.bendTop.reserveCapacity(layerCount + 1)
        rows.bendBottom.reserveCapacity(layerCount + 1)
        var y = 0.0
        for gap in 0...layerCount {
            if gap > 0 { y += 8 + bands[gap - 1] }
            rows.bendTop.append(y)
            if gap > 0 && gap < layerCount {
                y += max(Metrics.bend, 16 + Metrics.legPitch * Double(legs[gap]))
            } else if legs[gap] > 0 {
                y += 10 + Metrics.legPitch * Double(legs[gap])
            }
            rows.bendBottom.append(y)
            if gap < layerCount {
                y += 6
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
        let count = nodeCount
        let chain = chains[index]
        var current = Point(x: outPort, y: top[chain[0]] + nodeHeight[chain[0]])
        var path = Path(start: current)
        // Three segments a link, and one more through each placeholder.
        path.segments.reserveCapacity(4 * (chain.count - 1))
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
        let step = edges[index]
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

/// A binary heap: `first` is an element that no other precedes (`precedes`), taken out in
/// O(log n). `precedes` may read state that changes, but not for elements in the heap.
struct MinimumHeap<Element> {
    private var items: [Element] = []
    private let precedes: (Element, Element) -> Bool

    init(by precedes: @escaping (Element, Element) -> Bool) {
        self.precedes = precedes
    }

    var isEmpty: Bool { items.isEmpty }
    var first: Element? { items.first }

    mutating func push(_ element: Element) {
        items.append(element)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes out `first`; the heap must not be empty.
    mutating func removeFirst() -> Element {
        let top = items[0]
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { break }
            var least = left
            if left + 1 < items.count, precedes(items[left + 1], items[left]) { least = left + 1 }
            guard precedes(items[least], items[parent]) else { break }
            items.swapAt(parent, least)
            parent = least
        }
        return top
    }
}
