// MARK: - JSON Pointers, spelled from the nodes

extension JSONDocument {
    /// The RFC 6901 JSON Pointer of the node at `index` (`""` for the top level); for an object
    /// key, the pointer of its member. `Value.pointer` reads it.
    ///
    /// Spelled straight into one byte buffer from the top down: each member's key is copied from
    /// the document's bytes (escaping `~` and `/`), each element's position written as digits.
    /// Only a key with escapes or non-ASCII bytes is decoded first, as `decodeString` decodes it.
    package func pointer(ofNode index: Int) -> String {
        // The path from the node up to the top level: each step's node (a key stands for its member),
        // with its parent and its place there read once (a container's are found by a search).
        var steps: [(node: Int32, parent: Int32, ordinal: Int32)] = []
        steps.reserveCapacity(16)
        var current = index
        var link = nodes.parentAndOrdinal(of: current)
        while link.parent >= 0 {
            steps.append((Int32(truncatingIfNeeded: current), link.parent, link.ordinal))
            current = Int(link.parent)
            link = nodes.parentAndOrdinal(of: current)
        }
        guard !steps.isEmpty else { return "" }
        var spelled: [UInt8] = []
        spelled.reserveCapacity(steps.count * 12)
        for step in steps.reversed() {
            let node = Int(step.node)
            spelled.append(UInt8(ascii: "/"))
            if nodes[Int(step.parent)].kind == .object {
                let isKey = nodes[node].flags & JSONDocument.isKey != 0
                appendPointerToken(ofKey: isKey ? node : node - 1, to: &spelled)
            } else {
                JSONDocument.appendDecimal(Int(step.ordinal), to: &spelled)
            }
        }
        return String(decoding: spelled, as: UTF8.self)
    }

    /// Appends the key string at `keyIndex` as a pointer's reference token.
    private func appendPointerToken(ofKey keyIndex: Int, to spelled: inout [UInt8]) {
        let node = nodes[keyIndex]
        let start = Int(node.start) + 1
        let end = Int(node.end) - 1
        let isPlainASCII = node.flags & JSONDocument.hasEscapes == 0
            && bytes.withUnsafeBufferPointer { buffer in
                !UnsafeBufferPointer(rebasing: buffer[start..<end]).contains { $0 >= 0x80 }
            }
        if isPlainASCII {
            bytes.withUnsafeBufferPointer { buffer in
                JSONDocument.appendEscapedPointerToken(UnsafeBufferPointer(rebasing: buffer[start..<end]), to: &spelled)
            }
        } else {
            var key = decodeString(at: keyIndex)
            key.withUTF8 { JSONDocument.appendEscapedPointerToken($0, to: &spelled) }
        }
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
