import Foundation
import Testing
@testable import RovenueFallback

/// One entry of a table: an entry's JSON and whether it decodes, and if not where and why.
struct DecodeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let entry: String
    /// The failing value's pointer below `/placements/k`; nil when the entry loads.
    let pointer: String?
    /// A substring of the expectation half of the skip reason.
    let expectation: String?

    static func loads(_ name: String, _ entry: String) -> DecodeCase {
        DecodeCase(name: name, entry: entry, pointer: nil, expectation: nil)
    }

    static func fails(_ name: String, _ entry: String, at pointer: String, _ expectation: String) -> DecodeCase {
        DecodeCase(name: name, entry: entry, pointer: pointer, expectation: expectation)
    }

    var testDescription: String { name }
}

/// Where a struct of §4 sits inside an entry: its pointer and how to embed it.
struct Slot: Sendable {
    let pointer: String
    let embed: @Sendable (String) -> String
}

/// A field of a struct and a value of the wrong type for it, with the type word the reason must name.
struct FieldSpec: Sendable {
    let name: String
    let wrong: String
    let expecting: String
    /// More values that must load.
    let good: [String]

    init(_ name: String, wrong: String, expecting: String, good: [String] = []) {
        self.name = name
        self.wrong = wrong
        self.expecting = expecting
        self.good = good
    }
}

/// The cases every struct gets from its field list: each required field missing, `null` and of the
/// wrong type; each optional field missing, `null`, of the wrong type; unknown fields; the array quirk.
func standardCases(
    _ label: String, valid: JSONObject, in slot: Slot, required: [FieldSpec], optional: [FieldSpec],
    fieldCount: Int, minimumArray: Int, arrayForm: Bool = true
) -> [DecodeCase] {
    var cases: [DecodeCase] = [
        .loads("\(label) valid", slot.embed(valid.json)),
        .loads("\(label) with unknown fields", slot.embed(valid.with("zz_unknown", #"{"a":[1,null]}"#).with("_", "1e300").json)),
        .fails("\(label) as a string", slot.embed(#""x""#), at: slot.pointer, "expected an object"),
        .fails("\(label) as a number", slot.embed("1"), at: slot.pointer, "expected an object"),
        .fails("\(label) as true", slot.embed("true"), at: slot.pointer, "expected an object"),
    ]
    for field in required {
        cases.append(.fails("\(label).\(field.name) missing", slot.embed(valid.without(field.name).json), at: slot.pointer, "`\(field.name)`"))
        cases.append(.fails("\(label).\(field.name) null", slot.embed(valid.with(field.name, "null").json), at: slot.pointer + "/" + field.name, "null"))
        cases.append(
            .fails("\(label).\(field.name) wrong type", slot.embed(valid.with(field.name, field.wrong).json), at: slot.pointer + "/" + field.name, field.expecting))
        for (index, good) in field.good.enumerated() {
            cases.append(.loads("\(label).\(field.name) good #\(index)", slot.embed(valid.with(field.name, good).json)))
        }
    }
    for field in optional {
        cases.append(.loads("\(label).\(field.name) missing", slot.embed(valid.without(field.name).json)))
        cases.append(.loads("\(label).\(field.name) null", slot.embed(valid.with(field.name, "null").json)))
        cases.append(
            .fails("\(label).\(field.name) wrong type", slot.embed(valid.with(field.name, field.wrong).json), at: slot.pointer + "/" + field.name, field.expecting))
        for (index, good) in field.good.enumerated() {
            cases.append(.loads("\(label).\(field.name) good #\(index)", slot.embed(valid.with(field.name, good).json)))
        }
    }
    if arrayForm {
        // The array quirk: every field in order, then padded to all fields with nulls where allowed.
        cases.append(.loads("\(label) as an array", slot.embed(valid.array)))
        let tooLong = "[" + (valid.fields.map(\.json) + Array(repeating: "null", count: fieldCount - valid.fields.count + 1)).joined(separator: ",") + "]"
        cases.append(.fails("\(label) as an array one too long", slot.embed(tooLong), at: slot.pointer, "at most \(fieldCount)"))
        if minimumArray > 0 {
            let tooShort = "[" + valid.fields.prefix(minimumArray - 1).map(\.json).joined(separator: ",") + "]"
            cases.append(.fails("\(label) as an array one too short", slot.embed(tooShort), at: slot.pointer, "at least \(minimumArray)"))
            cases.append(.fails("\(label) as an empty array", slot.embed("[]"), at: slot.pointer, "at least \(minimumArray)"))
        }
        let shortest = "[" + valid.fields.prefix(minimumArray).map(\.json).joined(separator: ",") + "]"
        cases.append(.loads("\(label) as the shortest array", slot.embed(shortest)))
    }
    return cases
}

/// fallback-format.md §3 and §4: entries decoded one by one against the typed shape, skipped not fatal.
@Suite("§3–§4 entry decoding")
struct EntryDecodingTests {
    static let placementJSON = Valid.placement.json

    // MARK: Where each struct sits

    static let entrySlot = Slot(pointer: "") { $0 }
    static let placementSlot = Slot(pointer: "/placement") { #"{"placement":"# + $0 + "}" }
    static let paywallSlot = Slot(pointer: "/paywall") { #"{"placement":"# + Self.placementJSON + #","paywall":"# + $0 + "}" }
    static let experimentSlot = Slot(pointer: "/experiment") { #"{"placement":"# + Self.placementJSON + #","experiment":"# + $0 + "}" }
    static let variantSlot = Slot(pointer: "/experiment/variants/0") { Self.experimentSlot.embed(Valid.experiment.with("variants", "[" + $0 + "]").json) }
    static let remoteConfigSlot = Slot(pointer: "/paywall/remoteConfig") { Self.paywallSlot.embed(Valid.paywall.with("remoteConfig", $0).json) }
    static let offeringSlot = Slot(pointer: "/paywall/offering") { Self.paywallSlot.embed(Valid.paywall.with("offering", $0).json) }
    static let packageSlot = Slot(pointer: "/paywall/offering/packages/0") { Self.offeringSlot.embed(Valid.offering.with("packages", "[" + $0 + "]").json) }
    static let storeIdsSlot = Slot(pointer: "/paywall/offering/packages/0/storeIds") { Self.packageSlot.embed(Valid.package.with("storeIds", $0).json) }
    static let funnelSlot = Slot(pointer: "/funnel") { #"{"placement":"# + Self.placementJSON + #","funnel":"# + $0 + "}" }
    static let pageSlot = Slot(pointer: "/funnel/pages/0") { Self.funnelSlot.embed(Valid.funnel.with("pages", "[" + $0 + "]").json) }
    static let optionSlot = Slot(pointer: "/funnel/pages/0/options/0") { Self.pageSlot.embed(Valid.page.with("options", "[" + $0 + "]").json) }
    static let nextRuleSlot = Slot(pointer: "/funnel/pages/0/next_rules/0") { Self.pageSlot.embed(Valid.page.with("next_rules", "[" + $0 + "]").json) }
    static let conditionSlot = Slot(pointer: "/funnel/pages/0/next_rules/0/condition") { Self.nextRuleSlot.embed(Valid.nextRule.with("condition", $0).json) }
    static let clauseSlot = Slot(pointer: "/funnel/pages/0/next_rules/0/condition/clauses/0") { Self.conditionSlot.embed(Valid.condition.with("clauses", "[" + $0 + "]").json) }

    /// Decodes `decodeCase` as the only entry, under the key `k`, and checks the outcome.
    static func check(_ decodeCase: DecodeCase) throws {
        let file = FallbackFile(text: fileText(entry: decodeCase.entry))
        try #require(file.rejection == nil, "the file must load: \(String(describing: file.rejection))")
        #expect(file.entries.count == 1)
        let record = try #require(file.entries.first)
        #expect(record.key == "k")
        if let pointer = decodeCase.pointer {
            guard let failure = record.failure else {
                Issue.record("expected the entry to be skipped at \(pointer)")
                return
            }
            #expect(file.location(of: failure.source).pointer == "/placements/k" + pointer, "\(failure.expectation)")
            if let expectation = decodeCase.expectation {
                #expect(failure.expectation.contains(expectation), "\(failure.expectation)")
            }
            #expect(file.loadedCount == 0)
            #expect(file.skippedCount == 1)
        } else {
            if let failure = record.failure {
                Issue.record("expected the entry to load; skipped at \(file.location(of: failure.source).pointer): \(failure.expectation)")
            }
            #expect(file.loadedCount == 1)
        }
    }

    // MARK: Entry

    static let entryCases: [DecodeCase] = [
        .loads("{}", "{}"),
        .loads("all null", #"{"placement":null,"paywall":null,"experiment":null,"funnel":null}"#),
        .loads("[] (every Entry field has a default)", "[]"),
        .loads("[null]", "[null]"),
        .loads("[placement]", "[" + Self.placementJSON + "]"),
        .loads("four nulls", "[null,null,null,null]"),
        .loads("array with all four", "[" + Self.placementJSON + "," + Valid.paywall.json + "," + Valid.experiment.json + "," + Valid.funnel.json + "]"),
        .fails("five elements", "[null,null,null,null,null]", at: "", "at most 4"),
        .loads("unknown fields", #"{"placement":"# + Self.placementJSON + #","servedFromFallback":true,"extra":{"x":[1,2]}}"#),
        .loads("only a placement", #"{"placement":"# + Self.placementJSON + "}"),
        .fails("null entry", "null", at: "", "expected an object"),
        .fails("number entry", "1", at: "", "expected an object"),
        .fails("string entry", #""onboarding""#, at: "", "expected an object"),
        .fails("boolean entry", "false", at: "", "expected an object"),
        .fails("placement is a string", #"{"placement":"k"}"#, at: "/placement", "expected an object"),
        .fails("paywall is a number", #"{"paywall":1}"#, at: "/paywall", "expected an object"),
        .fails("experiment is an empty array (needs 3)", #"{"experiment":[]}"#, at: "/experiment", "at least 3"),
        .fails("funnel is true", #"{"funnel":true}"#, at: "/funnel", "expected an object"),
        // Case-sensitive field names: these are unknown fields, so ignored.
        .loads("Placement is an unknown field", #"{"Placement":1,"PAYWALL":"x"}"#),
    ]

    @Test(arguments: entryCases)
    func entry(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    // MARK: Placement and the int rules

    static let placementCases: [DecodeCase] = standardCases(
        "Placement", valid: Valid.placement, in: Self.placementSlot,
        required: [
            FieldSpec("identifier", wrong: "1", expecting: "expected a string", good: [#""""#, #""Onboarding""#]),
            FieldSpec("revision", wrong: #""5""#, expecting: #"expected an integer, found the string "5""#, good: ["0", "-1", "7"]),
        ],
        optional: [], fieldCount: 2, minimumArray: 2)
        + [
            .fails("identifier is an array", Self.placementSlot.embed(#"{"identifier":["k"],"revision":1}"#), at: "/placement/identifier", "expected a string"),
            .fails("identifier is an object", Self.placementSlot.embed(#"{"identifier":{},"revision":1}"#), at: "/placement/identifier", "expected a string"),
            .fails("revision is true", Self.placementSlot.embed(#"{"identifier":"k","revision":true}"#), at: "/placement/revision", "expected an integer"),
            // Field names are compared after decoding escapes.
            .loads("escaped field names", Self.placementSlot.embed(#"{"identi\u0066ier":"k","r\u0065vision":1}"#)),
            .fails("[\"k\", null]", Self.placementSlot.embed(#"["k",null]"#), at: "/placement/1", "null"),
        ]

    @Test(arguments: placementCases)
    func placement(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    /// `int`: a number token with no fraction or exponent, within the signed 64-bit range.
    static let intTokens: [(json: String, value: Int64?)] = [
        ("0", 0), ("3", 3), ("-3", -3), ("9223372036854775807", .max), ("-9223372036854775808", .min),
        // §4: `-0` is not an int: the SDK's JSON parser reads it as the float -0.0, so the entry is
        // skipped, exactly like `0.0`.
        ("-0", nil), ("-0.0", nil),
        ("3.0", nil), ("3.5", nil), ("1e2", nil), ("1E2", nil), ("30e-1", nil), ("0.0", nil), ("-1.0", nil),
        (#""3""#, nil), ("18446744073709551615", nil), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("18446744073709551616", nil), ("100000000000000000000000", nil), ("true", nil), ("[3]", nil), ("{}", nil),
    ]

    struct IntCase: Sendable, CustomTestStringConvertible {
        let json: String
        let value: Int64?
        var testDescription: String { json }
    }

    static let intCases = intTokens.map { IntCase(json: $0.json, value: $0.value) }

    @Test(arguments: intCases)
    func intRulesOnEveryIntField(_ intCase: IntCase) throws {
        // Placement.revision, Paywall.configFormatVersion and Funnel.versionNo are the int fields.
        let placements: [(entry: String, pointer: String, read: @Sendable (FallbackEntry) -> Int64?)] = [
            (Self.placementSlot.embed(Valid.placement.with("revision", intCase.json).json), "/placement/revision", { $0.placement?.revision }),
            (Self.paywallSlot.embed(Valid.paywall.with("configFormatVersion", intCase.json).json), "/paywall/configFormatVersion", { $0.paywall?.configFormatVersion }),
            (Self.funnelSlot.embed(Valid.funnel.with("versionNo", intCase.json).json), "/funnel/versionNo", { $0.funnel?.versionNo }),
        ]
        for (entry, pointer, read) in placements {
            let file = FallbackFile(text: fileText(entry: entry))
            try #require(file.rejection == nil)
            let record = try #require(file.entries.first)
            if let value = intCase.value {
                let decoded = try #require(record.entry, "\(pointer) should load: \(String(describing: record.failure))")
                #expect(read(decoded) == value)
            } else {
                let failure = try #require(record.failure, "\(pointer) = \(intCase.json) should be skipped")
                #expect(file.location(of: failure.source).pointer == "/placements/k" + pointer)
                #expect(failure.expectation.hasPrefix("expected an integer"), "\(failure.expectation)")
            }
        }
    }

    // MARK: Experiment and Variant

    static let experimentCases: [DecodeCase] = standardCases(
        "Experiment", valid: Valid.experiment, in: Self.experimentSlot,
        required: [
            FieldSpec("id", wrong: "1", expecting: "expected a string"),
            FieldSpec("key", wrong: "[]", expecting: "expected a string"),
            FieldSpec("variants", wrong: "{}", expecting: "expected an array", good: ["[]"]),
        ],
        optional: [], fieldCount: 3, minimumArray: 3)
        + [
            .loads("variants may be empty", Self.experimentSlot.embed(#"{"id":"e","key":"k","variants":[]}"#)),
            .fails("a variant that is not an object", Self.experimentSlot.embed(#"{"id":"e","key":"k","variants":[1]}"#), at: "/experiment/variants/0", "expected an object"),
            .fails(
                "the second variant fails", Self.experimentSlot.embed(Valid.experiment.with("variants", "[" + Valid.variant.json + #",{"variantId":"b","weight":0.5}]"#).json),
                at: "/experiment/variants/1", "funnel"),
        ]

    @Test(arguments: experimentCases)
    func experiment(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let variantCases: [DecodeCase] = standardCases(
        "Variant", valid: Valid.variant, in: Self.variantSlot,
        required: [
            FieldSpec("variantId", wrong: "1", expecting: "expected a string"),
            FieldSpec(
                "weight", wrong: #""0.5""#, expecting: "expected a number",
                good: ["0", "1", "-0.5", "50", "1e-3", "2.5E+1", "0.3333333333333333", "-0", "18446744073709551615", "1e300"]),
        ],
        optional: [], fieldCount: 4, minimumArray: 2, arrayForm: false)
        + [
            .loads("paywall only", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"paywall":"# + Valid.paywall.json + "}")),
            .loads("funnel only", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"funnel":"# + Valid.funnel.json + "}")),
            .loads("both", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"funnel":"# + Valid.funnel.json + #","paywall":"# + Valid.paywall.json + "}")),
            .loads("funnel with a null paywall", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"paywall":null,"funnel":"# + Valid.funnel.json + "}")),
            .fails("neither funnel nor paywall", Self.variantSlot.embed(#"{"variantId":"a","weight":1}"#), at: "/experiment/variants/0", "funnel"),
            .fails("both null", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"paywall":null,"funnel":null}"#), at: "/experiment/variants/0", "paywall"),
            .fails("paywall wrong type", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"paywall":"pw_1"}"#), at: "/experiment/variants/0/paywall", "expected an object"),
            .fails("funnel wrong type", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"funnel":[]}"#), at: "/experiment/variants/0/funnel", "at least 8"),
            .fails(
                "an invalid paywall fails the variant", Self.variantSlot.embed(#"{"variantId":"a","weight":1,"paywall":"# + Valid.paywall.without("name").json + "}"),
                at: "/experiment/variants/0/paywall", "`name`"),
            // The array quirk: variantId and weight are required, paywall and funnel have defaults.
            .loads("as an array with a paywall", Self.variantSlot.embed(#"["a",0.5,"# + Valid.paywall.json + "]")),
            .loads("as an array with a funnel", Self.variantSlot.embed(#"["a",0.5,null,"# + Valid.funnel.json + "]")),
            .fails("as a two-element array: neither", Self.variantSlot.embed(#"["a",0.5]"#), at: "/experiment/variants/0", "funnel"),
            .fails("as a one-element array", Self.variantSlot.embed(#"["a"]"#), at: "/experiment/variants/0", "at least 2"),
            .fails("as a five-element array", Self.variantSlot.embed(#"["a",0.5,"# + Valid.paywall.json + ",null,null]"), at: "/experiment/variants/0", "at most 4"),
            .fails("weight null in an array", Self.variantSlot.embed(#"["a",null,"# + Valid.paywall.json + "]"), at: "/experiment/variants/0/1", "null"),
        ]

    @Test(arguments: variantCases)
    func variant(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    // MARK: Paywall, RemoteConfig, Offering, Package, StoreIds

    static let paywallCases: [DecodeCase] = standardCases(
        "Paywall", valid: Valid.paywall, in: Self.paywallSlot,
        required: [
            FieldSpec("id", wrong: "7", expecting: "expected a string"),
            FieldSpec("identifier", wrong: "false", expecting: "expected a string"),
            FieldSpec("name", wrong: "{}", expecting: "expected a string"),
            FieldSpec("configFormatVersion", wrong: "1.0", expecting: "expected an integer", good: ["2", "0"]),
        ],
        optional: [
            FieldSpec("remoteConfig", wrong: "[]", expecting: "at least 2"),
            FieldSpec("offering", wrong: #""default""#, expecting: "expected an object"),
        ],
        fieldCount: 7, minimumArray: 7)
        + [
            // builderConfig is `any?`: every JSON value loads.
            .loads("builderConfig object", Self.paywallSlot.embed(Valid.paywall.with("builderConfig", #"{"root":{"type":"stack","children":[]}}"#).json)),
            .loads("builderConfig string", Self.paywallSlot.embed(Valid.paywall.with("builderConfig", #""x""#).json)),
            .loads("builderConfig number", Self.paywallSlot.embed(Valid.paywall.with("builderConfig", "-1.5e10").json)),
            .loads("builderConfig array", Self.paywallSlot.embed(Valid.paywall.with("builderConfig", "[1,[2,[3]]]").json)),
            .loads("builderConfig false", Self.paywallSlot.embed(Valid.paywall.with("builderConfig", "false").json)),
            .loads("builderConfig missing", Self.paywallSlot.embed(Valid.paywall.without("builderConfig").json)),
            .loads("remoteConfig and offering missing", Self.paywallSlot.embed(Valid.paywall.without("remoteConfig").without("offering").json)),
            .loads("array with null optionals", Self.paywallSlot.embed(#"["pw","main","Main",1,null,null,null]"#)),
            // `offering` is last and has no default: a Paywall array needs all 7 elements.
            .fails("array of 6", Self.paywallSlot.embed(#"["pw","main","Main",1,null,null]"#), at: "/paywall", "at least 7"),
            .fails("array of 5", Self.paywallSlot.embed(#"["pw","main","Main",1,null]"#), at: "/paywall", "at least 7"),
            .fails("array of 4", Self.paywallSlot.embed(#"["pw","main","Main",1]"#), at: "/paywall", "at least 7"),
            .fails("array with a wrong configFormatVersion", Self.paywallSlot.embed(#"["pw","main","Main","1",null,null,null]"#), at: "/paywall/3", "expected an integer"),
        ]

    @Test(arguments: paywallCases)
    func paywall(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let remoteConfigCases: [DecodeCase] = standardCases(
        "RemoteConfig", valid: Valid.remoteConfig, in: Self.remoteConfigSlot,
        required: [FieldSpec("locale", wrong: "1", expecting: "expected a string")],
        optional: [], fieldCount: 2, minimumArray: 2)
        + [
            // `data` is required but null is allowed.
            .fails("data missing", Self.remoteConfigSlot.embed(#"{"locale":"en"}"#), at: "/paywall/remoteConfig", "`data`"),
            .loads("data null", Self.remoteConfigSlot.embed(#"{"locale":"en","data":null}"#)),
            .loads("data number", Self.remoteConfigSlot.embed(#"{"locale":"en","data":1}"#)),
            .loads("data string", Self.remoteConfigSlot.embed(#"{"locale":"en","data":"x"}"#)),
            .loads("data array", Self.remoteConfigSlot.embed(#"{"locale":"en","data":[]}"#)),
            .loads("data true", Self.remoteConfigSlot.embed(#"{"locale":"en","data":true}"#)),
            .loads("array with data null", Self.remoteConfigSlot.embed(#"["en",null]"#)),
            .fails("array without data", Self.remoteConfigSlot.embed(#"["en"]"#), at: "/paywall/remoteConfig", "at least 2"),
        ]

    @Test(arguments: remoteConfigCases)
    func remoteConfig(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let offeringCases: [DecodeCase] = standardCases(
        "Offering", valid: Valid.offering, in: Self.offeringSlot,
        required: [
            FieldSpec("identifier", wrong: "1", expecting: "expected a string"),
            FieldSpec("isDefault", wrong: #""true""#, expecting: "expected a boolean", good: ["false"]),
            FieldSpec("packages", wrong: "{}", expecting: "expected an array", good: ["[]"]),
        ],
        optional: [], fieldCount: 3, minimumArray: 3)
        + [
            .fails("isDefault is 1", Self.offeringSlot.embed(Valid.offering.with("isDefault", "1").json), at: "/paywall/offering/isDefault", "expected a boolean"),
            .fails("isDefault is 0", Self.offeringSlot.embed(Valid.offering.with("isDefault", "0").json), at: "/paywall/offering/isDefault", "expected a boolean"),
            .fails("a package that is a string", Self.offeringSlot.embed(Valid.offering.with("packages", #"["monthly"]"#).json), at: "/paywall/offering/packages/0", "expected an object"),
            .loads("unknown metadata", Self.offeringSlot.embed(Valid.offering.with("metadata", "{}").json)),
        ]

    @Test(arguments: offeringCases)
    func offering(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let packageCases: [DecodeCase] = standardCases(
        "Package", valid: Valid.package, in: Self.packageSlot,
        required: [
            FieldSpec("packageIdentifier", wrong: "1", expecting: "expected a string"),
            FieldSpec("identifier", wrong: "[]", expecting: "expected a string"),
            FieldSpec("type", wrong: "true", expecting: "expected a string", good: [#""LIFETIME""#, #""anything""#]),
            FieldSpec("displayName", wrong: "2.5", expecting: "expected a string"),
            FieldSpec("storeIds", wrong: #""apple""#, expecting: "expected an object", good: ["{}"]),
        ],
        optional: [
            FieldSpec("androidBasePlanId", wrong: "1", expecting: "expected a string", good: [#""p1m""#]),
            FieldSpec("androidOfferId", wrong: "{}", expecting: "expected a string", good: [#""intro""#]),
        ],
        fieldCount: 7, minimumArray: 5)
        + [
            .loads(
                "array of 7", Self.packageSlot.embed(#"["$rc_monthly","monthly","MONTHLY","Monthly",{},"base","offer"]"#)),
            .loads("array of 6", Self.packageSlot.embed(#"["$rc_monthly","monthly","MONTHLY","Monthly",{},"base"]"#)),
        ]

    @Test(arguments: packageCases)
    func package(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let storeIdsCases: [DecodeCase] = standardCases(
        "StoreIds", valid: Valid.storeIds, in: Self.storeIdsSlot, required: [],
        optional: [
            FieldSpec("apple", wrong: "1", expecting: "expected a string"),
            FieldSpec("google", wrong: "false", expecting: "expected a string"),
        ],
        // apple and google are `string?` without `default`: an array must hold both.
        fieldCount: 2, minimumArray: 2)
        + [
            .loads("{}", Self.storeIdsSlot.embed("{}")),
            .loads("other stores ignored", Self.storeIdsSlot.embed(#"{"apple":"a","amazon":"z","stripe":1}"#)),
            .loads("[null, null]", Self.storeIdsSlot.embed("[null,null]")),
            .fails("[\"a\"]", Self.storeIdsSlot.embed(#"["a"]"#), at: "/paywall/offering/packages/0/storeIds", "at least 2"),
        ]

    @Test(arguments: storeIdsCases)
    func storeIds(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    // MARK: Funnel, Page, Text, TextList, Option, NextRule, Condition, Clause

    static let funnelCases: [DecodeCase] = standardCases(
        "Funnel", valid: Valid.funnel, in: Self.funnelSlot,
        required: [
            FieldSpec("id", wrong: "1", expecting: "expected a string"),
            FieldSpec("slug", wrong: "[]", expecting: "expected a string"),
            FieldSpec("pages", wrong: "{}", expecting: "expected an array", good: ["[]"]),
        ],
        optional: [
            FieldSpec("name", wrong: "1", expecting: "expected a string", good: [#""Fitness quiz""#]),
            FieldSpec("versionId", wrong: "3", expecting: "expected a string", good: [#""ver_3""#]),
            FieldSpec("versionNo", wrong: "3.0", expecting: "expected an integer", good: ["3"]),
            FieldSpec("defaultLocale", wrong: "[]", expecting: "expected a string", good: [#""en""#]),
            FieldSpec("locales", wrong: #""en""#, expecting: "expected an array", good: ["[]", #"["en","tr"]"#]),
            FieldSpec("paywalls", wrong: "[]", expecting: "expected an object", good: ["{}"]),
        ],
        fieldCount: 11, minimumArray: 8, arrayForm: false)
        + [
            .loads("theme anything", Self.funnelSlot.embed(Valid.funnel.with("theme", #"{"primary":"red"}"#).with("settings", "[1]").json)),
            .loads("theme and settings scalars", Self.funnelSlot.embed(Valid.funnel.with("theme", "1").with("settings", #""x""#).json)),
            .fails("locales with a number", Self.funnelSlot.embed(Valid.funnel.with("locales", #"["en",1]"#).json), at: "/funnel/locales/1", "expected a string"),
            .fails("locales with null", Self.funnelSlot.embed(Valid.funnel.with("locales", #"[null]"#).json), at: "/funnel/locales/0", "expected a string"),
            // paywalls: {string: Paywall}
            .loads("paywalls map", Self.funnelSlot.embed(Valid.funnel.with("paywalls", #"{"pw_1":"# + Valid.paywall.json + #","pw_2":"# + Valid.paywall.with("id", #""pw_2""#).json + "}").json)),
            .loads("paywalls map of array-quirk paywalls", Self.funnelSlot.embed(Valid.funnel.with("paywalls", #"{"pw_1":["pw_1","main","Main",1,null,null,null]}"#).json)),
            .fails("paywalls value null", Self.funnelSlot.embed(Valid.funnel.with("paywalls", #"{"pw_1":null}"#).json), at: "/funnel/paywalls/pw_1", "expected an object"),
            .fails("paywalls value invalid", Self.funnelSlot.embed(Valid.funnel.with("paywalls", #"{"pw_1":{"id":"pw_1"}}"#).json), at: "/funnel/paywalls/pw_1", "`identifier`"),
            .fails("paywalls value a string", Self.funnelSlot.embed(Valid.funnel.with("paywalls", #"{"pw_1":"pw_1"}"#).json), at: "/funnel/paywalls/pw_1", "expected an object"),
            .fails("a page that is a string", Self.funnelSlot.embed(Valid.funnel.with("pages", #"["p1"]"#).json), at: "/funnel/pages/0", "expected an object"),
            // The array quirk: `pages` (8th) is the last field without a default.
            .loads("array of 8", Self.funnelSlot.embed(#"["f","s",null,null,null,null,null,[]]"#)),
            .loads("array of 11", Self.funnelSlot.embed(#"["f","s","n","v",3,"en",["en"],[],{},{},{}]"#)),
            .fails("array of 7", Self.funnelSlot.embed(#"["f","s",null,null,null,null,null]"#), at: "/funnel", "at least 8"),
            .fails("array of 12", Self.funnelSlot.embed(#"["f","s",null,null,null,null,null,[],null,null,null,null]"#), at: "/funnel", "at most 11"),
            .fails("array with versionNo 3.0", Self.funnelSlot.embed(#"["f","s",null,null,3.0,null,null,[]]"#), at: "/funnel/4", "expected an integer"),
        ]

    @Test(arguments: funnelCases)
    func funnel(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let pageCases: [DecodeCase] = standardCases(
        "Page", valid: Valid.page, in: Self.pageSlot,
        required: [
            // An unknown page type is a string: it decodes (it is a check finding, not a decode failure).
            FieldSpec("id", wrong: "1", expecting: "expected a string"),
            FieldSpec("type", wrong: "1", expecting: "expected a string", good: [#""hologram""#, #""""#, #""WELCOME""#, #""paywall""#]),
        ],
        optional: [
            FieldSpec("question_id", wrong: "1", expecting: "expected a string", good: [#""goal""#]),
            FieldSpec("options", wrong: "{}", expecting: "expected an array", good: ["[]", "[" + Valid.option.json + "]"]),
            FieldSpec("paywallId", wrong: "1", expecting: "expected a string", good: [#""pw_1""#]),
            FieldSpec("next_rules", wrong: "{}", expecting: "expected an array", good: ["[]", "[" + Valid.nextRule.json + "]"]),
            FieldSpec("default_next", wrong: "false", expecting: "expected a string", good: [#""end""#, #""paywall""#]),
        ],
        fieldCount: 18, minimumArray: 2)
        + [
            // Every other page field is ignored, whatever its type; camelCase spellings are other fields.
            .loads(
                "ignored fields", Self.pageSlot.embed(Valid.page.with("required", #""yes""#).with("min", #""x""#).with("max", "[]").with("step", "{}")
                    .with("duration", "true").with("mediaKind", "1").with("mediaUrl", "2").with("termsUrl", "3").with("background", "[[]]").json)),
            .loads("questionId is not question_id", Self.pageSlot.embed(Valid.page.with("questionId", "1").with("nextRules", "1").with("defaultNext", "1").json)),
            .fails("an option that is a string", Self.pageSlot.embed(Valid.page.with("options", #"["yes"]"#).json), at: "/funnel/pages/0/options/0", "expected an object"),
            .loads("array of 18", Self.pageSlot.embed(#"["p1","welcome","q","t","s","b","c","h","p","x","a",["b"],["f"],["s"],[],"pw",[],"end"]"#)),
            .fails("array of 19", Self.pageSlot.embed(#"["p1","welcome",null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null,null]"#), at: "/funnel/pages/0", "at most 18"),
            .fails("array with a numeric title", Self.pageSlot.embed(#"["p1","welcome",null,5]"#), at: "/funnel/pages/0/3", "expected a string"),
        ]

    @Test(arguments: pageCases)
    func page(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let textFields = ["title", "subtitle", "body", "cta", "headline", "placeholder", "suffix", "agreementLabel"]

    /// `Text = string | { <locale>: string }`, on every Text field of a page.
    @Test(arguments: textFields)
    func text(_ field: String) throws {
        let base = "/funnel/pages/0/" + field
        let cases: [DecodeCase] = [
            .loads("string", Self.pageSlot.embed(Valid.page.with(field, #""Hello""#).json)),
            .loads("empty string", Self.pageSlot.embed(Valid.page.with(field, #""""#).json)),
            .loads("null", Self.pageSlot.embed(Valid.page.with(field, "null").json)),
            .loads("locale object", Self.pageSlot.embed(Valid.page.with(field, #"{"en":"Hello","tr":"Merhaba"}"#).json)),
            .loads("empty locale object", Self.pageSlot.embed(Valid.page.with(field, "{}").json)),
            .fails("locale value a number", Self.pageSlot.embed(Valid.page.with(field, #"{"en":"Hello","tr":1}"#).json), at: base + "/tr", "expected a string"),
            .fails("locale value null", Self.pageSlot.embed(Valid.page.with(field, #"{"en":null}"#).json), at: base + "/en", "expected a string"),
            .fails("locale value an object", Self.pageSlot.embed(Valid.page.with(field, #"{"en":{"text":"Hi"}}"#).json), at: base + "/en", "expected a string"),
            .fails("number", Self.pageSlot.embed(Valid.page.with(field, "1").json), at: base, "expected a string"),
            .fails("array", Self.pageSlot.embed(Valid.page.with(field, #"["Hello"]"#).json), at: base, "expected a string"),
            .fails("boolean", Self.pageSlot.embed(Valid.page.with(field, "true").json), at: base, "expected a string"),
        ]
        for decodeCase in cases {
            try Self.check(decodeCase)
        }
    }

    static let textListFields = ["benefits", "features", "steps"]

    /// `TextList = [string] | { <locale>: [string] }`, on every TextList field of a page.
    @Test(arguments: textListFields)
    func textList(_ field: String) throws {
        let base = "/funnel/pages/0/" + field
        let cases: [DecodeCase] = [
            .loads("array", Self.pageSlot.embed(Valid.page.with(field, #"["a","b"]"#).json)),
            .loads("empty array", Self.pageSlot.embed(Valid.page.with(field, "[]").json)),
            .loads("null", Self.pageSlot.embed(Valid.page.with(field, "null").json)),
            .loads("locale object", Self.pageSlot.embed(Valid.page.with(field, #"{"en":["a"],"tr":["b","c"]}"#).json)),
            .loads("empty locale object", Self.pageSlot.embed(Valid.page.with(field, "{}").json)),
            .fails("array with a number", Self.pageSlot.embed(Valid.page.with(field, #"["a",1]"#).json), at: base + "/1", "expected a string"),
            .fails("array with null", Self.pageSlot.embed(Valid.page.with(field, #"[null]"#).json), at: base + "/0", "expected a string"),
            .fails("locale value a string", Self.pageSlot.embed(Valid.page.with(field, #"{"en":"a"}"#).json), at: base + "/en", "expected an array"),
            .fails("locale array with a number", Self.pageSlot.embed(Valid.page.with(field, #"{"en":["a",2]}"#).json), at: base + "/en/1", "expected a string"),
            .fails("string", Self.pageSlot.embed(Valid.page.with(field, #""a""#).json), at: base, "expected an array"),
            .fails("number", Self.pageSlot.embed(Valid.page.with(field, "1").json), at: base, "expected an array"),
        ]
        for decodeCase in cases {
            try Self.check(decodeCase)
        }
    }

    static let optionCases: [DecodeCase] = standardCases(
        "Option", valid: Valid.option.with("imageUrl", #""https://cdn.example.com/a.png""#), in: Self.optionSlot,
        required: [
            FieldSpec("label", wrong: "1", expecting: "expected a string", good: [#"{"en":"Lose weight","tr":"Kilo ver"}"#]),
            FieldSpec("value", wrong: "1", expecting: "expected a string"),
        ],
        optional: [FieldSpec("imageUrl", wrong: "1", expecting: "expected a string")],
        fieldCount: 3, minimumArray: 2)
        + [
            .fails("label locale value a number", Self.optionSlot.embed(Valid.option.with("label", #"{"en":1}"#).json), at: "/funnel/pages/0/options/0/label/en", "expected a string"),
        ]

    @Test(arguments: optionCases)
    func option(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let nextRuleCases: [DecodeCase] = standardCases(
        "NextRule", valid: Valid.nextRule, in: Self.nextRuleSlot,
        required: [
            FieldSpec("id", wrong: "1", expecting: "expected a string"),
            FieldSpec("condition", wrong: #""all""#, expecting: "expected an object"),
            FieldSpec("goto", wrong: "2", expecting: "expected a string", good: [#""paywall""#, #""p1""#, #""nowhere""#]),
        ],
        optional: [], fieldCount: 3, minimumArray: 3)

    @Test(arguments: nextRuleCases)
    func nextRule(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let conditionCases: [DecodeCase] = standardCases(
        "Condition", valid: Valid.condition, in: Self.conditionSlot,
        required: [
            FieldSpec("op", wrong: "1", expecting: "expected a string", good: [#""any""#, #""all""#]),
            FieldSpec("clauses", wrong: "{}", expecting: "expected an array", good: ["[]"]),
        ],
        optional: [], fieldCount: 2, minimumArray: 2)
        + ["ALL", "All", "none", "or", "and", "", " all", "not"].map { op in
            // An unknown Condition.op fails the decode: a device cannot run a rule it does not understand.
            .fails("op \(op)", Self.conditionSlot.embed(Valid.condition.with("op", quote(op)).json), at: "/funnel/pages/0/next_rules/0/condition/op", quote(op))
        }

    @Test(arguments: conditionCases)
    func condition(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    static let clauseOps = ["eq", "neq", "gt", "gte", "lt", "lte", "between", "in", "not_in", "contains", "is_answered", "is_not_answered"]

    static let clauseCases: [DecodeCase] = standardCases(
        "Clause", valid: Valid.clause, in: Self.clauseSlot,
        required: [
            FieldSpec("question_id", wrong: "1", expecting: "expected a string"),
            FieldSpec("op", wrong: "true", expecting: "expected a string"),
        ],
        optional: [], fieldCount: 3, minimumArray: 2)
        + clauseOps.map { op in .loads("op \(op)", Self.clauseSlot.embed(Valid.clause.with("op", quote(op)).json)) }
        + ["EQ", "ne", "equals", "not-in", "notIn", "isAnswered", "exists", "", "gt ", "nin"].map { op in
            .fails("op \(op)", Self.clauseSlot.embed(Valid.clause.with("op", quote(op)).json), at: "/funnel/pages/0/next_rules/0/condition/clauses/0/op", quote(op))
        }
        + [
            // value is `any?`: absent, null or anything.
            .loads("value missing", Self.clauseSlot.embed(Valid.clause.without("value").json)),
            .loads("value null", Self.clauseSlot.embed(Valid.clause.with("value", "null").json)),
            .loads("value array", Self.clauseSlot.embed(Valid.clause.with("value", "[18,30]").json)),
            .loads("value object", Self.clauseSlot.embed(Valid.clause.with("value", #"{"a":1}"#).json)),
            .loads("value number", Self.clauseSlot.embed(Valid.clause.with("value", "40").json)),
            .fails("questionId is not question_id", Self.clauseSlot.embed(#"{"questionId":"goal","op":"eq"}"#), at: "/funnel/pages/0/next_rules/0/condition/clauses/0", "`question_id`"),
        ]

    @Test(arguments: clauseCases)
    func clause(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    // MARK: What decodes is what the file says

    @Test func decodedValuesFollowTheText() throws {
        let entry = #"{"placement":{"identifier":"onboarding","revision":9223372036854775807},"funnel":"#
            + #"{"id":"f","slug":"s","versionNo":-9223372036854775808,"locales":["en","tr"],"pages":[{"id":"p1","type":"single_choice","question_id":"goal","#
            + #""title":{"en":"Goal?","tr":"Hedef?"},"benefits":["a","b"],"options":[{"label":"Lose","value":"lose"}],"#
            + #""next_rules":[{"id":"r","condition":{"op":"any","clauses":[{"question_id":"goal","op":"not_in","value":["x"]}]},"goto":"end"}],"default_next":"p2"}],"#
            + #""paywalls":{"pw_b":"# + Valid.paywall.with("id", #""pw_b""#).json + #","pw_a":"# + Valid.paywall.with("id", #""pw_a""#).json + "}}}"
        let file = FallbackFile(text: fileText(entry: entry))
        let decoded = try #require(file.loadedEntries.first?.entry)
        #expect(decoded.placement?.identifier == "onboarding")
        #expect(decoded.placement?.revision == Int64.max)
        let funnel = try #require(decoded.funnel)
        #expect(funnel.versionNo == Int64.min)
        #expect(funnel.locales == ["en", "tr"])
        let page = try #require(funnel.pages.first)
        #expect(page.questionId == "goal")
        #expect(page.title?.text(for: "tr") == "Hedef?")
        #expect(page.benefits?.list(for: "en") == ["a", "b"])
        #expect(page.options?.first?.value == "lose")
        #expect(page.defaultNext == "p2")
        let rule = try #require(page.nextRules?.first)
        #expect(rule.condition.op == .any)
        #expect(rule.condition.clauses.first?.op == .notIn)
        #expect(rule.goto == "end")
        #expect(funnel.paywalls?.keys == ["pw_b", "pw_a"])
        #expect(funnel.paywalls?["pw_a"]?.id == "pw_a")
    }

    @Test func underflowIsZeroAndLargeIntegersAreFloats() throws {
        let variants = #"[{"variantId":"a","weight":1e-400,"paywall":"# + Valid.paywall.json + #"},{"variantId":"b","weight":18446744073709551616,"paywall":"#
            + Valid.paywall.json + "}]"
        let file = FallbackFile(text: fileText(entry: #"{"experiment":{"id":"e","key":"k","variants":"# + variants + "}}"))
        let experiment = try #require(file.loadedEntries.first?.entry.experiment)
        #expect(experiment.variants.map(\.weight) == [0, 18446744073709551616])
    }

    // MARK: The array quirk reads the fields in the order §4 lists them

    @Test func arrayQuirkReadsFieldsInTheListedOrder() throws {
        let page = #"["p1","picture_choice","q","t","s","b","c","h","p","x","a",["b1"],["f1"],["s1"],[["L","v","img"]],"pw",[["r",["any",[["q","is_answered"]]],"end"]],"next"]"#
        let package = #"["$rc_monthly","monthly","MONTHLY","Monthly",["com.app","monthly_g"],"base","offer"]"#
        let paywall = #"["pw","main","Main",2,["en",{"k":1}],{"b":1},["default",true,["# + package + "]]]"
        let funnel = #"["f","s","n","v",3,"en",["en"],["# + page + #"],{"t":1},{"s":1},{"pw":"# + paywall + "}]"
        let file = FallbackFile(text: fileText(entry: #"[["k",7],"# + paywall + #",["e","ek",[["a",1,null,"# + funnel + "]]],null]"))
        let entry = try #require(file.loadedEntries.first?.entry, "\(String(describing: file.entries.first?.failure))")
        #expect(entry.placement?.identifier == "k")
        #expect(entry.placement?.revision == 7)
        let decodedPaywall = try #require(entry.paywall)
        #expect(decodedPaywall.id == "pw")
        #expect(decodedPaywall.identifier == "main")
        #expect(decodedPaywall.name == "Main")
        #expect(decodedPaywall.configFormatVersion == 2)
        #expect(decodedPaywall.remoteConfig?.locale == "en")
        #expect(decodedPaywall.builderConfig?["b"] != nil)
        #expect(decodedPaywall.offering?.identifier == "default")
        #expect(decodedPaywall.offering?.isDefault == true)
        let decodedPackage = try #require(decodedPaywall.offering?.packages.first)
        #expect(decodedPackage.packageIdentifier == "$rc_monthly")
        #expect(decodedPackage.identifier == "monthly")
        #expect(decodedPackage.type == "MONTHLY")
        #expect(decodedPackage.displayName == "Monthly")
        #expect(decodedPackage.storeIds.apple == "com.app")
        #expect(decodedPackage.storeIds.google == "monthly_g")
        #expect(decodedPackage.androidBasePlanId == "base")
        #expect(decodedPackage.androidOfferId == "offer")
        let experiment = try #require(entry.experiment)
        #expect(experiment.id == "e")
        #expect(experiment.key == "ek")
        let variant = try #require(experiment.variants.first)
        #expect(variant.variantId == "a")
        #expect(variant.weight == 1)
        #expect(variant.paywall == nil)
        let decodedFunnel = try #require(variant.funnel)
        #expect(decodedFunnel.id == "f")
        #expect(decodedFunnel.slug == "s")
        #expect(decodedFunnel.name == "n")
        #expect(decodedFunnel.versionId == "v")
        #expect(decodedFunnel.versionNo == 3)
        #expect(decodedFunnel.defaultLocale == "en")
        #expect(decodedFunnel.locales == ["en"])
        #expect(decodedFunnel.theme?["t"] != nil)
        #expect(decodedFunnel.settings?["s"] != nil)
        #expect(decodedFunnel.paywalls?.keys == ["pw"])
        let decodedPage = try #require(decodedFunnel.pages.first)
        #expect(decodedPage.id == "p1")
        #expect(decodedPage.type == "picture_choice")
        #expect(decodedPage.questionId == "q")
        #expect(decodedPage.texts.map(\.field) == ["title", "subtitle", "body", "cta", "headline", "placeholder", "suffix", "agreementLabel"])
        #expect(decodedPage.texts.map { $0.text.text(for: "en") } == ["t", "s", "b", "c", "h", "p", "x", "a"])
        #expect(decodedPage.benefits?.list(for: "en") == ["b1"])
        #expect(decodedPage.features?.list(for: "en") == ["f1"])
        #expect(decodedPage.steps?.list(for: "en") == ["s1"])
        let option = try #require(decodedPage.options?.first)
        #expect(option.label.text(for: "en") == "L")
        #expect(option.value == "v")
        #expect(option.imageUrl == "img")
        #expect(decodedPage.paywallId == "pw")
        let rule = try #require(decodedPage.nextRules?.first)
        #expect(rule.id == "r")
        #expect(rule.goto == "end")
        #expect(rule.condition.op == .any)
        #expect(rule.condition.clauses.first?.questionId == "q")
        #expect(rule.condition.clauses.first?.op == .isAnswered)
        #expect(rule.condition.clauses.first?.value == nil)
        #expect(decodedPage.defaultNext == "next")
        // Entry, placement, 2 × (paywall, remoteConfig, offering, package, storeIds), experiment, variant,
        // funnel, page, option, next rule, condition, clause.
        #expect(file.entries.first?.arrayForms.count == 20)
    }

    // MARK: The array quirk is recorded

    @Test func arrayFormsAreRecorded() throws {
        let entry = #"{"placement":["k",1],"paywall":["pw","main","Main",1,["en",null],null,["default",false,[]]]}"#
        let file = FallbackFile(text: fileText(entry: entry))
        let record = try #require(file.entries.first)
        #expect(record.entry != nil)
        let pointers = Set(record.arrayForms.map { file.location(of: $0).pointer })
        #expect(pointers == ["/placements/k/placement", "/placements/k/paywall", "/placements/k/paywall/4", "/placements/k/paywall/6"])
        #expect(record.entry?.paywall?.remoteConfig?.data.owned == .null)
        #expect(record.entry?.paywall?.offering?.isDefault == false)

        // No quirk, nothing recorded.
        let plain = FallbackFile(text: fileText(entry: #"{"placement":"# + Self.placementJSON + #","paywall":"# + Valid.paywall.json + "}"))
        #expect(plain.entries.first?.arrayForms.isEmpty == true)
        // An entry written as an array is recorded too.
        let arrayEntry = FallbackFile(text: fileText(entry: "[" + Self.placementJSON + "]"))
        #expect(arrayEntry.entries.first.map { $0.arrayForms.map { arrayEntry.location(of: $0).pointer } } == ["/placements/k"])
    }

    // MARK: Duplicate keys inside an entry collapse to the last one

    static let duplicateFieldCases: [DecodeCase] = [
        .loads("revision invalid then valid", #"{"placement":{"identifier":"k","revision":"5","revision":5}}"#),
        .fails("revision valid then invalid", #"{"placement":{"identifier":"k","revision":5,"revision":"5"}}"#, at: "/placement/revision", #"found the string "5""#),
        .fails("revision valid then null", #"{"placement":{"identifier":"k","revision":5,"revision":null}}"#, at: "/placement/revision", "null"),
        .loads("revision null then valid", #"{"placement":{"identifier":"k","revision":null,"revision":5}}"#),
        .loads("placement invalid then valid", #"{"placement":{"identifier":1},"placement":{"identifier":"k","revision":1}}"#),
        .fails("placement valid then invalid", #"{"placement":{"identifier":"k","revision":1},"placement":{"identifier":1,"revision":1}}"#, at: "/placement/identifier", "expected a string"),
        .loads("placement valid then null", #"{"placement":{"identifier":"k","revision":1},"placement":null}"#),
        .loads("op unknown then known", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("next_rules", #"[{"id":"r","condition":{"op":"xor","op":"all","clauses":[]},"goto":"end"}]"#).json + "]").json + "}"),
        .fails("op known then unknown", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("next_rules", #"[{"id":"r","condition":{"op":"all","op":"xor","clauses":[]},"goto":"end"}]"#).json + "]").json + "}", at: "/funnel/pages/0/next_rules/0/condition/op", #""xor""#),
        .loads("text locale repeated: last wins", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("title", #"{"en":1,"en":"Hi"}"#).json + "]").json + "}"),
        .fails("text locale repeated: last fails", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("title", #"{"en":"Hi","en":1}"#).json + "]").json + "}", at: "/funnel/pages/0/title/en", "expected a string"),
        .loads("text list locale repeated: last wins", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("steps", #"{"en":[1],"en":["a"]}"#).json + "]").json + "}"),
        .fails("text list locale repeated: last fails", #"{"funnel":"# + Valid.funnel.with("pages", "[" + Valid.page.with("steps", #"{"en":["a"],"en":[1]}"#).json + "]").json + "}", at: "/funnel/pages/0/steps/en/0", "expected a string"),
        .loads("paywalls key repeated: last wins", #"{"funnel":"# + Valid.funnel.with("paywalls", #"{"pw":1,"pw":"# + Valid.paywall.json + "}").json + "}"),
        .fails("paywalls key repeated: last fails", #"{"funnel":"# + Valid.funnel.with("paywalls", #"{"pw":"# + Valid.paywall.json + #","pw":1}"#).json + "}", at: "/funnel/paywalls/pw", "expected an object"),
    ]

    @Test(arguments: duplicateFieldCases)
    func duplicateFieldsCollapseToTheLast(_ decodeCase: DecodeCase) throws { try Self.check(decodeCase) }

    @Test func duplicateFieldsAreRecorded() throws {
        let file = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"k","revision":"x","revision":2,"revision":3}}"#))
        let record = try #require(file.entries.first)
        #expect(record.entry?.placement?.revision == 3)
        let duplicate = try #require(record.duplicateFields.first)
        #expect(record.duplicateFields.count == 1)
        #expect(duplicate.field == "revision")
        #expect(file.location(of: duplicate.object).pointer == "/placements/k/placement")
        #expect(duplicate.values.count == 3)
        #expect(duplicate.values.map { file.document.value(at: $0.node).byteRange }.map { String(decoding: file.document.bytes[$0], as: UTF8.self) } == [#""x""#, "2", "3"])

        let entryLevel = FallbackFile(text: fileText(entry: #"{"placement":null,"placement":{"identifier":"k","revision":1}}"#))
        #expect(entryLevel.entries.first?.duplicateFields.map(\.field) == ["placement"])
        #expect(entryLevel.loadedCount == 1)

        let none = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"k","revision":1}}"#))
        #expect(none.entries.first?.duplicateFields.isEmpty == true)
    }

    // MARK: §3 duplicate placement keys, order, counting

    static func entry(revision: String) -> String {
        #"{"placement":{"identifier":"k","revision":"# + revision + "}}"
    }

    @Test func duplicatePlacementKeysLastWinsCountsOnceFirstPosition() throws {
        let text = fileText(placements: #"{"a":"# + Self.entry(revision: "1") + #","b":"# + Self.entry(revision: "2") + #","a":"# + Self.entry(revision: "3") + "}")
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.entries.map(\.key) == ["a", "b"])
        #expect(file.loadedCount == 2)
        #expect(file.loadedEntries.map(\.key) == ["a", "b"])
        #expect(file.loadedEntries.first?.entry.placement?.revision == 3)
        #expect(file.entries.first?.keyRefs.count == 2)
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == 2)
        #expect(store.entry(forPlacement: "a")?.placement?.revision == 3)
    }

    @Test func duplicatePlacementKeysValidThenInvalidIsSkipped() throws {
        let text = fileText(placements: #"{"a":"# + Self.entry(revision: "1") + #","a":"# + Self.entry(revision: #""1""#) + "}")
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.entries.count == 1)
        #expect(file.loadedCount == 0)
        #expect(file.skippedCount == 1)
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == 0)
        #expect(store.entry(forPlacement: "a") == nil)
    }

    @Test func duplicatePlacementKeysInvalidThenValidLoads() throws {
        let text = fileText(placements: #"{"a":1,"a":"# + Self.entry(revision: "1") + "}")
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == 1)
        #expect(try FallbackStore().setFallbackPlacements(json: text) == 1)
    }

    @Test func entriesAreInFileOrderNotSorted() {
        let file = FallbackFile(text: fileText(placements: #"{"zeta":{},"alpha":{},"Mid":{},"beta":1,"_":{}}"#))
        #expect(file.entries.map(\.key) == ["zeta", "alpha", "Mid", "beta", "_"])
        #expect(file.loadedEntries.map(\.key) == ["zeta", "alpha", "Mid", "_"])
    }

    @Test func theKeyIsNeverComparedWithTheIdentifier() throws {
        let text = fileText(placements: #"{"home":{"placement":{"identifier":"settings","revision":1},"paywall":"# + Valid.paywall.json + "}}")
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == 1)
        let store = FallbackStore()
        try store.setFallbackPlacements(json: text)
        #expect(store.entry(forPlacement: "home")?.placement?.identifier == "settings")
        #expect(store.entry(forPlacement: "settings") == nil)
        // Keys are exact and case-sensitive.
        #expect(store.entry(forPlacement: "Home") == nil)
        #expect(store.entry(forPlacement: "home ") == nil)
    }

    @Test func theTotalCountsEntriesThatCanNeverServeAnything() throws {
        let members: [String] = [
            #""empty":{}"#,
            #""nulls":{"placement":null,"paywall":null,"experiment":null,"funnel":null}"#,
            #""no_variants":{"placement":"# + Self.placementJSON + #","experiment":{"id":"e","key":"k","variants":[]}}"#,
            #""no_placement":{"paywall":"# + Valid.paywall.json + "}",
            #""array":[]"#,
            #""broken":{"placement":{"identifier":"k"}}"#,
        ]
        let placements = "{" + members.joined(separator: ",") + "}"
        let text = fileText(placements: placements)
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == 5)
        #expect(file.skippedCount == 1)
        #expect(try FallbackStore().setFallbackPlacements(json: text) == 5)
    }

    // MARK: The skip reason

    @Test func skipReasonIsPointerColonExpectation() throws {
        let text = fileText(placements: #"{"trial_reminder":{"placement":{"identifier":"trial_reminder","revision":"5"}}}"#)
        let file = FallbackFile(text: text)
        let record = try #require(file.entries.first)
        let failure = try #require(record.failure)
        #expect(file.location(of: failure.source).pointer + ": " + failure.expectation
            == #"/placements/trial_reminder/placement/revision: expected an integer, found the string "5""#)
    }

    @Test func skipReasonOfTheFunnelEraFixture() throws {
        let file = FallbackFile(bytes: try fixtureBytes("funnel-era-fallback.json"))
        let skipped = file.entries.filter { $0.entry == nil }
        #expect(skipped.map(\.key) == ["trial_reminder"])
        let failure = try #require(skipped.first?.failure)
        let location = file.location(of: failure.source)
        #expect(location.pointer + ": " + failure.expectation
            == #"/placements/trial_reminder/placement/revision: expected an integer, found the string "5""#)
    }
}
