import FallbackHistory
import Foundation
import Testing
@testable import FallbackMustache
@testable import FallbackSite

/// The page types (`TemplateContext`) are the one list of what a template can name: these tests
/// hold `docs/templates.md` and the built-in templates to them, so renaming or removing a field
/// breaks a test instead of leaving an empty string on a page.
@Suite struct PageTypeDocumentationTests {
    /// A context type, compared by identity.
    struct ContextType: Hashable, CustomStringConvertible {
        let type: any TemplateContext.Type
        static func == (lhs: Self, rhs: Self) -> Bool { ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type) }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(type)) }
        var description: String { String(reflecting: type) }
        var fields: [(key: String, shape: TemplateShape)] { type.fieldShapes }
        var keys: Set<String> { Set(fields.map(\.key)) }

        func shape(of key: String) -> TemplateShape? { fields.first { $0.key == key }?.shape }
    }

    /// Each template the site renders, with the contexts it sees, outermost first.
    static var renderedTemplates: [(template: String, contexts: [ContextType])] {
        SitePage.Kind.allCases.map { ($0.template, [ContextType(type: CommonPageFields.self), ContextType(type: $0.contextType)]) }
            + [("layout.html", [ContextType(type: LayoutContext.self)])]
    }

    /// The context type a value of `shape` puts on the stack in a section, if it is a context or a list of them.
    static func contextType(of shape: TemplateShape) -> ContextType? {
        switch shape {
        case .context(let type): ContextType(type: type)
        case .list(let element): contextType(of: element)
        case .text, .number, .flag, .html: nil
        }
    }

    /// Every context type a page or the layout can show, with the page kinds (or `layout`) that show it.
    static var reachableTypes: [ContextType: Set<String>] {
        var reached: [ContextType: Set<String>] = [:]
        func visit(_ type: ContextType, from page: String) {
            guard reached[type, default: []].insert(page).inserted else { return }
            for field in type.fields { if let nested = contextType(of: field.shape) { visit(nested, from: page) } }
        }
        for (template, contexts) in renderedTemplates { for context in contexts { visit(context, from: template) } }
        return reached
    }

    // MARK: The types themselves

    @Test("no context type names a key twice", arguments: Array(reachableTypes.keys).sorted { $0.description < $1.description })
    func keysAreUnique(_ type: ContextType) {
        #expect(type.keys.count == type.fields.count, "\(type) repeats a key")
    }

    @Test func pageKindsHaveTheirOwnTypes() {
        let types = SitePage.Kind.allCases.map { ContextType(type: $0.contextType) }
        #expect(Set(types).count == SitePage.Kind.allCases.count)
        // A page's own fields replace the common ones of the same name: none may clash.
        for kind in SitePage.Kind.allCases {
            #expect(ContextType(type: kind.contextType).keys.isDisjoint(with: ContextType(type: CommonPageFields.self).keys), "\(kind)")
        }
    }

    @Test func conversionKeepsEveryKeyAndLeavesOutOnlyOmittedNils() {
        let row = FindingRow(
            id: "f-r-1-2-0123456789", rule: "r", rulePath: nil, severity: "error", isError: true, isWarning: false, isInfo: false, message: "m", pointer: "/p", line: 1, column: 2,
            placement: nil, placementPath: nil, anchor: nil)
        #expect(row.mustacheValue == ["id": "f-r-1-2-0123456789", "rule": "r", "severity": "error", "isError": true, "isWarning": false, "isInfo": false, "message": "m",
            "pointer": "/p", "line": 1, "column": 2])
        let use = FunnelPage.Use(placement: "home", path: "placements/home.html", variant: nil)
        #expect(use.mustacheValue == ["placement": "home", "path": "placements/home.html", "variant": nil])
    }

    @Test func everyPageOfASeriesHasTheKeysOfItsKindsType() throws {
        let loaded = try SiteBuild.loadSeries(
            .series(
                SnapshotFiles(
                    paths: ["paywall-era-fallback.json", "funnel-era-fallback.json"].map {
                        repositoryRoot.appendingPathComponent("Tests/RovenueFallbackTests/Fixtures/" + $0).path
                    })), baseline: nil,
            readFile: { _ in [] })
        let model = SiteBuild.model(
            SiteBuild.diff(try SiteBuild.audit(loaded, settings: SiteBuild.AuditSettings(referenceDate: nil))), title: nil, referenceDate: nil)
        #expect(Set(model.pages.map(\.kind)) == Set(SitePage.Kind.allCases))
        let common = ContextType(type: CommonPageFields.self).keys
        for page in model.pages {
            guard case .dictionary(let context) = model.context(for: page, values: PageValues()) else {
                Issue.record("\(page.path): not a dictionary")
                continue
            }
            let own = ContextType(type: page.kind.contextType).keys
            #expect(Set(context.keys).subtracting(common.union(own)).isEmpty, "\(page.path): \(context.keys.sorted())")
            #expect(!Set(context.keys).subtracting(common).isEmpty, "\(page.path) has none of its own fields")
            #expect(common.isSubset(of: context.keys), "\(page.path)")
            #expect(context["kind"] == .string(page.kind.rawValue))
        }
    }

    // MARK: docs/templates.md

    /// A table of `docs/templates.md`: the heading it stands under and the field names of its first column.
    struct DocumentedTable {
        let page: String
        let heading: String?
        var keys: [String]
        /// Each row: the keys of its first column and the text of the others.
        var rows: [(keys: [String], meaning: String)] = []
    }

    static func documentedTables() throws -> [DocumentedTable] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/templates.md"), encoding: .utf8)
        var tables: [DocumentedTable] = []
        var page: String?
        var heading: String?
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                page = String(line.dropFirst(3))
                heading = nil
                inTable = false
            } else if line.hasPrefix("### ") {
                heading = String(line.dropFirst(4))
                inTable = false
            } else if line.hasPrefix("|"), let page {
                let firstCell = line.split(separator: "|", omittingEmptySubsequences: false)[1]
                if !inTable {
                    inTable = true
                    tables.append(DocumentedTable(page: page, heading: heading, keys: []))
                    continue  // the header row
                }
                if firstCell.allSatisfy({ $0 == "-" || $0 == " " || $0 == ":" }) { continue }
                let keys = codeSpans(in: String(firstCell))
                tables[tables.count - 1].keys += keys
                let meaning = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "|")
                tables[tables.count - 1].rows.append((keys, meaning))
            } else {
                inTable = false
            }
        }
        return tables
    }

    /// The text of each `code span` in `text`.
    static func codeSpans(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The context type a `##` section documents: "Every page", or a section naming its template (`overview.md`).
    static func sectionType(_ title: String) -> ContextType? {
        if title == "Every page" { return ContextType(type: CommonPageFields.self) }
        return renderedTemplates.first { title.contains("(`\($0.template)`)") }?.contexts.last
    }

    /// The context type a `###` heading documents: a path of fields from the section's type
    /// (`groups[].rules[]`), or in "Every page", a type several pages share, by the field that holds it.
    static func headingType(_ heading: String, in section: ContextType, sectionTitle: String) -> ContextType? {
        guard let path = codeSpans(in: heading).first else { return nil }
        let names = path.split(separator: ".").map { $0.hasSuffix("[]") ? String($0.dropLast(2)) : String($0) }
        if sectionTitle == "Every page" {
            let shared = reachableTypes.filter { $0.value.count > 1 }.keys
            let holders = Set(reachableTypes.keys.compactMap { type in type.shape(of: names.last ?? "").flatMap(contextType(of:)) })
            let matches = holders.filter { shared.contains($0) }
            return matches.count == 1 ? matches.first : nil
        }
        var type = section
        for name in names {
            guard let next = type.shape(of: name).flatMap(contextType(of:)) else { return nil }
            type = next
        }
        return type
    }

    @Test func docsListExactlyTheKeysOfEachPageType() throws {
        var documented: Set<ContextType> = []
        for table in try Self.documentedTables() {
            guard let section = Self.sectionType(table.page) else { continue }
            let type: ContextType
            if let heading = table.heading {
                guard let resolved = Self.headingType(heading, in: section, sectionTitle: table.page) else {
                    Issue.record("docs/templates.md: '\(table.page)' › '\(heading)' names no field of \(section) that holds a context")
                    continue
                }
                type = resolved
            } else {
                type = section
            }
            documented.insert(type)
            let listed = Set(table.keys)
            #expect(table.keys.count == listed.count, "docs/templates.md: '\(table.page)' › '\(table.heading ?? "")' lists a key twice")
            #expect(
                listed.subtracting(type.keys).isEmpty,
                "docs/templates.md: '\(table.page)' › '\(table.heading ?? "")' lists \(listed.subtracting(type.keys).sorted()), which \(type) has not")
            #expect(
                type.keys.subtracting(listed).isEmpty,
                "docs/templates.md: '\(table.page)' › '\(table.heading ?? "")' leaves out \(type.keys.subtracting(listed).sorted()) of \(type)")
        }
        for type in Self.reachableTypes.keys where !documented.contains(type) {
            Issue.record("docs/templates.md documents no table of \(type) (\(type.keys.sorted()))")
        }
    }

    // MARK: Templates/

    /// Every name a template's tags use that its contexts do not have, and every `{{{name}}}` that is not trusted HTML.
    static func problems(in templateName: String, contexts: [ContextType], theme: Theme = .builtIn) throws -> [String] {
        let templates = try TemplateSet(theme: theme)
        var problems: [String] = []
        /// What a section puts on the context stack: a context type, or a value with no names (a flag, a text, a list of texts).
        enum Frame { case context(ContextType), value }

        func lookUp(_ name: Name, in stack: [Frame], tag: String, where place: String) -> TemplateShape? {
            guard let first = name.parts.first else { return nil }  // `{{.}}`
            for case .context(let type) in stack.reversed() {
                guard var shape = type.shape(of: first) else { continue }
                for part in name.parts.dropFirst() {
                    guard case .context(let nested) = shape, let next = ContextType(type: nested).shape(of: part) else {
                        problems.append("\(place): \(tag): no field '\(part)' in '\(first)'")
                        return nil
                    }
                    shape = next
                }
                return shape
            }
            let names = stack.compactMap { if case .context(let type) = $0 { type.description } else { nil } }
            problems.append("\(place): \(tag): no field '\(first)' in \(names.joined(separator: " › "))")
            return nil
        }

        func walk(_ nodes: [Node], _ stack: [Frame], in place: String, depth: Int) {
            for node in nodes {
                switch node {
                case .text, .lineStart:
                    break
                case .variable(let name, let escaped):
                    let tag = escaped ? "{{\(name.parts.joined(separator: "."))}}" : "{{{\(name.parts.joined(separator: "."))}}}"
                    guard let shape = lookUp(name, in: stack, tag: tag, where: place) else { continue }
                    switch shape {
                    case .html: break
                    case .context: problems.append("\(place): \(tag) interpolates a context, which renders as nothing")
                    case .text, .number, .flag, .list:
                        if !escaped { problems.append("\(place): \(tag) inserts a value that is not the site's own HTML unescaped") }
                    }
                case .section(let name, let body, let inverted, _):
                    let tag = "{{\(inverted ? "^" : "#")\(name.parts.joined(separator: "."))}}"
                    let shape = lookUp(name, in: stack, tag: tag, where: place)
                    if inverted || shape == nil {
                        walk(body, stack, in: place, depth: depth)
                    } else if let shape, let type = contextType(of: shape) {
                        walk(body, stack + [.context(type)], in: place, depth: depth)
                    } else {
                        walk(body, stack + [.value], in: place, depth: depth)
                    }
                case .partial(let partialName, _, _):
                    guard depth < 8, let partial = templates.partials.template(named: partialName) else {
                        problems.append("\(place): {{> \(partialName)}} names no partial")
                        continue
                    }
                    walk(partial.nodes, stack, in: "\(place) › \(partialName)", depth: depth + 1)
                }
            }
        }
        guard let template = templates.templates[templateName] else { return ["no template \(templateName)"] }
        walk(template.nodes, contexts.map { .context($0) }, in: templateName, depth: 0)
        return problems
    }

    @Test("every tag of a built-in template names a field of its page's types", arguments: renderedTemplates.map(\.template))
    func templatesNameOnlyExistingFields(_ template: String) throws {
        let contexts = Self.renderedTemplates.first { $0.template == template }!.contexts
        #expect(try Self.problems(in: template, contexts: contexts) == [])
    }

    @Test func everyBuiltInPageTemplateIsRendered() {
        let rendered = Set(Self.renderedTemplates.map(\.template))
        let pages = Theme.builtIn.templates.keys.filter { !$0.hasPrefix("partials/") }
        #expect(Set(pages) == rendered)
    }

    @Test func aRenamedOrUnsafeTagIsFound() throws {
        var theme = Theme.builtIn
        theme = Theme(
            templates: theme.templates.merging([
                "overview.md": "{{#placements}}{{keys}} {{root}}{{/placements}} {{{verdict}}} {{{counts.total}}} {{counts.none}} {{rejection}}",
                "partials/findings.md": "{{#findings}}{{rule}}{{/findings}}",
            ]) { _, new in new }, assets: theme.assets)
        let contexts = [ContextType(type: CommonPageFields.self), ContextType(type: OverviewPage.self)]
        let problems = try Self.problems(in: "overview.md", contexts: contexts, theme: theme)
        #expect(problems.count == 5, "\(problems)")
        #expect(problems.contains { $0.contains("{{keys}}") })
        #expect(problems.contains { $0.contains("{{{verdict}}}") })
        #expect(problems.contains { $0.contains("{{{counts.total}}}") })
        #expect(problems.contains { $0.contains("'none'") })
        #expect(problems.contains { $0.contains("{{rejection}}") })
    }
}
