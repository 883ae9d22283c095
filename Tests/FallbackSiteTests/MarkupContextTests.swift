import FallbackSample
import RovenueFallback
import Testing
@testable import FallbackSite

/// Where a value stands in a page's HTML is read as the browser's tokenizer reads it
/// (`MarkupPosition`): comments of every form end where the tokenizer ends them, a token in a tag's
/// name, an attribute's name or an unquoted attribute value is known as such, and the value
/// written there can neither add an attribute or an element nor end the tag or the comment. The
/// byte-by-byte scan and the scan by blocks agree on every case.
@Suite("Markup position: comments, names and unquoted values")
struct MarkupContextTests {
    /// The context and quotes of each token of `pieces` (nil stands for a token), as both scans
    /// find them; they must agree.
    static func places(_ pieces: [String?]) -> [String] {
        let values = PageValues()
        var page = ""
        for piece in pieces { page += piece ?? values.escaping.escape("v") }
        let bytes = Array(page.utf8)
        let marker = Array(values.prefix.utf8)
        let scans = [StructuralIndex.Path.scalar, .vector].map { path in
            bytes.withUnsafeBufferPointer { buffer in
                TokenPlaces(scanning: buffer, marker: marker, valueCount: values.values.count, path: path).places.map { place in
                    // A run put in quotes: `"…` on its first token, `…"` on its last, `…` between.
                    "\(place.context)" + (place.quotes.contains(.before) ? " \"…" : "") + (place.quotes.contains(.after) ? " …\"" : "")
                        + (place.quotes == .added ? " …" : "")
                }
            }
        }
        #expect(scans[0] == scans[1], "\(page.debugDescription)")
        return scans[0]
    }

    /// A token between `before` and `after`, and what it is taken for: the context, and for an
    /// unquoted value that is its attribute's whole value, the quotes it is written in.
    static let cases: [(before: String, after: String, expected: String)] = [
        // Comments, which end only where the tokenizer ends them: an apostrophe or a quote in one
        // opens nothing.
        ("<!-- don't edit by hand --><p>", "</p>", "content"),
        ("<!-- a ' b \" c --><p title=\"", "\">", "attribute"),
        ("<!-- a ' b --><p title='", "'>", "attribute"),
        ("<!-->", "", "content"), ("<!--->", "", "content"), ("<!---->", "", "content"), ("<!-- x -->", "", "content"),
        ("<!-- x --!>", "", "content"), ("<!-- x --->", "", "content"), ("<!-- x ---->", "", "content"),
        ("<!-- <!-- x -->", "", "content"), ("<!-- x --!-->", "", "content"), ("<!--<!-->", "", "content"),
        ("<!--", "-->", "comment"), ("<!-- ", " -->", "comment"), ("<!-- x -- >", "", "comment"), ("<!-- x ->", "", "comment"),
        ("<!-- x --!", "", "comment"), ("<!-- x --! >", "", "comment"), ("<!-- x --", ">", "comment"), ("<!-- x -", "->", "comment"),
        ("<!-- x --!", ">", "comment"), ("<!--->-->", "", "content"),
        // What the tokenizer reads as a comment, to the first `>`, quotes and all.
        ("<!doctype html><p>", "", "content"), ("<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" 'x'>", "", "content"),
        ("<!x '>", "", "content"), ("<![CDATA[ ' ]]>", "", "content"), ("<!>", "", "content"), ("<!->", "", "content"),
        ("<?xml version='1.0'?>", "", "content"), ("<?>", "", "content"), ("</>", "", "content"), ("</ p title='>", "", "content"),
        ("</1 '>", "", "content"), ("<!-", "->", "comment"), ("<!doctype ", ">", "comment"), ("<?", "?>", "comment"),
        ("</ ", ">", "comment"), ("<!", ">", "comment"),
        // Not a comment where no markup is read; not markup in a comment.
        ("<title><!-- </title>", "", "content"), ("<title><!-- ", "</title>", "plainText"),
        ("<!-- <title> -->", "", "content"), ("<!-- <p title=\" -->", "", "content"),
        // Text, and `<` that opens nothing.
        ("<p>", "</p>", "content"), ("a < b ", "", "content"), ("a < ", "", "content"), ("a <1 '", "", "content"),
        // Quoted values.
        ("<p title=\"", "\">", "attribute"), ("<p title='", "'>", "attribute"), ("<p title = \"", "\">", "attribute"),
        ("<p title=\"a>b\" lang='", "'>", "attribute"),
        // Unquoted values: the whole value is quoted; with template text beside it, it is not.
        ("<p class=k title=", ">", "attribute \"… …\""), ("<p class=k title=", " lang=x>", "attribute \"… …\""),
        ("<p title=", "", "attribute \"… …\""), ("<p title= \n", ">", "attribute \"… …\""), ("<p title =", "\t>", "attribute \"… …\""),
        ("<p title=", "/>", "unquotedAttribute"), ("<p title=a", ">", "unquotedAttribute"), ("<p title=", "a>", "unquotedAttribute"),
        ("<p title=a=b", ">", "unquotedAttribute"), ("<p title=a\"b", ">", "unquotedAttribute"),
        ("<p title=x\u{0B}", ">", "unquotedAttribute"), ("<p\"x\" title=", ">", "attribute \"… …\""),
        ("<p a\"b=", ">", "attribute \"… …\""), ("<p title=\"a>b\" lang=", ">", "attribute \"… …\""),
        // Names: a tag's, an end tag's, an attribute's, and where an attribute's would start.
        ("<", ">", "name"), ("</", ">", "name"), ("<h", ">", "name"), ("<p ", "=\"v\">", "name"), ("<p data-", "=\"v\">", "name"),
        ("<p a ", ">", "name"), ("<p/", ">", "name"), ("<p a/", ">", "name"), ("<p a/=", ">", "name"), ("<p =", ">", "name"),
        ("<p title=\"a\"", ">", "name"), ("<p title='a' ", ">", "name"), ("<p title=a ", ">", "name"),
        ("<p\ttitle=x\u{0C}", ">", "name"), ("<p\"", "\">", "name"), ("<style>a</style ", ">", "name"), ("<p a=\"b\"/", ">", "name"),
        // Plain-text elements, and the end tag that closes them (only before whitespace, `/` or `>`).
        ("<script src=x>", "</script>", "plainText"), ("<style>a</styles>", "", "plainText"), ("<style>a</style", "", "plainText"),
        ("<title>a</title>", "", "content"), ("<p title=x>", "", "content"), ("<x title=\"", "\">", "attribute"),
    ]

    @Test(arguments: cases)
    func aTokenIsTakenForWhatItsPlaceIs(_ example: (before: String, after: String, expected: String)) {
        #expect(Self.places([example.before, nil, example.after]) == [example.expected], "\(example.before)|\(example.after)")
    }

    /// A run of tokens with nothing between them is one value: quoted as a whole when it is all
    /// of an unquoted value, and not at all when template text stands beside it.
    @Test func adjacentTokensInAnUnquotedValueAreOneValue() {
        #expect(Self.places(["<p title=", nil, nil, ">"]) == ["attribute \"…", "attribute …\""])
        #expect(Self.places(["<p title=", nil, nil, nil, " lang=x>"]) == ["attribute \"…", "attribute …", "attribute …\""])
        #expect(Self.places(["<p title=", nil, nil, "a>"]) == ["unquotedAttribute", "unquotedAttribute"])
        #expect(Self.places(["<p title=a", nil, nil, ">"]) == ["unquotedAttribute", "unquotedAttribute"])
        #expect(Self.places(["<p title=", nil, " ", nil, ">"]) == ["attribute \"… …\"", "name"])
        #expect(Self.places(["<p ", nil, "=", nil, ">"]) == ["name", "attribute \"… …\""])
        #expect(Self.places(["<", nil, " ", nil, "=", nil, nil, "x ", nil, ">"]) == ["name", "name", "unquotedAttribute", "unquotedAttribute", "name"])
    }

    /// `MarkupPosition` read byte by byte: the context of the byte after `html`.
    static func context(after html: String) -> String {
        "\(MarkupTagNameTests.context(after: html))"
    }

    /// The reference scan's position after a comment of every form, and inside each.
    @Test(arguments: [
        ("<!-- a -->", "content"), ("<!-->", "content"), ("<!--->", "content"), ("<!-- a --!>", "content"), ("<!-- a --->", "content"),
        ("<!-- a - b -- c --!x -->", "content"), ("<!x>", "content"), ("<?x>", "content"), ("</1>", "content"), ("</>", "content"),
        ("<!---", "comment"), ("<!-- a --", "comment"), ("<!-- a --!", "comment"), ("<!-- a -- ", "comment"), ("<!", "comment"),
        ("<!-", "comment"), ("<?", "comment"), ("</ ", "comment"), ("<!-- '", "comment"), ("<!x '", "comment"),
    ])
    func theReferencePositionAfterAComment(html: String, expected: String) {
        #expect(Self.context(after: html) == expected, "\(html)")
    }

    /// Values that try to leave their place.
    static let hostileValues: [String] = [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'><svg onload=alert(2)>", "a\u{202E}evil\u{202C}",
        "ctl\u{1}\u{7}\u{1B}[31mred", "x onmouseover=alert(5) y", "--><script>alert(7)</script><!--", "<!--", "-->", "--!>", "-", "!",
        ">", "]]>", "", " ", "x", "é", "\u{2028}\u{2029}line", "&lt;b&gt;", "a\tb\nc\u{0C}d\re", "=", "/", "x/>", "</p>", "`", "script",
        "onclick", String(repeating: "A", count: 5_000),
    ]

    /// Templates with one place for a value (`V`), in each context; the page's tags must be the
    /// template's, whatever the value.
    static let templates: [String] = [
        "<p>V</p>", "<p title=\"V\">x</p>", "<p title='V'>x</p>", "<p class=k title=V>x</p>", "<p class=k title=aV>x</p>",
        "<p class=k title=Va lang=en>x</p>", "<V class=k>x</V>", "<hV class=k>x</hV>", "<p V=\"1\" class=k>x</p>", "<p data-V=1>x</p>",
        "<p V>x</p>", "<!-- V --><p>x</p>", "<!--V--><p>x</p>", "<!-- a --V> --><p>x</p>", "<!-- a -V-> --><p>x</p>",
        "<!--V> --><p>x</p>", "<!V><p>x</p>", "<title>V</title><p>x</p>",
    ]

    /// The tags of `page` as the test reads them: name, end or not, attributes with values
    /// decoded; without the `<bdi>` and control-character spans that text is written with.
    static func tags(in page: String) -> [String] {
        PageSafetyScan.tags(in: page).filter { tag in
            !(tag.name == "bdi" && tag.attributes.isEmpty)
                && !(tag.name == "span" && (tag.isEnd || tag.attributes == [PageSafetyScan.Attribute(name: "class", value: "control-char")]))
        }.map { tag in
            (tag.isEnd ? "/" : "") + tag.name
                + tag.attributes.map { " " + $0.name + ($0.value.map { "=" + PageSafetyScan.decodingCharacterReferences($0).debugDescription } ?? "") }
                .joined()
        }
    }

    @Test(arguments: templates)
    func aHostileValueStaysInItsPlace(template: String) throws {
        for value in Self.hostileValues {
            let values = PageValues()
            let token = values.escaping.escape(value)
            let source = template.replacingOccurrences(of: "V", with: token)
            TokenPlacesBlocksTests.expectSamePlaces(Array(source.utf8), marker: Array(values.prefix.utf8), valueCount: values.values.count)
            let page = values.substitute(in: source)
            let name = SnapshotText.name(value).lowercased()
            // The tags the template writes, with the value where it stands; nothing else.
            let expected: [String] =
                switch template {
                case "<p>V</p>", "<!-- V --><p>x</p>", "<!--V--><p>x</p>", "<!-- a --V> --><p>x</p>", "<!-- a -V-> --><p>x</p>",
                    "<!--V> --><p>x</p>", "<!V><p>x</p>":
                    ["p", "/p"]
                case "<title>V</title><p>x</p>": ["title", "/title", "p", "/p"]
                case "<p title=\"V\">x</p>", "<p title='V'>x</p>": ["p title=\(value.debugDescription)", "/p"]
                case "<p class=k title=V>x</p>": ["p class=\"k\" title=\(value.debugDescription)", "/p"]
                case "<p class=k title=aV>x</p>": ["p class=\"k\" title=\(("a" + value).debugDescription)", "/p"]
                case "<p class=k title=Va lang=en>x</p>": ["p class=\"k\" title=\((value + "a").debugDescription) lang=\"en\"", "/p"]
                case "<V class=k>x</V>": ["\(name) class=\"k\"", "/\(name)"]
                case "<hV class=k>x</hV>": ["h\(name) class=\"k\"", "/h\(name)"]
                case "<p V=\"1\" class=k>x</p>": ["p \(name)=\"1\" class=\"k\"", "/p"]
                case "<p data-V=1>x</p>": ["p data-\(name)=\"1\"", "/p"]
                case "<p V>x</p>": ["p \(name)", "/p"]
                default: []
                }
            #expect(!expected.isEmpty)
            #expect(Self.tags(in: page) == expected, "\(template) with \(value.debugDescription.prefix(80)): \(page.debugDescription.prefix(400))")
            if template.hasPrefix("<!") {
                // The comment ends where the template's does, and holds none of the value's dashes, `>` or `!`.
                let end = PageSafetyScan.endOfComment(startingAt: 0, in: Array(page.utf8))
                #expect(String(decoding: Array(page.utf8)[end...], as: UTF8.self) == "<p>x</p>", "\(template) with \(value.debugDescription.prefix(80))")
                let comment = SnapshotText.comment(value)
                #expect(!comment.isEmpty && !comment.contains { "-!<>".contains($0) })
            }
        }
    }

    /// The writers of the new contexts, on what matters about each.
    @Test(arguments: [
        ("", "x", "", "&#x20;"), ("a", "x&#x61;", "a", "a"), ("a b", "x&#x61;&#x20;&#x62;", "a&#x20;b", "a&#x20;b"),
        ("é\u{202E}", "x&#xE9;&#x202E;", "&#xE9;&#x202E;", "&#xE9;&#x3C;U&#x2B;202E&#x3E;"), ("A9z", "x&#x41;&#x39;&#x7A;", "A9z", "A9z"),
        ("-->", "x&#x2D;&#x2D;&#x3E;", "&#x2D;&#x2D;&#x3E;", "&#x2D;&#x2D;&#x3E;"), ("<!&", "x&#x3C;&#x21;&#x26;", "&#x3C;&#x21;&#x26;", "&#x3C;&#x21;&#x26;"),
        ("\"'=`/\t", "x&#x22;&#x27;&#x3D;&#x60;&#x2F;&#x9;", "&#x22;&#x27;&#x3D;&#x60;&#x2F;&#x9;", "&#x22;&#x27;&#x3D;&#x60;&#x2F;&#x9;"),
    ])
    func eachContextsWriter(text: String, name: String, unquoted: String, comment: String) {
        #expect(SnapshotText.name(text) == name)
        #expect(SnapshotText.unquotedAttribute(text) == unquoted)
        #expect(SnapshotText.comment(text) == comment)
    }
}
