/// How the SDK's JSON parser (serde_json 1.0, default features) reads a number token: the
/// contract's §2.1, step by step. It is not correctly rounded, and every reader of a number from a
/// snapshot (the loader, the decoder, the checks, the diff, the timeline, the site) goes through it,
/// so all of them agree with the device and with each other.
extension JSONNumber {
    /// What the SDK's parser makes of a number token.
    public enum Reading: Sendable, Hashable {
        /// A token with no fraction and no exponent, not negative, whose digits fit 64 bits.
        case unsignedInteger(UInt64)
        /// `-N` with no fraction and no exponent, for 1 ≤ N ≤ 2^63.
        case negativeInteger(Int64)
        /// Every other token (`-0`, `1.0`, `1e2`, integers too large for 64 bits): its value step by step.
        case float(Double)
        /// The magnitude overflows a 64-bit float: the parser throws `number out of range`.
        case outOfRange

        /// The value as the SDK's `int` (§4): an integer token within the signed 64-bit range.
        /// `-0`, `3.0` and `1e2` are floats to the SDK, so they are not ints.
        public var int64: Int64? {
            switch self {
            case .unsignedInteger(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
            case .negativeInteger(let value): value
            case .float, .outOfRange: nil
            }
        }

        /// The value as a 64-bit float (an integer converted to the nearest double), the value
        /// bucketing uses; nil when it is out of range.
        public var double: Double? {
            switch self {
            case .unsignedInteger(let value): Double(value)
            case .negativeInteger(let value): Double(value)
            case .float(let value): value
            case .outOfRange: nil
            }
        }

        /// True when the parser reads an integer (unsigned or negative), not a float.
        public var isInteger: Bool {
            switch self {
            case .unsignedInteger, .negativeInteger: true
            case .float, .outOfRange: false
            }
        }
    }

    /// The SDK's reading of this token; nil when the text is not a JSON number token.
    public var reading: Reading? {
        var text = text
        return text.withUTF8 { JSONNumber.reading(of: $0) }
    }

    /// Reads `token`, the bytes of one number token, as the SDK's parser does (§2.1); nil when the
    /// bytes are not exactly one RFC 8259 number. Allocates nothing.
    public static func reading(of token: UnsafeBufferPointer<UInt8>) -> Reading? {
        let count = token.count
        var index = 0
        let negative = count > 0 && token[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        @inline(__always) func digit(at index: Int) -> UInt64? {
            guard index < count else { return nil }
            let value = token[index] &- UInt8(ascii: "0")
            return value < 10 ? UInt64(value) : nil
        }
        @inline(__always) func appending(_ digit: UInt64, to significand: UInt64) -> UInt64? {
            let (shifted, overflow) = significand.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            return overflow || carry ? nil : sum
        }

        // Integer digits: once one does not fit, it and every later integer digit add 1 to `exponent`.
        var significand: UInt64 = 0
        // Counts digits of a text under 2^31 bytes, so it cannot overflow; clamped to 32 bits below.
        var exponent = 0
        guard let first = digit(at: index) else { return nil }
        index += 1
        if first == 0 {
            if digit(at: index) != nil { return nil }
        } else {
            significand = first
            var dropping = false
            while let next = digit(at: index) {
                if !dropping, let grown = appending(next, to: significand) {
                    significand = grown
                } else {
                    dropping = true
                    exponent += 1
                }
                index += 1
            }
        }
        var isIntegerToken = true

        // Fraction digits: each that fits subtracts 1; from the first that does not, the rest is ignored.
        if index < count, token[index] == UInt8(ascii: ".") {
            isIntegerToken = false
            index += 1
            guard digit(at: index) != nil else { return nil }
            var ignoring = false
            while let next = digit(at: index) {
                if !ignoring {
                    if let grown = appending(next, to: significand) {
                        significand = grown
                        exponent -= 1
                    } else {
                        ignoring = true
                    }
                }
                index += 1
            }
        }
        var exponent32 = Int32(clamping: exponent)

        // The exponent, added with saturation; digits past 2^31 - 1 end the reading at once.
        if index < count, token[index] == UInt8(ascii: "e") || token[index] == UInt8(ascii: "E") {
            isIntegerToken = false
            index += 1
            var positiveExponent = true
            if index < count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-") {
                positiveExponent = token[index] == UInt8(ascii: "+")
                index += 1
            }
            guard digit(at: index) != nil else { return nil }
            var written: Int32 = 0
            var exponentOverflows = false
            while let next = digit(at: index) {
                let value = Int32(next)
                if written > Int32.max / 10 || (written == Int32.max / 10 && value > Int32.max % 10) {
                    exponentOverflows = true
                }
                if !exponentOverflows { written = written * 10 + value }
                index += 1
            }
            guard index == count else { return nil }
            if exponentOverflows {
                if significand != 0, positiveExponent { return .outOfRange }
                return .float(negative ? -0.0 : 0.0)
            }
            let (sum, overflow) = positiveExponent
                ? exponent32.addingReportingOverflow(written) : exponent32.subtractingReportingOverflow(written)
            exponent32 = overflow ? (positiveExponent ? Int32.max : Int32.min) : sum
        }
        guard index == count else { return nil }

        if isIntegerToken, exponent == 0 {
            if !negative { return .unsignedInteger(significand) }
            // serde_json negates the significand as an i64: `-0` and magnitudes past 2^63 are floats.
            if significand == 0 || significand > UInt64(Int64.max) + 1 { return .float(-Double(significand)) }
            return .negativeInteger(significand == UInt64(Int64.max) + 1 ? Int64.min : -Int64(significand))
        }

        // One multiply or divide by a power of ten; far negative exponents divide by 1e308 first.
        var value = Double(significand)
        while true {
            let magnitude = exponent32.magnitude
            if magnitude < UInt32(powersOfTen.count) {
                if exponent32 >= 0 {
                    value *= powersOfTen[Int(magnitude)]
                    if value.isInfinite { return .outOfRange }
                } else {
                    value /= powersOfTen[Int(magnitude)]
                }
                break
            }
            if value == 0 { break }
            if exponent32 >= 0 { return .outOfRange }
            value /= powersOfTen[308]
            exponent32 += 308
        }
        return .float(negative ? -value : value)
    }

    /// `1e0` … `1e308`, each the double nearest the power of ten (as the literals in serde_json's table).
    private static let powersOfTen: [Double] = (0...308).map { Double("1e\($0)")! }
}
