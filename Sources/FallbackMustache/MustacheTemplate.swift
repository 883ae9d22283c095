/// A parsed Mustache template: parse it once, then render it with any number of contexts.
///
/// Follows the Mustache spec's interpolation, sections, inverted sections, comments, partials
/// and set-delimiter tags, lambdas aside.
public struct MustacheTemplate: Sendable {
    /// How deeply partials may include partials; a `{{>name}}` tag deeper than this renders as
    /// empty, as a missing partial does, so a partial that includes itself stops.
    public static let maximumPartialDepth = 64
    /// How many `{{>name}}` tags one render may expand in all. The depth limit alone does not stop
    /// a partial that includes itself twice (2^64 expansions); past this budget, rendering fails
    /// with `MustacheError.Reason.tooManyPartialExpansions`. A partial per item of a list of a few
    /// hundred thousand items stays within it.
    public static let maximumPartialExpansions = 500_000
    /// How deeply sections may nest in one template; deeper is a parse error
    /// (`MustacheError.Reason.sectionsNestedTooDeep`). Rendering does not recurse, but a parsed
    /// template is a tree that is freed recursively.
    public static let maximumSectionDepth = 256

    /// How long a tag's name may be, in bytes; longer is a parse error (`MustacheError.Reason.nameTooLong`).
    /// A name is looked up in each open context, and some contexts hash it whole each time.
    public static let maximumNameLength = 1_024

    /// How long a set-delimiter tag's delimiter may be, in bytes; longer is a parse error
    /// (`MustacheError.Reason.delimiterTooLong`): each tag is found by comparing the delimiter at
    /// each candidate byte, so a delimiter as long as the template made parsing quadratic.
    public static let maximumDelimiterLength = 32

    /// The name given when parsing, used in errors.
    public let name: String
    /// The token tree, flattened into `program`; the tests' reference renderer (`TreeRenderer`) walks it.
    let nodes: [Node]
    /// The tree flattened, as renders read it; it keeps the source for a render error's line and column.
    let program: Program

    /// Parses `source`, naming it `name` in errors.
    public init(parsing source: String, name: String = "") throws(MustacheError) {
        self.name = name
        var parser = Parser(source: source, templateName: name)
        nodes = try parser.parse()
        program = Program(nodes: nodes, templateName: name, source: source)
    }

    /// Renders the template with `context` at the bottom of the context stack.
    ///
    /// - Parameters:
    ///   - partials: The templates `{{>name}}` tags include, looked up by name as they are
    ///     rendered; a name without a template renders as empty.
    ///   - escaping: How `{{name}}` tags escape values.
    /// - Throws: `MustacheError` when partials would expand more than `maximumPartialExpansions`
    ///   times, at the tag that would.
    public func render(
        _ context: MustacheValue,
        partials: some MustachePartialProvider = [String: MustacheTemplate](),
        escaping: MustacheEscaping = .html,
        budget: MustacheBudget = .standard
    ) throws(MustacheError) -> String {
        String(decoding: try renderUTF8(context, partials: partials, escaping: escaping, budget: budget), as: UTF8.self)
    }

    /// `render(_:partials:escaping:budget:)` as UTF-8 bytes, for output that is written or parsed
    /// as bytes: the same bytes, with no `String` of the whole.
    public func renderUTF8(
        _ context: MustacheValue,
        partials: some MustachePartialProvider = [String: MustacheTemplate](),
        escaping: MustacheEscaping = .html,
        budget: MustacheBudget = .standard
    ) throws(MustacheError) -> [UInt8] {
        var renderer = Renderer(partials: partials, escaping: escaping, context: context, budget: budget, capacity: 0)
        var failure: MustacheError?
        // A page renders to a few times its template: reserve that, rather than regrow the output;
        // written straight into the array's storage, which a `take()` of the output copied.
        let bytes = ByteWriter.array(capacity: min(program.source.utf8.count * 4, budget.outputBytes)) { output in
            renderer.exchangeOutput(with: &output)
            do throws(MustacheError) {
                try renderer.render(program)
            } catch {
                failure = error
            }
            renderer.exchangeOutput(with: &output)
        }
        if let failure { throw failure }
        return bytes
    }

    /// The error `reason` at the tag starting at byte `offset` of the source.
    func error(_ reason: MustacheError.Reason, at offset: Int) -> MustacheError {
        program.error(reason, at: offset)
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
///
/// A class, so that a render reads a tag's name in place (`Program.resolve(name:in:)`): as a
/// struct, each tag rendered copied its arrays (retains and releases), about a million a site build.
final class Name: Sendable {
    let parts: [String]
    /// `MustacheKeys.hash(of:)` of each part, computed once, for looking it up in records.
    let hashes: [MustacheKeys.Hash]
    /// `parts.first` and its hash, held apart: read from the arrays, the part was a copy of a
    /// `String` at every lookup.
    private let first: String?
    private let firstHash: MustacheKeys.Hash?
    /// The first part's length in 64-byte units, at least 1: what looking it up in one context
    /// costs (some contexts hash the whole name each time).
    private let firstUnits: Int

    init(parts: [String]) {
        self.parts = parts
        hashes = parts.map(MustacheKeys.hash(of:))
        first = parts.first
        firstHash = hashes.first
        firstUnits = max(1, ((parts.first?.utf8.count ?? 0) + 63) / 64)
    }

    /// The value this name stands for with `contexts` as the context stack (innermost last): the
    /// first part is looked up in the innermost context that has it, each further part in the
    /// value before it only; a miss anywhere is `null`. `looked` is the number of contexts the
    /// first part was looked up in (all of them for a miss), counted once per 64 bytes of the
    /// part, which a render pays for past `MustacheBudget.contextsPerStep`.
    func resolve(in contexts: [MustacheValue]) -> (value: MustacheValue, looked: Int) {
        guard let first, let firstHash else { return (contexts.last ?? .null, 1) }
        // The innermost context first: a plain loop, with no closure or lazy wrapper per lookup.
        var index = contexts.count - 1
        while index >= 0 {
            if let found = contexts[index].member(first, hash: firstHash) {
                let looked = (contexts.count - index) * firstUnits
                guard parts.count > 1 else { return (found, looked) }
                var value = found
                for part in 1..<parts.count {
                    guard let next = value.member(parts[part], hash: hashes[part]) else { return (.null, looked) }
                    value = next
                }
                return (value, looked)
            }
            index -= 1
        }
        return (.null, contexts.count * firstUnits)
    }
}

/// The token tree a template parses to.
enum Node: Sendable {
    case text(String)
    /// The start of a template line, where a standalone partial's indentation goes.
    case lineStart
    case variable(Name, escaped: Bool)
    /// `offset` is where the opening tag starts in the source, in bytes.
    case section(Name, body: [Node], inverted: Bool, offset: Int)
    /// `indentation` is the whitespace before a standalone partial tag, `nil` when not standalone;
    /// `offset` is where the tag starts in the source, in bytes.
    case partial(String, indentation: String?, offset: Int)
}

/// How much work one render may do: nodes visited (text, tags, each pass of a section) and UTF-8
/// bytes written. Sections nested over lists repeat their bodies list length to the power of the
/// depth, with or without output, so a template alone can ask for unbounded work; past the budget
/// rendering fails with `MustacheError.Reason.renderTooLarge`, naming the innermost section.
public struct MustacheBudget: Sendable, Hashable {
    public var steps: Int
    public var outputBytes: Int

    public init(steps: Int, outputBytes: Int) {
        self.steps = steps
        self.outputBytes = outputBytes
    }

    /// Enough for any template over a context of a few megabytes; a runaway template stops within
    /// about a second.
    public static let standard = MustacheBudget(steps: 2_000_000, outputBytes: 16 << 20)

    /// How many contexts a name's lookup passes through per step (a name of up to 64 bytes; a
    /// longer one counts each context once per 64 bytes, since some contexts hash it whole): a
    /// lookup that looks in more costs a step more for each further `contextsPerStep` (`extraSteps(lookingIn:)`), counted
    /// when the next step is (so a lookup by the last tag of a render is not refused). Real
    /// templates open a few sections, so their lookups cost nothing more; but a name that misses
    /// looks in every open context, and sections nested inside partials nested 64 deep open
    /// about 16,000, so without this a page of a few kilobytes of template rendered for minutes
    /// within its steps.
    public static let contextsPerStep = 16

    /// The steps a lookup in `contexts` contexts costs beyond the tag's own.
    @inline(__always)
    static func extraSteps(lookingIn contexts: Int) -> Int {
        (contexts - 1) / contextsPerStep
    }

    /// How many bytes of indentation a standalone partial's expansion copies per step: a partial
    /// indented under others starts its lines with all their indentation, made anew at each
    /// expansion, so one costs a step more for each further `indentationBytesPerStep` bytes
    /// (`extraSteps(indenting:)`). A partial indented 100,000 spaces, expanded for each item of
    /// a list with nothing written, took 45 s within its steps.
    public static let indentationBytesPerStep = 64

    /// The steps `{{list}}` costs beyond its tag's own when the list's text, its items' joined by
    /// commas, is `bytes` long: one per `indentationBytesPerStep` bytes, since the text is made
    /// anew at each tag (a tag naming a 3,000-item list inside two sections over it made 680 MB
    /// of texts within its steps).
    @inline(__always)
    static func extraSteps(joining bytes: Int) -> Int {
        bytes / indentationBytesPerStep
    }

    /// The steps a partial expanded with `bytes` of indentation costs beyond its tag's own.
    @inline(__always)
    static func extraSteps(indenting bytes: Int) -> Int {
        bytes / indentationBytesPerStep
    }

    /// A budget that grows with the data a context was built from (`inputBytes`): work stays
    /// linear in the input however a template nests, and a page of a large snapshot (the
    /// overview of 10,000 placements is about 5 MB for a 52 MB file) is never refused.
    public static func scaled(toInputBytes inputBytes: Int) -> MustacheBudget {
        let units = max(0, inputBytes)
        let (steps, stepsOverflow) = units.multipliedReportingOverflow(by: 2)
        let (output, outputOverflow) = units.multipliedReportingOverflow(by: 8)
        return MustacheBudget(
            steps: max(standard.steps, stepsOverflow ? .max : steps),
            outputBytes: max(standard.outputBytes, outputOverflow ? .max : output))
    }

    /// This budget with `allowance` added `count` times (none for a count below one), each figure
    /// saturating at `Int.max`: for a page whose output grows with a count of items however small
    /// they are.
    public func adding(_ allowance: MustacheBudget, times count: Int) -> MustacheBudget {
        func sum(_ base: Int, _ each: Int) -> Int {
            let (extra, productOverflow) = max(0, each).multipliedReportingOverflow(by: max(0, count))
            let (total, sumOverflow) = base.addingReportingOverflow(extra)
            return productOverflow || sumOverflow ? .max : total
        }
        return MustacheBudget(steps: sum(steps, allowance.steps), outputBytes: sum(outputBytes, allowance.outputBytes))
    }
}
