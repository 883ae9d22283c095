import RovenueFallback
import Testing

/// One escaper, four contexts: HTML (pages and drawings), HTML text (source listings) and XML 1.0 text and attributes (JUnit).
@Suite("MarkupEscaping")
struct MarkupEscapingTests {
    static let sample = "a&b<c>d\"e'f\tg\nh\ri\u{1}j\u{FFFE}k\u{202E}l"

    @Test(arguments: [
        (MarkupEscaping.html, "a&amp;b&lt;c&gt;d&quot;e&#39;f\tg\nh\ri\u{1}j\u{FFFE}k\u{202E}l"),
        (MarkupEscaping.htmlText, "a&amp;b&lt;c&gt;d\"e'f\tg\nh\ri\u{1}j\u{FFFE}k\u{202E}l"),
        (MarkupEscaping.xmlText, "a&amp;b&lt;c&gt;d\"e'f\tg\nh&#13;i\u{FFFD}j\u{FFFD}k\u{202E}l"),
        (MarkupEscaping.xmlAttribute, "a&amp;b&lt;c&gt;d&quot;e'f&#9;g&#10;h&#13;i\u{FFFD}j\u{FFFD}k\u{202E}l"),
    ])
    func eachContextEscapesItsCharacters(context: MarkupEscaping, expected: String) {
        #expect(context.escape(Self.sample) == expected)
        var appended = ""
        for scalar in Self.sample.unicodeScalars { context.append(scalar, to: &appended) }
        #expect(appended == expected)
    }

    @Test func theShorthandsAreTheContexts() {
        #expect(MarkupEscaping.html(Self.sample) == MarkupEscaping.html.escape(Self.sample))
        #expect(MarkupEscaping.xmlText(Self.sample) == MarkupEscaping.xmlText.escape(Self.sample))
        #expect(MarkupEscaping.xmlAttribute(Self.sample) == MarkupEscaping.xmlAttribute.escape(Self.sample))
    }

    @Test func textWithoutMarkupCharactersIsUnchanged() {
        let plain = "Onboarding quiz — été 🎉"
        #expect(MarkupEscaping.html(plain) == plain)
        #expect(MarkupEscaping.xmlText(plain) == plain)
        #expect(MarkupEscaping.xmlAttribute(plain) == plain)
    }
}
