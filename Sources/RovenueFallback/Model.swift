/// Where a decoded value came from: a node of the `JSONDocument` it was decoded from.
///
/// Resolve it to a JSON Pointer, line and column with `FallbackFile.location(of:)`.
public struct SourceRef: Sendable, Hashable {
    /// The node index in the document.
    public let node: Int

    public init(node: Int) {
        self.node = node
    }
}

/// A value that was decoded from an object (or the array quirk) of a snapshot.
public protocol SourceBacked: Sendable {
    /// The field names in the order the array quirk uses.
    static var fieldNames: [String] { get }
    var source: SourceRef { get }
}

/// One placement entry: exactly the `data` envelope a live `GET /v1/placements/:identifier` returns.
public struct FallbackEntry: SourceBacked {
    public static let fieldNames = ["placement", "paywall", "experiment", "funnel"]
    public var placement: Placement?
    public var paywall: Paywall?
    public var experiment: Experiment?
    public var funnel: Funnel?
    public let source: SourceRef
}

public struct Placement: SourceBacked {
    public static let fieldNames = ["identifier", "revision"]
    public var identifier: String
    public var revision: Int64
    public let source: SourceRef
}

public struct Experiment: SourceBacked {
    public static let fieldNames = ["id", "key", "variants"]
    public var id: String
    /// The key that seeds bucketing.
    public var key: String
    public var variants: [Variant]
    public let source: SourceRef
}

public struct Variant: SourceBacked {
    public static let fieldNames = ["variantId", "weight", "paywall", "funnel"]
    public var variantId: String
    /// A fraction of subscribers (0.5, not 50).
    public var weight: Double
    /// The weight token as written.
    public var weightText: String
    public var paywall: Paywall?
    public var funnel: Funnel?
    public let source: SourceRef
}

public struct Paywall: SourceBacked {
    public static let fieldNames = ["id", "identifier", "name", "configFormatVersion", "remoteConfig", "builderConfig", "offering"]
    public var id: String
    public var identifier: String
    public var name: String
    public var configFormatVersion: Int64
    public var remoteConfig: RemoteConfig?
    /// The builder's layout, as written (read it with `.owned`).
    public var builderConfig: JSONDocument.Value?
    public var offering: Offering?
    public let source: SourceRef
}

public struct RemoteConfig: SourceBacked {
    public static let fieldNames = ["locale", "data"]
    public var locale: String
    /// Required, and may be `null`; as written (read it with `.owned`).
    public var data: JSONDocument.Value
    public let source: SourceRef
}

public struct Offering: SourceBacked {
    public static let fieldNames = ["identifier", "isDefault", "packages"]
    public var identifier: String
    public var isDefault: Bool
    public var packages: [Package]
    public let source: SourceRef
}

public struct Package: SourceBacked {
    public static let fieldNames = [
        "packageIdentifier", "identifier", "type", "displayName", "storeIds", "androidBasePlanId", "androidOfferId",
    ]
    public var packageIdentifier: String
    public var identifier: String
    public var type: String
    public var displayName: String
    public var storeIds: StoreIds
    public var androidBasePlanId: String?
    public var androidOfferId: String?
    public let source: SourceRef
}

public struct StoreIds: SourceBacked {
    public static let fieldNames = ["apple", "google"]
    public var apple: String?
    public var google: String?
    public let source: SourceRef
}

public struct Funnel: SourceBacked {
    public static let fieldNames = [
        "id", "slug", "name", "versionId", "versionNo", "defaultLocale", "locales", "pages", "theme", "settings", "paywalls",
    ]
    public var id: String
    public var slug: String
    public var name: String?
    public var versionId: String?
    public var versionNo: Int64?
    public var defaultLocale: String?
    public var locales: [String]?
    public var pages: [Page]
    public var theme: JSONDocument.Value?
    public var settings: JSONDocument.Value?
    /// The paywalls a funnel carries for its paywall pages, keyed by `paywallId`.
    public var paywalls: OrderedMap<Paywall>?
    public let source: SourceRef
}

/// One page of a funnel. Fields the decoder does not read (`required`, `mediaUrl`, …) stay in the
/// snapshot and can be read through `source`.
public struct Page: SourceBacked {
    public static let fieldNames = [
        "id", "type", "question_id", "title", "subtitle", "body", "cta", "headline", "placeholder", "suffix",
        "agreementLabel", "benefits", "features", "steps", "options", "paywallId", "next_rules", "default_next",
    ]
    /// The 26 page types of Rovenue's funnel builder.
    public static let knownTypes: Set<String> = [
        "welcome", "statement", "feature", "info", "loading", "result", "paywall", "end_screen", "success",
        "contact_info", "email", "phone", "multi_choice", "single_choice", "picture_choice", "yes_no", "legal",
        "checkbox", "opinion_scale", "rating", "long_text", "short_text", "date_input", "number_input", "slider",
        "text_input",
    ]
    /// The fields that hold a `Text`, in declaration order.
    public static let textFieldNames = ["title", "subtitle", "body", "cta", "headline", "placeholder", "suffix", "agreementLabel"]
    /// The fields that hold a `TextList`, in declaration order.
    public static let textListFieldNames = ["benefits", "features", "steps"]

    public var id: String
    public var type: String
    public var questionId: String?
    public var title: LocalizedText?
    public var subtitle: LocalizedText?
    public var body: LocalizedText?
    public var cta: LocalizedText?
    public var headline: LocalizedText?
    public var placeholder: LocalizedText?
    public var suffix: LocalizedText?
    public var agreementLabel: LocalizedText?
    public var benefits: LocalizedTextList?
    public var features: LocalizedTextList?
    public var steps: LocalizedTextList?
    public var options: [PageOption]?
    public var paywallId: String?
    public var nextRules: [NextRule]?
    public var defaultNext: String?
    public let source: SourceRef

    /// The text fields that are present, by field name, in declaration order.
    public var texts: [(field: String, text: LocalizedText)] {
        let all: [(String, LocalizedText?)] = [
            ("title", title), ("subtitle", subtitle), ("body", body), ("cta", cta), ("headline", headline),
            ("placeholder", placeholder), ("suffix", suffix), ("agreementLabel", agreementLabel),
        ]
        return all.compactMap { field, text in text.map { (field, $0) } }
    }

    /// The text-list fields that are present, by field name, in declaration order.
    public var textLists: [(field: String, list: LocalizedTextList)] {
        let all: [(String, LocalizedTextList?)] = [("benefits", benefits), ("features", features), ("steps", steps)]
        return all.compactMap { field, list in list.map { (field, $0) } }
    }
}

/// Copy that is either one string for every locale or a string per locale.
public enum LocalizedText: Sendable, Hashable {
    case plain(String)
    case localized(OrderedMap<String>)

    /// The text a device with `locale` shows, if the field has one for it.
    public func text(for locale: String) -> String? {
        switch self {
        case .plain(let text): text
        case .localized(let map): map[locale]
        }
    }
}

/// A list of strings, the same for every locale or one list per locale.
public enum LocalizedTextList: Sendable, Hashable {
    case plain([String])
    case localized(OrderedMap<[String]>)

    public func list(for locale: String) -> [String]? {
        switch self {
        case .plain(let list): list
        case .localized(let map): map[locale]
        }
    }
}

public struct PageOption: SourceBacked {
    public static let fieldNames = ["label", "value", "imageUrl"]
    public var label: LocalizedText
    public var value: String
    public var imageUrl: String?
    public let source: SourceRef
}

public struct NextRule: SourceBacked {
    public static let fieldNames = ["id", "condition", "goto"]
    public var id: String
    public var condition: Condition
    /// A page id, `"end"`, or `"paywall"` (the first page of type `paywall`).
    public var goto: String
    public let source: SourceRef
}

public struct Condition: SourceBacked {
    public static let fieldNames = ["op", "clauses"]

    public enum Operator: String, Sendable, CaseIterable {
        case all, any
    }

    public var op: Operator
    public var clauses: [Clause]
    public let source: SourceRef
}

public struct Clause: SourceBacked {
    public static let fieldNames = ["question_id", "op", "value"]

    public enum Operator: String, Sendable, CaseIterable {
        case eq, neq, gt, gte, lt, lte, between
        case `in`
        case notIn = "not_in"
        case contains
        case isAnswered = "is_answered"
        case isNotAnswered = "is_not_answered"
    }

    public var questionId: String
    public var op: Operator
    /// As written (read it with `.owned`).
    public var value: JSONDocument.Value?
    public let source: SourceRef
}

/// A string compared by its UTF-8 bytes, as the SDK's maps compare keys. Swift's `String` equality
/// is canonical equivalence ("é" precomposed equals "e" + U+0301, "K" equals the Kelvin sign U+212A);
/// for the SDK those are different keys.
///
/// Use it wherever placement keys, ids or JSON Pointers are compared, grouped or looked up
/// (`[ExactKey: Value]`, `Set<ExactKey>`, `ExactKey(a) == ExactKey(b)`), never `String` equality.
public struct ExactKey: Hashable, Sendable {
    /// The key as written, to show; compare keys as `ExactKey`s, never by this string's `==`.
    ///
    /// Holding the string (not a copy of its bytes) makes a key as cheap to make and copy as the
    /// string: keys can be megabytes long and are named by many findings and lookups.
    public let string: String

    public init(_ string: String) {
        self.string = string
    }

    /// The key's UTF-8 bytes.
    public var utf8: String.UTF8View { string.utf8 }

    public static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        same(lhs.string, rhs.string)
    }

    /// The bytes in one call, not one per byte: keys can be megabytes long.
    public func hash(into hasher: inout Hasher) {
        let hashed = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// True when `lhs` and `rhs` are the same key: the same UTF-8 bytes, as the SDK compares them
    /// (`==` on `String` is canonical equivalence: `café` composed equals `café` decomposed).
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in leftBytes.elementsEqual(rightBytes) }
        }
        return (same ?? nil) ?? left.elementsEqual(right)
    }

    /// True when both are absent, or both are the same key.
    public static func same(_ lhs: String?, _ rhs: String?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        return same(lhs, rhs)
    }
}

/// String-keyed values in the order of their keys' first appearance; a repeated key keeps its last value.
/// Keys are compared exactly (by their UTF-8 bytes), as the SDK's maps compare them.
public struct OrderedMap<Value: Sendable>: Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [Value] = []
    /// Built once the map outgrows a linear scan (locale maps rarely do).
    private var indexOfKey: [ExactKey: Int]?
    private static var linearLimit: Int { 8 }

    public init() {}

    /// The value for exactly `key` (same UTF-8 bytes, not canonical equivalence).
    public subscript(key: String) -> Value? {
        index(of: key).map { values[$0] }
    }

    private func index(of key: String) -> Int? {
        if let indexOfKey { return indexOfKey[ExactKey(key)] }
        return keys.firstIndex { ExactKey.same($0, key) }
    }

    /// Sets `value` for `key`, keeping the key's first position.
    public mutating func set(_ value: Value, for key: String) {
        if let index = index(of: key) {
            values[index] = value
            return
        }
        keys.append(key)
        values.append(value)
        if indexOfKey != nil {
            indexOfKey![ExactKey(key)] = keys.count - 1
        } else if keys.count > Self.linearLimit {
            indexOfKey = Dictionary(uniqueKeysWithValues: keys.enumerated().map { (ExactKey($1), $0) })
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    /// Key and value pairs in order.
    public var pairs: [(key: String, value: Value)] { zip(keys, values).map { (key: $0, value: $1) } }
}

extension OrderedMap: Equatable where Value: Equatable {
    public static func == (lhs: OrderedMap, rhs: OrderedMap) -> Bool {
        lhs.keys.count == rhs.keys.count && zip(lhs.keys, rhs.keys).allSatisfy { ExactKey.same($0, $1) }
            && lhs.values == rhs.values
    }
}

extension OrderedMap: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        for key in keys { hasher.combine(ExactKey(key)) }
        hasher.combine(values)
    }
}
