import Foundation

/// Markdown that the system's cmark-gfm would spend far more than linear work or memory on, found
/// before it is parsed.
///
/// Debian ships cmark-gfm 0.29.0.gfm.6, which predates the 2023 fixes of its polynomial cases (they
/// came with 0.29.0.gfm.7 to .13). Four of them are reached by Markdown of ordinary size:
///
/// - **A table's short rows.** The table extension fills every row up to the header's columns.
///   A header of n columns over n one-cell rows (about 6n bytes) makes n² cells: 90 MB of HTML from
///   18 KB at n = 3,000, and at n = 20,000 an allocation of gigabytes that cmark-gfm answers by
///   aborting the process.
/// - **A row of many cells.** Each cell of a row is appended to the row's list by walking the
///   cells before it, so a row of n cells takes time in n², whether it is a table's header, its
///   delimiter row, a body row or a line tried as a header and refused: one line of 60,000 pipes
///   (60 KB) took 8.7 s. Every line's pipes are counted, squared and added up.
/// - **Tables tried and refused.** A line like a delimiter row under a line of another number of
///   cells is a table the extension tries and refuses, reading the paragraph before it again:
///   a paragraph of `x` and `-|-` lines, one after another, takes time in its length squared
///   (8,000 lines, 3.2 s). Each such line's bytes before it in its paragraph are added up.
/// - **Image openers left open.** Each `]` that closes a bracket walks back over every `![` still
///   open in its paragraph, so `![[]()` written n times takes time in n²: 27 s at n = 80,000
///   (480 KB). The scan follows the brackets as cmark-gfm stacks them and adds up that walk.
///
/// A site's Markdown is what its templates render; every value of a snapshot is a token in it, so
/// only a template (a user's, from `--templates`) can write any of them. `hazard(in:)` bounds each by the
/// Markdown's own length, so what cmark-gfm does stays linear in it, and a page past the bounds is
/// refused with this description, not rendered. Ordinary Markdown is far inside them: a table whose
/// rows are written out has at most one cell per byte, and a paragraph of a thousand images costs
/// a thousandth of its bound.
public struct MarkdownHazard: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Tables whose header's columns times their rows come to `cells`, past `limit`.
        case tableCells(columns: Int, rows: Int, cells: Int, limit: Int)
        /// Lines whose pipes, each line's count squared, come to `work`, past `limit`; the line
        /// that passed it has `cells` pipes.
        case rowCells(cells: Int, work: Int, limit: Int)
        /// Delimiter-like lines under a line of another number of cells, in one paragraph: each is
        /// a table cmark-gfm tries to open and refuses, reading the paragraph before it again, which
        /// came to `work` bytes in all, past `limit`; `tries` of them by then.
        case tableTries(tries: Int, work: Int, limit: Int)
        /// A paragraph (lines between blank lines) whose closing brackets would walk back over
        /// image openers (`![`) left open `walked` times in all, past `limit`; `openers` are still
        /// open where the scan stopped.
        case imageOpeners(openers: Int, walked: Int, limit: Int)
    }

    public let kind: Kind
    /// The line of the Markdown (counted from 1) where the table (its header) or the paragraph starts.
    public let line: Int

    public var description: String {
        switch kind {
        case .tableCells(let columns, let rows, let cells, let limit):
            "the Markdown it renders has, from line \(line), a table of \(columns) columns whose first \(rows) rows, with the tables "
                + "before it, make \(cells) cells, more than the \(limit) its length allows (cmark-gfm fills each row up to the "
                + "header's columns): write fewer columns, or each row's cells"
        case .rowCells(let cells, let work, let limit):
            "the Markdown it renders has, on line \(line), a line of \(cells) pipes (`|`, a table's cells), which with the lines before it "
                + "make cmark-gfm walk over cells \(work) times, more than the \(limit) its length allows (it appends each cell of "
                + "a row after the ones before it): write fewer cells on a line"
        case .tableTries(let tries, let work, let limit):
            "the Markdown it renders has, in the paragraph from line \(line), \(tries) lines like a table's delimiter row under a "
                + "line of another number of cells; cmark-gfm tries each as a table and reads the paragraph before it again, "
                + "\(work) bytes in all, more than the \(limit) its length allows: put a blank line before each table"
        case .imageOpeners(let openers, let walked, let limit):
            "the Markdown it renders has, in the paragraph from line \(line), image openers (`![`) left open (\(openers) by then) "
                + "that its closing brackets make cmark-gfm walk back over \(walked) times, more than the \(limit) the paragraph's "
                + "length allows. Close each `![…](…)`, or put the images in paragraphs of their own"
        }
    }

    /// Table cells allowed for Markdown of `byteCount` bytes: four per byte, and 65,536 more.
    public static func cellLimit(byteCount: Int) -> Int { 4 * byteCount + 65_536 }

    /// The sum over lines of their pipes squared allowed for Markdown of `byteCount` bytes: 256 per
    /// byte, and a million more (a line of a thousand cells), so lines of up to 256 cells each are
    /// never refused, however many, and the work stays within about half a microsecond a byte.
    public static func rowWorkLimit(byteCount: Int) -> Int { 256 * byteCount + 1_000_000 }

    /// Bytes cmark-gfm may read again for tables it tries and refuses, in Markdown of `byteCount`
    /// bytes: 64 per byte, and a million more.
    public static func tableTryLimit(byteCount: Int) -> Int { 64 * byteCount + 1_000_000 }

    /// Steps of the walk back over open image openers allowed in a paragraph of `byteCount` bytes:
    /// 64 per byte, and a million more.
    public static func bracketLimit(byteCount: Int) -> Int { 64 * byteCount + 1_000_000 }

    /// The first hazard of the UTF-8 `markdown`, nil when it has none. Markdown without a `|` and
    /// without `![`, as the built-in templates render, is read only by `memchr`.
    public static func hazard(in markdown: UnsafeBufferPointer<UInt8>) -> MarkdownHazard? {
        guard let base = markdown.baseAddress, !markdown.isEmpty else { return nil }
        let hasPipe = memchr(base, Int32(UInt8(ascii: "|")), markdown.count) != nil
        let hasImage = hasImageOpener(markdown)
        guard hasPipe || hasImage else { return nil }
        var scan = Scan(markdown: markdown)
        return scan.run(tables: hasPipe, images: hasImage)
    }

    private static func hasImageOpener(_ markdown: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = markdown.baseAddress else { return false }
        var offset = 0
        while offset < markdown.count - 1 {
            guard let found = memchr(base + offset, Int32(UInt8(ascii: "!")), markdown.count - 1 - offset) else { return false }
            let bang = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if markdown[bang + 1] == UInt8(ascii: "[") { return true }
            offset = bang + 1
        }
        return false
    }

    /// One pass over the lines. Both counts over-count rather than miss: a line is a possible
    /// delimiter row whatever comes before it, a table runs to the next blank line, and a
    /// paragraph is everything between blank lines (a block quote's or list's several blocks
    /// counted as one).
    private struct Scan {
        let markdown: UnsafeBufferPointer<UInt8>
        var lineNumber = 0

        // Tables.
        var rowWork = 0
        var tries = 0
        var tryWork = 0
        /// Where the lines since the last blank one start, and the line before this one.
        var blockStart = -1
        var blockLine = 0
        var previousLine = 0..<0
        var cells = 0
        var tableColumns = 0
        var tableRows = 0
        var tableLine = 0
        var inTable = false

        // Paragraphs: the brackets open, as cmark-gfm's stack holds them (true for `![`), how many
        // of them are image openers, and the walk each `]` would take over those.
        var brackets: [Bool] = []
        var openImages = 0
        var walked = 0
        var paragraphStart = -1
        var paragraphLine = 0

        init(markdown: UnsafeBufferPointer<UInt8>) { self.markdown = markdown }

        mutating func run(tables: Bool, images: Bool) -> MarkdownHazard? {
            let cellLimit = MarkdownHazard.cellLimit(byteCount: markdown.count)
            let rowWorkLimit = MarkdownHazard.rowWorkLimit(byteCount: markdown.count)
            let tableTryLimit = MarkdownHazard.tableTryLimit(byteCount: markdown.count)
            var start = 0
            while start < markdown.count {
                // A line ends at `\n`, `\r` or `\r\n`, as cmark-gfm reads it.
                var end = start
                while end < markdown.count, markdown[end] != 0x0A, markdown[end] != 0x0D { end += 1 }
                let next = end < markdown.count && markdown[end] == 0x0D && end + 1 < markdown.count && markdown[end + 1] == 0x0A
                    ? end + 2 : end + 1
                lineNumber += 1
                let blank = isBlank(start, end)
                if tables {
                    let pipes = markdown[start..<end].reduce(0) { $1 == UInt8(ascii: "|") ? $0 + 1 : $0 }
                    rowWork += pipes * pipes
                    if rowWork > rowWorkLimit {
                        return MarkdownHazard(kind: .rowCells(cells: pipes, work: rowWork, limit: rowWorkLimit), line: lineNumber)
                    }
                    // A delimiter-like line under a line of another number of cells is a table
                    // cmark-gfm tries and refuses, reading the lines before it again.
                    if !blank, blockStart >= 0, let columns = delimiterColumns(start, end),
                       cellCount(previousLine.lowerBound, previousLine.upperBound) != columns
                    {
                        tries += 1
                        tryWork += start - blockStart
                        if tryWork > tableTryLimit {
                            return MarkdownHazard(kind: .tableTries(tries: tries, work: tryWork, limit: tableTryLimit), line: blockLine)
                        }
                    }
                    if blank {
                        blockStart = -1
                    } else if blockStart < 0 {
                        blockStart = start
                        blockLine = lineNumber
                    }
                    previousLine = start..<end
                    if blank {
                        inTable = false
                    } else if inTable {
                        // Any line, one that looks like a delimiter row too, is a row of the table,
                        // filled up to its header's columns.
                        tableRows += 1
                        cells += tableColumns
                    } else if let columns = delimiterColumns(start, end) {
                        // The header line before it is a row too.
                        inTable = true
                        tableColumns = columns
                        tableRows = 1
                        tableLine = max(lineNumber - 1, 1)
                        cells += columns
                    }
                    if cells > cellLimit {
                        return MarkdownHazard(
                            kind: .tableCells(columns: tableColumns, rows: tableRows, cells: cells, limit: cellLimit), line: tableLine)
                    }
                }
                if images {
                    if blank {
                        if let hazard = endParagraph(at: start) { return hazard }
                    } else {
                        if paragraphStart < 0 {
                            paragraphStart = start
                            paragraphLine = lineNumber
                        }
                        countBrackets(start, end)
                    }
                }
                start = next
            }
            return images ? endParagraph(at: markdown.count) : nil
        }

        /// Ends the paragraph running to `end`: its hazard, if its brackets' walk is past its bound.
        mutating func endParagraph(at end: Int) -> MarkdownHazard? {
            defer {
                brackets.removeAll(keepingCapacity: true)
                openImages = 0
                walked = 0
                paragraphStart = -1
            }
            guard paragraphStart >= 0 else { return nil }
            return walkHazard(limit: MarkdownHazard.bracketLimit(byteCount: end - paragraphStart))
        }

        /// The hazard of the paragraph so far, when its walk is past `limit`.
        func walkHazard(limit: Int) -> MarkdownHazard? {
            guard walked > limit else { return nil }
            return MarkdownHazard(kind: .imageOpeners(openers: openImages, walked: walked, limit: limit), line: paragraphLine)
        }

        /// Follows the brackets of a paragraph's line as cmark-gfm's inline parser stacks them: `[`
        /// and `![` open one, `]` closes the last, and then (when it makes a link) walks back over
        /// every image opener still open below it. An escaped bracket (`\[`) opens none.
        mutating func countBrackets(_ start: Int, _ end: Int) {
            var offset = start
            while offset < end {
                switch markdown[offset] {
                case UInt8(ascii: "\\"):
                    offset += 1
                case UInt8(ascii: "["):
                    brackets.append(false)
                case UInt8(ascii: "!") where offset + 1 < end && markdown[offset + 1] == UInt8(ascii: "["):
                    brackets.append(true)
                    openImages += 1
                    offset += 1
                case UInt8(ascii: "]"):
                    if let image = brackets.popLast() {
                        if image { openImages -= 1 }
                        walked += openImages
                    }
                default:
                    break
                }
                offset += 1
            }
        }

        /// The cells of a line read as a table's row: what its pipes separate, a leading and a
        /// trailing pipe opening and closing none, an escaped pipe (`\|`) separating nothing.
        func cellCount(_ start: Int, _ end: Int) -> Int {
            // After any block quote and list markers, as `delimiterColumns` reads its line.
            let first = markersEnd(start, end) ?? start
            var last = end
            while last > first, markdown[last - 1] == 0x20 || markdown[last - 1] == 0x09 { last -= 1 }
            guard first < last else { return 0 }
            var pipes = 0
            var index = first
            while index < last {
                if markdown[index] == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if markdown[index] == UInt8(ascii: "|") { pipes += 1 }
                index += 1
            }
            let leading = markdown[first] == UInt8(ascii: "|") ? 1 : 0
            let trailing = last - 1 > first && markdown[last - 1] == UInt8(ascii: "|") && (last - 2 < first || markdown[last - 2] != UInt8(ascii: "\\")) ? 1 : 0
            return max(pipes + 1 - leading - trailing, 1)
        }

        /// Only spaces and tabs, as cmark-gfm tells a blank line (a line of a vertical tab or a form
        /// feed is a table's row, or a paragraph's line).
        func isBlank(_ start: Int, _ end: Int) -> Bool {
            markdown[start..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 }
        }

        /// Where a line's block quote and list markers, and the spaces around them, end; nil when
        /// it starts with digits that are not a list marker.
        func markersEnd(_ start: Int, _ end: Int) -> Int? {
            var offset = start
            while offset < end {
                let byte = markdown[offset]
                if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ">") {
                    offset += 1
                } else if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+")
                    || (byte == UInt8(ascii: "-") && offset + 1 < end && (markdown[offset + 1] == 0x20 || markdown[offset + 1] == 0x09))
                {
                    offset += 1
                } else if (0x30...0x39).contains(byte) {
                    var digit = offset
                    while digit < end, (0x30...0x39).contains(markdown[digit]) { digit += 1 }
                    guard digit < end, markdown[digit] == UInt8(ascii: ".") || markdown[digit] == UInt8(ascii: ")") else { return nil }
                    offset = digit + 1
                } else {
                    break
                }
            }
            return offset
        }

        /// The columns of a line that may be a table's delimiter row: after any block quote and
        /// list markers, only `|`, `-`, `:` and whitespace, with a `-` and a `|`; its cells are
        /// what the pipes separate, a leading and a trailing pipe opening and closing none.
        func delimiterColumns(_ start: Int, _ end: Int) -> Int? {
            guard let offset = markersEnd(start, end) else { return nil }
            var pipes = 0
            var dash = false
            var firstMark = -1
            var lastMark = -1
            for index in offset..<end {
                switch markdown[index] {
                case UInt8(ascii: "|"):
                    pipes += 1
                    if firstMark < 0 { firstMark = index }
                    lastMark = index
                case UInt8(ascii: "-"), UInt8(ascii: ":"):
                    if markdown[index] == UInt8(ascii: "-") { dash = true }
                    if firstMark < 0 { firstMark = index }
                    lastMark = index
                case 0x20, 0x09, 0x0B, 0x0C:
                    continue
                default:
                    return nil
                }
            }
            guard dash, pipes > 0 else { return nil }
            let leading = markdown[firstMark] == UInt8(ascii: "|") ? 1 : 0
            let trailing = lastMark != firstMark && markdown[lastMark] == UInt8(ascii: "|") ? 1 : 0
            return max(pipes + 1 - leading - trailing, 1)
        }
    }
}
