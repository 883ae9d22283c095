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

    /// The sum of a word of every cache line of the value at `index`: its nodes and its text. Read
    /// to bring the value into the cache before a pass that reads it a node at a time, each
    /// address known only once the node before it is read, so that every line it misses stalls it
    /// in turn (`EntryDecoder.bringIntoCache`, and the audit of an entry decoded long before).
    /// These reads do not depend on one another, so the lines they miss arrive together. Keep the
    /// sum where the compiler cannot prove it unread, or it drops the reads. Linear in the value's
    /// size, as a pass over it is.
    package func wordsOfCacheLines(inSubtree index: Int) -> UInt32 {
        let nodes = storage.nodes
        let node = nodes[index]
        let lineBytes = 64
        var sum: UInt32 = 0
        let nodeBytes = UnsafeRawPointer(nodes.buffer.base)
        let nodeStride = MemoryLayout<JSONDocument.PackedNode>.stride
        let nodesEnd = min(Int(node.next), nodes.buffer.count) * nodeStride
        var offset = index * nodeStride
        while offset < nodesEnd {
            sum &+= nodeBytes.load(fromByteOffset: offset, as: UInt32.self)
            offset += lineBytes
        }
        storage.bytes.withUnsafeBufferPointer { text in
            var offset = Int(node.start)
            let textEnd = min(Int(node.end), text.count)
            while offset < textEnd {
                sum &+= UInt32(text[offset])
                offset += lineBytes
            }
        }
        return sum
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

// MARK: - Walking a container's children

extension JSONDocument {
    /// One child of a container node: a member of an object (its key node and the value node after
    /// it) or an element of an array.
    package struct Child: Sendable, Equatable {
        /// The key node of a member; nil for an array's element.
        package let key: Int?
        /// The value node.
        package let value: Int
        /// The member's or element's place among its container's children, from 0.
        package let position: Int
    }

    /// The children of one container node, read in text order by index, the one way every reader
    /// of the nodes steps through them: a member is its key node and the node after it, each child
    /// starts where the previous one's subtree ends (its `subtreeEnd`), and an object's members
    /// stop at a key the text broke off after, which has no value node. A scalar has no children.
    ///
    /// It holds indexes, not the document (a `Value` per child would retain the document's storage):
    /// `next(in:)` reads the document it is given, which must be the one `children(ofNode:)` was
    /// asked of. `EntryDecoder.readMembers`, the loop over nearly every member of a file that
    /// loads, is the same walk unrolled on the packed nodes.
    ///
    ///     var children = document.children(ofNode: index)
    ///     while let child = children.next(in: document) { … }
    package struct Children: Sendable {
        /// The first node of the next child (its key, in an object).
        private var node: Int
        /// How many children have been read.
        private var position: Int
        private let count: Int
        private let isObject: Bool
        /// The document's node count: a child's nodes are below it.
        private let nodeCount: Int

        @inline(__always)
        init(of index: Int, in nodes: Nodes) {
            let container = nodes[index]
            node = index + 1
            position = 0
            count = Int(container.count)
            isObject = container.kind == .object
            nodeCount = nodes.count
        }

        /// True when `next` has another child to return.
        @inline(__always)
        package var hasNext: Bool {
            position < count && node + (isObject ? 1 : 0) < nodeCount
        }

        /// The next child, or nil after the last.
        @inline(__always)
        mutating func next(in nodes: Nodes) -> Child? {
            guard hasNext else { return nil }
            let child: Child
            if isObject {
                child = Child(key: node, value: node + 1, position: position)
                node = Int(nodes[node + 1].next)
            } else {
                child = Child(key: nil, value: node, position: position)
                node = Int(nodes[node].next)
            }
            position += 1
            return child
        }

        /// The next child of the container in `document`, or nil after the last.
        @inline(__always)
        package mutating func next(in document: JSONDocument) -> Child? { next(in: document.nodes) }
    }

    /// The members or elements of the node at `index`, in text order; none for a scalar.
    package func children(ofNode index: Int) -> Children { Children(of: index, in: nodes) }
}

extension JSONDocument.Nodes {
    /// The members or elements of the node at `index`, in text order (`JSONDocument.Children`).
    func children(of index: Int) -> JSONDocument.Children { JSONDocument.Children(of: index, in: self) }
}
