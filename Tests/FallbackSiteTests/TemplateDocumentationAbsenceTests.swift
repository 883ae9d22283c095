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
        try PageTypeDocumentationTests.documentedTables().flatMap { table -> [Row] in
            guard let section = PageTypeDocumentationTests.sectionType(table.page),
                let type = table.heading.map({ PageTypeDocumentationTests.headingType($0, in: section, sectionTitle: table.page) }) ?? section
            else { return [] }
            return table.rows.map { Row(place: "\(table.page) › \(table.heading ?? "")", keys: $0.keys, meaning: $0.meaning, type: type) }
        }
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
