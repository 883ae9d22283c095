import FallbackAudit
import RovenueFallback

/// Who draws another variant when an experiment's variants or weights change under the same key.
///
/// A device draws again from the new weights each time it resolves, and a subscriber's bucket
/// depends only on the subscriber id and the key, so the buckets whose variant id differs between
/// the old and the new split are exactly the subscribers who see something else.
public struct Rebucketing: Sendable, Hashable, CustomStringConvertible {
    /// One variant of a split and the buckets it receives.
    public struct Share: Sendable, Hashable {
        public let variantId: String
        public let weight: Double
        public let buckets: Int
    }

    /// Subscribers moving from one variant to another, as contiguous bucket ranges.
    public struct Move: Sendable, Hashable {
        public let from: String
        public let to: String
        public let ranges: [ClosedRange<Int>]

        public var buckets: Int { ranges.reduce(0) { $0 + $1.count } }
    }

    public let placementKey: String
    public let experimentId: String
    public let experimentKey: String
    public let old: [Share]
    public let new: [Share]
    /// In order of their first bucket.
    public let moves: [Move]

    /// Computes the moves over all `Bucketing.bucketCount` buckets. Both splits need a variant.
    public init(
        placementKey: String, experimentId: String, experimentKey: String, old: [(variantId: String, weight: Double)],
        new: [(variantId: String, weight: Double)]
    ) {
        self.placementKey = placementKey
        self.experimentId = experimentId
        self.experimentKey = experimentKey
        let oldWeights = old.map(\.weight)
        let newWeights = new.map(\.weight)
        self.old = zip(old, Bucketing.shares(weights: oldWeights)).map { Share(variantId: $0.variantId, weight: $0.weight, buckets: $1) }
        self.new = zip(new, Bucketing.shares(weights: newWeights)).map { Share(variantId: $0.variantId, weight: $0.weight, buckets: $1) }

        var pairs: [(from: String, to: String, ranges: [ClosedRange<Int>])] = []
        // Each pair of ids once, looked up by its ids; a run of buckets with the same two variants
        // looks it up once. With thousands of variants a bucket costs a few steps, not a walk of them.
        var pairIndex: [PairKey: Int] = [:]
        var lastVariants: (old: Int, new: Int, pair: Int?)?
        let oldIndices = Self.variantIndices(Bucketing.bucketRanges(weights: oldWeights))
        let newIndices = Self.variantIndices(Bucketing.bucketRanges(weights: newWeights))
        var previous: (pair: Int, start: Int)?
        for bucket in 0..<min(oldIndices.count, newIndices.count) {
            let (oldIndex, newIndex) = (oldIndices[bucket], newIndices[bucket])
            var pair: Int?
            if let last = lastVariants, last.old == oldIndex, last.new == newIndex {
                pair = last.pair
            } else {
                let from = old[oldIndex].variantId
                let to = new[newIndex].variantId
                if !ExactKey.same(from, to) {
                    let key = PairKey(from: ExactKey(from), to: ExactKey(to))
                    pair = pairIndex[key]
                    if pair == nil {
                        pairs.append((from, to, []))
                        pair = pairs.count - 1
                        pairIndex[key] = pair
                    }
                }
                lastVariants = (oldIndex, newIndex, pair)
            }
            if let open = previous, open.pair != pair {
                pairs[open.pair].ranges.append(open.start...bucket - 1)
                previous = nil
            }
            if let pair, previous == nil { previous = (pair, bucket) }
        }
        if let open = previous { pairs[open.pair].ranges.append(open.start...Bucketing.bucketCount - 1) }
        moves = pairs.map { Move(from: $0.from, to: $0.to, ranges: $0.ranges) }
    }

    /// Each bucket's variant, in bucket order, from the variants' ranges (`Bucketing.bucketRanges`,
    /// which give every bucket to exactly the variant `Bucketing.variantIndex(forBucket:weights:)`
    /// gives it): one pass, where asking `variantIndex` for each bucket walks the variants again
    /// each time. Empty when there are no variants.
    private static func variantIndices(_ ranges: [ClosedRange<Int>?]) -> [Int] {
        guard !ranges.isEmpty else { return [] }
        var indices = [Int](repeating: ranges.count - 1, count: Bucketing.bucketCount)
        for (variant, range) in ranges.enumerated() {
            guard let range else { continue }
            for bucket in range { indices[bucket] = variant }
        }
        return indices
    }

    /// A move's two variant ids, compared by their bytes.
    private struct PairKey: Hashable {
        let from: ExactKey
        let to: ExactKey
    }

    /// The number of buckets whose variant changes.
    public var movedBuckets: Int { moves.reduce(0) { $0 + $1.buckets } }

    /// The fraction of subscribers whose variant changes, in `0...1`.
    public var movedShare: Double { Double(movedBuckets) / Double(Bucketing.bucketCount) }

    /// The moved share as a percentage with at least one decimal (`49.0%`, `33.33%`).
    public var movedPercent: String { Self.percent(buckets: movedBuckets, minimumDecimals: 1) + "%" }

    /// `50/50 → 34/33/33`: each split's bucket shares in percent.
    public var splitText: String {
        Self.split(old) + " → " + Self.split(new)
    }

    /// `50/50 → 34/33/33 moves 49.0% of subscribers`.
    public var description: String {
        "\(splitText) moves \(movedPercent) of subscribers"
    }

    static func split(_ shares: [Share]) -> String {
        shares.map { percent(buckets: $0.buckets, minimumDecimals: 0) }.joined(separator: "/")
    }

    /// Buckets as a percentage of all buckets, exact (a bucket is 0.01%), without the sign.
    static func percent(buckets: Int, minimumDecimals: Int) -> String {
        let hundredths = buckets * 10_000 / Bucketing.bucketCount
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return minimumDecimals > 0 ? "\(whole).0" : "\(whole)" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
