import FallbackAudit

/// Escaping for GitHub-Flavored Markdown, so text from a snapshot or a path renders as itself in a
/// paragraph, a heading, a list item or a table cell, and never as markup.
public enum MarkdownEscaping {
    /// `text` as inline Markdown that renders as itself.
    ///
    /// Every ASCII punctuation character is backslash-escaped (so `|` cannot end a table cell, `<`
    /// cannot open a tag and `` ` `` cannot open a code span), a line break becomes `<br>`, other
    /// C0 control characters become U+FFFD, the other hidden characters of `VisibleText` (bidi
    /// controls, C1 controls) are spelled out (`<U+202E>`), and `@` is followed by a zero-width
    /// space so GitHub reads no mention.
    public static func inline(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { previousWasCarriageReturn = scalar == "\r" }
            switch scalar.value {
            case 0x0A where previousWasCarriageReturn:
                continue
            case 0x0A, 0x0D:
                output += "<br>"
            case 0x09:
                output += " "
            case 0x00..<0x20, 0x7F:
                output.unicodeScalars.append("\u{FFFD}")
            case 0x40:
                output += "\\@\u{200B}"
            case 0x21...0x2F, 0x3A...0x3F, 0x5B...0x60, 0x7B...0x7E:
                output += "\\"
                output.unicodeScalars.append(scalar)
            case _ where VisibleText.isHidden(scalar):
                output += "\\" + VisibleText.visibleName(of: scalar).dropLast() + "\\>"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `text` escaped as `inline`, in a `<code>` element (a code span's backticks could not hold it safely).
    public static func code(_ text: String) -> String {
        "<code>" + inline(text) + "</code>"
    }

    /// At most `limit` characters of `text`, ending with `…` when cut.
    public static func truncated(_ text: String, to limit: Int) -> String {
        // Counted no further than one past the limit: a placement key can be a megabyte, and
        // every finding's annotation title names it.
        guard Format.characterCount(of: text, upTo: limit + 1) > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// A URL as a link destination: spaces, controls and the characters that could end the
    /// destination or a table cell are percent-encoded.
    public static func linkDestination(_ url: String) -> String {
        var output = ""
        for byte in url.utf8 {
            switch byte {
            case 0x00...0x20, 0x7F...0xFF, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "|"), UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                output += "%" + hex(byte)
            default:
                output.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return output
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
