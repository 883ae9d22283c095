import FallbackMarkdown
@testable import FallbackMustache
import FallbackSample
import Foundation
import Testing
@testable import FallbackSite

/// Values are appended to a render's output as token bytes (`MustacheEscaping`'s appender,
/// issue 10), and substitution skips the bytes `MarkupPosition.skip(over:from:classes:)` passes. Pages must be
/// what the reference paths make: tokens made as `String`s by `escape(_:)`, and substitution
/// visiting every byte.
@Suite("Substitution and token bytes")
struct SubstitutionScanTests {
    /// `substitutedBytes(in:)` as it was before the scan: every byte that is not a token's is
    /// fed to the position, whatever it is; then each run of adjacent tokens that is the whole of
    /// an unquoted attribute value (from where the value starts to whitespace, `>` or the end) is
    /// put in quotes and written as a quoted value.
    static func referenceSubstitution(_ source: [UInt8], values: PageValues) -> [UInt8] {
        let snapshot = values.values
        let marker = Array(values.prefix.utf8)
        let suffix = Array(PageValues.suffix.utf8)
        var tokens: [(start: Int, end: Int, number: Int, context: MarkupPosition.Context, startsValue: Bool)] = []
        source.withUnsafeBufferPointer { source in
            var position = MarkupPosition()
            var index = 0
            while index < source.count {
                if source[index...].starts(with: marker) {
                    var end = index + marker.count
                    var number = 0
                    while end < source.count, source[end] >= UInt8(ascii: "0"), source[end] <= UInt8(ascii: "9"), number < snapshot.count {
                        number = number * 10 + Int(source[end] - UInt8(ascii: "0"))
                        end += 1
                    }
                    if end > index + marker.count, number < snapshot.count, source[end...].starts(with: suffix) {
                        tokens.append((index, end + suffix.count, number, position.context, position.startsUnquotedValue))
                        position.passToken()
                        index = end + suffix.count
                        continue
                    }
                }
                position.advance(over: source, at: index)
                index += 1
            }
        }
        var contexts = tokens.map(\.context)
        var quoteBefore: Set<Int> = [], quoteAfter: Set<Int> = []
        var first = 0
        while first < tokens.count {
            defer { first += 1 }
            guard tokens[first].context == .unquotedAttribute, tokens[first].startsValue else { continue }
            var last = first
            while last + 1 < tokens.count, tokens[last + 1].start == tokens[last].end { last += 1 }
            let after = tokens[last].end
            if after == source.count || [0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: ">")].contains(source[after]) {
                for number in first...last { contexts[number] = .attribute }
                quoteBefore.insert(first)
                quoteAfter.insert(last)
            }
            first = last
        }
        var output: [UInt8] = []
        var copied = 0
        for (number, token) in tokens.enumerated() {
            output += source[copied..<token.start]
            if quoteBefore.contains(number) { output.append(UInt8(ascii: "\"")) }
            let value = snapshot[token.number]
            // Trusted HTML is written as it is but where only text can stand: names, unquoted
            // values, and the quotes put around one.
            let onlyText = [.name, .unquotedAttribute].contains(tokens[number].context)
            if case .text = value {} else if !onlyText {
                switch value {
                case .html(let html): output += Array(html.utf8)
                case .htmlBytes(let bytes): output += bytes
                case .htmlWriter(let writer): output += ByteWriter.array(capacity: writer.length) { writer.write(&$0) }
                case .text: break
                }
                copied = token.end
                continue
            }
            let text = value.text
            let written =
                switch contexts[number] {
                case .content: SnapshotText.html(text)
                case .attribute: SnapshotText.attribute(text)
                case .unquotedAttribute: SnapshotText.unquotedAttribute(text)
                case .name: SnapshotText.name(text)
                case .comment: SnapshotText.comment(text)
                case .plainText: SnapshotText.plainText(text)
                }
            output += Array(written.utf8)
            if quoteAfter.contains(number) { output.append(UInt8(ascii: "\"")) }
            copied = token.end
        }
        return output + source[copied...]
    }

    /// Pages made of markup pieces, real tokens, cut-short and overlong tokens, at every alignment.
    static func hostilePages(values: PageValues) -> [[UInt8]] {
        let text = values.escaping.escape("<script>\"x\" & 'y'</script> é")
        let html = values.html("<b title=\"t\">h</b>").token
        let bytes = values.html(utf8: Array("<i>b</i>".utf8)).token
        let prefix = values.prefix
        let pieces = [
            "<", ">", "\"", "'", "/", "</", "<!", "<?", "=", " ", "\n", "a", "z", "zq", "zqxv", "é", "title", "<title>", "</TITLE>",
            "<TeXtArEa>", "</textarea", "<script src=x>", "</script >", "<style>", "</style>", "<p class=\"", "<a href='", "data-x=",
            "</ p>", "<x-y a=b>", text, text, html, bytes, prefix, prefix + "12", prefix + "99999999999999999999999" + PageValues.suffix,
            prefix + PageValues.suffix, prefix + "0vxq", "vxqz", String(prefix.dropLast()), "0123456789",
        ]
        // Comments of every form, CDATA-like text, tokens inside tag and attribute names and
        // unquoted values, NUL bytes and bytes that are not UTF-8.
        let bytePieces = (pieces + [
            "<!--", "-->", "<!-- " + text + " -->", "<![CDATA[", "]]>", "<z", "<Z", "</z", "<h1", "<a" + text, "<a " + text + "=x>", "</" + text,
            "<title " + text + ">", "zz", "<" + prefix, "</" + prefix, "<!", "<?xml ", "\u{0}", "\t", "\r\n",
            "<!-->", "<!--->", "--!>", "--", "-", "</ ", "</>", "\u{0C}", "<p a=", "<p ", " b=", "=" + text, "<!-- " + text + " --" + text + ">",
            "<p title=" + text + ">", "<p title=" + text + text + " x=y" + text + ">",
        ]).map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xE2, 0x80], [0x80, 0x80], [0xF0, 0x9F], [0x3C, 0x00], [0x3C, 0xFF]]
        var pages: [[UInt8]] = SubstituteFastPathTests.pages.map { Array($0.utf8) }
        var generator = SplitMix64(seed: 10)
        for _ in 0..<1_200 {
            let count = Int(generator.next() % 60)
            pages.append((0..<count).flatMap { _ in bytePieces[Int(generator.next() % UInt64(bytePieces.count))] })
        }
        // Every alignment of a long run before a stop.
        for run in 0..<20 {
            for stop in ["<", "\"", "'", ">", "z", text] {
                pages.append(Array(("<p title=\"" + String(repeating: "a", count: run) + stop + "\">" + String(repeating: "b", count: run) + stop).utf8))
            }
        }
        return pages
    }

    /// Every Example, fixture and fuzz input, read as a page, with a text token after every 97th byte.
    @Test func corpusFilesSubstituteAsVisitingEveryByte() throws {
        let values = PageValues()
        let token = Array(values.escaping.escape("<v> \"q\" 'a' & é").utf8)
        #expect(ListingBytesTests.files.count > 10)
        for file in ListingBytesTests.files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            var page: [UInt8] = []
            for start in stride(from: 0, to: bytes.count, by: 97) {
                page += bytes[start..<min(start + 97, bytes.count)]
                page += token
            }
            let reference = Self.referenceSubstitution(page, values: values)
            #expect(page.withUnsafeBufferPointer { values.substitutedBytes(in: $0) } == reference, "\(file)")
        }
    }

    @Test func hostilePagesSubstituteAsVisitingEveryByte() {
        let values = PageValues()
        for page in Self.hostilePages(values: values) {
            let reference = Self.referenceSubstitution(page, values: values)
            #expect(page.withUnsafeBufferPointer { values.substitutedBytes(in: $0) } == reference, "\(String(decoding: page, as: UTF8.self).debugDescription)")
        }
    }

    /// Every page of the examples and fixtures: the page's Markdown HTML and its layout substitute
    /// as visiting every byte does, and rendering with the token appender makes the page that
    /// tokens made as `String`s (the escaping without its appender) make.
    @Test(arguments: PageBytesTests.inputs)
    func everyPageSubstitutesAndAppendsAsTheReference(input: String) throws {
        let model = SiteModel(
            snapshot: PageBytesTests.snapshot(try example(input), input),
            baseline: PageBytesTests.snapshot(try example("Examples/2026-04-14-release-3.1.json"), "before.json"), title: nil, referenceDate: nil)
        try Self.checkEveryPage(of: model)
    }

    /// The page's Markdown HTML and its layout substitute as visiting every byte does, for every
    /// page of `model`, and rendering with the token appender makes the page that tokens made as
    /// `String`s make.
    static func checkEveryPage(of model: SiteModel) throws {
        let builder = try SiteBuilder(model: model, theme: .builtIn)
        let templates = builder.templates
        let layout = try #require(templates.templates["layout.html"])
        #expect(model.pages.count > 5)
        for page in model.pages {
            let values = PageValues()
            let stringTokens = MustacheEscaping.custom { values.escaping.escape($0) }
            let template = try #require(templates.templates[page.template])
            let markdown = try template.renderUTF8(
                model.context(for: page, values: values), partials: templates.partials, escaping: stringTokens, budget: builder.renderBudget(for: page))
            let html = markdown.withUnsafeBufferPointer { Markdown.withHTML(fromUTF8: $0) { Array($0) } }
            let body = referenceSubstitution(html, values: values)
            #expect(html.withUnsafeBufferPointer { values.substitutedBytes(in: $0) } == body, "\(page.path)")
            let rendered = try layout.renderUTF8(
                builder.layoutContext(for: page, content: values.html(utf8: body)).mustacheValue, partials: templates.partials,
                escaping: stringTokens, budget: builder.renderBudget(for: page))
            let reference = referenceSubstitution(rendered, values: values)
            #expect(rendered.withUnsafeBufferPointer { values.substitutedBytes(in: $0) } == reference, "\(page.path)")
            #expect(try builder.renderBytes(page) == reference, "\(page.path)")
        }
    }

    /// Every page of a generated sample site (the `sample` command's export, 60 placements).
    @Test func sampleSitePagesSubstituteAsTheReference() throws {
        let bytes = Array(SampleExport(placementCount: 60, seed: 1).jsonText().utf8)
        let model = SiteModel(snapshot: PageBytesTests.snapshot(bytes, "s.json"), baseline: nil, title: nil, referenceDate: nil)
        try Self.checkEveryPage(of: model)
    }

    /// The appender writes the token `escape(_:)` would have returned, numbered next, for a value
    /// that substitutes as that text; a trusted token passes through both unchanged.
    @Test func appendedTokensAreTheTokensEscapeMakes() {
        let values = PageValues()
        let trusted = values.html("<b>x</b>").token
        var next = 1
        for number in 0..<3_000 {
            var writer = ByteWriter(capacity: 1)
            writer.append(byte: 0x2A)
            if number % 7 == 0 {
                values.escaping.append(trusted, to: &writer)
                #expect(writer.take() == [0x2A] + Array(trusted.utf8))
                #expect(values.escaping.escape(trusted) == trusted)
            } else if number % 2 == 0 {
                let text = "<v \(number)>"
                values.escaping.append(text, to: &writer)
                let output = writer.take()
                #expect(output == [0x2A] + Array((values.prefix + String(next) + PageValues.suffix).utf8), "\(number)")
                let page = output.withUnsafeBufferPointer { values.substitutedBytes(in: $0) }
                #expect(page == [0x2A] + Array(SnapshotText.html(text).utf8), "\(number)")
                next += 1
            } else {
                #expect(values.escaping.escape("v") == values.prefix + String(next) + PageValues.suffix, "\(number)")
                next += 1
            }
        }
        #expect(values.values.count == next)
    }
}
