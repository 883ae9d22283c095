import FallbackMustache
import Testing

struct RenderingTests {
    @Test func parseOnceRenderMany() async throws {
        let template = try MustacheTemplate(parsing: "Hello, {{name}}!{{#tags}} [{{.}}]{{/tags}}{{^tags}} (untagged){{/tags}}")
        #expect(try template.render(["name": "Ada", "tags": ["math", "engines"]]) == "Hello, Ada! [math] [engines]")
        #expect(try template.render(["name": "Grace"]) == "Hello, Grace! (untagged)")
        #expect(try template.render(["name": "<b>"], escaping: .markdown) == "Hello, &lt;b&gt;! (untagged)")

        let rendered = await withTaskGroup(of: (Int, String).self) { group in
            for index in 0..<64 {
                group.addTask { (index, (try? template.render(["name": .int(index), "tags": [.int(index)]])) ?? "") }
            }
            return await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        for index in 0..<64 {
            #expect(rendered[index] == "Hello, \(index)! [\(index)]")
        }
    }

    @Test func partialsAreLookedUpWhileRendering() throws {
        let page = try MustacheTemplate(parsing: "[{{>header}}]")
        #expect(try page.render([:]) == "[]")
        #expect(try page.render([:], partials: ["header": try MustacheTemplate(parsing: "A")]) == "[A]")
        #expect(try page.render([:], partials: ["header": try MustacheTemplate(parsing: "B")]) == "[B]")
    }

    @Test func selfIncludingPartialStopsAtDepthLimit() throws {
        let partials = [
            "self": try MustacheTemplate(parsing: "x{{>self}}"),
            "ping": try MustacheTemplate(parsing: "a{{>pong}}"),
            "pong": try MustacheTemplate(parsing: "b{{>ping}}"),
        ]
        let depth = MustacheTemplate.maximumPartialDepth
        #expect(depth == 64)
        #expect(try MustacheTemplate(parsing: "{{>self}}").render([:], partials: partials) == String(repeating: "x", count: depth))
        #expect(try MustacheTemplate(parsing: "{{>ping}}").render([:], partials: partials) == String(repeating: "ab", count: depth / 2))
    }

    @Test func dataDeeperThanDepthLimitStopsRecursion() throws {
        var tree: MustacheValue = ["name": "200"]
        for level in (0..<200).reversed() {
            tree = ["name": .string(String(level)), "child": tree]
        }
        let partials = ["node": try MustacheTemplate(parsing: "{{name}}({{#child}}{{>node}}{{/child}})")]
        let rendered = try MustacheTemplate(parsing: "{{>node}}").render(tree, partials: partials)
        let depth = MustacheTemplate.maximumPartialDepth
        let expected = (0..<depth).map { "\($0)(" }.joined() + String(repeating: ")", count: depth)
        #expect(rendered == expected)
    }

    @Test func standalonePartialIndentationNestsAndSkipsValues() throws {
        let partials = [
            "item": try MustacheTemplate(parsing: "<li>\n  {{>label}}\n</li>\n"),
            "label": try MustacheTemplate(parsing: "{{text}}\n{{text}}\n"),
        ]
        let page = try MustacheTemplate(parsing: "<ul>\n  {{>item}}\n</ul>\n")
        #expect(try page.render(["text": "a\nb"], partials: partials) == "<ul>\n  <li>\n    a\nb\n    a\nb\n  </li>\n</ul>\n")
    }

    @Test func indentationFollowsTemplateLinesThroughSections() throws {
        let partials = [
            "list": try MustacheTemplate(parsing: "{{#items}}\n- {{.}}\n{{/items}}\nend\n"),
            "inline": try MustacheTemplate(parsing: "a {{>list}}"),
        ]
        let page = try MustacheTemplate(parsing: "  {{>list}}\n")
        #expect(try page.render(["items": [1, 2]], partials: partials) == "  - 1\n  - 2\n  end\n")
        #expect(try page.render(["items": []], partials: partials) == "  end\n")
        let nested = try MustacheTemplate(parsing: "  {{>inline}}\n")
        #expect(try nested.render(["items": [1]], partials: partials) == "  a - 1\nend\n")
    }

    @Test(arguments: [
        ("", false), (0, false), (0.0, false), (.double(.nan), false), (nil, false), (false, false), ([], false),
        ("a", true), (1, true), (-0.5, true), (true, true), ([0], true), ([:], true),
    ] as [(MustacheValue, Bool)])
    func truthiness(_ value: MustacheValue, _ truthy: Bool) throws {
        let template = try MustacheTemplate(parsing: "{{#x}}yes{{/x}}{{^x}}no{{/x}}")
        #expect(value.isTruthy == truthy)
        #expect(try template.render(["x": value]) == (truthy ? "yes" : "no"))
    }

    @Test(arguments: [
        (.int(-3), "-3"), (1.0, "1"), (1.210, "1.21"), (-0.5, "-0.5"), (1e20, "1e+20"), (.double(0.1 + 0.2), "0.30000000000000004"),
        (true, "true"), (nil, ""), (["a", 1, false], "a,1,false"), (["k": "v"], ""),
    ] as [(MustacheValue, String)])
    func interpolatedText(_ value: MustacheValue, _ text: String) throws {
        #expect(value.text == text)
        #expect(try MustacheTemplate(parsing: "{{{x}}}").render(["x": value]) == text)
    }

    @Test func dottedNamesResolveFirstPartOnTheStackOnly() throws {
        let template = try MustacheTemplate(parsing: "{{#a}}{{b.c}}|{{x}}{{/a}}")
        #expect(try template.render(["a": ["b": [:]], "b": ["c": "outer"], "x": "X"]) == "|X")
        #expect(try template.render(["a": ["b": ["c": "inner"]]]) == "inner|")
    }

    @Test func customDelimitersPersistPastSections() throws {
        let template = try MustacheTemplate(parsing: "{{#a}}{{=<% %>=}}<%b%>{{b}}<%/a%><%b%>")
        #expect(try template.render(["a": true, "b": "B"]) == "B{{b}}B")
    }

    @Test func lineEndingsArePreserved() throws {
        let template = try MustacheTemplate(parsing: "a\r\n{{#s}}\r\nb\r\n{{/s}}\r\nc")
        #expect(try template.render(["s": true]) == "a\r\nb\r\nc")
    }
}
