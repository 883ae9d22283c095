import FallbackSample
import Testing

@testable import RovenueFallback

/// `KeyPositions` finds the first position of each key by its UTF-8 bytes, as a reference built
/// without hashing finds it: one key at a time or a block at a time, growing from any capacity,
/// with repeated keys, keys that are canonically equivalent but not the same bytes, empty keys and
/// keys too long to be stored inline. `OrderedMap(keys:values:)`, which indexes a block at a time,
/// gives the map that setting each key in turn gives, and `FunnelGraph.earlierPage(withIdOf:)`
/// names the page that a search of the earlier pages names.
@Suite("KeyPositions: the first position of a key, by its bytes")
struct KeyPositionsTests {
    /// `count` keys drawn from a pool of `distinct` names with repeats: composed and decomposed
    /// `é`, an empty key, keys past 15 bytes (stored out of line) and short ones.
    static func keys(count: Int, distinct: Int, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        let names = (0..<max(distinct, 1)).map(Self.name)
        return (0..<count).map { _ in names[Int(generator.next() % UInt64(names.count))] }
    }

    /// Name `number` of the pool, every name distinct in its bytes.
    static func name(_ number: Int) -> String {
        switch number % 5 {
        case 0: "caf\u{E9}\(number)"
        case 1: "cafe\u{301}\(number - 1)"
        case 2: number == 2 ? "" : "k\(number)"
        case 3: "a key long enough to live out of line \(number)"
        default: "\(number)"
        }
    }

    /// For each position, the first position whose key has the same bytes (itself when it is the first).
    static func firstPositions(_ keys: [String]) -> [Int] {
        var first: [[UInt8]: Int] = [:]
        return keys.indices.map { position in
            let bytes = Array(keys[position].utf8)
            if let earlier = first[bytes] { return earlier }
            first[bytes] = position
            return position
        }
    }

    static let sizes: [(count: Int, distinct: Int)] = [
        (0, 1), (1, 1), (7, 3), (15, 15), (16, 16), (17, 9), (33, 40), (200, 50), (1_000, 1_000), (3_000, 700),
    ]

    /// From no room, some and plenty, with the slots' hash bits kept (24) or not (0: every slot a
    /// probe meets has its key compared, as when hashes agree).
    @Test(arguments: sizes, [(0, 24), (1, 24), (64, 24), (0, 0), (64, 0)])
    func oneByOneMatchesTheReference(size: (count: Int, distinct: Int), table: (capacity: Int, tagBits: Int)) {
        let keys = Self.keys(count: size.count, distinct: size.distinct, seed: UInt64(size.count * 7 + table.capacity))
        let first = Self.firstPositions(keys)
        var index = KeyPositions(capacity: table.capacity, keepingTagBits: table.tagBits)
        for position in keys.indices {
            let held = index.insert(keys[position], at: position) { keys[$0] }
            #expect(held == (first[position] == position ? nil : first[position]), "\(position)")
        }
        #expect(index.count == Set(first).count)
        for position in keys.indices {
            #expect(index.position(of: keys[position]) { keys[$0] } == first[position])
        }
        for absent in ["absent", "cafe", "caf\u{E9}", "a key long enough to live out of line", " "] {
            #expect(index.position(of: absent) { keys[$0] } == nil)
        }
    }

    /// The block insert reports the same repeats as inserting one by one, also into a table that
    /// holds keys already; the block lookup answers what each lookup does.
    @Test(arguments: sizes, [24, 0])
    func blocksMatchOneByOne(size: (count: Int, distinct: Int), tagBits: Int) {
        let keys = Self.keys(count: size.count, distinct: size.distinct, seed: UInt64(size.count * 13 + 5))
        let first = Self.firstPositions(keys)
        let split = keys.count / 3
        var index = KeyPositions(capacity: 0, keepingTagBits: tagBits)
        var repeats: [Int: Int] = [:]
        index.insert(keysAt: 0..<split, key: { keys[$0] }, repeated: { repeats[$0] = $1 })
        index.insert(keysAt: split..<keys.count, key: { keys[$0] }, repeated: { repeats[$0] = $1 })
        for position in keys.indices {
            #expect(repeats[position] == (first[position] == position ? nil : first[position]), "\(position)")
        }
        #expect(index.count == keys.count - repeats.count)
        let asked = keys + ["absent", "", "cafe"]
        let positions = index.positions(of: asked) { keys[$0] }
        #expect(positions == asked.map { key in index.position(of: key) { keys[$0] } })
        #expect(Array(positions.prefix(keys.count)) == first.map { Optional($0) })
    }

    /// The map a list of pairs gives when each is set in turn, in bytes.
    static func setOneByOne(_ keys: [String], _ values: [Int]) -> OrderedMap<Int> {
        var map = OrderedMap<Int>()
        for (key, value) in zip(keys, values) { map.set(value, for: key) }
        return map
    }

    /// `count` distinct keys from the same pool, shuffled: lists without a repeat, which
    /// `OrderedMap(keys:values:)` keeps as they are.
    static func distinctKeys(count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed)
        var keys = (0..<count).map(Self.name)
        for index in keys.indices.reversed() where index > 0 {
            keys.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        return keys
    }

    @Test(arguments: sizes)
    func orderedMapFromListsMatchesSettingEachKey(size: (count: Int, distinct: Int)) {
        let lists = [
            Self.keys(count: size.count, distinct: size.distinct, seed: UInt64(size.count + size.distinct)),
            Self.distinctKeys(count: size.count, seed: UInt64(size.count)),
        ]
        #expect(Set(lists[1].map { Array($0.utf8) }).count == size.count, "the second list has no repeat")
        for keys in lists {
            let values = keys.indices.map { $0 * 3 + 1 }
            let map = OrderedMap(keys: keys, values: values)
            let reference = Self.setOneByOne(keys, values)
            #expect(map.keys.map { Array($0.utf8) } == reference.keys.map { Array($0.utf8) })
            #expect(map.values == reference.values)
            let asked = keys + ["absent", "cafe"]
            #expect(map.indices(of: asked) == asked.map { map.index(of: $0) })
            #expect(asked.map { map[$0] } == asked.map { reference[$0] })
        }
    }

    /// A decoded object of many members, some repeated or none, is the map the SDK's decoding
    /// makes: the first place of each key, its last value.
    @Test(arguments: [5, 8, 9, 40], [true, false])
    func aLargeObjectDecodesAsSettingEachMember(count: Int, repeating: Bool) throws {
        let keys = (0..<count).map { repeating && $0 % 7 == 6 ? "l\($0 - 3)" : "l\($0)" }
        let members = keys.enumerated().map { "\(quote($0.element)):\(quote("text \($0.offset)"))" }
        let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"f","pages":[{"id":"p","type":"statement","title":{"#
            + members.joined(separator: ",") + "}}]}}"
        let file = FallbackFile(text: fileText(entry: entry))
        let title = try #require(file.loadedEntries.first?.entry.funnel?.pages.first?.title)
        var reference = OrderedMap<String>()
        for (offset, key) in keys.enumerated() { reference.set("text \(offset)", for: key) }
        guard case .localized(let map) = title else {
            Issue.record("the title is not a locale map: \(title)")
            return
        }
        #expect(map.keys == reference.keys)
        #expect(map.values == reference.values)
    }

    /// An index is one word, so a map stays three: every localized text of every decoded page
    /// holds one (with the index's count and mask as fields, a map took 48 bytes, and the 10k
    /// sample's build 12 MB more).
    @Test func anIndexIsOneWordAndAMapThree() {
        #expect(MemoryLayout<KeyPositions?>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<OrderedMap<String>>.size == 3 * MemoryLayout<Int>.size)
    }

    /// Two maps that share keys and index (`init(keysOf:values:)`, as the decoder shares a funnel's
    /// locales) go their own ways when one of them sets a new key or a new value.
    @Test func aSharedIndexIsCopiedOnWrite() {
        let keys = (0..<20).map { "k\($0)" }
        let first = OrderedMap(keys: keys, values: Array(keys.indices))
        var second = OrderedMap<Int>(keysOf: first, values: first.values.map { $0 + 100 })
        second.set(7, for: "new")
        second.set(1, for: "k3")
        #expect(first.count == 20 && first.index(of: "new") == nil && first["k3"] == 3)
        #expect(first.indices(of: ["new", "k19"]) == [nil, 19])
        #expect(second.count == 21 && second["new"] == 7 && second["k3"] == 1 && second.index(of: "new") == 20)
    }

    /// `RepeatedKeys` answers for the positions recorded, and nil for every other.
    @Test func repeatedKeysAnswerForTheirPositions() {
        var repeated = RepeatedKeys()
        #expect(repeated.isEmpty && repeated.firstPosition(ofKeyAt: 0) == nil)
        for (position, first) in [(2, 0), (5, 1), (6, 0), (7, 3), (40, 39)] { repeated.append(position, first: first) }
        #expect(!repeated.isEmpty)
        #expect((0...41).map { repeated.firstPosition(ofKeyAt: $0) } == (0...41).map { [2: 0, 5: 1, 6: 0, 7: 3, 40: 39][$0] })
    }

    /// Each page's earlier page with its id, small funnels searched and large ones indexed.
    @Test(arguments: [false, true])
    func earlierPagesWithAnIdAreTheFirstWithIt(large: Bool) throws {
        let ids = ["a", "b", "a", "caf\u{E9}", "cafe\u{301}", "b", "a", "caf\u{E9}", ""]
        let graph = try FunnelGraphTests.graph(FunnelGraphTests.padded(ids.map { FunnelGraphTests.page($0) }, large: large))
        let expected: [Int?] = [nil, nil, 0, nil, nil, 1, 0, 3, nil]
        #expect(ids.indices.map { graph.earlierPage(withIdOf: $0) } == expected)
        if large {
            #expect((ids.count..<graph.pageCount).allSatisfy { graph.earlierPage(withIdOf: $0) == nil })
        }
    }
}
