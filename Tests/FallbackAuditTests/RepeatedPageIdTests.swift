import FallbackAudit
import FallbackTestSupport
import RovenueFallback
import Testing

@testable import FallbackAudit

/// A funnel past `FunnelContext.searchedPageLimit` finds the pages that repeat an earlier page's id
/// or question while it indexes them; a smaller one searches: the findings are the same either way,
/// each on the later page and naming the first page with the id or question, ids compared by bytes.
@Suite("repeated page ids and questions are found the same at every size")
struct RepeatedPageIdTests {
    /// Each page's id and question (nil: none).
    static let pages: [(id: String, question: String?)] = [
        ("a", "q1"), ("b", "q2"), ("a", nil), ("caf\u{E9}", "q1"), ("cafe\u{301}", "q\u{E9}"), ("b", "qe\u{301}"),
        ("c", "q2"), ("a", "q1"),
    ]

    static func text(padding: Int) -> String {
        let written = pages.map { page in
            let question = page.question.map { #","question_id":\#(JSONValue.quoted($0))"# } ?? ""
            return #"{"default_next":"end","id":\#(JSONValue.quoted(page.id))\#(question),"title":"T","type":"info"}"#
        }
        let padded = written + (0..<padding).map { #"{"default_next":"end","id":"pad\#($0)","question_id":"pq\#($0)","title":"T","type":"info"}"# }
        let funnel = #"{"id":"f","pages":[\#(padded.joined(separator: ","))],"slug":"f"}"#
        return Snap.file(#""a":{"placement":\#(Snap.placement("a")),"funnel":\#(funnel)}"#)
    }

    @Test(arguments: [0, FunnelContext.searchedPageLimit])
    func repeatsAreReportedOnTheLaterPage(padding: Int) {
        let findings = Audit().findings(in: FallbackFile(text: Self.text(padding: padding)))
        let ids = findings.filter { $0.ruleId == Rule.duplicatePageId.id }
        let questions = findings.filter { $0.ruleId == Rule.duplicateQuestionId.id }
        #expect(ids.map(\.pointer) == [2, 5, 7].map { "/placements/a/funnel/pages/\($0)/id" })
        #expect(zip(ids, ["Pages #1 and #3 ", "Pages #2 and #6 ", "Pages #1 and #8 "]).allSatisfy { $0.message.hasPrefix($1) })
        #expect(questions.map(\.pointer) == [3, 6, 7].map { "/placements/a/funnel/pages/\($0)/question_id" })
        #expect(zip(questions, [#"Pages "a" and "caf"#, #"Pages "b" and "c" "#, #"Pages "a" and "a" "#]).allSatisfy { $0.message.hasPrefix($1) })
    }
}
