import FallbackTestSupport
import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit

/// A placement's funnels and paywalls are checked once per distinct copy (same id, same JSON text
/// whitespace aside). Past a few, copies are found through fingerprints of their text: an
/// experiment with thousands of variants, each with its own funnel under one id, used to compare
/// every pair of them (issue 10: nothing in the audit worse than linear).
@Suite("checked copies")
struct CheckedCopiesTests {
    /// 5,000 different values under one id: a handful of comparisons, not one per pair (12.5 million).
    @Test func manyDifferentValuesUnderOneIdCostLinearWork() {
        var copies = CheckedCopies()
        var comparisons = 0
        var fingerprints = 0
        let count = 5_000
        for node in 0..<count {
            let inserted = copies.insert(
                id: "fnl", node: node, fingerprint: { fingerprints += 1; return $0 },
                same: { _, _ in comparisons += 1; return false })
            #expect(inserted)
        }
        #expect(copies.count == count)
        // Comparing every pair would be count × (count − 1) / 2.
        #expect(comparisons <= count)
        #expect(fingerprints <= 2 * count)
    }

    /// The same answers as comparing with every value recorded before, fingerprints colliding or not.
    @Test(arguments: [1, 3, 1_000])
    func answersAsComparingWithEveryEarlierValue(buckets: Int) {
        var generator = SystemRandomNumberGenerator()
        // Node n has the text `texts[n]`; ids are drawn from a few, so ids and texts both repeat.
        let texts = (0..<400).map { _ in Int.random(in: 0..<30, using: &generator) }
        let ids = (0..<400).map { _ in ["a", "b", "e\u{301}", "\u{E9}"].randomElement(using: &generator)! }
        var copies = CheckedCopies()
        var earlier: [(id: String, node: Int)] = []
        for node in texts.indices {
            let expected = !earlier.contains { ExactKey.same($0.id, ids[node]) && texts[$0.node] == texts[node] }
            if expected { earlier.append((ids[node], node)) }
            let inserted = copies.insert(
                id: ids[node], node: node, fingerprint: { texts[$0] % buckets }, same: { texts[$0] == texts[$1] })
            #expect(inserted == expected, "node \(node)")
        }
        #expect(copies.count == earlier.count)
    }

    /// An experiment whose variants all carry funnel `f` with no pages: copies that differ only in
    /// whitespace are one funnel (one `funnel-empty`), copies that differ in content are each checked.
    @Test(arguments: [3, 40])
    func variantsCarryingCopiesOfAFunnel(variants: Int) {
        func variant(_ index: Int, funnel: String) -> String {
            #"{"variantId":"v\#(index)","weight":1,"funnel":\#(funnel)}"#
        }
        func file(_ funnels: (Int) -> String) -> String {
            let list = (0..<variants).map { variant($0, funnel: funnels($0)) }.joined(separator: ",")
            return Snap.file(Snap.entry("a", #""experiment":{"id":"exp","key":"k","variants":[\#(list)]}"#))
        }
        let spaced = file { String(repeating: " ", count: $0) + #"{"id":"f", "slug" :"f","pages":[ ]}"# }
        #expect(findings(spaced).count { $0.ruleId == Rule.funnelEmpty.id } == 1)
        let distinct = file { #"{"id":"f","slug":"f\#($0)","pages":[]}"# }
        #expect(findings(distinct).count { $0.ruleId == Rule.funnelEmpty.id } == variants)
        let alternating = file { #"{"id":"f","slug":"f\#($0 % 2)","pages":[]}"# }
        #expect(findings(alternating).count { $0.ruleId == Rule.funnelEmpty.id } == 2)
    }
}
