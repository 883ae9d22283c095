import Testing
@testable import FallbackMustache
@testable import FallbackSite

/// `PageValues.substitute(in:)` skips the bytes `MarkupPosition.skip(over:from:classes:)` says change
/// nothing, and reads a tag's name there (issue 10: the position machine ran for every byte of
/// every page). On hostile markup the
/// skipping walk must know the same context at every byte as the walk that visits every byte.
@Suite("Token substitution fast path")
struct SubstituteFastPathTests {
    static let pages: [String] = [
        #"<p class="a'b" title='x"y'>text é <b>bold</b> &amp; 5 < 6 > 2</p>"#,
        "<title>a <b> not a tag</b> é</title ><TEXTAREA>x</textareaX></TEXTAREA><p>after</p>",
        "<script src=x>if (a < b && c > d) { s = \"</scr\" + 'ipt>' }</SCRIPT><style>a>b{}</style>",
        "<!doctype html><a href=\"?q=<x>\" data-x='<y>'>link</a><br/><img alt=\"\"/><?pi x?></ a>",
        "<div\n  class=\"x\"\n  id='y'>multi\nline</div><x-custom a=b>c</x-custom><",
        "<TiTlE>Mixed</tItLe><p title=\"</title>\">x</p><textarea></textarea></textarea>",
    ]

    /// The context at each byte, visiting every byte or skipping those `skip` passes.
    static func contexts(_ page: String, skipping: Bool) -> [MarkupPosition.Context] {
        var page = page
        return page.withUTF8 { bytes in
            var position = MarkupPosition()
            var result: [MarkupPosition.Context] = []
            var index = 0
            while index < bytes.count {
                if skipping {
                    let context = position.context
                    let stop = position.skip(over: bytes, from: index, classes: MarkupPosition.StopClasses())
                    result += repeatElement(context, count: stop - index)
                    #expect(position.context == context)
                    index = stop
                    guard index < bytes.count else { break }
                }
                result.append(position.context)
                position.advance(over: bytes, at: index)
                index += 1
            }
            return result
        }
    }

    @Test(arguments: pages.indices)
    func skippingKnowsTheContextOfEveryByte(page: Int) {
        let skipped = Self.contexts(Self.pages[page], skipping: true)
        let visited = Self.contexts(Self.pages[page], skipping: false)
        #expect(skipped == visited)
        #expect(Set(visited.map { "\($0)" }).count > 1)
    }

    /// A trusted-HTML token passes through the escaping as it is, the shortest (number 0, one
    /// digit) too: a value is told from a token by its length first, then its first bytes.
    @Test func theShortestTrustedTokenPassesThrough() {
        let values = PageValues()
        let trusted = values.html("<b>trusted</b>")
        #expect(trusted.token.utf8.count == values.prefix.utf8.count + 1 + PageValues.suffix.utf8.count)
        #expect(values.escaping.escape(trusted.token) == trusted.token)
        var output = ByteWriter(capacity: 64)
        values.escaping.append(trusted.token, to: &output)
        #expect(output.take() == Array(trusted.token.utf8))
        // Text that is only the prefix and suffix, or shorter, is a value, escaped.
        let spelled = values.prefix + PageValues.suffix
        #expect(values.substitute(in: "<p>\(values.escaping.escape(trusted.token)) \(values.escaping.escape(spelled))</p>") == "<p><b>trusted</b> \(spelled)</p>")
    }

    @Test func valuesAreEscapedForWhereTheyStand() {
        let values = PageValues()
        let hostile = "<script>x</script> \"q\" 'a' é"
        let token = values.escaping.escape(hostile)
        let html = "<title>\(token)</title><p title=\"\(token)\" data-x='\(token)'>\(token)</p>"
        let page = values.substitute(in: html)
        #expect(page == "<title>\(SnapshotText.plainText(hostile))</title><p title=\"\(SnapshotText.attribute(hostile))\" data-x='\(SnapshotText.attribute(hostile))'>\(SnapshotText.html(hostile))</p>")
        #expect(!page.contains("<script>"))
    }
}
