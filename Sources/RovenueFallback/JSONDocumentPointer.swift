// MARK: - JSON Pointers, spelled from the nodes

extension JSONDocument {
    /// The RFC 6901 JSON Pointer of the node at `index` (`""` for the top level); for an object
    /// key, the pointer of its member. `Value.pointer` reads it.
    ///
    /// Spelled straight into one byte buffer from the top down: each member's key is copied from
    /// the document's bytes (escaping `~` and `/`), each element's position written as digits.
    /// Only a key with escapes or non-ASCII bytes is decoded first, as `decodeString` decodes it.
    package func pointer(ofNode index: Int) -> String {
        var speller = PointerSpeller(document: self)
        return speller.pointer(ofNode: index)
    }

    /// Spells the JSON Pointers of nodes one after another (`JSONDocument.pointer(ofNode:)`),
    /// keeping the last one's path: a node that shares ancestors with the node before it walks up
    /// only to the nearest shared one and keeps the spelled prefix. The audit locates a run's
    /// findings in text order, so most share all but their last step or two with the one before.
    package struct PointerSpeller {
        let document: JSONDocument
        /// The last pointer's steps from the top level down: each step's node (a key stands for its
        /// member), its ordinal and where its token ends in `spelled`. Ancestors come before their
        /// descendants among the nodes, so the nodes ascend.
        private var path: [(node: Int32, ordinal: Int32, end: Int)] = []
        private var spelled: [UInt8] = []
        /// The steps walked up from the node being spelled, nearest first (kept for its capacity).
        private var steps: [(node: Int32, parent: Int32, ordinal: Int32)] = []
        /// The links of the heads spelled so far for the path's long tokens (`JSONPointer.Head`),
        /// each with its step, while that step stays on the path: the pointers of the nodes below
        /// one long key share its link. `examined` steps of the path have been looked at for them.
        private var links: [(step: Int, head: JSONPointer.Head)] = []
        private var examined = 0

        package init(document: JSONDocument) {
            self.document = document
        }

        /// The pointer of the node at `index`, as `JSONDocument.pointer(ofNode:)` spells it.
        package mutating func pointer(ofNode index: Int) -> String {
            spell(index)
            return String(decoding: spelled, as: UTF8.self)
        }

        /// The pointer of the node at `index`, its head's links shared with the pointers spelled
        /// before it while they stay below the same long tokens.
        package mutating func jsonPointer(ofNode index: Int) -> JSONPointer {
            spell(index)
            // Each long step not yet linked gets a link: its bytes from the link before it.
            for step in examined..<path.count {
                let start = (step > 0 ? path[step - 1].end : 0) + 1
                guard path[step].end - start >= JSONPointer.longToken else { continue }
                let from = links.last.map { path[$0.step].end } ?? 0
                let segment = String(decoding: spelled[from..<path[step].end], as: UTF8.self)
                links.append((step, JSONPointer.Head(parent: links.last?.head, segment: segment)))
            }
            examined = path.count
            guard let last = links.last else { return JSONPointer(head: nil, tail: String(decoding: spelled, as: UTF8.self)) }
            return JSONPointer(head: last.head, tail: String(decoding: spelled[path[last.step].end...], as: UTF8.self))
        }

        /// Spells the pointer of the node at `index` into `spelled`, its steps into `path`.
        private mutating func spell(_ index: Int) {
            let nodes = document.nodes
            // Up from the node to the top level, or to the first node on the last path: that node
            // and its ancestors are the last path's steps up to it. The walk's nodes descend, so
            // `kept` only moves down the path.
            steps.removeAll(keepingCapacity: true)
            var kept = path.count
            var current = index
            while true {
                while kept > 0, Int(path[kept - 1].node) > current { kept -= 1 }
                if kept > 0, Int(path[kept - 1].node) == current { break }
                let link = nodes.readParentAndOrdinal(of: current)
                    ?? (kept > 0 ? laterSibling(current, of: kept - 1) : nil)
                    ?? nodes.parentAndOrdinal(of: current)
                guard link.parent >= 0 else {
                    kept = 0
                    break
                }
                steps.append((Int32(truncatingIfNeeded: current), link.parent, link.ordinal))
                current = Int(link.parent)
            }
            path.removeSubrange(kept...)
            while let last = links.last, last.step >= kept { links.removeLast() }
            examined = min(examined, kept)
            spelled.removeSubrange((path.last?.end ?? 0)...)
            for step in steps.reversed() {
                let node = Int(step.node)
                spelled.append(UInt8(ascii: "/"))
                if nodes[Int(step.parent)].kind == .object {
                    let isKey = nodes[node].flags & JSONDocument.isKey != 0
                    document.appendPointerToken(ofKey: isKey ? node : node - 1, to: &spelled)
                } else {
                    JSONDocument.appendDecimal(Int(step.ordinal), to: &spelled)
                }
                path.append((step.node, step.ordinal, spelled.count))
            }
        }

        /// The most siblings `laterSibling(_:of:)` steps over before it leaves the node to a search.
        static let siblingSteps = 16

        /// The parent and ordinal of the node at `index` when it is an element of the array that
        /// holds the last path's step `step` and comes at most `siblingSteps` elements after it;
        /// else nil. Found by stepping from element to element: each one's subtree ends where the
        /// next begins.
        private func laterSibling(_ index: Int, of step: Int) -> (parent: Int32, ordinal: Int32)? {
            let nodes = document.nodes
            let parent = step > 0 ? Int(path[step - 1].node) : 0
            let array = nodes[parent]
            guard array.kind == .array, index < Int(array.next) else { return nil }
            var sibling = Int(nodes[Int(path[step].node)].next)
            var ordinal = path[step].ordinal
            for _ in 0..<Self.siblingSteps {
                ordinal += 1
                if sibling >= index { return sibling == index ? (Int32(truncatingIfNeeded: parent), ordinal) : nil }
                sibling = Int(nodes[sibling].next)
            }
            return nil
        }
    }

    /// Appends the key string at `keyIndex` as a pointer's reference token.
    ///
    /// A key without escapes is read once: plain ASCII is copied as it is, or escaped when it
    /// holds a `~` or `/`; a key with non-ASCII bytes or escapes is decoded first.
    fileprivate func appendPointerToken(ofKey keyIndex: Int, to spelled: inout [UInt8]) {
        let node = nodes[keyIndex]
        let start = Int(node.start) + 1
        let end = Int(node.end) - 1
        if node.flags & JSONDocument.hasEscapes == 0 {
            let appended = storage.bytes.withUnsafeBufferPointer { buffer -> Bool in
                let token = UnsafeBufferPointer(rebasing: buffer[start..<end])
                var needsEscapes = false
                for byte in token {
                    if byte >= 0x80 { return false }
                    if byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { needsEscapes = true }
                }
                if needsEscapes {
                    JSONDocument.appendEscapedPointerToken(token, to: &spelled)
                } else {
                    spelled.append(contentsOf: token)
                }
                return true
            }
            if appended { return }
        }
        var key = decodeString(at: keyIndex)
        key.withUTF8 { JSONDocument.appendEscapedPointerToken($0, to: &spelled) }
    }

    /// Appends `token`'s UTF-8 bytes with `~` as `~0` and `/` as `~1` (RFC 6901 §4).
    static func appendEscapedPointerToken(_ token: UnsafeBufferPointer<UInt8>, to spelled: inout [UInt8]) {
        var runStart = 0
        for offset in token.indices where token[offset] == UInt8(ascii: "~") || token[offset] == UInt8(ascii: "/") {
            spelled.append(contentsOf: UnsafeBufferPointer(rebasing: token[runStart..<offset]))
            spelled.append(UInt8(ascii: "~"))
            spelled.append(token[offset] == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1"))
            runStart = offset + 1
        }
        spelled.append(contentsOf: UnsafeBufferPointer(rebasing: token[runStart...]))
    }

    /// Appends a non-negative integer's decimal digits.
    static func appendDecimal(_ value: Int, to spelled: inout [UInt8]) {
        guard value >= 10 else {
            spelled.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        appendDecimal(value / 10, to: &spelled)
        spelled.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
