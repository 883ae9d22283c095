import RovenueFallback

/// `MarkupEscaping`'s XML contexts with a fast path for text that needs no escape, which is nearly
/// every message, path and key of a JUnit report: its UTF-8 is checked once, and only text that
/// holds a character either context changes goes through `MarkupEscaping`, scalar by scalar.
enum XMLEscaping {
    /// `MarkupEscaping.xmlText(text)`.
    static func text(_ text: String) -> String {
        mayChange(text, inAttribute: false) ? MarkupEscaping.xmlText(text) : text
    }

    /// `MarkupEscaping.xmlAttribute(text)`.
    static func attribute(_ text: String) -> String {
        mayChange(text, inAttribute: true) ? MarkupEscaping.xmlAttribute(text) : text
    }

    /// False only when escaping leaves `text` as it is: no `&`, `<`, `>`, no control character but
    /// a line feed or tab in text, no quote, line feed or tab in an attribute, and no byte `EF`
    /// (the lead byte of U+FFFE and U+FFFF, which are replaced).
    static func mayChange(_ text: String, inAttribute: Bool) -> Bool {
        text.utf8.contains { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0xEF: true
            case UInt8(ascii: "\""): inAttribute
            case 0x0A, 0x09: inAttribute
            case 0..<0x20: true
            default: false
            }
        }
    }
}
