import FallbackMustache

/// A template's context as a type: a page, or a row one of its sections iterates over.
///
/// Each conforming type lists its `fields` once: the key a template names, and the stored
/// property that gives the value. The context the renderer takes is built from that list, so a
/// renamed property is a compile error rather than an empty string on a page, and
/// `PageTypeDocumentationTests` checks `docs/templates.md` and `Templates/` against the same list.
protocol TemplateContext: TemplateValue {
    /// Every key of the context, in the order `docs/templates.md` lists them.
    static var fields: [TemplateField<Self>] { get }
}

extension TemplateContext {
    /// The value at each key, without the keys left out.
    var fieldValues: [String: MustacheValue] {
        var dictionary: [String: MustacheValue] = [:]
        dictionary.reserveCapacity(Self.fields.count)
        for field in Self.fields {
            if let value = field.value(self) { dictionary[field.key] = value }
        }
        return dictionary
    }

    var mustacheValue: MustacheValue { .dictionary(fieldValues) }

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

/// One key of a `TemplateContext`: the name a template uses, written only here, and how the
/// value is read from the context's stored property.
struct TemplateField<Context>: Sendable {
    let key: String
    /// How the value looks to a template, computed when asked: only the documentation tests ask,
    /// so a build allocates no shapes (and the fields, built once per process, hold none).
    var shape: TemplateShape { shapeOfValue() }
    private let shapeOfValue: @Sendable () -> TemplateShape
    /// The value at `key`; nil leaves the key out, so a template's lookup goes on to the enclosing context.
    let value: @Sendable (Context) -> MustacheValue?
    /// Whether a nil value leaves the key out rather than making it `null`.
    let isLeftOutWhenNil: Bool

    /// A key that is always there: `null` when an optional property is nil.
    init<Value: TemplateValue>(_ key: String, _ property: KeyPath<Context, Value> & Sendable) {
        self.key = key
        isLeftOutWhenNil = false
        shapeOfValue = { Value.shape }
        value = { $0[keyPath: property].mustacheValue }
    }

    /// A key that is left out of the context when the property is nil.
    init<Value: TemplateValue>(_ key: String, omittedWhenNil property: KeyPath<Context, Value?> & Sendable) {
        self.key = key
        isLeftOutWhenNil = true
        shapeOfValue = { Value.shape }
        value = { $0[keyPath: property]?.mustacheValue }
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
    var mustacheValue: MustacheValue { get }
    static var shape: TemplateShape { get }
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
    static var shape: TemplateShape { .list(Element.shape) }
}

/// A nil optional is `null`: it stops a template's lookup, where a left-out key would not
/// (`TemplateField.init(_:omittedWhenNil:)`).
extension Optional: TemplateValue where Wrapped: TemplateValue {
    var mustacheValue: MustacheValue { self?.mustacheValue ?? .null }
    static var shape: TemplateShape { Wrapped.shape }
}

extension TrustedHTML: TemplateValue {
    var mustacheValue: MustacheValue { .string(token) }
    static var shape: TemplateShape { .html }
}
