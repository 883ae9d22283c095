import FallbackMarkdown
import Testing

/// `Markdown.withHTML(fromUTF8:)` hands out cmark-gfm's own buffer (issue 10, render cost): the
/// same HTML `html(from:)` returns, as bytes.
@Suite("Markdown as bytes")
struct MarkdownBytesTests {
    static func html(_ markdown: String) -> String {
        Array(markdown.utf8).withUnsafeBufferPointer { bytes in
            Markdown.withHTML(fromUTF8: bytes) { String(decoding: Array($0), as: UTF8.self) }
        }
    }

    @Test(arguments: [
        ("# Title\n\nSome *text* & <b>raw</b>\n", "<h1>Title</h1>\n<p>Some <em>text</em> &amp; <b>raw</b></p>\n"),
        ("| a | b |\n|---|---|\n| 1 | é |\n", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>é</td>\n</tr>\n</tbody>\n</table>\n"),
        ("a\u{0}b", "<p>a\u{FFFD}b</p>\n"),
        ("", ""),
        ("<script>x</script>\n", "&lt;script>x&lt;/script>\n"),
    ])
    func bytesAreTheHTML(markdown: String, expected: String) {
        #expect(Self.html(markdown) == expected)
        #expect(Markdown.html(from: markdown) == expected)
    }

    @Test func anEmptyBufferWithoutAnAddressRendersNothing() {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(Markdown.withHTML(fromUTF8: empty) { $0.count } == 0)
    }
}
