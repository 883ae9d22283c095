import Foundation
@testable import FallbackMustache
import Testing

/// The flat renderer (`renderUTF8`, over a template's `Program`) against the reference that walks
/// the token tree (`renderTreeUTF8`): the same bytes, or the same error, for the repository's
/// templates, the spec's cases and hostile templates and contexts.
struct FlatRendererTests {
    /// Both renderers' results: the bytes, or the error.
    static func bothResults(
        _ template: MustacheTemplate, _ context: MustacheValue, partials: [String: MustacheTemplate] = [:],
        escaping: MustacheEscaping = .html, budget: MustacheBudget = .standard
    ) -> (flat: Result<[UInt8], MustacheError>, tree: Result<[UInt8], MustacheError>) {
        let flat = Result(catching: { () throws(MustacheError) -> [UInt8] in
            try template.renderUTF8(context, partials: partials, escaping: escaping, budget: budget)
        })
        let tree = Result(catching: { () throws(MustacheError) -> [UInt8] in
            try template.renderTreeUTF8(context, partials: partials, escaping: escaping, budget: budget)
        })
        return (flat, tree)
    }

    static func expectSame(
        _ template: MustacheTemplate, _ context: MustacheValue, partials: [String: MustacheTemplate] = [:],
        escaping: MustacheEscaping = .html, budget: MustacheBudget = .standard, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (flat, tree) = bothResults(template, context, partials: partials, escaping: escaping, budget: budget)
        switch (flat, tree) {
        case (.success(let flat), .success(let tree)):
            #expect(flat == tree, "\(template.name): \(String(decoding: flat, as: UTF8.self).prefix(400)) vs \(String(decoding: tree, as: UTF8.self).prefix(400))", sourceLocation: sourceLocation)
        case (.failure(let flat), .failure(let tree)):
            #expect(flat == tree, sourceLocation: sourceLocation)
        default:
            Issue.record("\(template.name): the flat renderer gave \(flat), the tree renderer \(tree)", sourceLocation: sourceLocation)
        }
    }

    // MARK: The repository's templates

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every template under `Templates/`, by its path there (`partials/findings.md`), parsed.
    static func repositoryTemplates() throws -> [String: MustacheTemplate] {
        let folder = repository.appendingPathComponent("Templates")
        var templates: [String: MustacheTemplate] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard ["md", "html"].contains(url.pathExtension) else { continue }
            let name = String(url.path.dropFirst(folder.path.count + 1))
            templates[name] = try MustacheTemplate(parsing: String(contentsOf: url, encoding: .utf8), name: name)
        }
        return templates
    }

    /// Partials as the site looks them up (`partials/name.md` first).
    static func partials(from templates: [String: MustacheTemplate]) -> [String: MustacheTemplate] {
        var partials: [String: MustacheTemplate] = [:]
        for (name, template) in templates {
            let bare = (name as NSString).deletingPathExtension
            partials[bare.hasPrefix("partials/") ? String(bare.dropFirst("partials/".count)) : bare] = template
        }
        return partials
    }

    /// Every name part the templates use, so that contexts built from them reach every section.
    static func nameParts(in templates: [String: MustacheTemplate]) -> [String] {
        Set(templates.values.flatMap { $0.program.names.flatMap(\.parts) }).sorted()
    }

    /// A context over `keys` where each key's value is picked by `seed`: lists of nested contexts
    /// (empty, one, three items), text with markup, numbers, flags, null, nested dictionaries or
    /// nothing at all (a missing key).
    static func context(keys: [String], seed: Int, depth: Int = 0) -> MustacheValue {
        var dictionary: [String: MustacheValue] = [:]
        for (offset, key) in keys.enumerated() {
            let pick = (offset &* 31 &+ seed &* 17 &+ depth &* 7) % 11
            switch pick {
            case 0 where depth < 2: dictionary[key] = .list((0..<3).map { context(keys: keys, seed: seed &+ $0 &+ 1, depth: depth + 1) })
            case 1 where depth < 2: dictionary[key] = .list([context(keys: keys, seed: seed &+ 5, depth: depth + 1)])
            case 2: dictionary[key] = .list([])
            case 3 where depth < 2: dictionary[key] = context(keys: keys, seed: seed &+ 9, depth: depth + 1)
            case 4: dictionary[key] = .string("<b>\(key) & \"q\" 'a'</b>\n| * _ `x` [l](u)")
            case 5: dictionary[key] = .int(offset % 3)
            case 6: dictionary[key] = .bool(seed % 2 == 0)
            case 7: dictionary[key] = .null
            case 8: dictionary[key] = .double(Double(offset) / 4)
            case 9: break
            default: dictionary[key] = .string(seed % 3 == 0 ? "" : "x\(offset)")
            }
        }
        return .dictionary(dictionary)
    }

    @Test(arguments: 0..<12)
    func repositoryTemplatesRenderTheSame(seed: Int) throws {
        let templates = try Self.repositoryTemplates()
        #expect(templates.count >= 11)
        let partials = Self.partials(from: templates)
        let context = Self.context(keys: Self.nameParts(in: templates), seed: seed)
        for (_, template) in templates.sorted(by: { $0.key < $1.key }) {
            Self.expectSame(template, context, partials: partials)
            Self.expectSame(template, context, partials: partials, escaping: .markdown)
            Self.expectSame(template, .dictionary([:]), partials: partials)
            // Budgets that run out part of the way through, at different ops.
            Self.expectSame(template, context, partials: partials, budget: MustacheBudget(steps: 7 + seed * 13, outputBytes: 1 << 20))
            Self.expectSame(template, context, partials: partials, budget: MustacheBudget(steps: 1 << 20, outputBytes: 100 + seed * 97))
        }
    }

    @Test func specCasesRenderTheSame() throws {
        for file in ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"] {
            for spec in try SpecCase.all(in: file) {
                var partials: [String: MustacheTemplate] = [:]
                for (name, source) in spec.partials ?? [:] {
                    partials[name] = try MustacheTemplate(parsing: source, name: name)
                }
                Self.expectSame(try MustacheTemplate(parsing: spec.template, name: spec.name), spec.data.value, partials: partials)
            }
        }
    }

    // MARK: Hostile templates and contexts

    static let hostile: [(name: String, template: String, context: MustacheValue, partials: [String: String])] = {
        let deep = (0..<200).map { "{{#a\($0)}}<\($0)>" }.joined() + "{{x}}" + (0..<200).reversed().map { "{{/a\($0)}}" }.joined()
        var deepContext: [String: MustacheValue] = ["x": "core"]
        for level in 0..<200 where level % 3 != 0 { deepContext["a\(level)"] = level % 2 == 0 ? .bool(true) : [["y": .int(level)]] }
        let list: MustacheValue = .list((0..<20_000).map { .dictionary(["n": .int($0), "s": .string($0 % 2 == 0 ? "<&>" : "")]) })
        return [
            ("deep nesting", deep, .dictionary(deepContext), [:]),
            ("deep nesting, all missing", deep, .dictionary([:]), [:]),
            ("huge section", "{{#list}}[{{n}}{{#s}}:{{s}}{{/s}}{{^s}}-{{/s}}]{{/list}}", .dictionary(["list": list]), [:]),
            ("nested lists", "{{#l}}{{#l}}{{#l}}{{.}}{{/l}}{{/l}}{{/l}}", .dictionary(["l": .list((0..<30).map { .int($0) })]), [:]),
            ("missing keys and dotted names", "{{a.b.c}}|{{#a.b}}{{c}}{{d.e}}{{/a.b}}|{{^a.x}}none{{/a.x}}|{{.}}", .dictionary(["a": ["b": ["c": "deep"]], "c": "outer"]), [:]),
            ("dotted name stops at a miss", "{{#a}}{{b.c}}{{/a}}", .dictionary(["a": ["b": ["x": 1]], "b": ["c": "shadowed?"]]), [:]),
            ("implicit iterator over values", "{{#l}}({{.}}){{/l}}", .dictionary(["l": [1, 2.5, "t", true, .null, [1, 2], ["k": 1]]]), [:]),
            ("falsey values", "{{#v}}yes{{/v}}{{^v}}no{{/v}}", .dictionary(["v": .double(.nan)]), [:]),
            ("set delimiters", "{{=<% %>=}}<%a%> {{a}} <%#l%><%.%><%/l%><%={{ }}=%>{{a}}", .dictionary(["a": "<x>", "l": [1, 2]]), [:]),
            ("standalone lines and indentation", "a\n  {{#s}}\n  {{>p}}\n  {{/s}}\n\r\n {{! c }}\nb", .dictionary(["s": true, "v": "V"]), ["p": "1\n{{v}}\n  {{>q}}\n", "q": "q{{v}}\nq\n"]),
            ("self-including partial", "{{>self}}", .dictionary([:]), ["self": "x{{>self}}"]),
            ("partial expansion runs away", "{{>two}}", .dictionary([:]), ["two": "{{>two}}{{>two}}"]),
            ("partial per item", "{{#l}}{{>item}}{{/l}}", .dictionary(["l": .list((0..<1000).map { .int($0) })]), ["item": "<{{.}}>\n"]),
            ("section over its own name", "{{#a}}{{#a}}{{a}}{{/a}}{{/a}}", .dictionary(["a": [["a": "inner"]]]), [:]),
            ("empty template", "", .dictionary([:]), [:]),
            ("unescaped and ampersand", "{{{a}}}{{&a}}{{a}}", .dictionary(["a": "<&\"'>"]), [:]),
        ]
    }()

    @Test(arguments: 0..<hostile.count)
    func hostileTemplatesRenderTheSame(index: Int) throws {
        let (name, source, context, partialSources) = Self.hostile[index]
        let template = try MustacheTemplate(parsing: source, name: name)
        var partials: [String: MustacheTemplate] = [:]
        for (partialName, partialSource) in partialSources {
            partials[partialName] = try MustacheTemplate(parsing: partialSource, name: partialName)
        }
        Self.expectSame(template, context, partials: partials)
        Self.expectSame(template, context, partials: partials, escaping: .markdown)
        for steps in [0, 1, 2, 3, 50, 4_000] {
            Self.expectSame(template, context, partials: partials, budget: MustacheBudget(steps: steps, outputBytes: 1 << 24))
        }
        for bytes in [0, 1, 10, 5_000] {
            Self.expectSame(template, context, partials: partials, budget: MustacheBudget(steps: 1 << 24, outputBytes: bytes))
        }
    }

    /// The runaway cases do fail, so the comparison above compares errors, not only output.
    @Test func runawayPartialsFailInBoth() throws {
        let template = try MustacheTemplate(parsing: "{{>two}}", name: "t")
        let partials = ["two": try MustacheTemplate(parsing: "{{>two}}{{>two}}", name: "two")]
        let (flat, tree) = Self.bothResults(template, [:], partials: partials, budget: MustacheBudget(steps: .max, outputBytes: .max))
        guard case .failure(let flatError) = flat, case .failure(let treeError) = tree else {
            Issue.record("expected both to fail")
            return
        }
        #expect(flatError == treeError)
        #expect(flatError.reason == .tooManyPartialExpansions(name: "two", limit: MustacheTemplate.maximumPartialExpansions))
    }
}
