import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The search index is written as text as its entries are read (`SearchIndex.script`), not built
/// as a `JSONValue` tree of the whole index first (at 10,000 placements a tree of some 150,000 rows
/// held at the build's end). Its bytes are those of the tree, written by `jsonText()`.
@Suite("Search index written as text")
struct SearchIndexTextTests {
    /// The index as it was written before: a tree of tables and rows, then `jsonText()`.
    static func treeScript(_ index: SearchIndex) -> String {
        // Tables found by search, not by dictionary: slow, and independent of the code under test.
        var pages: [String] = []
        var targets: [(page: Int, label: String)] = []
        var rows: [JSONValue] = []
        for entry in index.entries {
            let (page, anchor) = SearchIndex.split(entry.path)
            if !pages.contains(page) { pages.append(page) }
            let pageNumber = pages.firstIndex(of: page)!
            if !targets.contains(where: { $0 == (pageNumber, entry.label) }) { targets.append((pageNumber, entry.label)) }
            let target = targets.firstIndex { $0 == (pageNumber, entry.label) }!
            let kind = SearchIndex.Kind.allCases.firstIndex(of: entry.kind)!
            var row: [JSONValue] = [.number(JSONNumber(kind)), .string(entry.text), .number(JSONNumber(target))]
            if let anchor { row.append(anchor == "page-" + entry.text ? .number(JSONNumber(1)) : .string(anchor)) }
            rows.append(.array(row))
        }
        let data = JSONValue.object([
            .init("kinds", .array(SearchIndex.Kind.allCases.map { .string($0.rawValue) })), .init("pages", .array(pages.map { .string($0) })),
            .init("targets", .array(targets.map { .array([.number(JSONNumber($0.page)), .string($0.label)]) })), .init("entries", .array(rows)),
        ])
        return "self.\(SearchIndex.globalName) = \(SearchIndex.scriptSafe(data.jsonText()));\n"
    }

    @Test(arguments: [
        "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json", "Examples/2026-04-14-release-3.1.json",
    ])
    func theTextIsTheTreesText(path: String) throws {
        let index = SearchIndexTests.model(String(decoding: try example(path), as: UTF8.self)).searchIndex
        try #require(index.entries.count > 20)
        #expect(index.script == Self.treeScript(index))
    }

    /// Hostile text (quotes, backslashes, `</script>`, U+2028, control characters), anchors of
    /// both forms, an empty index.
    @Test func hostileEntriesAndAnEmptyIndexAreWrittenAsTheTreeWritesThem() throws {
        let index = SearchIndexTests.model(SearchIndexTests.snapshot).searchIndex
        #expect(index.script == Self.treeScript(index))
        let crafted = SearchIndex(entries: [
            .init(kind: .pageId, text: "a\"b\\c\u{1}\n", label: "l\u{2028}", path: "funnels/f.html#page-a\"b\\c\u{1}\n"),
            .init(kind: .pageId, text: "plain", label: "l\u{2028}", path: "funnels/f.html#page-plain"),
            .init(kind: .funnelId, text: "</script>", label: "<b>", path: "funnels/f.html"),
            .init(kind: .snapshot, text: "x", label: "y", path: "snapshots/x.html#other"),
        ])
        #expect(crafted.script == Self.treeScript(crafted))
        #expect(SearchIndex(entries: []).script == Self.treeScript(SearchIndex(entries: [])))
    }
}
