/// Renders a token tree into `output`, keeping the context stack.
struct Renderer<Partials: MustachePartialProvider> {
    private let partials: Partials
    private let escaping: MustacheEscaping
    private var contexts: [MustacheValue]
    private(set) var output = ""

    init(partials: Partials, escaping: MustacheEscaping, context: MustacheValue) {
        self.partials = partials
        self.escaping = escaping
        contexts = [context]
    }

    /// - Parameter indentation: What each template line starts with: the accumulated
    ///   indentation of the standalone partial tags being rendered.
    mutating func render(_ nodes: [Node], indentation: String, partialDepth: Int) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .lineStart:
                output += indentation
            case .variable(let name, let escaped):
                let text = resolve(name).text
                guard !text.isEmpty else { continue }
                output += escaped ? escaping.escape(text) : text
            case .section(let name, let body, let inverted):
                let value = resolve(name)
                if inverted {
                    if !value.isTruthy {
                        render(body, indentation: indentation, partialDepth: partialDepth)
                    }
                } else if case .list(let items) = value {
                    for item in items {
                        render(body, in: item, indentation: indentation, partialDepth: partialDepth)
                    }
                } else if value.isTruthy {
                    render(body, in: value, indentation: indentation, partialDepth: partialDepth)
                }
            case .partial(let name, let ownIndentation):
                guard partialDepth < MustacheTemplate.maximumPartialDepth,
                      let template = partials.template(named: name)
                else { continue }
                render(
                    template.nodes,
                    indentation: ownIndentation.map { indentation + $0 } ?? "",
                    partialDepth: partialDepth + 1
                )
            }
        }
    }

    private mutating func render(_ nodes: [Node], in context: MustacheValue, indentation: String, partialDepth: Int) {
        contexts.append(context)
        render(nodes, indentation: indentation, partialDepth: partialDepth)
        contexts.removeLast()
    }

    /// Resolves the first part of a dotted name in the innermost context that has it, and
    /// each further part in the value before it only; a miss anywhere is `null`.
    private func resolve(_ name: Name) -> MustacheValue {
        guard let first = name.parts.first else { return contexts.last ?? .null }
        guard var value = contexts.lazy.reversed().compactMap({ $0[first] }).first else { return .null }
        for part in name.parts.dropFirst() {
            guard let next = value[part] else { return .null }
            value = next
        }
        return value
    }
}
