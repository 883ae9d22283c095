import FallbackMustache
import Foundation

/// A template's context as a type: a page, or a row one of its sections iterates over.
///
/// Each conforming type lists its `fields` once: the key a template names, and the stored
/// property that gives the value. The context the renderer takes is built from that list, so a
/// renamed property is a compile error rather than an empty string on a page, and
/// `PageTypeDocumentationTests` checks `docs/templates.md` and `Templates/` against the same list.
protocol TemplateContext: TemplateValue {
    /// Every key of the context, in the order `docs/templates.md` lists them.
    static var fields: TemplateFields<Self> { get }
}

extension TemplateContext {
    /// The value at each key, without the keys left out: the context as a plain dictionary, as
    /// `fallback-site template context` shows it and the tests compare renders against.
    var fieldValues: [String: MustacheValue] {
        var dictionary: [String: MustacheValue] = [:]
        dictionary.reserveCapacity(Self.fields.count)
        for field in Self.fields {
            if let value = field.value(self) { dictionary[field.key] = value }
        }
        return dictionary
    }

    var mustacheValue: MustacheValue { .dictionary(fieldValues) }

    /// The context as the site renders it: a record in the slot order of `fields.keys`, which
    /// renders as `mustacheValue` does with no dictionary built or hashed per context.
    var renderValue: MustacheValue { .record(fieldRecord) }

    static func renderValue(at context: UnsafePointer<Self>) -> MustacheValue { .record(fieldRecord(at: context)) }

    /// The value at each key (nil for a key left out), in the order of `fields`.
    var fieldRecord: MustacheRecord {
        withUnsafePointer(to: self) { Self.fieldRecord(at: $0) }
    }

    /// `fieldRecord` of the context at `context`, whose fields are read in place
    /// (`TemplateValue.renderValue(at:)`).
    static func fieldRecord(at context: UnsafePointer<Self>) -> MustacheRecord {
        let fields = Self.fields
        var values: [MustacheValue?] = []
        values.reserveCapacity(fields.count)
        for index in 0..<fields.count { values.append(fields.renderValue(ofField: index, in: UnsafeRawPointer(context))) }
        return MustacheRecord(keys: fields.keys, values: values)
    }

    static var shape: TemplateShape { .context(Self.self) }

    /// Each key with the shape of its value, for checking templates and documentation.
    static var fieldShapes: [(key: String, shape: TemplateShape)] {
        fields.map { ($0.key, $0.shape) }
    }

    /// The keys left out of the context when they have no value, for checking the documentation.
    static var keysLeftOutWhenNil: Set<String> {
        Set(fields.filter(\.isLeftOutWhenNil).map(\.key))
    }
}

/// A page's context as the site renders it: one record of `common`'s fields followed by
/// `specific`'s. It renders as the dictionary of both with `specific`'s values winning, as
/// `SiteModel.context(for:values:)` merges them; the keys of each pair of types are joined once.
func pageRenderValue(common: some TemplateContext, specific: (any TemplateContext)?) -> MustacheValue {
    let commonRecord = common.fieldRecord
    guard let specificRecord = specific?.fieldRecord else { return .record(commonRecord) }
    let keys = JoinedKeys.shared.keys(commonRecord.keys, specificRecord.keys)
    return .record(MustacheRecord(keys: keys, values: commonRecord.values + specificRecord.values))
}

/// The keys of two records one after the other, made once for each pair of key sets.
private final class JoinedKeys: @unchecked Sendable {
    static let shared = JoinedKeys()
    private let lock = NSLock()
    /// By the identities of the two key sets; the values keep them alive, so an identity is never reused.
    private var joined: [[ObjectIdentifier]: (first: MustacheKeys, second: MustacheKeys, joined: MustacheKeys)] = [:]

    func keys(_ first: MustacheKeys, _ second: MustacheKeys) -> MustacheKeys {
        let id = [ObjectIdentifier(first), ObjectIdentifier(second)]
        return lock.withLock {
            if let found = joined[id] { return found.joined }
            let keys = MustacheKeys(first.keys + second.keys)
            joined[id] = (first, second, keys)
            return keys
        }
    }
}

/// The fields of a `TemplateContext` type, written as an array literal, with the keys that its
/// records share (`MustacheKeys`): made once per type, when its `fields` are first read.
struct TemplateFields<Context>: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private let fields: [TemplateField<Context>]
    /// The key of each field, in order.
    let keys: MustacheKeys
    private let unretained: UnretainedFields

    init(arrayLiteral fields: TemplateField<Context>...) {
        self.fields = fields
        keys = MustacheKeys(fields.map(\.key))
        unretained = UnretainedFields(fields)
    }

    /// `fields`, as references that `renderValue(ofField:in:)` reads with no retain or release
    /// (a field read from the array was one, for every field of every context a page shows).
    private final class UnretainedFields: @unchecked Sendable {
        /// Keeps the references alive.
        private let fields: [TemplateField<Context>]
        let references: UnsafeMutableBufferPointer<Unmanaged<TemplateField<Context>>>

        init(_ fields: [TemplateField<Context>]) {
            self.fields = fields
            references = .allocate(capacity: fields.count)
            _ = references.initialize(from: fields.map { Unmanaged.passUnretained($0) })
        }

        deinit { references.deallocate() }
    }

    /// `self[index].renderValue(context)`.
    @inline(__always)
    func renderValue(ofField index: Int, in context: UnsafeRawPointer) -> MustacheValue? {
        unretained.references[index]._withUnsafeGuaranteedRef { $0.renderValue(context) }
    }

    var startIndex: Int { fields.startIndex }
    var endIndex: Int { fields.endIndex }
    /// Written out for the same reason as `index(after:)`: the default `count` measured the
    /// distance through `Range`'s metadata, about 4,000 instructions a record (13 M in the 1k build).
    var count: Int { fields.count }
    subscript(position: Int) -> TemplateField<Context> { fields[position] }
    /// Written out: `fieldRecord` runs where `Context` is known only at run time (a page's
    /// specific context is an `any TemplateContext`), and there the collection's default
    /// `index(after:)` looked up `Range`'s metadata at every step, about 2,000 instructions a
    /// field (110 M in the 1k build).
    func index(after position: Int) -> Int { position + 1 }
    func index(before position: Int) -> Int { position - 1 }
    var indices: Range<Int> { fields.indices }
}

/// One key of a `TemplateContext`: the name a template uses, written only here, and how the
/// value is read from the context's stored property.
///
/// A class: `fieldRecord` reads every field of every context a page shows, and a struct's copy
/// retained and released its key and its three closures each time (about a million fields a
/// 1k build); a class is one reference.
final class TemplateField<Context>: Sendable {
    let key: String
    /// How the value looks to a template, computed when asked: only the documentation tests ask,
    /// so a build allocates no shapes (and the fields, built once per process, hold none).
    var shape: TemplateShape { shapeOfValue() }
    private let shapeOfValue: @Sendable () -> TemplateShape
    /// The value at `key`; nil leaves the key out, so a template's lookup goes on to the enclosing context.
    let value: @Sendable (Context) -> MustacheValue?
    /// `value` with contexts as records (`TemplateValue.renderValue`), of the context at the address given.
    let renderValue: @Sendable (UnsafeRawPointer) -> MustacheValue?
    /// Whether a nil value leaves the key out rather than making it `null`.
    let isLeftOutWhenNil: Bool

    /// A key that is always there: `null` when an optional property is nil.
    init<Value: TemplateValue>(_ key: String, _ property: KeyPath<Context, Value> & Sendable) {
        self.key = key
        isLeftOutWhenNil = false
        shapeOfValue = { Value.shape }
        value = { $0[keyPath: property].mustacheValue }
        // A stored property of a struct is read at its offset: a key path read at run time costs
        // hundreds of instructions, and a build reads about a million fields.
        // The property is read in place (`renderValue(at:)`): a list of contexts, its rows.
        if let offset = MemoryLayout<Context>.offset(of: property) {
            renderValue = { context in Value.renderValue(at: (context + offset).assumingMemoryBound(to: Value.self)) }
        } else {
            renderValue = { $0.assumingMemoryBound(to: Context.self).pointee[keyPath: property].renderValue }
        }
    }

    /// A key that is left out of the context when the property is nil.
    init<Value: TemplateValue>(_ key: String, omittedWhenNil property: KeyPath<Context, Value?> & Sendable) {
        self.key = key
        isLeftOutWhenNil = true
        shapeOfValue = { Value.shape }
        value = { $0[keyPath: property]?.mustacheValue }
        if let offset = MemoryLayout<Context>.offset(of: property) {
            renderValue = { context in context.load(fromByteOffset: offset, as: Value?.self)?.renderValue }
        } else {
            renderValue = { $0.assumingMemoryBound(to: Context.self).pointee[keyPath: property]?.renderValue }
        }
    }
}

/// What a field holds, as far as a template is concerned.
indirect enum TemplateShape: Sendable {
    case text
    case number
    case flag
    /// A `TrustedHTML` token: HTML the site built itself, placed with `{{{name}}}`.
    case html
    case list(TemplateShape)
    case context(any TemplateContext.Type)
}

/// A Swift value a template can show: text, a number, a flag, trusted HTML, a list or a context.
protocol TemplateValue: Sendable {
    /// The value with contexts as dictionaries (`TemplateContext.mustacheValue`).
    var mustacheValue: MustacheValue { get }
    /// The value as the site renders it, with contexts as records (`TemplateContext.renderValue`):
    /// it renders exactly as `mustacheValue`.
    var renderValue: MustacheValue { get }
    /// `renderValue` of the value at `value`, read in place where that saves copying it: a
    /// context's fields, a list's elements. A copy of a context retained and released each of
    /// its strings and lists, for every row of every list a page shows.
    static func renderValue(at value: UnsafePointer<Self>) -> MustacheValue
    static var shape: TemplateShape { get }
}

extension TemplateValue {
    var renderValue: MustacheValue { mustacheValue }
    static func renderValue(at value: UnsafePointer<Self>) -> MustacheValue { value.pointee.renderValue }
}

extension String: TemplateValue {
    var mustacheValue: MustacheValue { .string(self) }
    static var shape: TemplateShape { .text }
}

extension Int: TemplateValue {
    var mustacheValue: MustacheValue { .int(self) }
    static var shape: TemplateShape { .number }
}

extension Bool: TemplateValue {
    var mustacheValue: MustacheValue { .bool(self) }
    static var shape: TemplateShape { .flag }
}

extension Array: TemplateValue where Element: TemplateValue {
    var mustacheValue: MustacheValue { .list(map(\.mustacheValue)) }
    var renderValue: MustacheValue {
        withUnsafeBufferPointer { elements in
            var values: [MustacheValue] = []
            values.reserveCapacity(elements.count)
            // Each element read in place (`renderValue(at:)`), not copied.
            if let first = elements.baseAddress {
                for index in elements.indices { values.append(Element.renderValue(at: first + index)) }
            }
            return .list(values)
        }
    }

    static func renderValue(at value: UnsafePointer<Self>) -> MustacheValue { value.pointee.renderValue }
    static var shape: TemplateShape { .list(Element.shape) }
}

/// A nil optional is `null`: it stops a template's lookup, where a left-out key would not
/// (`TemplateField.init(_:omittedWhenNil:)`).
extension Optional: TemplateValue where Wrapped: TemplateValue {
    var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
    var renderValue: MustacheValue { self?.renderValue ?? .null }
    static var shape: TemplateShape { Wrapped.shape }
}

extension TrustedHTML: TemplateValue {
    var mustacheValue: MustacheValue { .string(token) }
    static var shape: TemplateShape { .html }
}
