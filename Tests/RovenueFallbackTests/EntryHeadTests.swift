import Testing
@testable import RovenueFallback

/// `FallbackTopLevel.entryHeads`: the distinct placement keys in order of first appearance, every
/// occurrence of each in text order, the value of the last, keys told apart by their exact bytes.
@Suite("Entry heads")
struct EntryHeadTests {
    @Test func repeatedKeysKeepFirstPlaceEveryOccurrenceAndLastValue() throws {
        // "b" three times (once escaped as \u0062: the same bytes), "a" twice, and "café" composed
        // and decomposed: two keys for the SDK, though Swift's `==` calls them equal.
        let text = #"{"formatVersion":1,"placements":{"b":1,"a":2,"\u0062":3,"caf\u00e9":4,"cafe\u0301":5,"a":6,"b":7}}"#
        let topLevel = FallbackTopLevel(text: text)
        #expect(topLevel.rejection == nil)
        let heads = topLevel.entryHeads
        #expect(heads.map { Array($0.key.utf8) } == [Array("b".utf8), Array("a".utf8), Array("caf\u{e9}".utf8), Array("cafe\u{301}".utf8)])
        let document = topLevel.document
        func written(_ ref: SourceRef) -> String { document.text(of: document.value(at: ref.node).byteRange) }
        #expect(heads.map { written($0.value) } == ["7", "6", "4", "5"])
        #expect(heads.map { $0.keyRefs.map(written) } == [[#""b""#, #""\u0062""#, #""b""#], [#""a""#, #""a""#], [#""caf\u00e9""#], [#""cafe\u0301""#]])
        // Each occurrence is a key node just before a value node, in text order.
        for head in heads {
            #expect(head.keyRefs.map(\.node) == head.keyRefs.map(\.node).sorted())
            #expect(head.keyRefs.last.map { $0.node + 1 } == head.value.node)
        }
        // The decoded entries carry the same occurrences.
        #expect(heads.indices.map { topLevel.decodeEntry(at: $0).keyRefs } == heads.map(\.keyRefs))
    }

    /// `entryIndex(forKey:)` finds a key by its exact bytes, and one entry decoded from it is the
    /// record a whole-file load makes for that key.
    @Test func oneEntryFoundByItsExactKeyIsTheWholeLoadsRecord() throws {
        let text = #"{"formatVersion":1,"placements":{"b":{"placement":{"identifier":"b","revision":1}},"a":[],"\u0062":{},"#
            + #""caf\u00e9":{"placement":{"identifier":"x","revision":-0}},"cafe\u0301":{},"a":{"paywall":7}}}"#
        let topLevel = FallbackTopLevel(text: text)
        let file = FallbackFile(topLevel: topLevel)
        #expect(topLevel.entryIndex(forKey: "b") == 0)
        #expect(topLevel.entryIndex(forKey: "a") == 1)
        #expect(topLevel.entryIndex(forKey: "caf\u{e9}") == 2)
        #expect(topLevel.entryIndex(forKey: "cafe\u{301}") == 3)
        #expect(topLevel.entryIndex(forKey: "B") == nil)
        #expect(topLevel.entryIndex(forKey: "") == nil)
        for (index, record) in file.entries.enumerated() {
            let found = try #require(topLevel.entryIndex(forKey: record.key))
            #expect(found == index)
            let alone = topLevel.decodeEntry(at: found)
            #expect(alone.keyRefs == record.keyRefs)
            #expect(alone.value == record.value)
            #expect(alone.failure == record.failure)
            #expect(alone.entry?.placement?.identifier == record.entry?.placement?.identifier)
        }
        // The last "a" has a paywall that is not an object, and "café" a revision of -0: both skipped.
        #expect(file.entries.map { $0.failure != nil } == [false, true, true, false])
        // A rejected file has no keys to find.
        #expect(FallbackTopLevel(text: #"{"formatVersion":2,"placements":{"a":{}}}"#).entryIndex(forKey: "a") == nil)
    }

    @Test func emptyAndBrokenPlacements() {
        #expect(FallbackTopLevel(text: #"{"formatVersion":1,"placements":{}}"#).entryHeads.isEmpty)
        #expect(FallbackTopLevel(text: #"{"formatVersion":1,"placements":[]}"#).entryHeads.isEmpty)
        // A text that breaks off inside `placements` is rejected: no heads.
        #expect(FallbackTopLevel(text: #"{"formatVersion":1,"placements":{"a":1,"b""#).entryHeads.isEmpty)
    }
}
