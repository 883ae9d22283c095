import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// Floats as serde prints them (`FallbackFile.ryuText`, the canonical and printed forms of a
/// number) and as Rust's `Display` writes them in messages (`rustDisplay`), both laid out from
/// `FallbackFile.ShortestDigits`, which reads Swift's `description` byte by byte. The reference
/// here lays the same description out with string operations, as the writer once did; and every
/// text must read back as the value, with no shorter digits that would.
@Suite("Shortest float digits")
struct ShortestDigitsTests {
    /// The digits and decimal point of `value`'s description, with string operations.
    static func referenceDigits(_ value: Double) -> (digits: String, decimalPoint: Int) {
        var text = "\(abs(value))"
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...].replacing("+", with: "")) ?? 0
            text = String(text[..<e])
        }
        var digits = text.replacing(".", with: "")
        let pointPosition = (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count) + exponent
        let leadingZeros = digits.prefix { $0 == "0" }.count
        digits.removeFirst(leadingZeros)
        while digits.last == "0" { digits.removeLast() }
        return (digits, pointPosition - leadingZeros)
    }

    static func referenceRyu(_ value: Double) -> String {
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let (digits, decimalPoint) = referenceDigits(value)
        let length = digits.count
        let sign = value < 0 ? "-" : ""
        if 0 < decimalPoint, decimalPoint <= 16 {
            if length <= decimalPoint {
                return sign + digits + String(repeating: "0", count: decimalPoint - length) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: decimalPoint)
            return sign + digits[..<split] + "." + digits[split...]
        }
        if -5 < decimalPoint, decimalPoint <= 0 {
            return sign + "0." + String(repeating: "0", count: -decimalPoint) + digits
        }
        let mantissa = length == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
        return sign + mantissa + "e\(decimalPoint - 1)"
    }

    static func referenceDisplay(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let (digits, decimalPoint) = referenceDigits(value)
        let sign = value < 0 ? "-" : ""
        if decimalPoint <= 0 {
            return sign + "0." + String(repeating: "0", count: -decimalPoint) + digits
        }
        if digits.count <= decimalPoint {
            return sign + digits + String(repeating: "0", count: decimalPoint - digits.count) + ".0"
        }
        let split = digits.index(digits.startIndex, offsetBy: decimalPoint)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// Values at the edges of each layout (the point inside the digits, after them up to 16
    /// places, the fractions down to 1e-5, the exponents), the extremes, subnormals, and both signs.
    static let edges: [Double] = {
        var values: [Double] = [
            1, 0.5, 0.1, 1.0 / 3, 2.0 / 3, 123.456, 1e15, 1e16, 1e17, 1e-4, 1e-5, 1.5e-5, 9.99e-5, 1e-6, 1.5e-7, 1e20, 1e21, 1e22,
            1e23, 1.7976931348623157e308, .greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude,
            18_446_744_073_709_551_616, 0.30000000000000004, 100, 1e2,
        ]
        // Read from text: as literals they are not exact, and the compiler says so.
        values += ["9007199254740993", "123456789012345680", "2.2250738585072009e-308", "4.9406564584124654e-324", "5e-324", "1e-323",
                   "12345678901234567890"].compactMap(Double.init)
        for exponent in -30...30 {
            values += [pow(10, Double(exponent)), 1.25 * pow(10, Double(exponent)), 9.87654321 * pow(10, Double(exponent))]
        }
        return values + values.map { -$0 }
    }()

    @Test func edgesAreWrittenAsTheReferenceWritesThem() {
        for value in Self.edges {
            #expect(FallbackFile.ryuText(value) == Self.referenceRyu(value), "\(value)")
            #expect(FallbackFile.rustDisplay(value) == Self.referenceDisplay(value), "\(value)")
        }
        #expect(FallbackFile.ryuText(1e20) == "1e20")
        #expect(FallbackFile.ryuText(1.5e-7) == "1.5e-7")
        #expect(FallbackFile.ryuText(0.0125) == "0.0125")
        #expect(FallbackFile.ryuText(-2.5e-300) == "-2.5e-300")
        #expect(FallbackFile.rustDisplay(1e20) == "100000000000000000000.0")
        #expect(FallbackFile.rustDisplay(-1.5e-7) == "-0.00000015")
    }

    /// Random bit patterns (every finite double is as likely as its pattern) and random short
    /// decimals, as exports hold them: the same text as the reference, which reads back as the
    /// value, and no digit fewer reads back.
    @Test func randomValuesAreWrittenAsTheReferenceWritesThem() {
        var generator = SplitMix64(seed: 2026)
        var compared = 0
        for round in 0..<60_000 {
            let value: Double
            if round % 2 == 0 {
                value = Double(bitPattern: generator.next())
            } else {
                let places = Int(generator.next() % 8)
                value = (Double(generator.next() % 10_000_000) / pow(10, Double(places))) * (round % 4 == 1 ? 1 : -1)
            }
            guard value.isFinite else { continue }
            let text = FallbackFile.ryuText(value)
            #expect(text == Self.referenceRyu(value), "\(value.bitPattern)")
            #expect(FallbackFile.rustDisplay(value) == Self.referenceDisplay(value), "\(value.bitPattern)")
            #expect(Double(text) == value, "\(text) does not read back")
            if value != 0 {
                let shortest = FallbackFile.ShortestDigits(value)
                // One significant digit fewer, rounded either way, is another value.
                if shortest.count > 1 {
                    let digits = (0..<shortest.count - 1).map { Character(UnicodeScalar(shortest[$0])) }
                    let exponent = shortest.decimalPoint - (shortest.count - 1)
                    for last in [0, 1] {
                        let mantissa = (Int(String(digits)) ?? 0) + last
                        #expect(Double("\(mantissa)e\(exponent)") != abs(value), "\(value) has shorter digits")
                    }
                }
            }
            compared += 1
        }
        #expect(compared > 50_000)
    }
}
