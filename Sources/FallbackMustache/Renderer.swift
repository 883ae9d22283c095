/// Ops being rendered: a template's, a section's body or a partial's.
///
/// Not nested in the generic `Renderer`: a type nested in a generic type is generic itself, and the
/// stack of frames then looked up its array's metadata and ran unspecialised array code at every
/// section pass and partial (issue 10: about 0.3 G instructions of a site build).
private struct RenderFrame {
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

/// Renders a template's `Program` into `output`, as UTF-8, keeping the context stack.
///
/// Rendering loops over an explicit stack of frames instead of recursing, so neither nested
/// sections nor nested partials use the call stack: a render needs the same stack however deep
/// its templates and data nest. It does what the tests' reference `TreeRenderer` does to the token tree, node for op:
/// the same output, the same steps counted against the budget, the same errors.
struct Renderer<Partials: MustachePartialProvider>: ~Copyable {
    private let partials: Partials
    private let escaping: MustacheEscaping
    private var contexts: [MustacheValue]
    /// What has been rendered so far.
    private var output: ByteWriter
    /// The `{{>name}}` tags expanded so far.
    private var expansions = 0
    /// The ops done so far, section passes included.
    private var steps = 0

    private let budget: MustacheBudget

    /// - Parameter capacity: The bytes to make room for at first; the output grows past it as needed.
    init(partials: Partials, escaping: MustacheEscaping, context: MustacheValue, budget: MustacheBudget, capacity: Int) {
        self.partials = partials
        self.escaping = escaping
        self.budget = budget
        contexts = [context]
        output = ByteWriter(capacity: capacity)
    }

    /// Swaps the output with `writer`: a render writes into the writer it is given, such as one
    /// into an array's storage (`ByteWriter.array`), and hands it back with the bytes.
    mutating func exchangeOutput(with writer: inout ByteWriter) {
        swap(&output, &writer)
    }

    mutating func render(_ program: Program) throws(MustacheError) {
        // The frame being rendered, and the frames it is nested in.
        var frame = RenderFrame(
            program: program, next: 0, end: program.ops.count, indentation: "", partialDepth: 0, section: nil, passes: 0, items: [],
            start: 0)
        var enclosing: [RenderFrame] = []
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
                guard !enclosing.isEmpty else { return }
                frame = enclosing.removeLast()
                continue
            }
            let index = frame.next
            let op = frame.program.ops[index]
            frame.next += 1
            try count(in: frame)
            switch op.kind {
            case .text:
                output.append(bytes: UnsafeBufferPointer(rebasing: frame.program.text[op.first..<op.second]))
            case .lineStart:
                if !frame.indentation.isEmpty { output.append(frame.indentation) }
            case .escapedVariable, .variable:
                let value = resolve(op.first, of: frame.program)
                let text = value.text
                if case .list = value { steps += MustacheBudget.extraSteps(joining: text.utf8.count) }
                guard !text.isEmpty else { continue }
                if op.kind == .escapedVariable {
                    escaping.append(text, to: &output)
                } else {
                    output.append(text)
                }
            case .section, .invertedSection:
                let value = resolve(op.first, of: frame.program)
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
                let inner = RenderFrame(
                    program: frame.program, next: index + 1, end: op.second, indentation: frame.indentation,
                    partialDepth: frame.partialDepth, section: index, passes: passes, items: items, start: index + 1)
                frame.next = op.second
                enclosing.append(consume frame)
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
                let inner = RenderFrame(
                    program: partial.program, next: 0, end: partial.program.ops.count,
                    indentation: tag.indentation.map { frame.indentation + $0 } ?? "", partialDepth: frame.partialDepth + 1,
                    section: nil, passes: 0, items: [], start: 0)
                // Paid for with the next step, as a lookup is.
                steps += MustacheBudget.extraSteps(indenting: inner.indentation.utf8.count)
                enclosing.append(consume frame)
                frame = inner
            }
        }
    }

    /// Counts one step of `frame` against the render's budgets.
    @inline(__always)
    private mutating func count(in frame: borrowing RenderFrame) throws(MustacheError) {
        steps += 1
        if steps > budget.steps || output.count > budget.outputBytes { throw overBudget(in: frame) }
    }

    /// The error for a render past its budget, in `frame`: kept out of line, off the path of every op.
    @inline(never)
    private func overBudget(in frame: borrowing RenderFrame) -> MustacheError {
        let limit = steps > budget.steps ? "\(budget.steps) steps" : "\(budget.outputBytes) bytes of output"
        // The section's name is spelled out only here, not for every pass of every section.
        let op = frame.section.map { frame.program.ops[$0] }
        let section = op.map { op in
            let parts = frame.program.names[op.first].parts
            return parts.isEmpty ? "." : parts.joined(separator: ".")
        }
        return frame.program.error(.renderTooLarge(section: section, limit: limit), at: op?.offset ?? 0)
    }

    /// The value of `program`'s name `index`, its lookup paid for past `MustacheBudget.contextsPerStep`
    /// contexts: counted here, checked with the next step (`count(in:)`).
    @inline(__always)
    private mutating func resolve(_ index: Int, of program: Program) -> MustacheValue {
        let (value, looked) = program.resolve(name: index, in: contexts)
        if looked > MustacheBudget.contextsPerStep { steps += MustacheBudget.extraSteps(lookingIn: looked) }
        return value
    }
}
