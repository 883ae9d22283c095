import RovenueFallback

/// A funnel's pages and the steps between them as the drawing shows them: `FunnelGraph`'s steps,
/// with terminals for where a page ends the funnel or goes nowhere, labels and tooltips.
///
/// Every step leads where `FunnelGraph` says, so the drawing and the checks cannot disagree on a
/// `goto`.
struct FunnelFlow: LayeredGraph {
    enum Node {
        case page(Int)
        /// Where the funnel ends after page `source`.
        case end(source: Int)
        /// A target of page `source` that leads nowhere, as written, and why (`FunnelGraph`'s
        /// answer: not a page id, `end` or `paywall`, or `paywall` without a paywall page).
        case unknown(source: Int, target: String, reason: FunnelGraph.UnknownTarget)
    }

    enum Kind {
        case rule, defaultNext, sequential
    }

    struct Step {
        var from: Int
        var to: Int
        var kind: Kind
        /// The condition or `else`, as the snapshot has it (not yet made safe); nil for the only
        /// way out of a page without rules.
        var condition: String?
        /// Where the step comes in the order the SDK tries its page's steps, from 1: its rules in
        /// order (the first that matches wins), then `default_next` or the next page in order.
        var priority: Int
        /// The id of the page the step leaves.
        var pageId: String
        /// The id of the rule, for a rule's step.
        var ruleId: String?
        /// Where the step goes, in words: a page's id, `paywall (id)`, `end`, or the target as written.
        var targetName: String
        var jumpsToPaywall: Bool

        /// The whole step in words, for a tooltip (not yet made safe). Made when asked: only the
        /// labelled steps show one.
        var summary: String {
            switch kind {
            case .rule: return "\(priority). Rule \(ruleId ?? "") of \(pageId): if \(condition ?? "") → \(targetName)"
            case .defaultNext, .sequential:
                // Only the steps of a page with rules have a condition (`else`).
                let hasRules = condition != nil
                return "\(hasRules ? "\(priority). " : "")\(pageId): \(hasRules ? "else " : "")"
                    + "\(kind == .defaultNext ? "default_next" : "next page") → \(targetName)"
            }
        }

        /// The text on the step: its priority and condition, as in `2 · age ≥ 40`; nil for the
        /// only way out of a page without rules.
        var label: String? { condition.map { "\(priority) · \($0)" } }
    }

    let pageCount: Int
    private(set) var nodes: [Node]
    private(set) var steps: [Step] = []
    private(set) var ruleCount = 0

    init(graph: FunnelGraph) {
        let pages = graph.funnel.pages
        pageCount = pages.count
        nodes = pages.indices.map(Node.page)

        for (index, page) in pages.enumerated() {
            // One end terminal per page, and one unknown terminal per distinct target of the page.
            var endNode: Int?
            var unknownNodes: [ExactKey: Int] = [:]
            func node(_ target: FunnelGraph.Target, written: String?) -> (node: Int, name: String, paywall: Bool) {
                switch target {
                case .page(let page):
                    return (page, pages[page].id, false)
                case .paywall(let page):
                    return (page, "paywall (\(pages[page].id))", true)
                case .end:
                    if endNode == nil {
                        endNode = nodes.count
                        nodes.append(.end(source: index))
                    }
                    return (endNode!, "end", false)
                case .unknown(let reason):
                    let written = written ?? ""
                    if let known = unknownNodes[ExactKey(written)] {
                        return (known, written, false)
                    }
                    unknownNodes[ExactKey(written)] = nodes.count
                    nodes.append(.unknown(source: index, target: written, reason: reason))
                    return (nodes.count - 1, written, false)
                }
            }

            let rules = page.nextRules ?? []
            ruleCount += rules.count
            let label = rules.isEmpty ? nil : "else"
            for (priority, step) in zip(1..., graph.steps(from: index)) {
                let target = node(step.target, written: graph.writtenTarget(of: step))
                switch step.kind {
                case .rule(let rule):
                    let condition = FunnelGraph.text(of: rules[rule].condition)
                    steps.append(
                        Step(
                            from: index, to: target.node, kind: .rule, condition: condition, priority: priority, pageId: page.id,
                            ruleId: rules[rule].id, targetName: target.name, jumpsToPaywall: target.paywall))
                case .defaultNext, .nextInOrder:
                    let written = step.kind == .defaultNext
                    steps.append(
                        Step(
                            from: index, to: target.node, kind: written ? .defaultNext : .sequential, condition: label,
                            priority: priority, pageId: page.id, targetName: target.name, jumpsToPaywall: target.paywall))
                }
            }
        }
    }

    func isTerminal(_ node: Int) -> Bool { node >= pageCount }

    // MARK: LayeredGraph

    var nodeCount: Int { nodes.count }
    var boxCount: Int { pageCount }
    var stepCount: Int { steps.count }

    func terminal(_ node: LayoutNodeID) -> (text: String, box: LayoutNodeID) {
        switch nodes[node.index] {
        case .page(let index): ("", LayoutNodeID(index))
        case .end(let source): ("end", LayoutNodeID(source))
        case .unknown(let source, let target, _): (target, LayoutNodeID(source))
        }
    }

    func from(_ step: LayoutStepID) -> LayoutNodeID { LayoutNodeID(steps[step.index].from) }
    func to(_ step: LayoutStepID) -> LayoutNodeID { LayoutNodeID(steps[step.index].to) }
    func label(of step: LayoutStepID) -> String? { steps[step.index].label }
}
