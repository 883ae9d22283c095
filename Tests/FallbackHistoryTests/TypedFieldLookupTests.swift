import Foundation
import RovenueFallback
import Testing

@testable import FallbackHistory

// The typed pieces that replaced string field names outside the schema: the §2 top-level names,
// members written by a field, and a fingerprint that leaves out a field of either form.

@Suite("Fields named by the schema, not by strings")
struct TypedFieldLookupTests {
    @Test func theTopLevelNamesAreTheOnesTheLoaderReads() throws {
        let file = FallbackFile(text: #"{"formatVersion":1,"generatedAt":5,"placements":{},"projectId":"proj"}"#)
        #expect(file.rejection == nil)
        #expect(file.formatVersion?.pointer == "/" + TopLevelField.formatVersion.rawValue)
        #expect(file.placements?.pointer == "/" + TopLevelField.placements.rawValue)
        #expect(file.generatedAt?.pointer == "/" + TopLevelField.generatedAt.rawValue)
        #expect(file.projectId?.pointer == "/" + TopLevelField.projectId.rawValue)
        #expect(TopLevelField.allCases.filter(\.isReadByLoader) == [.formatVersion, .placements])
    }

    @Test func aMisspelledTopLevelNameIsNotRead() {
        // `formatversion` is not `formatVersion`: the SDK finds no version and throws (§2 rule 8).
        let file = FallbackFile(text: #"{"formatversion":1,"placements":{}}"#)
        #expect(file.rejection?.rule == .formatVersionMissing)
    }

    @Test func aMemberNamedByAFieldHasTheFieldsJSONName() {
        #expect(JSONValue.Member(Page.Field.defaultNext, "p2") == JSONValue.Member("default_next", "p2"))
        #expect(JSONValue.Member(Clause.Field.questionId, "q") == JSONValue.Member("question_id", "q"))
        #expect(JSONValue.Member(TopLevelField.formatVersion, 1) == JSONValue.Member("formatVersion", 1))
    }

    @Test("A fingerprint without a field leaves out the member of an object or the element of an array form", arguments: [
        (#"{"funnel":{"id":"f"},"placement":{"identifier":"a","revision":1}}"#, #"{"funnel":{"id":"f"}}"#),
        (#"{"placement":{"identifier":"a","revision":2},"funnel":{"id":"f"}}"#, #"{"funnel":{"id":"f"}}"#),
        (#"[{"identifier":"a","revision":1},null,null,{"id":"f"}]"#, #"[null,null,{"id":"f"}]"#),
        (#"[[ "a", 3 ]]"#, "[]"),
        (#""not an entry""#, #""not an entry""#),
    ])
    func fingerprintWithoutAField(_ text: String, without: String) {
        let value = JSONDocument(text: text).root
        let expected = ContentFingerprint.digest(of: JSONDocument(text: without).root)
        #expect(ContentFingerprint.digest(of: value, excluding: FallbackEntry.Field.placement) == expected)
    }

    @Test func theFingerprintLeavesOutTheFieldsOwnPosition() {
        // `paywall` is an entry's second field: in an array form, its element goes, not the first.
        let value = JSONDocument(text: #"[{"identifier":"a","revision":1},{"id":"pw"}]"#).root
        let expected = ContentFingerprint.digest(of: JSONDocument(text: #"[{"identifier":"a","revision":1}]"#).root)
        #expect(ContentFingerprint.digest(of: value, excluding: FallbackEntry.Field.paywall) == expected)
        #expect(ContentFingerprint.digest(of: value, excluding: FallbackEntry.Field.placement) != expected)
    }
}
