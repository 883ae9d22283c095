import RovenueFallback

/// JSON Pointers of nodes, each container walked at most once.
///
/// `JSONDocument.Value.pointer` counts an array element's position by walking its earlier
/// siblings, so pointers for every page of a 20,000-page funnel would cost 200 million steps. This
/// remembers every pointer it computes and the positions of each array's elements.
struct PointerCache {
    private let document: JSONDocument
    private var pointers: [Int: String] = [:]
    private var positions: [Int: [Int: Int]] = [:]

    init(document: JSONDocument) {
        self.document = document
    }

    /// The member name of `node` in its parent object, or nil when the parent is not an object.
    func key(of node: Int) -> String? {
        guard let parent = document.value(at: node).parent, parent.kind == .object else { return nil }
        // An object's children alternate key and value: a value's key is the node before it.
        return document.value(at: node - 1).string
    }

    /// The position of `node` in its parent array, or nil when the parent is not an array.
    mutating func position(of node: Int) -> Int? {
        guard let parent = document.value(at: node).parent, parent.kind == .array else { return nil }
        if positions[parent.index] == nil {
            var map: [Int: Int] = [:]
            for (position, element) in parent.elements.enumerated() {
                map[element.index] = position
            }
            positions[parent.index] = map
        }
        return positions[parent.index]?[node]
    }

    /// The RFC 6901 pointer of `node` (`""` for the top level).
    mutating func pointer(of node: Int) -> String {
        if let pointer = pointers[node] { return pointer }
        guard let parent = document.value(at: node).parent else { return "" }
        let token = key(of: node) ?? position(of: node).map(String.init) ?? ""
        let pointer = pointer(of: parent.index) + "/" + JSONDocument.escapePointerToken(token)
        pointers[node] = pointer
        return pointer
    }
}
