import Foundation
import Testing
@testable import RovenueFallback

/// fallback-format.md §2.1: every number token is read as the SDK's parser reads it, step by step
/// and not correctly rounded; §2 rule 5 and §4's `int` and `number` follow from that reading.
///
/// The vectors (`Fixtures/number-reading-vectors.json`) come from an independent reference of §2.1,
/// not from this code; `bucketing.test.js` draws with the same file, so the site and the resolver
/// cannot drift apart.
enum NumberReadingFixtures {
    struct Number: Decodable, Sendable, CustomTestStringConvertible {
        let token: String
        /// `unsignedInteger`, `negativeInteger`, `float` or `outOfRange`.
        let reading: String
        let integer: String?
        /// The value's IEEE 754 bit pattern, in hex.
        let bits: String?
        /// What a correctly rounded parse gives (hex bits, or `inf`).
        let correctlyRounded: String?
        /// The value as the site writes it into `data-weight`.
        let siteWeight: String?

        var testDescription: String { token.count > 40 ? String(token.prefix(40)) + "…" : token }

        var value: Double? { bits.flatMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:)) }
    }

    struct Draw: Decodable, Sendable, CustomTestStringConvertible {
        let subscriberId: String
        let key: String
        let bucket: Int
        let weights: [String]
        let siteWeights: [String]
        let variant: Int
        let variantIfCorrectlyRounded: Int

        var testDescription: String { "\(weights) bucket \(bucket)" }
    }

    struct File: Decodable {
        let numbers: [Number]
        let draws: [Draw]
    }

    static let file: File = {
        let url = Bundle.module.url(forResource: "number-reading-vectors.json", withExtension: nil, subdirectory: "Fixtures")!
        return try! JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }()
}

@Suite("§2.1 number reading")
struct NumberReadingTests {
    /// The expected reading of a vector, as a `JSONNumber.Reading`.
    static func expected(_ number: NumberReadingFixtures.Number) throws -> JSONNumber.Reading {
        let integer = number.integer ?? ""
        switch number.reading {
        case "unsignedInteger": return .unsignedInteger(try #require(UInt64(integer)))
        case "negativeInteger": return .negativeInteger(try #require(Int64(integer)))
        case "float": return .float(try #require(number.value))
        default: return .outOfRange
        }
    }

    @Test(arguments: NumberReadingFixtures.file.numbers)
    func tokenReadsAsTheSDKReadsIt(_ number: NumberReadingFixtures.Number) throws {
        let reading = try #require(JSONNumber(text: number.token).reading)
        let expected = try Self.expected(number)
        #expect(reading == expected)
        if case .float(let value) = reading, case .float(let want) = expected {
            // `==` takes -0.0 for 0.0: the bits tell them apart.
            #expect(value.bitPattern == want.bitPattern, "\(value) vs \(want)")
        }
        if let value = number.value {
            #expect(JSONNumber(text: number.token).doubleValue.bitPattern == value.bitPattern)
        }
    }

    @Test(arguments: NumberReadingFixtures.file.numbers)
    func theLoaderAgrees(_ number: NumberReadingFixtures.Number) throws {
        // As a weight inside placements: rule 5 for out of range, else the step-by-step value.
        let variant = Valid.variant.with("weight", number.token).json
        let entry = #"{"placement":{"identifier":"k","revision":1},"experiment":"#
            + Valid.experiment.with("variants", "[" + variant + "]").json + "}"
        let file = FallbackFile(text: fileText(entry: entry))
        guard let value = number.value else {
            #expect(file.rejection?.rule == .numberOutOfRange)
            #expect(file.rejection?.detail == "number out of range")
            // Skipped unread in any other top-level value.
            #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":["# + number.token + "]}") == nil)
            return
        }
        #expect(file.rejection == nil)
        let weight = try #require(file.loadedEntries.first?.entry.experiment?.variants.first?.weight)
        #expect(weight.bitPattern == value.bitPattern, "\(weight) vs \(value)")

        // As `Placement.revision`: an int only when the SDK reads a signed 64-bit integer.
        let revision = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"k","revision":"# + number.token + "}}"))
        let isInt = number.reading == "negativeInteger" || (number.reading == "unsignedInteger" && Int64(number.integer ?? "") != nil)
        #expect((revision.loadedEntries.first?.entry.placement?.revision).map(String.init) == (isInt ? number.integer : nil))
    }

    /// The vectors include cases where a correctly rounded parse gives another double: without them
    /// this suite could not tell the two readings apart.
    @Test func someVectorsDifferFromCorrectRounding() {
        let differing = NumberReadingFixtures.file.numbers.filter { number in
            guard let value = number.value, let correct = Double(number.token) else { return false }
            return value.bitPattern != correct.bitPattern
        }
        #expect(differing.count >= 5)
        #expect(differing.map(\.token).contains("1e-23"))
        #expect(differing.map(\.token).contains("0.3333333333333333333333333333"))
    }

    // MARK: The contract's own examples and their boundaries

    /// §2 rule 5: "`1.7976931348623158e308` throws although a correctly rounded parse gives the largest double".
    @Test(arguments: ["1.7976931348623158e308", "-1.7976931348623158e308", "17976931348623158e292", "1.797693134862315800001e308"])
    func largestDoubleSpelledLongOverflows(_ token: String) {
        #expect(Double(token)?.isFinite == true, "a correctly rounded parse is finite")
        #expect(rejectionRule(fileText(entry: #"{"x":"# + token + "}")) == .numberOutOfRange)
        #expect(rejectionRule(#"{"formatVersion":"# + token + #","placements":{}}"#) == .numberOutOfRange)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"generatedAt":"# + token + "}") == nil)
    }

    @Test(arguments: ["1.7976931348623157e308", "1e308", "1.7976931348623156e308", "179769313486231570e291"])
    func justBelowStillLoads(_ token: String) {
        #expect(rejectionRule(fileText(entry: #"{"x":"# + token + "}")) == nil)
    }

    /// Integer digits: 2^64 - 1 is an unsigned integer, 2^64 a float; -2^63 a signed integer, -2^63 - 1 a float.
    @Test(arguments: [
        ("18446744073709551615", JSONNumber.Reading.unsignedInteger(.max)),
        ("18446744073709551616", .float(18446744073709551616.0)),
        ("-9223372036854775808", .negativeInteger(.min)),
        ("-9223372036854775809", .float(-9223372036854775808.0)),
        ("9223372036854775807", .unsignedInteger(UInt64(Int64.max))),
        ("9223372036854775808", .unsignedInteger(UInt64(Int64.max) + 1)),
        ("-0", .float(-0.0)),
        ("0", .unsignedInteger(0)),
        ("-1", .negativeInteger(-1)),
    ])
    func integerBoundaries(_ token: String, _ expected: JSONNumber.Reading) {
        #expect(JSONNumber(text: token).reading == expected)
    }

    /// §4: an `int` is an integer token within the signed 64-bit range, so `-0`, `3.0` and `1e2` are not.
    @Test(arguments: [
        ("0", Int64?(0)), ("-1", -1), ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ("-0", nil), ("3.0", nil), ("1e2", nil), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("18446744073709551615", nil), ("18446744073709551616", nil),
    ])
    func intValue(_ token: String, _ expected: Int64?) {
        #expect(JSONNumber(text: token).int64Value == expected)
    }

    /// Exponent digits past 2^31 - 1: a non-zero significand with a positive exponent overflows,
    /// anything else is 0 (with the token's sign).
    @Test(arguments: [
        ("1e2147483648", nil), ("1e+2147483648", nil), ("-1e2147483648", nil), ("0.5e99999999999999999999", nil),
        ("0e2147483648", Double?(0)), ("0.0e99999999999999999999", 0), ("-0e2147483648", -0.0),
        ("1e-2147483648", 0), ("-1e-99999999999999999999", -0.0), ("9e-2147483649", 0),
        // 2^31 - 1 itself is read (then overflows, or underflows by repeated division).
        ("1e2147483647", nil), ("0e2147483647", 0), ("1e-2147483647", 0),
    ])
    func hugeExponents(_ token: String, _ expected: Double?) throws {
        let reading = try #require(JSONNumber(text: token).reading)
        if let expected {
            #expect(reading == .float(expected))
            #expect(reading.double?.sign == expected.sign)
            #expect(rejectionRule(fileText(entry: #"{"x":"# + token + "}")) == nil)
        } else {
            #expect(reading == .outOfRange)
            #expect(rejectionRule(fileText(entry: #"{"x":"# + token + "}")) == .numberOutOfRange)
        }
    }

    /// Far negative exponents divide by 1e308 until the rest fits: values land in the subnormals
    /// rounded twice, or reach 0.
    @Test func repeatedDivisionByTheLargestPowerOfTen() throws {
        let value = try #require(JSONNumber(text: "123456789e-330").reading?.double)
        #expect(value == 123456789 / 1e308 / 1e22)
        #expect(JSONNumber(text: "1e-400").reading == .float(0))
        #expect(JSONNumber(text: "-1e-400").reading?.double?.sign == .minus)
        #expect(JSONNumber(text: "5e-324").reading == .float(.leastNonzeroMagnitude))
        // 331 integer digits: 311 dropped (exponent +311), then e-330: 10^19 / 1e19.
        #expect(JSONNumber(text: "1" + String(repeating: "0", count: 330) + "e-330").reading == .float(1))
    }

    /// Integer digits that do not fit are dropped (each adds 1 to the exponent); fraction digits
    /// that do not fit are ignored; a fraction digit can still fit after integer digits were dropped.
    @Test func digitsPast64Bits() throws {
        // 2^64 - 1 fits; the 21st digit is dropped: one multiply by 10.
        #expect(JSONNumber(text: "184467440737095516150").reading == .float(Double(UInt64.max) * 10))
        // The 20th integer digit (6) is dropped, then the fraction digit 0 fits again: exponent 0.
        #expect(JSONNumber(text: "18446744073709551616.0").reading == .float(Double(UInt64(18446744073709551610))))
        #expect(JSONNumber(text: "0.3333333333333333333333333333").reading == .float(Double(UInt64(3333333333333333333)) / 1e19))
        #expect(JSONNumber(text: "0." + String(repeating: "1", count: 10_000)).reading == .float(Double(UInt64(11111111111111111111)) / 1e20))
        let manyDigits = "1" + String(repeating: "0", count: 100_000) + "e-100000"
        #expect(JSONNumber(text: manyDigits).reading == .float(1))
    }

    /// The SDK names a misplaced number by how its parser read it (serde's `invalid type` message).
    @Test(arguments: [
        ("-0", "floating point `-0.0`"), ("1e2", "floating point `100.0`"), ("0.5", "floating point `0.5`"),
        ("18446744073709551615", "integer `18446744073709551615`"), ("-5", "integer `-5`"),
        ("18446744073709551616", "floating point `18446744073709552000.0`"), ("1e-7", "floating point `0.0000001`"),
    ])
    func wrongTypeMessagesNameTheNumberAsRead(_ token: String, _ named: String) {
        #expect(FallbackFile(text: #"{"formatVersion":1,"placements":"# + token + "}").rejection?.detail == "invalid type: \(named), expected a map")
    }

    @Test(arguments: ["", "-", "+1", "01", "1.", ".5", "1e", "1e+", "1.5.2", "0x10", "1 ", "--1", "inf", "NaN", "1e5x"])
    func nonTokensHaveNoReading(_ text: String) {
        #expect(JSONNumber(text: text).reading == nil)
    }

    // MARK: Bucketing with the step-by-step value

    @Test(arguments: NumberReadingFixtures.file.draws)
    func theResolverDrawsWithTheSDKsValue(_ draw: NumberReadingFixtures.Draw) throws {
        let variants = draw.weights.enumerated().map { index, weight in
            Valid.variant.with("variantId", quote("v\(index)")).with("weight", weight).json
        }
        let experiment = Valid.experiment.with("key", quote(draw.key)).with("variants", "[" + variants.joined(separator: ",") + "]")
        let file = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"k","revision":1},"experiment":"# + experiment.json + "}"))
        let entry = try #require(file.loadedEntries.first?.entry)
        let resolution = entry.resolve(subscriberId: draw.subscriberId)
        #expect(resolution.draw?.bucket == draw.bucket)
        #expect(resolution.draw?.variantIndex == draw.variant)
        // What a correctly rounded reading would draw: where it differs, the test tells them apart.
        let correctlyRounded = draw.weights.map { Double($0)! }
        #expect(Bucketing.variantIndex(forBucket: draw.bucket, weights: correctlyRounded) == draw.variantIfCorrectlyRounded)
    }

    @Test func someDrawsChangeWithTheReading() {
        #expect(NumberReadingFixtures.file.draws.filter { $0.variant != $0.variantIfCorrectlyRounded }.count >= 2)
    }
}
