import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A funnel page marks as unreachable exactly the pages the `page-unreachable` check names, by
/// position: a reachable page that shares its id with an unreachable duplicate stays reachable.
/// Before, the page marked every page with the id (the drawing's box and the table's row), so the
/// drawing said two pages were unreachable where the check found one.
@Suite("Unreachable marks on a funnel with a duplicate page id")
struct UnreachableDuplicatePageTests {
    /// `a` goes to `b`; a second page `b` follows, which nothing reaches (steps to `b` go to the first).
    static let snapshot = """
        {"formatVersion":1,"placements":{"onb":{"placement":{"identifier":"onb","revision":1},"funnel":{"id":"f","slug":"f","pages":[
        {"id":"a","type":"statement","default_next":"b"},{"id":"b","type":"statement","default_next":"end"},
        {"id":"b","type":"statement","default_next":"end"}]}}}}
        """

    @Test func onlyTheDuplicateIsMarked() throws {
        let files = try site(for: Array(Self.snapshot.utf8))
        let funnel = try #require(files.first { $0.key.hasPrefix("funnels/") }?.value)
        // The drawing: boxes 1 and 2 are both `b`; only box 2 is unreachable.
        #expect(funnel.contains(#"class="fd-page" id="fd-page-1""#))
        #expect(funnel.contains(#"class="fd-page is-unreachable" id="fd-page-2""#))
        #expect(funnel.contains("1 unreachable page."))
        // The table: one row marked.
        #expect(funnel.components(separatedBy: #"<tr id="page-"#).count - 1 == 3)
        #expect(funnel.components(separatedBy: #"class="is-unreachable""#).count - 1 == 1)
    }

    /// The drawing's own API by position marks exactly the pages given.
    @Test func theDrawingMarksPagesByPosition() throws {
        let file = FallbackFile(text: Self.snapshot)
        let funnel = try #require(file.loadedEntries.first?.entry.funnel)
        let byPosition = FunnelDrawing(funnel: funnel, unreachablePageIndices: [2]).svg
        #expect(byPosition.components(separatedBy: "is-unreachable").count - 1 == 1)
        #expect(byPosition.contains("1 unreachable page."))
        // By id, every page with the id is marked, as that initialiser documents.
        let byId = FunnelDrawing(funnel: funnel, unreachablePages: [ExactKey("b")]).svg
        #expect(byId.components(separatedBy: "is-unreachable").count - 1 == 2)
    }
}
