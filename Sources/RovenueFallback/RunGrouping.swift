/// Items grouped by key, for items that come in runs with one key: each run is added to its group
/// with one lookup of the key, so a long key is hashed once a run, not once an item. Keys are
/// compared with the run's by `==` (for `ExactKey`, free when both are one string).
package struct RunGrouping<Key: Hashable, Item> {
    private var grouped: [Key: [Item]] = [:]
    private var runKey: Key?
    private var run: [Item] = []

    package init() {}

    /// Adds `item` to the group of `key`, after the items added to it before.
    package mutating func append(_ item: Item, under key: Key) {
        if let runKey, runKey != key { endRun() }
        if runKey == nil { runKey = key }
        run.append(item)
    }

    /// Each key's items, in the order added.
    package var groups: [Key: [Item]] {
        var copy = self
        copy.endRun()
        return copy.grouped
    }

    private mutating func endRun() {
        guard let key = runKey else { return }
        grouped[key, default: []].append(contentsOf: run)
        run.removeAll(keepingCapacity: true)
        runKey = nil
    }
}

/// Small numbers for keys, in the order they are first given: equal bytes, equal numbers. A key
/// that is the very string value given before (a copy of one `String`: the findings about one
/// placement all hold its key's string) is numbered from the value's two words, without reading
/// its bytes; any other is hashed once (a key can be a megabyte, named by thousands of findings).
package struct KeyNumbering {
    /// A string value's two words (`ExactKey.sameRepresentation`): the same words, the same bytes.
    private struct Representation: Hashable {
        let first: UInt64
        let second: UInt64
    }

    private var numbers: [ExactKey: Int] = [:]
    /// The values seen, by their words; each holds its string, so the words stay its own.
    private var seen: [Representation: (key: ExactKey, number: Int)] = [:]

    package init() {}

    /// The number of `key`: the one given to its bytes before, else the next.
    package mutating func number(for key: ExactKey) -> Int {
        let representation: Representation? =
            MemoryLayout<String>.size == 16
            ? withUnsafeBytes(of: key.string) { words in
                Representation(first: words.loadUnaligned(as: UInt64.self), second: words.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            } : nil
        if let representation, let known = seen[representation] { return known.number }
        let number: Int
        if let known = numbers[key] {
            number = known
        } else {
            number = numbers.count
            numbers[key] = number
        }
        if let representation { seen[representation] = (key, number) }
        return number
    }
}
