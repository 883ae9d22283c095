import Testing
@testable import FallbackSite

/// `MarkupPosition` reads a tag's name into eight packed bytes and a length, with no allocation per
/// tag (issue 10: a page's listings and drawings have thousands of tags). Only `title`,
/// `textarea`, `script` and `style`, in any case, start text that holds no markup: a name that
/// shares their first bytes, or is longer than eight bytes, does not. Their end tag closes them
/// only before whitespace, `/` or `>`, as in the HTML tokenizer.
@Suite("Markup position: tag names")
struct MarkupTagNameTests {
    /// The context of a text byte put right after `html`.
    static func context(after html: String) -> MarkupPosition.Context {
        var page = html + "T"
        return page.withUTF8 { bytes in
            var position = MarkupPosition()
            for index in bytes.indices.dropLast() { position.advance(over: bytes, at: index) }
            return position.context
        }
    }

    @Test(arguments: [
        ("<title>", MarkupPosition.Context.plainText), ("<TiTlE>", .plainText), ("<textarea>", .plainText),
        ("<TEXTAREA rows=3>", .plainText), ("<script src=\"x\">", .plainText), ("<style>", .plainText),
        ("<textareas>", .content), ("<textare>", .content), ("<titles>", .content), ("<title1>", .content),
        ("<scriptscript>", .content), ("<abcdefghijklmnop>", .content), ("<b>", .content), ("<h1>", .content),
        ("<p data-x=\"", .attribute), ("<textarea title='", .attribute),
        ("<textarea>a</textarea>", .content), ("<script>a</SCRIPT >", .content), ("<style>a</style ", .name),
        ("<style>a</style", .plainText), ("<style>a</styles>", .plainText), ("<script>a</script/", .name),
        ("<title>a</b>", .plainText), ("<title>a</titl", .plainText), ("</title>", .content),
    ])
    func onlyThePlainTextElementsHoldText(html: String, expected: MarkupPosition.Context) {
        #expect(Self.context(after: html) == expected, "\(html)")
    }
}
