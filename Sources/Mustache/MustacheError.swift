/// A template that cannot be parsed, with where the problem is.
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
            "invalid delimiters \"\(content)\": expected two delimiters without whitespace or \"=\""
        case .invalidName(let name):
            "invalid tag name \"\(name)\""
        }
    }
}
