import FallbackSample
import Foundation
import Testing
@testable import RovenueFallback

/// The decoder's fast paths (issue 10 point 2): strings made straight from the document's bytes,
/// keys matched as bytes, maps built from the members' keys without a second lookup, records written
/// in place by the parallel decode. Each must give exactly what the plain decode gave: the oracle
/// for a string is Foundation's own JSON reading of the same literal.
@Suite("Decode fast paths")
struct DecodeFastPathTests {
    /// A file with one entry whose funnel's only page has `pageFields` (after `id` and `type`).
    static func file(page pageFields: String, funnelFields: String = "") -> FallbackFile {
        FallbackFile(
            text: #"{"formatVersion":1,"placements":{"k":{"placement":{"identifier":"k","revision":1},"funnel":{"id":"f","slug":"f",\#(funnelFields)"pages":[{"id":"p","type":"statement",\#(pageFields)}]}}}}"#)
    }

    static func page(_ pageFields: String, funnelFields: String = "") throws -> Page {
        let file = file(page: pageFields, funnelFields: funnelFields)
        #expect(file.rejection == nil)
        return try #require(file.entries.first?.entry?.funnel?.pages.first, "\(file.entries.first?.failure?.expectation ?? "")")
    }

    /// What Foundation reads the JSON string literal `literal` (quotes included) as.
    static func foundationReading(_ literal: String) throws -> String {
        try JSONDecoder().decode([String].self, from: Data("[\(literal)]".utf8))[0]
    }

    /// String literals as written in JSON: without escapes (ASCII, non-ASCII, both sides of Swift's
    /// 15-byte small-string limit), with every kind of escape, and `\u0000`.
    static let literals: [String] = [
        #""""#, #""a""#, #""fifteen bytes!!""#, #""sixteen bytes!!!""#,
        #""café ünïcödé""#, #""日本語のテキスト""#, #""😀 emoji 🇩🇪""#, #""e\u0301 combining""#,
        #""tab\there""#, #""line\nbreak\r\n""#, #""quote \" backslash \\ slash \/""#, #""\b\f""#,
        #""\u0000""#, #""nul \u0000 inside""#, #""\u00e9 \u00E9""#, #""\u65e5\u672c""#,
        #""\ud83d\ude00 pair""#, #""Ω\u2126""#, #""\u0070ages""#,
    ]

    @Test(arguments: literals)
    func aTextDecodesAsFoundationReadsIt(literal: String) throws {
        let expected = try Self.foundationReading(literal)
        let page = try Self.page(#""title":\#(literal),"body":{"en":\#(literal)},"steps":[\#(literal)],"question_id":\#(literal)"#)
        guard case .plain(let title)? = page.title else { Issue.record("title is \(String(describing: page.title))"); return }
        #expect(ExactKey.same(title, expected))
        #expect(title.utf8.elementsEqual(expected.utf8))
        #expect(page.body?.text(for: "en").map { ExactKey.same($0, expected) } == true)
        #expect(page.steps == .plain([expected]))
        #expect(page.questionId.map { ExactKey.same($0, expected) } == true)
    }

    /// The decoded string and the document's own reading agree on every literal.
    @Test(arguments: literals)
    func theDecoderAndTheDocumentAgree(literal: String) throws {
        let document = JSONDocument(text: "[\(literal)]")
        let decoder = EntryDecoder(document: document)
        #expect(try decoder.string(1).utf8.elementsEqual(document.decodeString(at: 1).utf8))
    }

    /// An operator is read as the case `T(rawValue:)` gives for the decoded text, whether the
    /// decoder finds it by its representation (`EntryDecoder.enumeration`) or not: every raw value,
    /// one written with an escape, and texts that are no case's (another case's prefix, case,
    /// spacing, a full-width letter, a combining mark) fail.
    @Test func operatorsReadAsTheirRawValues() {
        let texts = Clause.Operator.allCases.map { JSONValue.quoted($0.rawValue) } + Condition.Operator.allCases.map { JSONValue.quoted($0.rawValue) }
            + [#""\u0065q""#, #""not_\u0069n""#, #""EQ""#, #""eq ""#, #""ｅq""#, #""e\u0301q""#, #""is_not_answered_""#, #""al""#, #""""#]
        let document = JSONDocument(text: "[" + texts.joined(separator: ",") + "]")
        let decoder = EntryDecoder(document: document)
        var element = 1
        for _ in texts {
            let decoded = document.decodeString(at: element)
            #expect((try? decoder.enumeration(element, Clause.Operator.self)) == Clause.Operator(rawValue: decoded), "\(decoded)")
            #expect((try? decoder.enumeration(element, Condition.Operator.self)) == Condition.Operator(rawValue: decoded), "\(decoded)")
            element += 1
        }
        #expect(Clause.Operator.allCases.allSatisfy { $0.rawValue.utf8.count <= 15 }, "every raw value is stored inline")
    }

    /// `bringIntoCache` reads only inside the document, whatever value it is given: every node of
    /// whole, truncated and broken texts (containers left open, a value at the very end), and
    /// decoding after it gives what decoding without it gives.
    @Test func bringingAValueIntoTheCacheStaysInTheDocument() throws {
        let whole = SampleExport(placementCount: 12, seed: 7).jsonText()
        var texts = [whole, "[]", "{}", "1", #""s""#, #"{"a":[1,{"b":"#, #"[{"k":"v"},"#, "[" + String(repeating: "[", count: 200)]
        texts += stride(from: 1, to: whole.utf8.count, by: max(1, whole.utf8.count / 40)).map { String(decoding: whole.utf8.prefix($0), as: UTF8.self) }
        for text in texts {
            let document = JSONDocument(text: text)
            let decoder = EntryDecoder(document: document)
            for index in document.storage.nodes.indices {
                decoder.bringIntoCache(index)
            }
        }
        let topLevel = FallbackTopLevel(text: whole)
        for index in topLevel.entryHeads.indices {
            let record = topLevel.decodeEntry(at: index)
            var decoder = EntryDecoder(document: topLevel.document)
            let plain = try? decoder.entry(topLevel.entryHeads[index].value.node)
            #expect(String(describing: record.entry) == String(describing: plain))
        }
    }

    @Test(arguments: [1 << 10, 1 << 20])
    func aHugeStringDecodesWhole(length: Int) throws {
        let plain = String(repeating: "ab€", count: length / 5)
        let escaped = String(repeating: #"x\n\u00e9"#, count: length / 10)
        let page = try Self.page(#""title":"\#(plain)","body":"\#(escaped)""#)
        #expect(page.title == .plain(plain))
        #expect(page.body == .plain(String(repeating: "x\né", count: length / 10)))
    }

    /// A lone surrogate in an entry's string: the SDK decodes the string, so the whole load throws.
    @Test(arguments: [#""\ud800""#, #""x\udc00y""#, #""\ud83d\u0041""#])
    func aLoneSurrogateInAnEntryRejectsTheFile(literal: String) throws {
        let file = Self.file(page: #""title":\#(literal)"#)
        let rejection = try #require(file.rejection)
        #expect(rejection.rule == .invalidJSON)
        #expect(rejection.detail.contains("lone"))
        #expect(file.entries.isEmpty)
    }

    /// A key whose escapes decode to a field's name is that field, in a struct and in a locale map.
    @Test func aKeyWrittenWithEscapesIsTheFieldItSpells() throws {
        let page = try Self.page(
            #""\u0074itle":"escaped key","b\u006Fdy":{"\u0065n":"one","de":"zwei"}"#,
            funnelFields: #""\u006eame":"N","#)
        #expect(page.title == .plain("escaped key"))
        #expect(page.body?.text(for: "en") == "one")
        let file = Self.file(page: #""title":"t""#, funnelFields: #""\u006eame":"N","#)
        #expect(file.entries.first?.entry?.funnel?.name == "N")
    }

    /// A key spelled with escapes and one spelled plainly are the same key: the last value wins, at
    /// the place of the first, and the value it replaced is never decoded (its wrong type is no failure).
    @Test func anEscapedKeyAndAPlainOneAreTheSameKeyAndTheLastWins() throws {
        let page = try Self.page(#""title":{"en":5,"de":"zwei","\u0065n":"one"},"steps":{"en":[1],"e\u006e":["a","b"]}"#)
        guard case .localized(let title)? = page.title else { Issue.record("title not localized"); return }
        #expect(title.keys == ["en", "de"])
        #expect(title.values == ["one", "zwei"])
        #expect(page.steps == .localized(Self.map(["en": ["a", "b"]], order: ["en"])))
    }

    /// A repeated field of a struct: the last wins, and every value is recorded for the reports.
    @Test func aRepeatedFieldKeepsItsLastValueAndIsRecorded() throws {
        let file = Self.file(page: #""title":1,"title":"last","\u0074itle":"really last""#)
        let record = try #require(file.entries.first)
        #expect(record.entry?.funnel?.pages.first?.title == .plain("really last"))
        let duplicate = try #require(record.duplicateFields.first)
        #expect(duplicate.field == "title")
        #expect(duplicate.values.count == 3)
    }

    /// A locale map past the size where `OrderedMap` indexes its keys: lookups, order and the last
    /// value of a repeated key are the same as for a small map.
    @Test(arguments: [3, 8, 9, 40])
    func aLargeLocaleMapKeepsOrderAndLookups(count: Int) throws {
        let locales = (0..<count).map { "l\($0)" }
        var members = locales.map { #""\#($0)":"first \#($0)""# }
        members.append(#""l0":"last l0""#)
        members.append(#""\u006c1":"last l1""#)
        let page = try Self.page(#""title":{\#(members.joined(separator: ","))},"options":[{"label":{\#(members.joined(separator: ","))},"value":"v"}]"#)
        for text in [page.title, page.options?.first?.label] {
            guard case .localized(let map)? = text else { Issue.record("not localized"); continue }
            #expect(map.keys == locales)
            #expect(map["l0"] == "last l0")
            #expect(map["l1"] == "last l1")
            #expect(map["l\(count - 1)"] == "first l\(count - 1)")
            #expect(map["zz"] == nil)
            var rebuilt = OrderedMap<String>()
            for (key, value) in map.pairs { rebuilt.set(value, for: key) }
            #expect(rebuilt == map)
        }
    }

    /// Texts one after another whose locale maps have the same keys share them; every near miss
    /// (another order, a repeat, an escape, a different key of the same length, fewer keys, non-ASCII)
    /// still reads its own keys, and every value is its own.
    @Test func consecutiveLocaleMapsWithTheSameKeysReadTheirOwnValues() throws {
        let page = try Self.page(
            #""title":{"en":"t-en","de":"t-de"},"subtitle":{"de":"s-de","en":"s-en"},"body":{"en":"b1","de":"b-de","en":"b-en"},"#
                + #""cta":{"en":"c-en","d\u0065":"c-de"},"headline":{"en":"h-en","fr":"h-fr"},"placeholder":{"en":"p-en"},"#
                + #""suffix":{"en":"x-en","dé":"x-dé"},"agreementLabel":{"en":"a-en","dé":"a-dé"},"#
                + #""benefits":{"en":["1"],"dé":["2","3"]},"features":{"en":[],"de":["f"]},"steps":{"en":["s"],"de":[]},"#
                + #""options":[{"label":{"en":"o-en","de":"o-de"},"value":"v"},{"label":{"en":"q-en","de":"q-de"},"value":"w"}]"#)
        func expect(_ text: LocalizedText?, _ pairs: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) {
            guard case .localized(let map)? = text else {
                Issue.record("not localized: \(String(describing: text))", sourceLocation: sourceLocation)
                return
            }
            #expect(map.keys == pairs.map(\.0), sourceLocation: sourceLocation)
            #expect(map.values == pairs.map(\.1), sourceLocation: sourceLocation)
            for (key, value) in pairs { #expect(map[key] == value, sourceLocation: sourceLocation) }
            #expect(map["xx"] == nil, sourceLocation: sourceLocation)
        }
        expect(page.title, [("en", "t-en"), ("de", "t-de")])
        expect(page.subtitle, [("de", "s-de"), ("en", "s-en")])
        expect(page.body, [("en", "b-en"), ("de", "b-de")])
        expect(page.cta, [("en", "c-en"), ("de", "c-de")])
        expect(page.headline, [("en", "h-en"), ("fr", "h-fr")])
        expect(page.placeholder, [("en", "p-en")])
        expect(page.suffix, [("en", "x-en"), ("dé", "x-dé")])
        expect(page.agreementLabel, [("en", "a-en"), ("dé", "a-dé")])
        expect(page.options?.first?.label, [("en", "o-en"), ("de", "o-de")])
        expect(page.options?.last?.label, [("en", "q-en"), ("de", "q-de")])
        #expect(page.benefits == .localized(Self.map(["en": ["1"], "dé": ["2", "3"]], order: ["en", "dé"])))
        #expect(page.features == .localized(Self.map(["en": [], "de": ["f"]], order: ["en", "de"])))
        #expect(page.steps == .localized(Self.map(["en": ["s"], "de": []], order: ["en", "de"])))
    }

    /// A value of the wrong type in a locale map whose keys are the previous map's is still found,
    /// at its own place, and an empty map is empty.
    @Test func aWrongValueInASharedLocaleMapFailsAtItsPlace() throws {
        let file = Self.file(page: #""title":{"en":"t","de":"t"},"body":{"en":"b","de":7},"cta":{}"#)
        let failure = try #require(file.entries.first?.failure)
        #expect(file.location(of: failure.source).pointer == "/placements/k/funnel/pages/0/body/de")
        #expect(failure.expectation.hasPrefix("expected a string (a text is a string or an object of strings by locale), found the number 7"))
        let empty = try Self.page(#""title":{},"body":{}"#)
        #expect(empty.title == .localized(OrderedMap()))
        #expect(empty.body == .localized(OrderedMap()))
    }

    /// A funnel's `paywalls` map: keys in first-appearance order, the last of a repeated key kept,
    /// the replaced value (here not even a paywall) never decoded.
    @Test func aFunnelsPaywallMapKeepsTheLastOfARepeatedKey() throws {
        let paywall = { (id: String) in #"{"id":"\#(id)","identifier":"i","name":"n","configFormatVersion":1}"# }
        let file = Self.file(
            page: #""title":"t""#,
            funnelFields: #""paywalls":{"a":"not a paywall","b":\#(paywall("b")),"\u0061":\#(paywall("a2"))},"#)
        let paywalls = try #require(file.entries.first?.entry?.funnel?.paywalls)
        #expect(paywalls.keys == ["a", "b"])
        #expect(paywalls["a"]?.id == "a2")
        #expect(paywalls["b"]?.id == "b")
    }

    /// A wrong operator is still named with every choice.
    @Test func aWrongOperatorListsTheChoices() throws {
        let file = Self.file(page: #""next_rules":[{"id":"r","condition":{"op":"some","clauses":[]},"goto":"end"}]"#)
        let failure = try #require(file.entries.first?.failure)
        #expect(failure.expectation == #"expected one of "all", "any", found the string "some""#)
    }

    static func map<Value>(_ values: [String: Value], order: [String]) -> OrderedMap<Value> {
        var map = OrderedMap<Value>()
        for key in order { map.set(values[key]!, for: key) }
        return map
    }
}
