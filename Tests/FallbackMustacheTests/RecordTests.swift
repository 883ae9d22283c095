import Foundation
@testable import FallbackMustache
import Testing

/// Records (`MustacheValue.record`, keys shared in a `MustacheKeys` table) render exactly as the
/// dictionaries of the same keys and values: the same bytes, or the same error, through both
/// renderers, for the repository's templates, the spec's cases and hostile templates and contexts.
struct RecordTests {
    /// `value` with every dictionary, at any depth, made a record. `extraKeys` are added to each
    /// record as keys left out (nil), and `repeating` also puts every key in a second slot before
    /// its own, left out or holding a decoy the later slot overrides.
    static func recorded(_ value: MustacheValue, extraKeys: [String] = [], repeating: Bool = false) -> MustacheValue {
        switch value {
        case .list(let list): return .list(list.map { recorded($0, extraKeys: extraKeys, repeating: repeating) })
        case .dictionary(let dictionary):
            var keys: [String] = []
            var values: [MustacheValue?] = []
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                if repeating {
                    keys.append(key)
                    values.append(key.count % 2 == 0 ? nil : .string("decoy"))
                }
                keys.append(key)
                values.append(recorded(value, extraKeys: extraKeys, repeating: repeating))
            }
            for key in extraKeys where dictionary[key] == nil {
                keys.append(key)
                values.append(nil)
            }
            return .record(MustacheRecord(keys: MustacheKeys(keys), values: values))
        case .record, .string, .int, .double, .bool, .null: return value
        }
    }

    /// `context`'s record forms: plain, with keys left out, with repeated keys.
    static func forms(of context: MustacheValue) -> [MustacheValue] {
        [
            recorded(context), recorded(context, extraKeys: ["a", "b", "c", "list", "name", "count", "keys", "values"]),
            recorded(context, repeating: true),
        ]
    }

    /// The dictionary form and each record form render alike, with either renderer.
    static func expectSameAsDictionary(
        _ template: MustacheTemplate, _ context: MustacheValue, forms: [MustacheValue]? = nil, partials: [String: MustacheTemplate] = [:],
        escaping: MustacheEscaping = .html, budget: MustacheBudget = .standard, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reference = FlatRendererTests.bothResults(template, context, partials: partials, escaping: escaping, budget: budget)
        let forms = forms ?? Self.forms(of: context)
        for form in forms {
            let results = FlatRendererTests.bothResults(template, form, partials: partials, escaping: escaping, budget: budget)
            for (result, expected) in [(results.flat, reference.flat), (results.tree, reference.tree)] {
                switch (result, expected) {
                case (.success(let bytes), .success(let expected)):
                    #expect(
                        bytes == expected, "\(template.name): \(String(decoding: bytes, as: UTF8.self).prefix(300)) vs \(String(decoding: expected, as: UTF8.self).prefix(300))",
                        sourceLocation: sourceLocation)
                case (.failure(let error), .failure(let expected)):
                    #expect(error == expected, sourceLocation: sourceLocation)
                default:
                    Issue.record("\(template.name): records gave \(result), dictionaries \(expected)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test(arguments: 0..<4)
    func repositoryTemplatesRenderAsWithDictionaries(seed: Int) throws {
        let templates = try FlatRendererTests.repositoryTemplates()
        let partials = FlatRendererTests.partials(from: templates)
        let context = FlatRendererTests.context(keys: FlatRendererTests.nameParts(in: templates), seed: seed)
        let forms = Self.forms(of: context)
        let sameValues = forms.allSatisfy { $0.dictionaryForm == context }
        #expect(sameValues)
        for (_, template) in templates.sorted(by: { $0.key < $1.key }) {
            Self.expectSameAsDictionary(template, context, forms: forms, partials: partials)
            Self.expectSameAsDictionary(template, .dictionary([:]), partials: partials)
            Self.expectSameAsDictionary(template, context, forms: forms, partials: partials, budget: MustacheBudget(steps: 7 + seed * 13, outputBytes: 1 << 20))
        }
    }

    @Test func specCasesRenderAsWithDictionaries() throws {
        for file in ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"] {
            for spec in try SpecCase.all(in: file) {
                var partials: [String: MustacheTemplate] = [:]
                for (name, source) in spec.partials ?? [:] {
                    partials[name] = try MustacheTemplate(parsing: source, name: name)
                }
                let template = try MustacheTemplate(parsing: spec.template, name: spec.name)
                Self.expectSameAsDictionary(template, spec.data.value, partials: partials)
                // And the spec's own expectation, through records.
                #expect(try template.render(Self.recorded(spec.data.value), partials: partials) == spec.expected, "\(file): \(spec.name)")
            }
        }
    }

    @Test(arguments: 0..<FlatRendererTests.hostile.count)
    func hostileTemplatesRenderAsWithDictionaries(index: Int) throws {
        let (name, source, context, partialSources) = FlatRendererTests.hostile[index]
        let template = try MustacheTemplate(parsing: source, name: name)
        var partials: [String: MustacheTemplate] = [:]
        for (partialName, partialSource) in partialSources {
            partials[partialName] = try MustacheTemplate(parsing: partialSource, name: partialName)
        }
        Self.expectSameAsDictionary(template, context, partials: partials)
        for steps in [0, 3, 50] {
            Self.expectSameAsDictionary(template, context, partials: partials, budget: MustacheBudget(steps: steps, outputBytes: 1 << 24))
        }
    }

    /// Lookups a record must answer as a dictionary would, case by case.
    static let cases: [(name: String, template: String, context: MustacheValue)] = [
        ("missing names", "[{{nope}}][{{#nope}}x{{/nope}}][{{^nope}}y{{/nope}}][{{a.nope}}][{{nope.a}}]", ["a": ["b": 1]]),
        ("dotted name through a left-out key goes on outward", "{{#inner}}[{{a.b}}][{{#a}}{{b}}{{/a}}]{{/inner}}", ["a": ["b": "outer"], "inner": ["c": 1]]),
        ("dotted name stops at a key without the part", "{{#inner}}[{{a.b}}]{{/inner}}", ["a": ["b": "outer"], "inner": ["a": ["c": 1]]]),
        ("null stops a lookup", "{{#inner}}[{{a}}][{{#a}}x{{/a}}][{{^a}}null{{/a}}][{{a.b}}]{{/inner}}", ["a": ["b": "outer"], "inner": ["a": nil]]),
        ("lists of records", "{{#rows}}<{{n}}:{{#flag}}F{{/flag}}{{^flag}}-{{/flag}}:{{outer}}:{{rows.length}}>{{/rows}}",
            ["outer": "o", "rows": [["n": 1, "flag": true], ["n": 2, "flag": false], ["n": 3], ["n": nil, "outer": "shadow"]]]),
        ("keys named like Swift properties", "[{{count}}][{{keys}}][{{values}}][{{dictionary}}][{{description}}][{{isEmpty}}][{{first}}][{{hashValue}}][{{self}}]",
            ["other": 1]),
        ("implicit iterator on a record", "[{{.}}][{{#r}}({{.}}){{/r}}][{{#l}}({{.}}){{/l}}]", ["r": ["x": 1], "l": [["y": 2], 3]]),
        ("truthiness and text of a record", "{{#r}}yes{{/r}}{{^r}}no{{/r}}{{#e}}empty-yes{{/e}}{{^e}}empty-no{{/e}}[{{r}}][{{{r}}}]", ["r": ["x": 1], "e": [:]]),
        ("every kind of value", "{{s}}|{{i}}|{{d}}|{{f}}|{{t}}|{{n}}|{{l}}|{{#l}}{{.}};{{/l}}", ["s": "<&>", "i": -3, "d": 1.5, "f": 2.0, "t": true, "n": nil, "l": [1, "a", 2.25]]),
        ("canonically equivalent names", "[{{caf\u{E9}}}][{{cafe\u{301}}}][{{\u{212A}ey}}][{{Key}}]", ["cafe\u{301}": "decomposed", "Key": "ascii K"]),
        ("non-ASCII keys", "[{{\u{212A}ey}}][{{Key}}][{{\u{1F600}}}][{{\u{65E5}\u{672C}}}]", ["\u{212A}ey": "kelvin", "\u{1F600}": "smile", "\u{65E5}\u{672C}": "nihon"]),
        ("names that share a hash bucket", (0..<64).map { "{{k\($0)}}" }.joined(separator: ","), .dictionary(Dictionary(uniqueKeysWithValues: (0..<64).map { ("k\($0)", MustacheValue.int($0)) }))),
        ("long keys", "{{aVeryLongKeyNameThatIsNotASmallString}}|{{aVeryLongKeyNameThatIsNotASmallStrinG}}", ["aVeryLongKeyNameThatIsNotASmallString": "long"]),
    ]

    @Test(arguments: 0..<cases.count)
    func lookupsAnswerAsADictionary(index: Int) throws {
        let (name, source, context) = Self.cases[index]
        Self.expectSameAsDictionary(try MustacheTemplate(parsing: source, name: name), context)
        #expect(Self.forms(of: context).allSatisfy { $0.dictionaryForm == context })
    }

    /// The cases give what the spec says, so the comparison above compares meaningful output.
    @Test func casesRenderWhatTheSpecSays() throws {
        func render(_ source: String, _ context: MustacheValue) throws -> String {
            try MustacheTemplate(parsing: source).render(Self.recorded(context))
        }
        #expect(try render(Self.cases[1].template, Self.cases[1].context) == "[outer][outer]")
        #expect(try render(Self.cases[2].template, Self.cases[2].context) == "[]")
        #expect(try render(Self.cases[3].template, Self.cases[3].context) == "[][][null][]")
        #expect(try render(Self.cases[4].template, Self.cases[4].context) == "<1:F:o:><2:-:o:><3:-:o:><:-:shadow:>")
        #expect(try render(Self.cases[9].template, Self.cases[9].context) == "[decomposed][decomposed][ascii K][ascii K]")
        #expect(try render(Self.cases[10].template, Self.cases[10].context) == "[kelvin][kelvin][smile][nihon]")
    }

    @Test func aRepeatedKeyKeepsItsLastValueAndSkipsALeftOutOne() throws {
        let keys = MustacheKeys(["a", "b", "a", "b", "c"])
        let record = MustacheRecord(keys: keys, values: ["first a", "first b", "last a", nil, nil])
        #expect(record["a"] == "last a")
        #expect(record["b"] == "first b")
        #expect(record["c"] == nil)
        #expect(record.dictionary == ["a": "last a", "b": "first b"])
        let template = try MustacheTemplate(parsing: "{{#r}}{{a}}|{{b}}|{{c}}{{/r}}")
        #expect(try template.render(["r": .record(record), "c": "outer c"]) == "last a|first b|outer c")
    }

    @Test func recordsEqualTheirDictionaries() {
        let keys = MustacheKeys(["x", "y", "z"])
        let record = MustacheRecord(keys: keys, values: [1, nil, "t"])
        let same = MustacheRecord(keys: MustacheKeys(["z", "x"]), values: ["t", 1])
        #expect(record == same)
        #expect(record.hashValue == same.hashValue)
        #expect(record != MustacheRecord(keys: keys, values: [1, .null, "t"]))
        #expect(MustacheValue.record(record)["x"] == 1)
        #expect(MustacheValue.record(record)["y"] == nil)
        #expect(MustacheValue.record(record).dictionaryForm == ["x": 1, "z": "t"])
    }
}
