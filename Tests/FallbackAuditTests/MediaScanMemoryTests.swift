@testable import FallbackAudit
import FallbackTestSupport
import Foundation
@testable import RovenueFallback
import Testing

/// The media scan's memory (`MediaScanMemory`), which every chunk of an audit pass shares, hands a
/// value the result a fresh scan of it gives: the same text scanned the same way, never a text that
/// only shares its fingerprint, nor a page's result (copy keys skipped) for a value scanned whole.
/// And `PlainCopy.untranslatedLocales`, which tells locales apart one by one for a few, answers as
/// a set of their bytes does.
@Suite("media scan memory: a remembered result is the one a fresh scan gives")
struct MediaScanMemoryTests {
    /// What a fresh scan of its own finds under `node`.
    static func fresh(_ document: JSONDocument, _ node: Int, skippingCopy: Bool) -> [String] {
        var scan = MediaScan(document: document)
        return Self.spelled(scan.urls(under: node, skippingCopy: skippingCopy))
    }

    /// What a finding's message reads of a result: its count and its list. A remembered result
    /// keeps only these (`FoundMedia.withListSpelled`), not the listed paths and URLs.
    static func spelled(_ found: FoundMedia?) -> [String] {
        guard let found else { return [] }
        return ["\(found.count)", found.countText, found.listText]
    }

    /// The value nodes of the top-level object's members, in order.
    static func memberValues(_ document: JSONDocument) -> [Int] {
        var nodes: [Int] = []
        var child = 1
        for _ in 0..<document.count(ofNode: 0) {
            nodes.append(child + 1)
            child = document.subtreeEnd(ofNode: child + 1)
        }
        return nodes
    }

    @Test func aPageAndTheSameTextScannedWholeAreRememberedApart() {
        let value = #"{"title":"https://cdn.example/a.png","imageUrl":"b.png","cta":{"en":"http://x/y"}}"#
        let document = JSONDocument(text: #"{"a":\#(value),"b":\#(value),"c":\#(value)}"#)
        let values = Self.memberValues(document)
        let whole = Self.fresh(document, values[0], skippingCopy: false)
        let page = Self.fresh(document, values[0], skippingCopy: true)
        #expect(whole.first == "3" && page.first == "1", "\(whole) \(page)")
        // Two scans sharing one memory, as two chunks of a pass do; each order of the two ways.
        for wholeFirst in [true, false] {
            let memory = MediaScanMemory()
            var first = MediaScan(document: document, memory: memory)
            var second = MediaScan(document: document, memory: memory)
            for (index, node) in values.enumerated() {
                let skipping = (index % 2 == 0) != wholeFirst
                #expect(Self.spelled(first.rememberedURLs(under: node, skippingCopy: skipping)) == (skipping ? page : whole))
                #expect(Self.spelled(second.rememberedURLs(under: node, skippingCopy: !skipping)) == (skipping ? whole : page))
                #expect(Self.spelled(second.rememberedURLs(under: node, skippingCopy: skipping)) == (skipping ? page : whole))
            }
        }
    }

    /// Values longer than the fingerprint reads (its first and last 64 bytes and its length) that
    /// differ only between them have one fingerprint; each still gets its own result.
    @Test func valuesThatShareAFingerprintAreComparedInFull() {
        let padding = String(repeating: "p", count: 80)
        let middles = [#""https://a/1.png""#, #""not-a-link-1234""#, #""https://b/2.png""#, #""HTTP://C/33.PNG""#]
        let values = middles.map { #"{"head":"\#(padding)","middle":\#($0),"tail":"\#(padding)"}"# }
        #expect(Set(values.map(\.utf8.count)).count == 1)
        let members = (values + values.reversed()).enumerated().map { #""m\#($0.offset)":\#($0.element)"# }
        let document = JSONDocument(text: "{" + members.joined(separator: ",") + "}")
        let memory = MediaScanMemory()
        var scan = MediaScan(document: document, memory: memory)
        var results: Set<[String]> = []
        for node in Self.memberValues(document) {
            let expected = Self.fresh(document, node, skippingCopy: false)
            #expect(Self.spelled(scan.rememberedURLs(under: node)) == expected)
            results.insert(expected)
        }
        // Three texts with a URL each, and one without.
        #expect(results.count == 4)
    }

    /// At most `MediaScanMemory.textsPerFingerprint` texts that share a fingerprint are kept (a
    /// lookup compares each of them, so keeping every one costs a hostile file quadratic work);
    /// the others are scanned again each time, with the same result.
    @Test func aFingerprintKeepsAFewTexts() {
        let padding = String(repeating: "p", count: 80)
        let shared = (0..<20).map { #"{"head":"\#(padding)","middle":"https://m/\#(100 + $0)","tail":"\#(padding)"}"# }
        let members = (shared + shared).enumerated().map { #""m\#($0.offset)":\#($0.element)"# }
        let document = JSONDocument(text: "{" + members.joined(separator: ",") + "}")
        let memory = MediaScanMemory()
        var scan = MediaScan(document: document, memory: memory)
        for node in Self.memberValues(document) {
            #expect(Self.spelled(scan.rememberedURLs(under: node)) == Self.fresh(document, node, skippingCopy: false))
        }
        #expect(memory.rememberedCount == MediaScanMemory.textsPerFingerprint)
        #expect(scan.ownTexts.count == MediaScanMemory.textsPerFingerprint)
    }

    /// A scan answers a text it has met from its own table, without the shared memory's lock; a
    /// second scan sharing the memory gets the first one's result from it, and then has its own.
    @Test func aScanAnswersItsOwnRepeatsWithoutTheSharedMemory() {
        let value = #"{"theme":{"imageUrl":"https://cdn.example/a.png"},"title":"t"}"#
        let document = JSONDocument(text: #"{"a":\#(value),"b":\#(value),"c":\#(value),"d":\#(value)}"#)
        let values = Self.memberValues(document)
        let expected = Self.fresh(document, values[0], skippingCopy: false)
        #expect(expected.first == "1", "\(expected)")
        let memory = MediaScanMemory()
        var first = MediaScan(document: document, memory: memory)
        for node in values {
            #expect(Self.spelled(first.rememberedURLs(under: node)) == expected)
        }
        #expect(memory.lookupCount == 1 && memory.rememberedCount == 1 && first.ownTexts.count == 1)
        var second = MediaScan(document: document, memory: memory)
        for node in values.reversed() {
            #expect(Self.spelled(second.rememberedURLs(under: node)) == expected)
        }
        #expect(memory.lookupCount == 2 && memory.rememberedCount == 1 && second.ownTexts.count == 1)
    }

    /// A remembered result keeps what a message reads, the count and the spelled list (past the
    /// listing limit too), and lets the listed paths and URLs go: the memory holds one string per
    /// text, not one per URL listed.
    @Test(arguments: [1, FoundMedia.listedLimit, FoundMedia.listedLimit + 3])
    func aRememberedResultKeepsOnlyWhatAMessageReads(urls: Int) {
        let images = (0..<urls).map { #"{"imageUrl":"https://cdn.example/\#($0).png"}"# }.joined(separator: ",")
        let document = JSONDocument(text: #"{"a":{"images":[\#(images)]},"b":{"images":[\#(images)]}}"#)
        let values = Self.memberValues(document)
        var plain = MediaScan(document: document)
        let fresh = plain.urls(under: values[0], skippingCopy: false)
        #expect(fresh?.count == urls && fresh?.listed.count == min(urls, FoundMedia.listedLimit))
        var scan = MediaScan(document: document)
        for node in values {
            let remembered = scan.rememberedURLs(under: node)
            #expect(remembered?.count == urls && remembered?.listed.isEmpty == true)
            #expect(Self.spelled(remembered) == Self.spelled(fresh))
        }
        #expect(Self.spelled(fresh).last?.hasSuffix(urls > FoundMedia.listedLimit ? "and 3 more" : ".png") == true)
    }

    /// A value `MediaScan.mayHoldMedia` clears has no media URL, whichever keys the scan skips, in
    /// every container of the corpus and of values written to sit at its edges: a URL, a media key
    /// with whitespace before its colon, escapes, keys that end like a media key.
    @Test func aValueClearedByItsBytesHasNoMedia() throws {
        let values = [
            #"{"a":"https://x/y.png"}"#, #"{"a":"HTTP://X"}"#, #"{"imageUrl":"a.png"}"#, #"{"imageUrl" :"a.png"}"#,
            "{\"url\"\n\t :\"a.png\"}", #"{"src": "a"}"#, #"{"backgroundImage":"b"}"#, #"{"a":"http:\/\/x"}"#,
            #"{"\u0075rl":"a"}"#, #"{"a":["x",{"b":{"posterUrl":"p"}}]}"#, #"{"curl":"a"}"#, #"{"arc":"a"}"#, #"{"page":"a"}"#,
            #"{"a":"no link: here"}"#, #"{"a":"x","b":1}"#, #"["https://x"]"#, #"[{"title":"https://x"}]"#, #"{"rl":"a"}"#,
            #"{"Url":"a"}"#, #"{"x":"a:/b"}"#, #"{"x":"://"}"#, "{}", "[]",
            // Escapes: of a letter, `:` or `/` they may spell a media key or `://`; of anything else not.
            #"{"imageUr\u006c":"a"}"#, #"{"image\u0055rl":"a"}"#, #"{"a":"http\u003a//x"}"#, #"{"a":"https:\u002f/x"}"#,
            #"{"a":"HTTPS:\/\/x"}"#, #"{"t":"caf\u00e9 \u00e1","u":"\n\t\"\\"}"#, #"{"t":"\u00e9","imageUrl":"x.png"}"#,
            #"{"t":"\ud83d\ude00 https://x"}"#, #"{"k\u00e9y":"\u0041"}"#, #"{"src\u00e9":"a"}"#, #"{"a":"\\u0075rl"}"#,
            #"{"\\":"x","u\u0072l":"y"}"#, #"{"ur\u004c":"a"}"#, #"{"t":"\u003c\u003e\u0026","src":"\u00e9.png"}"#,
            #"{"t":"\u00e1","options":[{"label":"\u00e9","imageUrl":"https://cdn/x.png"}]}"#,
        ]
        // Documents that parse and nest at most 127 levels, as the values the audit scans do (the
        // scan recurses once per level).
        var documents = try AuditFastPathTests.corpusDocuments().map(\.document).filter {
            $0.syntaxError == nil && $0.tooDeepContainers.isEmpty
        }
        documents.append(JSONDocument(text: "[" + values.joined(separator: ",") + "]"))
        documents += values.map { JSONDocument(text: $0) }
        var cleared = 0
        var held = 0
        for document in documents {
            let nodes = document.storage.nodes
            for node in nodes.indices where nodes[node].kind == .object || nodes[node].kind == .array {
                let range = document.byteRange(ofNode: node)
                guard !document.bytes.withUnsafeBufferPointer({ MediaScan.mayHoldMedia($0, range) }) else {
                    held += 1
                    continue
                }
                cleared += 1
                for skipping in [false, true] {
                    #expect(Self.fresh(document, node, skippingCopy: skipping).isEmpty, "\(String(decoding: document.bytes[range], as: UTF8.self))")
                }
            }
        }
        #expect(cleared > 100 && held > 100, "\(cleared) \(held)")
        // Copy written with escapes past ASCII (as `json.dumps` writes it) clears like UTF-8 copy;
        // an escape that may spell a media key or `://` does not.
        for (text, mayHold) in [
            (#"{"title":{"es":"Te llevar\u00e1 menos","fr":"\u00c7a \ud83d\ude00"},"cta":"Empezar \"ya\"\n"}"#, false),
            (#"{"title":"a\u0026b \u003c\u003e","body":"\\"}"#, false),
            (#"{"title":"\u00e1","imageUr\u006c":"x"}"#, true), (#"{"title":"http:\/\/x"}"#, true),
        ] {
            let document = JSONDocument(text: text)
            let range = document.byteRange(ofNode: 0)
            #expect(document.bytes.withUnsafeBufferPointer { MediaScan.mayHoldMedia($0, range) } == mayHold, "\(text)")
        }
    }

    @Test func untranslatedLocalesAgreeWithASetOfTheirBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let pool = ["en", "de", "es", "fr", "e\u{301}", "\u{e9}", "EN", "pt-BR", "de", "en"]
        var lists: [[String]] = [[], ["en"], ["en", "en"], ["en", "de"], ["de", "en", "de"], ["e\u{301}", "\u{e9}"]]
        for count in [3, 5, 16, 17, 40] {
            for _ in 0..<20 { lists.append((0..<count).map { _ in pool.randomElement(using: &generator)! }) }
        }
        lists.append((0..<40).map { "l\($0)" })
        for locales in lists {
            for defaultLocale in [nil, "en", "e\u{301}", "xx"] as [String?] {
                let declared = "[" + locales.map(JSONValue.quoted).joined(separator: ",") + "]"
                let extra = (defaultLocale.map { #""defaultLocale":\#(JSONValue.quoted($0)),"# } ?? "") + #""locales":\#(declared),"#
                let file = FallbackFile(text: Snap.funnelFile(extra: extra, [Snap.page("p1")]))
                let funnel = try #require(file.entries.first?.entry?.funnel, "\(locales)")
                var seen: Set<ExactKey> = []
                let distinct = locales.map(ExactKey.init).filter { seen.insert($0).inserted }
                let written = (defaultLocale ?? locales.first).map(ExactKey.init)
                let expected = distinct.count > 1 ? distinct.filter { $0 != written }.map(\.string) : []
                let found = PlainCopy.untranslatedLocales(of: funnel)
                #expect(PlainCopy.hasUntranslatedLocales(funnel) == !expected.isEmpty, "\(locales) \(String(describing: defaultLocale))")
                #expect(found.count == expected.count && zip(found, expected).allSatisfy { ExactKey.same($0, $1) },
                    "\(locales) \(String(describing: defaultLocale))")
            }
        }
    }

    @Test func joinedIsTheConcatenation() {
        #expect(Format.joined() == "")
        #expect(Format.joined("a", "", "é\u{301}", "😀 x") == "a" + "é\u{301}" + "😀 x")
        let long = String(repeating: "ab", count: 300)
        #expect(Format.joined(long, "-", long).utf8.elementsEqual((long + "-" + long).utf8))
    }
}
