import FallbackMarkdown
import Testing

struct ExtensionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let markdown: String
        let expected: [String]
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(
            name: "table",
            markdown: "| a | b |\n| --- | :-: |\n| 1 | 2 |\n",
            expected: ["<table>", "<th>a</th>", "<th align=\"center\">b</th>", "<td>1</td>"]
        ),
        Case(name: "strikethrough", markdown: "~~x~~", expected: ["<p><del>x</del></p>"]),
        Case(
            name: "autolink",
            markdown: "see https://example.com now",
            expected: ["<p>see <a href=\"https://example.com\">https://example.com</a> now</p>"]
        ),
        Case(
            name: "tasklist",
            markdown: "- [ ] todo\n- [x] done\n",
            expected: [
                "<li><input type=\"checkbox\" disabled=\"\" /> todo</li>",
                "<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>",
            ]
        ),
        Case(
            name: "tagfilter",
            markdown: "<script>alert(1)</script>\n",
            expected: ["&lt;script>alert(1)&lt;/script>"]
        ),
        Case(
            name: "raw HTML kept",
            markdown: "<div class=\"x\">\n\n*hi*\n\n</div>\n",
            expected: ["<div class=\"x\">", "<p><em>hi</em></p>", "</div>"]
        ),
    ])
    func rendersExtension(_ example: Case) {
        let html = Markdown.html(from: example.markdown)
        for fragment in example.expected {
            #expect(html.contains(fragment), "\(fragment) not in \(html)")
        }
    }

    @Test(arguments: [
        (#"\*x\*"#, "<p>*x*</p>\n"),
        (#"\<script\>"#, "<p>&lt;script&gt;</p>\n"),
        (#"\[a\]\(javascript:x\)"#, "<p>[a](javascript:x)</p>\n"),
        (#"\~\~x\~\~"#, "<p>~~x~~</p>\n"),
        (#"\| a \|"#, "<p>| a |</p>\n"),
    ])
    func escapedPunctuationStaysLiteral(markdown: String, expected: String) {
        #expect(Markdown.html(from: markdown) == expected)
    }

    @Test func emptyInputRendersNothing() {
        #expect(Markdown.html(from: "") == "")
    }
}

struct OptionTests {
    @Test(arguments: [
        (Markdown.Options.default, "<p>&quot;quoted&quot; -- text...</p>\n"),
        ([.unsafe, .smart], "<p>\u{201C}quoted\u{201D} \u{2013} text\u{2026}</p>\n"),
    ] as [(Markdown.Options, String)])
    func smartPunctuationIsOptIn(options: Markdown.Options, expected: String) {
        #expect(Markdown.html(from: #""quoted" -- text..."#, options: options) == expected)
    }

    @Test(arguments: [
        (Markdown.Options.default, "<pre><code class=\"language-swift\">let x = 1\n</code></pre>\n"),
        ([.unsafe, .githubPreLang], "<pre lang=\"swift\"><code>let x = 1\n</code></pre>\n"),
    ] as [(Markdown.Options, String)])
    func preLangIsOptIn(options: Markdown.Options, expected: String) {
        #expect(Markdown.html(from: "```swift\nlet x = 1\n```\n", options: options) == expected)
    }

    @Test(arguments: [
        (Markdown.Options.default, "<div class=\"x\">hi</div>\n"),
        ([], "<!-- raw HTML omitted -->\n"),
    ] as [(Markdown.Options, String)])
    func rawHTMLNeedsUnsafe(options: Markdown.Options, expected: String) {
        #expect(Markdown.html(from: "<div class=\"x\">hi</div>\n", options: options) == expected)
    }
}

struct ConcurrencyTests {
    static let document = """
        # Title

        | a | b |
        | - | - |
        | ~~x~~ | https://example.com |

        - [x] done ~~struck~~ www.example.org
        - [ ] todo `code` *em* **strong**

        <script>x</script>

        Trailing ~~del~~ and https://example.com/path?q=1 and a|b.
        """

    @Test func concurrentRendersMatchSerialRender() async {
        let expected = Markdown.html(from: Self.document)
        #expect(expected.contains("<del>struck</del>"))
        #expect(expected.contains("<a href=\"http://www.example.org\">"))
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<200).map { _ in Markdown.html(from: Self.document) }
                }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(results.count == 1600)
        #expect(results.allSatisfy { $0 == expected })
    }

    /// Documents of very different lengths, so that one's block parse (`cmark_parser_feed`, which
    /// runs unlocked) overlaps others' inline passes (`cmark_parser_finish`, which switches
    /// strikethrough's `~` and autolink's `:` and `w` on and off in a process-wide table): every
    /// concurrent render still gives its serial HTML.
    static let documents: [String] = {
        let row = "| ~~a~~ | www.example.com/x | b~c | https://example.org/p?q=1 |\n"
        let table = "| one | two | three | four |\n| --- | :-: | --- | --: |\n" + String(repeating: row, count: 300)
        let paragraph = "Some ~~struck~~ text, ~one~ tilde, https://example.net and www.example.org, *em* `~~code~~`.\n\n"
        let list = String(repeating: "- [x] ~~done~~ see http://example.com/a~b\n- [ ] todo www.example.com\n", count: 100)
        return [
            document,
            table,
            String(repeating: paragraph, count: 400),
            list + "\n" + table + "\n" + paragraph,
            "~~x~~",
            "www.example.com ~~last line without a newline~~",
            String(repeating: "```\n~~not struck~~ https://example.com\n```\n\n", count: 200) + paragraph,
        ]
    }()

    @Test func concurrentRendersOfMixedDocumentsMatchSerialRenders() async {
        let expected = Self.documents.map { Markdown.html(from: $0) }
        #expect(expected[1].contains("<td><del>a</del></td>"))
        #expect(expected[2].contains("<del>struck</del>"))
        #expect(expected[2].contains("<a href=\"https://example.net\">"))
        #expect(expected[5].hasSuffix("<del>last line without a newline</del></p>\n"))
        #expect(expected[6].contains("<code>~~not struck~~ https://example.com\n</code>"))
        let count = Self.documents.count
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<60 {
                        let index = (task * 3 + round) % count
                        if Markdown.html(from: Self.documents[index]) != expected[index] { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
