import FallbackMarkdown
import Foundation
import Testing
@testable import FallbackSite

/// A build's pages share one `PageMemo` (issue 10, render cost): Markdown and layouts that pages
/// render alike go through cmark-gfm and the token scan once. A page must be byte for byte what
/// it is without the memo, the first time its input is met, the second (when it is kept) and
/// after (when it is found), whatever values the page holds.
@Suite("Page memo")
struct PageMemoTests {
    /// The page without a memo: cmark-gfm's HTML with the tokens found and replaced.
    static func reference(markdown: [UInt8], values: PageValues) -> [UInt8] {
        markdown.withUnsafeBufferPointer { markdown in
            Markdown.withHTML(fromUTF8: markdown) { values.substitutedBytes(in: $0) }
        }
    }

    /// A page's Markdown around its values' tokens, the same for every page, and the values of
    /// the `page`th page (hostile text, trusted HTML, text in an attribute and in a title).
    static func page(_ page: Int, memo: PageMemo) -> (markdown: [UInt8], values: PageValues) {
        let values = PageValues(memo: memo)
        let text = values.escaping.escape("<script>\(page)</script> & \"q\" é")
        let html = values.html("<b>\(page)</b>").token
        let title = values.escaping.escape("</title><i>\(page)")
        let markdown = "# Page \(text)\n\n<div title=\"\(text)\">\(html)</div>\n\n<title>\(title)</title>\n\n* \(text) *\(title)*\n"
        return (Array(markdown.utf8), values)
    }

    @Test func markdownMetAgainIsThePageWithoutTheMemo() {
        let memo = PageMemo()
        var pages: [[UInt8]] = []
        for number in 0..<4 {
            let (markdown, values) = Self.page(number, memo: memo)
            let page = memo.substitutedMarkdown(markdown, values: values)
            #expect(page == Self.reference(markdown: markdown, values: values), "page \(number)")
            pages.append(page)
        }
        // The pages differ only by their values.
        #expect(Set(pages).count == 4)
        #expect(String(decoding: pages[3], as: UTF8.self).contains("&lt;script&gt;3&lt;/script&gt;"))
    }

    @Test func layoutMetAgainIsThePageWithoutTheMemo() {
        let memo = PageMemo()
        for number in 0..<4 {
            let (layout, values) = Self.page(number, memo: memo)
            let page = memo.substitutedLayout(layout, values: values)
            #expect(page == layout.withUnsafeBufferPointer { values.substitutedBytes(in: $0) }, "page \(number)")
        }
    }

    /// The same bytes stand for other tokens on a page with more values: text spelling a token
    /// number past a page's values is no token there, but is one on a page that has that many.
    @Test func tokensAreFoundAgainForAPageWithMoreValues() {
        let memo = PageMemo()
        let spelled = "\(memo.prefix)5\(PageValues.suffix)"
        for valueCount in [1, 1, 1, 6, 6, 2] {
            let values = PageValues(memo: memo)
            for number in 0..<valueCount { _ = values.escaping.escape("<v\(number)>") }
            let markdown = Array("<p title=\"\(spelled)\">\(spelled)</p>\n".utf8)
            let page = memo.substitutedMarkdown(markdown, values: values)
            #expect(page == Self.reference(markdown: markdown, values: values), "\(valueCount) values")
            #expect(String(decoding: page, as: UTF8.self).contains("&lt;v5&gt;") == (valueCount == 6))
        }
    }

    @Test func placesHoldForCountsThatFindTheSameTokens() {
        let values = PageValues()
        for number in 0..<3 { _ = values.escaping.escape("\(number)") }
        let tokens = (0..<3).map { "\(values.prefix)\($0)\(PageValues.suffix)" }.joined()
        let spelledPast = "\(values.prefix)12\(PageValues.suffix)"
        Array((tokens + spelledPast).utf8).withUnsafeBufferPointer { source in
            let places = values.tokenPlaces(in: source)
            #expect(places.places.map(\.number) == [0, 1, 2])
            // `…12…` reached the count of 3: with 13 values it would be a token.
            #expect(places.holds(forValueCount: 3))
            #expect(places.holds(forValueCount: 2) == false)
            #expect(places.holds(forValueCount: 13) == false)
            let withoutPast = TokenPlaces(scanning: UnsafeBufferPointer(rebasing: source[..<(source.count - spelledPast.utf8.count)]),
                marker: Array(values.prefix.utf8), valueCount: 3)
            #expect(withoutPast.holds(forValueCount: 13))
            #expect(places.places.last?.end == source.count - spelledPast.utf8.count)
        }
    }

    @Test func inputsWithTheSameHashAreToldApartByTheirBytes() {
        let bytes = Array("*a*\n".utf8)
        #expect(ExactBytes(bytes, hash: 7) != ExactBytes(Array("_b_\n".utf8), hash: 7))
        #expect(ExactBytes(bytes, hash: 7) != ExactBytes(bytes + [0], hash: 7))
        #expect(ExactBytes(bytes, hash: 7) == ExactBytes(bytes, hash: 7))
        #expect(ExactBytes(bytes) == ExactBytes(Array("*a*\n".utf8)))
        #expect(ExactBytes(bytes).hash != ExactBytes(bytes + [0]).hash)
        #expect(ExactBytes([]) == ExactBytes([]))
        #expect(ExactBytes([], hash: 7) != ExactBytes([0], hash: 7))
    }

    /// Snapshot bytes (the paywall previews' configs) are keyed by `Hasher`'s seeded hash of all
    /// their bytes, made once: the same bytes the same key, other bytes another.
    @Test func seededKeysAreTheirBytes() {
        let bytes = Array(#"{"a":"é","b":[1,2,3]}"#.utf8)
        #expect(ExactBytes(seededHashOf: bytes) == ExactBytes(seededHashOf: Array(bytes)))
        #expect(ExactBytes(seededHashOf: bytes).hash == ExactBytes(seededHashOf: Array(bytes)).hash)
        #expect(ExactBytes(seededHashOf: bytes) != ExactBytes(seededHashOf: bytes + [0x20]))
        #expect(ExactBytes(seededHashOf: bytes).hash != ExactBytes(seededHashOf: bytes.reversed()).hash)
        #expect(ExactBytes(seededHashOf: []) == ExactBytes(seededHashOf: []))
        #expect(ExactBytes(seededHashOf: []) != ExactBytes(seededHashOf: [0]))
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        #expect(ExactBytes(seededHashOf: bytes).hash == hasher.finalize())
    }

    /// A page's body is written into its layout when the layout is substituted, after the layout
    /// registered its own values (`PageValues.html(length:writing:)`): it is the page
    /// `substitutedMarkdown` makes for the values registered when its Markdown was rendered,
    /// met for the first time, the second and after, and a spelled number past them stays text.
    @Test func bodyWrittenInPlaceIsTheBodyForItsOwnValues() {
        let memo = PageMemo()
        for number in 0..<4 {
            let (markdown, values) = Self.page(number, memo: memo)
            let spelled = Array("\n<p>\(values.prefix)\(values.values.count + 1)\(PageValues.suffix)</p>\n".utf8)
            let body = Self.reference(markdown: markdown + spelled, values: values)
            let bodyCount = values.values.count
            let token = values.html(length: 16) { [unowned values] output in
                memo.appendSubstitutedMarkdown(markdown + spelled, values: values, valueCount: bodyCount, to: &output)
            }
            // The layout's values: with them, the spelled number would be a token.
            let layout = Array("<title>\(values.escaping.escape("<t>"))</title><main>\(token.token)</main>\(values.escaping.escape("&"))".utf8)
            let page = layout.withUnsafeBufferPointer { values.substitutedBytes(in: $0) }
            let expected = Array("<title>&lt;t&gt;</title><main>".utf8) + body + Array("</main>&amp;".utf8)
            #expect(page == expected, "page \(number)")
        }
    }
}
