import Foundation

/// Characters that text from a snapshot, a path or a commit must never carry as they are to a
/// reader, and how they are spelled out instead: `<U+202E>`.
///
/// Bidi controls reorder what a reader sees (a key can pose as another), C0 and C1 controls drive
/// terminals (`ESC [` moves the cursor or recolours the log) and a line break inside one finding
/// starts a line that a CI log reads as its own (`::error::…` in GitHub Actions). The site
/// (`SnapshotText`) and the command line's text output spell them out through this one type.
///
/// Text that is not in Unicode Normalization Form C looks exactly like the text it normalises to,
/// yet a key or id is compared byte for byte: `café` decomposed (e + U+0301) is another placement
/// than `café` composed (U+00E9). In such text `forTerminal(_:keepingLineBreaks:)` also spells
/// out the characters that make it so (`cafe<U+0301>`); text in NFC, nearly all text, is unchanged.
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
        let decomposed = isDecomposed(text)
        func spelled(_ scalar: Unicode.Scalar) -> Bool {
            isHidden(scalar) || (!keepingLineBreaks && (scalar == "\n" || scalar == "\r"))
                || (decomposed && isUncomposed(scalar))
        }
        // Every character to spell out is a control, DEL, or at least two bytes of UTF-8 (hidden
        // characters past U+0600, or any in text not in NFC): a quick byte test skips plain text.
        guard !isPrintableASCII(text), text.unicodeScalars.contains(where: spelled) else { return text }
        return spellingOut(text, where: spelled)
    }

    /// True when every byte of `text` is printable ASCII (U+0020 to U+007E): then it has no
    /// character to spell out, hidden or a line break, since each of those is a C0 control, DEL or
    /// a scalar past U+007F. A test of the bytes that lets nearly all text skip decoding its
    /// scalars (the site's spelling out of ids and labels cost about 48 M instructions of the
    /// 1k build that way).
    public static func isPrintableASCII(_ text: String) -> Bool {
        // One wrapping subtraction a byte: 0x20...0x7E maps to 0...0x5E, every other byte above.
        let printable = { (bytes: UnsafeBufferPointer<UInt8>) in !bytes.contains { $0 &- 0x20 > 0x5E } }
        return text.utf8.withContiguousStorageIfAvailable(printable) ?? Array(text.utf8).withUnsafeBufferPointer(printable)
    }

    /// `text` with each character `spelled` picks replaced by its visible name (`visibleName(of:)`).
    /// Written as UTF-8 bytes in one pass: appending a name's scalars to a `String.UnicodeScalarView`
    /// copies the whole view each time, so N characters to spell out cost N² bytes copied (20,000
    /// combining marks, 6.4 G instructions of copying).
    public static func spellingOut(_ text: String, where spelled: (Unicode.Scalar) -> Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 64)
        for scalar in text.unicodeScalars {
            if spelled(scalar) {
                bytes.append(contentsOf: visibleName(of: scalar).utf8)
            } else {
                Unicode.UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when `text` is not in Unicode Normalization Form C, so that it prints exactly like
    /// different bytes that are. ASCII text is in NFC and is not normalised to tell.
    ///
    /// Normalised a piece at a time: Foundation's normaliser moves the rest of its buffer at each
    /// composition, so a long text that composes took time in its length squared (400,000 `e` and
    /// U+0301 pairs in a key, 22 s of a history report). A piece ends before an ASCII character,
    /// which no character before it composes with or reorders past, and, once it is 64 characters
    /// long, before any other starter that never composes with what precedes it
    /// (`composesWithPrevious`); each piece is in NFC exactly when the whole text is.
    public static func isDecomposed(_ text: String) -> Bool {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        if hasMarksOutOfOrder(text) { return true }
        let scalars = text.unicodeScalars
        var pieceStart = scalars.startIndex
        var pieceLength = 0
        var pieceHasNonASCII = false
        func pieceIsDecomposed(to end: String.UnicodeScalarView.Index) -> Bool {
            guard pieceHasNonASCII else { return false }
            let piece = Substring(text.unicodeScalars[pieceStart..<end])
            return !piece.utf8.elementsEqual(piece.precomposedStringWithCanonicalMapping.utf8)
        }
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let boundary = scalar.isASCII
                || (pieceLength >= 64 && scalar.properties.canonicalCombiningClass == .notReordered && !composesWithPrevious(scalar))
            if boundary, pieceLength > 0 {
                if pieceIsDecomposed(to: index) { return true }
                (pieceStart, pieceLength, pieceHasNonASCII) = (index, 0, false)
            }
            pieceLength += 1
            if !scalar.isASCII { pieceHasNonASCII = true }
            scalars.formIndex(after: &index)
        }
        return pieceIsDecomposed(to: scalars.endIndex)
    }

    /// True for a starter (canonical combining class 0) that NFC may compose with the character
    /// before it (Unicode's NFC_Quick_Check=Maybe starters): Hangul vowel and final consonant
    /// jamo, and vowel and length signs of Indic and other scripts. Other starters begin a piece
    /// `isDecomposed` may normalise apart from what precedes it.
    static func composesWithPrevious(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57, 0x0DCF, 0x0DDF,
            0x102E, 0x1161...0x1175, 0x11A8...0x11C2, 0x1B35, 0x110BA, 0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA, 0x114BD,
            0x115AF, 0x11930:
            true
        default:
            false
        }
    }

    /// True when two combining marks side by side are out of canonical order (the first's combining
    /// class above the second's, both above zero): NFC orders them, so such text is not in NFC.
    /// Answered in one pass, before normalising: the normaliser sorts a run of marks by insertion,
    /// so a run of N marks out of order cost N² steps (20,000 of them, 26 G instructions). Text with
    /// no such pair has its marks in order, and normalising it sorts nothing.
    static func hasMarksOutOfOrder(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for scalar in text.unicodeScalars {
            guard scalar.value >= 0x300 else {
                previous = 0
                continue
            }
            let combining = scalar.properties.canonicalCombiningClass.rawValue
            if combining != 0, previous > combining { return true }
            previous = combining
        }
        return false
    }

    /// A character that NFC would compose with its neighbours or replace: a combining mark, a
    /// Hangul vowel or final consonant jamo, or a character NFC maps to another (U+212A KELVIN SIGN).
    static func isUncomposed(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x80 else { return false }
        if scalar.properties.canonicalCombiningClass != .notReordered || (0x1160...0x11FF).contains(scalar.value) { return true }
        let alone = String(scalar)
        return !alone.utf8.elementsEqual(alone.precomposedStringWithCanonicalMapping.utf8)
    }
}
