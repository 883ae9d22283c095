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
}
