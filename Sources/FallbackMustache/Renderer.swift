/// Renders a template's `Program` into `output`, as UTF-8, keeping the context stack.
///
/// Rendering loops over an explicit stack of frames instead of recursing, so neither nested
/// sections nor nested partials use the call stack: a render needs the same stack however deep
/// its templates and data nest. It does what the tests' reference `TreeRenderer` does to the token tree, node for op:
/// the same output, the same steps counted against the budget, the same errors.
struct Renderer<Partials: MustachePartialProvider> {
    private let partials: Partials
    private let escaping: MustacheEscaping
    private var contexts: [MustacheValue]
    private(set) var output: [UInt8] = []
    /// The `{{>name}}` tags expanded so far.
    private var expansions = 0
    /// The ops done so far, section passes included.
    private var steps = 0

    /// Ops being rendered: a template's, a section's body or a partial's.
    private struct Frame {
        /// The program the ops belong to, for the ops, their text and errors.
        let program: Program
        /// The next op to render, and the end of the ops.
        var next: Int
        let end: Int
        /// What each template line starts with: the accumulated indentation of the standalone
        /// partial tags being rendered.
        let indentation: String
        let partialDepth: Int
        /// The op of the section whose body the ops are, for errors; nil for a template's or a
        /// partial's own ops.
        let section: Int?
        /// How many passes push a context: the list's length, 1 for a single value, 0 for one
        /// pass in the enclosing context.
        let passes: Int
        /// The values of a list's passes (empty for a single value, whose context is pushed once).
        let items: [MustacheValue]
        var item = 0
        let start: Int
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

    mutating func render(_ program: Program) throws(MustacheError) {
        // The frame being rendered, and the frames it is nested in.
        var frame = Frame(
            program: program, next: 0, end: program.ops.count, indentation: "", partialDepth: 0, section: nil, passes: 0, items: [],
            start: 0)
        var enclosing: [Frame] = []
        while true {
            guard frame.next < frame.end else {
                // One pass is done: start the next item's, or go back to the enclosing frame.
                if frame.passes > 0 {
                    try count(in: frame)
                    contexts.removeLast()
                    frame.item += 1
                    if frame.item < frame.passes {
                        contexts.append(frame.items[frame.item])
                        frame.next = frame.start
                        continue
                    }
                }
                guard let outer = enclosing.popLast() else { return }
                frame = outer
                continue
            }
            let index = frame.next
            let op = frame.program.ops[index]
            frame.next += 1
            try count(in: frame)
            switch op.kind {
            case .text:
                output.append(contentsOf: UnsafeBufferPointer(rebasing: frame.program.text[op.first..<op.second]))
            case .lineStart:
                output.append(contentsOf: frame.indentation.utf8)
            case .escapedVariable, .variable:
                let text = resolve(frame.program.names[op.first]).text
                guard !text.isEmpty else { continue }
                if op.kind == .escapedVariable {
                    escaping.append(text, to: &output)
                } else {
                    output.append(contentsOf: text.utf8)
                }
            case .section, .invertedSection:
                let value = resolve(frame.program.names[op.first])
                let inverted = op.kind == .invertedSection
                if inverted ? value.isTruthy : !value.isTruthy {
                    frame.next = op.second
                    continue
                }
                var passes = 0
                var items: [MustacheValue] = []
                if !inverted {
                    if case .list(let list) = value {
                        items = list
                        passes = list.count
                        contexts.append(list[0])
                    } else {
                        passes = 1
                        contexts.append(value)
                    }
                }
                let inner = Frame(
                    program: frame.program, next: index + 1, end: op.second, indentation: frame.indentation,
                    partialDepth: frame.partialDepth, section: index, passes: passes, items: items, start: index + 1)
                frame.next = op.second
                enclosing.append(frame)
                frame = inner
            case .partial:
                let tag = frame.program.partialTags[op.first]
                guard frame.partialDepth < MustacheTemplate.maximumPartialDepth,
                      let partial = partials.template(named: tag.name)
                else { continue }
                expansions += 1
                guard expansions <= MustacheTemplate.maximumPartialExpansions else {
                    throw frame.program.error(
                        .tooManyPartialExpansions(name: tag.name, limit: MustacheTemplate.maximumPartialExpansions), at: op.offset)
                }
                let inner = Frame(
                    program: partial.program, next: 0, end: partial.program.ops.count,
                    indentation: tag.indentation.map { frame.indentation + $0 } ?? "", partialDepth: frame.partialDepth + 1,
                    section: nil, passes: 0, items: [], start: 0)
                enclosing.append(frame)
                frame = inner
            }
        }
    }

    /// Counts one step of `frame` against the render's budgets.
    private mutating func count(in frame: Frame) throws(MustacheError) {
        steps += 1
        guard steps > budget.steps || output.count > budget.outputBytes else { return }
        let limit = steps > budget.steps ? "\(budget.steps) steps" : "\(budget.outputBytes) bytes of output"
        // The section's name is spelled out only here, not for every pass of every section.
        let op = frame.section.map { frame.program.ops[$0] }
        let section = op.map { op in
            let parts = frame.program.names[op.first].parts
            return parts.isEmpty ? "." : parts.joined(separator: ".")
        }
        throw frame.program.error(.renderTooLarge(section: section, limit: limit), at: op?.offset ?? 0)
    }

    private func resolve(_ name: Name) -> MustacheValue {
        name.resolve(in: contexts)
    }
}
