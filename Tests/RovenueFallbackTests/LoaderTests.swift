import Foundation
import Testing
@testable import RovenueFallback

/// fallback-format.md §2–§3 as the SDK loader API sees them (`FallbackStore`), and §5 offline resolution.
@Suite("§2–§5 loader and resolution")
struct LoaderTests {
    static func entry(_ identifier: String, revision: Int = 1, paywallId: String = "pw_1") -> String {
        #"{"placement":{"identifier":"# + quote(identifier) + #","revision":\#(revision)},"paywall":"#
            + Valid.paywall.with("id", quote(paywallId)).json + "}"
    }

    static let fileA = fileText(placements: "{" + #""a1":"# + entry("a1") + #","a2":"# + entry("a2") + "}")
    static let fileB = fileText(placements: "{" + #""b1":"# + entry("b1") + "}")

    // MARK: Count, replace on success, keep on failure

    @Test func loadReturnsTheNumberOfEntriesLoaded() throws {
        let store = FallbackStore()
        #expect(store.count == 0)
        #expect(try store.setFallbackPlacements(json: Self.fileA) == 2)
        #expect(store.count == 2)
    }

    @Test func aSuccessfulLoadReplacesTheWholeSet() throws {
        let store = FallbackStore()
        try store.setFallbackPlacements(json: Self.fileA)
        #expect(try store.setFallbackPlacements(json: Self.fileB) == 1)
        #expect(store.count == 1)
        #expect(store.entry(forPlacement: "a1") == nil)
        #expect(store.entry(forPlacement: "a2") == nil)
        #expect(store.entry(forPlacement: "b1") != nil)
    }

    static let failingFiles: [String] = [
        "",
        #"{"formatVersion":1,"placements":{"a1":{}}"#,
        "\u{FEFF}" + fileB,
        fileText(entry: nested(126)),
        fileText(entry: "[1e400]"),
        "[]",
        #"{"formatVersion":1,"formatVersion":1,"placements":{}}"#,
        #"{"placements":{}}"#,
        #"{"formatVersion":1,"placements":null}"#,
        #"{"formatVersion":2,"placements":{}}"#,
        #"[1,{},{}]"#,
    ]

    @Test(arguments: failingFiles)
    func aFailedLoadKeepsThePreviousSet(_ failing: String) throws {
        let store = FallbackStore()
        try store.setFallbackPlacements(json: Self.fileA)
        do {
            try store.setFallbackPlacements(json: failing)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(
                error.message.hasPrefix("fallback placements file is not valid JSON: ")
                    || error.message.hasPrefix("unsupported fallback placements formatVersion "))
        }
        #expect(store.count == 2)
        let resolution = try #require(store.resolve(placement: "a1", subscriberId: "rov_abcdefghijklmnopqrstuvwx"))
        #expect(resolution.paywall?.id == "pw_1")
        #expect(resolution.placement?.identifier == "a1")
    }

    @Test func aFailedLoadIntoAnEmptyStoreLeavesItEmpty() {
        let store = FallbackStore()
        #expect(throws: FallbackError.self) { try store.setFallbackPlacements(json: "null") }
        #expect(store.count == 0)
    }

    static let zeroEntryFiles = [
        #"{"formatVersion":1}"#,
        #"{"formatVersion":1,"placements":{}}"#,
        "[1]",
        // Every entry is skipped: still a successful load of 0 entries.
        #"{"formatVersion":1,"placements":{"a1":1,"a2":{"placement":{"identifier":"a2","revision":"1"}}}}"#,
    ]

    @Test(arguments: zeroEntryFiles)
    func aSuccessfulLoadOfZeroEntriesClears(_ empty: String) throws {
        let store = FallbackStore()
        try store.setFallbackPlacements(json: Self.fileA)
        #expect(try store.setFallbackPlacements(json: empty) == 0)
        #expect(store.count == 0)
        #expect(store.entry(forPlacement: "a1") == nil)
        #expect(store.resolve(placement: "a1", subscriberId: "rov_abcdefghijklmnopqrstuvwx") == nil)
    }

    @Test func skippedEntriesDoNotCountAndAreNotLoaded() throws {
        let text = fileText(placements: "{" + #""good":"# + Self.entry("good") + #","bad":{"placement":{"identifier":"bad"}}}"#)
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == 1)
        #expect(store.entry(forPlacement: "good") != nil)
        #expect(store.entry(forPlacement: "bad") == nil)
    }

    @Test func theErrorMessagesAreTheSDKs() throws {
        let store = FallbackStore()
        do {
            try store.setFallbackPlacements(json: #"{"formatVersion":2,"placements":{}}"#)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message == "unsupported fallback placements formatVersion 2 (expected 1)")
            #expect(error.rejection?.rule == .unsupportedFormatVersion)
        }
        do {
            try store.setFallbackPlacements(json: #"{"formatVersion":1,"placements":{}} x"#)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message.hasPrefix("fallback placements file is not valid JSON: "))
            #expect(error.message.hasSuffix(" at line 1 column 37"))
            #expect(error.rejection?.rule == .invalidJSON)
        }
    }

    @Test func fileURLLoaderReadsTheSameAndStripsABOM() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appending(path: "plain.json")
        let bom = directory.appending(path: "bom.json")
        let bad = directory.appending(path: "bad.json")
        try Data(Self.fileA.utf8).write(to: plain)
        try Data([0xEF, 0xBB, 0xBF] + Array(Self.fileB.utf8)).write(to: bom)
        try Data(#"{"formatVersion":"1"}"#.utf8).write(to: bad)

        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(fileURL: plain) == 2)
        #expect(try store.setFallbackPlacements(fileURL: bom) == 1)
        #expect(store.entry(forPlacement: "b1") != nil)
        do {
            try store.setFallbackPlacements(fileURL: bad)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message == #"unsupported fallback placements formatVersion "1" (expected 1)"#)
        }
        #expect(store.entry(forPlacement: "b1") != nil)
    }

    // MARK: §5 resolution

    /// Subscriber ids with the buckets the contract's vectors give them (bucketing-*.json).
    enum Known {
        /// bucket 641 for experiment key "paywall-summer"
        static let sub1 = (id: "sub_1", key: "paywall-summer", bucket: 641)
        /// bucket 75 for "flag-rollout-50"
        static let lowest = (id: "rollout_test_g", key: "flag-rollout-50", bucket: 75)
        /// bucket 9924 for "c"
        static let highest = (id: "user_short", key: "c", bucket: 9924)
        /// bucket 7655 for "onboarding-price-test"
        static let onboarding = (id: "ckvt3m8qc0000356mekq0v1x2", key: "onboarding-price-test", bucket: 7655)
        /// bucket 226 for "trial-length-v2"
        static let even226 = (id: "sub_5", key: "trial-length-v2", bucket: 226)
    }

    static func paywall(_ id: String) -> String { Valid.paywall.with("id", quote(id)).json }
    static func funnel(_ id: String) -> String { Valid.funnel.with("id", quote(id)).json }

    static func experiment(key: String, weights: [String]) -> String {
        let variants = weights.enumerated().map { index, weight in
            #"{"variantId":"v\#(index)","weight":"# + weight + #","paywall":"# + paywall("pw_v\(index)") + "}"
        }
        return #"{"id":"exp","key":"# + quote(key) + #","variants":["# + variants.joined(separator: ",") + "]}"
    }

    /// Loads one entry under the key `k` and resolves it for `subscriber`.
    static func resolve(entry: String, subscriber: String) throws -> OfflineResolution {
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: fileText(entry: entry)) == 1)
        return try #require(store.resolve(placement: "k", subscriberId: subscriber))
    }

    static let placementJSON = #"{"identifier":"k","revision":1}"#

    @Test func placementAbsentServesNothing() throws {
        for entry in [
            #"{"funnel":"# + Self.funnel("f") + "}",
            #"{"paywall":"# + Self.paywall("p") + "}",
            #"{"placement":null,"funnel":"# + Self.funnel("f") + #","paywall":"# + Self.paywall("p") + "}",
            #"{"experiment":"# + Self.experiment(key: Known.sub1.key, weights: ["1"]) + "}",
        ] {
            let resolution = try Self.resolve(entry: entry, subscriber: Known.sub1.id)
            #expect(resolution.funnel == nil)
            #expect(resolution.paywall == nil)
            #expect(resolution.draw == nil)
        }
    }

    @Test func funnelWinsOverPaywallWinsOverExperiment() throws {
        let experiment = Self.experiment(key: Known.sub1.key, weights: ["1"])
        let all = #"{"placement":"# + Self.placementJSON + #","funnel":"# + Self.funnel("f_direct") + #","paywall":"# + Self.paywall("p_direct") + #","experiment":"# + experiment + "}"
        let everything = try Self.resolve(entry: all, subscriber: Known.sub1.id)
        #expect(everything.funnel?.id == "f_direct")
        #expect(everything.paywall == nil)
        #expect(everything.draw == nil)

        let noFunnel = #"{"placement":"# + Self.placementJSON + #","paywall":"# + Self.paywall("p_direct") + #","experiment":"# + experiment + "}"
        let paywallWins = try Self.resolve(entry: noFunnel, subscriber: Known.sub1.id)
        #expect(paywallWins.paywall?.id == "p_direct")
        #expect(paywallWins.draw == nil)

        let funnelOverExperiment = #"{"placement":"# + Self.placementJSON + #","funnel":"# + Self.funnel("f_direct") + #","experiment":"# + experiment + "}"
        #expect(try Self.resolve(entry: funnelOverExperiment, subscriber: Known.sub1.id).funnel?.id == "f_direct")

        let onlyExperiment = #"{"placement":"# + Self.placementJSON + #","experiment":"# + experiment + "}"
        let drawn = try Self.resolve(entry: onlyExperiment, subscriber: Known.sub1.id)
        #expect(drawn.paywall?.id == "pw_v0")
        #expect(drawn.draw?.variantId == "v0")
    }

    @Test func noExperimentOrNoVariantsServesNothing() throws {
        for entry in [
            #"{"placement":"# + Self.placementJSON + "}",
            #"{"placement":"# + Self.placementJSON + #","experiment":null}"#,
            #"{"placement":"# + Self.placementJSON + #","experiment":{"id":"e","key":"k","variants":[]}}"#,
        ] {
            let resolution = try Self.resolve(entry: entry, subscriber: Known.sub1.id)
            #expect(resolution.funnel == nil)
            #expect(resolution.paywall == nil)
            #expect(resolution.draw == nil)
            #expect(resolution.placement?.identifier == "k")
        }
    }

    struct DrawCase: Sendable, CustomTestStringConvertible {
        let subscriber: String
        let key: String
        let bucket: Int
        let weights: [String]
        let variant: Int
        let why: String
        var testDescription: String { "\(why): bucket \(bucket), weights \(weights)" }
    }

    /// Each expectation follows from §5 step 4 by hand: pick the first variant with
    /// bucket < round(cum), cum += weight * 10000; else the last.
    static let draws: [DrawCase] = [
        DrawCase(subscriber: Known.sub1.id, key: Known.sub1.key, bucket: 641, weights: ["0.05", "0.95"], variant: 1, why: "641 >= 500"),
        DrawCase(subscriber: Known.sub1.id, key: Known.sub1.key, bucket: 641, weights: ["0.0642", "0.9358"], variant: 0, why: "641 < 642"),
        DrawCase(subscriber: Known.sub1.id, key: Known.sub1.key, bucket: 641, weights: ["0.0641", "0.9359"], variant: 1, why: "641 is not < 641"),
        DrawCase(subscriber: Known.sub1.id, key: Known.sub1.key, bucket: 641, weights: ["1"], variant: 0, why: "a single variant"),
        // Weights summing below 1 hand the rest to the last variant.
        DrawCase(subscriber: Known.onboarding.id, key: Known.onboarding.key, bucket: 7655, weights: ["0.3", "0.3"], variant: 1, why: "7655 >= 6000: the last"),
        DrawCase(subscriber: Known.onboarding.id, key: Known.onboarding.key, bucket: 7655, weights: ["0.1", "0.1", "0.1"], variant: 2, why: "7655 >= 3000: the last"),
        DrawCase(subscriber: Known.onboarding.id, key: Known.onboarding.key, bucket: 7655, weights: ["0", "0"], variant: 1, why: "all zero: the last"),
        DrawCase(subscriber: Known.sub1.id, key: Known.sub1.key, bucket: 641, weights: ["0.3", "0.3"], variant: 0, why: "641 < 3000"),
        // A weight of 0 gets no buckets.
        DrawCase(subscriber: Known.lowest.id, key: Known.lowest.key, bucket: 75, weights: ["0", "1"], variant: 1, why: "75 is not < 0"),
        DrawCase(subscriber: Known.onboarding.id, key: Known.onboarding.key, bucket: 7655, weights: ["0.5", "0", "0.5"], variant: 2, why: "7655 >= 5000, the zero is skipped"),
        DrawCase(subscriber: Known.lowest.id, key: Known.lowest.key, bucket: 75, weights: ["0.5", "0", "0.5"], variant: 0, why: "75 < 5000"),
        DrawCase(subscriber: Known.highest.id, key: Known.highest.key, bucket: 9924, weights: ["1", "0"], variant: 0, why: "9924 < 10000, the zero last gets none"),
        // Weights are fractions: 50 is not 50%, it takes every bucket.
        DrawCase(subscriber: Known.highest.id, key: Known.highest.key, bucket: 9924, weights: ["50", "50"], variant: 0, why: "percentages by mistake"),
        // round half away from zero: 0.02265 * 10000 == 226.5 exactly, rounds to 227 (half-even would give 226).
        DrawCase(subscriber: Known.even226.id, key: Known.even226.key, bucket: 226, weights: ["0.02265", "0.97735"], variant: 0, why: "226 < round(226.5) = 227"),
    ]

    @Test(arguments: draws)
    func variantDraw(_ draw: DrawCase) throws {
        let entry = #"{"placement":"# + Self.placementJSON + #","experiment":"# + Self.experiment(key: draw.key, weights: draw.weights) + "}"
        let resolution = try Self.resolve(entry: entry, subscriber: draw.subscriber)
        let drawn = try #require(resolution.draw)
        #expect(drawn.bucket == draw.bucket)
        #expect(drawn.experimentKey == draw.key)
        #expect(drawn.variantIndex == draw.variant)
        #expect(drawn.variantId == "v\(draw.variant)")
        // The served paywall is the chosen variant's.
        #expect(resolution.paywall?.id == "pw_v\(draw.variant)")
        #expect(resolution.servedFromFallback)
    }

    @Test func weightZeroNeverDrawnForAnyVectorSubscriber() throws {
        // Every subscriber of the parity vectors: [0.25, 0, 0.25, 0.5] never draws variant 1.
        let url = try #require(Bundle.module.url(forResource: "bucketing-parity-vectors.json", withExtension: nil, subdirectory: "Fixtures"))
        struct Vector: Decodable { let subscriberId: String; let seed: String; let bucket: Int }
        let vectors = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
        #expect(vectors.count == 32)
        for vector in vectors {
            let entry = #"{"placement":"# + Self.placementJSON + #","experiment":"# + Self.experiment(key: vector.seed, weights: ["0.25", "0", "0.25", "0.5"]) + "}"
            let drawn = try #require(try Self.resolve(entry: entry, subscriber: vector.subscriberId).draw)
            #expect(drawn.bucket == vector.bucket)
            let expected = vector.bucket < 2500 ? 0 : vector.bucket < 5000 ? 2 : 3
            #expect(drawn.variantIndex == expected, "\(vector.subscriberId):\(vector.seed) bucket \(vector.bucket)")
        }
    }

    @Test func theChosenVariantsFunnelIsServed() throws {
        let experiment = #"{"id":"exp","key":"# + quote(Known.sub1.key) + #","variants":[{"variantId":"a","weight":0.5,"funnel":"# + Self.funnel("f_a")
            + #"},{"variantId":"b","weight":0.5,"funnel":"# + Self.funnel("f_b") + "}]}"
        let entry = #"{"placement":"# + Self.placementJSON + #","experiment":"# + experiment + "}"
        let resolution = try Self.resolve(entry: entry, subscriber: Known.sub1.id)
        // 641 < 5000: the first variant.
        #expect(resolution.funnel?.id == "f_a")
        #expect(resolution.draw?.variantId == "a")
    }

    @Test func theSameSubscriberDrawsTheSameVariant() throws {
        let entry = #"{"placement":"# + Self.placementJSON + #","experiment":"# + Self.experiment(key: "exp_k", weights: ["0.5", "0.5"]) + "}"
        let first = try Self.resolve(entry: entry, subscriber: "rov_0123456789abcdefghijklmn")
        let second = try Self.resolve(entry: entry, subscriber: "rov_0123456789abcdefghijklmn")
        #expect(first.draw == second.draw)
        #expect(first.draw?.bucket == Bucketing.bucket(subscriberId: "rov_0123456789abcdefghijklmn", experimentKey: "exp_k"))
    }

    @Test func aKeyThatIsNotLoadedResolvesToNil() throws {
        let store = FallbackStore()
        #expect(store.resolve(placement: "a1", subscriberId: Known.sub1.id) == nil)
        try store.setFallbackPlacements(json: Self.fileA)
        #expect(store.resolve(placement: "a3", subscriberId: Known.sub1.id) == nil)
        #expect(store.resolve(placement: "A1", subscriberId: Known.sub1.id) == nil)
        #expect(store.resolve(placement: "", subscriberId: Known.sub1.id) == nil)
        #expect(store.resolve(placement: "a1", subscriberId: Known.sub1.id) != nil)
    }

    @Test func resolutionReportsTheEntrysOwnIdentifierNotTheKey() throws {
        let text = fileText(placements: #"{"home_screen":"# + Self.entry("settings_banner", revision: 4) + "}")
        let store = FallbackStore()
        try store.setFallbackPlacements(json: text)
        let resolution = try #require(store.resolve(placement: "home_screen", subscriberId: Known.sub1.id))
        #expect(resolution.placement?.identifier == "settings_banner")
        #expect(resolution.placement?.revision == 4)
        #expect(resolution.paywall != nil)
        #expect(store.resolve(placement: "settings_banner", subscriberId: Known.sub1.id) == nil)
    }

    @Test func theFixturesResolveEveryLoadedKey() throws {
        for name in ["funnel-era-fallback.json", "paywall-era-fallback.json"] {
            let bytes = try fixtureBytes(name)
            let store = FallbackStore()
            let count = try store.setFallbackPlacements(json: String(decoding: bytes, as: UTF8.self))
            let file = FallbackFile(bytes: bytes)
            #expect(count == file.loadedCount)
            for (key, entry) in file.loadedEntries {
                let resolution = try #require(store.resolve(placement: key, subscriberId: "rov_abcdefghijklmnopqrstuvwx"))
                #expect(resolution.placement?.identifier == entry.placement?.identifier)
            }
        }
    }
}
