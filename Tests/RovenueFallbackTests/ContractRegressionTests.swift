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
}
