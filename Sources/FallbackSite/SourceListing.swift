import FallbackAudit
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
struct SourceListing {
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
    private var placedAnchors: Set<String> = []
    /// The listing's lines so far, one after the other.
    private(set) var output = "<pre class=\"source\"><code>"
    private var lineCount = 0
    private var truncated = false

    init(findings: [Finding], linkedFrom anchors: [String]) {
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
    }

    /// The listing of `value`, whose own key (if any) is `key`; `anchors` are the further
    /// `L<line>-<column>` ids other pages link to (changes).
    static func html(for value: JSONDocument.Value, key: String?, findings: [Finding], linkedFrom anchors: [String] = []) -> String {
        var listing = SourceListing(findings: findings, linkedFrom: anchors)
        listing.output.reserveCapacity(min(value.byteRange.count, 1 << 20) * 2 + 64)
        listing.emit(value, key: key, pointer: listing.markedPointer(value.pointer), indent: 0, trailingComma: false)
        // Anchors whose position no line starts at (a repeated key, a value past the end of the listing).
        let rest = listing.unplacedAnchors()
        if listing.truncated || !rest.isEmpty {
            let note = listing.truncated ? "… the listing stops at \(maximumLines) lines" : ""
            listing.output += rest + "<span class=\"ln\"></span>" + note + "\n"
        }
        listing.output += "</code></pre>"
        return listing.output
    }

    /// `pointer` when a finding lies at or below it, else nil.
    private func markedPointer(_ pointer: String) -> String? {
        markedPaths.contains(ExactKey(pointer)) ? pointer : nil
    }

    /// Appends `text` (a key, a string, a number) as the listing shows it: quoted when `quoted`,
    /// cut with its length when long.
    private mutating func appendToken(_ text: String, quoted: Bool, tokenClass: String) {
        let (kept, note) = SnapshotText.cut(text, limit: Self.maximumStringLength)
        let shown = note == nil ? kept : kept + "…"
        output += "<span class=\""
        output += tokenClass
        output += "\">"
        output += SnapshotText.html(quoted ? JSONValue.quoted(shown) : shown, limit: nil, escaping: .htmlText)
        output += "</span>"
        if let note {
            output += " <span class=\"note\">("
            output += note
            output += ")</span>"
        }
    }

    /// `pointer` is the value's JSON Pointer, nil when no finding lies at or below it.
    private mutating func emit(_ value: JSONDocument.Value, key: String?, pointer: String?, indent: Int, trailingComma: Bool) {
        guard lineCount < Self.maximumLines else {
            truncated = true
            return
        }
        let indentation = String(repeating: "  ", count: min(indent, Self.maximumIndent))
        let comma = trailingComma ? "," : ""
        let end = beginLine(for: value, pointer: pointer)
        output += indentation
        if let key {
            appendToken(key, quoted: true, tokenClass: "k")
            output += ": "
        }
        switch value.kind {
        case .object, .array:
            let isObject = value.kind == .object
            let (open, close) = isObject ? ("{", "}") : ("[", "]")
            output += open
            if value.count == 0 {
                output += close
                output += comma
                endLine(end)
                return
            }
            endLine(end)
            if isObject {
                let members = value.members
                for (index, member) in members.enumerated() {
                    let childPointer = pointer.flatMap { markedPointer($0 + "/" + JSONDocument.escapePointerToken(member.key)) }
                    emit(member.value, key: member.key, pointer: childPointer, indent: indent + 1, trailingComma: index < members.count - 1)
                }
            } else {
                let elements = value.elements
                for (index, element) in elements.enumerated() {
                    emit(element, key: nil, pointer: pointer.flatMap { markedPointer($0 + "/" + String(index)) }, indent: indent + 1, trailingComma: index < elements.count - 1)
                }
            }
            lineCount += 1
            output += "<span class=\"ln\"></span>"
            output += indentation
            output += close
            output += comma
            output += "\n"
        case .string:
            appendToken(value.string ?? "", quoted: true, tokenClass: "s")
            output += comma
            endLine(end)
        case .number:
            appendToken(value.number?.text ?? "", quoted: false, tokenClass: "n")
            output += comma
            endLine(end)
        default:
            output += value.kind == .true ? "<span class=\"lit\">true</span>" : value.kind == .false ? "<span class=\"lit\">false</span>" : "<span class=\"lit\">null</span>"
            output += comma
            endLine(end)
        }
    }

    /// What ends a line `beginLine` began: the rules marked on it, and whether it is a marked block.
    private struct LineEnd {
        let notes: String
        let isMarked: Bool
    }

    /// Starts the line of `value`: the marked block's element if a finding is here, the anchors
    /// other pages link to, and the gutter with the value's line and column.
    private mutating func beginLine(for value: JSONDocument.Value, pointer: String?) -> LineEnd {
        let position = value.position
        let marks = pointer.flatMap { findings[ExactKey($0)] } ?? []
        // Findings link here by their own line and column (a key's finding sits at the key), changes by the value's.
        var anchorHTML = ""
        let own = wantedAnchors.isEmpty ? nil : Self.anchor(line: position.line, column: position.column)
        let anchors = marks.map { Self.anchor(line: $0.line, column: $0.column) } + (own.map { wantedAnchors.contains($0) ? [$0] : [] } ?? [])
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
        lineCount += 1
        // Only a marked line is an element (a block, for its background); its line feed ends it.
        let worst = marks.map(\.severity).max()
        if let worst { output += "<span class=\"line is-marked sev-" + worst.rawValue + "\">" }
        output += anchorHTML
        output += "<span class=\"ln\">"
        output += String(position.line)
        output += ":"
        output += String(position.column)
        output += "</span>"
        return LineEnd(notes: notes, isMarked: worst != nil)
    }

    private mutating func endLine(_ end: LineEnd) {
        output += end.notes
        output += "\n"
        if end.isMarked { output += "</span>" }
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
