/// Parses template source into a token tree, applying the spec's standalone-line rules.
///
/// Works on UTF-8 bytes: delimiters, whitespace and line breaks are found byte by byte, and
/// `\r\n` stays two bytes where `Character` would make it one.
struct Parser {
    private let bytes: [UInt8]
    private let templateName: String
    private var opening = Array("{{".utf8)
    private var closing = Array("}}".utf8)
    /// The nodes of the innermost open section, or of the template when none is open.
    private var nodes: [Node] = []
    private var openSections: [OpenSection] = []
    /// Whether the next node begins a template line.
    private var atLineStart = true

    private struct OpenSection {
        let name: String
        let path: Name
        let inverted: Bool
        let tagStart: Int
        /// Moved back into `nodes` when the section closes, so appending doesn't copy.
        var enclosingNodes: [Node]
    }

    private enum TagKind {
        case variable(escaped: Bool)
        case section(inverted: Bool)
        case sectionEnd
        case partial
        case comment
        case delimiters
    }

    private struct Tag {
        let kind: TagKind
        let content: Range<Int>
        let start: Int
        let end: Int

        /// Whether the tag vanishes with its line when it is alone on it.
        var canStandAlone: Bool {
            if case .variable = kind { return false }
            return true
        }
    }

    init(source: String, templateName: String) {
        bytes = Array(source.utf8)
        self.templateName = templateName
    }

    mutating func parse() throws(MustacheError) -> [Node] {
        var textStart = 0
        while let tagStart = firstIndex(of: opening, from: textStart) {
            let tag = try readTag(at: tagStart)
            var indentation: String?
            if tag.canStandAlone, let line = standaloneLine(of: tag) {
                appendText(textStart..<line.lowerBound)
                indentation = string(line.lowerBound..<tag.start)
                textStart = line.upperBound
                atLineStart = true
            } else {
                appendText(textStart..<tagStart)
                if atLineStart {
                    nodes.append(.lineStart)
                    atLineStart = false
                }
                textStart = tag.end
            }
            try apply(tag, indentation: indentation)
        }
        appendText(textStart..<bytes.count)
        if let section = openSections.last {
            throw error(.unclosedSection(name: section.name), at: section.tagStart)
        }
        return nodes
    }

    private func readTag(at start: Int) throws(MustacheError) -> Tag {
        let afterOpening = start + opening.count
        let sigil = afterOpening < bytes.count ? bytes[afterOpening] : 0
        let kind: TagKind
        var terminator = closing
        switch sigil {
        case UInt8(ascii: "{"):
            kind = .variable(escaped: false)
            terminator = Array("}".utf8) + closing
        case UInt8(ascii: "&"): kind = .variable(escaped: false)
        case UInt8(ascii: "#"): kind = .section(inverted: false)
        case UInt8(ascii: "^"): kind = .section(inverted: true)
        case UInt8(ascii: "/"): kind = .sectionEnd
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: "="):
            kind = .delimiters
            terminator = Array("=".utf8) + closing
        default: kind = .variable(escaped: true)
        }
        let contentStart: Int
        if case .variable(escaped: true) = kind {
            contentStart = afterOpening
        } else {
            contentStart = afterOpening + 1
        }
        guard let contentEnd = firstIndex(of: terminator, from: contentStart) else {
            throw error(.unclosedTag(closingDelimiter: string(of: terminator)), at: start)
        }
        return Tag(kind: kind, content: contentStart..<contentEnd, start: start, end: contentEnd + terminator.count)
    }

    /// The line of `tag`, through its line break, when nothing but spaces and tabs shares it.
    private func standaloneLine(of tag: Tag) -> Range<Int>? {
        var lineStart = tag.start
        while lineStart > 0, isSpaceOrTab(bytes[lineStart - 1]) {
            lineStart -= 1
        }
        guard lineStart == 0 || bytes[lineStart - 1] == UInt8(ascii: "\n") else { return nil }
        var lineEnd = tag.end
        while lineEnd < bytes.count, isSpaceOrTab(bytes[lineEnd]) {
            lineEnd += 1
        }
        if lineEnd == bytes.count {
            return lineStart..<lineEnd
        }
        if bytes[lineEnd] == UInt8(ascii: "\n") {
            return lineStart..<lineEnd + 1
        }
        if bytes[lineEnd] == UInt8(ascii: "\r"), lineEnd + 1 < bytes.count, bytes[lineEnd + 1] == UInt8(ascii: "\n") {
            return lineStart..<lineEnd + 2
        }
        return nil
    }

    private mutating func apply(_ tag: Tag, indentation: String?) throws(MustacheError) {
        switch tag.kind {
        case .comment:
            break
        case .delimiters:
            let content = string(tag.content)
            let delimiters = content.split(whereSeparator: \.isWhitespace)
            guard delimiters.count == 2, !delimiters.contains(where: { $0.contains("=") }) else {
                throw error(.invalidDelimiters(content), at: tag.start)
            }
            guard delimiters.allSatisfy({ $0.utf8.count <= MustacheTemplate.maximumDelimiterLength }) else {
                throw error(.delimiterTooLong(limit: MustacheTemplate.maximumDelimiterLength), at: tag.start)
            }
            opening = Array(delimiters[0].utf8)
            closing = Array(delimiters[1].utf8)
        case .variable(let escaped):
            nodes.append(.variable(try path(of: trimmedName(of: tag), at: tag.start), escaped: escaped))
        case .partial:
            nodes.append(.partial(try trimmedName(of: tag), indentation: indentation, offset: tag.start))
        case .section(let inverted):
            let name = try trimmedName(of: tag)
            guard openSections.count < MustacheTemplate.maximumSectionDepth else {
                throw error(.sectionsNestedTooDeep(limit: MustacheTemplate.maximumSectionDepth), at: tag.start)
            }
            openSections.append(OpenSection(
                name: name,
                path: try path(of: name, at: tag.start),
                inverted: inverted,
                tagStart: tag.start,
                enclosingNodes: nodes
            ))
            nodes = []
        case .sectionEnd:
            let name = try trimmedName(of: tag)
            guard openSections.last?.name == name else {
                throw error(.mismatchedCloseTag(expected: openSections.last?.name, found: name), at: tag.start)
            }
            var section = openSections.removeLast()
            var body: [Node] = []
            swap(&body, &nodes)
            swap(&nodes, &section.enclosingNodes)
            nodes.append(.section(section.path, body: body, inverted: section.inverted, offset: section.tagStart))
        }
    }

    /// Appends text as one node per line, each line preceded by a line-start node.
    private mutating func appendText(_ range: Range<Int>) {
        var lineStart = range.lowerBound
        while lineStart < range.upperBound {
            let lineEnd = bytes[lineStart..<range.upperBound]
                .firstIndex(of: UInt8(ascii: "\n"))
                .map { $0 + 1 } ?? range.upperBound
            if atLineStart {
                nodes.append(.lineStart)
            }
            nodes.append(.text(string(lineStart..<lineEnd)))
            atLineStart = bytes[lineEnd - 1] == UInt8(ascii: "\n")
            lineStart = lineEnd
        }
    }

    /// The tag's content without surrounding whitespace, which must be a non-empty name
    /// without whitespace.
    private func trimmedName(of tag: Tag) throws(MustacheError) -> String {
        var content = tag.content
        while let first = content.first, isWhitespace(bytes[first]) {
            content = content.dropFirst()
        }
        while let last = content.last, isWhitespace(bytes[last]) {
            content = content.dropLast()
        }
        guard content.count <= MustacheTemplate.maximumNameLength else {
            throw error(.nameTooLong(limit: MustacheTemplate.maximumNameLength), at: tag.start)
        }
        let name = string(content)
        guard !content.isEmpty, !content.contains(where: { isWhitespace(bytes[$0]) }) else {
            throw error(.invalidName(name), at: tag.start)
        }
        return name
    }

    /// `name` split on periods: `.` has no parts, and no part may be empty.
    private func path(of name: String, at offset: Int) throws(MustacheError) -> Name {
        if name == "." {
            return Name(parts: [])
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.contains(where: \.isEmpty) else {
            throw error(.invalidName(name), at: offset)
        }
        return Name(parts: parts.map(String.init))
    }

    private func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            guard let candidate = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[candidate..<candidate + needle.count].elementsEqual(needle) {
                return candidate
            }
            index = candidate + 1
        }
        return nil
    }

    private func error(_ reason: MustacheError.Reason, at offset: Int) -> MustacheError {
        MustacheError(reason, templateName: templateName, offset: offset, in: bytes)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func string(of utf8: [UInt8]) -> String {
        String(decoding: utf8, as: UTF8.self)
    }

    private func isSpaceOrTab(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        isSpaceOrTab(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
