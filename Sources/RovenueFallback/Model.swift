import Foundation

/// Where a decoded value came from: a node of the `JSONDocument` it was decoded from.
///
/// Resolve it to a JSON Pointer, line and column with `FallbackFile.location(of:)`.
public struct SourceRef: Sendable, Hashable {
    /// The node index in the document.
    public let node: Int

    /// A reference to the node at `node`.
    public init(node: Int) {
        self.node = node
    }
}

/// One placement entry: exactly the `data` envelope a live `GET /v1/placements/:identifier` returns.
public struct FallbackEntry: SourceBacked {
    /// `Entry`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case placement, paywall, experiment, funnel

        /// Every field of an entry is `(default)`: `{}` and `[]` decode.
        public var presence: FieldPresence { .defaulted }
    }

    /// Which struct of §4 this is: `SchemaShape.entry`.
    public static var shape: SchemaShape { .entry }
    /// The entry's `placement`, nil when absent or `null`; without it the entry serves nothing (§5 step 1).
    public var placement: Placement?
    /// The entry's direct `paywall`, nil when absent or `null`; served when there is no funnel (§5 step 2).
    public var paywall: Paywall?
    /// The entry's `experiment`, nil when absent or `null`; drawn from only without a funnel or paywall (§5 step 3).
    public var experiment: Experiment?
    /// The entry's direct `funnel`, nil when absent or `null`; it wins over the paywall and the experiment (§5 step 2).
    public var funnel: Funnel?
    /// The entry's value in `placements` (an object, or an array form).
    public let source: SourceRef
}

/// An entry's `placement`: the identifier the SDK reports and the dashboard revision.
public struct Placement: SourceBacked {
    /// `Placement`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case identifier, revision

        /// Both are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.placement`.
    public static var shape: SchemaShape { .placement }
    /// What the SDK reports for exposure (§3); never compared with the map key.
    public var identifier: String
    /// The dashboard's revision: an `int` (§4), so `-0`, `3.0` or `1e2` skips the entry.
    public var revision: Int64
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// An A/B test over variants; its `key` seeds bucketing (§5).
public struct Experiment: SourceBacked {
    /// `Experiment`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case id, key, variants

        /// All three are required (`variants` may be empty).
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.experiment`.
    public static var shape: SchemaShape { .experiment }
    /// The experiment's `id`.
    public var id: String
    /// The key that seeds bucketing.
    public var key: String
    /// The `variants`, in order; may be empty, and then the entry serves nothing (§5 step 3).
    public var variants: [Variant]
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// One arm of an experiment: a weight and what a subscriber who draws it is served.
public struct Variant: SourceBacked {
    /// `Variant`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The variant's `variantId`.
    public var variantId: String
    /// A fraction of subscribers (0.5, not 50).
    public var weight: Double
    /// The weight token as written.
    public var weightText: String
    /// The variant's `paywall`, nil when absent or `null`; served when the variant has no funnel.
    public var paywall: Paywall?
    /// The variant's `funnel`, nil when absent or `null`; a decoded variant has a funnel, a paywall or both.
    public var funnel: Funnel?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A paywall: its identity, remote config, builder layout and offering.
public struct Paywall: SourceBacked {
    /// `Paywall`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The paywall's `id`.
    public var id: String
    /// The paywall's `identifier`.
    public var identifier: String
    /// The paywall's `name`.
    public var name: String
    /// The paywall's `configFormatVersion`: an `int` (§4).
    public var configFormatVersion: Int64
    /// The paywall's `remoteConfig`, nil when absent or `null`.
    public var remoteConfig: RemoteConfig?
    /// The builder's layout, as written (read it with `.owned`).
    public var builderConfig: JSONDocument.Value?
    /// The paywall's `offering`, nil when absent or `null`.
    public var offering: Offering?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A paywall's remote config for one locale.
public struct RemoteConfig: SourceBacked {
    /// `RemoteConfig`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The locale the config is for, as written.
    public var locale: String
    /// Required, and may be `null`; as written (read it with `.owned`).
    public var data: JSONDocument.Value
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// The offering a paywall sells: its packages.
///
/// A view of the offering as written: the entry's load checks every field of it, its packages and
/// their store ids against §4, as strictly as any other struct (a failure there skips the entry),
/// but makes none of its strings and arrays. Each property reads them from the document when
/// asked, so read `packages` once and keep the array rather than reading it per package.
/// Validation never reads them; the site's paywall pages, previews and search index and the
/// diff's wording do, once each, and a 10,000-placement file holds tens of thousands of packages.
public struct Offering: SourceBacked {
    /// `Offering`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case identifier, isDefault, packages

        /// All three are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.offering`.
    public static var shape: SchemaShape { .offering }
    /// The offering's `identifier`.
    public var identifier: String {
        read { (decoder: inout EntryDecoder, fields) throws(DecodeFailure) in try decoder.string(fields.required(.identifier)) }
    }
    /// The offering's `isDefault` flag.
    public var isDefault: Bool {
        read { (decoder: inout EntryDecoder, fields) throws(DecodeFailure) in try decoder.bool(fields.required(.isDefault)) }
    }
    /// The offering's `packages`, in order (may be empty), decoded on each read.
    public var packages: [Package] {
        read { (decoder: inout EntryDecoder, fields) throws(DecodeFailure) in
            try decoder.array(fields.required(.packages)) { (decoder: inout EntryDecoder, slot) throws(DecodeFailure) in try decoder.package(slot) }
        }
    }
    /// The object (or array form) as written, in its document.
    let value: JSONDocument.Value
    /// The object (or array form) this was decoded from.
    public var source: SourceRef { SourceRef(node: value.index) }

    /// An offering whose fields `EntryDecoder.offering(_:)` checked.
    init(checked value: JSONDocument.Value) {
        self.value = value
    }

    /// `read` of the offering's fields, with a decoder of its own. The entry's load checked the
    /// same fields with the same readers (`EntryDecoder.offering(_:)`), so none of them fails here.
    private func read<T>(_ read: (inout EntryDecoder, EntryDecoder.Fields<Field>) throws(DecodeFailure) -> T) -> T {
        var decoder = EntryDecoder(document: value.document)
        do {
            let fields = try decoder.fields(value.index, of: Offering.self)
            return try read(&decoder, fields)
        } catch {
            preconditionFailure("the offering at \(value.pointer) was checked when its entry loaded, yet reads as: \(error.expectation)")
        }
    }
}

/// One package of an offering, with its store product ids.
public struct Package: SourceBacked {
    /// `Package`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The package's `packageIdentifier`.
    public var packageIdentifier: String
    /// The package's `identifier`.
    public var identifier: String
    /// The package's `type`, as written.
    public var type: String
    /// The package's `displayName`.
    public var displayName: String
    /// The package's product id per store.
    public var storeIds: StoreIds
    /// Google Play's base plan id, nil when absent or `null`.
    public var androidBasePlanId: String?
    /// Google Play's offer id, nil when absent or `null`.
    public var androidOfferId: String?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A package's product id per store; other stores are ignored.
public struct StoreIds: SourceBacked {
    /// `StoreIds`' fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case apple, google

        /// Both are optional without a default: an array form needs both elements.
        public var presence: FieldPresence { .optional }
    }

    /// Which struct of §4 this is: `SchemaShape.storeIds`.
    public static var shape: SchemaShape { .storeIds }
    /// The App Store product id, nil when absent or `null`.
    public var apple: String?
    /// The Google Play product id, nil when absent or `null`.
    public var google: String?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A funnel: its pages, and the paywalls its paywall pages show.
public struct Funnel: SourceBacked {
    /// `Funnel`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The funnel's `id`.
    public var id: String
    /// The funnel's `slug`.
    public var slug: String
    /// The funnel's `name`, nil when absent or `null`.
    public var name: String?
    /// The `versionId`, nil when absent or `null`.
    public var versionId: String?
    /// The `versionNo`, an `int` (§4); nil when absent or `null`.
    public var versionNo: Int64?
    /// The `defaultLocale`, nil when absent or `null`.
    public var defaultLocale: String?
    /// The `locales`, in order; nil when absent or `null`.
    public var locales: [String]?
    /// The `pages`, in order: the funnel starts at the first (§6).
    public var pages: [Page]
    /// The `theme` as written (read it with `.owned`); nil when absent or `null`.
    public var theme: JSONDocument.Value?
    /// The `settings` as written (read them with `.owned`); nil when absent or `null`.
    public var settings: JSONDocument.Value?
    /// The paywalls a funnel carries for its paywall pages, keyed by `paywallId`.
    public var paywalls: OrderedMap<Paywall>?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// One page of a funnel. Fields the decoder does not read (`required`, `mediaUrl`, …) stay in the
/// snapshot and can be read through `source`.
public struct Page: SourceBacked {
    /// `Page`'s fields (§4), in array-quirk order: the ones the decoder reads.
    public enum Field: String, SchemaField {
        /// The page's identity and type.
        case id, type
        /// The question a question page asks.
        case questionId = "question_id"
        /// The fields that hold a `Text`.
        case title, subtitle, body, cta, headline, placeholder, suffix, agreementLabel
        /// The fields that hold a `TextList`.
        case benefits, features, steps
        /// A question page's choices; the paywall a paywall page shows.
        case options, paywallId
        /// The branching rules.
        case nextRules = "next_rules"
        /// Where to go when no rule matches.
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

    /// The page's `id`: what a rule's `goto` and a `default_next` name.
    public var id: String
    /// The page's `type` as written: one of `knownTypes` or not (an unknown type still decodes).
    public var type: String
    /// The `question_id` a question page asks, nil when absent or `null`.
    public var questionId: String?
    /// The `title`, nil when absent or `null`.
    public var title: LocalizedText?
    /// The `subtitle`, nil when absent or `null`.
    public var subtitle: LocalizedText?
    /// The `body`, nil when absent or `null`.
    public var body: LocalizedText?
    /// The `cta` (call to action), nil when absent or `null`.
    public var cta: LocalizedText?
    /// The `headline`, nil when absent or `null`.
    public var headline: LocalizedText?
    /// The `placeholder` of an input, nil when absent or `null`.
    public var placeholder: LocalizedText?
    /// The `suffix` of an input, nil when absent or `null`.
    public var suffix: LocalizedText?
    /// The `agreementLabel`, nil when absent or `null`.
    public var agreementLabel: LocalizedText?
    /// The `benefits` list, nil when absent or `null`.
    public var benefits: LocalizedTextList?
    /// The `features` list, nil when absent or `null`.
    public var features: LocalizedTextList?
    /// The `steps` list, nil when absent or `null`.
    public var steps: LocalizedTextList?
    /// A question page's `options`, in order; nil when absent or `null`.
    public var options: [PageOption]?
    /// The paywall a paywall page shows, a key of the funnel's `paywalls`; nil when absent or `null`.
    public var paywallId: String?
    /// The `next_rules`, tried in order (§6); nil when absent or `null`.
    public var nextRules: [NextRule]?
    /// The `default_next` target, taken when no rule matches (§6); nil when absent or `null`.
    public var defaultNext: String?
    /// The object (or array form) this was decoded from.
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
    /// One string for every locale.
    case plain(String)
    /// A string per locale. In a box of its own (`indirect`): a map is 32 bytes inline, and a
    /// page holds eight texts, most of them plain or absent.
    indirect case localized(OrderedMap<String>)

    /// The text a device with `locale` shows, if the field has one for it.
    public func text(for locale: String) -> String? { copy(for: locale).value }
}

/// A list of strings, the same for every locale or one list per locale.
public enum LocalizedTextList: Sendable, Hashable {
    /// One list for every locale.
    case plain([String])
    /// A list per locale, in a box of its own (`indirect`) as `LocalizedText.localized` is.
    indirect case localized(OrderedMap<[String]>)

    /// The list a device with `locale` shows, if the field has one for it.
    public func list(for locale: String) -> [String]? { copy(for: locale).value }
}

/// One choice of a question page (the contract's `Option`).
public struct PageOption: SourceBacked {
    /// `Option`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
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
    /// The option's `label`.
    public var label: LocalizedText
    /// The option's `value`.
    public var value: String
    /// The option's `imageUrl`, nil when absent or `null`.
    public var imageUrl: String?
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A branching rule of a page: where to go when its condition holds.
public struct NextRule: SourceBacked {
    /// `NextRule`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case id, condition, goto

        /// All three are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.nextRule`.
    public static var shape: SchemaShape { .nextRule }
    /// The rule's `id`.
    public var id: String
    /// When the rule applies.
    public var condition: Condition
    /// A page id, `"end"`, or `"paywall"` (the first page of type `paywall`).
    public var goto: String
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// A rule's condition: all or any of its clauses.
public struct Condition: SourceBacked {
    /// `Condition`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The JSON names, in the order §4 lists them.
        case op, clauses

        /// Both are required.
        public var presence: FieldPresence { .required }
    }

    /// Which struct of §4 this is: `SchemaShape.condition`.
    public static var shape: SchemaShape { .condition }

    /// How a condition combines its clauses; the raw value is the JSON string.
    public enum Operator: String, Sendable, CaseIterable {
        /// `all`: every clause matches; `any`: at least one does.
        case all, any
    }

    /// `all` or `any` (any other string fails the decode).
    public var op: Operator
    /// The `clauses`, in order; with none, `all` always holds and `any` never does.
    public var clauses: [Clause]
    /// The object (or array form) this was decoded from.
    public let source: SourceRef
}

/// One comparison of an answer with a value.
public struct Clause: SourceBacked {
    /// `Clause`'s fields (§4), in array-quirk order.
    public enum Field: String, SchemaField {
        /// The question whose answer the clause reads.
        case questionId = "question_id"
        /// The comparison, and the value compared with.
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

    /// A clause's comparison (§4 `ClauseOp`, §6); the raw value is the JSON string.
    public enum Operator: String, Sendable, CaseIterable {
        /// Equal, not equal (both strict), the four number comparisons, and a number in `[min, max]`.
        case eq, neq, gt, gte, lt, lte, between
        /// The answer is in the value's array.
        case `in`
        /// The answer is not in the value's array (a missing answer matches).
        case notIn = "not_in"
        /// The answer, an array (multiple choice), contains the value.
        case contains
        /// The answer is present and not `null`.
        case isAnswered = "is_answered"
        /// The answer is missing or `null`.
        case isNotAnswered = "is_not_answered"
    }

    /// The `question_id` whose latest answer the clause reads.
    public var questionId: String
    /// The comparison (any other string fails the decode).
    public var op: Operator
    /// As written (read it with `.owned`).
    public var value: JSONDocument.Value?
    /// The object (or array form) this was decoded from.
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

    /// The key `string`, compared by its UTF-8 bytes.
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
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }

    /// True when `lhs` and `rhs` are the same key: the same UTF-8 bytes, as the SDK compares them
    /// (`==` on `String` is canonical equivalence: `café` composed equals `café` decomposed).
    ///
    /// Inlined where it is called: ids and keys are nearly always inline strings, answered by the
    /// two word compares of `sameRepresentation` and `bothInline` (the audit and the funnel graph
    /// compare page ids hundreds of thousands of times, where a call costs more than the compare).
    /// Only strings stored elsewhere go on to `sameStoredBytes`.
    @inlinable @inline(__always)
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        if sameRepresentation(lhs, rhs) { return true }
        if bothInline(lhs, rhs) { return false }
        return sameStoredBytes(lhs, rhs)
    }

    /// True when `lhs`'s UTF-8 bytes sort before `rhs`'s: byte order, the order the dashboard's
    /// exports and every listing of keys use (`String`'s `<` orders by Unicode scalars after
    /// normalisation). Compared with `memcmp` where both strings' bytes are contiguous (every
    /// native and inline string): a history sorts every key it removes, and the generic byte loop
    /// cost 6% of a history of a million keys.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        let ordered = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes -> Bool in
                let shared = min(leftBytes.count, rightBytes.count)
                if shared > 0 {
                    let order = memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, shared)
                    if order != 0 { return order < 0 }
                }
                return leftBytes.count < rightBytes.count
            }
        }
        return (ordered ?? nil) ?? left.lexicographicallyPrecedes(right)
    }

    /// `same(_:_:)` of two strings that are not one value and not both inline: their lengths, then
    /// their bytes.
    @usableFromInline @inline(never)
    static func sameStoredBytes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        let same = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in sameBytes(leftBytes, rightBytes) }
        }
        return (same ?? nil) ?? left.elementsEqual(right)
    }

    /// True when both strings are stored inline (Swift's small strings: up to 15 UTF-8 bytes on a
    /// 64-bit platform, which the decoder makes of every id and key that short). An inline string's
    /// representation is its bytes, its length and whether it is ASCII, the unused bytes zero, so
    /// two inline strings hold the same bytes exactly when `sameRepresentation` says so: a page id
    /// searched among a funnel's pages is told from the others without reading their bytes.
    ///
    /// On 64-bit x86 and ARM, the second word's bit 61 marks an inline string; a string stored
    /// elsewhere (native, literal, bridged) never has it set there. False on any other platform.
    @inlinable @inline(__always)
    package static func bothInline(_ lhs: String, _ rhs: String) -> Bool {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            guard MemoryLayout<String>.size == 16 else { return false }
            let inline: UInt64 = 1 << 61
            return withUnsafeBytes(of: lhs) { left in
                withUnsafeBytes(of: rhs) { right in
                    left.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & right.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & inline != 0
                }
            }
        #else
            return false
        #endif
    }

    /// True when the two strings are one string value: copies of one string (the decoder makes a
    /// repeated string once, `JSONDocument.StringCache`), or two inline strings of the same bytes.
    /// Two values of one representation hold the same bytes; different representations may still
    /// hold the same bytes (two allocations), so only a true answer is final.
    @inlinable @inline(__always)
    package static func sameRepresentation(_ lhs: String, _ rhs: String) -> Bool {
        guard MemoryLayout<String>.size == 16 else { return false }
        return withUnsafeBytes(of: lhs) { left in
            withUnsafeBytes(of: rhs) { right in
                left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
                    && left.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == right.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }

    /// True when two buffers hold the same bytes, compared with `memcmp` rather than the generic
    /// `elementsEqual`'s byte loop: the audit and the decoder compare keys and ids this way
    /// hundreds of thousands of times per snapshot.
    package static func sameBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
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
    /// The distinct keys, in order of first appearance.
    public private(set) var keys: [String] = []
    /// Each key's last value, in the order of `keys`.
    public private(set) var values: [Value] = []
    /// Built once the map outgrows a linear scan (locale maps rarely do).
    private var indexOfKey: KeyPositions?
    /// Maps of up to this many keys are searched; larger ones keep an index (`KeyPositions`).
    package static var linearLimit: Int { 8 }

    /// An empty map.
    public init() {}

    /// The map of `keys` to `values` (one value per key, in the same order), as setting each in
    /// turn makes it: a repeated key keeps its last value, at its first place.
    ///
    /// A long list is indexed in blocks (`KeyPositions.insert(keysAt:key:repeated:)`), its keys
    /// kept as they are when none repeats; a list with a repeated key is then set key by key, with
    /// room for its distinct keys only.
    public init(keys: [String], values: [Value]) {
        precondition(keys.count == values.count, "one value per key")
        var distinct = keys.count
        if keys.count > Self.linearLimit {
            var index = KeyPositions(capacity: keys.count)
            index.insert(keysAt: keys.indices, key: { keys[$0] }, repeated: { _, _ in distinct -= 1 })
            if distinct == keys.count {
                self.keys = keys
                self.values = values
                indexOfKey = index
                return
            }
        }
        reserveCapacity(distinct)
        for position in keys.indices { set(values[position], for: keys[position]) }
    }

    /// A map of `keys`, distinct already, to `values` in the same order, with `index` holding each
    /// key's position in `keys` (as `KeyPositions.insert(keysAt:key:repeated:)` of `keys` leaves
    /// it when nothing repeats): for a caller that indexed the keys to find out whether they repeat.
    package init(distinctKeys keys: [String], values: [Value], index: KeyPositions) {
        precondition(keys.count == values.count && index.count == keys.count, "one value and one position per key")
        self.keys = keys
        self.values = values
        indexOfKey = keys.count > Self.linearLimit ? index : nil
    }

    /// A map of the keys of `other` (distinct already) to `values` in the same order: the keys'
    /// array and their index are shared, not rebuilt.
    init<Other>(keysOf other: OrderedMap<Other>, values: [Value]) {
        assert(other.keys.count == values.count, "one value per key")
        keys = other.keys
        self.values = values
        indexOfKey = other.indexOfKey
    }

    /// The value for exactly `key` (same UTF-8 bytes, not canonical equivalence).
    public subscript(key: String) -> Value? {
        index(of: key).map { values[$0] }
    }

    /// The position of exactly `key` (same UTF-8 bytes) in `keys`, nil when the map lacks it: a
    /// scan of a few keys, or one probe of the index a larger map keeps.
    public func index(of key: String) -> Int? {
        if let indexOfKey { return indexOfKey.position(of: key) { keys[$0] } }
        return keys.firstIndex { ExactKey.same($0, key) }
    }

    /// `index(of:)` of each of `keys`, in order: a large map's index is probed a block of keys at
    /// a time (`KeyPositions.positions(of:key:)`).
    public func indices(of keys: [String]) -> [Int?] {
        if let indexOfKey { return indexOfKey.positions(of: keys) { self.keys[$0] } }
        return keys.map { key in self.keys.firstIndex { ExactKey.same($0, key) } }
    }

    /// Sets `value` for `key`, keeping the key's first position.
    public mutating func set(_ value: Value, for key: String) {
        if var index = indexOfKey.take() {
            // One probe of the index (taken out, so it is changed in place), which holds the new
            // key's position unless the key is there; the key joins `keys` only when it is new.
            let end = keys.count
            let first = index.insert(key, at: end) { $0 == end ? key : keys[$0] }
            indexOfKey = index
            if let first {
                values[first] = value
            } else {
                keys.append(key)
                values.append(value)
            }
            return
        }
        if let index = keys.firstIndex(where: { ExactKey.same($0, key) }) {
            values[index] = value
            return
        }
        keys.append(key)
        values.append(value)
        if keys.count > Self.linearLimit {
            indexOfKey = Self.index(of: keys, capacity: keys.count)
        }
    }

    /// Makes room for `count` keys: a map that will outgrow a linear scan gets its index now, at
    /// its final size, instead of growing it key by key.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        guard count > Self.linearLimit, indexOfKey == nil else { return }
        indexOfKey = Self.index(of: keys, capacity: count)
    }

    /// The index of `keys` (distinct), with room for `capacity` keys.
    private static func index(of keys: [String], capacity: Int) -> KeyPositions {
        var index = KeyPositions(capacity: max(capacity, keys.count))
        index.insert(keysAt: keys.indices, key: { keys[$0] }, repeated: { _, _ in assertionFailure("the keys are distinct") })
        return index
    }

    /// The number of distinct keys.
    public var count: Int { keys.count }
    /// True when the map has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// Key and value pairs in order.
    public var pairs: [(key: String, value: Value)] { zip(keys, values).map { (key: $0, value: $1) } }
}

extension OrderedMap: Equatable where Value: Equatable {
    /// The same keys in the same order, compared by their UTF-8 bytes (`ExactKey`), and equal
    /// values by `Value`'s own `==`. Hashing combines the keys' bytes, so it agrees.
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
