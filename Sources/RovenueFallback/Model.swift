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

/// One placement entry: exactly the `data` envelope a live `GET /v1/placements/:identifier` returns.
public struct FallbackEntry: SourceBacked {
    /// `Entry`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case placement, paywall, experiment, funnel

        /// Every field of an entry is `(default)`: `{}` and `[]` decode.
        public var presence: FieldPresence { .defaulted }
    }

    /// Which struct of §4 this is: `SchemaShape.entry`.
    public static var shape: SchemaShape { .entry }
    public var placement: Placement?
    public var paywall: Paywall?
    public var experiment: Experiment?
    public var funnel: Funnel?
    public let source: SourceRef
}

/// An entry's `placement`: the identifier the SDK reports and the dashboard revision.
public struct Placement: SourceBacked {
    /// `Placement`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case identifier, revision

        /// Both are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.placement`.
    public static var shape: SchemaShape { .placement }
    public var identifier: String
    public var revision: Int64
    public let source: SourceRef
}

/// An A/B test over variants; its `key` seeds bucketing (§5).
public struct Experiment: SourceBacked {
    /// `Experiment`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case id, key, variants

        /// All three are required (`variants` may be empty).
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.experiment`.
    public static var shape: SchemaShape { .experiment }
    public var id: String
    /// The key that seeds bucketing.
    public var key: String
    public var variants: [Variant]
    public let source: SourceRef
}

/// One arm of an experiment: a weight and what a subscriber who draws it is served.
public struct Variant: SourceBacked {
    /// `Variant`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case variantId, weight, paywall, funnel

        /// `variantId` and `weight` are required; the targets are `(default)` (but not both absent).
        public var presence: FieldPresence {
            switch self {
            case .variantId, .weight: .required
            case .paywall, .funnel: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.variant`.
    public static var shape: SchemaShape { .variant }
    public var variantId: String
    /// A fraction of subscribers (0.5, not 50).
    public var weight: Double
    /// The weight token as written.
    public var weightText: String
    public var paywall: Paywall?
    public var funnel: Funnel?
    public let source: SourceRef
}

/// A paywall: its identity, remote config, builder layout and offering.
public struct Paywall: SourceBacked {
    /// `Paywall`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case id, identifier, name, configFormatVersion, remoteConfig, builderConfig, offering

        /// The four identity fields are required; `remoteConfig` and `offering` are optional without
        /// a default, so an array form needs all seven elements.
        public var presence: FieldPresence {
            switch self {
            case .id, .identifier, .name, .configFormatVersion: .required
            case .remoteConfig, .offering: .optional
            case .builderConfig: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.paywall`.
    public static var shape: SchemaShape { .paywall }
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

/// A paywall's remote config for one locale.
public struct RemoteConfig: SourceBacked {
    /// `RemoteConfig`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case locale, data

        /// `locale` is required; `data` is required but may be `null`.
        public var presence: FieldPresence {
            switch self {
            case .locale: .required
            case .data: .requiredAllowingNull
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.remoteConfig`.
    public static var shape: SchemaShape { .remoteConfig }
    public var locale: String
    /// Required, and may be `null`; as written (read it with `.owned`).
    public var data: JSONDocument.Value
    public let source: SourceRef
}

/// The offering a paywall sells: its packages.
public struct Offering: SourceBacked {
    /// `Offering`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case identifier, isDefault, packages

        /// All three are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.offering`.
    public static var shape: SchemaShape { .offering }
    public var identifier: String
    public var isDefault: Bool
    public var packages: [Package]
    public let source: SourceRef
}

/// One package of an offering, with its store product ids.
public struct Package: SourceBacked {
    /// `Package`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case packageIdentifier, identifier, type, displayName, storeIds, androidBasePlanId, androidOfferId

        /// The first five are required; the Android ids are `(default)`.
        public var presence: FieldPresence {
            switch self {
            case .packageIdentifier, .identifier, .type, .displayName, .storeIds: .required
            case .androidBasePlanId, .androidOfferId: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.package`.
    public static var shape: SchemaShape { .package }
    public var packageIdentifier: String
    public var identifier: String
    public var type: String
    public var displayName: String
    public var storeIds: StoreIds
    public var androidBasePlanId: String?
    public var androidOfferId: String?
    public let source: SourceRef
}

/// A package's product id per store; other stores are ignored.
public struct StoreIds: SourceBacked {
    /// `StoreIds`' fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case apple, google

        /// Both are optional without a default: an array form needs both elements.
        public var presence: FieldPresence { .optional }
    }

    /// Which struct of §4 this is: `SchemaShape.storeIds`.
    public static var shape: SchemaShape { .storeIds }
    public var apple: String?
    public var google: String?
    public let source: SourceRef
}

/// A funnel: its pages, and the paywalls its paywall pages show.
public struct Funnel: SourceBacked {
    /// `Funnel`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case id, slug, name, versionId, versionNo, defaultLocale, locales, pages, theme, settings, paywalls

        /// `id`, `slug` and `pages` are required; everything else is `(default)`.
        public var presence: FieldPresence {
            switch self {
            case .id, .slug, .pages: .required
            case .name, .versionId, .versionNo, .defaultLocale, .locales, .theme, .settings, .paywalls: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.funnel`.
    public static var shape: SchemaShape { .funnel }
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
    /// `Page`'s fields (§4), in array-quirk order: the ones the decoder reads.
    public enum Field: String, SchemaField {
        case id, type
        case questionId = "question_id"
        case title, subtitle, body, cta, headline, placeholder, suffix, agreementLabel
        case benefits, features, steps
        case options, paywallId
        case nextRules = "next_rules"
        case defaultNext = "default_next"

        /// `id` and `type` are required; everything else is `(default)`.
        public var presence: FieldPresence {
            switch self {
            case .id, .type: .required
            default: .defaulted
            }
        }

        /// The fields that hold a `Text`, in declaration order.
        public static let textFields: [Field] = [.title, .subtitle, .body, .cta, .headline, .placeholder, .suffix, .agreementLabel]
        /// The fields that hold a `TextList`, in declaration order.
        public static let textListFields: [Field] = [.benefits, .features, .steps]
    }

    /// Which struct of §4 this is: `SchemaShape.page`.
    public static var shape: SchemaShape { .page }

    /// The 26 page types of Rovenue's funnel builder.
    public static let knownTypes: Set<String> = [
        "welcome", "statement", "feature", "info", "loading", "result", "paywall", "end_screen", "success",
        "contact_info", "email", "phone", "multi_choice", "single_choice", "picture_choice", "yes_no", "legal",
        "checkbox", "opinion_scale", "rating", "long_text", "short_text", "date_input", "number_input", "slider",
        "text_input",
    ]

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

    /// The value of a text field (one of `Field.textFields`); nil for any other field.
    public func text(_ field: Field) -> LocalizedText? {
        switch field {
        case .title: title
        case .subtitle: subtitle
        case .body: body
        case .cta: cta
        case .headline: headline
        case .placeholder: placeholder
        case .suffix: suffix
        case .agreementLabel: agreementLabel
        default: nil
        }
    }

    /// The value of a text-list field (one of `Field.textListFields`); nil for any other field.
    public func textList(_ field: Field) -> LocalizedTextList? {
        switch field {
        case .benefits: benefits
        case .features: features
        case .steps: steps
        default: nil
        }
    }

    /// The text fields that are present, by field name, in declaration order.
    public var texts: [(field: String, text: LocalizedText)] {
        Field.textFields.compactMap { field in text(field).map { (field.rawValue, $0) } }
    }

    /// The text-list fields that are present, by field name, in declaration order.
    public var textLists: [(field: String, list: LocalizedTextList)] {
        Field.textListFields.compactMap { field in textList(field).map { (field.rawValue, $0) } }
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

/// One choice of a question page (the contract's `Option`).
public struct PageOption: SourceBacked {
    /// `Option`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case label, value, imageUrl

        /// `label` and `value` are required; `imageUrl` is `(default)`.
        public var presence: FieldPresence {
            switch self {
            case .label, .value: .required
            case .imageUrl: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.option`.
    public static var shape: SchemaShape { .option }
    public var label: LocalizedText
    public var value: String
    public var imageUrl: String?
    public let source: SourceRef
}

/// A branching rule of a page: where to go when its condition holds.
public struct NextRule: SourceBacked {
    /// `NextRule`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case id, condition, goto

        /// All three are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.nextRule`.
    public static var shape: SchemaShape { .nextRule }
    public var id: String
    public var condition: Condition
    /// A page id, `"end"`, or `"paywall"` (the first page of type `paywall`).
    public var goto: String
    public let source: SourceRef
}

/// A rule's condition: all or any of its clauses.
public struct Condition: SourceBacked {
    /// `Condition`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case op, clauses

        /// Both are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.condition`.
    public static var shape: SchemaShape { .condition }

    public enum Operator: String, Sendable, CaseIterable {
        case all, any
    }

    public var op: Operator
    public var clauses: [Clause]
    public let source: SourceRef
}

/// One comparison of an answer with a value.
public struct Clause: SourceBacked {
    /// `Clause`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        case questionId = "question_id"
        case op, value

        /// `question_id` and `op` are required; `value` is `(default)`.
        public var presence: FieldPresence {
            switch self {
            case .questionId, .op: .required
            case .value: .defaulted
            }
        }
    }

    /// Which struct of §4 this is: `SchemaShape.clause`.
    public static var shape: SchemaShape { .clause }

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
