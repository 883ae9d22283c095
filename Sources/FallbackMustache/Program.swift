/// A parsed template flattened for rendering: one array of plain ops, with every text node's
/// bytes in one buffer and each section's body a range of the ops that follow its tag.
///
/// The token tree (`Node`) holds a `String` per text node and an array per section body, and
/// walking it retains and releases them at every node; the ops are plain values (kinds and
/// indices), so `Renderer` reads them with no reference counting. Made once per template, when it
/// is parsed, and never changed after: shared by every render, on any thread.
final class Program: @unchecked Sendable {
    enum Kind: UInt8 {
        /// `first..<second` of `text`.
        case text
        /// The start of a template line, where a standalone partial's indentation goes.
        case lineStart
        /// `names[first]`, escaped.
        case escapedVariable
        /// `names[first]`, not escaped.
        case variable
        /// `names[first]`; its body is the ops up to `second`.
        case section
        /// `names[first]`; its body is the ops up to `second`.
        case invertedSection
        /// `partialTags[first]`.
        case partial
    }

    struct Op {
        let kind: Kind
        let first: Int
        let second: Int
        /// Where the tag starts in the source, in bytes (sections and partials).
        let offset: Int
    }

    /// The name given when parsing, and the source, for the line and column of a render error.
    let templateName: String
    let source: String
    /// The ops, in order; allocated once and freed with the program.
    let ops: UnsafeMutableBufferPointer<Op>
    /// Every text node's UTF-8 bytes, one after another.
    let text: UnsafeMutableBufferPointer<UInt8>
    let names: [Name]
    /// `names`, which keep them alive, as references a render reads with no retain or release
    /// (`resolve(name:in:)`).
    private let unretainedNames: UnsafeMutableBufferPointer<Unmanaged<Name>>
    let partialTags: [(name: String, indentation: String?)]

    init(nodes: [Node], templateName: String, source: String) {
        self.templateName = templateName
        self.source = source
        var ops: [Op] = []
        var text: [UInt8] = []
        var names: [Name] = []
        var partialTags: [(name: String, indentation: String?)] = []
        // Flattened without recursion: the nodes still to emit at each open section, and where its op is.
        var pending: [(nodes: [Node], next: Int, sectionOp: Int?)] = [(nodes, 0, nil)]
        while var top = pending.popLast() {
            guard top.next < top.nodes.count else {
                if let sectionOp = top.sectionOp {
                    let op = ops[sectionOp]
                    ops[sectionOp] = Op(kind: op.kind, first: op.first, second: ops.count, offset: op.offset)
                }
                continue
            }
            let node = top.nodes[top.next]
            top.next += 1
            switch node {
            case .text(let string):
                let start = text.count
                text.append(contentsOf: string.utf8)
                ops.append(Op(kind: .text, first: start, second: text.count, offset: 0))
                pending.append(top)
            case .lineStart:
                ops.append(Op(kind: .lineStart, first: 0, second: 0, offset: 0))
                pending.append(top)
            case .variable(let name, let escaped):
                names.append(name)
                ops.append(Op(kind: escaped ? .escapedVariable : .variable, first: names.count - 1, second: 0, offset: 0))
                pending.append(top)
            case .section(let name, let body, let inverted, let offset):
                names.append(name)
                // The body's end is filled in when the body has been emitted.
                ops.append(Op(kind: inverted ? .invertedSection : .section, first: names.count - 1, second: 0, offset: offset))
                pending.append(top)
                pending.append((body, 0, ops.count - 1))
            case .partial(let name, let indentation, let offset):
                partialTags.append((name, indentation))
                ops.append(Op(kind: .partial, first: partialTags.count - 1, second: 0, offset: offset))
                pending.append(top)
            }
        }
        self.ops = .allocate(capacity: ops.count)
        _ = self.ops.initialize(from: ops)
        self.text = .allocate(capacity: text.count)
        _ = self.text.initialize(from: text)
        self.names = names
        unretainedNames = .allocate(capacity: names.count)
        _ = unretainedNames.initialize(from: names.map { Unmanaged.passUnretained($0) })
        self.partialTags = partialTags
    }

    deinit {
        ops.deallocate()
        text.deallocate()
        unretainedNames.deallocate()
    }

    /// `names[index].resolve(in: contexts)`, with the name read in place: from the array, each
    /// tag rendered retained and released it.
    @inline(__always)
    func resolve(name index: Int, in contexts: [MustacheValue]) -> (value: MustacheValue, looked: Int) {
        unretainedNames[index]._withUnsafeGuaranteedRef { $0.resolve(in: contexts) }
    }

    /// The error `reason` at the tag starting at byte `offset` of the source.
    func error(_ reason: MustacheError.Reason, at offset: Int) -> MustacheError {
        MustacheError(reason, templateName: templateName, offset: offset, in: Array(source.utf8))
    }
}
