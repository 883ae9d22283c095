import FallbackMustache
import Testing

struct ErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let reason: MustacheError.Reason
        let line: Int
        let column: Int
        let description: String
        var testDescription: String { String(reflecting: source) }
    }

    @Test(arguments: [
        Case(
            source: "Title\n  {{#items}}\n  - {{name}}\n",
            reason: .unclosedSection(name: "items"), line: 2, column: 3,
            description: #"page.md:2:3: section "items" is never closed"#
        ),
        Case(
            source: "{{#a}}\n{{#b}}\n{{/a}}\n",
            reason: .mismatchedCloseTag(expected: "b", found: "a"), line: 3, column: 1,
            description: #"page.md:3:1: close tag "a" does not match the open section "b""#
        ),
        Case(
            source: "x {{/a}}",
            reason: .mismatchedCloseTag(expected: nil, found: "a"), line: 1, column: 3,
            description: #"page.md:1:3: close tag "a" has no open section"#
        ),
        Case(
            source: "Hello\n  {{name",
            reason: .unclosedTag(closingDelimiter: "}}"), line: 2, column: 3,
            description: #"page.md:2:3: tag is never closed with "}}""#
        ),
        Case(
            source: "{{{name}}",
            reason: .unclosedTag(closingDelimiter: "}}}"), line: 1, column: 1,
            description: #"page.md:1:1: tag is never closed with "}}}""#
        ),
        Case(
            source: "a\nb {{=<% =}}",
            reason: .invalidDelimiters("<% "), line: 2, column: 3,
            description: #"page.md:2:3: invalid delimiters "<% ": expected two delimiters without whitespace or "=""#
        ),
        Case(
            source: "{{=a b c=}}",
            reason: .invalidDelimiters("a b c"), line: 1, column: 1,
            description: #"page.md:1:1: invalid delimiters "a b c": expected two delimiters without whitespace or "=""#
        ),
        Case(
            source: "{{=<%= %>=}}",
            reason: .invalidDelimiters("<%= %>"), line: 1, column: 1,
            description: #"page.md:1:1: invalid delimiters "<%= %>": expected two delimiters without whitespace or "=""#
        ),
        Case(
            source: "x\n{{=" + String(repeating: "a", count: 32) + " " + String(repeating: "b", count: 33) + "=}}",
            reason: .delimiterTooLong(limit: 32), line: 2, column: 1,
            description: #"page.md:2:1: delimiter longer than 32 bytes"#
        ),
        Case(
            source: "{{=" + String(repeating: "a b ", count: 40) + "=}}",
            reason: .invalidDelimiters(String(repeating: "a b ", count: 40)), line: 1, column: 1,
            description: #"page.md:1:1: invalid delimiters ""# + String(repeating: "a b ", count: 20) + #"…": expected two delimiters without whitespace or "=""#
        ),
        Case(
            source: "ok {{ " + String(repeating: "é", count: 513) + " }}",
            reason: .nameTooLong(limit: 1_024), line: 1, column: 4,
            description: #"page.md:1:4: tag name longer than 1024 bytes"#
        ),
        Case(
            source: "{{a b}}",
            reason: .invalidName("a b"), line: 1, column: 1,
            description: #"page.md:1:1: invalid tag name "a b""#
        ),
        Case(
            source: "x\n\n {{# }}",
            reason: .invalidName(""), line: 3, column: 2,
            description: #"page.md:3:2: invalid tag name """#
        ),
        Case(
            source: "{{a..b}}",
            reason: .invalidName("a..b"), line: 1, column: 1,
            description: #"page.md:1:1: invalid tag name "a..b""#
        ),
        Case(
            source: "héllo 🎉 {{#x}}",
            reason: .unclosedSection(name: "x"), line: 1, column: 9,
            description: #"page.md:1:9: section "x" is never closed"#
        ),
        Case(
            source: "{{=<% %>=}}\r\n  <%#a%>\r\n{{/a}}",
            reason: .unclosedSection(name: "a"), line: 2, column: 3,
            description: #"page.md:2:3: section "a" is never closed"#
        ),
    ])
    func errorNamesTemplateLineAndColumn(_ example: Case) {
        let error = #expect(throws: MustacheError.self) {
            try MustacheTemplate(parsing: example.source, name: "page.md")
        }
        #expect(error == MustacheError(example.reason, templateName: "page.md", line: example.line, column: example.column))
        #expect(error?.description == example.description)
    }

    @Test func unnamedTemplateIsCalledTemplate() {
        let error = #expect(throws: MustacheError.self) {
            try MustacheTemplate(parsing: "{{#a}}")
        }
        #expect(error?.description == #"<template>:1:1: section "a" is never closed"#)
    }
}
