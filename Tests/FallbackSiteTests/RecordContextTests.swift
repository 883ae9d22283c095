import FallbackAudit
import FallbackMustache
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Page contexts as the site renders them (`SiteModel.renderContext(for:values:)`, records whose
/// keys each context type shares) against the plain dictionaries `context(for:values:)` gives (the
/// form the site rendered before): every template of `Templates/`, with every page's context of
/// every kind, renders the same bytes either way.
@Suite("Record contexts render as dictionaries")
struct RecordContextTests {
    static func snapshot(_ bytes: [UInt8], _ name: String) -> SiteModel.Snapshot {
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
    }

    /// Every template under `Templates/` (partials included), parsed, by its path there.
    static func repositoryTemplates() throws -> [String: MustacheTemplate] {
        let theme = try Theme.builtIn(overridingTemplatesWith: repositoryRoot.appendingPathComponent("Templates").path, assetsWith: nil)
        var templates: [String: MustacheTemplate] = [:]
        for path in theme.templateFiles.keys { templates[path] = try MustacheTemplate(parsing: theme.templates[path]!, name: path) }
        return templates
    }

    /// Templates that name what the page types do not have, or have in other places.
    static let hostileTemplates = [
        "[{{count}}][{{fields}}][{{fieldValues}}][{{mustacheValue}}][{{renderValue}}][{{shape}}][{{self}}][{{keys}}][{{values}}][{{description}}]",
        "{{#findings}}[{{siteTitle}}|{{kind}}|{{root}}|{{id}}|{{findings.length}}|{{placement.id}}|{{.}}]{{/findings}}",
        "{{root.x}}{{kind.y}}{{#kind}}<{{.}}|{{root}}>{{/kind}}{{^nothing}}-{{/nothing}}{{#snapshot}}{{snapshot}}{{/snapshot}}",
        "{{#rows}}{{#placement}}{{placement}}{{/placement}}{{^placementPath}}no path{{/placementPath}}{{/rows}}{{#entries}}{{key}}:{{path}}{{/entries}}",
        "{{.}}{{#.}}{{root}}{{/.}}",
    ]

    static func inputs() throws -> [(name: String, model: SiteModel)] {
        var models: [(String, SiteModel)] = []
        let baseline = snapshot(try example("Examples/2026-04-14-release-3.1.json"), "before.json")
        let files = [
            "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json", "Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json",
            "Tests/Golden/check/funnel-era.json", "Tests/Golden/check/funnel-era-rejected-missing.json",
            "Examples/2026-03-03-release-3.0.json", "Examples/2026-07-21-release-3.4.json",
        ]
        for file in files {
            models.append((file, SiteModel(snapshot: snapshot(try example(file), file), baseline: baseline, title: nil, referenceDate: nil)))
        }
        for file in ["Fuzz/Regressions/build/item4-generatedAt-Int64-min-with-baseline"] {
            models.append((file, SiteModel(snapshot: snapshot(try example(file), file), baseline: nil, title: "<T&>", referenceDate: nil)))
        }
        // A series: every kind of page, history and snapshot pages included.
        models.append(("Examples series", try HistoryWalkTests.examplesSite().model))
        return models
    }

    /// How many records a value holds, itself included.
    static func records(in value: MustacheValue) -> Int {
        switch value {
        case .record(let record): 1 + record.values.reduce(0) { $0 + ($1.map(records(in:)) ?? 0) }
        case .list(let list): list.reduce(0) { $0 + records(in: $1) }
        default: 0
        }
    }

    @Test func everyTemplateRendersTheSameWithEveryPageContext() throws {
        let templates = try Self.repositoryTemplates()
        #expect(templates.count >= 16)
        let partials = TemplateSet.Partials(templates: templates)
        let hostile = try Self.hostileTemplates.enumerated().map { try MustacheTemplate(parsing: $1, name: "hostile \($0)") }
        var kinds: Set<SitePage.Kind> = []
        var recordsSeen = 0
        for (name, model) in try Self.inputs() {
            let builder = try SiteBuilder(model: model, theme: .builtIn)
            for page in model.pages {
                kinds.insert(page.kind)
                // Each form made with its own values; trusted-HTML tokens differ between them, so
                // renders are compared with every token replaced by its value.
                let recordValues = PageValues()
                let dictionaryValues = PageValues()
                let record = model.renderContext(for: page, values: recordValues)
                let dictionary = model.context(for: page, values: dictionaryValues)
                guard case .record = record else {
                    Issue.record("\(name) \(page.path): not a record")
                    continue
                }
                recordsSeen += Self.records(in: record)
                let sameValues = recordValues.resolvingTokens(in: record.dictionaryForm) == dictionaryValues.resolvingTokens(in: dictionary)
                #expect(sameValues, "\(name) \(page.path)")
                for template in templates.values.sorted(by: { $0.name < $1.name }) + hostile {
                    let fast = recordValues.substitutedBytes(in: String(decoding: try template.renderUTF8(record, partials: partials), as: UTF8.self))
                    let reference = dictionaryValues.substitutedBytes(
                        in: String(decoding: try template.renderUTF8(dictionary, partials: partials), as: UTF8.self))
                    let same = fast == reference
                    #expect(same, "\(name) \(page.path) \(template.name)")
                }
                let layout = builder.layoutContext(for: page, content: PageValues().html("<p>body</p>"))
                guard case .record = layout.renderValue else {
                    Issue.record("\(name) \(page.path): the layout's context is not a record")
                    continue
                }
                let sameLayout = layout.renderValue.dictionaryForm == layout.mustacheValue
                #expect(sameLayout, "\(name) \(page.path)")
                let rendered = try templates["layout.html"]!.renderUTF8(layout.renderValue, partials: partials)
                let sameLayoutBytes = rendered == (try templates["layout.html"]!.renderUTF8(layout.mustacheValue, partials: partials))
                #expect(sameLayoutBytes, "\(name) \(page.path) layout")
            }
        }
        #expect(kinds == Set(SitePage.Kind.allCases))
        // Rows are records too, not only the pages.
        #expect(recordsSeen > 1000)
    }

    /// A context type's keys are its fields' keys, in order, and find their own slots.
    @Test func aTypesKeysAreItsFieldsKeys() {
        let fields = FindingRow.fields
        #expect(fields.keys.keys == fields.map(\.key))
        let row = FindingRow(
            id: "i", rule: "r", rulePath: nil, severity: "error", isError: true, isWarning: false, isInfo: false, message: "<m>", pointer: "/p", line: 1,
            column: 2, placement: nil, placementPath: nil, anchor: nil)
        let record = row.fieldRecord
        for field in fields { #expect(record[field.key] == field.value(row), "\(field.key)") }
        #expect(record["placement"] == nil)
        #expect(record["message"] == "<m>")
    }
}
