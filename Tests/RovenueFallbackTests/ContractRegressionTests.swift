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

    /// §3: the key is looked up "exact, case-sensitive", and the total counts "distinct keys". Swift's
    /// `String` equality is canonical equivalence, under which "é" (U+00E9) equals "e" + U+0301 and
    /// "K" equals the Kelvin sign U+212A; the SDK's maps compare the bytes, so those are four keys.
    @Test func placementKeysCompareExactlyNotByCanonicalEquivalence() throws {
        func entry(_ identifier: String) -> String { #"{"placement":{"identifier":""# + identifier + #"","revision":1}}"# }
        let text = #"{"formatVersion":1,"placements":{"\u00e9":"# + entry("nfc") + #","e\u0301":"# + entry("nfd") + #","K":"#
            + entry("k") + #","\u212a":"# + entry("kelvin") + "}}"
        let file = FallbackFile(text: text)
        #expect(file.entries.count == 4)
        #expect(file.loadedCount == 4)
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == 4)
        #expect(store.count == 4)
        #expect(store.entry(forPlacement: "\u{E9}")?.placement?.identifier == "nfc")
        #expect(store.entry(forPlacement: "e\u{301}")?.placement?.identifier == "nfd")
        #expect(store.entry(forPlacement: "K")?.placement?.identifier == "k")
        #expect(store.entry(forPlacement: "\u{212A}")?.placement?.identifier == "kelvin")
    }

    /// The same for the maps inside an entry: two keys that differ in their bytes are two members,
    /// each decoded, so an invalid one skips the entry whichever comes last.
    @Test func mapKeysInsideAnEntryCompareExactly() throws {
        let paywall = #"{"id":"pw","identifier":"main","name":"Main","configFormatVersion":1}"#
        func file(_ paywalls: String, title: String = #""t""#) -> FallbackFile {
            let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"s","pages":[{"id":"p","type":"welcome","title":"#
                + title + #"}],"paywalls":"# + paywalls + "}}"
            return FallbackFile(text: #"{"formatVersion":1,"placements":{"k":"# + entry + "}}")
        }
        #expect(file(#"{"\u00e9":1,"e\u0301":"# + paywall + "}").loadedCount == 0)
        let both = file(#"{"\u00e9":"# + paywall + #","e\u0301":"# + paywall + "}")
        #expect(both.loadedEntries.first?.entry.funnel?.paywalls?.count == 2)
        let title = file("{}", title: #"{"\u00e9":"a","e\u0301":"b"}"#).loadedEntries.first?.entry.funnel?.pages.first?.title
        guard case .localized(let map) = title else {
            Issue.record("expected a localized title, got \(String(describing: title))")
            return
        }
        #expect(map.count == 2)
        #expect(map["\u{E9}"] == "a")
        #expect(map["e\u{301}"] == "b")
    }
}
