import Testing

@testable import FallbackSite

/// The search index splits an ASCII path at its first `#` byte; it must split every path as the
/// Character search does, including text where a `#` is part of a larger Character.
@Suite struct SearchIndexSplitTests {
    /// The split by Characters, as it was for every path.
    static func referenceSplit(_ path: String) -> (page: String, anchor: String?) {
        guard let hash = path.firstIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }

    @Test(arguments: [
        "", "#", "##", "a#", "#a", "funnels/fnl_x.html#page-pg_welcome", "experiments/e.html#variants", "a#b#c", "no-anchor.html",
        "p.html#\u{301}x#y", "\u{0600}#a#b", "#\u{FE0F}\u{20E3}#z", "é.html#é", "a\r\n#b", "x#\u{200D}y", "用户#页",
    ])
    func splitsAsCharactersDo(path: String) {
        let split = SearchIndex.split(path)
        let reference = Self.referenceSplit(path)
        #expect(split.page == reference.page && split.anchor == reference.anchor, "\(path.debugDescription)")
    }
}
