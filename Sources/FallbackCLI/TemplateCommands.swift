import FallbackSite
import Foundation
import FallbackMustache
import RovenueFallback

/// `fallback-site context`: the JSON context a page template receives, for template authors.
enum ContextCommand: Command {
    static let signature = CommandSignature(
        name: "context",
        abstract: "Print the JSON context a page's template receives.",
        discussion: """
            KIND is overview, checks, placement, funnel, experiment, paywall, rule, changes, history or snapshot; \
            placement pages take the placement key, funnel pages the funnel id, experiment pages the key of the \
            placement that runs the experiment, paywall pages the paywall id, rule pages the rule id (e.g. --page \
            placement:onboarding, --page rule:goto-unknown). In a series, snapshot pages take the snapshot's \
            position from 0, oldest first (--page snapshot:0), and changes:N is the page of pair N, the \
            snapshots at positions N and N+1. The snapshots are read as build reads them: the \
            changes page needs a baseline (--baseline FILE, or the one before the newest of several snapshots, \
            a folder or --git-history PATH), the history page a series. Trusted HTML the site builds (drawings, \
            listings) appears as HTML.
            """,
        positionals: [.init(name: "snapshot", arity: .zeroOrMore, help: "Snapshots, or one folder of them, as build takes them.", completion: .file)],
        options: [
            page.declaration, BuildCommand.baseline.declaration, BuildCommand.gitHistory.declaration,
            ConfigurationFile.option(help: "Configuration file: rule severities and staleAfterDays.").declaration,
            BuildCommand.title.declaration, BuildCommand.now.declaration,
        ],
        examples: [
            .init("The context of the overview page:", "context Examples/2026-07-21-release-3.4.json --page overview"),
            .init("The context of one placement's page:", "context Examples/2026-07-21-release-3.4.json --page placement:onboarding"),
            .init("The context of the Changes page, against the release before:", "context Examples --page changes"),
        ])

    static let page = TypedOption<PageArgument>(
        name: "page", valueName: "kind[:id]", help: "The page.", isRequired: true,
        completion: .words(SitePage.Kind.allCases.map(\.rawValue)))

    struct Options: Sendable {
        var input: SiteBuild.Input
        var baseline: String?
        var configuration: ConfigurationFile
        var title: String?
        var now: SourceDateEpoch?
        var page: PageArgument
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        Options(
            input: try BuildCommand.input(arguments), baseline: arguments.value(BuildCommand.baseline),
            configuration: ConfigurationFile(arguments), title: arguments.value(BuildCommand.title),
            now: arguments.value(BuildCommand.now), page: arguments.value(page)!)
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        guard let configuration = options.configuration.load(in: environment),
            let now = SourceDateEpoch.now(given: options.now, in: environment, clock: nil)
        else { return ExitStatus.usage }
        // The page exactly as build shows it: the same inputs, configuration and clock.
        let settings = BuildCommand.settings(configuration, now: now)
        let model: SiteModel
        do {
            let loaded = try SiteBuild.loadSeries(options.input, baseline: options.baseline, readFile: environment.readFile)
            model = SiteBuild.model(SiteBuild.diff(try SiteBuild.audit(loaded, settings: settings)), title: options.title, referenceDate: settings.referenceDate)
        } catch {
            environment.writeError("error: \(BuildCommand.message(error, output: nil))\n")
            return error.isUsageProblem ? ExitStatus.usage : ExitStatus.failure
        }
        let kind = options.page.kind
        let id = options.page.id
        guard let page = model.page(kind, id: id) else {
            let snapshots = model.walk?.snapshots.count ?? 0
            let need: String =
                switch (kind, id) {
                case (.changes, .some) where snapshots > 1: " (pair pages are numbered from 0, oldest pair first: 0 to \(snapshots - 2))"
                case (.snapshot, _) where snapshots > 0: " (snapshot pages take a position, oldest first: 0 to \(snapshots - 1))"
                case (.changes, _): " (it needs --baseline FILE, or several snapshots)"
                case (.history, _), (.snapshot, _): " (it needs several snapshots, a folder of them or --git-history PATH)"
                default: ""
                }
            environment.writeError(
                "error: the site of \(model.snapshot.name) has no \(kind.rawValue) page\(id.map { " for '\($0)'" } ?? "")\(need)\n")
            return ExitStatus.failure
        }
        let values = PageValues()
        let context = values.resolvingTokens(in: model.context(for: page, values: values))
        environment.writeOutput(context.json.jsonText([.prettyPrinted, .sortedKeys]) + "\n")
        return ExitStatus.success
    }
}

/// `--page kind[:id]`: a page of the site, by kind and the id of what it shows.
struct PageArgument: ArgumentValue {
    let kind: SitePage.Kind
    let id: String?

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let kind = SitePage.Kind(rawValue: parts.first ?? "") else { return nil }
        self.kind = kind
        id = parts.count > 1 ? parts[1] : nil
    }

    static var expectation: String { "the kind is one of \(SitePage.Kind.allCases.map(\.rawValue).joined(separator: ", "))" }
    var argumentText: String { kind.rawValue + (id.map { ":" + $0 } ?? "") }
}

/// `fallback-site template render`: one template rendered with a JSON context, for template authors.
enum TemplateCommand: Command {
    static let signature = CommandSignature(
        name: "template",
        abstract: "Render one Mustache template with a JSON context to standard output.",
        discussion: """
            'template render TEMPLATE_FILE --context JSON_FILE' renders with the project's Mustache engine. \
            --partials DIR is a templates folder, as build's --templates: a partial {{> name}} is read as \
            build finds it, from DIR/partials/name.md, DIR/partials/name.html, DIR/name.md, else DIR/name.
            """,
        positionals: [
            .init(name: "action", arity: .one, help: action, completion: .words([action])),
            .init(name: "template-file", arity: .one, help: "The template.", completion: .file),
        ],
        options: [context.declaration, partials.declaration, escape.declaration],
        examples: [
            .init(
                "Render the checks page's template with the context a build gives it:",
                "context Examples/2026-07-21-release-3.4.json --page checks > checks.json",
                "template render Templates/checks.md --context checks.json --partials Templates"),
        ])

    /// The one action, `template render`.
    static let action = "render"

    static let context = TypedOption<String>(
        name: "context", valueName: "json-file", help: "The context, as JSON.", isRequired: true, completion: .file)
    static let partials = TypedOption<String>(
        name: "partials", valueName: "dir", help: "The templates folder partials are read from, as build's --templates.",
        completion: .directory)
    static let escape = TypedOption<EscapeMode>(name: "escape", valueName: "mode", help: "How {{value}} is escaped.", defaultValue: .html)

    /// How `{{value}}` is escaped.
    enum EscapeMode: String, CaseIterable, ArgumentValue {
        case html, markdown, none

        var escaping: MustacheEscaping {
            switch self {
            case .html: .html
            case .markdown: .markdown
            case .none: .none
            }
        }
    }

    struct Options: Sendable {
        var template: String
        var context: String
        var partials: String?
        var escape: EscapeMode
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        guard arguments.positionals[0] == action else {
            throw UsageError(message: "Unknown template action '\(arguments.positionals[0])'; the action is '\(action)'")
        }
        return Options(
            template: arguments.positionals[1], context: arguments.value(context)!, partials: arguments.value(partials),
            escape: arguments.value(escape) ?? .html)
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        let templatePath = options.template
        let contextPath = options.context
        guard let templateBytes = environment.read(templatePath), let contextBytes = environment.read(contextPath) else {
            return ExitStatus.usage
        }
        let contextDocument = JSONDocument(bytes: contextBytes)
        if let error = contextDocument.syntaxError {
            let position = contextDocument.position(ofOffset: error.offset)
            environment.writeError("error: \(contextPath):\(position.line):\(position.column): not valid JSON: \(error.message)\n")
            return ExitStatus.failure
        }
        let context: MustacheValue
        do {
            context = try MustacheValue(contextDocument.root)
        } catch {
            let position = error.container.position
            environment.writeError(
                "error: \(contextPath):\(position.line):\(position.column): the context is nested deeper than "
                    + "\(MustacheValue.maximumJSONDepth) arrays and objects\n")
            return ExitStatus.failure
        }
        let partials = FolderPartials(folder: options.partials, environment: environment)
        let escaping = options.escape.escaping
        do {
            let template = try MustacheTemplate(parsing: String(decoding: templateBytes, as: UTF8.self), name: templatePath)
            let output = try template.render(context, partials: partials, escaping: escaping)
            if partials.readError == nil, partials.parseError == nil { environment.writeOutput(output) }
        } catch where partials.readError == nil {
            environment.writeError("error: \(partials.parseError ?? error)\n")
            return ExitStatus.failure
        } catch {}
        // A partial that cannot be read is an unreadable path (exit 2), whatever else went wrong.
        if let readError = partials.readError {
            environment.writeError("error: \(readError)\n")
            return ExitStatus.usage
        }
        if let parseError = partials.parseError {
            environment.writeError("error: \(parseError)\n")
            return ExitStatus.failure
        }
        return ExitStatus.success
    }

    /// Partials read from a folder, each read and parsed once. A missing partial renders as empty,
    /// as Mustache says; one that cannot be read (a FIFO, a folder, …) or does not parse renders as
    /// empty too and is kept in `readError` or `parseError`, for the command to report.
    final class FolderPartials: MustachePartialProvider {
        let folder: String?
        let environment: CommandEnvironment
        private var parsed: [String: MustacheTemplate?] = [:]
        private(set) var parseError: MustacheError?
        /// `cannot read PATH: REASON` of the first partial that exists and cannot be read.
        private(set) var readError: String?

        init(folder: String?, environment: CommandEnvironment) {
            self.folder = folder
            self.environment = environment
        }

        func template(named name: String) -> MustacheTemplate? {
            if let known = parsed[name] { return known }
            let template = read(name)
            parsed[name] = .some(template)
            return template
        }

        private func read(_ name: String) -> MustacheTemplate? {
            // Only names a templates folder can hold, as build reads it: no empty, `.`, `..` or
            // hidden component, so nothing outside DIR is read.
            let components = FileSystemPath.components(of: name, omittingEmpty: false)
            guard let folder, !components.contains(where: { $0.isEmpty || FileSystemPath.isHidden($0) }) else { return nil }
            for candidate in TemplateSet.partialCandidates(named: name).map({ "\(folder)/\($0)" }) {
                let bytes: [UInt8]
                do {
                    bytes = try environment.readFile(candidate)
                } catch where CommandEnvironment.isMissingFile(error) {
                    continue
                } catch {
                    if readError == nil { readError = "cannot read \(candidate): \(CommandEnvironment.describe(error))" }
                    return nil
                }
                do {
                    return try MustacheTemplate(parsing: String(decoding: bytes, as: UTF8.self), name: candidate)
                } catch {
                    if parseError == nil { parseError = error }
                }
            }
            return nil
        }
    }
}

extension MustacheValue {
    /// The deepest nesting of arrays and objects a JSON context may have: a value nests (and is
    /// freed) recursively, so deeper input is refused rather than risking the stack.
    static let maximumJSONDepth = 256

    /// A JSON context nested deeper than `maximumJSONDepth`, at the first container too deep.
    struct JSONTooDeep: Error {
        let container: JSONDocument.Value
    }

    /// A template context from JSON: numbers become integers when they are integer tokens;
    /// of repeated keys, the last wins.
    init(_ json: JSONDocument.Value, depth: Int = 1) throws(JSONTooDeep) {
        switch json.kind {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number:
            let number = json.number ?? JSONNumber(text: "0")
            self = number.int64Value.map { .int(Int($0)) } ?? .double(number.doubleValue)
        case .string: self = .string(json.string ?? "")
        case .array, .object:
            guard depth <= Self.maximumJSONDepth else { throw JSONTooDeep(container: json) }
            if json.kind == .array {
                var elements: [MustacheValue] = []
                for element in json.elements { elements.append(try MustacheValue(element, depth: depth + 1)) }
                self = .list(elements)
            } else {
                var dictionary: [String: MustacheValue] = [:]
                for member in json.members { dictionary[member.key] = try MustacheValue(member.value, depth: depth + 1) }
                self = .dictionary(dictionary)
            }
        }
    }

    /// This context as JSON (dictionary keys sorted when written with `.sortedKeys`).
    var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let value): .number(JSONNumber(value))
        case .double(let value): .number(JSONNumber(value))
        case .string(let text): .string(text)
        case .list(let elements): .array(elements.map(\.json))
        case .dictionary(let dictionary): .object(dictionary.map { JSONValue.Member($0.key, $0.value.json) })
        case .record(let record): MustacheValue.dictionary(record.dictionary).json
        }
    }
}
