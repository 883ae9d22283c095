/// Text made inert in markup: the one escaper for pages, drawings and reports.
///
/// Four contexts, one rule table:
/// - `html`: HTML (and SVG) text and quoted attribute values. `&`, `<`, `>`, `"` and `'` become
///   `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`; nothing else changes.
/// - `htmlText`: HTML text between tags only (never an attribute value): `&`, `<` and `>`, which
///   are all a tokenizer reads there; quotes stay as they are (a source listing full of JSON
///   strings is a third lighter for it).
/// - `xmlText` and `xmlAttribute`: XML 1.0 (JUnit reports). `&`, `<` and `>` become references;
///   in an attribute also `"`, and tab, line feed and carriage return (as `&#9;`, `&#10;`, `&#13;`)
///   so a parser does not normalise them to spaces; in text a carriage return is `&#13;` for the
///   same reason. Characters XML 1.0 cannot carry at all (controls other than tab, line feed and
///   carriage return; U+FFFE, U+FFFF) become U+FFFD.
public enum MarkupEscaping: Sendable {
    /// HTML (and SVG) text and quoted attribute values.
    case html
    /// HTML text content between tags; not for attribute values.
    case htmlText
    /// XML 1.0 character data.
    case xmlText
    /// A double-quoted XML 1.0 attribute value.
    case xmlAttribute

    /// `text` escaped for HTML text or a quoted attribute value.
    public static func html(_ text: String) -> String { MarkupEscaping.html.escape(text) }

    /// `text` escaped for XML 1.0 character data.
    public static func xmlText(_ text: String) -> String { MarkupEscaping.xmlText.escape(text) }

    /// `text` escaped for a double-quoted XML 1.0 attribute value.
    public static func xmlAttribute(_ text: String) -> String { MarkupEscaping.xmlAttribute.escape(text) }

    /// `text` escaped for this context.
    public func escape(_ text: String) -> String {
        if self == .html,
            !text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        {
            return text
        }
        if self == .htmlText, !text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars { append(scalar, to: &output) }
        return output
    }

    /// Appends `scalar` to `output`, escaped for this context.
    public func append(_ scalar: Unicode.Scalar, to output: inout String) {
        let attribute = self == .xmlAttribute
        switch scalar {
        case "&": output += "&amp;"
        case "<": output += "&lt;"
        case ">": output += "&gt;"
        case "\"" where self == .html || attribute: output += "&quot;"
        case "'" where self == .html: output += "&#39;"
        case _ where self == .html || self == .htmlText: output.unicodeScalars.append(scalar)
        case "\r": output += "&#13;"
        case "\n" where attribute: output += "&#10;"
        case "\t" where attribute: output += "&#9;"
        case "\n", "\t": output.unicodeScalars.append(scalar)
        case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": output.unicodeScalars.append("\u{FFFD}")
        default: output.unicodeScalars.append(scalar)
        }
    }
}
