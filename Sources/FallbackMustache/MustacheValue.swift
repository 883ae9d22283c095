/// A value in a template's context: what names resolve to and sections iterate over.
public enum MustacheValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case list([MustacheValue])
    case dictionary([String: MustacheValue])
    /// Renders as `.dictionary(record.dictionary)` would; its keys are shared by records of a kind,
    /// so tags find their values without hashing their names per lookup.
    case record(MustacheRecord)

    /// Whether a section renders for this value, following the spec's `!!data`.
    ///
    /// `null`, `false`, the empty string, zero, NaN and the empty list are falsey;
    /// everything else, including an empty dictionary, is truthy.
    public var isTruthy: Bool {
        switch self {
        case .string(let string): !string.isEmpty
        case .int(let int): int != 0
        case .double(let double): double != 0 && !double.isNaN
        case .bool(let bool): bool
        case .null: false
        case .list(let list): !list.isEmpty
        case .dictionary, .record: true
        }
    }

    /// The text an interpolation tag inserts, before escaping.
    ///
    /// An integral double renders without a fractional part (`1.0` as `1`), other doubles in
    /// their shortest round-tripping form (`1.210` as `1.21`); `null` and dictionaries render
    /// as the empty string; a list renders as its elements' text joined by commas.
    public var text: String {
        switch self {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): Self.text(of: double)
        case .bool(let bool): bool ? "true" : "false"
        case .null, .dictionary, .record: ""
        case .list(let list): list.map(\.text).joined(separator: ",")
        }
    }

    /// The value at `key` when this is a dictionary or a record.
    public subscript(key: String) -> MustacheValue? {
        switch self {
        case .dictionary(let dictionary): dictionary[key]
        case .record(let record): record[key]
        default: nil
        }
    }

    /// The value at `key`, whose hash the tag's name computed when it was parsed.
    @inline(__always)
    func member(_ key: String, hash: MustacheKeys.Hash) -> MustacheValue? {
        switch self {
        case .dictionary(let dictionary): dictionary[key]
        case .record(let record): record.value(forKey: key, hash: hash)
        default: nil
        }
    }

    /// This value with every record, at any depth, as its dictionary: what it renders like.
    public var dictionaryForm: MustacheValue {
        switch self {
        case .list(let list): .list(list.map(\.dictionaryForm))
        case .dictionary(let dictionary): .dictionary(dictionary.mapValues(\.dictionaryForm))
        case .record(let record): .dictionary(record.dictionary.mapValues(\.dictionaryForm))
        case .string, .int, .double, .bool, .null: self
        }
    }

    private static func text(of double: Double) -> String {
        let exactIntegerBound = 9_007_199_254_740_992.0
        if abs(double) < exactIntegerBound, let int = Int(exactly: double) {
            return String(int)
        }
        return String(double)
    }
}

extension MustacheValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension MustacheValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: MustacheValue...) {
        self = .list(elements)
    }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
