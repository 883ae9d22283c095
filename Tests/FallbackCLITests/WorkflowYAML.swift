import Foundation

/// A value read from the repository's `action.yml` or `.pre-commit-hooks.yaml`.
///
/// Those files are written in a small subset of YAML, which `WorkflowYAML.parse` reads so that the
/// tests need no YAML library on a fresh machine. The subset, and nothing more (anything else is an
/// error naming its line, so a file cannot drift out of what the tests understand):
/// - indentation with spaces (a tab is refused); blank lines and `#` comments anywhere, and
///   ` #` comments after a plain value;
/// - block mappings `key: value` (keys of letters, digits, `_`, `-` and `.`, each once per mapping),
///   whose nested value is indented further than its key;
/// - block sequences `- item`, where an item is a scalar or a mapping whose first key follows the
///   dash (`- id: check`) and whose other keys line up with it;
/// - scalars: plain (not starting with an indicator such as `[`, `{`, `&`, `*`, `!`, `>`, `|`,
///   `%`, `@` or a backquote, and with no `: ` inside), single-quoted (`''` for a quote),
///   double-quoted with `\"` and `\\` as the only escapes, or a literal block `|` (clipped: one
///   final line break). An empty value is the empty string (YAML would say null).
/// No flow collections, anchors, aliases, tags, folded blocks, block chomping indicators or
/// multiple documents.
indirect enum WorkflowYAML: Equatable, Sendable {
    case scalar(String)
    case mapping([Entry])
    case sequence([WorkflowYAML])

    struct Entry: Equatable, Sendable {
        let key: String
        let value: WorkflowYAML
    }

    /// A line the subset does not cover, or a mistake in one it does.
    struct Error: Swift.Error, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    subscript(key: String) -> WorkflowYAML? {
        guard case .mapping(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    var text: String? {
        if case .scalar(let text) = self { text } else { nil }
    }

    var entries: [Entry] {
        if case .mapping(let entries) = self { entries } else { [] }
    }

    var items: [WorkflowYAML] {
        if case .sequence(let items) = self { items } else { [] }
    }

    static func parse(_ text: String) throws(Error) -> WorkflowYAML {
        var parser = try Parser(text)
        parser.skipInsignificant()
        guard parser.index < parser.lines.count else { throw Error(line: 1, message: "empty document") }
        let indent = try parser.indentation(of: parser.index)
        guard indent == 0 else { throw Error(line: parser.index + 1, message: "the document must start at column 1") }
        let value = try parser.node(indent: 0)
        parser.skipInsignificant()
        if parser.index < parser.lines.count {
            throw Error(line: parser.index + 1, message: "unexpected indentation")
        }
        return value
    }

    private struct Parser {
        var lines: [String]
        var index = 0

        init(_ text: String) throws(Error) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (number, line) in lines.enumerated() {
                if line.contains("\r") { throw Error(line: number + 1, message: "a carriage return") }
                if line.hasPrefix("---") || line == "..." { throw Error(line: number + 1, message: "document markers are outside the subset") }
            }
        }

        static func isInsignificant(_ line: String) -> Bool {
            let trimmed = line.drop { $0 == " " }
            return trimmed.isEmpty || trimmed.hasPrefix("#")
        }

        mutating func skipInsignificant() {
            while index < lines.count, Self.isInsignificant(lines[index]) { index += 1 }
        }

        func indentation(of lineIndex: Int) throws(Error) -> Int {
            let line = lines[lineIndex]
            let indent = line.prefix { $0 == " " }.count
            if line.dropFirst(indent).first == "\t" { throw Error(line: lineIndex + 1, message: "a tab in the indentation") }
            return indent
        }

        func content(_ lineIndex: Int, after indent: Int) -> String {
            String(lines[lineIndex].dropFirst(indent))
        }

        static func isSequenceItem(_ content: String) -> Bool { content == "-" || content.hasPrefix("- ") }

        /// The indentation of the next significant line, or nil at the end of the document or when
        /// that line is indented less than `indent` (it ends the node being read).
        mutating func nextLine(within indent: Int) throws(Error) -> Int? {
            skipInsignificant()
            guard index < lines.count else { return nil }
            let lineIndent = try indentation(of: index)
            return lineIndent < indent ? nil : lineIndent
        }

        /// The node whose first line is the current one, at exactly `indent`.
        mutating func node(indent: Int) throws(Error) -> WorkflowYAML {
            Self.isSequenceItem(content(index, after: indent)) ? try sequence(indent: indent) : try mapping(indent: indent)
        }

        mutating func sequence(indent: Int) throws(Error) -> WorkflowYAML {
            var items: [WorkflowYAML] = []
            while let lineIndent = try nextLine(within: indent) {
                let line = content(index, after: indent)
                guard lineIndent == indent, Self.isSequenceItem(line) else {
                    throw Error(line: index + 1, message: "expected a sequence item `- ` at column \(indent + 1)")
                }
                let rest = line.dropFirst(1).drop { $0 == " " }
                if rest.isEmpty {
                    index += 1
                    items.append(try nested(under: indent))
                } else if Self.mappingKey(String(rest)) != nil {
                    // `- key: value`: the item is a mapping whose keys line up with this first one.
                    let itemIndent = lines[index].count - rest.count
                    lines[index] = String(repeating: " ", count: itemIndent) + rest
                    items.append(try mapping(indent: itemIndent))
                } else {
                    items.append(.scalar(try Self.scalar(String(rest), line: index + 1)))
                    index += 1
                }
            }
            return .sequence(items)
        }

        mutating func mapping(indent: Int) throws(Error) -> WorkflowYAML {
            var entries: [Entry] = []
            while let lineIndent = try nextLine(within: indent) {
                guard lineIndent == indent else { throw Error(line: index + 1, message: "unexpected indentation") }
                let line = content(index, after: indent)
                guard let (key, rest) = Self.mappingKey(line) else {
                    throw Error(line: index + 1, message: "expected `key: value` (keys of letters, digits, _, - and .)")
                }
                if entries.contains(where: { $0.key == key }) { throw Error(line: index + 1, message: "key `\(key)` given twice") }
                let keyLine = index
                index += 1
                let value: WorkflowYAML
                if rest.isEmpty || rest.hasPrefix("#") {
                    value = try nested(under: indent)
                } else if rest == "|" {
                    value = .scalar(literalBlock(under: indent))
                } else {
                    value = .scalar(try Self.scalar(rest, line: keyLine + 1))
                }
                entries.append(Entry(key: key, value: value))
            }
            return .mapping(entries)
        }

        /// The value indented under a key or a dash, or the empty string when nothing is.
        mutating func nested(under indent: Int) throws(Error) -> WorkflowYAML {
            skipInsignificant()
            guard index < lines.count else { return .scalar("") }
            let inner = try indentation(of: index)
            guard inner > indent else { return .scalar("") }
            return try node(indent: inner)
        }

        /// The lines of a `|` block: indented deeper than its key, the block's indentation removed,
        /// with one final line break.
        mutating func literalBlock(under indent: Int) -> String {
            var body: [String] = []
            var blockIndent: Int?
            while index < lines.count {
                let line = lines[index]
                let lineIndent = line.prefix { $0 == " " }.count
                if line.allSatisfy({ $0 == " " }) {
                    body.append("")
                } else if lineIndent > indent {
                    let start = blockIndent ?? lineIndent
                    blockIndent = start
                    if lineIndent < start { break }
                    body.append(String(line.dropFirst(start)))
                } else {
                    break
                }
                index += 1
            }
            while body.last == "" { body.removeLast() }
            return body.isEmpty ? "" : body.joined(separator: "\n") + "\n"
        }

        /// `key: rest` or `key:`, with the key's characters limited to a safe set.
        static func mappingKey(_ line: String) -> (String, String)? {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let key = line[..<colon]
            let after = line[line.index(after: colon)...]
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }),
                after.isEmpty || after.first == " "
            else { return nil }
            return (String(key), String(after.drop { $0 == " " }))
        }

        static func scalar(_ text: String, line: Int) throws(Error) -> String {
            if text.hasPrefix("'") {
                guard text.count >= 2, text.hasSuffix("'") else { throw Error(line: line, message: "an unterminated single-quoted value") }
                let inner = text.dropFirst().dropLast()
                guard inner.replacingOccurrences(of: "''", with: "").contains("'") == false else {
                    throw Error(line: line, message: "text after a single-quoted value")
                }
                return inner.replacingOccurrences(of: "''", with: "'")
            }
            if text.hasPrefix("\"") {
                guard text.count >= 2, text.hasSuffix("\"") else { throw Error(line: line, message: "an unterminated double-quoted value") }
                var result = ""
                var escaped = false
                for character in text.dropFirst().dropLast() {
                    if escaped {
                        guard character == "\"" || character == "\\" else {
                            throw Error(line: line, message: "only \\\" and \\\\ escapes are in the subset")
                        }
                        result.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        throw Error(line: line, message: "text after a double-quoted value")
                    } else {
                        result.append(character)
                    }
                }
                if escaped { throw Error(line: line, message: "a value ending in a backslash") }
                return result
            }
            var plain = text
            if let comment = plain.range(of: " #") { plain = String(plain[..<comment.lowerBound]) }
            while plain.hasSuffix(" ") { plain.removeLast() }
            guard let first = plain.first else { return "" }
            if "[]{}&*!|>%@`#,".contains(first) || plain.hasPrefix("- ") || plain.hasPrefix("? ") || plain.hasPrefix(": ") {
                throw Error(line: line, message: "a plain value may not start with `\(first)` in the subset; quote it")
            }
            if plain.contains(": ") || plain.hasSuffix(":") {
                throw Error(line: line, message: "`: ` inside a plain value; quote it")
            }
            return plain
        }
    }
}
