@testable import FallbackMustache

extension MustacheTemplate {
    /// `renderUTF8` by the reference renderer, which walks the token tree: what the tests compare
    /// the flat renderer with.
    func renderTreeUTF8(
        _ context: MustacheValue,
        partials: some MustachePartialProvider = [String: MustacheTemplate](),
        escaping: MustacheEscaping = .html,
        budget: MustacheBudget = .standard
    ) throws(MustacheError) -> [UInt8] {
        var renderer = TreeRenderer(partials: partials, escaping: escaping, context: context, budget: budget)
        renderer.reserveCapacity(min(program.source.utf8.count * 4, budget.outputBytes))
        try renderer.render(self)
        return renderer.output
    }
}

/// Renders a token tree into `output`, as UTF-8, keeping the context stack: the reference that
/// `Renderer`, which renders a template's flat `Program`, is tested against (`renderTreeUTF8`).
/// It is the renderer the templates had before `Program`, kept here, in the tests, as the oracle.
///
/// Rendering loops over an explicit stack of frames instead of recursing, so neither nested
/// sections nor nested partials use the call stack: a render needs the same stack however deep
/// its templates and data nest.
struct TreeRenderer<Partials: MustachePartialProvider> {
    private let partials: Partials
    private let escaping: MustacheEscaping
    private var contexts: [MustacheValue]
    private(set) var output: [UInt8] = []
    /// The `{{>name}}` tags expanded so far.
    private var expansions = 0
    /// The nodes visited so far, section passes included.
    private var steps = 0

    /// Nodes being rendered: a template's, a section's body or a partial's.
    private struct Frame {
        let nodes: [Node]
        /// The template `nodes` belong to, for errors.
        let template: MustacheTemplate
        /// What each template line starts with: the accumulated indentation of the standalone
        /// partial tags being rendered.
        let indentation: String
        let partialDepth: Int
        /// The section whose body `nodes` are, and where its tag starts, for errors; nil for a
        /// template's or a partial's own nodes.
        var section: (name: Name, offset: Int)? = nil
        /// The values `nodes` are rendered in, one pass each, as the innermost context; empty for
        /// one pass in the enclosing context.
        let items: [MustacheValue]
        var item = 0
        /// The next node to render.
        var next = 0
    }

    private let budget: MustacheBudget

    init(partials: Partials, escaping: MustacheEscaping, context: MustacheValue, budget: MustacheBudget) {
        self.partials = partials
        self.escaping = escaping
        self.budget = budget
        contexts = [context]
    }

    mutating func reserveCapacity(_ bytes: Int) {
        output.reserveCapacity(bytes)
    }

    mutating func render(_ template: MustacheTemplate) throws(MustacheError) {
        // The frame being rendered, and the frames it is nested in.
        var frame = Frame(nodes: template.nodes, template: template, indentation: "", partialDepth: 0, items: [])
        var enclosing: [Frame] = []
        while true {
            guard frame.next < frame.nodes.count else {
                // One pass is done: start the next item's, or go back to the enclosing frame.
                if !frame.items.isEmpty {
                    try count(in: frame)
                    contexts.removeLast()
                    frame.item += 1
                    if frame.item < frame.items.count {
                        contexts.append(frame.items[frame.item])
                        frame.next = 0
                        continue
                    }
                }
                guard let outer = enclosing.popLast() else { return }
                frame = outer
                continue
            }
            let node = frame.nodes[frame.next]
            frame.next += 1
            try count(in: frame)
            switch node {
            case .text(let text):
                output.append(contentsOf: text.utf8)
            case .lineStart:
                output.append(contentsOf: frame.indentation.utf8)
            case .variable(let name, let escaped):
                let value = resolve(name)
                let text = value.text
                if case .list = value { steps += MustacheBudget.extraSteps(joining: text.utf8.count) }
                guard !text.isEmpty else { continue }
                output.append(contentsOf: (escaped ? escaping.escape(text) : text).utf8)
            case .section(let name, let body, let inverted, let offset):
                let value = resolve(name)
                if inverted ? value.isTruthy : !value.isTruthy { continue }
                let items: [MustacheValue] =
                    if inverted {
                        []
                    } else if case .list(let list) = value {
                        list
                    } else {
                        [value]
                    }
                if let first = items.first { contexts.append(first) }
                let inner = Frame(
                    nodes: body, template: frame.template, indentation: frame.indentation, partialDepth: frame.partialDepth,
                    section: (name, offset), items: items)
                enclosing.append(frame)
                frame = inner
            case .partial(let name, let ownIndentation, let offset):
                guard frame.partialDepth < MustacheTemplate.maximumPartialDepth,
                      let partial = partials.template(named: name)
                else { continue }
                expansions += 1
                guard expansions <= MustacheTemplate.maximumPartialExpansions else {
                    throw frame.template.error(
                        .tooManyPartialExpansions(name: name, limit: MustacheTemplate.maximumPartialExpansions), at: offset)
                }
                let inner = Frame(
                    nodes: partial.nodes, template: partial, indentation: ownIndentation.map { frame.indentation + $0 } ?? "",
                    partialDepth: frame.partialDepth + 1, items: [])
                steps += MustacheBudget.extraSteps(indenting: inner.indentation.utf8.count)
                enclosing.append(frame)
                frame = inner
            }
        }
    }

    /// Counts one step of `frame` against the render's budgets.
    private mutating func count(in frame: Frame) throws(MustacheError) {
        steps += 1
        let limit: String
        if steps > budget.steps {
            limit = "\(budget.steps) steps"
        } else if output.count > budget.outputBytes {
            limit = "\(budget.outputBytes) bytes of output"
        } else {
            return
        }
        // The section's name is spelled out only here, not for every pass of every section.
        let section = frame.section.map { $0.name.parts.isEmpty ? "." : $0.name.parts.joined(separator: ".") }
        throw frame.template.error(.renderTooLarge(section: section, limit: limit), at: frame.section?.offset ?? 0)
    }

    /// The value of `name`, its lookup paid for as the flat renderer pays: a step more for each
    /// `MustacheBudget.contextsPerStep` contexts past the first it looks in, checked with the next step.
    private mutating func resolve(_ name: Name) -> MustacheValue {
        let (value, looked) = name.resolve(in: contexts)
        steps += MustacheBudget.extraSteps(lookingIn: looked)
        return value
    }
}
