import FallbackMustache
import Testing

struct EscapingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let escaped: String
        var testDescription: String { String(reflecting: input) }
    }

    @Test(arguments: [
        Case(input: "*x* and _y_", escaped: ##"\*x\* and \_y\_"##),
        Case(input: "[a](javascript:x)", escaped: ##"\[a\]\(javascript\:x\)"##),
        Case(input: "![i](x.png)", escaped: ##"\!\[i\]\(x\.png\)"##),
        Case(input: "<script>alert(1)</script>", escaped: ##"&lt;script&gt;alert\(1\)&lt;\/script&gt;"##),
        Case(input: "<http://x.io>", escaped: ##"&lt;http\:\/\/x\.io&gt;"##),
        Case(input: "# h", escaped: ##"\# h"##),
        Case(input: "1. item", escaped: ##"1\. item"##),
        Case(input: "- item", escaped: ##"\- item"##),
        Case(input: "> quote", escaped: ##"&gt; quote"##),
        Case(input: "`code` ```", escaped: ##"\`code\` \`\`\`"##),
        Case(input: "a | b", escaped: ##"a \| b"##),
        Case(input: "~~gone~~", escaped: ##"\~\~gone\~\~"##),
        Case(input: "&amp; &#42;", escaped: ##"&amp;amp\; &amp;\#42\;"##),
        Case(input: #"C:\path"#, escaped: ##"C\:\\path"##),
        Case(input: "say \"hi\" it's", escaped: "say &quot;hi&quot; it&#39;s"),
        Case(input: "one\ntwo\r\nthree\rfour", escaped: "one two three four"),
        Case(input: "x\n# h\n---", escaped: ##"x \# h \-\-\-"##),
        Case(input: "\r\r\n\n", escaped: "   "),
        Case(input: "Café 42 – ✓ 日本", escaped: "Café 42 – ✓ 日本"),
        Case(input: "", escaped: ""),
    ])
    func markdownMakesValuesInert(_ example: Case) {
        #expect(MustacheEscaping.markdown.escape(example.input) == example.escaped)
    }

    @Test func markdownEscapesEveryASCIIPunctuationCharacter() {
        let punctuation = ##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##
        let expected = ##"\!&quot;\#\$\%&amp;&#39;\(\)\*\+\,\-\.\/\:\;&lt;\=&gt;\?\@\[\\\]\^\_\`\{\|\}\~"##
        #expect(MustacheEscaping.markdown.escape(punctuation) == expected)
        let letters = "abcXYZ 0123456789\t"
        #expect(MustacheEscaping.markdown.escape(letters) == letters)
    }

    @Test func htmlEscapesMarkupCharacters() {
        #expect(
            MustacheEscaping.html.escape(#"<a href="x">Tom & 'Jerry'</a> *ok*"#)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt; *ok*"
        )
        #expect(MustacheEscaping.html.escape("Café ✓\n") == "Café ✓\n")
    }

    @Test func noneAndCustomEscaping() {
        #expect(MustacheEscaping.none.escape("<b>*x*</b>") == "<b>*x*</b>")
        #expect(MustacheEscaping.custom { $0.uppercased() }.escape("abc") == "ABC")
    }

    @Test func escapingAppliesToDoubleMustachesOnly() throws {
        let template = try MustacheTemplate(parsing: "{{x}} {{{x}}} {{&x}}")
        let context: MustacheValue = ["x": "<*a*>"]
        #expect(try template.render(context) == "&lt;*a*&gt; <*a*> <*a*>")
        #expect(try template.render(context, escaping: .markdown) == #"&lt;\*a\*&gt; <*a*> <*a*>"#)
        #expect(try template.render(context, escaping: .none) == "<*a*> <*a*> <*a*>")
        #expect(try template.render(context, escaping: .custom { "[\($0.count)]" }) == "[5] <*a*> <*a*>")
    }

    @Test func escapingReachesPartialsAndSections() throws {
        let template = try MustacheTemplate(parsing: "{{#items}}{{>item}}{{/items}}")
        let partials = ["item": try MustacheTemplate(parsing: "- {{.}}\n")]
        let context: MustacheValue = ["items": ["# a", "b|c"]]
        #expect(try template.render(context, partials: partials, escaping: .markdown) == "- \\# a\n- b\\|c\n")
    }
}
