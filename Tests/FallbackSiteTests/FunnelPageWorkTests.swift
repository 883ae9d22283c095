import FallbackAudit
import FallbackSample
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// Work a funnel page did more often than it needed (issue 10, funnel pages): the translation
/// coverage gathered the texts once per locale, and every step of the drawing spelled its tooltip,
/// which only labelled steps show. Each must give what the work as it was gave.
@Suite("Funnel page work done once")
struct FunnelPageWorkTests {
    static func funnels() throws -> [Funnel] {
        try DrawingSettleTests.funnels()
    }

    /// The coverage of one locale counted as the site counted it before it gathered the texts
    /// once for all locales: every page's `texts`, `textLists` and option labels, read again.
    static func referenceCoverage(of funnel: Funnel, locale: String, plainIsUntranslated untranslated: Bool) -> FunnelText.Coverage {
        var coverage = FunnelText.Coverage()
        func count(_ text: LocalizedText) {
            coverage.total += 1
            if untranslated && PlainCopy.needsTranslation(text) {
                coverage.plain += 1
            } else if let value = text.text(for: locale), !value.isEmpty {
                coverage.present += 1
            }
        }
        for page in funnel.pages {
            for (_, text) in page.texts { count(text) }
            for (_, list) in page.textLists {
                coverage.total += 1
                if untranslated && PlainCopy.needsTranslation(list) {
                    coverage.plain += 1
                } else if let values = list.list(for: locale), !values.isEmpty, values.allSatisfy({ !$0.isEmpty }) {
                    coverage.present += 1
                }
            }
            for option in page.options ?? [] { count(option.label) }
        }
        return coverage
    }

    @Test func coverageOfEveryLocaleIsEachLocalesOwnCount() throws {
        var compared = 0
        for funnel in try Self.funnels() {
            let untranslated = Set(PlainCopy.untranslatedLocales(of: funnel).map(ExactKey.init))
            let expected = (funnel.locales ?? []).map { locale in
                Self.referenceCoverage(of: funnel, locale: locale, plainIsUntranslated: untranslated.contains(ExactKey(locale)))
            }
            let counted = FunnelText.coverage(of: funnel)
            #expect(counted.map(\.locale) == (funnel.locales ?? []), "\(funnel.id)")
            #expect(counted.map(\.coverage) == expected, "\(funnel.id)")
            compared += expected.count
        }
        #expect(compared >= 200)
    }

    /// The same on funnels made to probe the one-pass count: locales declared twice, keys that are
    /// not declared or differ from a declared locale only in normalisation, blank and empty copy,
    /// plain texts and lists with and without words, and many locales (past a map's linear search).
    @Test func coverageCountsEachLocaleOnceThroughOnePass() throws {
        let many = (0..<30).map { "l\($0)" }
        let declaredLists: [[String]] = [
            ["en"], ["en", "de"], ["en", "de", "en", "fr", "de"], ["e\u{301}", "é", "en"], many, many + ["en"] + many.prefix(5),
        ]
        /// A JSON object of `keys`, the value of each the JSON that `value` gives for its position.
        func map(_ keys: [String], _ value: (Int) -> String) -> String {
            "{" + keys.enumerated().map { "\"\($1)\":" + value($0) }.joined(separator: ",") + "}"
        }
        let empty = "\"\""
        let pages = [
            "{\"id\":\"p1\",\"type\":\"info\",\"title\":" + map(["en", "de", "xx", "é"]) { "\"Hello \($0)\"" }
                + ",\"subtitle\":\"Plain words\",\"body\":\"42\",\"cta\":\(empty),\"benefits\":[\"One\",\"Two\"],\"features\":[\"1\",\"2\"],\"steps\":[\"a\",\(empty)]}",
            "{\"id\":\"p2\",\"type\":\"info\",\"title\":" + map(Array(many.prefix(20)) + ["fr"]) { $0.isMultiple(of: 3) ? empty : "\"Copy\"" }
                + ",\"benefits\":" + map(["en", "fr", "l3"]) { $0 == 1 ? "[]" : "[\"a\",\"b\"]" }
                + ",\"features\":" + map(["de", "en"]) { _ in "[\"x\",\(empty)]" } + "}",
            "{\"id\":\"p3\",\"type\":\"single_choice\",\"question_id\":\"q\",\"options\":[{\"label\":\"Yes\",\"value\":\"y\"},{\"label\":"
                + map(["en", "e\u{301}"]) { _ in "\"Oui\"" } + ",\"value\":\"o\"},{\"label\":\(empty),\"value\":\"n\"}]}",
        ]
        for declared in declaredLists {
            let locales = "[" + declared.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let funnel = "{\"id\":\"f\",\"slug\":\"f\",\"defaultLocale\":\"\(declared[0])\",\"locales\":\(locales),\"pages\":[\(pages.joined(separator: ","))]}"
            let text = "{\"formatVersion\":1,\"placements\":{\"p\":{\"placement\":{\"identifier\":\"p\",\"revision\":1},\"funnel\":\(funnel)}}}"
            let decoded = try #require(FallbackFile(text: text).loadedEntries.first?.entry.funnel, "\(declared)")
            let untranslated = Set(PlainCopy.untranslatedLocales(of: decoded).map(ExactKey.init))
            let expected = declared.map { locale in
                Self.referenceCoverage(of: decoded, locale: locale, plainIsUntranslated: untranslated.contains(ExactKey(locale)))
            }
            let counted = FunnelText.coverage(of: decoded)
            #expect(counted.map(\.locale) == declared)
            #expect(counted.map(\.coverage) == expected, "\(declared)")
            // The probe reaches every kind of count.
            #expect(expected.contains { $0.present > 0 } && expected.contains { $0.missing > 0 })
        }
    }

    /// A step's tooltip as `FunnelFlow` spelled it for every step when it was made.
    static func referenceSummaries(_ funnel: Funnel) -> [String] {
        let graph = FunnelGraph(funnel)
        let pages = funnel.pages
        var summaries: [String] = []
        for (index, page) in pages.enumerated() {
            let rules = page.nextRules ?? []
            for (priority, step) in zip(1..., graph.steps(from: index)) {
                let name: String =
                    switch step.target {
                    case .page(let target): pages[target].id
                    case .paywall(let target): "paywall (\(pages[target].id))"
                    case .end: "end"
                    case .unknown: graph.writtenTarget(of: step) ?? ""
                    }
                switch step.kind {
                case .rule(let rule):
                    summaries.append("\(priority). Rule \(rules[rule].id) of \(page.id): if \(FunnelGraph.text(of: rules[rule].condition)) → \(name)")
                case .defaultNext, .nextInOrder:
                    let written = step.kind == .defaultNext
                    summaries.append(
                        "\(rules.isEmpty ? "" : "\(priority). ")\(page.id): \(rules.isEmpty ? "" : "else ")"
                            + "\(written ? "default_next" : "next page") → \(name)")
                }
            }
        }
        return summaries
    }

    @Test func eachStepsSummaryIsTheOneSpelledWhenTheStepWasMade() throws {
        var compared = 0
        for funnel in try Self.funnels() {
            let summaries = FunnelFlow(graph: FunnelGraph(funnel)).steps.map(\.summary)
            #expect(summaries == Self.referenceSummaries(funnel), "\(funnel.id)")
            compared += summaries.count
        }
        #expect(compared >= 1000)
    }
}
