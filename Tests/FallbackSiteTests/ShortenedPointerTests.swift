@testable import FallbackSite
import RovenueFallback
import Testing

/// A long pointer on a page is shortened token by token, tokens read between "/" bytes: a key
/// that starts with a combining mark is still a token of its own, shortened on its own.
@Suite("Long pointers shortened token by token")
struct ShortenedPointerTests {
    @Test func aTokenStartingWithACombiningMarkIsShortenedOnItsOwn() {
        let first = String(repeating: "a", count: 200)
        let second = "\u{301}" + String(repeating: "b", count: 200)
        let shortened = SnapshotText.shortenedPointer("/placements/" + first + "/" + second)
        let expected = "/placements/" + SnapshotText.shortened(first) + "/" + SnapshotText.shortened(second)
        #expect(ExactKey.same(shortened, expected), "\(shortened.debugDescription)")
    }

    @Test(arguments: ["", "/", "/a", "/a/", "//", "/" + String(repeating: "x/", count: 60)])
    func shortPointersAndEmptyTokensStayAsTheyAre(pointer: String) {
        #expect(ExactKey.same(SnapshotText.shortenedPointer(pointer), pointer))
    }
}
