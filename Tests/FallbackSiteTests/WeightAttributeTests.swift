import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The site's subscriber lookup draws with the SDK's weight (fallback-format.md §2.1), not with what
/// `JSON.parse` makes of the text: the experiment page carries that exact value in `data-weight`.
/// `Site/test/bucketing.test.js` draws with the same vectors' `siteWeights`.
@Suite("Experiment pages carry the SDK's weights")
struct WeightAttributeTests {
    struct Draw: Decodable, Sendable, CustomTestStringConvertible {
        let key: String
        let bucket: Int
        let weights: [String]
        let siteWeights: [String]
        var testDescription: String { weights.joined(separator: ", ") }
    }

    static let draws: [Draw] = {
        struct File: Decodable { let draws: [Draw] }
        let url = repositoryRoot.appendingPathComponent("Tests/RovenueFallbackTests/Fixtures/number-reading-vectors.json")
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url)).draws
    }()

    static func experimentFile(key: String, weights: [String], projectId: String = #""proj_1""#) -> String {
        let paywall = #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
        let variants = weights.enumerated().map { #"{"variantId":"v\#($0)","weight":\#($1),"paywall":\#(paywall)}"# }
        return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":\#(projectId),"placements":{"a":{"placement":{"identifier":"a","revision":1},"#
            + #""experiment":{"id":"exp","key":"\#(key)","variants":[\#(variants.joined(separator: ","))]}}}}"#
    }

    /// The `data-weight` attributes of the experiment page, in row order.
    static func dataWeights(_ files: [String: String]) throws -> [String] {
        let page = try #require(files.first { $0.key.hasPrefix("experiments/") }?.value)
        return page.matches(of: /data-weight="([^"]*)"/).map { String($0.output.1) }
    }

    @Test(arguments: draws)
    func dataWeightIsTheSDKsValue(_ draw: Draw) throws {
        let text = Self.experimentFile(key: draw.key, weights: draw.weights)
        let files = try site(for: Array(text.utf8))
        let attributes = try Self.dataWeights(files)
        #expect(attributes == draw.siteWeights)
        let loaded = try #require(FallbackFile(text: text).loadedEntries.first?.entry.experiment?.variants.map(\.weight))
        #expect(attributes.map { Double($0)?.bitPattern } == loaded.map(\.bitPattern))
        // The table still shows each weight as written.
        let page = try #require(files.first { $0.key.hasPrefix("experiments/") }?.value)
        for weight in draw.weights { #expect(page.contains(">\(weight)<")) }
    }

    @Test func aWeightWrittenWithTooManyDigitsDrawsAsTheSDKDoes() throws {
        let files = try site(for: Array(Self.experimentFile(key: "k", weights: ["0.00015000000000000001", "0.99985"]).utf8))
        #expect(try Self.dataWeights(files) == ["0.00015", "0.99985"])
        // The buckets column agrees: 0.00015 × 10,000 rounds to 1 bucket (0–0), not 2.
        let page = try #require(files.first { $0.key.hasPrefix("experiments/") }?.value)
        #expect(page.contains(#"<td data-label="Buckets"><bdi>0–0</bdi></td>"#), "the buckets cell (non-ASCII text is isolated in <bdi>)")
    }

    /// A lone surrogate in projectId loads (§2 rule 1): the site shows it as U+FFFD, in valid UTF-8.
    @Test func aLoneSurrogateInProjectIdShowsAsAReplacementCharacter() throws {
        let text = Self.experimentFile(key: "k", weights: ["0.5", "0.5"], projectId: #""proj_\ud800\udc00\ud800""#)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(
                name: "snapshot.json", bytes: Array(text.utf8), file: FallbackFile(text: text), findings: Audit().findings(in: FallbackFile(text: text))),
            baseline: nil, title: nil, referenceDate: nil)
        let raw = try SiteBuilder(model: model, theme: .builtIn).files()
        let files = raw.compactMapValues { String(validating: $0, as: UTF8.self) }
        #expect(files.count == raw.count, "every file is valid UTF-8")
        let index = try #require(files["index.html"])
        #expect(index.contains("proj_\u{10000}\u{FFFD}"))
        #expect(index.contains("the SDK loads 1 of 1 entry"))
    }
}
