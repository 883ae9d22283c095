/// A parsed Mustache template: parse it once, then render it with any number of contexts.
///
/// Follows the Mustache spec's interpolation, sections, inverted sections, comments, partials
/// and set-delimiter tags, lambdas aside.
public struct MustacheTemplate: Sendable {
    /// How deeply partials may include partials; a `{{>name}}` tag deeper than this renders as
    /// empty, as a missing partial does, so a partial that includes itself stops.
    public static let maximumPartialDepth = 64

    /// The name given when parsing, used in errors.
    public let name: String
    let nodes: [Node]

    /// Parses `source`, naming it `name` in errors.
    public init(parsing source: String, name: String = "") throws(MustacheError) {
        self.name = name
        var parser = Parser(source: source, templateName: name)
        nodes = try parser.parse()
    }

    /// Renders the template with `context` at the bottom of the context stack.
    ///
    /// - Parameters:
    ///   - partials: The templates `{{>name}}` tags include, looked up by name as they are
    ///     rendered; a name without a template renders as empty.
    ///   - escaping: How `{{name}}` tags escape values.
    public func render(
        _ context: MustacheValue,
        partials: some MustachePartialProvider = [String: MustacheTemplate](),
        escaping: MustacheEscaping = .html
    ) -> String {
        var renderer = Renderer(partials: partials, escaping: escaping, context: context)
        renderer.render(nodes, indentation: "", partialDepth: 0)
        return renderer.output
    }
}

/// Supplies the templates that `{{>name}}` tags include.
public protocol MustachePartialProvider {
    /// The template for `{{>name}}`, or `nil` to render the tag as empty.
    func template(named name: String) -> MustacheTemplate?
}

extension Dictionary: MustachePartialProvider where Key == String, Value == MustacheTemplate {
    public func template(named name: String) -> MustacheTemplate? {
        self[name]
    }
}

/// A name in a tag: the parts of a dotted name, or none for the implicit iterator `.`.
struct Name: Sendable {
    let parts: [String]
}

/// The token tree a template parses to.
enum Node: Sendable {
    case text(String)
    /// The start of a template line, where a standalone partial's indentation goes.
    case lineStart
    case variable(Name, escaped: Bool)
    case section(Name, body: [Node], inverted: Bool)
    /// `indentation` is the whitespace before a standalone partial tag, `nil` when not standalone.
    case partial(String, indentation: String?)
}
