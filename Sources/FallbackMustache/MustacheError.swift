/// A template that cannot be parsed or rendered, with where the problem is.
public struct MustacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong with the template.
    public enum Reason: Sendable, Equatable {
        /// `{{#name}}` or `{{^name}}` has no matching `{{/name}}`; the position is the opening tag's.
        case unclosedSection(name: String)
        /// `{{/found}}` does not close the innermost open section, `expected`, or closes nothing
        /// when `expected` is `nil`.
        case mismatchedCloseTag(expected: String?, found: String)
        /// A tag's opening delimiter has no `closingDelimiter` after it.
        case unclosedTag(closingDelimiter: String)
        /// A set-delimiter tag's content is not two delimiters without whitespace or `=`.
        case invalidDelimiters(String)
        /// A tag's name is empty, contains whitespace, or has an empty dotted part.
        case invalidName(String)
        /// A tag's name is longer than `limit` bytes (`MustacheTemplate.maximumNameLength`).
        case nameTooLong(limit: Int)
        /// A set-delimiter tag's delimiter is longer than `limit` bytes (`MustacheTemplate.maximumDelimiterLength`).
        case delimiterTooLong(limit: Int)
        /// A section opens inside `limit` open sections (`MustacheTemplate.maximumSectionDepth`).
        case sectionsNestedTooDeep(limit: Int)
        /// A `{{>name}}` tag would be the expansion past `limit` in one render
        /// (`MustacheTemplate.maximumPartialExpansions`).
        case tooManyPartialExpansions(name: String, limit: Int)
        /// One render would go past its `MustacheBudget` (nodes visited or bytes written); the
        /// position is the innermost section's
        /// opening tag (`section`), or the template's start outside every section.
        case renderTooLarge(section: String?, limit: String)
    }

    public let reason: Reason
    /// The name the template was parsed with.
    public let templateName: String
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem, in characters.
    public let column: Int

    public init(_ reason: Reason, templateName: String, line: Int, column: Int) {
        self.reason = reason
        self.templateName = templateName
        self.line = line
        self.column = column
    }

    /// The error at byte `offset` of a template's UTF-8 `bytes`.
    init(_ reason: Reason, templateName: String, offset: Int, in bytes: [UInt8]) {
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = bytes[..<lineStart].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        self.init(reason, templateName: templateName, line: line, column: column)
    }

    /// `name:line:column: message`, with `<template>` standing for an empty name.
    public var description: String {
        "\(templateName.isEmpty ? "<template>" : templateName):\(line):\(column): \(message)"
    }

    private var message: String {
        switch reason {
        case .unclosedSection(let name):
            "section \"\(name)\" is never closed"
        case .mismatchedCloseTag(let expected?, let found):
            "close tag \"\(found)\" does not match the open section \"\(expected)\""
        case .mismatchedCloseTag(nil, let found):
            "close tag \"\(found)\" has no open section"
        case .unclosedTag(let closingDelimiter):
            "tag is never closed with \"\(closingDelimiter)\""
        case .invalidDelimiters(let content):
            "invalid delimiters \"\(content.count > 80 ? content.prefix(80) + "…" : content)\": expected two delimiters without "
                + "whitespace or \"=\""
        case .invalidName(let name):
            "invalid tag name \"\(name)\""
        case .nameTooLong(let limit):
            "tag name longer than \(limit) bytes"
        case .delimiterTooLong(let limit):
            "delimiter longer than \(limit) bytes"
        case .sectionsNestedTooDeep(let limit):
            "sections nested deeper than \(limit)"
        case .tooManyPartialExpansions(let name, let limit):
            "partial \"\(name)\" would be expanded more than \(limit) times in one render: a partial that includes "
                + "itself (or partials that include each other) more than once grows exponentially"
        case .renderTooLarge(let section?, let limit):
            "rendering would go past \(limit) in section \"\(section)\": sections nested over lists repeat their "
                + "bodies for every combination of items"
                + (limit.hasSuffix("steps")
                    ? ", and a name looked up through many open sections, a deeply indented partial or a list named as "
                        + "text costs more steps" : "")
        case .renderTooLarge(nil, let limit):
            "rendering would go past \(limit)"
        }
    }
}
