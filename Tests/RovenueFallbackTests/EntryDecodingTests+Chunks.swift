import Foundation
import Testing
@testable import RovenueFallback

/// Entries decoded one after another by one decoder (`FallbackTopLevel.EntryDecoding`, as each
/// chunk of the parallel decode and of `check` does) are the records each entry makes decoded
/// alone, from a parse of its own whose string caches no decoder has used: nothing an entry
/// leaves in the decoder (array forms, duplicate fields, a failure, the string cache's strings,
/// texts and recent locale keys) reaches the next one in a way that changes its record.
@Suite("Entries decoded by one decoder")
struct ChunkDecodingTests {
    /// Entries that leave something behind in a decoder, in turn: array forms, repeated fields,
    /// a failure after an array form, repeated keys, escaped keys and copy the string cache keeps.
    static let entries: [String] = [
        #""forms":{"placement":["forms",1],"paywall":["p1","id1","Name",1,null,null,["o",true,[]]]}"#,
        #""plain":{"placement":{"identifier":"plain","revision":2}}"#,
        #""twice":{"placement":{"identifier":"a","identifier":"b","revision":3,"revision":4}}"#,
        #""fails":{"placement":["fails","one"],"paywall":["p2","id2","Name",1]}"#,
        #""copy":{"placement":{"identifier":"copy","revision":5},"funnel":{"id":"f","slug":"s","locales":["en","fr"],"#
            + #""pages":[{"id":"p","type":"welcome","title":{"en":"Same words in a long title","fr":"Mots"},"#
            + #""options":[{"label":{"en":"Yes","en":"Oui"},"value":"y"}],"next_rules":[]}]}}"#,
        #""copy2":{"placement":{"identifier":"copy2","revision":6},"funnel":{"id":"f","slug":"s","locales":["en","fr"],"#
            + #""pages":[{"id":"p","type":"welcome","title":{"de":"Same words in a long title","es":"Otras"}}]}}"#,
        #""forms":{"placement":{"identifier":"again","revision":7},"experiment":["e","k",[["v",1,null,["p3","id3","N",1]]]]}"#,
        #""skipped":[]"#,
        #""\u0070lain":{"placement":{"identifier":"escaped key","revision":8}}"#,
    ]

    static func text(_ members: [String]) -> String {
        #"{"formatVersion":1,"placements":{"# + members.joined(separator: ",") + "}}"
    }

    /// What a test compares of a record: everything it holds, spelled out.
    static func summary(_ record: EntryRecord, in document: JSONDocument) -> String {
        let forms = record.shapedArrayForms.map { "\($0.source.node):\($0.shape.rawValue):\($0.elementCount)" }
        let duplicates = record.duplicateFields.map { "\($0)" }
        let outcome = record.failure.map { "skipped \($0.source.node) \($0.expectation)" }
            ?? "loaded \(record.entry.map { "\($0.placement?.identifier ?? "-") \($0.placement?.revision ?? 0)" } ?? "")"
        let copy = record.entry?.funnel?.pages.map { page in
            "\(page.title.map { "\($0)" } ?? "-") \(page.options?.map { "\($0.label)" } ?? [])"
        } ?? []
        return [
            "key \(Array(record.key.utf8))", "refs \(record.keyRefs.map(\.node))", "earlier \(record.earlierKeyRefs.map(\.node))",
            "last \(record.lastKeyRef.node)", "count \(record.keyCount)", "value \(record.value.node)", outcome, "forms \(forms)",
            "duplicates \(duplicates)", "copy \(copy)",
        ].joined(separator: "\n")
    }

    /// The record of entry `index` of `text` decoded alone: from a parse of its own (node numbers
    /// are the same for the same text), so no decoder has filled its string caches before.
    static func aloneInFreshParse(_ text: String, _ index: Int) -> String {
        let fresh = FallbackTopLevel(text: text)
        return summary(fresh.decodeEntry(at: index), in: fresh.document)
    }

    /// Five orders of the entries (each rotation), decoded in turn by one decoder, give each
    /// entry's record as a decoder of its own makes it.
    @Test(arguments: [0, 1, 2, 3, 4])
    func oneDecoderInTurnMakesEachRecordAsAlone(rotation: Int) throws {
        let members = Array(Self.entries[rotation...] + Self.entries[..<rotation])
        let topLevel = FallbackTopLevel(text: Self.text(members))
        try #require(topLevel.rejection == nil)
        var decoding = FallbackTopLevel.EntryDecoding(topLevel)
        var sawForms = false
        var sawDuplicates = false
        var sawFailure = false
        let text = Self.text(members)
        for index in topLevel.entryHeads.indices {
            let inTurn = decoding.record(at: index)
            let alone = topLevel.decodeEntry(at: index)
            #expect(Self.summary(inTurn, in: topLevel.document) == Self.aloneInFreshParse(text, index))
            sawForms = sawForms || !alone.shapedArrayForms.isEmpty
            sawDuplicates = sawDuplicates || !alone.duplicateFields.isEmpty
            sawFailure = sawFailure || alone.failure != nil
        }
        // The sample leaves each kind of state behind, so a decoder that kept it would be caught.
        #expect(sawForms && sawDuplicates && sawFailure)
    }

    /// A whole-file load decodes its chunks with one decoder each: past one chunk
    /// (`decodeChunkSize` entries), its records are each entry's record decoded alone.
    @Test func aLoadOfManyChunksMakesEachRecordAsAlone() throws {
        let count = FallbackTopLevel.decodeChunkSize * 3 + 5
        let members = (0..<count).map { index in
            "\"k\(index)_" + Self.entries[index % Self.entries.count].dropFirst()
        }
        let text = Self.text(members)
        let topLevel = FallbackTopLevel(text: text)
        try #require(topLevel.rejection == nil)
        let file = FallbackFile(topLevel: topLevel)
        #expect(file.entries.count == topLevel.entryHeads.count)
        #expect(file.entries.count > FallbackTopLevel.decodeChunkSize * 2)
        for (index, record) in file.entries.enumerated() {
            #expect(Self.summary(record, in: topLevel.document) == Self.aloneInFreshParse(text, index))
        }
    }

    /// A record's occurrences: the last apart, the ones before it in text order, `keyRefs` all of them.
    @Test func aRecordKeepsItsLastOccurrenceApart() throws {
        let topLevel = FallbackTopLevel(text: #"{"formatVersion":1,"placements":{"a":1,"b":2,"\u0061":3,"a":{}}}"#)
        let file = FallbackFile(topLevel: topLevel)
        let a = try #require(file.entries.first)
        let b = try #require(file.entries.last)
        #expect(a.keyCount == 3)
        #expect(a.earlierKeyRefs.count == 2)
        #expect(a.keyRefs == a.earlierKeyRefs + [a.lastKeyRef])
        #expect(a.lastKeyRef.node + 1 == a.value.node)
        #expect(a.keyRefs == topLevel.entryHeads[0].keyRefs)
        #expect(b.keyCount == 1)
        #expect(b.earlierKeyRefs.isEmpty)
        #expect(b.keyRefs == [b.lastKeyRef])
    }
}

/// `ParallelChunks.mapIndices(context:_:)`: one context per chunk, handed to its indices in turn.
@Suite("Parallel results with a context per chunk")
struct ParallelChunkContextTests {
    final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
        var total: Int { lock.withLock { count } }
    }

    @Test(arguments: [(0, 1), (1, 1), (100, 1), (100, 7), (1000, 64), (1001, 3)])
    func eachChunkMakesOneContextAndUsesItInOrder(count: Int, size: Int) {
        let made = Made()
        let chunks = ParallelChunks(count: count, size: size)
        let results = chunks.mapIndices(context: { (id: made.next(), seen: [Int]()) }) { context, index in
            context.seen.append(index)
            return (index: index, context: context.id, seen: context.seen)
        }
        #expect(made.total == chunks.ranges.count)
        #expect(results.map(\.index) == Array(0..<count))
        for range in chunks.ranges {
            // One context for the whole range, which saw its indices in order up to each one.
            #expect(Set(range.map { results[$0].context }).count == 1)
            for index in range { #expect(results[index].seen == Array(range.lowerBound...index)) }
        }
        #expect(Set(results.map(\.context)).count == chunks.ranges.count)
    }
}
