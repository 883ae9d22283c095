import RovenueFallback

/// Snapshot text made safe for SVG: one line, XML 1.0 characters only, shortened to a width, escaped.
enum DrawingText {
    static let ellipsis = "…"
    /// The most scalars kept of one character (a base with a pile of combining marks is one character).
    static let scalarLimit = 4

    /// `text` on one line without characters XML 1.0 or a reader would trip on, cut with `…` to
    /// fit `maxWidth` pixels at `fontSize`. Reads only as much of `text` as it keeps.
    static func fitted(_ text: String, maxWidth: Double, fontSize: Double) -> String {
        if fitsUnchanged(text, maxWidth: maxWidth, fontSize: fontSize) { return text }
        return fittedPlainASCII(text, maxWidth: maxWidth, fontSize: fontSize)
            ?? fittedLatinScalars(text, maxWidth: maxWidth, fontSize: fontSize)
            ?? fittedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize)
    }

    /// True when `fitted` gives `text` back as it is, found without making anything (most
    /// tooltips and labels fit): every scalar is printable ASCII, one of the Latin letters and
    /// signs `fittedLatinScalars` takes or a symbol of `isSymbolDrawnAlone` (so each is a character
    /// of its own, drawn as it is), no space starts or ends the text or follows another (`fitted`
    /// would drop it), and the line, summed as `FittingLine` sums it (each space's width just
    /// before the piece after it), stays within `maxWidth`. The widths are positive, so the sum
    /// only grows and its last value decides. Reads the bytes from the `String`'s storage: through
    /// its UTF-8 view's iterator a scalar cost about 90 instructions.
    static func fitsUnchanged(_ text: String, maxWidth: Double, fontSize: Double) -> Bool {
        return switch unchangedWidth(of: text, fontSize: fontSize) {
        case .width(let total): !(total > maxWidth)
        case .changed: false
        case .unread: fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize)
        }
    }

    /// What `fitsUnchanged` finds of a text before it looks at the width.
    enum UnchangedWidth: Equatable {
        /// `fitted` keeps the text as it is at any width of at least this sum (as `FittingLine` sums it).
        case width(Double)
        /// `fitted` changes the text at any width (a space starts or ends it, or follows another).
        case changed
        /// A scalar outside the byte path's set: only `fitsUnchangedByCharacter` can tell.
        case unread
    }

    /// The most Unicode scalars of one text the character paths read (`fittedByCharacter`,
    /// `fitsUnchangedByCharacter`, `wrappedByCharacter`, taken only by text the byte and scalar
    /// paths cannot draw). A line keeps at most a few hundred characters (2,400 pixels, the
    /// widest, hold 728 of the narrowest at 11 pixels) of at most `scalarLimit` scalars each, but
    /// finding where a character ends reads all its marks: an id of one letter and 50,000
    /// combining marks, named by every rule's label, was read whole for each. A longer text is
    /// drawn from its first `drawnScalarLimit` scalars, cut with `…`: the same drawing wherever
    /// its first few hundred characters are ordinary ones.
    static let drawnScalarLimit = 16_384

    /// The first `drawnScalarLimit` scalars of `text` when it has more; nil when it has no more.
    static func drawnPrefix(_ text: String) -> String? {
        guard text.utf8.count > drawnScalarLimit else { return nil }
        var text = text
        return text.withUTF8 { bytes -> String? in
            // The offset of the scalar after the first `drawnScalarLimit`: scalars start at bytes
            // that are not continuation bytes (10xxxxxx).
            var scalars = 0
            for offset in bytes.indices where bytes[offset] & 0xC0 != 0x80 {
                if scalars == drawnScalarLimit { return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<offset]), as: UTF8.self) }
                scalars += 1
            }
            return nil
        }
    }

    /// The widest line a reading is taken to: every caller compares a reading, alone or summed
    /// with others, with a width narrower than this (`SVGWriter.tooltipWidth`, 2,400 pixels, is
    /// the widest), so a text whose sum passes it no longer fits unchanged anywhere.
    static let widestReading = 10_000.0

    /// `fitsUnchanged`'s reading of `text`, up to the comparison with a width, so that a caller
    /// can compare one reading with several widths, or add the readings of pieces it joins.
    ///
    /// Reads no further than the sum passing `widestReading`: the reading is then that sum, wider
    /// than any width it is compared with, so the caller fits the text as it would have for the
    /// whole reading (a width too wide, `changed` or `unread` all lead to `fitted`). A page id of
    /// 100,000 letters named by 20,000 steps was read whole for each (21 s of a 1.8 MB build).
    static func unchangedWidth(of text: String, fontSize: Double) -> UnchangedWidth {
        var text = text
        return text.withUTF8 { bytes -> UnchangedWidth in
            let spaceWidth = advance(of: " ") * fontSize
            // `advance(of:)`'s table, read once: through the lazy global each printable ASCII
            // scalar paid its initialisation check (1.2 million calls of swift_once a 1k build).
            let asciiAdvance = asciiAdvance
            var total = 0.0
            var started = false
            var pendingSpace = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                var value = UInt32(byte)
                if byte >= 0x80 {
                    if byte == 0xE2 {
                        // U+2000 to U+2FFF are three bytes, led by 0xE2; a `String` is valid UTF-8.
                        guard index + 1 < bytes.count else { return .unread }
                        value = 0x2000 | UInt32(bytes[index] & 0x3F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                        index += 2
                    } else {
                        // U+00A1 to U+024F are two bytes, led by 0xC2 to 0xC9.
                        guard byte >= 0xC2, byte <= 0xC9, index < bytes.count else { return .unread }
                        value = UInt32(byte & 0x1F) << 6 | UInt32(bytes[index] & 0x3F)
                        index += 1
                    }
                }
                switch value {
                case 0x20:
                    if !started || pendingSpace { return .changed }
                    pendingSpace = true
                    continue
                case 0x21...0x7E, 0xA1...0xAC, 0xAE...0x24F: break
                default: guard isSymbolDrawnAlone(value) else { return .unread }
                }
                if pendingSpace {
                    total += spaceWidth
                    pendingSpace = false
                }
                total += (value >= 0x21 && value <= 0x7E ? asciiAdvance[Int(value) - 0x21] : advance(of: Unicode.Scalar(value))) * fontSize
                started = true
                if total > widestReading { return .width(total) }
            }
            return pendingSpace ? .changed : .width(total)
        }
    }

    /// `fitsUnchanged` for any text, one `Character` at a time as `fittedByCharacter` reads it:
    /// true when `cleaned(_:)` keeps every character as it is (no white space but single spaces
    /// between characters, no unsafe scalar, at most `scalarLimit` scalars) and the line fits.
    static func fitsUnchangedByCharacter(_ text: String, maxWidth: Double, fontSize: Double) -> Bool {
        // A text past the scalars the drawing reads is cut (`fittedByCharacter`).
        guard drawnPrefix(text) == nil else { return false }
        let spaceWidth = advance(of: " ") * fontSize
        var total = 0.0
        var started = false
        var pendingSpace = false
        for character in text {
            let first: Unicode.Scalar?
            if character.utf8.count == 1, let byte = character.utf8.first, byte >= 0x20, byte < 0x7F {
                if byte == 0x20 {
                    if !started || pendingSpace { return false }
                    pendingSpace = true
                    continue
                }
                first = Unicode.Scalar(byte)
            } else {
                if character.isWhitespace { return false }
                var count = 0
                for scalar in character.unicodeScalars {
                    count += 1
                    if count > scalarLimit || isUnsafe(scalar) { return false }
                }
                first = character.unicodeScalars.first
            }
            if pendingSpace {
                total += spaceWidth
                pendingSpace = false
            }
            total += advance(of: first) * fontSize
            started = true
        }
        return !pendingSpace && !(total > maxWidth)
    }

    /// `fitted` one `Character` at a time, for any text.
    static func fittedByCharacter(_ text: String, maxWidth: Double, fontSize: Double) -> String {
        if let head = drawnPrefix(text) {
            let kept = fittedByCharacter(head, maxWidth: maxWidth, fontSize: fontSize)
            return kept.hasSuffix(ellipsis) ? kept : kept + ellipsis
        }
        var line = FittingLine<String>(space: " ", spaceWidth: advance(of: " ") * fontSize)
        for character in text {
            guard let clean = cleaned(character) else {
                line.pendingSpace = !line.kept.isEmpty
                continue
            }
            guard line.append(clean, width: advance(of: clean.unicodeScalars.first) * fontSize, maxWidth: maxWidth) else {
                line.makeRoom(forEllipsisOf: advance(of: "…") * fontSize, maxWidth: maxWidth)
                return line.kept.joined() + ellipsis
            }
        }
        return line.kept.joined()
    }

    /// `fitted` for text whose bytes up to where it is cut are printable ASCII (most labels), on
    /// bytes rather than a `String` per character: each such byte is a character of its own, drawn
    /// as it is, a space is white space, and the sums are the same sums in the same order. Nil,
    /// having decided nothing, when a byte before the cut is anything else.
    static func fittedPlainASCII(_ text: String, maxWidth: Double, fontSize: Double) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var line = FittingLine<UInt8>(space: 0x20, spaceWidth: advance(of: " ") * fontSize)
            for byte in bytes {
                guard byte >= 0x20, byte < 0x7F else { return nil }
                guard byte != 0x20 else {
                    line.pendingSpace = !line.kept.isEmpty
                    continue
                }
                guard line.append(byte, width: advance(of: Unicode.Scalar(byte)) * fontSize, maxWidth: maxWidth) else {
                    line.makeRoom(forEllipsisOf: advance(of: "…") * fontSize, maxWidth: maxWidth)
                    return String(decoding: line.kept, as: UTF8.self) + ellipsis
                }
            }
            return String(decoding: line.kept, as: UTF8.self)
        }
    }

    /// `fitted` for text whose scalars up to where it is cut are printable ASCII or Latin letters and
    /// signs (U+00A1 to U+024F but the soft hyphen): labels in European languages. Each such scalar
    /// is a character of its own (all are of grapheme break class Other, which breaks on both sides;
    /// a combining mark, which would join the one before, is outside the set), none is white space
    /// but the space or hidden, so each is drawn as it is, and the sums are the same sums in the
    /// same order as the per-character path's. Nil, having decided nothing, when a scalar before
    /// the cut is anything else.
    static func fittedLatinScalars(_ text: String, maxWidth: Double, fontSize: Double) -> String? {
        var line = FittingLine<Unicode.Scalar>(space: " ", spaceWidth: advance(of: " ") * fontSize)
        func joined(_ scalars: [Unicode.Scalar]) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            return String(view)
        }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20:
                line.pendingSpace = !line.kept.isEmpty
                continue
            case 0x21...0x7E, 0xA1...0xAC, 0xAE...0x24F: break
            default: return nil
            }
            guard line.append(scalar, width: advance(of: scalar) * fontSize, maxWidth: maxWidth) else {
                line.makeRoom(forEllipsisOf: advance(of: "…") * fontSize, maxWidth: maxWidth)
                return joined(line.kept) + ellipsis
            }
        }
        return joined(line.kept)
    }

    /// A line `fitted` fills: the pieces kept (characters or bytes), their widths and the sum,
    /// added and taken off in order, so both of its paths make the same sums.
    struct FittingLine<Piece: Equatable> {
        let space: Piece
        let spaceWidth: Double
        private(set) var kept: [Piece] = []
        private var widths: [Double] = []
        private var total = 0.0
        /// White space was skipped since the last piece: a space goes before the next.
        var pendingSpace = false

        init(space: Piece, spaceWidth: Double) {
            self.space = space
            self.spaceWidth = spaceWidth
        }

        /// Adds `piece` (after a pending space); false once the line is wider than `maxWidth`.
        mutating func append(_ piece: Piece, width: Double, maxWidth: Double) -> Bool {
            if pendingSpace {
                kept.append(space)
                widths.append(spaceWidth)
                total += widths[widths.count - 1]
                pendingSpace = false
            }
            kept.append(piece)
            widths.append(width)
            total += width
            return !(total > maxWidth)
        }

        /// Takes pieces off the end until an ellipsis fits after them, and no space ends the line.
        mutating func makeRoom(forEllipsisOf ellipsisWidth: Double, maxWidth: Double) {
            while let last = widths.last, total + ellipsisWidth > maxWidth || kept.last == space {
                total -= last
                widths.removeLast()
                kept.removeLast()
            }
        }
    }

    /// `text` cleaned as `fitted` cleans it, broken into lines of at most `maxWidth` pixels at
    /// `fontSize`: at spaces where it can, inside a word longer than a line where it must. Nothing
    /// is dropped up to `maxLines` lines; text beyond them (only hostile or absurd input has any)
    /// ends the last line with `…`, and the caller shows the whole text elsewhere. Past one pass
    /// over its bytes (is it all printable ASCII?), reads only as much of `text` as it keeps.
    static func wrapped(_ text: String, maxWidth: Double, fontSize: Double, maxLines: Int) -> [String] {
        // Most step labels are one short line: text that `fitted` keeps as it is (so nothing is
        // cleaned) and that is narrower than the line by more than a pixel (far more than the
        // rounding of the line's sum added word by word) is that line, with no line built.
        if maxLines >= 1, !text.isEmpty, case .width(let width) = unchangedWidth(of: text, fontSize: fontSize), width + 1 < maxWidth {
            return [text]
        }
        return wrappedByScalar(text, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
            ?? wrappedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
    }

    /// Scalars past the Latin range that the byte and scalar paths take as characters of their
    /// own, drawn as they are: the en dash, em dash and ellipsis (common in copy), the rightwards
    /// arrow (in every step's tooltip) and the operators conditions are written with (`∈ ∉ ∋ ∧ ∨
    /// ≠ ≤ ≥`, in most step labels). Each is of grapheme break class Other like the printable ASCII
    /// and Latin scalars, so it is a character of its own beside any of them, none is white space
    /// or hidden, and a scalar that would join one (a combining mark, a variation selector, a
    /// joiner) is outside the set.
    static func isSymbolDrawnAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0x2013, 0x2014, 0x2026, 0x2192, 0x2208, 0x2209, 0x220B, 0x2227, 0x2228, 0x2260, 0x2264, 0x2265: true
        default: false
        }
    }

    /// The scalars of `text` when each is printable ASCII (the space included), one of the Latin
    /// letters and signs `fittedLatinScalars` takes (U+00A1 to U+024F but the soft hyphen; the
    /// boxes' labels join their parts with U+00B7) or a symbol of `isSymbolDrawnAlone`: then each
    /// scalar is a `Character` of its own, the space is the only white space, and every other
    /// scalar is drawn as it is. Nil for any other text.
    static func scalarsDrawnAlone(in text: String) -> [Unicode.Scalar]? {
        var text = text
        return text.withUTF8 { bytes -> [Unicode.Scalar]? in
            var scalars: [Unicode.Scalar] = []
            scalars.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x20, byte <= 0x7E {
                    scalars.append(Unicode.Scalar(byte))
                    index += 1
                    continue
                }
                let value: UInt32
                if byte == 0xE2 {
                    // U+2000 to U+2FFF are three bytes, led by 0xE2; a `String` is valid UTF-8.
                    guard index + 2 < bytes.count else { return nil }
                    value = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    guard isSymbolDrawnAlone(value) else { return nil }
                    index += 3
                } else {
                    // U+00A1 to U+024F are two bytes, led by 0xC2 to 0xC9.
                    guard byte >= 0xC2, byte <= 0xC9, index + 1 < bytes.count else { return nil }
                    value = UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                    guard value >= 0xA1, value != 0xAD else { return nil }
                    index += 2
                }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
            return scalars
        }
    }

    /// Appends the UTF-8 of `scalar` to `bytes`.
    private static func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else if value < 0x800 {
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        } else {
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }

    /// `wrapped` for text of `scalarsDrawnAlone` (most labels: a priority, `·` and a condition
    /// such as `plan ∈ ["pro"] ∧ age ≥ 18`), a scalar at a time, with lines made as UTF-8, rather
    /// than a `String` per character; the same sums in the same order. Nil for any other text. A
    /// label cost about 17,000 instructions one `Character` at a time (60 M in the 1k build).
    static func wrappedByScalar(_ text: String, maxWidth: Double, fontSize: Double, maxLines: Int) -> [String]? {
        guard let scalars = scalarsDrawnAlone(in: text) else { return nil }
        var lines: [String] = []
        var line: [UInt8] = []
        var lineIsEmpty = true
        var lineWidth = 0.0
        var word: [Unicode.Scalar] = []
        var wordWidth = 0.0
        let space = advance(of: " ") * fontSize
        var truncated = false

        func endLine() {
            lines.append(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
            lineIsEmpty = true
            lineWidth = 0
        }

        /// As `wrappedByCharacter`'s `place()`.
        func place() {
            guard !word.isEmpty else { return }
            if !lineIsEmpty && lineWidth + space + wordWidth <= maxWidth {
                line.append(0x20)
                for scalar in word { appendUTF8(scalar, to: &line) }
                lineWidth += space + wordWidth
            } else {
                if !lineIsEmpty { endLine() }
                lineWidth = 0
                for scalar in word {
                    let width = advance(of: scalar) * fontSize
                    if !lineIsEmpty && lineWidth + width > maxWidth { endLine() }
                    appendUTF8(scalar, to: &line)
                    lineIsEmpty = false
                    lineWidth += width
                }
            }
            word.removeAll(keepingCapacity: true)
            wordWidth = 0
        }

        for scalar in scalars {
            guard scalar != " " else {
                place()
                if lines.count >= maxLines {
                    truncated = true
                    break
                }
                continue
            }
            word.append(scalar)
            wordWidth += advance(of: scalar) * fontSize
            if wordWidth > maxWidth * Double(maxLines + 1) {
                truncated = true
                break
            }
        }
        place()
        if !lineIsEmpty { endLine() }
        return linesEndingWithEllipsis(lines, truncated: truncated, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
    }

    /// `wrapped` one `Character` at a time, for any text.
    static func wrappedByCharacter(_ text: String, maxWidth: Double, fontSize: Double, maxLines: Int) -> [String] {
        if let head = drawnPrefix(text) {
            var lines = wrappedByCharacter(head, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
            if let last = lines.last, !last.hasSuffix(ellipsis) { lines[lines.count - 1] = last + ellipsis }
            return lines
        }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0.0
        var word = ""
        var wordWidth = 0.0
        let space = advance(of: " ") * fontSize
        var truncated = false

        /// Puts `word` on the current line, or on a new one, breaking it where it is wider than a line.
        func place() {
            guard !word.isEmpty else { return }
            if !line.isEmpty && lineWidth + space + wordWidth <= maxWidth {
                line += " " + word
                lineWidth += space + wordWidth
            } else {
                if !line.isEmpty { lines.append(line) }
                line = ""
                lineWidth = 0
                for character in word {
                    let width = advance(of: character.unicodeScalars.first) * fontSize
                    if !line.isEmpty && lineWidth + width > maxWidth {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    line.append(character)
                    lineWidth += width
                }
            }
            word = ""
            wordWidth = 0
        }

        for character in text {
            guard let clean = cleaned(character) else {
                place()
                if lines.count >= maxLines {
                    truncated = true
                    break
                }
                continue
            }
            word += clean
            wordWidth += advance(of: clean.unicodeScalars.first) * fontSize
            if wordWidth > maxWidth * Double(maxLines + 1) {
                truncated = true
                break
            }
        }
        place()
        if !line.isEmpty { lines.append(line) }
        return linesEndingWithEllipsis(lines, truncated: truncated, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
    }

    /// `lines` cut to `maxLines`, the last ending with `…` when the text went on (`truncated`) or
    /// had more lines: the end both of `wrapped`'s paths share.
    private static func linesEndingWithEllipsis(_ lines: [String], truncated: Bool, maxWidth: Double, fontSize: Double, maxLines: Int) -> [String] {
        var lines = lines
        var truncated = truncated
        if lines.count > maxLines {
            truncated = true
            lines.removeLast(lines.count - maxLines)
        }
        if truncated, var last = lines.popLast() {
            let room = maxWidth - advance(of: "…") * fontSize
            while !last.isEmpty && (width(of: last, fontSize: fontSize) > room || last.last == " ") { last.removeLast() }
            lines.append(last + ellipsis)
        }
        return lines
    }

    /// `character` as drawn: `nil` for white space, U+FFFD for controls, noncharacters and bidi
    /// controls.
    static func cleaned(_ character: Character) -> String? {
        // Printable ASCII (most text) is drawn as it is; a space is white space.
        if character.utf8.count == 1, let byte = character.utf8.first, byte >= 0x20, byte < 0x7F {
            return byte == 0x20 ? nil : String(character)
        }
        if character.isWhitespace { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in character.unicodeScalars.prefix(scalarLimit) {
            if isUnsafe(scalar) { return "\u{FFFD}" }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Controls (tab and line breaks too: a box holds one line) and what `SnapshotText` never shows as it is.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || SnapshotText.isHidden(scalar)
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for XML text and attribute values.
    static func escaped(_ text: String) -> String {
        MarkupEscaping.html(text)
    }

    /// The estimated width of `text` in pixels at `fontSize`.
    static func width(of text: String, fontSize: Double) -> Double {
        widthByScalar(of: text, fontSize: fontSize) ?? widthByCharacter(of: text, fontSize: fontSize)
    }

    /// `width(of:fontSize:)` of text of `scalarsDrawnAlone`, a scalar at a time, with the same sum
    /// in the same order; nil for any other text.
    static func widthByScalar(of text: String, fontSize: Double) -> Double? {
        guard let scalars = scalarsDrawnAlone(in: text) else { return nil }
        var total = 0.0
        for scalar in scalars { total += advance(of: scalar) }
        return total * fontSize
    }

    /// `width(of:fontSize:)` one `Character` at a time, for any text.
    static func widthByCharacter(of text: String, fontSize: Double) -> Double {
        text.reduce(0) { $0 + advance(of: $1.unicodeScalars.first) } * fontSize
    }

    /// An estimate of a character's advance in ems, on the wide side of common sans-serif faces
    /// (DejaVu Sans), so text rather stays inside its box.
    static func advance(of scalar: Unicode.Scalar?) -> Double {
        guard let scalar else { return 0 }
        switch scalar.value {
        case 0x20: return 0.32
        case 0x21...0x7E: return asciiAdvance[Int(scalar.value) - 0x21]
        case 0x2026: return 0.9
        case 0xFFFD: return 1.0
        case 0xC0...0x24F: return 0.66
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            return 1.0
        default: return 0.76
        }
    }

    /// Advances of `!` through `~`.
    private static let asciiAdvance: [Double] = {
        var table = [Double](repeating: 0.62, count: 0x7E - 0x20)
        func set(_ characters: String, _ advance: Double) {
            for byte in characters.utf8 { table[Int(byte) - 0x21] = advance }
        }
        set("abcdeghknopqsuvxyz", 0.62)
        set("ABCDEFGHIJKLNOPQRSTUVXYZ", 0.72)
        set("0123456789", 0.64)
        set("ijl.,:;'!|`", 0.3)
        set("frt()[]-/\\", 0.42)
        set("\"*_?^", 0.52)
        set("{}", 0.64)
        set("mwMW", 0.95)
        set("=+<>~#$&", 0.84)
        set("%@", 1.0)
        return table
    }()
}
