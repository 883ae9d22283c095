@testable import FallbackAudit
import RovenueFallback
import Testing

/// A finding's identity reads its pointer's tokens between "/" bytes (RFC 6901), so a key that
/// starts with a combining mark is a token of its own; split at the `Character` "/", the mark
/// joined the "/" before it into one character and the key ran into the token before.
@Suite("A finding's pointer split into tokens by its bytes")
struct PointerTokenSplitTests {
    @Test func aTokenStartingWithACombiningMarkStandsAlone() {
        let below = FindingIdentity.pointer("/placements/k/funnel/pages/0/\u{301}q", below: ["pages", "0"])
        #expect(ExactKey.same(below, "/\u{301}q"), "\(below.debugDescription)")
    }

    @Test func theAnchorMayStartWithACombiningMark() {
        let below = FindingIdentity.pointer("/placements/k/funnel/pages/\u{301}p/title", below: ["pages", "\u{301}p"])
        #expect(ExactKey.same(below, "/title"), "\(below.debugDescription)")
    }
}
