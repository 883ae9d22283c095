import Testing
@testable import RovenueFallback

/// Deviations from fallback-format.md found by the contract tests, one test per fix.
@Suite("Contract regressions")
struct ContractRegressionTests {
    /// §2 rule 7: "A top-level key `formatVersion` or `placements` appears twice" throws. The rejection
    /// is reported at the second key; computing that key's pointer read the previous value as if it
    /// were a key, which trapped when that value was a one-byte token such as `1`.
    @Test func rule7DuplicateKeyIsReportedWithoutCrashing() throws {
        let text = "{\n\"formatVersion\":1,\n\"formatVersion\":1,\n\"placements\":{}}"
        let rejection = try #require(FallbackFile(text: text).rejection)
        #expect(rejection.rule == .duplicateField)
        #expect(rejection.pointer == "/formatVersion")
        #expect(rejection.position.line == 3)

        let afterAString = try #require(FallbackFile(text: #"{"formatVersion":1,"placements":{},"x":"ab","placements":{}}"#).rejection)
        #expect(afterAString.rule == .duplicateField)
        #expect(afterAString.pointer == "/placements")
    }

    /// §3: "Duplicate keys: the last occurrence wins ... it counts once." Every occurrence is kept in
    /// `keyRefs`; each must locate to its own member, not to whatever precedes it.
    @Test func placementKeyOccurrencesLocateToTheirMember() throws {
        let text = #"{"formatVersion":1,"placements":{"a/b":{},"c":1,"a/b":{}}}"#
        let file = FallbackFile(text: text)
        let record = try #require(file.entries.first)
        #expect(record.keyRefs.count == 2)
        #expect(record.keyRefs.map { file.location(of: $0).pointer } == ["/placements/a~1b", "/placements/a~1b"])
        #expect(file.location(of: record.value).pointer == "/placements/a~1b")
    }

    /// §3: "Duplicate keys *inside* an entry also collapse to the last one." That holds for the maps
    /// of §4 too (a Text's or TextList's locales, a funnel's `paywalls`): an earlier value that the
    /// last one replaces is never decoded, so it cannot fail the entry.
    @Test(arguments: [
        (#"{"en":1,"en":"Hi"}"#, "title", true),
        (#"{"en":"Hi","en":1}"#, "title", false),
        (#"{"en":"a","en":["a"]}"#, "benefits", true),
        (#"{"en":["a"],"en":"a"}"#, "benefits", false),
    ])
    func localeMapDuplicatesCollapseToTheLast(_ map: String, _ field: String, _ loads: Bool) throws {
        let page = #"{"id":"p1","type":"welcome",""# + field + #"":"# + map + "}"
        let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"s","pages":["# + page + "]}}"
        let file = FallbackFile(text: #"{"formatVersion":1,"placements":{"k":"# + entry + "}}")
        let record = try #require(file.entries.first)
        #expect((record.entry != nil) == loads, "\(String(describing: record.failure))")
        if let failure = record.failure {
            #expect(file.location(of: failure.source).pointer == "/placements/k/funnel/pages/0/\(field)/en")
        }
    }

    @Test func funnelPaywallsMapDuplicatesCollapseToTheLast() throws {
        let paywall = #"{"id":"pw","identifier":"main","name":"Main","configFormatVersion":1}"#
        func file(_ paywalls: String) -> FallbackFile {
            let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"s","pages":[],"paywalls":"# + paywalls + "}}"
            return FallbackFile(text: #"{"formatVersion":1,"placements":{"k":"# + entry + "}}")
        }
        let lastValid = file(#"{"pw":null,"other":"# + paywall + #","pw":"# + paywall + "}")
        #expect(lastValid.loadedCount == 1)
        #expect(lastValid.loadedEntries.first?.entry.funnel?.paywalls?.keys == ["pw", "other"])
        let lastInvalid = file(#"{"pw":"# + paywall + #","pw":null}"#)
        #expect(lastInvalid.loadedCount == 0)
    }
}
