import Foundation
import Testing
import RovenueFallback

/// The cross-language vectors of format spec §5, decoded from the copied fixtures.
enum BucketingFixtures {
    struct VariantCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Variant: Decodable, Sendable {
            let id: String
            let weight: Double
        }

        let subscriberId: String
        let seed: String
        let expectedBucket: Int
        let variants: [Variant]
        let expectedVariantId: String

        var testDescription: String { "\(subscriberId):\(seed)" }
    }

    struct ParityCase: Decodable, Sendable, CustomTestStringConvertible {
        let subscriberId: String
        let seed: String
        let bucket: Int

        var testDescription: String { "\(subscriberId):\(seed)" }
    }

    struct VariantFile: Decodable {
        let bucketCount: Int
        let cases: [VariantCase]
    }

    static func variantFile() throws -> VariantFile {
        try decode(VariantFile.self, from: "bucketing-vectors.json")
    }

    static func variantCases() throws -> [VariantCase] {
        try variantFile().cases
    }

    static func parityCases() throws -> [ParityCase] {
        try decode([ParityCase].self, from: "bucketing-parity-vectors.json")
    }

    private static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try JSONDecoder().decode(type, from: Data(contentsOf: url))
    }
}

struct BucketingTests {
    @Test func fixturesHoldAll44Vectors() throws {
        let file = try BucketingFixtures.variantFile()
        #expect(file.bucketCount == Bucketing.bucketCount)
        #expect(file.cases.count == 12)
        #expect(try BucketingFixtures.parityCases().count == 32)
    }

    @Test(arguments: try BucketingFixtures.variantCases())
    func variantVector(_ vector: BucketingFixtures.VariantCase) throws {
        let bucket = Bucketing.bucket(subscriberId: vector.subscriberId, experimentKey: vector.seed)
        #expect(bucket == vector.expectedBucket)
        let index = try #require(Bucketing.variantIndex(forBucket: bucket, weights: vector.variants.map(\.weight)))
        #expect(vector.variants[index].id == vector.expectedVariantId)
    }

    @Test(arguments: try BucketingFixtures.parityCases())
    func parityVector(_ vector: BucketingFixtures.ParityCase) {
        #expect(Bucketing.bucket(subscriberId: vector.subscriberId, experimentKey: vector.seed) == vector.bucket)
    }

    @Test func bucketReadsTheDigestPrefixBigEndian() {
        // sha256("sub_1:paywall-summer") begins 4e e0 6c 51: 1_323_330_641 % 10_000.
        #expect(SHA256Digest(of: "sub_1:paywall-summer".utf8).bytes.prefix(4) == [0x4e, 0xe0, 0x6c, 0x51])
        #expect(Bucketing.bucket(subscriberId: "sub_1", experimentKey: "paywall-summer") == 641)
    }

    @Test func onlyTheJoinedStringCounts() {
        #expect(Bucketing.bucket(subscriberId: "a:b", experimentKey: "c") == Bucketing.bucket(subscriberId: "a", experimentKey: "b:c"))
    }

    @Test func noVariantsMeansNoIndexAndNoRanges() {
        #expect(Bucketing.variantIndex(forBucket: 0, weights: []) == nil)
        #expect(Bucketing.bucketRanges(weights: []).isEmpty)
        #expect(Bucketing.shares(weights: []).isEmpty)
    }

    struct RangeCase: Sendable, CustomTestStringConvertible {
        let weights: [Double]
        let expected: [ClosedRange<Int>?]

        var testDescription: String { "\(weights)" }
    }

    static let rangeCases: [RangeCase] = [
        RangeCase(weights: [0.5, 0.5], expected: [0...4999, 5000...9999]),
        RangeCase(weights: [0.34, 0.33, 0.33], expected: [0...3399, 3400...6699, 6700...9999]),
        RangeCase(weights: [0.3333, 0.3333, 0.3333], expected: [0...3332, 3333...6665, 6666...9999]),
        RangeCase(weights: [1], expected: [0...9999]),
        RangeCase(weights: [0.01, 0.99], expected: [0...99, 100...9999]),
        RangeCase(weights: [0.25, 0.25, 0.25, 0.25], expected: [0...2499, 2500...4999, 5000...7499, 7500...9999]),
        // Sums below 1: the last variant takes the rest.
        RangeCase(weights: [0.2, 0.2], expected: [0...1999, 2000...9999]),
        // Percentages by mistake: the first variant takes everything.
        RangeCase(weights: [50, 50], expected: [0...9999, nil]),
        RangeCase(weights: [0, 1], expected: [nil, 0...9999]),
        RangeCase(weights: [1, 0], expected: [0...9999, nil]),
        RangeCase(weights: [-0.5, 1.5], expected: [nil, 0...9999]),
        // A falling total gives nothing to the variant whose threshold is already passed.
        RangeCase(weights: [0.3, 0.5, -0.5, 0.7], expected: [0...2999, 3000...7999, nil, 8000...9999]),
        // 0.00025 * 10000 == 2.5 rounds away from zero to 3.
        RangeCase(weights: [0.00025, 0.99975], expected: [0...2, 3...9999]),
        // Non-finite totals: -inf picks nothing, and NaN never compares true.
        RangeCase(weights: [-1e308, 1e308, 0.5], expected: [nil, nil, 0...9999]),
        RangeCase(weights: [1e308, -1e308, 0.5], expected: [0...9999, nil, nil]),
    ]

    @Test(arguments: rangeCases)
    func rangesMatchTheRuleForEveryBucket(_ rangeCase: RangeCase) {
        let ranges = Bucketing.bucketRanges(weights: rangeCase.weights)
        #expect(ranges == rangeCase.expected)

        var mismatches: [Int] = []
        for bucket in 0..<Bucketing.bucketCount {
            let owner = ranges.firstIndex { $0?.contains(bucket) ?? false }
            if owner != Bucketing.variantIndex(forBucket: bucket, weights: rangeCase.weights) {
                mismatches.append(bucket)
            }
        }
        #expect(mismatches.isEmpty, "first mismatching buckets: \(mismatches.prefix(5))")

        let shares = Bucketing.shares(weights: rangeCase.weights)
        #expect(shares == ranges.map { $0?.count ?? 0 })
        #expect(shares.reduce(0, +) == Bucketing.bucketCount)
    }
}
