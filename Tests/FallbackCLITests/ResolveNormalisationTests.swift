import Foundation
import Testing

/// `resolve` finds a placement by its exact bytes, as the SDK's map does: keys that differ only by
/// Unicode normalisation are two placements.
@Suite("resolve compares keys by bytes")
struct ResolveNormalisationTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// The decomposed key comes first, so a lookup by canonical equivalence finds it for either spelling.
    static let snapshot = """
        {"formatVersion":1,"placements":{
        "cafe\\u0301":{"placement":{"identifier":"cafe\\u0301","revision":2},"funnel":{"id":"fnl_second","slug":"second","pages":[]}},
        "caf\\u00e9":{"placement":{"identifier":"caf\\u00e9","revision":1},"funnel":{"id":"fnl_first","slug":"first","pages":[]}}
        }}
        """

    @Test(arguments: [(composed, "fnl_first"), (decomposed, "fnl_second")])
    func eachSpellingResolvesItsOwnPlacement(key: String, funnel: String) throws {
        let result = run(["resolve", "s.json", key, "--format", "json"], files: ["s.json": Self.snapshot])
        #expect(result.status == 0)
        let report = try jsonObject(result.output)
        #expect((report["funnel"] as? [String: Any])?["id"] as? String == funnel)
        let placement = try #require(report["placement"] as? String)
        #expect(Array(placement.utf8) == Array(key.utf8))
        let identifier = try #require(report["identifier"] as? String)
        #expect(Array(identifier.utf8) == Array(key.utf8))
    }

    @Test func aSpellingThatIsNotInTheFileIsNotFound() {
        let only = """
            {"formatVersion":1,"placements":{"cafe\\u0301":{"placement":{"identifier":"cafe\\u0301","revision":2},"funnel":{"id":"f","slug":"f","pages":[]}}}}
            """
        let result = run(["resolve", "s.json", Self.composed], files: ["s.json": only])
        #expect(result.status == 1)
        #expect(result.error.contains("no placement"))
    }

    @Test func onlyTheDrawnVariantIsMarked() {
        let experiment = """
            {"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"experiment":{"id":"e","key":"k","variants":[
            {"variantId":"\\u00e9","weight":0.5,"paywall":{"id":"a","identifier":"a","name":"A","configFormatVersion":1}},{"variantId":"e\\u0301","weight":0.5,"paywall":{"id":"b","identifier":"b","name":"B","configFormatVersion":1}}]}}}}
            """
        let result = run(["resolve", "s.json", "p"], files: ["s.json": experiment])
        #expect(result.status == 0)
        #expect(result.output.components(separatedBy: "← drawn").count == 2, "\(result.output)")
    }

    @Test func anIdentifierThatDiffersFromTheKeyOnlyByNormalisationIsReported() {
        let differing = """
            {"formatVersion":1,"placements":{"caf\\u00e9":{"placement":{"identifier":"cafe\\u0301","revision":2},"funnel":{"id":"f","slug":"f","pages":[]}}}}
            """
        let result = run(["resolve", "s.json", Self.composed], files: ["s.json": differing])
        #expect(result.status == 0)
        #expect(result.output.contains("reported as"))
    }
}
