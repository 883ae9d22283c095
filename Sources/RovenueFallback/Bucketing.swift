#if canImport(Glibc)
// `Double.rounded()` calls the C library's `round`; importing it links libm on Linux.
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How an offline device draws an experiment variant (format spec §5, step 4).
///
/// A subscriber's bucket depends only on the subscriber id and the experiment key, so
/// the same subscriber draws the same variant online and offline. Variants then split
/// the buckets by their weights, which are fractions of 1.
public enum Bucketing {
    /// The number of buckets subscribers are spread over.
    public static let bucketCount = 10_000

    /// The subscriber's bucket for an experiment, in `0..<bucketCount`: the first four
    /// bytes of SHA-256 of `"<subscriberId>:<experimentKey>"` (UTF-8), read as a
    /// big-endian `UInt32`, modulo `bucketCount`.
    public static func bucket(subscriberId: String, experimentKey: String) -> Int {
        let digest = SHA256Digest(of: "\(subscriberId):\(experimentKey)".utf8)
        return Int(digest.leadingWord % UInt32(bucketCount))
    }

    /// The index of the variant that receives `bucket`, or nil when there are no variants.
    ///
    /// Walks the variants in order, adding `weight * bucketCount` to a running total, and
    /// picks the first one with `bucket < total.rounded()` (half away from zero). When none
    /// qualifies, the last variant wins: weights summing below 1 hand the rest to it.
    public static func variantIndex(forBucket bucket: Int, weights: [Double]) -> Int? {
        guard !weights.isEmpty else { return nil }
        var total = 0.0
        for (index, weight) in weights.enumerated() {
            total += weight * Double(bucketCount)
            if Double(bucket) < total.rounded() {
                return index
            }
        }
        return weights.count - 1
    }

    /// The contiguous buckets each variant receives under
    /// ``variantIndex(forBucket:weights:)``, or nil for a variant that receives none.
    ///
    /// Any weights are accepted, including zero, negative and over-1 weights, and
    /// percentages written by mistake (`50` instead of `0.5`).
    public static func bucketRanges(weights: [Double]) -> [ClosedRange<Int>?] {
        let count = Double(bucketCount)
        var ranges: [ClosedRange<Int>?] = []
        ranges.reserveCapacity(weights.count)
        var total = 0.0
        // Every bucket below `taken` goes to an earlier variant.
        var taken = 0.0
        for (index, weight) in weights.enumerated() {
            total += weight * count
            let threshold = total.rounded()
            let end = index == weights.count - 1 ? count : min(threshold, count)
            ranges.append(taken < end ? Int(taken)...Int(end) - 1 : nil)
            if threshold > taken {
                taken = min(threshold, count)
            }
        }
        return ranges
    }

    /// The number of buckets each variant receives; the counts add up to `bucketCount`
    /// unless `weights` is empty.
    public static func shares(weights: [Double]) -> [Int] {
        bucketRanges(weights: weights).map { $0?.count ?? 0 }
    }
}
