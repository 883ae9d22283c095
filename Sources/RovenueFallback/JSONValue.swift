/// An owned JSON value, detached from the text it came from.
///
/// Objects keep their members in order. Values decoded from a snapshot have unique keys
/// (the last occurrence of a duplicate wins, as in the SDK); values built by hand may not.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the last member named exactly `key` (same UTF-8 bytes), if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key.utf8.elementsEqual(key.utf8) })?.value
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON number with its lexical form kept: `1`, `1.0` and `1e0` are different tokens.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number token exactly as written.
    public let text: String

    public init(text: String) {
        self.text = text
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    public init(_ value: Double) {
        self.text = JSONNumber.shortestText(for: value)
    }

    /// True when the token has no fraction and no exponent (`-0` included).
    public var isIntegerToken: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as the SDK's `int` (§4): an integer token within the signed 64-bit range, as the
    /// SDK's parser reads it (§2.1). `-0` is not one: the parser reads it as the float -0.0.
    public var int64Value: Int64? {
        reading?.int64
    }

    /// The value as the SDK's parser reads it (§2.1, not correctly rounded): the one bucketing uses.
    /// `±inf` when the magnitude overflows; for text that is not a JSON number, Swift's reading of it.
    public var doubleValue: Double {
        switch reading {
        case .some(.outOfRange): text.hasPrefix("-") ? -.infinity : .infinity
        case .some(let reading): reading.double ?? .nan
        case nil: Double(text) ?? .nan
        }
    }

    public var description: String { text }

    static func shortestText(for value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}

// MARK: - Writing JSON text

extension JSONValue {
    /// Options for `jsonText(_:)`.
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Object keys in ascending order of their UTF-8 bytes, as the dashboard writes them.
        public static let sortedKeys = WritingOptions(rawValue: 1)
        /// Two-space indentation and one member or element per line.
        public static let prettyPrinted = WritingOptions(rawValue: 2)
    }

    /// This value as RFC 8259 JSON text. Compact unless `.prettyPrinted` is given.
    public func jsonText(_ options: WritingOptions = []) -> String {
        var output = ""
        write(to: &output, options: options, indent: 0)
        return output
    }

    private func write(to output: inout String, options: WritingOptions, indent: Int) {
        let pretty = options.contains(.prettyPrinted)
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += number.text
        case .string(let string): JSONValue.writeQuoted(string, to: &output)
        case .array(let elements):
            if elements.isEmpty { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                if pretty { JSONValue.newline(&output, indent + 1) }
                element.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output += "]"
        case .object(var members):
            if members.isEmpty { output += "{}"; return }
            if options.contains(.sortedKeys) {
                members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                if pretty { JSONValue.newline(&output, indent + 1) }
                JSONValue.writeQuoted(member.key, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, options: options, indent: indent + 1)
            }
            if pretty { JSONValue.newline(&output, indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, _ indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Appends `string` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func writeQuoted(_ string: String, to output: inout String) {
        output += "\""
        let utf8 = string.utf8
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += string
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        output += String(decoding: bytes, as: UTF8.self)
        output += "\""
    }

    /// `string` as a JSON string literal.
    public static func quoted(_ string: String) -> String {
        var output = ""
        writeQuoted(string, to: &output)
        return output
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
