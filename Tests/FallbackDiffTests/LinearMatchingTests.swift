import FallbackAudit
import RovenueFallback
import Testing

@testable import FallbackDiff
import FallbackTestSupport

/// The diff pairs variants, served paywalls and buckets through lookups, not searches: the pairs,
/// moves and messages are the ones the searches gave (each reference below is the search it
/// replaced), and a message names a long list's first `Format.listedLimit` items.
@Suite("the diff's lookups pair what its searches paired")
struct LinearMatchingTests {
    /// An experiment file whose variants are `(variantId, paywall id)` pairs, equal weights.
    static func experiment(_ variants: [(String, String)]) -> FallbackFile {
        let weight = variants.isEmpty ? "1" : String(1.0 / Double(variants.count))
        let listed = variants.map { #"{"variantId":"\#($0.0)","weight":\#(weight),"paywall":\#(Snap.paywall($0.1))}"# }
        return FallbackFile(text: Snap.experimentFile(listed.joined(separator: ",")))
    }

    static func served(_ file: FallbackFile) throws -> [OfflineTarget.Served<Paywall>] {
        try #require(file.loadedEntries.first?.entry).offlineTarget.servedPaywalls
    }

    /// The search `DiffRun.match` replaced: for each new item, the untaken old ones of its id, the
    /// first through the same variant, else the first.
    static func searchedPairs(_ old: [OfflineTarget.Served<Paywall>], _ new: [OfflineTarget.Served<Paywall>]) -> [Int?] {
        var taken = Set<Int>()
        return new.map { item in
            let sameId = old.indices.filter { !taken.contains($0) && ExactKey.same(old[$0].value.id, item.value.id) }
            let chosen = sameId.first { ExactKey.same(old[$0].variantId, item.variantId) } ?? sameId.first
            if let chosen { taken.insert(chosen) }
            return chosen
        }
    }

    static let variantLists: [(old: [(String, String)], new: [(String, String)])] = [
        ([("a", "pw"), ("b", "pw"), ("c", "pw")], [("c", "pw"), ("d", "pw"), ("a", "pw"), ("e", "pw"), ("b", "pw")]),
        ([("a", "x"), ("b", "y"), ("c", "x"), ("d", "y")], [("d", "x"), ("c", "x"), ("b", "y"), ("a", "z")]),
        ([("a", "pw"), ("a", "pw"), ("b", "pw")], [("a", "pw"), ("a", "pw"), ("a", "pw")]),
        ([("v\u{301}", "p"), ("v", "p")], [("v", "p"), ("v\u{301}", "p")]),
        ([], [("a", "pw")]),
        ((0..<40).map { ("v\($0)", "pw\($0 % 3)") }, (0..<40).reversed().map { ("v\($0 % 7)", "pw\($0 % 4)") }),
    ]

    @Test(arguments: variantLists.indices)
    func servedPaywallsPairAsTheSearchDid(index: Int) throws {
        let (oldVariants, newVariants) = Self.variantLists[index]
        let old = oldVariants.isEmpty ? [] : try Self.served(Self.experiment(oldVariants))
        let new = try Self.served(Self.experiment(newVariants))
        let pairs = DiffRun.match(old, new, id: \.id)
        #expect(pairs.count == new.count)
        let expected = Self.searchedPairs(old, new).map { $0.map { old[$0].value.source.node } }
        #expect(pairs.map { $0.old?.source.node } == expected)
    }

    /// The moves `Rebucketing` made asking `Bucketing.variantIndex` for each bucket and searching
    /// its pairs.
    static func searchedMoves(old: [(String, Double)], new: [(String, Double)]) -> [Rebucketing.Move] {
        var pairs: [(from: String, to: String, ranges: [ClosedRange<Int>])] = []
        var previous: (pair: Int, start: Int)?
        for bucket in 0..<Bucketing.bucketCount {
            guard let oldIndex = Bucketing.variantIndex(forBucket: bucket, weights: old.map(\.1)),
                let newIndex = Bucketing.variantIndex(forBucket: bucket, weights: new.map(\.1))
            else { break }
            let (from, to) = (old[oldIndex].0, new[newIndex].0)
            var pair: Int?
            if !ExactKey.same(from, to) {
                pair = pairs.firstIndex { ExactKey.same($0.from, from) && ExactKey.same($0.to, to) }
                if pair == nil {
                    pairs.append((from, to, []))
                    pair = pairs.count - 1
                }
            }
            if let open = previous, open.pair != pair {
                pairs[open.pair].ranges.append(open.start...bucket - 1)
                previous = nil
            }
            if let pair, previous == nil { previous = (pair, bucket) }
        }
        if let open = previous { pairs[open.pair].ranges.append(open.start...Bucketing.bucketCount - 1) }
        return pairs.map { Rebucketing.Move(from: $0.from, to: $0.to, ranges: $0.ranges) }
    }

    static let splits: [(old: [(String, Double)], new: [(String, Double)])] = [
        ([("a", 0.5), ("b", 0.5)], [("a", 0.34), ("b", 0.33), ("c", 0.33)]),
        ([("a", 0.5), ("b", 0.5)], [("b", 0.5), ("a", 0.5)]),
        ([("a", 0.3), ("b", 0.5), ("c", -0.5), ("d", 0.7)], [("d", 0.2), ("a", 0.2)]),
        ([("a", 50), ("b", 50)], [("a", 0), ("b", 1)]),
        ([("a", -1e308), ("b", 1e308), ("c", 0.5)], [("a", 1e308), ("b", -1e308), ("c", 0.5)]),
        ([("x", 0.25), ("x", 0.25), ("y", 0.5)], [("y", 0.25), ("x", 0.75)]),
        ([("a", 1)], []),
        ((0..<300).map { ("v\($0 % 50)", 1.0 / 300) }, (0..<300).map { ("v\(($0 * 7) % 60)", $0.isMultiple(of: 2) ? 2.0 / 300 : 0) }),
    ]

    @Test(arguments: splits.indices)
    func movesAreTheSearchedMoves(index: Int) {
        let (old, new) = Self.splits[index]
        let moved = Rebucketing(
            placementKey: "p", experimentId: "e", experimentKey: "k", old: old.map { ($0.0, $0.1) }, new: new.map { ($0.0, $0.1) })
        #expect(moved.moves == Self.searchedMoves(old: old, new: new))
    }

    /// A new placement sharing its experiment key with `others` more names the first 12 of them.
    @Test(arguments: [1, 12, 13, 40])
    func aSharedKeyNamesTheFirstFewPlacements(others: Int) throws {
        let entries = (0...others).map { index in
            Snap.entry("p\(index)", #""experiment":{"id":"e","key":"k","variants":[\#(Snap.variant("v", "1"))]}"#)
        }
        let changes = SnapshotDiff(old: FallbackFile(text: Snap.file("")), new: FallbackFile(text: Snap.file(entries.joined(separator: ",")))).changes
        let added = try #require(changes.first { $0.kind == .placementAdded && $0.placementKey == "p0" })
        let named = (1...min(others, Format.listedLimit)).map { #""p\#($0)""# }.joined(separator: ", ")
        let more = others > Format.listedLimit ? ", and \(others - Format.listedLimit) more" : ""
        #expect(added.message.contains("with \(named)\(more), so a subscriber"))
    }

    /// A paywall page losing its paywall names the first 12 keys its funnel's map carries, in the
    /// diff and in the audit.
    @Test(arguments: [1, 12, 13, 30])
    func aPaywallsMapNamesItsFirstFewKeys(count: Int) throws {
        let paywalls = (0..<count).map { #""k\#($0)":\#(Snap.paywall("k\($0)"))"# }.joined(separator: ",")
        let text = { (paywallId: String) in
            Snap.funnelFile(extra: #""paywalls":{\#(paywalls)},"#, [Snap.page("p", "paywall", #""paywallId":"\#(paywallId)""#)])
        }
        let named = (0..<min(count, Format.listedLimit)).map { #""k\#($0)""# }.joined(separator: ", ")
        let more = count > Format.listedLimit ? ", and \(count - Format.listedLimit) more" : ""
        let changes = SnapshotDiff(old: FallbackFile(text: text("k0")), new: FallbackFile(text: text("gone"))).changes
        let lost = try #require(changes.first { $0.kind == .paywallUnreachableOffline })
        #expect(lost.message.contains("(it carries \(named)\(more))"))
        let finding = try #require(findings(text("gone")).first { $0.rule == .paywallUnavailableOffline })
        #expect(finding.message.contains("(it carries \(named)\(more)"))
    }
}
