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
/// value's bytes once, in order. The walk reads the document's nodes by index (`kind(ofNode:)`
/// and the rest), not through a `Value` per node: each `Value` retains the document, which the
/// cores rendering pages in parallel share, and those retains and releases were a third of the
/// listings' time in the 1,000-placement build.
struct SourceListing: ~Copyable {
    static let maximumLines = 4000
    static let maximumStringLength = 400
    static let maximumIndent = 32

    /// The id of the line a finding or change at `line`, `column` links to.
    static func anchor(line: Int, column: Int) -> String { "L\(line)-\(column)" }

    /// Findings by JSON Pointer (compared by bytes).
    let findings: [JSONPointer: [Finding]]
    /// Every finding's pointer and each pointer above it: below any other value no line is
    /// marked, so the listing does not build those values' pointers at all.
    ///
    /// Each head in it is one object (`JSONPointer`): the pointers the listing builds on the way
    /// down are taken from here, so comparing them with findings' pointers reads only their
    /// tails, never a long placement key once per finding.
    private let markedPaths: Set<JSONPointer>
    /// Anchors other pages link to, in order, and as a set.
    private let linkedAnchors: [String]
    private let wantedAnchors: Set<String>
    /// The line and column of each wanted anchor spelled as `anchor(line:column:)` spells it, in
    /// order: a line's own anchor is looked up by its numbers, and spelled only when wanted. Lines
    /// begin in text order, so the lookup moves forward through them (`isWanted(_:)`).
    private let wantedPositions: [JSONDocument.Position]
    private var nextWanted = 0
    /// The line and column the gutter shows, kept as text.
    private var gutterLine = DecimalText(prefix: "<span class=\"ln\">", suffix: "")
    private var gutterColumn = DecimalText(prefix: ":", suffix: "</span>")
    private var placedAnchors: Set<String> = []
    /// The listing's lines so far, one after the other, as UTF-8.
    private var output = ByteWriter(capacity: 64)
    private var lineCount = 0
    private var truncated = false
    /// The document, its bytes and the position of the last line begun.
    private let document: JSONDocument
    private let bytes: [UInt8]
    private var cursor: PositionCursor

    init(findings: [Finding], linkedFrom anchors: [String], document: JSONDocument) {
        var paths: Set<JSONPointer> = []
        var grouped: [JSONPointer: [Finding]] = [:]
        // The findings under one long key mostly share one head object: each is looked up once.
        var heads: [ObjectIdentifier: JSONPointer.Head] = [:]
        for finding in findings {
            var pointer = finding.jsonPointer
            if let head = pointer.head {
                let canonical: JSONPointer.Head
                if let known = heads[ObjectIdentifier(head)] {
                    canonical = known
                } else {
                    canonical = Self.insert(JSONPointer(head: head, tail: ""), into: &paths).head ?? head
                    heads[ObjectIdentifier(head)] = canonical
                }
                pointer = JSONPointer(head: canonical, tail: pointer.tail)
            }
            pointer = Self.insert(pointer, into: &paths)
            grouped[pointer, default: []].append(finding)
        }
        self.findings = grouped
        markedPaths = paths
        linkedAnchors = findings.map { Self.anchor(line: $0.line, column: $0.column) } + anchors
        wantedAnchors = Set(linkedAnchors)
        wantedPositions = Set(wantedAnchors.compactMap(Self.position(ofAnchor:))).sorted(by: Self.precedes)
        self.document = document
        bytes = document.bytes
        cursor = PositionCursor(document: document)
    }

    /// Inserts `pointer` and the pointers above it into `paths`, up to the first already there
    /// (whose own are there too); returns the member equal to `pointer`.
    private static func insert(_ pointer: JSONPointer, into paths: inout Set<JSONPointer>) -> JSONPointer {
        let (inserted, member) = paths.insert(pointer)
        guard inserted else { return member }
        var current = pointer
        while let parent = current.parent, paths.insert(parent).inserted {
            current = parent
        }
        return member
    }

    static func precedes(_ lhs: JSONDocument.Position, _ rhs: JSONDocument.Position) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// True when an anchor other pages link to names `position`. Positions asked in increasing
    /// order (a listing's lines) move a cursor forward; one before the last asked starts over.
    private mutating func isWanted(_ position: JSONDocument.Position) -> Bool {
        if nextWanted > 0, Self.precedes(position, wantedPositions[nextWanted - 1]) {
            // Back in the text: the first wanted position not before it, by halving.
            var (low, high) = (0, nextWanted - 1)
            while low < high {
                let middle = (low + high) / 2
                if Self.precedes(wantedPositions[middle], position) { low = middle + 1 } else { high = middle }
            }
            nextWanted = low
        }
        while nextWanted < wantedPositions.count, Self.precedes(wantedPositions[nextWanted], position) { nextWanted += 1 }
        return nextWanted < wantedPositions.count && wantedPositions[nextWanted] == position
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
        // Written straight into the array's storage (`ByteWriter.array`), which a `take()` of the
        // listing copied (32 M instructions in the 1k build); with room for seven bytes of listing
        // a byte of compact JSON: the 1k sample's listings take 5 to 6.3 bytes a byte (nine in ten
        // of them; up to 8.3 for the shortest), and with room for three every one of them grew
        // and was copied twice (about 60 M).
        return ByteWriter.array(capacity: min(value.byteRange.count, 1 << 20) * 7 + 256) { output in
            swap(&listing.output, &output)
            listing.append("<pre class=\"source\"><code>")
            listing.emit(
                value.index, key: key.map(Key.text), pointer: listing.markedPointer(JSONPointer(value.pointer)), indent: 0,
                trailingComma: false)
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
            swap(&listing.output, &output)
        }
    }

    /// A member's key: the index of its string node in the document, or text given by the caller.
    private enum Key {
        case node(Int)
        case text(String)
    }

    /// The marked path equal to `pointer` (its head the one the findings' pointers share) when a
    /// finding lies at or below it, else nil.
    private func markedPointer(_ pointer: JSONPointer) -> JSONPointer? {
        markedPaths.firstIndex(of: pointer).map { markedPaths[$0] }
    }

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        output.append(text)
    }

    @inline(__always)
    private mutating func append(_ text: String) {
        output.append(text)
    }

    /// A token's class in the markup: `.k`, `.s` or `.n`, with the pieces that open and close it.
    private enum TokenClass {
        case key, string, number

        var open: StaticString {
            switch self {
            case .key: "<span class=\"k\">"
            case .string: "<span class=\"s\">"
            case .number: "<span class=\"n\">"
            }
        }
    }

    /// Appends a string or number token straight from the document's bytes when it is short enough
    /// not to be cut and `ListingBytes.scan` finds it plain: then the decoded text is those bytes,
    /// `JSONValue.quoted` only adds the quotes, and `SnapshotText.html` only escapes `&`, `<` and
    /// `>` (and isolates text with a non-ASCII character in `<bdi>`). The scan reads each byte
    /// once; the bytes before the first to escape (all of them, mostly) are copied as one piece.
    /// Returns false, having written nothing, for any other token.
    private mutating func appendPlainToken(_ range: Range<Int>, quoted: Bool, tokenClass: TokenClass) -> Bool {
        // A string's range includes its quotes.
        let inner = quoted ? range.lowerBound + 1..<range.upperBound - 1 : range
        guard inner.count <= Self.maximumStringLength, !inner.isEmpty || quoted else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            let token = UnsafeBufferPointer(rebasing: buffer[inner])
            guard let scan = ListingBytes.scan(token, quotesAndBackslashes: false) else { return false }
            append(tokenClass.open)
            if scan.form == .isolated { append("<bdi>") }
            if quoted { output.append(byte: UInt8(ascii: "\"")) }
            ListingBytes.appendHTMLText(token, from: scan.firstEscape, to: &output)
            switch (quoted, scan.form == .isolated) {
            case (false, false): append("</span>")
            case (true, false): append("\"</span>")
            case (false, true): append("</bdi></span>")
            case (true, true): append("\"</bdi></span>")
            }
            return true
        }
    }

    /// Appends `text` (a key, a string, a number) as the listing shows it: quoted when `quoted`,
    /// cut with its length when long.
    private mutating func appendToken(_ text: String, quoted: Bool, tokenClass: TokenClass) {
        let (kept, note) = SnapshotText.cut(text, limit: Self.maximumStringLength)
        let shown = note == nil ? kept : kept + "…"
        append(tokenClass.open)
        append(SnapshotText.html(quoted ? JSONValue.quoted(shown) : shown, limit: nil, escaping: .htmlText))
        append("</span>")
        if let note {
            append(" <span class=\"note\">(")
            append(note)
            append(")</span>")
        }
    }

    /// Appends the string or key at node `index`.
    private mutating func appendString(_ index: Int, tokenClass: TokenClass) {
        if !appendPlainToken(document.byteRange(ofNode: index), quoted: true, tokenClass: tokenClass) {
            appendToken(document.string(ofNode: index) ?? "", quoted: true, tokenClass: tokenClass)
        }
    }

    private mutating func appendIndentation(_ indent: Int) {
        ListingBytes.appendIndentation(min(indent, Self.maximumIndent), to: &output)
    }

    /// Lists the value at node `index`; `pointer` is its JSON Pointer, nil when no finding lies at
    /// or below it.
    private mutating func emit(_ index: Int, key: Key?, pointer: JSONPointer?, indent: Int, trailingComma: Bool) {
        guard lineCount < Self.maximumLines else {
            truncated = true
            return
        }
        let range = document.byteRange(ofNode: index)
        let end = beginLine(at: range.lowerBound, pointer: pointer)
        appendIndentation(indent)
        switch key {
        case .node(let keyIndex)?:
            appendString(keyIndex, tokenClass: .key)
            append(": ")
        case .text(let text)?:
            appendToken(text, quoted: true, tokenClass: .key)
            append(": ")
        case nil:
            break
        }
        let kind = document.kind(ofNode: index)
        switch kind {
        case .object, .array:
            let isObject = kind == .object
            let count = document.count(ofNode: index)
            output.append(byte: isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            if count == 0 {
                output.append(byte: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                if trailingComma { output.append(byte: UInt8(ascii: ",")) }
                endLine(end)
                return
            }
            endLine(end)
            // The children as `Value.members` and `Value.elements` list them (`JSONDocument.Children`).
            var children = document.children(ofNode: index)
            var following = children.next(in: document)
            while let child = following {
                following = children.next(in: document)
                let childPointer = pointer.flatMap { pointer in
                    if let key = child.key {
                        markedPointer(
                            pointer.appending(escapedToken: JSONDocument.escapePointerToken(document.string(ofNode: key) ?? "")))
                    } else {
                        markedPointer(pointer.appending(escapedToken: String(child.position)))
                    }
                }
                emit(
                    child.value, key: child.key.map(Key.node), pointer: childPointer, indent: indent + 1,
                    trailingComma: following != nil)
            }
            lineCount += 1
            append("<span class=\"ln\"></span>")
            appendIndentation(indent)
            output.append(byte: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            output.append(byte: UInt8(ascii: "\n"))
        case .string:
            appendString(index, tokenClass: .string)
            if trailingComma { output.append(byte: UInt8(ascii: ",")) }
            endLine(end)
        case .number:
            if !appendPlainToken(range, quoted: false, tokenClass: .number) {
                appendToken(document.value(at: index).number?.text ?? "", quoted: false, tokenClass: .number)
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

    /// Starts the line of the value whose token starts at `offset`: the marked block's element if
    /// a finding is here, the anchors other pages link to, and the gutter with the value's line
    /// and column.
    private mutating func beginLine(at offset: Int, pointer: JSONPointer?) -> LineEnd {
        let position = cursor.position(ofOffset: offset)
        lineCount += 1
        let marks = pointer.flatMap { findings[$0] } ?? []
        let ownIsWanted = isWanted(position)
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
        gutterLine.set(position.line)
        gutterColumn.set(position.column)
        gutterLine.append(to: &output)
        gutterColumn.append(to: &output)
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

    /// Per byte, whether `htmlTextReplacements` (first bit) and `htmlReplacements` (second bit)
    /// replace it: the escaping loops test one flat table and fetch a replacement only for a hit.
    private static let replacedBytes: [UInt8] = (0..<256).map { byte in
        (htmlTextReplacements[byte].isEmpty ? 0 : 1) | (htmlReplacements[byte].isEmpty ? 0 : 2)
    }

    /// How `SnapshotText.html` shows a plain token: as it is (ASCII), or isolated in `<bdi>`.
    enum PlainForm { case ascii, isolated }

    /// The form of text that `JSONValue.quoted` only puts in quotes, that a JSON string holds as it
    /// is, and whose every character `SnapshotText` shows as it is: well-formed UTF-8 with no
    /// control character, backslash or quote, and no hidden character (`VisibleText.isHidden`).
    /// Nil for any other text.
    static func plainForm(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainForm? {
        scan(bytes, quotesAndBackslashes: false)?.form
    }

    /// `plainForm` of text that is not put in a JSON string: backslashes and quotes are plain too.
    static func plainTextForm(_ bytes: UnsafeBufferPointer<UInt8>) -> PlainForm? {
        scan(bytes, quotesAndBackslashes: true)?.form
    }

    /// What `scan` does with each byte: 0 goes on (printable ASCII), 1 goes on and is escaped as
    /// HTML text (`&`, `<`, `>`), 2 is a quote or backslash, 3 stops the scan (a control
    /// character), 4 begins or continues a multi-byte character, 5 goes on and is escaped only
    /// as `MarkupEscaping.html` escapes (`'`).
    private static let scanClasses: [UInt8] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): 1
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): 2
        case 0..<0x20, 0x7F: 3
        case 0x80...: 4
        case UInt8(ascii: "'"): 5
        default: 0
        }
    }

    /// The lanes of a block whose bytes `scanClasses` does not class 0: below U+0020 or from
    /// U+007F on (the subtraction wraps those below into the top), and the six it stops at.
    @inline(__always)
    private static func unplainLanes(_ block: ByteBlocks.Block) -> ByteBlocks.Lanes {
        typealias Block = ByteBlocks.Block
        var lanes = block &- Block(repeating: 0x20) .>= Block(repeating: 0x7F - 0x20)
        lanes = lanes .| (block .== Block(repeating: UInt8(ascii: "&")))
        lanes = lanes .| (block .== Block(repeating: UInt8(ascii: "<")))
        lanes = lanes .| (block .== Block(repeating: UInt8(ascii: ">")))
        lanes = lanes .| (block .== Block(repeating: UInt8(ascii: "\"")))
        lanes = lanes .| (block .== Block(repeating: UInt8(ascii: "\\")))
        return lanes .| (block .== Block(repeating: UInt8(ascii: "'")))
    }

    /// One pass over a token: its `PlainForm` (nil when it is not plain, see `plainForm` and
    /// `plainTextForm`), the offset of its first byte that HTML text escapes, if any, and that of
    /// its first byte that `MarkupEscaping.html` escapes (`&`, `<`, `>`, `"`, `'`), if any.
    /// `path` says how runs of plain ASCII (class 0) are passed in a token of sixteen bytes or
    /// more: sixteen at a time (`ByteBlocks`), or one at a time, the reference the tests compare with.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, quotesAndBackslashes: Bool, path: StructuralIndex.Path = .vector
    ) -> (form: PlainForm, firstEscape: Int?, firstMarkupEscape: Int?)? {
        // A pattern, not `==`: the enum's `==` from another module is a call through its witness.
        let scansBlocks = if case .scalar = path { false } else { bytes.count >= 16 }
        return scanClasses.withUnsafeBufferPointer { classes in
            var isASCII = true
            var firstEscape: Int?
            var firstMarkupEscape: Int?
            // The runs of class 0 sixteen bytes at a time: the first, and each after a byte of
            // another class (below); a short token goes byte by byte, with no test per byte.
            var index = scansBlocks ? ByteBlocks.firstIndex(in: bytes, from: 0, stoppingAt: unplainLanes) : 0
            while index < bytes.count {
                let byte = bytes[index]
                let byteClass = classes[Int(byte)]
                // Tested in the order of how often they come, the first in a tight loop.
                if _fastPath(byteClass == 0) {
                    index += 1
                    continue
                }
                if byteClass == 1 {
                    if firstEscape == nil { firstEscape = index }
                    if firstMarkupEscape == nil { firstMarkupEscape = index }
                    index += 1
                } else if byteClass == 2 {
                    guard quotesAndBackslashes else { return nil }
                    if firstMarkupEscape == nil, byte == UInt8(ascii: "\"") { firstMarkupEscape = index }
                    index += 1
                } else if byteClass == 3 {
                    return nil
                } else if byteClass == 5 {
                    if firstMarkupEscape == nil { firstMarkupEscape = index }
                    index += 1
                } else {
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
                if scansBlocks { index = ByteBlocks.firstIndex(in: bytes, from: index, stoppingAt: unplainLanes) }
            }
            return (isASCII ? .ascii : .isolated, firstEscape, firstMarkupEscape)
        }
    }

    /// Appends `bytes` with `&`, `<` and `>` escaped as `MarkupEscaping.htmlText` escapes them.
    static func appendHTMLText<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        append(bytes, replacing: htmlTextReplacements, bit: 1, to: &output)
    }

    /// `appendHTMLText` of bytes whose first to escape is at `firstEscape` (nil: none), as `scan`
    /// found it: the bytes before it are one piece.
    static func appendHTMLText<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, from firstEscape: Int?, to output: inout Sink) {
        // The table only when there is a byte to replace: reading the lazy global cost its
        // initialisation check on every token (about a million a 1k build), most with none.
        guard let firstEscape else { return output.append(bytes: bytes) }
        append(bytes, from: firstEscape, replacing: htmlTextReplacements, bit: 1, to: &output)
    }

    /// Appends `bytes` with `&`, `<`, `>`, `"` and `'` escaped as `MarkupEscaping.html` escapes them.
    static func appendHTML<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout Sink) {
        append(bytes, replacing: htmlReplacements, bit: 2, to: &output)
    }

    /// `appendHTML` of bytes whose first to escape is at `firstMarkupEscape` (nil: none), as `scan`
    /// found it: the bytes before it are one piece, not tested a second time byte by byte.
    static func appendHTML<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, from firstMarkupEscape: Int?, to output: inout Sink) {
        // As in `appendHTMLText(_:from:to:)`: the table only when there is a byte to replace.
        guard let firstMarkupEscape else { return output.append(bytes: bytes) }
        append(bytes, from: firstMarkupEscape, replacing: htmlReplacements, bit: 2, to: &output)
    }

    /// `append(_:replacing:bit:to:)` of bytes whose first to replace is at `first` (nil: none):
    /// the bytes before it are copied as one piece.
    @inline(__always)
    private static func append<Sink: ByteSink & ~Copyable>(
        _ bytes: UnsafeBufferPointer<UInt8>, from first: Int?, replacing table: [[UInt8]], bit: UInt8, to output: inout Sink
    ) {
        guard let first else {
            output.append(bytes: bytes)
            return
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[..<first]))
        append(UnsafeBufferPointer(rebasing: bytes[first...]), replacing: table, bit: bit, to: &output)
    }

    /// Appends `bytes` with each byte that has a replacement in `table` (`bit` of `replacedBytes`) replaced.
    private static func append<Sink: ByteSink & ~Copyable>(
        _ bytes: UnsafeBufferPointer<UInt8>, replacing table: [[UInt8]], bit: UInt8, to output: inout Sink
    ) {
        var start = 0
        replacedBytes.withUnsafeBufferPointer { replaced in
            for index in 0..<bytes.count where replaced[Int(bytes[index])] & bit != 0 {
                output.append(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                output.append(bytes: table[Int(bytes[index])])
                start = index + 1
            }
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 2 * SourceListing.maximumIndent)

    /// Appends two spaces per level.
    static func appendIndentation<Sink: ByteSink & ~Copyable>(_ levels: Int, to output: inout Sink) {
        spaces.withUnsafeBufferPointer { output.append(bytes: UnsafeBufferPointer(rebasing: $0[..<(2 * levels)])) }
    }

    /// Appends `number` in decimal, as `String(number)` spells it: digit by digit from the
    /// largest power of ten in it (a page spells a number for every token and listing line, and
    /// spelling into a buffer first cost about 160 instructions a number). Below 1,000 (most of
    /// a page's token numbers) each digit is a division by a constant, a multiplication; the
    /// search for the largest power cost about 110 instructions a number, this about 50.
    static func appendDecimal<Sink: ByteSink & ~Copyable>(_ number: Int, to output: inout Sink) {
        if number < 0 {
            output.append(String(number))
            return
        }
        if number < 1000 {
            let value = UInt(number)
            if value >= 100 { output.append(byte: UInt8(ascii: "0") | UInt8(truncatingIfNeeded: value / 100)) }
            if value >= 10 { output.append(byte: UInt8(ascii: "0") | UInt8(truncatingIfNeeded: value / 10 % 10)) }
            output.append(byte: UInt8(ascii: "0") | UInt8(truncatingIfNeeded: value % 10))
            return
        }
        var divisor = 1
        // `divisor * 10` stays at most `number`, so it cannot overflow.
        while divisor <= number / 10 { divisor *= 10 }
        repeat {
            output.append(byte: UInt8(ascii: "0") + UInt8(number / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }
}

/// A number in decimal between a fixed prefix and suffix, kept as text and changed in place: the
/// gutter's line and column numbers mostly grow by a little from one line to the next, and adding
/// the difference to the digits touches a digit or two where spelling the number afresh divides
/// once per digit (`ListingBytes.appendDecimal` spells the same text). A smaller number, or one
/// much larger, is spelled afresh.
struct DecimalText {
    /// The text: the prefix, then the digits ending at `digitsEnd`, then the suffix.
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private static let digitsEnd = 40
    private let prefix: StaticString
    private let suffixLength: Int
    private var value = 0
    /// Digits, with the sign of a negative number.
    private var digitCount = 1

    /// At most 20 bytes of prefix and 24 of suffix; the number starts at 0.
    init(prefix: StaticString, suffix: StaticString) {
        precondition(prefix.utf8CodeUnitCount <= 20 && suffix.utf8CodeUnitCount <= 24)
        self.prefix = prefix
        suffixLength = suffix.utf8CodeUnitCount
        withUnsafeMutableBytes(of: &storage) { text in
            text[Self.digitsEnd - 1] = UInt8(ascii: "0")
            UnsafeMutableRawBufferPointer(rebasing: text[Self.digitsEnd...]).copyMemory(
                from: UnsafeRawBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
        }
        writePrefix()
    }

    private mutating func writePrefix() {
        let start = Self.digitsEnd - digitCount - prefix.utf8CodeUnitCount
        let prefix = prefix
        withUnsafeMutableBytes(of: &storage) { text in
            UnsafeMutableRawBufferPointer(rebasing: text[start...]).copyMemory(
                from: UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
        }
    }

    var number: Int { value }

    mutating func set(_ number: Int) {
        guard number != value else { return }
        let oldCount = digitCount
        if value >= 0, number > value, number - value < 1 << 32 {
            // Add the difference digit by digit from the last, carrying.
            var carry = number - value
            var index = Self.digitsEnd - 1
            withUnsafeMutableBytes(of: &storage) { text in
                while carry > 0 {
                    if index < Self.digitsEnd - digitCount {
                        text[index] = UInt8(ascii: "0")
                        digitCount += 1
                    }
                    let sum = Int(text[index] - UInt8(ascii: "0")) + carry
                    text[index] = UInt8(ascii: "0") + UInt8(sum % 10)
                    carry = sum / 10
                    index -= 1
                }
            }
        } else if number >= 0 {
            var rest = number
            var count = 0
            withUnsafeMutableBytes(of: &storage) { text in
                repeat {
                    text[Self.digitsEnd - 1 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
            }
            digitCount = count
        } else {
            let digits = Array(String(number).utf8)
            digitCount = digits.count
            withUnsafeMutableBytes(of: &storage) { text in
                for (offset, digit) in digits.enumerated() { text[Self.digitsEnd - digits.count + offset] = digit }
            }
        }
        value = number
        if digitCount != oldCount { writePrefix() }
    }

    /// Appends the prefix, the number and the suffix.
    func append<Sink: ByteSink & ~Copyable>(to output: inout Sink) {
        let start = Self.digitsEnd - digitCount - prefix.utf8CodeUnitCount
        let end = Self.digitsEnd + suffixLength
        withUnsafeBytes(of: storage) { text in
            output.append(bytes: UnsafeRawBufferPointer(rebasing: text[start..<end]).assumingMemoryBound(to: UInt8.self))
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
            var index = state.offset
            var byteByByteUntil = index
            guard let base = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            while index < offset {
                // Sixteen bytes at once when they are ASCII with no line feed (most of a
                // listing): the column grows by sixteen. Any other sixteen go as below.
                if index >= byteByByteUntil, index + 16 <= offset {
                    let block = raw.loadUnaligned(fromByteOffset: index, as: ByteBlocks.Block.self)
                    let lanes = (block .== ByteBlocks.Block(repeating: 0x0A)) .| (block .>= ByteBlocks.Block(repeating: 0x80))
                    if !ByteBlocks.anyLane(lanes) {
                        state.column += 16
                        index += 16
                        continue
                    }
                }
                // Eight bytes at once when they hold no line feed: the column grows by those that
                // are not continuation bytes (10xxxxxx). Eight with a line feed go byte by byte.
                if index >= byteByByteUntil, index + 8 <= offset {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let feeds = word ^ 0x0A0A_0A0A_0A0A_0A0A
                    if (feeds &- 0x0101_0101_0101_0101) & ~feeds & 0x8080_8080_8080_8080 == 0 {
                        state.column += 8 - (word & ~(word << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                        index += 8
                        continue
                    }
                    byteByByteUntil = index + 8
                }
                let byte = buffer[index]
                if byte == 0x0A {
                    state.line += 1
                    state.column = 1
                } else if byte & 0xC0 != 0x80 {
                    state.column += 1
                }
                index += 1
            }
        }
        state.offset = offset
        last = state
        return JSONDocument.Position(line: state.line, column: state.column)
    }
}
