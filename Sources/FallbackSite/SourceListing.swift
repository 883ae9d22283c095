import FallbackAudit
import RovenueFallback

/// A value of the snapshot pretty-printed as HTML, each line numbered with the source line and
/// column its value starts at, and each line that a finding points to marked and anchored.
struct SourceListing {
    static let maximumLines = 4000
    static let maximumStringLength = 400

    /// Findings by JSON Pointer.
    let findings: [String: [Finding]]
    private(set) var lines: [String] = []
    private var truncated = false

    init(findings: [Finding]) {
        self.findings = Dictionary(grouping: findings, by: \.pointer)
    }

    /// The listing of `value`, whose own key (if any) is `key`.
    static func html(for value: JSONDocument.Value, key: String?, findings: [Finding]) -> String {
        var listing = SourceListing(findings: findings)
        listing.emit(value, key: key, pointer: value.pointer, indent: 0, trailingComma: false)
        var html = "<pre class=\"source\"><code>" + listing.lines.joined()
        if listing.truncated {
            html += "<span class=\"line\"><span class=\"ln\"></span><span class=\"lc\">… the listing stops at \(maximumLines) lines</span></span>\n"
        }
        return html + "</code></pre>"
    }

    private static func punctuation(_ text: String) -> String { "<span class=\"tok-punct\">\(text)</span>" }

    private mutating func emit(_ value: JSONDocument.Value, key: String?, pointer: String, indent: Int, trailingComma: Bool) {
        guard lines.count < Self.maximumLines else {
            truncated = true
            return
        }
        let indentation = String(repeating: "  ", count: indent)
        let prefix = indentation + (key.map { "<span class=\"tok-key\">\(HTML.escape(JSONValue.quoted($0)))</span>: " } ?? "")
        let comma = trailingComma ? Self.punctuation(",") : ""
        switch value.kind {
        case .object, .array:
            let isObject = value.kind == .object
            let (open, close) = isObject ? ("{", "}") : ("[", "]")
            if value.count == 0 {
                line(for: value, pointer: pointer, text: prefix + Self.punctuation(open + close) + comma)
                return
            }
            line(for: value, pointer: pointer, text: prefix + Self.punctuation(open))
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
            lines.append("<span class=\"line\"><span class=\"ln\"></span><span class=\"lc\">\(indentation)\(Self.punctuation(close))\(comma)</span></span>\n")
        default:
            line(for: value, pointer: pointer, text: prefix + scalar(value) + comma)
        }
    }

    private func scalar(_ value: JSONDocument.Value) -> String {
        switch value.kind {
        case .string:
            var text = value.string ?? ""
            if text.count > Self.maximumStringLength { text = String(text.prefix(Self.maximumStringLength)) + "…" }
            return "<span class=\"tok-string\">\(HTML.escape(JSONValue.quoted(text)))</span>"
        case .number: return "<span class=\"tok-number\">\(HTML.escape(value.number?.text ?? ""))</span>"
        case .true: return "<span class=\"tok-literal\">true</span>"
        case .false: return "<span class=\"tok-literal\">false</span>"
        default: return "<span class=\"tok-literal\">null</span>"
        }
    }

    private mutating func line(for value: JSONDocument.Value, pointer: String, text: String) {
        let position = value.position
        let marks = findings[pointer] ?? []
        var classes = "line"
        if let worst = marks.map(\.severity).max() { classes += " is-marked sev-\(worst.rawValue)" }
        // Findings link here by their own line and column (a key's finding sits at the key).
        var anchors: [String] = []
        for mark in marks where !anchors.contains("L\(mark.line)-\(mark.column)") { anchors.append("L\(mark.line)-\(mark.column)") }
        let anchorHTML = anchors.map { "<span id=\"\($0)\"></span>" }.joined()
        let notes = marks.map { " <mark>\(HTML.escape($0.ruleId))</mark>" }.joined()
        lines.append(
            "<span class=\"\(classes)\">\(anchorHTML)<span class=\"ln\">\(position.line):\(position.column)</span><span class=\"lc\">\(text)\(notes)</span></span>\n")
    }
}
