import RovenueFallback
import Testing

@testable import FallbackHistory
import FallbackTestSupport

/// What a revision of an experiment changed, in the words of the History pages: variants paired by
/// id, through lookups (`TimelineBuilder.servedChange(from:to:)`; searching the other side's list
/// for each variant was quadratic in an experiment of thousands of variants).
@Suite("History: what changed in an experiment's variants")
struct ServedChangeTests {
    /// The identity of an experiment whose variants show the paywalls `variants` pairs with their ids.
    static func identity(_ variants: [(id: String, paywall: String)]) throws -> OfflineTarget.Identity {
        let listed = variants.map { #"{"variantId":"\#($0.id)","weight":0.5,"paywall":\#(Snap.paywall($0.paywall))}"# }
        let file = FallbackFile(text: Snap.experimentFile(listed.joined(separator: ",")))
        return OfflineTarget.Identity(try #require(file.loadedEntries.first?.entry).offlineTarget)
    }

    /// An id written twice stands for its first variant, as the search found it: the later variant
    /// of that id in the new revision is compared with the first one of the old.
    @Test func aRepeatedVariantIdIsComparedThroughItsFirstVariant() throws {
        let old = try Self.identity([("a", "pw1"), ("a", "pw2"), ("b", "pw1")])
        let new = try Self.identity([("a", "pw1"), ("b", "pw1"), ("a", "pw2")])
        let change = TimelineBuilder.servedChange(from: old, to: new)
        #expect(change == "experiment exp: weights 0.5/0.5/0.5 → 0.5/0.5/0.5, a: paywall pw1 → paywall pw2")
    }

    /// Half the variants renamed: each new id is added, each old one removed, in the order of its
    /// own list; the ids both revisions have, serving the same paywall, are not named.
    @Test func renamedVariantsAreAddedAndRemovedInTheirOrder() throws {
        let old = try Self.identity((0..<30).map { ("v\($0)", "pw") })
        let new = try Self.identity((15..<45).reversed().map { ("v\($0)", "pw") })
        let weights = Array(repeating: "0.5", count: 30).joined(separator: "/")
        let expected = "experiment exp: " + ((30..<45).reversed().map { "variant v\($0) added (paywall pw)" }
            + (0..<15).map { "variant v\($0) removed" } + ["weights \(weights) → \(weights)"]).joined(separator: ", ")
        #expect(TimelineBuilder.servedChange(from: old, to: new) == expected)
    }
}
