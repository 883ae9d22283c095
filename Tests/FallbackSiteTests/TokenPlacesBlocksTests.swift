import FallbackSample
import RovenueFallback
import Testing
@testable import FallbackSite

/// `TokenPlaces` scans a page 64 bytes at a time (`scanBlocks`), visiting only the bytes that can
/// change where a token stands; the byte-by-byte scan through `MarkupPosition` is the reference.
/// Both must find the same places, in the same contexts, and hold for the same value counts, on
/// any bytes: markup, tokens inside tag names, attribute names and values (quoted or not), comments
/// of every form, plain-text elements, tokens cut short by the end of the buffer, every byte value.
@Suite("Token places by blocks")
struct TokenPlacesBlocksTests {
    /// The places of `page` along `path`, spelled out, and whether they hold for some counts.
    static func scan(_ page: [UInt8], marker: [UInt8], valueCount: Int, path: StructuralIndex.Path) -> [String] {
        page.withUnsafeBufferPointer { buffer in
            let tokens = TokenPlaces(scanning: buffer, marker: marker, valueCount: valueCount, path: path)
            return tokens.places.map { "\($0.start)-\($0.end) #\($0.number) \($0.context) quotes \($0.quotes.rawValue)" }
                + [0, 1, 2, 9, valueCount - 1, valueCount, valueCount + 1, 100_000].map { "holds(\($0)): \(tokens.holds(forValueCount: $0))" }
        }
    }

    static func expectSamePlaces(_ page: [UInt8], marker: [UInt8], valueCount: Int) {
        let vector = scan(page, marker: marker, valueCount: valueCount, path: .vector)
        let scalar = scan(page, marker: marker, valueCount: valueCount, path: .scalar)
        #expect(vector == scalar, "\(String(decoding: page, as: UTF8.self).debugDescription) count \(valueCount)")
    }

    /// The hostile pages of the substitution tests, whole and cut at every length (a token, a
    /// tag or a `</title` split by the buffer's end), with as many values as registered and fewer.
    @Test func hostilePagesAndTheirPrefixesFindTheSamePlaces() {
        let values = PageValues()
        let pages = SubstitutionScanTests.hostilePages(values: values)
        let marker = Array(values.prefix.utf8)
        let registered = values.values.count
        #expect(pages.count > 1_000)
        for (number, page) in pages.enumerated() {
            for valueCount in [registered, 2, 1] {
                Self.expectSamePlaces(page, marker: marker, valueCount: valueCount)
            }
            guard number % 8 == 0 else { continue }
            for length in 0..<page.count {
                Self.expectSamePlaces(Array(page[..<length]), marker: marker, valueCount: registered)
            }
        }
    }

    /// Random bytes drawn mostly from those that change the context, with tokens among them:
    /// pages of up to a few hundred bytes, so that runs cross 64-byte blocks at every offset.
    @Test func generatedPagesFindTheSamePlaces() {
        let values = PageValues()
        for number in 0..<40 { _ = values.escaping.escape("value \(number)") }
        let marker = Array(values.prefix.utf8)
        let token = Array(values.escaping.escape("v").utf8)
        let pieces: [[UInt8]] =
            ["<", ">", "\"", "'", "/", "!", "?", "z", "zq", "a", "T", "title", "script", "<title>", "</title>", "<style>", "</STYLE",
             "<textarea>", "</textarea>", "<!--", "-->", "<![CDATA[", "]]>", "=", " ", "\n", "0", "9", "vxqz", "<a href=\"", "<p class='",
             // Comments of every form, and the bytes that move a tag between its names and values.
             "<!-->", "<!--->", "--!>", "--", "-", "</", "<?", "</ ", "</>", "<!x", "\t", "\u{0C}", "\r", "\u{0B}", "<p a=", "<p ", " b=", "/>"]
            .map { Array($0.utf8) } + [marker, token, token, Array(marker.dropLast()), marker + [0x37], Array(token.dropLast())]
        var generator = SplitMix64(seed: 64)
        for _ in 0..<3_000 {
            var page: [UInt8] = []
            let count = Int(generator.next() % 120)
            for _ in 0..<count {
                if generator.next() % 5 == 0 {
                    page.append(UInt8(truncatingIfNeeded: generator.next()))
                } else {
                    page += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
            Self.expectSamePlaces(page, marker: marker, valueCount: values.values.count)
            Self.expectSamePlaces(page, marker: marker, valueCount: 7)
        }
    }

    /// Every byte value, alone and around a token, at every offset in a block; markers that are
    /// compared as words and those that are not (shorter than eight bytes, or longer than sixteen).
    @Test func everyByteAndEveryMarkerLengthFindTheSamePlaces() {
        let values = PageValues()
        let token = Array(values.escaping.escape("v").utf8)
        let markers = [Array(values.prefix.utf8), Array("zq".utf8), Array("zqxvabcdefghijklmnopq".utf8), Array("qzxv0123".utf8)]
        for byte in 0...255 {
            for offset in [0, 1, 30, 62, 63, 64, 65, 127] {
                let page = [UInt8](repeating: UInt8(ascii: "a"), count: offset) + [UInt8(byte)] + token + [UInt8(byte), UInt8(ascii: ">")] + token
                for marker in markers {
                    Self.expectSamePlaces(page, marker: marker, valueCount: values.values.count)
                    Self.expectSamePlaces([UInt8(ascii: "<")] + page, marker: marker, valueCount: values.values.count)
                }
            }
        }
        for marker in markers.dropFirst() {
            let page = Array("<p title=\"".utf8) + marker + Array("0vxqz\">".utf8) + marker + Array("12vxqz<".utf8) + marker + Array("1vxqz".utf8)
            for length in 0...page.count {
                Self.expectSamePlaces(Array(page[..<length]), marker: marker, valueCount: 20)
            }
        }
    }

    /// Long pages as a site has them: the sample export's pages, as rendered Markdown HTML would
    /// hold them, scanned whole.
    @Test func longMarkupFindsTheSamePlaces() {
        let values = PageValues()
        var page: [UInt8] = []
        for row in 0..<400 {
            let cell = values.escaping.escape("cell \(row)")
            page += Array("<tr id=\"\(cell)\"><td class=\"num\" data-label='#'>\(cell)</td><th scope=\"row\"><code>\(cell)</code></th></tr>\n".utf8)
            if row % 50 == 0 { page += Array("<title>\(cell) <b> \"</title><script>if (a < b) { x = '\(cell)' }</script><!-- \(cell) \" -->".utf8) }
        }
        Self.expectSamePlaces(page, marker: Array(values.prefix.utf8), valueCount: values.values.count)
        Self.expectSamePlaces(page, marker: Array(values.prefix.utf8), valueCount: 100)
    }
}
