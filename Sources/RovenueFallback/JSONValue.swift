/// An owned JSON value, detached from the text it came from.
///
/// Objects keep their members in order. Values decoded from a snapshot have unique keys
/// (the last occurrence of a duplicate wins, as in the SDK); values built by hand may not.
///
/// Writing, equality and hashing work at any depth (nothing recurses). Releasing does not: Swift
/// frees nested arrays recursively, so a value nested tens of thousands deep overflows the stack
/// when its last copy goes. Never build one from untrusted text (see `JSONDocument.Value.owned`).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, its token kept as written.
    case number(JSONNumber)
    /// A string, decoded.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object, its members in order.
    case object([Member])

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key, decoded.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// The member `"key": value`.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the last member named exactly `key` (same UTF-8 bytes), if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { ExactKey.same($0.key, key) })?.value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON number with its lexical form kept: `1`, `1.0` and `1e0` are different tokens.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number token exactly as written.
    public let text: String

    /// The number token `text`, kept as written; `reading` is nil when it is not a JSON number.
    public init(text: String) {
        self.text = text
    }

    /// `value`'s decimal token (`42`, `-7`).
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// A token for `value`: a whole value under 10^15 as an integer (`2`), any other as Swift prints it (`0.5`, `1e+20`).
    public init(_ value: Double) {
        self.text = JSONNumber.shortestText(for: value)
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
        /// Each number as the SDK's parser reads it (§2.1): an integer as written, a float as the
        /// shortest text that reads back as its value (`1.0`, `0.5`, `1e20`), both zeros as `0.0`
        /// (serde's values compare them equal). Numbers the SDK reads alike are written alike,
        /// and an integer never like a float: `1`, `1.0` and `1e0` are `1`, `1.0` and `1.0`.
        public static let numbersAsRead = WritingOptions(rawValue: 4)
        /// Each number as the SDK's JSON library prints it in its messages: integers as written,
        /// other numbers as shortest floats, `-0` as `-0.0`.
        static let numbersAsPrinted = WritingOptions(rawValue: 8)

        /// The canonical text of a value: compact, keys in byte order, numbers as read. Two values
        /// have the same canonical text exactly when the SDK reads them alike (member order, a
        /// repeated key's earlier values, whitespace and a number's spelling aside).
        public static let canonical: WritingOptions = [.sortedKeys, .numbersAsRead]

        /// `token`, a number token as written, as these options write it.
        func numberText(_ token: String) -> String {
            guard !isDisjoint(with: [.numbersAsRead, .numbersAsPrinted]) else { return token }
            let number = JSONNumber(text: token)
            let reading = number.reading
            if reading?.isInteger == true { return token }
            if contains(.numbersAsPrinted) { return FallbackFile.ryuText(number.doubleValue) }
            guard case .float(let value) = reading else { return token }
            return FallbackFile.ryuText(value == 0 ? 0 : value)
        }
    }

    /// This value as RFC 8259 JSON text. Compact unless `.prettyPrinted` is given. Nothing
    /// recurses: any depth is written.
    public func jsonText(_ options: WritingOptions = []) -> String {
        var writer = JSONWriter(tree: ValueTree(), options: options)
        writer.write(self)
        return writer.output
    }

    /// `JSONValue` as a tree for `JSONWriter`: scalars written as they are, containers with their
    /// own arrays (nothing copied).
    struct ValueTree: JSONTree {
        func content(
            of value: JSONValue, options: WritingOptions, writingScalarTo output: inout String
        ) -> JSONContent<JSONValue, Member>? {
            switch value {
            case .null: output += "null"
            case .bool(let flag): output += flag ? "true" : "false"
            case .number(let number): output += options.numberText(number.text)
            case .string(let string): JSONValue.writeQuoted(string, to: &output)
            case .array(let elements): return .array(elements)
            case .object(let members): return .object(members)
            }
            return nil
        }
    }

    static func newline(_ output: inout String, _ indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Appends `string` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func writeQuoted(_ string: String, to output: inout String) {
        let utf8 = string.utf8
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += "\""
            output += string
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 16)
        appendQuoted(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal to UTF-8 `bytes`, escaped as `writeQuoted(_:to:)`
    /// escapes it: quotes, backslashes and control characters; every other character as its UTF-8.
    /// Writers that build bytes (`check`'s JSON and SARIF) call this, so there is one escaping.
    public static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Each run of plain bytes (nearly all text) is found by a block scan and copied at once.
            var start = 0
            while true {
                let index = JSONTextScan.firstStringStop(in: utf8, from: start)
                if index > start { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                guard index < utf8.count else { break }
                let byte = utf8[index]
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `string` as a JSON string literal.
    public static func quoted(_ string: String) -> String {
        var output = ""
        writeQuoted(string, to: &output)
        return output
    }
}

// MARK: - Equality and hashing without recursion

extension JSONValue {
    /// The same case and the same values, members in the same order, level by level from an
    /// explicit stack rather than by recursion. Strings and member keys are compared by their UTF-8
    /// bytes, as the SDK compares them (`ExactKey`), not by `String`'s `==` (canonical
    /// equivalence): `.string("café")` composed and decomposed are different values.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.null, .null): continue
            case (.bool(let lhs), .bool(let rhs)): guard lhs == rhs else { return false }
            case (.number(let lhs), .number(let rhs)): guard lhs == rhs else { return false }
            case (.string(let lhs), .string(let rhs)): guard ExactKey.same(lhs, rhs) else { return false }
            case (.array(let lhs), .array(let rhs)):
                guard lhs.count == rhs.count else { return false }
                pending.append(contentsOf: zip(lhs, rhs))
            case (.object(let lhs), .object(let rhs)):
                guard lhs.count == rhs.count else { return false }
                for (left, right) in zip(lhs, rhs) {
                    guard ExactKey.same(left.key, right.key) else { return false }
                    pending.append((left.value, right.value))
                }
            default: return false
            }
        }
        return true
    }

    /// Hashes what `==` compares, level by level from an explicit stack rather than by recursion.
    public func hash(into hasher: inout Hasher) {
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .bool(let flag):
                hasher.combine(1 as UInt8)
                hasher.combine(flag)
            case .number(let number):
                hasher.combine(2 as UInt8)
                hasher.combine(number)
            case .string(let string):
                hasher.combine(3 as UInt8)
                hasher.combine(ExactKey(string))
            case .array(let elements):
                hasher.combine(4 as UInt8)
                hasher.combine(elements.count)
                pending.append(contentsOf: elements.reversed())
            case .object(let members):
                hasher.combine(5 as UInt8)
                hasher.combine(members.count)
                for member in members { hasher.combine(ExactKey(member.key)) }
                for member in members.reversed() { pending.append(member.value) }
            }
        }
    }
}

// MARK: - The writer

/// A container's content as `JSONWriter` walks it.
enum JSONContent<Node, Member> {
    case array([Node])
    case object([Member])
}

/// A tree of JSON values that `JSONWriter` writes: `JSONValue`, or the values of a `JSONDocument`.
protocol JSONTree {
    associatedtype Node
    associatedtype Member
    /// The elements or members of a container; for a scalar, nil, and the scalar's text, as
    /// `options` write it, is appended to `output`.
    func content(of node: Node, options: JSONValue.WritingOptions, writingScalarTo output: inout String) -> JSONContent<Node, Member>?
    func key(of member: Member) -> String
    func value(of member: Member) -> Node
}

extension JSONTree where Node == JSONValue, Member == JSONValue.Member {
    func key(of member: Member) -> String { member.key }
    func value(of member: Member) -> JSONValue { member.value }
}

/// Writes JSON text from an explicit stack of open containers, so any depth is written with
/// constant stack (one frame per open container on the heap, holding the container's own array).
/// Every writer of JSON text in the package goes through it.
struct JSONWriter<Tree: JSONTree> {
    let tree: Tree
    let options: JSONValue.WritingOptions
    /// Writing stops once the output holds more UTF-8 bytes than this (between tokens).
    let byteLimit: Int
    private(set) var output = ""
    /// True when writing stopped at `byteLimit` before the end.
    private(set) var isTruncated = false

    /// An open container: its children, and how many of them are written.
    private struct Frame {
        var content: JSONContent<Tree.Node, Tree.Member>
        var written = 0

        var count: Int {
            switch content {
            case .array(let elements): elements.count
            case .object(let members): members.count
            }
        }
    }

    init(tree: Tree, options: JSONValue.WritingOptions, byteLimit: Int = .max) {
        self.tree = tree
        self.options = options
        self.byteLimit = byteLimit
    }

    mutating func write(_ root: Tree.Node) {
        let pretty = options.contains(.prettyPrinted)
        var stack: [Frame] = []
        var next: Tree.Node? = root
        while true {
            if let node = next {
                next = nil
                switch tree.content(of: node, options: options, writingScalarTo: &output) {
                case nil: break
                case .array(let elements):
                    if elements.isEmpty {
                        output += "[]"
                    } else {
                        output += "["
                        stack.append(Frame(content: .array(elements)))
                    }
                case .object(var members):
                    if members.isEmpty {
                        output += "{}"
                    } else {
                        if options.contains(.sortedKeys) {
                            members.sort { ExactKey.precedes(tree.key(of: $0), tree.key(of: $1)) }
                        }
                        output += "{"
                        stack.append(Frame(content: .object(members)))
                    }
                }
            }
            guard let top = stack.indices.last else { return }
            if output.utf8.count > byteLimit {
                isTruncated = true
                return
            }
            let frame = stack[top]
            if frame.written < frame.count {
                if frame.written > 0 { output += "," }
                if pretty { JSONValue.newline(&output, stack.count) }
                switch frame.content {
                case .array(let elements):
                    next = elements[frame.written]
                case .object(let members):
                    let member = members[frame.written]
                    JSONValue.writeQuoted(tree.key(of: member), to: &output)
                    output += pretty ? ": " : ":"
                    next = tree.value(of: member)
                }
                stack[top].written += 1
            } else {
                if pretty { JSONValue.newline(&output, stack.count - 1) }
                if case .array = frame.content { output += "]" } else { output += "}" }
                stack.removeLast()
            }
        }
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

// MARK: - Same content

extension JSONDocument.Value {
    /// True when this value and `other` have the same content: equal as the SDK reads them, so
    /// whitespace, member order, a repeated key's earlier values and a number's spelling do not
    /// count; strings and keys are compared by their bytes. This is the one definition of "same
    /// content": two values have it exactly when `jsonText(.canonical)` writes the same text for
    /// both, which is what a content fingerprint hashes. Compared pair by pair from an explicit
    /// stack, so at any depth (a `projectId` the SDK never reads may nest 100,000 deep).
    public func hasSameContent(as other: JSONDocument.Value) -> Bool {
        var pending = [(self, other)]
        while let (old, new) = pending.popLast() {
            switch (old.kind, new.kind) {
            case (.object, .object):
                let oldMembers = old.uniqueMembers
                let newMembers = new.uniqueMembers
                guard oldMembers.count == newMembers.count else { return false }
                for (key, oldValue) in zip(oldMembers.keys, oldMembers.values) {
                    guard let newValue = newMembers[key] else { return false }
                    pending.append((oldValue, newValue))
                }
            case (.array, .array):
                guard old.count == new.count else { return false }
                pending.append(contentsOf: zip(old.elements, new.elements))
            case (.number, .number):
                // Equal as the SDK reads them (§2.1): the same integer, or floats of the same value.
                guard let oldNumber = old.number, let newNumber = new.number,
                    oldNumber.text == newNumber.text || (oldNumber.reading != nil && oldNumber.reading == newNumber.reading)
                else { return false }
            case (.string, .string):
                guard ExactKey.same(old.string ?? "", new.string ?? "") else { return false }
            case (let oldKind, let newKind):
                // null, true, false.
                guard oldKind == newKind else { return false }
            }
        }
        return true
    }
}
