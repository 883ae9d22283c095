/// Characters that text from a snapshot, a path or a commit must never carry as they are to a
/// reader, and how they are spelled out instead: `<U+202E>`.
///
/// Bidi controls reorder what a reader sees (a key can pose as another), C0 and C1 controls drive
/// terminals (`ESC [` moves the cursor or recolours the log) and a line break inside one finding
/// starts a line that a CI log reads as its own (`::error::…` in GitHub Actions). The site
/// (`SnapshotText`) and the command line's text output spell them out through this one type.
public enum VisibleText {
    /// Bidi formatting characters: embeddings, overrides and pops (U+202A–U+202E), isolates
    /// (U+2066–U+2069) and marks (U+200E, U+200F, U+061C).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Characters never shown as they are: bidi controls, C0 controls other than tab, line feed
    /// and carriage return, DEL, C1 controls, the line and paragraph separators (U+2028, U+2029)
    /// and the noncharacters U+FFFE and U+FFFF.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF: true
        default: isBidiControl(scalar)
        }
    }

    /// How a hidden character is spelled out: `<U+202E>`.
    public static func visibleName(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
    }

    /// `text` for a terminal or a log, with every hidden character spelled out; line feeds and
    /// carriage returns too unless `keepingLineBreaks` (for a message of several lines the tool
    /// wrote itself). Text with nothing to spell out is returned as it is, without copying.
    public static func forTerminal(_ text: String, keepingLineBreaks: Bool = false) -> String {
        func spelled(_ scalar: Unicode.Scalar) -> Bool {
            isHidden(scalar) || (!keepingLineBreaks && (scalar == "\n" || scalar == "\r"))
        }
        // Every character to spell out is a control, DEL, or at least three bytes of UTF-8 past
        // U+0600: a quick byte test skips plain text.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 >= 0xC2 }),
            text.unicodeScalars.contains(where: spelled)
        else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if spelled(scalar) {
                result.append(contentsOf: visibleName(of: scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
