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
