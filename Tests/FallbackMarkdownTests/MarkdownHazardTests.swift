import FallbackMarkdown
import Foundation
import Testing

/// `MarkdownHazard` finds the two inputs on which the system's cmark-gfm (0.29.0.gfm.6) does far
/// more than linear work, and leaves ordinary Markdown alone.
@Suite("Markdown hazards: what cmark-gfm would fill or walk quadratically is found first")
struct MarkdownHazardTests {
    static func hazard(_ markdown: String) -> MarkdownHazard? {
        var markdown = markdown
        return markdown.withUTF8(MarkdownHazard.hazard(in:))
    }

    /// A header of `columns` columns over `rows` rows of one cell.
    static func shortRows(columns: Int, rows: Int, lineBreak: String = "\n", prefix: String = "") -> String {
        prefix + "|" + String(repeating: "a|", count: columns) + lineBreak + prefix + "|" + String(repeating: "-|", count: columns) + lineBreak
            + String(repeating: prefix + "x" + lineBreak, count: rows)
    }

    // MARK: What the bounds are about

    /// The table extension fills each short row up to the header's columns: the cells are the
    /// columns times the rows, whatever the rows hold. This is what the cell bound counts.
    @Test(arguments: [(3, 1), (7, 5), (40, 40)])
    func cmarkGFMFillsEveryRowToTheHeadersColumns(columns: Int, rows: Int) {
        let html = Markdown.html(from: Self.shortRows(columns: columns, rows: rows))
        #expect(html.components(separatedBy: "</th>").count - 1 == columns)
        #expect(html.components(separatedBy: "</td>").count - 1 == columns * rows)
    }

    // MARK: Tables

    @Test func aTableOfShortRowsPastItsLengthsBoundIsAHazard() throws {
        let markdown = "# Title\n\n" + Self.shortRows(columns: 300, rows: 300)
        let hazard = try #require(Self.hazard(markdown))
        guard case .tableCells(let columns, let rows, let cells, let limit) = hazard.kind else {
            Issue.record("\(hazard)")
            return
        }
        #expect(hazard.line == 3, "the header's line")
        #expect(columns == 300)
        #expect(limit == MarkdownHazard.cellLimit(byteCount: markdown.utf8.count))
        #expect(cells > limit && cells == 300 * rows, "the header row and the rows so far")
        #expect(hazard.description.contains("a table of 300 columns"))
    }

    /// Just within the bound and just past it, for the same shape.
    @Test func theCellBoundIsFourCellsAByteAndSixtyFiveThousandMore() {
        // 256 columns over 255 one-cell rows and the header: 65,536 cells from 1.5 kB.
        let within = Self.shortRows(columns: 256, rows: 255)
        #expect(256 * 256 <= MarkdownHazard.cellLimit(byteCount: within.utf8.count))
        #expect(Self.hazard(within) == nil)
        let past = Self.shortRows(columns: 300, rows: 400)
        #expect(300 * 401 > MarkdownHazard.cellLimit(byteCount: past.utf8.count))
        #expect(Self.hazard(past) != nil)
    }

    /// The same table in a list item (its lines indented under the marker).
    static let listItemTable = "- |" + String(repeating: "a|", count: 400) + "\n  |" + String(repeating: "-|", count: 400) + "\n"
        + String(repeating: "  x\n", count: 400)

    /// Found in a block quote, in a list item, with `\r\n` or `\r` line breaks, without the outer
    /// pipes, with rows of a vertical tab or a form feed (not blank lines to cmark-gfm) and with rows
    /// that look like delimiter rows (rows of the table to cmark-gfm, not new tables). Each is a
    /// table cmark-gfm fills, checked by rendering it.
    @Test(arguments: [
        shortRows(columns: 400, rows: 400, prefix: "> "), listItemTable, shortRows(columns: 400, rows: 400, lineBreak: "\r\n"),
        shortRows(columns: 400, rows: 400, lineBreak: "\r"),
        String(repeating: "a|", count: 400) + "a\n" + String(repeating: "-|", count: 400) + "-\n" + String(repeating: "x\n", count: 400),
        "|" + String(repeating: "a|", count: 400) + "\n|" + String(repeating: "-|", count: 400) + "\n" + String(repeating: "\u{0B}\n", count: 400),
        "|" + String(repeating: "a|", count: 400) + "\n|" + String(repeating: "-|", count: 400) + "\n" + String(repeating: "\u{0C}\n", count: 400),
        "|" + String(repeating: "a|", count: 400) + "\n|" + String(repeating: "-|", count: 400) + "\n" + String(repeating: "-|\n", count: 400),
    ])
    func aTableIsFoundHoweverItIsWritten(markdown: String) throws {
        let cells = Markdown.html(from: markdown).components(separatedBy: "</td>").count - 1
        #expect(cells >= 400 * 399, "cmark-gfm fills this table")
        let hazard = try #require(Self.hazard(markdown))
        #expect(hazard.line == 1)
        #expect(Self.hazard(markdown.replacingOccurrences(of: "|-", with: "|x")) == nil, "not a delimiter row, no table")
    }

    /// A blank line ends a table: rows after it are not counted, and many small tables are fine.
    @Test func aBlankLineEndsATable() {
        let table = "|" + String(repeating: "a|", count: 300) + "\n|" + String(repeating: "-|", count: 300) + "\n"
        #expect(Self.hazard(table + "\n" + String(repeating: "x\n", count: 10_000)) == nil)
        #expect(Self.hazard(String(repeating: "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n\n", count: 20_000)) == nil)
    }

    /// A table whose rows are written out is never one, however long.
    @Test func aWrittenOutTableIsNoHazard() {
        let row = "|" + String(repeating: " cell |", count: 50) + "\n"
        let markdown = "|" + String(repeating: " h |", count: 50) + "\n|" + String(repeating: "---|", count: 50) + "\n"
            + String(repeating: row, count: 5_000)
        #expect(Self.hazard(markdown) == nil)
    }

    // MARK: Rows of many cells

    /// The attack's three shapes: a one-column table under a row of n pipes, a header and
    /// delimiter row of n columns with no body, and n pipes over a three-column delimiter row
    /// (no table at all, but cmark-gfm parses the line as a header first). Each costs cmark-gfm
    /// time in n², and each is found on the line that passes the bound.
    @Test(arguments: [
        ("|a|\n|-|\n" + String(repeating: "|", count: 20_000) + "\n", 3),
        ("|" + String(repeating: "a|", count: 6_000) + "\n|" + String(repeating: "-|", count: 6_000) + "\n", 1),
        (String(repeating: "|", count: 12_000) + "\n| - | - | - |\n", 1),
    ])
    func aRowOfManyCellsIsAHazard(markdown: String, line: Int) throws {
        let hazard = try #require(Self.hazard(markdown))
        guard case .rowCells(let cells, let work, let limit) = hazard.kind else {
            Issue.record("\(hazard)")
            return
        }
        #expect(hazard.line == line)
        #expect(limit == MarkdownHazard.rowWorkLimit(byteCount: markdown.utf8.count))
        #expect(work > limit && cells == markdown.split(separator: "\n")[line - 1].count { $0 == "|" })
        #expect(hazard.description.contains("a line of \(cells) pipes"))
    }

    /// A line of a thousand cells, and lines of up to 256 cells however many, are within the
    /// bound: the sum over lines of their pipes squared, 256 per byte and a million more.
    @Test func rowsOfOrdinaryWidthAreNoHazard() {
        #expect(Self.hazard("|a|\n|-|\n" + String(repeating: "|", count: 1_000) + "\n") == nil)
        let row = "| " + String(repeating: "c | ", count: 40) + "\n"
        #expect(Self.hazard("| h |\n|---|\n" + String(repeating: row, count: 20_000)) == nil)
        #expect(Self.hazard(String(repeating: String(repeating: "|", count: 256) + "\n", count: 20_000)) == nil)
        #expect(Self.hazard(String(repeating: String(repeating: "|", count: 300) + "\n", count: 20_000)) != nil)
        #expect(Self.hazard(String(repeating: "|", count: 1_000_000) + "\n") != nil)
    }

    // MARK: Tables tried and refused

    /// A paragraph of `x` and `-|-` lines, one after another: each `-|-` is a table cmark-gfm
    /// tries under a line of one cell and refuses, reading the paragraph before it again (review:
    /// 4,000 lines took 0.74 s, 8,000 3.19 s). Found, at the paragraph's first line.
    @Test func delimiterRowsUnderLinesOfOtherCellsAreAHazard() throws {
        let markdown = "Intro\n\n" + String(repeating: "x\n-|-\n", count: 2_000)
        let hazard = try #require(Self.hazard(markdown))
        guard case .tableTries(let tries, let work, let limit) = hazard.kind else {
            Issue.record("\(hazard)")
            return
        }
        #expect(hazard.line == 3)
        #expect(limit == MarkdownHazard.tableTryLimit(byteCount: markdown.utf8.count))
        #expect(work > limit && tries < 2_000)
        #expect(hazard.description.contains("lines like a table's delimiter row under a line of another number of cells"))
    }

    /// The same lines in paragraphs of a hundred, a table whose rows look like delimiter rows
    /// (`| - | - |` for empty cells) and tables one after another are no hazard.
    @Test func tablesAndShortParagraphsOfTriesAreNoHazard() {
        #expect(Self.hazard(String(repeating: String(repeating: "x\n-|-\n", count: 50) + "\n", count: 40)) == nil)
        #expect(Self.hazard("| a | b |\n|---|---|\n" + String(repeating: "| - | - |\n| 1 | 2 |\n", count: 10_000)) == nil)
        #expect(Self.hazard(String(repeating: "| a | b |\n|---|---|\n| 1 | 2 |\n\n", count: 10_000)) == nil)
        // A header's cells are read after its block quote marker, as the delimiter row's are.
        #expect(Self.hazard(String(repeating: "> | a | b |\n> |---|---|\n> | 1 | 2 |\n", count: 10_000)) == nil)
    }

    // MARK: Image openers

    @Test func imageOpenersLeftOpenBeforeManyLinksAreAHazard() throws {
        let markdown = "Intro\n\n" + String(repeating: "![[]()", count: 3_000) + "\n\nAfter"
        let hazard = try #require(Self.hazard(markdown))
        #expect(hazard.line == 3)
        guard case .imageOpeners(let openers, let walked, let limit) = hazard.kind else {
            Issue.record("\(hazard)")
            return
        }
        // The k-th link walks back over the k image openers open by then.
        #expect(openers == 3_000 && walked == 3_000 * 3_001 / 2)
        #expect(limit == MarkdownHazard.bracketLimit(byteCount: 3_000 * 6 + 1))
        #expect(hazard.description.contains("walk back over 4501500 times"))
    }

    /// A line of a vertical tab does not end the paragraph for cmark-gfm, nor for the scan.
    @Test func aParagraphGoesOnOverLinesOfAVerticalTab() {
        let runs = Array(repeating: String(repeating: "![[]()", count: 700), count: 10)
        #expect(Self.hazard(runs.joined(separator: "\n\u{0B}\n")) != nil)
        #expect(Self.hazard(runs.joined(separator: "\n\n")) == nil)
    }

    /// The walk is over image openers left open: the same openers in paragraphs of their own are
    /// fine, and so are thousands of closed images in one paragraph, on one line or one a line,
    /// and escaped brackets.
    @Test func imagesInTheirOwnParagraphsOrClosedAreNoHazard() {
        #expect(Self.hazard(String(repeating: "![[]()\n\n", count: 20_000)) == nil)
        #expect(Self.hazard(String(repeating: "![icon](https://example.com/i.png) ", count: 5_000)) == nil)
        #expect(Self.hazard(String(repeating: "![i](a.png)\n", count: 5_000)) == nil)
        #expect(Self.hazard(String(repeating: "!\\[[]()", count: 5_000)) == nil)
    }

    // MARK: Ordinary Markdown

    @Test func markdownWithoutPipesOrImageOpenersIsReadOnlyForThem() {
        #expect(Self.hazard("") == nil)
        #expect(Self.hazard("# Title\n\nText with [a link](x) and ! marks!\n\n- a\n- b\n") == nil)
        #expect(Self.hazard(String(repeating: "word ", count: 100_000)) == nil)
        #expect(Self.hazard("!") == nil)
        #expect(Self.hazard("![an image](x.png) and | a pipe") == nil)
    }
}
