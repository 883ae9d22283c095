import FallbackSample
import FallbackTestSupport
import RovenueFallback
import Testing

@testable import FallbackDiff

/// `DifferenceSearch` counts every difference but keeps only the first few: a wide value at the
/// bottom of a deep chain once kept hundreds of thousands of differences, each with a path as deep
/// as the chain (1.5 GB for a 2 MB pair of files).
@Suite("Difference search: every difference counted, the first few kept")
struct DifferenceSearchTests {
    /// `{"a":{"a":…[numbers]…}}`, `depth` objects deep over `count` numbers, each `start + 2i`.
    static func chain(depth: Int, count: Int, start: Int) -> JSONDocument {
        let numbers = "[" + (0..<count).map { String(start + 2 * $0) }.joined(separator: ",") + "]"
        return JSONDocument(text: String(repeating: #"{"a":"#, count: depth) + numbers + String(repeating: "}", count: depth))
    }

    static func search(_ old: JSONDocument, _ new: JSONDocument, keeping limit: Int) -> DifferenceSearch {
        var search = DifferenceSearch(keeping: limit)
        search.compare(old.root, new.root, path: [.member("extra")], oldAnchor: 0, newAnchor: 0)
        return search
    }

    @Test(arguments: [0, 1, 3, 13])
    func theKeptDifferencesAreTheFirstOfAllOfThem(limit: Int) {
        let old = Self.chain(depth: 4, count: 100, start: 0)
        let new = Self.chain(depth: 4, count: 100, start: 1)
        let all = Self.search(old, new, keeping: .max)
        let kept = Self.search(old, new, keeping: limit)
        #expect(all.count == 100 && all.differences.count == 100)
        #expect(kept.count == 100)
        #expect(kept.differences.map(\.path) == all.differences.prefix(limit).map(\.path))
        #expect(kept.differences.map { $0.new?.index } == all.differences.prefix(limit).map { $0.new?.index })
        let expected: [PathStep] = [.member("extra")] + Array(repeating: .member("a"), count: 4) + [.element(0)]
        #expect(all.differences.first?.path == expected)
    }

    @Test func equalValuesHaveNoDifferenceAndASearchUsedAgainAddsToWhatItFound() {
        let old = Self.chain(depth: 30, count: 50, start: 0)
        var search = Self.search(old, Self.chain(depth: 30, count: 50, start: 0), keeping: 5)
        #expect(search.count == 0 && search.differences.isEmpty)
        search.compare(old.root, Self.chain(depth: 30, count: 50, start: 1).root, path: [.member("other")], oldAnchor: 0, newAnchor: 0)
        search.compare(old.root, Self.chain(depth: 30, count: 50, start: 1).root, path: [.member("third")], oldAnchor: 0, newAnchor: 0)
        #expect(search.count == 100)
        #expect(search.differences.count == 5)
        #expect(search.differences.allSatisfy { $0.path.first == .member("other") && $0.path.count == 32 })
    }

    /// Each difference's path through objects, keyed arrays and plain arrays, as a reference walk
    /// that copies the path at every step would give it.
    @Test func everyBranchGivesEachDifferenceItsWholePath() {
        let old = JSONDocument(text: #"{"keep":1,"gone":{"x":1},"pages":[{"id":"a","t":1},{"id":"b","t":2}],"list":[1,2,3],"same":[5],"swap":[1,2]}"#)
        let new = JSONDocument(text: #"{"keep":1,"added":true,"pages":[{"id":"a","t":9},{"id":"c"}],"list":[1,2],"same":[5],"swap":[3,4,5]}"#)
        var search = DifferenceSearch(keeping: .max)
        search.compare(old.root, new.root, path: [.member("root")], oldAnchor: 0, newAnchor: 0)
        #expect(search.differences.map { PathStep.text($0.path) } == [
            "root.added", #"root.pages[id="a"].t"#, #"root.pages[id="c"]"#, #"root.pages[id="b"]"#, "root.list[2]", "root.swap",
            "root.gone",
        ])
        #expect(search.count == search.differences.count)
        // Kept to three, the first three of the same.
        var kept = DifferenceSearch(keeping: 3)
        kept.compare(old.root, new.root, path: [.member("root")], oldAnchor: 0, newAnchor: 0)
        #expect(kept.count == search.count)
        #expect(kept.differences.map(\.path) == search.differences.prefix(3).map(\.path))
    }

    @Test func aWideValueAtTheBottomOfADeepChainIsOneChangeWithItsCount() throws {
        let chain = { (start: Int) in
            let numbers = "[" + (0..<5_000).map { String(start + 2 * $0) }.joined(separator: ",") + "]"
            return String(repeating: #"{"a":"#, count: 100) + numbers + String(repeating: "}", count: 100)
        }
        let old = Snap.funnelFile(extra: #""theme":\#(chain(0)),"paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p3", "paywall", #""paywallId":"pw""#)])
        let new = Snap.funnelFile(extra: #""theme":\#(chain(1)),"paywalls":{"pw":\#(Snap.paywall())},"#, [Snap.page("p3", "paywall", #""paywallId":"pw""#)])
        let changes = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)).changes
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.field == "theme")
        #expect(change.message.hasSuffix("theme: 5000 values changed."))
    }
    // MARK: Values written differently

    /// Pairs with the same content written differently: members in another order, other
    /// whitespace, another spelling of a number, a repeated key's earlier value, in objects, plain
    /// arrays and keyed arrays, nested. The search walks into them (their bytes differ) and finds nothing.
    static let sameContentPairs: [(String, String)] = [
        (#"{"a":1,"b":{"c":[1,2,{"d":"x"}]}}"#, #"{ "b" : { "c" : [ 1 , 2 , { "d" : "x" } ] } , "a" : 1 }"#),
        (#"[[[{"n":1.5}]]]"#, #"[[[{"n":1.50}]]]"#),
        (#"{"pages":[{"id":"a","t":{"u":1,"v":2}},{"id":"b"}]}"#, #"{"pages":[{"t":{"v":2,"u":1},"id":"a"},{"id":"b"}]}"#),
        (#"{"k":{"x":0,"x":[1,{"y":2,"z":3}]}}"#, #"{"k":{"x":[1,{"z":3,"y":2}]}}"#),
        (#"{"deep":\#(String(repeating: "[", count: 40))1e2\#(String(repeating: "]", count: 40))}"#,
         #"{"deep":\#(String(repeating: "[ ", count: 40))100.0\#(String(repeating: " ]", count: 40))}"#),
    ]

    @Test(arguments: sameContentPairs.indices)
    func valuesWithTheSameContentWrittenDifferentlyHaveNoDifference(pair: Int) {
        let (oldText, newText) = Self.sameContentPairs[pair]
        let old = JSONDocument(text: oldText)
        let new = JSONDocument(text: newText)
        #expect(!RawComparison.sameText(old.root, new.root))
        #expect(RawComparison.same(old.root, new.root))
        let search = Self.search(old, new, keeping: .max)
        #expect(search.count == 0 && search.differences.isEmpty)
    }

    /// Under values written differently, only what changed: one leaf of a reformatted value, and the
    /// differing elements of arrays of the same length, each at its own position.
    @Test func underValuesWrittenDifferentlyOnlyWhatChangedIsFound() {
        let old = JSONDocument(text: #"{"a":{"b":[{"x":1},{"x":2},{"x":3}],"c":"same"},"list":[[1],[2],[3],[4]]}"#)
        let new = JSONDocument(text: #"{ "list" : [ [1], [20], [3], [40] ], "a" : { "c" : "same", "b" : [ {"x":1}, {"x":9}, {"x":3} ] } }"#)
        let search = Self.search(old, new, keeping: .max)
        #expect(search.differences.map { PathStep.text($0.path) } == ["extra.list[1][0]", "extra.list[3][0]", "extra.a.b[1].x"])
        #expect(search.count == 3)
    }

    /// A chain of one-element arrays over a wide array whose last number alone differs: the one
    /// difference, at the end of the whole path (each level's elements compared by position).
    @Test func aChainOfArraysOverOneChangedNumberIsThatOneDifference() {
        let numbers = { (last: Int) in "[" + (0..<2_000).map(String.init).joined(separator: ",") + ",\(last)]" }
        let old = JSONDocument(text: String(repeating: "[", count: 100) + numbers(1) + String(repeating: "]", count: 100))
        let new = JSONDocument(text: String(repeating: "[", count: 100) + numbers(2) + String(repeating: "]", count: 100))
        let search = Self.search(old, new, keeping: .max)
        #expect(search.count == 1)
        #expect(search.differences.first?.path == [.member("extra")] + Array(repeating: .element(0), count: 100) + [.element(2_000)])
    }

    /// For generated pairs (a value and a mutation of it: members reordered, removed or added,
    /// elements inserted, removed or shuffled, leaves changed, numbers respelled, reformatted), the
    /// search finds no difference exactly when the two have the same content.
    @Test(arguments: 0..<8)
    func theSearchFindsADifferenceExactlyWhenTheContentDiffers(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var differing = 0
        for _ in 0..<200 {
            let value = GeneratedValue.make(depth: 0, using: &generator)
            let mutated = GeneratedValue.mutate(value, using: &generator)
            let old = JSONDocument(text: value.text(spaced: false))
            let new = JSONDocument(text: mutated.text(spaced: Bool.random(using: &generator)))
            let search = Self.search(old, new, keeping: 1)
            let same = RawComparison.same(old.root, new.root)
            #expect((search.count == 0) == same, "\(value.text(spaced: false)) against \(mutated.text(spaced: false))")
            if !same { differing += 1 }
        }
        // The generator makes both kinds of pairs.
        #expect(differing > 20 && differing < 190)
    }
}

/// A small JSON value for `DifferenceSearchTests`, written with its members in order (repeated keys
/// kept) and its numbers in their own spelling.
private indirect enum GeneratedValue {
    case number(String)
    case string(String)
    case literal(String)
    case array([GeneratedValue])
    case object([(String, GeneratedValue)])

    static let keys = ["a", "b", "id", "pages", "options", "value", "clauses", "question_id"]

    static func make<G: RandomNumberGenerator>(depth: Int, using generator: inout G) -> GeneratedValue {
        let roll = Int.random(in: 0..<10, using: &generator)
        if depth > 3 || roll < 3 {
            return [.number("1"), .number("2.5"), .string("x"), .string("id1"), .literal("true"), .literal("null")]
                .randomElement(using: &generator)!
        }
        if roll < 6 {
            return .object((0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (keys.randomElement(using: &generator)!, make(depth: depth + 1, using: &generator))
            })
        }
        if roll < 8 {
            // Keyed elements, as under `pages` or `options`.
            return .array((0..<Int.random(in: 0...3, using: &generator)).map { index in
                .object([("id", .string("i\(index)")), ("value", .string("v\(index)")), ("x", make(depth: depth + 2, using: &generator))])
            })
        }
        return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in make(depth: depth + 1, using: &generator) })
    }

    static func mutate<G: RandomNumberGenerator>(_ value: GeneratedValue, using generator: inout G) -> GeneratedValue {
        let roll = Int.random(in: 0..<10, using: &generator)
        switch value {
        case .object(var members):
            switch roll {
            case 0, 1: members.shuffle(using: &generator)
            case 2 where !members.isEmpty: members.remove(at: Int.random(in: members.indices, using: &generator))
            case 3: members.append((keys.randomElement(using: &generator)!, make(depth: 2, using: &generator)))
            default: members = members.map { Bool.random(using: &generator) ? ($0.0, mutate($0.1, using: &generator)) : $0 }
            }
            return .object(members)
        case .array(var elements):
            switch roll {
            case 0 where !elements.isEmpty: elements.remove(at: Int.random(in: elements.indices, using: &generator))
            case 1: elements.insert(make(depth: 2, using: &generator), at: Int.random(in: 0...elements.count, using: &generator))
            case 2: elements.shuffle(using: &generator)
            default: elements = elements.map { Bool.random(using: &generator) ? mutate($0, using: &generator) : $0 }
            }
            return .array(elements)
        case .number(let text) where roll < 4:
            // The same number spelled another way.
            return .number(text == "1" ? "1" : text == "2.5" ? "2.50" : text)
        default:
            return roll < 3 ? make(depth: 3, using: &generator) : value
        }
    }

    func text(spaced: Bool) -> String {
        let space = spaced ? " " : ""
        switch self {
        case .number(let text), .literal(let text): return text
        case .string(let text): return "\"\(text)\""
        case .array(let elements): return "[" + elements.map { $0.text(spaced: spaced) }.joined(separator: "," + space) + "]"
        case .object(let members):
            return "{" + space + members.map { "\"\($0.0)\":" + space + $0.1.text(spaced: spaced) }.joined(separator: "," + space) + "}"
        }
    }
}
