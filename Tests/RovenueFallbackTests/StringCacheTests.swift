import Foundation
import Testing
@testable import FallbackSample
@testable import RovenueFallback

/// The decoder's string cache (`JSONDocument.StringCache`, issue 10): a string node written without
/// escapes gets the string made before from the same bytes. Whatever the cache holds, evicts or
/// compares, the string must be exactly what `String(decoding:as:)` makes of the node's bytes.
@Suite("String cache")
struct StringCacheTests {
    /// The reference: the node's bytes made into a string with no cache.
    static func reference(_ document: JSONDocument, _ index: Int) -> [UInt8] {
        let node = document.storage.nodes[index]
        return Array(String(decoding: document.storage.bytes[(Int(node.start) + 1)..<(Int(node.end) - 1)], as: UTF8.self).utf8)
    }

    /// Every string node without escapes of `document`, keys and values, in text order.
    static func plainStringNodes(_ document: JSONDocument) -> [Int] {
        let nodes = document.storage.nodes
        return nodes.indices.filter { nodes[$0].kind == .string && nodes[$0].flags & JSONDocument.hasEscapes == 0 }
    }

    /// Reads every plain string node twice (so the second pass reads what the first remembered)
    /// through caches of one slot, two slots (evictions on nearly every string) and the default.
    static func expectCacheAgrees(_ document: JSONDocument, _ name: String) {
        let strings = plainStringNodes(document)
        for slotCount in [1, 2, JSONDocument.StringCache.defaultSlotCount] {
            let cache = JSONDocument.StringCache(slotCount: slotCount)
            document.storage.bytes.withUnsafeBufferPointer { text in
                for _ in 0..<2 {
                    for index in strings {
                        let node = document.storage.nodes[index]
                        let made = cache.string(Int(node.start) + 1, Int(node.end) - 1, in: text)
                        let expected = reference(document, index)
                        guard Array(made.utf8) == expected else {
                            Issue.record("\(name), node \(index), \(slotCount) slots: \(made.debugDescription) is not \(String(decoding: expected, as: UTF8.self).debugDescription)")
                            return
                        }
                    }
                }
            }
        }
    }

    @Test(arguments: StageTwoParserTests.files)
    func everyPlainStringOfAFile(_ path: String) throws {
        let document = JSONDocument(bytes: try StructuralIndexTests.bytes(ofFile: path))
        guard document.syntaxError == nil else { return }
        Self.expectCacheAgrees(document, path)
    }

    @Test func everyPlainStringOfASampleExport() {
        let document = JSONDocument(text: SampleExport(placementCount: 60, seed: 3).jsonText())
        #expect(document.syntaxError == nil)
        #expect(Self.plainStringNodes(document).count > 10_000)
        Self.expectCacheAgrees(document, "sample export")
    }

    /// Strings that share a slot's whole key (length and first 16 bytes) but differ after, strings
    /// around the 15-byte small-string and 16-byte packing limits, multi-byte characters across
    /// byte 16, the empty string, and a string ending at the text's very end (fewer than 16 bytes
    /// after its start: the packing reads byte by byte there).
    static let tricky: [String] = [
        "", "a", "fifteen bytes!!", "sixteen bytes!!!", "seventeen bytes!!",
        "same sixteen pfx-tail one", "same sixteen pfx-tail two", "same sixteen pfx-tail one",
        "same sixteen pfx", "same sixteen pfx-", "same sixteen pfx-tail",
        "fifteen bytes!é", "fifteen bytes!!é", "日本語のテキスト", "日本語のテキスト!", "😀 emoji 🇩🇪 and more text",
        "e\u{301} combining", "Ω\u{2126}", "café", "cafe\u{301}",
    ]

    @Test(arguments: [1, 2, 1024])
    func trickyStringsInOneDocument(_ slotCount: Int) throws {
        // The last string ends two bytes before the end of the text: `"x"]`.
        let text = "[" + (Self.tricky + Self.tricky.reversed() + ["x"]).map { JSONValue.quoted($0) }.joined(separator: ",") + "]"
        let document = JSONDocument(text: text)
        try #require(document.syntaxError == nil)
        let cache = JSONDocument.StringCache(slotCount: slotCount)
        let expected = Self.tricky + Self.tricky.reversed() + ["x"]
        let nodes = Self.plainStringNodes(document)
        try #require(nodes.count == expected.count)
        document.storage.bytes.withUnsafeBufferPointer { bytes in
            for (index, want) in zip(nodes, expected) {
                let node = document.storage.nodes[index]
                let made = cache.string(Int(node.start) + 1, Int(node.end) - 1, in: bytes)
                #expect(Array(made.utf8) == Array(want.utf8), "\(want.debugDescription) with \(slotCount) slots")
            }
        }
    }

    /// The decoder's path as a whole, escapes and lone surrogates included (those bypass the cache):
    /// what the document decodes, and for valid text what Foundation reads.
    @Test func theDecoderReadsEveryStringAsTheDocumentDoes() throws {
        let literals = DecodeFastPathTests.literals + [#""\ud800 lone""#, #""\udc00""#, #""x\ud83d""#] + Self.tricky.map(JSONValue.quoted)
        let document = JSONDocument(bytes: Array(("[" + (literals + literals).joined(separator: ",") + "]").utf8), acceptingLoneSurrogates: true)
        try #require(document.syntaxError == nil)
        let decoder = EntryDecoder(document: document)
        var child = 1
        for literal in literals + literals {
            let made = decoder.decodedString(child)
            #expect(Array(made.utf8) == Array(document.decodeString(at: child).utf8), "\(literal)")
            if let foundation = try? DecodeFastPathTests.foundationReading(literal), !literal.contains(#"\ud8"#), !literal.contains(#"\udc"#) {
                #expect(Array(made.utf8) == Array(foundation.utf8), "\(literal)")
            }
            child = Int(document.storage.nodes[child].next)
        }
    }

    /// A repeated string longer than a small string is made once: the model shares its storage.
    @Test func aRepeatedLongStringIsMadeOnce() {
        let long = "Let's build your plan together, step by step"
        let document = JSONDocument(text: "[\(JSONValue.quoted(long)), 1, \(JSONValue.quoted(long))]")
        let cache = JSONDocument.StringCache()
        let (first, second) = document.storage.bytes.withUnsafeBufferPointer { bytes in
            let nodes = document.storage.nodes
            return (
                cache.string(Int(nodes[1].start) + 1, Int(nodes[1].end) - 1, in: bytes),
                cache.string(Int(nodes[3].start) + 1, Int(nodes[3].end) - 1, in: bytes))
        }
        #expect(first == long && second == long)
        let firstStorage = first.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let secondStorage = second.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        #expect(firstStorage != nil && firstStorage == secondStorage)
    }

    /// A lease's cache goes back to the document's pool when the lease is gone; two leases held
    /// at once never share a cache.
    @Test func leasesShareNoCacheAtOnce() {
        let pool = JSONDocument.StringCachePool()
        var first: JSONDocument.StringCacheLease? = pool.lease()
        let second = pool.lease()
        let firstCache = first.map { ObjectIdentifier($0.cache) }
        #expect(firstCache != ObjectIdentifier(second.cache))
        first = nil
        let third = pool.lease()
        #expect(ObjectIdentifier(third.cache) == firstCache)
    }

    /// A table grows (fourfold, emptied) each time it has missed twice as often as it has slots,
    /// never past its most, and finds what it was given since it last grew. Every string of a
    /// sample export, read twice through a table that starts with one slot, is what its bytes make.
    @Test func aTableGrowsToItsMostAndStillFindsEachString() {
        let document = JSONDocument(text: SampleExport(placementCount: 20, seed: 5).jsonText())
        let strings = Self.plainStringNodes(document)
        let table = JSONDocument.BytesTable<String>(slotCount: 1, growingTo: 16)
        var sizes: [Int] = [table.slotCount]
        var found = 0
        document.storage.bytes.withUnsafeBufferPointer { text in
            for _ in 0..<2 {
                for index in strings {
                    let node = document.storage.nodes[index]
                    let probe = table.probe(Int(node.start) + 1, Int(node.end) - 1, in: text)
                    let expected = Self.reference(document, index)
                    if let remembered = probe.value {
                        found += 1
                        #expect(Array(remembered.utf8) == expected, "node \(index)")
                    } else {
                        table.store(String(decoding: expected, as: UTF8.self), at: probe)
                    }
                    if table.slotCount != sizes.last { sizes.append(table.slotCount) }
                }
            }
        }
        #expect(sizes == [1, 4, 16])
        #expect(found > strings.count / 8)
        // The decoders' caches start small.
        #expect(JSONDocument.StringCache().texts.slotCount == JSONDocument.StringCache.initialSlotCount)
    }

    /// A text or text list as bytes: its strings (and keys) exactly, so `==`'s canonical
    /// equivalence cannot hide a wrong string.
    static func bytes(of text: LocalizedText) -> [[UInt8]] {
        switch text {
        case .plain(let string): [[0], Array(string.utf8)]
        case .localized(let map): [[1]] + zip(map.keys, map.values).flatMap { [Array($0.utf8), Array($1.utf8)] }
        }
    }

    static func bytes(of list: LocalizedTextList) -> [[UInt8]] {
        switch list {
        case .plain(let strings): [[0]] + strings.map { Array($0.utf8) }
        case .localized(let map): [[1]] + zip(map.keys, map.values).flatMap { [Array($0.utf8), [2]] + $1.map { Array($0.utf8) } }
        }
    }

    /// Texts and lists whose objects have the same length and first 16 bytes (the same slot of
    /// `StringCache.texts` and `textLists`) but differ after, repeats, repeated keys and escapes:
    /// read one after another by one decoder, each is what a decoder that never saw another makes.
    static let texts: [String] = [
        #"{"en":"Same sixteen bytes, one","de":"x"}"#, #"{"en":"Same sixteen bytes, two","de":"x"}"#,
        #"{"en":"Same sixteen bytes, one","de":"x"}"#, #"{"en":"Same sixteen bytes, one","de":"y"}"#,
        #"{"en":"a","en":"b"}"#, #"{"en":"a","en":"c"}"#, #"{"en":"a","de":"b"}"#, #"{"de":"a","en":"b"}"#,
        #"{"en":"\u0041 escaped"}"#, #"{"en":"\u0042 escaped"}"#, #"{"e\u006e":"key"}"#, #"{"en":"key"}"#,
        #""plain""#, #"{}"#, #"{"en":"Same sixteen bytes, one","de":"x"}"#,
    ]
    static let lists: [String] = [
        #"["Same sixteen bytes", "one"]"#, #"["Same sixteen bytes", "two"]"#, #"["Same sixteen bytes", "one"]"#,
        #"{"en":["Same sixteen", "one"]}"#, #"{"en":["Same sixteen", "two"]}"#, #"{"en":["a"],"en":["b"]}"#,
        #"{"en":["a"],"en":["c"]}"#, #"[]"#, #"{}"#, #"["\u0041"]"#, #"["\u0042"]"#, #"["Same sixteen bytes", "one"]"#,
    ]

    /// Reads each of `literals`, written one after another in one array, with one decoder, and
    /// expects what a decoder of a document holding only that literal reads.
    static func expectEachReadAsAlone(_ literals: [String], _ read: (inout EntryDecoder, Int) throws -> [[UInt8]]) throws {
        let document = JSONDocument(text: "[" + literals.joined(separator: ",") + "]")
        try #require(document.syntaxError == nil)
        var decoder = EntryDecoder(document: document)
        var child = 1
        for literal in literals {
            var alone = EntryDecoder(document: JSONDocument(text: literal))
            #expect(try read(&decoder, child) == read(&alone, 0), "\(literal)")
            child = Int(document.storage.nodes[child].next)
        }
    }

    @Test func aTextIsWhatItsBytesMake() throws {
        try Self.expectEachReadAsAlone(Self.texts) { decoder, index in Self.bytes(of: try decoder.text(index)) }
    }

    @Test func aTextListIsWhatItsBytesMake() throws {
        try Self.expectEachReadAsAlone(Self.lists) { decoder, index in Self.bytes(of: try decoder.textList(index)) }
    }

    /// A text that fails to decode is not remembered: the same bytes fail again.
    @Test func aFailedTextFailsAgain() throws {
        let literal = #"{"en":"Same sixteen bytes","de":5}"#
        let document = JSONDocument(text: "[\(literal),\(literal)]")
        try #require(document.syntaxError == nil)
        var decoder = EntryDecoder(document: document)
        #expect(throws: DecodeFailure.self) { try decoder.text(1) }
        #expect(throws: DecodeFailure.self) { try decoder.text(Int(document.storage.nodes[1].next)) }
    }

    /// Every string, number and flag of a decoded value, in declaration order, by reflection (the
    /// `JSONDocument.Value`s kept as written are left out: they are nodes, not made strings).
    static func leaves(_ value: Any) -> [String] {
        if value is JSONDocument.Value { return [] }
        if let string = value as? String { return [string.debugDescription + String(describing: Array(string.utf8))] }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty { return [String(describing: value)] }
        return mirror.children.flatMap { [($0.label ?? "-")] + leaves($0.value) }
    }

    /// The decoded model of a sample is the same whether each entry's decoder starts with an empty
    /// cache or with what earlier entries left.
    @Test func theModelIsTheSameWithAWarmCache() {
        let text = SampleExport(placementCount: 30, seed: 11).jsonText()
        let file = FallbackFile(text: text)
        let document = JSONDocument(text: text)
        // Warm the cache the pool hands out next, then decode each entry again with it.
        do {
            let warm = EntryDecoder(document: document)
            for index in Self.plainStringNodes(document) { _ = warm.decodedString(index) }
        }
        var compared = 0
        for record in file.entries {
            guard let entry = record.entry else { continue }
            var decoder = EntryDecoder(document: document)
            guard let again = try? decoder.entry(record.value.node) else {
                Issue.record("\(record.key) does not decode again")
                continue
            }
            #expect(Self.leaves(again) == Self.leaves(entry), "\(record.key)")
            compared += 1
        }
        #expect(compared > 20)
    }
}
