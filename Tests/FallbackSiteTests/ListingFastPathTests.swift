import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The source listing's fast path (issue 10, render cost): one output string instead of a line
/// array, and JSON Pointers built only above a finding. The listing must stay byte for byte what
/// the line-array implementation (kept below as the reference) wrote, on hostile values too.
@Suite("Source listing fast path")
struct ListingFastPathTests {
    /// Keys with `/`, `~`, the empty key, markup, bidi controls, non-ASCII, repeated keys, long
    /// strings, deep nesting and arrays of objects.
    static let hostile: String = {
        let long = String(repeating: "é<&>\"", count: 300)
        var nested = "1"
        for depth in 0..<40 { nested = "{\"d\(depth)\":[\(nested),\"x\"]}" }
        return #"{"k":{"a/b":{"~0":[1,{"":"<script>alert(1)</script>"}]},"":"empty key","x":"\u202Eevil","dup":1,"dup":2,"#
            + #""long":""# + long + #"","ü/~1":{"q":"\"quoted\" 'single'","n":-0.0e+00},"arr":[[],{},[{"a":null,"b":true}]],"#
            + #""deep":"# + nested + "}}"
    }()

    /// Every value's pointer below `/k` (as the listing writes them), plus pointers nothing has.
    static func pointers(in value: JSONDocument.Value) -> [String] {
        var result = [value.pointer]
        for member in value.members { result += pointers(in: member.value) }
        for element in value.elements { result += pointers(in: element) }
        return result
    }

    static func findings(at pointers: [String], in document: JSONDocument) -> [Finding] {
        pointers.enumerated().map { index, pointer in
            Finding(
                ruleId: index % 2 == 0 ? "number-bad" : "duplicate-key", severity: [.info, .warning, .error][index % 3], message: "m",
                placementKey: "k", pointer: pointer, line: 1, column: index + 1)
        }
    }

    static func bothListings(_ text: String, findings: (JSONDocument, [String]) -> [Finding], anchors: [String] = []) -> (String, String) {
        let document = JSONDocument(text: text)
        let value = document.root.members[0].value
        let marks = findings(document, pointers(in: value))
        return (
            SourceListing.html(for: value, key: "k", findings: marks, linkedFrom: anchors),
            ReferenceSourceListing.html(for: value, key: "k", findings: marks, linkedFrom: anchors)
        )
    }

    @Test(arguments: [0, 1, 2, 3, 7, 1000])
    func everyNthValueMarkedListsAsTheReferenceDoes(stride: Int) {
        let (fast, reference) = Self.bothListings(Self.hostile, findings: { document, pointers in
            guard stride > 0 else { return [] }
            let chosen = pointers.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
            // Pointers no value has (a sibling, a child of a scalar, the parent of the listing) mark nothing, as before.
            return Self.findings(at: chosen + ["/k/a/b", "/k/dup/0", "/k/zz", "/k/a~1b/~00", "", "/"], in: document)
        }, anchors: ["L1-5", "L9-99"])
        #expect(fast == reference)
        #expect(fast.contains("is-marked") == (stride > 0))
    }

    @Test func theDeepestValueMarkedAloneListsAsTheReferenceDoes() throws {
        let (fast, reference) = Self.bothListings(Self.hostile, findings: { document, pointers in
            Self.findings(at: [pointers.max { $0.utf8.count < $1.utf8.count }!], in: document)
        })
        #expect(fast == reference)
        #expect(fast.components(separatedBy: "is-marked").count == 2)
    }

    @Test func aListingPastItsLineLimitStopsAsTheReferenceDoes() {
        let text = #"{"k":["# + (0..<5000).map { #"{"i":\#($0),"é":"<b>"}"# }.joined(separator: ",") + "]}"
        let (fast, reference) = Self.bothListings(text, findings: { document, pointers in
            Self.findings(at: [pointers[3], pointers[pointers.count - 1]], in: document)
        })
        #expect(fast == reference)
        #expect(fast.contains("the listing stops at"))
    }
}

/// `SourceListing` as it was before the fast path (line array, every pointer built), for comparison.
struct ReferenceSourceListing {
    static let maximumLines = 4000
    static let maximumStringLength = 400
    static let maximumIndent = 32

    /// The id of the line a finding or change at `line`, `column` links to.
    static func anchor(line: Int, column: Int) -> String { SourceListing.anchor(line: line, column: column) }

    /// Findings by JSON Pointer (compared by bytes).
    let findings: [ExactKey: [Finding]]
    /// Anchors other pages link to, in order, and as a set.
    private let linkedAnchors: [String]
    private let wantedAnchors: Set<String>
    private var placedAnchors: Set<String> = []
    private(set) var lines: [String] = []
    private var truncated = false

    init(findings: [Finding], linkedFrom anchors: [String]) {
        self.findings = Dictionary(grouping: findings, by: { ExactKey($0.pointer) })
        linkedAnchors = findings.map { Self.anchor(line: $0.line, column: $0.column) } + anchors
        wantedAnchors = Set(linkedAnchors)
    }

    /// The listing of `value`, whose own key (if any) is `key`; `anchors` are the further
    /// `L<line>-<column>` ids other pages link to (changes).
    static func html(for value: JSONDocument.Value, key: String?, findings: [Finding], linkedFrom anchors: [String] = []) -> String {
        var listing = ReferenceSourceListing(findings: findings, linkedFrom: anchors)
        listing.emit(value, key: key, pointer: value.pointer, indent: 0, trailingComma: false)
        // Anchors whose position no line starts at (a repeated key, a value past the end of the listing).
        let rest = listing.unplacedAnchors()
        if listing.truncated || !rest.isEmpty {
            let note = listing.truncated ? "… the listing stops at \(maximumLines) lines" : ""
            listing.lines.append("\(rest)<span class=\"ln\"></span>\(note)\n")
        }
        return "<pre class=\"source\"><code>" + listing.lines.joined() + "</code></pre>"
    }

    /// `text` (a key, a string, a number) as the listing shows it: quoted when `quoted`, cut with its length when long.
    private static func token(_ text: String, quoted: Bool, tokenClass: String) -> String {
        let (kept, note) = SnapshotText.cut(text, limit: maximumStringLength)
        let shown = note == nil ? kept : kept + "…"
        let text = SnapshotText.html(quoted ? JSONValue.quoted(shown) : shown, limit: nil, escaping: .htmlText)
        var html = "<span class=\"\(tokenClass)\">\(text)</span>"
        if let note { html += " <span class=\"note\">(\(note))</span>" }
        return html
    }

    private mutating func emit(_ value: JSONDocument.Value, key: String?, pointer: String, indent: Int, trailingComma: Bool) {
        guard lines.count < Self.maximumLines else {
            truncated = true
            return
        }
        let indentation = String(repeating: "  ", count: min(indent, Self.maximumIndent))
        let prefix = indentation + (key.map { Self.token($0, quoted: true, tokenClass: "k") + ": " } ?? "")
        let comma = trailingComma ? "," : ""
        switch value.kind {
        case .object, .array:
            let isObject = value.kind == .object
            let (open, close) = isObject ? ("{", "}") : ("[", "]")
            if value.count == 0 {
                line(for: value, pointer: pointer, text: prefix + open + close + comma)
                return
            }
            line(for: value, pointer: pointer, text: prefix + open)
            if isObject {
                let members = value.members
                for (index, member) in members.enumerated() {
                    let childPointer = pointer + "/" + JSONDocument.escapePointerToken(member.key)
                    emit(member.value, key: member.key, pointer: childPointer, indent: indent + 1, trailingComma: index < members.count - 1)
                }
            } else {
                let elements = value.elements
                for (index, element) in elements.enumerated() {
                    emit(element, key: nil, pointer: pointer + "/\(index)", indent: indent + 1, trailingComma: index < elements.count - 1)
                }
            }
            lines.append("<span class=\"ln\"></span>\(indentation)\(close)\(comma)\n")
        default:
            line(for: value, pointer: pointer, text: prefix + scalar(value) + comma)
        }
    }

    private func scalar(_ value: JSONDocument.Value) -> String {
        switch value.kind {
        case .string: return Self.token(value.string ?? "", quoted: true, tokenClass: "s")
        case .number: return Self.token(value.number?.text ?? "", quoted: false, tokenClass: "n")
        case .true: return "<span class=\"lit\">true</span>"
        case .false: return "<span class=\"lit\">false</span>"
        default: return "<span class=\"lit\">null</span>"
        }
    }

    private mutating func line(for value: JSONDocument.Value, pointer: String, text: String) {
        let position = value.position
        let marks = findings[ExactKey(pointer)] ?? []
        // Findings link here by their own line and column (a key's finding sits at the key), changes by the value's.
        var anchorHTML = ""
        let own = Self.anchor(line: position.line, column: position.column)
        let anchors = marks.map { Self.anchor(line: $0.line, column: $0.column) } + (wantedAnchors.contains(own) ? [own] : [])
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
        let content = "\(anchorHTML)<span class=\"ln\">\(position.line):\(position.column)</span>\(text)\(notes)\n"
        // Only a marked line is an element (a block, for its background); its line feed ends it.
        if let worst = marks.map(\.severity).max() {
            lines.append("<span class=\"line is-marked sev-\(worst.rawValue)\">\(content)</span>")
        } else {
            lines.append(content)
        }
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
