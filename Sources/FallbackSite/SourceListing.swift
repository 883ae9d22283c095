import FallbackAudit
import FallbackMustache
import RovenueFallback

/// A value of the snapshot pretty-printed as HTML, each line numbered with the source line and
/// column its value starts at, and each line that a finding points to marked and anchored.
///
/// The markup is lean, because a placement's entry can run to thousands of lines: the listing is
/// preformatted text, one text line per line, each starting with its gutter
/// (`<span class="ln">1:2050</span>`, empty on a closing bracket); only a marked line is an element
/// (`<span class="line is-marked sev-error">…</span>`); keys, strings, numbers and literals are
/// `.k`, `.s`, `.n` and `.lit`; punctuation is bare text (the stylesheet mutes it); quotes are not
/// escaped in text, only `&`, `<` and `>`.
///
/// The listing is bounded whatever the value: at most `maximumLines` lines, keys, strings and
/// numbers cut after `maximumStringLength` characters (with their length), indentation capped at
/// `maximumIndent` levels. Every anchor another page links to exists: a finding's or a change's
/// position gets an id on its line, or on the note where the listing stops.
///
/// The listing is written as UTF-8 bytes. A key, string or number that `SnapshotText` would show
/// as it is (escaped, perhaps isolated; `ListingBytes.plainForm`), most of a snapshot, is copied
/// from the document's bytes through `ListingBytes.appendHTMLText`; any other goes through
/// `SnapshotText`, as it always did. Line and column come from a `PositionCursor` that walks the
/// value's bytes once, in order.
struct SourceListing: ~Copyable {
    static let maximumLines = 4000
    static let maximumStringLength = 400
    static let maximumIndent = 32

    /// The id of the line a finding or change at `line`, `column` links to.
    static func anchor(line: Int, column: Int) -> String { "L\(line)-\(column)" }

    /// Findings by JSON Pointer (compared by bytes).
    let findings: [ExactKey: [Finding]]
    /// Every finding's pointer and each pointer above it: below any other value no line is
    /// marked, so the listing does not build those values' pointers at all.
    private let markedPaths: Set<ExactKey>
    /// Anchors other pages link to, in order, and as a set.
    private let linkedAnchors: [String]
    private let wantedAnchors: Set<String>
    /// The line and column of each wanted anchor spelled as `anchor(line:column:)` spells it: a
    /// line's own anchor is looked up by its numbers, and spelled only when wanted.
    private let wantedPositions: Set<JSONDocument.Position>
    private var placedAnchors: Set<String> = []
    /// The listing's lines so far, one after the other, as UTF-8.
    private var output = ByteWriter(capacity: 64)
    private var lineCount = 0
    private var truncated = false
    /// The document's bytes and the position of the last line begun.
    private let bytes: [UInt8]
    private var cursor: PositionCursor

    init(findings: [Finding], linkedFrom anchors: [String], document: JSONDocument) {
        self.findings = Dictionary(grouping: findings, by: { ExactKey($0.pointer) })
        var paths: Set<ExactKey> = []
        for pointer in self.findings.keys {
            // "/a/b" marks "/a/b", "/a" and "": tokens escape "/" as "~1", so each "/" starts one.
            let bytes = pointer.utf8
            paths.insert(pointer)
            for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
                paths.insert(ExactKey(String(pointer.string[..<index])))
            }
        }
        markedPaths = paths
        linkedAnchors = findings.map { Self.anchor(line: $0.line, column: $0.column) } + anchors
        wantedAnchors = Set(linkedAnchors)
        wantedPositions = Set(wantedAnchors.compactMap(Self.position(ofAnchor:)))
        bytes = document.bytes
        cursor = PositionCursor(document: document)
    }

    /// The line and column `anchor` names, when `anchor(line:column:)` spells it so exactly.
    static func position(ofAnchor anchor: String) -> JSONDocument.Position? {
        guard anchor.hasPrefix("L") else { return nil }
        let parts = anchor.dropFirst().split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let line = Int(parts[0]), let column = Int(parts[1]), Self.anchor(line: line, column: column) == anchor else {
            return nil
        }
        return JSONDocument.Position(line: line, column: column)
    }

    /// The listing of `value`, whose own key (if any) is `key`; `anchors` are the further
    /// `L<line>-<column>` ids other pages link to (changes).
    static func html(for value: JSONDocument.Value, key: String?, findings: [Finding], linkedFrom anchors: [String] = []) -> String {
        String(decoding: bytes(for: value, key: key, findings: findings, linkedFrom: anchors), as: UTF8.self)
    }

    /// `html(for:key:findings:linkedFrom:)` as UTF-8 bytes.
    static func bytes(for value: JSONDocument.Value, key: String?, findings: [Finding], linkedFrom anchors: [String] = []) -> [UInt8] {
        var listing = SourceListing(findings: findings, linkedFrom: anchors, document: value.document)
        listing.output = ByteWriter(capacity: min(value.byteRange.count, 1 << 20) * 2 + 64)
        listing.append("<pre class=\"source\"><code>")
        listing.emit(value, key: key.map(Key.text), pointer: listing.markedPointer(value.pointer), indent: 0, trailingComma: false)
        // Anchors whose position no line starts at (a repeated key, a value past the end of the listing).
        let rest = listing.unplacedAnchors()
        if listing.truncated || !rest.isEmpty {
            let note = listing.truncated ? "… the listing stops at \(maximumLines) lines" : ""
            listing.append(rest)
            listing.append("<span class=\"ln\"></span>")
            listing.append(note)
            listing.append("\n")
        }
        listing.append("</code></pre>")
        return listing.output.take()
    }

    /// A member's key: its string node in the document, or text given by the caller.
    private enum Key {
        case node(JSONDocument.Value)
        case text(String)
    }

    /// `pointer` when a finding lies at or below it, else nil.
    private func markedPointer(_ pointer: String) -> String? {
        markedPaths.contains(ExactKey(pointer)) ? pointer : nil
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        output.append(text)
    }

    @inline(__always)
    private mutating func append(_ text: String) {
        output.append(text)
    }

    /// Appends a string or number token straight from the document's bytes when it is short enough
    /// not to be cut and `ListingBytes.plainForm` finds it plain: then the decoded text is those
    /// bytes, `JSONValue.quoted` only adds the quotes, and `SnapshotText.html` only escapes `&`,
    /// `<` and `>` (and isolates text with a non-ASCII character in `<bdi>`). Returns false, having
    /// written nothing, for any other token.
    private mutating func appendPlainToken(_ range: Range<Int>, quoted: Bool, tokenClass: StaticString) -> Bool {
        // A string's range includes its quotes.
        let inner = quoted ? range.lowerBound + 1..<range.upperBound - 1 : range
        guard inner.count <= Self.maximumStringLength, !inner.isEmpty || quoted else { return false }
        let form = bytes.withUnsafeBufferPointer { buffer in
            ListingBytes.plainForm(UnsafeBufferPointer(rebasing: buffer[inner]))
        }
        guard let form else { return false }
        append("<span class=\"")
        append(tokenClass)
        append("\">")
        if form == .isolated { append("<bdi>") }
        if quoted { output.append(byte: UInt8(ascii: "\"")) }
        bytes.withUnsafeBufferPointer { buffer in
            ListingBytes.appendHTMLText(UnsafeBufferPointer(rebasing: buffer[inner]), to: &output)
        }
        if quoted { output.append(byte: UInt8(ascii: "\"")) }
        if form == .isolated { append("</bdi>") }
        append("</span>")
        return true
    }

    /// Appends `text` (a key, a string, a number) as the listing shows it: quoted when `quoted`,
    /// cut with its length when long.
    private mutating func appendToken(_ text: String, quoted: Bool, tokenClass: StaticString) {
        let (kept, note) = SnapshotText.cut(text, limit: Self.maximumStringLength)
        let shown = note == nil ? kept : kept + "…"
        append("<span class=\"")
        append(tokenClass)
        append("\">")
        append(SnapshotText.html(quoted ? JSONValue.quoted(shown) : shown, limit: nil, escaping: .htmlText))
        append("</span>")
        if let note {
            append(" <span class=\"note\">(")
            append(note)
            append(")</span>")
        }
    }

    private mutating func appendString(_ value: JSONDocument.Value, tokenClass: StaticString) {
        if !appendPlainToken(value.byteRange, quoted: true, tokenClass: tokenClass) {
            appendToken(value.string ?? "", quoted: true, tokenClass: tokenClass)
        }
    }

    private mutating func appendIndentation(_ indent: Int) {
        ListingBytes.appendIndentation(min(indent, Self.maximumIndent), to: &output)
    }

    /// `pointer` is the value's JSON Pointer, nil when no finding lies at or below it.
    private mutating func emit(_ value: JSONDocument.Value, key: Key?, pointer: String?, indent: Int, trailingComma: Bool) {
        guard lineCount < Self.maximumLines else {
            truncated = true
            return
        }
        let end = beginLine(for: value, pointer: pointer)
        appendIndentation(indent)
        switch key {
        case .node(let keyValue)?:
            appendString(keyValue, tokenClass: "k")
            append(": ")
        case .text(let text)?:
            appendToken(text, quoted: true, tokenClass: "k")
            append(": ")
        case nil:
            break
        }
        switch value.kind {
        case .object, .array:
            let isObject = value.kind == .object
            output.append(byte: isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            if value.count == 0 {
                output.append(byte: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                if trailingComma { output.append(byte: UInt8(ascii: ",")) }
                endLine(end)
                return
            }
            endLine(end)
            if isObject {
                let members = value.members
                for (index, member) in members.enumerated() {
                    let childPointer = pointer.flatMap { markedPointer($0 + "/" + JSONDocument.escapePointerToken(member.key)) }
                    emit(member.value, key: .node(member.keyValue), pointer: childPointer, indent: indent + 1, trailingComma: index < members.count - 1)
                }
            } else {
                let elements = value.elements
                for (index, element) in elements.enumerated() {
                    emit(element, key: nil, pointer: pointer.flatMap { markedPointer($0 + "/" + String(index)) }, indent: indent + 1, trailingComma: index < elements.count - 1)
                }
            }
            lineCount += 1
            append("<span class=\"ln\"></span>")
            appendIndentation(indent)
            output.append(byte: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            output.append(byte: UInt8(ascii: "\n"))
        case .string:
            appendString(value, tokenClass: "s")
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        case .number:
            if !appendPlainToken(value.byteRange, quoted: false, tokenClass: "n") {
                appendToken(value.number?.text ?? "", quoted: false, tokenClass: "n")
            }
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        case .true:
            append("<span class=\"lit\">true</span>")
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        case .false:
            append("<span class=\"lit\">false</span>")
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        default:
            append("<span class=\"lit\">null</span>")
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        }
    }

    /// What ends a line `beginLine` began: the rules marked on it, and whether it is a marked block.
    private struct LineEnd {
        let notes: String?
        let isMarked: Bool
    }

    /// Starts the line of `value`: the marked block's element if a finding is here, the anchors
    /// other pages link to, and the gutter with the value's line and column.
    private mutating func beginLine(for value: JSONDocument.Value, pointer: String?) -> LineEnd {
        let position = cursor.position(ofOffset: value.byteRange.lowerBound)
        lineCount += 1
        let marks = pointer.flatMap { findings[ExactKey($0)] } ?? []
        let ownIsWanted = wantedPositions.contains(position)
        guard !marks.isEmpty || ownIsWanted else {
            appendGutter(position)
            return LineEnd(notes: nil, isMarked: false)
        }
        // Findings link here by their own line and column (a key's finding sits at the key), changes by the value's.
        var anchorHTML = ""
        let anchors = marks.map { Self.anchor(line: $0.line, column: $0.column) } + (ownIsWanted ? [Self.anchor(line: position.line, column: position.column)] : [])
        for anchor in anchors where placedAnchors.insert(anchor).inserted {
            anchorHTML += "<span id=\"\(anchor)\"></span>"
        }
        // Each rule once, with how often it applies here.
        var ruleCounts: [Rule.ID: Int] = [:]
        var rules: [Rule.ID] = []
        for mark in marks {
            if ruleCounts[mark.ruleId] == nil { rules.append(mark.ruleId) }
            ruleCounts[mark.ruleId, default: 0] += 1
        }
        let notes = rules.map { rule in
            let count = ruleCounts[rule]!
            return " <mark>\(MarkupEscaping.html(rule.rawValue))</mark>" + (count > 1 ? " ×\(SnapshotText.grouped(count))" : "")
        }.joined()
        // Only a marked line is an element (a block, for its background); its line feed ends it.
        let worst = marks.map(\.severity).max()
        if let worst {
            append("<span class=\"line is-marked sev-")
            append(worst.rawValue)
            append("\">")
        }
        append(anchorHTML)
        appendGutter(position)
        return LineEnd(notes: notes, isMarked: worst != nil)
    }

    private mutating func appendGutter(_ position: JSONDocument.Position) {
        append("<span class=\"ln\">")
        ListingBytes.appendDecimal(position.line, to: &output)
        output.append(byte: UInt8(ascii: ":"))
        ListingBytes.appendDecimal(position.column, to: &output)
        append("</span>")
    }

    private mutating func endLine(_ end: LineEnd) {
        if let notes = end.notes { append(notes) }
        output.append(byte: UInt8(ascii: "\n"))
        if end.isMarked { append("</span>") }
    }

    /// Spans for the linked anchors no line carries, each once.
    private mutating func unplacedAnchors() -> String {
        var html = ""
        for anchor in linkedAnchors where placedAnchors.insert(anchor).inserted {
            html += "<span id=\"\(anchor)\"></span>"
        }
        return html
    }
}

/// The byte-level pieces of `SourceListing`: the HTML text escaping as a table, indentation and
/// decimal numbers appended without a `String` each.
enum ListingBytes {
    /// For each byte, what `MarkupEscaping.htmlText` writes for it when it stands alone as ASCII:
    /// `&`, `<` and `>` as references, every other byte as it is (empty entry).
    static let htmlTextReplacements: [[UInt8]] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "&"): Array("&amp;".utf8)
        case UInt8(ascii: "<"): Array("&lt;".utf8)
        case UInt8(ascii: ">"): Array("&gt;".utf8)
        default: []
        }
    }

    /// For each byte, what `MarkupEscaping.html` writes for it when it stands alone as ASCII:
    /// `&`, `<`, `>`, `"` and `'` as references, every other byte as it is (empty entry).
    static let htmlReplacements: [[UInt8]] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "\""): Array("&quot;".utf8)
        case UInt8(ascii: "'"): Array("&#39;".utf8)
        default: htmlTextReplacements[byte]
        }
    }

    /// How `SnapshotText.html` shows a plain token: as it is (ASCII), or isolated in `<bdi>`.
    enum PlainForm { case ascii, isolated }

    /// The form of text that `JSONValue.quoted` only puts in quotes, that a JSON string holds as it
    /// is, and whose every character `SnapshotText` shows as it is: well-formed UTF-8 with no
    /// control character, backslash or quote, and no hidden character (`VisibleText.isHidden`).
    /// Nil for any other text.
    static func plainForm(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainForm? {
        form(of: bytes, quotesAndBackslashes: false)
    }

    /// `plainForm` of text that is not put in a JSON string: backslashes and quotes are plain too.
    static func plainTextForm(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainForm? {
        form(of: bytes, quotesAndBackslashes: true)
    }

    private static func form(of bytes: UnsafeBufferPointer<UInt8>, quotesAndBackslashes: Bool) -> PlainForm? {
        var isASCII = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { return nil }
                if !quotesAndBackslashes, byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { return nil }
                index += 1
                continue
            }
            isASCII = false
            let (length, lead, smallest): (Int, UInt32, UInt32) =
                switch byte {
                case 0xC2...0xDF: (2, UInt32(byte & 0x1F), 0x80)
                case 0xE0...0xEF: (3, UInt32(byte & 0x0F), 0x800)
                case 0xF0...0xF4: (4, UInt32(byte & 0x07), 0x1_0000)
                default: (0, 0, 0)
                }
            guard length > 0, index + length <= bytes.count else { return nil }
            var value = lead
            for offset in 1..<length {
                let next = bytes[index + offset]
                guard next & 0xC0 == 0x80 else { return nil }
                value = value << 6 | UInt32(next & 0x3F)
            }
            guard value >= smallest, let scalar = Unicode.Scalar(value), !VisibleText.isHidden(scalar) else { return nil }
            index += length
        }
        return isASCII ? .ascii : .isolated
    }

    /// Appends `bytes` with `&`, `<` and `>` escaped as `MarkupEscaping.htmlText` escapes them.
    static func appendHTMLText<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        append(bytes, replacing: htmlTextReplacements, to: &output)
    }

    /// Appends `bytes` with `&`, `<`, `>`, `"` and `'` escaped as `MarkupEscaping.html` escapes them.
    static func appendHTML<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        append(bytes, replacing: htmlReplacements, to: &output)
    }

    /// Appends `bytes` with each byte that has a replacement in `table` replaced.
    private static func append<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, replacing table: [[UInt8]], to output: inout Sink) {
        var start = 0
        for index in 0..<bytes.count {
            let replacement = table[Int(bytes[index])]
            guard !replacement.isEmpty else { continue }
            output.append(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            output.append(bytes: replacement)
            start = index + 1
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 2 * SourceListing.maximumIndent)

    /// Appends two spaces per level.
    static func appendIndentation<Sink: ByteSink & ~Copyable>(_ levels: Int, to output: inout Sink) {
        spaces.withUnsafeBufferPointer { output.append(bytes: UnsafeBufferPointer(rebasing: $0[..<(2 * levels)])) }
    }

    /// Appends `number` in decimal, as `String(number)` spells it.
    static func appendDecimal<Sink: ByteSink & ~Copyable>(_ number: Int, to output: inout Sink) {
        if number < 0 {
            output.append(String(number))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            output.append(bytes: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]).assumingMemoryBound(to: UInt8.self))
        }
    }
}

/// Line and column of byte offsets asked in increasing order (a listing's values, in text order),
/// each found by walking only the bytes since the one before: the same figures as
/// `JSONDocument.position(ofOffset:)` (a line starts after each line feed; the column counts
/// Unicode scalars, that is bytes that are not UTF-8 continuation bytes), without counting from
/// the start of a 4 KiB block for every value of a one-line file. The first offset, and any before
/// the last one asked, is answered by the document.
struct PositionCursor {
    private let document: JSONDocument
    private let bytes: [UInt8]
    /// The last offset answered and its line and column; nil before the first.
    private var last: (offset: Int, line: Int, column: Int)?

    init(document: JSONDocument) {
        self.document = document
        bytes = document.bytes
    }

    mutating func position(ofOffset offset: Int) -> JSONDocument.Position {
        guard var state = last, offset >= state.offset, offset <= bytes.count else {
            let position = document.position(ofOffset: offset)
            last = offset >= 0 && offset <= bytes.count ? (offset, position.line, position.column) : nil
            return position
        }
        bytes.withUnsafeBufferPointer { buffer in
            for index in state.offset..<offset {
                let byte = buffer[index]
                if byte == 0x0A {
                    state.line += 1
                    state.column = 1
                } else if byte & 0xC0 != 0x80 {
                    state.column += 1
                }
            }
        }
        state.offset = offset
        last = state
        return JSONDocument.Position(line: state.line, column: state.column)
    }
}
