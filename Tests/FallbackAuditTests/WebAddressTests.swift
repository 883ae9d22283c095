import FallbackAudit
import Testing

/// `WebAddress` decides which addresses become links: configured addresses need only be web URLs;
/// snapshot URLs must also name a host and be at most `longestLink` bytes.
@Suite("Web addresses")
struct WebAddressTests {
    @Test(arguments: ["https://example.com/rules.md", "http://x", "HTTPS://Example.com/a?b#c", "https://?", "https:///path"])
    func webURLs(_ text: String) {
        #expect(WebAddress.isWebURL(text))
    }

    @Test(arguments: [
        "", "https://", "http://", "ftp://example.com", "javascript:alert(1)", "example.com", "https:example.com",
        "https://a.com/ x", "https://a.com/\tx", "https://a.com/\u{7F}", "https://a.com/\u{A0}", "https://a.com/\u{2028}",
        " https://a.com",
    ])
    func notWebURLs(_ text: String) {
        #expect(!WebAddress.isWebURL(text))
        #expect(!WebAddress.isLinkable(text))
    }

    @Test(arguments: ["https://cdn.example.com/a.png", "http://example.com", "HTTPS://CDN.example.com/a.png?w=2#x"])
    func linkable(_ text: String) {
        #expect(WebAddress.isLinkable(text))
    }

    /// Web URLs a configuration may name that a page still does not link to.
    @Test(arguments: ["https://?", "https:///path", "https://#x"])
    func webURLsWithoutAHostAreNotLinkable(_ text: String) {
        #expect(WebAddress.isWebURL(text))
        #expect(!WebAddress.isLinkable(text))
    }

    @Test func linksAreBounded() {
        let prefix = "https://example.com/"
        let longest = prefix + String(repeating: "a", count: WebAddress.longestLink - prefix.utf8.count)
        #expect(WebAddress.isLinkable(longest))
        #expect(!WebAddress.isLinkable(longest + "a"))
        #expect(WebAddress.isWebURL(longest + "a"))
    }
}
