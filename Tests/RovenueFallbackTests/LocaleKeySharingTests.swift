import Testing
@testable import RovenueFallback

/// Locale maps share the keys of the previous map only when their keys are written with the very
/// bytes of that map's keys (`EntryDecoder.localeMap`): after a map with an escaped or a repeated
/// key, the next map builds its own keys, and every map still reads as the SDK's map holds it.
@Suite("Locale key sharing")
struct LocaleKeySharingTests {
    /// The page's texts in field order, each as (keys, values).
    static func texts(_ fields: String) throws -> [([String], [String])] {
        let page = try DecodeFastPathTests.page(fields)
        return page.texts.map { entry in
            guard case .localized(let map) = entry.text else { return ([], []) }
            return (map.keys, map.values)
        }
    }

    /// Maps in sequences where sharing must not happen, or must happen again after a miss: after a
    /// repeat, after an escape, before an escape, with a key one byte longer, and back to the first keys.
    static let sequences: [(fields: String, expected: [([String], [String])])] = [
        (#""title":{"en":"1","de":"2","en":"3"},"subtitle":{"en":"4","de":"5"},"body":{"en":"6","de":"7"}"#,
         [(["en", "de"], ["3", "2"]), (["en", "de"], ["4", "5"]), (["en", "de"], ["6", "7"])]),
        (#""title":{"en":"1","d\u0065":"2"},"subtitle":{"en":"3","de":"4"},"body":{"en":"5","d\u0065":"6"}"#,
         [(["en", "de"], ["1", "2"]), (["en", "de"], ["3", "4"]), (["en", "de"], ["5", "6"])]),
        (#""title":{"en":"1","de":"2"},"subtitle":{"en":"3","dee":"4"},"body":{"en":"5","de":"6"},"cta":{"en":"7","de":"8"}"#,
         [(["en", "de"], ["1", "2"]), (["en", "dee"], ["3", "4"]), (["en", "de"], ["5", "6"]), (["en", "de"], ["7", "8"])]),
        (#""title":{"en":"1","de":"2"},"subtitle":{"de":"3","en":"4"},"body":{"en":"5"},"cta":{"en":"6","de":"7","fr":"8"}"#,
         [(["en", "de"], ["1", "2"]), (["de", "en"], ["3", "4"]), (["en"], ["5"]), (["en", "de", "fr"], ["6", "7", "8"])]),
    ]

    @Test(arguments: 0..<sequences.count)
    func eachMapReadsItsOwnKeysAndValues(_ which: Int) throws {
        let (fields, expected) = Self.sequences[which]
        let texts = try Self.texts(fields)
        #expect(texts.map(\.0) == expected.map(\.0))
        #expect(texts.map(\.1) == expected.map(\.1))
    }

    /// Entries decoded one after another on one thread share one keys array among their locale
    /// maps with the same keys, from entry to entry as within one: the last map's keys stay in the
    /// thread's `StringCache` (`RecentLocales`), not in each entry's decoder.
    @Test func entriesDecodedOneAfterAnotherShareTheirLocaleKeys() throws {
        func entry(_ key: String, _ title: String) -> String {
            #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},"funnel":{"id":"f","slug":"f","pages":[{"id":"p","type":"statement","title":{"en":"\#(title)","de":"x"}}]}}"#
        }
        let topLevel = FallbackTopLevel(text: #"{"formatVersion":1,"placements":{"# + entry("a", "1") + "," + entry("b", "2") + "}}")
        #expect(topLevel.rejection == nil)
        func titleKeys(_ record: EntryRecord) throws -> [String] {
            let title = try #require(record.entry?.funnel?.pages.first?.title)
            guard case .localized(let map) = title else {
                Issue.record("a plain title")
                return []
            }
            return map.keys
        }
        // The first record is held, so its keys' storage cannot be freed and reused for the second's.
        let first = topLevel.decodeEntry(at: 0)
        let second = topLevel.decodeEntry(at: 1)
        let (firstKeys, secondKeys) = (try titleKeys(first), try titleKeys(second))
        #expect(firstKeys == ["en", "de"] && secondKeys == ["en", "de"])
        #expect(firstKeys.withUnsafeBufferPointer { $0.baseAddress } == secondKeys.withUnsafeBufferPointer { $0.baseAddress })
    }
}
