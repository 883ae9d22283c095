import Testing

@testable import FallbackSite

/// `docs/templates.md` says which fields are "left out" when they have no value (a template's
/// lookup then goes on to the enclosing context) and which are `null` (the lookup stops there);
/// the contexts must do what it says.
@Suite("docs/templates.md: left out and null as the contexts do")
struct TemplateDocumentationAbsenceTests {
    /// One row of a documented table: its keys, what it says, and the context type it documents.
    struct Row {
        let place: String
        let keys: [String]
        let meaning: String
        let type: PageTypeDocumentationTests.ContextType
    }

    static func rows() throws -> [Row] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/templates.md"), encoding: .utf8)
        var rows: [Row] = []
        var page: String?
        var heading: String?
        var inTable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") {
                (page, heading, inTable) = (String(line.dropFirst(3)), nil, false)
            } else if line.hasPrefix("### ") {
                (heading, inTable) = (String(line.dropFirst(4)), false)
            } else if line.hasPrefix("|"), let page {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
                guard inTable else {
                    inTable = true
                    continue  // the header row
                }
                guard cells.count > 2, !cells[1].allSatisfy({ $0 == "-" || $0 == " " || $0 == ":" }),
                    let section = PageTypeDocumentationTests.sectionType(page)
                else { continue }
                let type = heading.map { PageTypeDocumentationTests.headingType($0, in: section, sectionTitle: page) } ?? section
                guard let type else { continue }
                rows.append(Row(
                    place: "\(page) › \(heading ?? "")", keys: PageTypeDocumentationTests.codeSpans(in: cells[1]),
                    meaning: cells[2...].joined(separator: "|"), type: type))
            } else {
                inTable = false
            }
        }
        return rows
    }

    @Test func everyKeyLeftOutWhenNilIsDocumentedSo() throws {
        let rows = try Self.rows()
        #expect(rows.count > 50)
        for row in rows {
            let leftOut = row.type.type.keysLeftOutWhenNil
            let omitted = row.keys.filter(leftOut.contains)
            if !omitted.isEmpty {
                #expect(row.meaning.contains("left out"), "docs/templates.md: \(row.place): \(omitted) are left out when absent; the row does not say so")
            }
            if row.meaning.contains("left out") {
                #expect(!omitted.isEmpty, "docs/templates.md: \(row.place): \(row.keys) says 'left out', but the context always has these keys")
            }
            if row.meaning.contains("null"), !row.meaning.contains("left out") {
                #expect(omitted.isEmpty, "docs/templates.md: \(row.place): \(omitted) are said to be null, but are left out")
            }
        }
    }
}
