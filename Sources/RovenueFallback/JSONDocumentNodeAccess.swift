// MARK: - Reading a node without a `Value`

extension JSONDocument {
    // A `Value` holds the document, so making one retains the document's storage and dropping it
    // releases it: on a shared document, an atomic write that the cores auditing it in parallel
    // contend for. These read a node's fields straight from the document instead, for the loops
    // that visit every node of a subtree (the audit's media scan).

    /// What kind of value the node at `index` is.
    package func kind(ofNode index: Int) -> Kind { nodes[index].kind }

    /// The byte range of the node at `index`'s token or container in `bytes`.
    package func byteRange(ofNode index: Int) -> Range<Int> {
        let node = nodes[index]
        return Int(node.start)..<Int(node.end)
    }

    /// True when the string (or key) node at `index` has an escape (a backslash) in its token, so
    /// its text differs from its bytes; false for any other kind.
    package func stringHasEscapes(ofNode index: Int) -> Bool { nodes[index].flags & JSONDocument.hasEscapes != 0 }

    /// The elements of the array or members of the object at `index`; 0 for a scalar.
    package func count(ofNode index: Int) -> Int { Int(nodes[index].count) }

    /// The node after the subtree of the node at `index` (its next sibling's, or a later one's).
    package func subtreeEnd(ofNode index: Int) -> Int { Int(nodes[index].next) }

    /// How many nodes the document has: values and keys.
    package var nodeCount: Int { nodes.count }

    /// The decoded string of the node at `index` (a string or a key); nil for any other kind.
    package func string(ofNode index: Int) -> String? {
        nodes[index].kind == .string ? decodeString(at: index) : nil
    }

    /// The line and column where the node at `index` starts.
    package func position(ofNode index: Int) -> Position { position(ofOffset: Int(nodes[index].start)) }
}
