@testable import FallbackAudit
import Foundation
@testable import RovenueFallback
import Testing

/// The audit's byte-level fast paths answer exactly what their reference answers, on every string
/// and key of every corpus file (`ChunkedAuditTests.files`) and on hostile inputs:
/// - `PlainCopy.isLanguageNeutral` (ASCII bytes) and `referenceIsLanguageNeutral` (characters);
/// - the media scan's verdict on a string's bytes (`MediaScan.isMediaURL(_:start:length:isMedia:)`),
///   where it gives one, and on the decoded text;
/// - the media scan's key flags from the bytes (`keyFlags`) and from the decoded key;
/// - `DeclaredLocales`' gaps of a text and the gaps found declaration by declaration.
@Suite("audit fast paths: the same answers as their references")
struct AuditFastPathTests {
    /// Strings that probe each fast path's edges: combining marks and prepended marks next to
    /// ASCII, escapes in the first nine bytes, blank and near-blank text, prefixes cut short, case.
    static let hostileStrings: [String] = [
        "", " ", "\t", "\n", "\r\n", "a", "Z", "1", "@", "[", "`", "{", "\u{7F}", "12:30", "★", "😀", "é", "e\u{301}",
        "\u{301}a", "\u{0600}a", "1\u{0600}a", "\u{0600}", "Ǆ", "\u{00A0}", "\u{00A0}x", "\u{2028}", " a", "x\u{200D}y",
        "http://", "http://x", "HTTP://X", "hTtPs://a", "https://", "https:/", "http:/\u{301}/x", "https:/\u{301}/x",
        "http://\u{301}", "https://\u{301}", "http:\\/\\/x", "http\\u003a//x", "h", "ht", "htt", "http", "https",
        "data:", "DATA:x", "data:\u{301}", "data", "dat\u{301}a:", " data:", "\u{0301}http://x", "ｈttp://x",
        "http://x\u{301}", "https://exämple.com", "\u{FEFF}https://x", "\t\u{0600}", "  ", "\u{3000}", "x y",
        String(repeating: "a", count: 100), String(repeating: " ", count: 9) + "x", "0123456789\u{301}",
    ]

    /// Every string node's decoded text in `document`.
    static func strings(in document: JSONDocument) -> [(node: Int, text: String)] {
        let nodes = document.storage.nodes
        return nodes.indices.compactMap { index in
            nodes[index].kind == .string ? (index, document.decodeString(at: index)) : nil
        }
    }

    /// Every key node of `document`.
    static func keys(in document: JSONDocument) -> [Int] {
        let nodes = document.storage.nodes
        return nodes.indices.filter { nodes[$0].kind == .string && nodes[$0].flags & JSONDocument.isKey != 0 }
    }

    static func corpusDocuments() throws -> [(path: String, document: JSONDocument)] {
        try ChunkedAuditTests.files.map { path in
            let bytes = [UInt8](try Data(contentsOf: ChunkedAuditTests.packageRoot.appendingPathComponent(path)))
            return (path, JSONDocument(bytes: bytes, acceptingLoneSurrogates: true))
        }
    }

    /// A document holding `texts` as an array of strings and as the keys of one object each.
    static func hostileDocument(_ texts: [String]) -> JSONDocument {
        let quoted = texts.map { JSONValue.quoted($0) }
        // Raw escapes too: the strings as written with `\/` and `\u` escapes.
        let raw = [#""http:\/\/x""#, #""\u0068ttp://x""#, #""https:\/\/x""#, #""\u0075rl""#, #""image\u0055rl""#, #""dat\u0061:x""#]
        let members = (quoted + raw).enumerated().map { "{\($0.element): \($0.offset)}" }
        return JSONDocument(text: "[" + (quoted + raw + members).joined(separator: ",") + "]")
    }

    @Test func languageNeutralAgreesWithCharacters() throws {
        var checked = 0
        for (path, document) in try Self.corpusDocuments() {
            for (_, text) in Self.strings(in: document) {
                #expect(PlainCopy.isLanguageNeutral(text) == PlainCopy.referenceIsLanguageNeutral(text), "\(path): \(text.debugDescription)")
                checked += 1
            }
        }
        for text in Self.hostileStrings + Self.hostileStrings.map({ "12 " + $0 }) + Self.hostileStrings.map({ $0 + "x" }) {
            #expect(PlainCopy.isLanguageNeutral(text) == PlainCopy.referenceIsLanguageNeutral(text), "\(text.debugDescription)")
        }
        #expect(checked > 10_000)
    }

    /// The media URL verdict read from the bytes, where it gives one, is the decoded text's.
    @Test func mediaURLBytesAgreeWithText() throws {
        var decided = 0
        var checked = 0
        let documents = try Self.corpusDocuments().map(\.document) + [Self.hostileDocument(Self.hostileStrings)]
        for document in documents {
            document.bytes.withUnsafeBufferPointer { buffer in
                for (node, text) in Self.strings(in: document) {
                    let token = document.byteRange(ofNode: node)
                    for isMedia in [false, true] {
                        let read = MediaScan.isMediaURL(buffer, start: token.lowerBound + 1, length: token.count - 2, isMedia: isMedia)
                        checked += 1
                        guard let read else { continue }
                        decided += 1
                        #expect(read == MediaScan.isMediaURL(text, isMedia: isMedia), "\(text.debugDescription) isMedia \(isMedia)")
                    }
                }
            }
        }
        #expect(decided > checked / 2)
    }

    /// Hostile strings the bytes must leave to the decoded text.
    @Test(arguments: ["http:/\u{301}/x", "https:/\u{301}/x", "http://\u{301}", "data:\u{301}", " x", "\tx", "é", #"http:\/\/x"#])
    func undecidedOnBytes(_ text: String) {
        let bytes = Array(text.utf8)
        let read = bytes.withUnsafeBufferPointer { MediaScan.isMediaURL($0, start: 0, length: bytes.count, isMedia: true) }
        #expect(read == nil)
    }

    @Test func keyFlagsAgreeWithDecodedKeys() throws {
        var known = 0
        let knownKeys = AuditRun.linkKeys.union(AuditRun.copyKeys).union(AuditRun.mediaKeys).sorted()
        // Each known key as written, changed in one byte, cut short, lengthened, in upper case.
        var variants = knownKeys
        for key in knownKeys {
            let bytes = Array(key.utf8)
            for offset in bytes.indices {
                var changed = bytes
                changed[offset] ^= 0x01
                variants.append(String(decoding: changed, as: UTF8.self))
            }
            variants += [String(key.dropLast()), key + "x", "x" + key, key.uppercased(), key + "\u{301}", "é" + key]
        }
        let documents = try Self.corpusDocuments().map(\.document) + [Self.hostileDocument(variants + Self.hostileStrings)]
            + variants.prefix(40).map { JSONDocument(text: "{\(JSONValue.quoted($0)):1}") }
            + [JSONDocument(text: "{" + knownKeys.map { "\(Self.escapingFirstLetter($0)):1" }.joined(separator: ",") + "}")]
        for document in documents {
            let scan = MediaScan(document: document)
            for node in Self.keys(in: document) {
                let key = document.decodeString(at: node)
                let expected = MediaScan.referenceKeyFlags(key)
                #expect(scan.keyFlags(node) == expected, "\(key.debugDescription)")
                if expected != 0 { known += 1 }
            }
        }
        // Each known key as written, once in the hostile document and once escaped, at least.
        #expect(known > knownKeys.count * 3)
    }

    /// `Format.isBlank` answers as `allSatisfy(\.isWhitespace)` on every string of the corpus, the
    /// hostile strings and text that starts with non-ASCII whitespace or a lone combining mark.
    @Test func blankAgreesWithCharacters() throws {
        var texts = Self.hostileStrings + [
            "\u{85}", "\u{85}x", "\u{A0}\u{3000}", "\u{3000}x", "\u{2028}\u{2029}", " \u{301}", "\u{301}", "\u{301} ",
            "\u{1680}", "\u{200B}", "\u{FEFF}", "\u{2000}\u{200A}", "é ", "\u{0600} ", "\u{202F}\u{205F}",
        ]
        for (_, document) in try Self.corpusDocuments() {
            texts += Self.strings(in: document).map(\.text)
        }
        for text in texts {
            #expect(Format.isBlank(text) == text.allSatisfy(\.isWhitespace), "\(text.debugDescription)")
        }
    }

    /// The page type table (`AuditRun.pageTypeFlags`) answers as `Page.knownTypes` and
    /// `choicePageTypes` do, for every type, each changed in one byte, cut, lengthened or in
    /// another case, the hostile strings and every string of the corpus.
    @Test func pageTypeFlagsAgreeWithTheSets() throws {
        var types = Page.knownTypes.sorted() + Self.hostileStrings + ["\u{212A}", "K", "single_choice\u{301}"]
        for type in Page.knownTypes.sorted() {
            let bytes = Array(type.utf8)
            for offset in bytes.indices {
                var changed = bytes
                changed[offset] ^= 0x01
                types.append(String(decoding: changed, as: UTF8.self))
            }
            types += [String(type.dropLast()), type + "x", "x" + type, type.uppercased(), type + "\u{301}", "é" + type, type + "       "]
        }
        for (_, document) in try Self.corpusDocuments() {
            types += Self.strings(in: document).map(\.text)
        }
        var known = 0
        for type in types {
            let expected: UInt8 = (Page.knownTypes.contains(type) ? 1 : 0) | (AuditRun.choicePageTypes.contains(type) ? 2 : 0)
            #expect(AuditRun.pageTypeFlags(type) == expected, "\(type.debugDescription)")
            if expected != 0 { known += 1 }
        }
        #expect(known >= Page.knownTypes.count)
    }

    /// `key` as a JSON string with its first character written as a `\u` escape: the same key to
    /// the decoder, other bytes in the text.
    static func escapingFirstLetter(_ key: String) -> String {
        guard let first = key.unicodeScalars.first else { return "\"\"" }
        let hex = String(first.value, radix: 16)
        return "\"\\u" + String(repeating: "0", count: 4 - hex.count) + hex + String(key.unicodeScalars.dropFirst()) + "\""
    }

    /// The gaps each declared locale has, found declaration by declaration (as the check once did):
    /// the reference for `DeclaredLocales.gaps(in:_:)`.
    static func referenceGaps<Value>(
        _ locales: [String], _ map: OrderedMap<Value>, _ gap: (Value?) -> String?
    ) -> [(locale: String, gap: String)] {
        locales.compactMap { locale in
            let slot = map.keys.firstIndex { Array($0.utf8) == Array(locale.utf8) }
            return gap(slot.map { map.values[$0] }).map { (locale, $0) }
        }
    }

    static func textGap(_ text: String?) -> String? {
        guard let text else { return "missing" }
        return text.allSatisfy(\.isWhitespace) ? "blank" : nil
    }

    /// A text's gaps through `DeclaredLocales` are the reference's: the count, and the first
    /// `Format.listedLimit` in declaration order with what is wrong, for declared lists with repeats
    /// and canonical equivalents, maps with extra, blank and missing locales, small and large (past
    /// the listed limit and the maps' linear search), many texts in turn through one funnel's locales.
    @Test func declaredLocalesGiveTheReferenceGaps() {
        let many = (0..<40).map { "l\($0)" }
        let localeLists: [[String]] = [
            [], ["en"], ["en", "de"], ["de", "en", "fr"], ["en", "en", "de"], ["e\u{301}", "é"], many, many.reversed(),
            many + many.prefix(15), (0..<30).map { "l\($0 % 7)" }, ["en", "de", "en", "fr", "de", "en"] + many.prefix(10),
        ]
        let keyLists: [[String]] = [
            [], ["en"], ["en", "de"], ["de", "en"], ["de", "en", "fr"], ["é"], ["e\u{301}"], Array(many.prefix(12)),
            many.prefix(12).reversed() + ["en", "de"], ["fr", "de"], Array(many), many.filter { $0.hasSuffix("3") },
            (0..<7).map { "l\($0)" },
        ]
        for locales in localeLists {
            var declared = DeclaredLocales(locales)
            // Each keys list with usable copy, then with every other locale's copy blank, twice.
            for round in 0..<4 {
                for keys in keyLists {
                    var map = OrderedMap<String>()
                    for (position, key) in keys.enumerated() {
                        map.set(round % 2 == 1 && position.isMultiple(of: 2) ? " " : "copy \(key)", for: key)
                    }
                    let expected = Self.referenceGaps(locales, map, Self.textGap)
                    let gaps = declared.gaps(in: map, Self.textGap)
                    #expect((gaps?.count ?? 0) == expected.count, "\(locales) \(keys)")
                    let listed = gaps?.listed ?? []
                    #expect(listed.map(\.locale) == expected.prefix(Format.listedLimit).map(\.locale), "\(locales) \(keys)")
                    #expect(listed.map(\.gap) == expected.prefix(Format.listedLimit).map(\.gap), "\(locales) \(keys)")
                }
            }
        }
    }

    /// Lists of strings: an empty list and a blank item are gaps, as a missing list is.
    @Test func declaredLocalesGiveTheReferenceGapsOfLists() {
        func listGap(_ list: [String]?) -> String? {
            guard let list else { return "missing" }
            if list.isEmpty { return "an empty list" }
            return list.contains { $0.allSatisfy(\.isWhitespace) } ? "a blank item" : nil
        }
        let locales = ["en", "de", "fr", "de", "it"] + (0..<20).map { "l\($0)" }
        var declared = DeclaredLocales(locales)
        let lists: [[String]] = [[], ["a"], ["a", " "], ["b", "c"]]
        for shift in 0..<lists.count {
            var map = OrderedMap<[String]>()
            for (position, key) in (locales.shuffledDeterministically(by: shift) + ["xx"]).enumerated() where position % 3 != 1 {
                map.set(lists[(position + shift) % lists.count], for: key)
            }
            let expected = Self.referenceGaps(locales, map, listGap)
            let gaps = declared.gaps(in: map, listGap)
            #expect((gaps?.count ?? 0) == expected.count)
            #expect((gaps?.listed ?? []).map { "\($0.locale) \($0.gap)" } == expected.prefix(Format.listedLimit).map { "\($0.locale) \($0.gap)" })
        }
    }

    /// Texts with gaps are told apart by a number; when it wraps around, what earlier texts had is
    /// forgotten, not taken for the next text's: the first text's marks carry the number the count
    /// restarts at.
    @Test func declaredLocalesForgetEarlierTextsWhenTheirNumberWraps() {
        let locales = ["en", "de", "fr"]
        var declared = DeclaredLocales(locales)
        var partial = OrderedMap<String>()
        partial.set("copy", for: "en")
        partial.set("copy", for: "de")
        var english = OrderedMap<String>()
        english.set("copy", for: "en")
        var full = partial
        full.set("copy", for: "fr")
        // Text number 1 has "en" and "de".
        #expect(declared.gaps(in: partial, Self.textGap)?.listed.map(\.locale) == ["fr"])
        // As if 2³² - 2 more texts with gaps had come: the next one's number wraps around to 1.
        declared.textNumber = UInt32.max
        let wrapped = declared.gaps(in: english, Self.textGap)
        #expect(wrapped?.count == 2)
        #expect(wrapped?.listed.map(\.locale) == ["de", "fr"])
        #expect(declared.gaps(in: english, Self.textGap)?.listed.map(\.locale) == ["de", "fr"])
        #expect(declared.gaps(in: full, Self.textGap) == nil)
    }
}

extension Array {
    /// The elements rotated by `shift` places and every other pair swapped: a fixed reordering.
    fileprivate func shuffledDeterministically(by shift: Int) -> [Element] {
        guard !isEmpty else { return self }
        var rotated = Array(self[(shift % count)...] + self[..<(shift % count)])
        for index in stride(from: 0, to: rotated.count - 1, by: 2) { rotated.swapAt(index, index + 1) }
        return rotated
    }
}
