import Testing

@testable import FallbackSite

/// The search index keeps an id composed and the same id decomposed as two entries: they are two
/// ids in the snapshot, compared by their bytes.
@Suite("search entries differ by their bytes")
struct SearchEntryBytesTests {
    @Test func composedAndDecomposedAreTwoEntries() {
        let composed = SearchIndex.Entry(kind: .pageId, text: "caf\u{E9}", label: "page caf\u{E9}", path: "funnels/f.html#page-a")
        let decomposed = SearchIndex.Entry(kind: .pageId, text: "cafe\u{301}", label: "page cafe\u{301}", path: "funnels/f.html#page-a")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed, composed]).count == 2)
    }
}
