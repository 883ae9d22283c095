import FallbackAudit
import FallbackTestSupport
import Testing

@testable import FallbackAudit

/// A clause's value is looked up among its question's options by a set once the page has more than
/// `FunnelContext.searchedOptionLimit` options, and by a search below that: the findings are the
/// same either way. And a finding about an unknown question suggests a close question id only
/// among at most `Format.suggestionCandidateLimit` of them, as when every id was gathered for it.
@Suite("option values and question ids are looked up the same at every size")
struct OptionLookupTests {
    /// A funnel whose first page asks `q` with `optionCount` options (`v0`, `v1`, …, and last `é`
    /// spelled as an escape), then a page with one rule for each clause.
    static func text(optionCount: Int, clauses: [String]) -> String {
        var options = (0..<optionCount - 1).map { #"{"label":"O\#($0)","value":"v\#($0)"}"# }
        options.append(#"{"label":"E","value":"\u00e9"}"#)
        let rules = clauses.enumerated().map { index, clause in
            #"{"condition":{"clauses":[\#(clause)],"op":"all"},"goto":"end","id":"r\#(index)"}"#
        }
        let pages = [
            #"{"id":"ask","options":[\#(options.joined(separator: ","))],"question_id":"q","title":"Q","type":"single_choice"}"#,
            #"{"id":"after","next_rules":[\#(rules.joined(separator: ","))],"title":"After","type":"info"}"#,
        ]
        let funnel = #"{"id":"f","pages":[\#(pages.joined(separator: ","))],"slug":"f"}"#
        return Snap.file(#""a":{"placement":\#(Snap.placement("a")),"funnel":\#(funnel)}"#)
    }

    /// Each clause, and the values a finding about it names (none when every value is an option's).
    static let clauses: [(clause: String, unknown: [String])] = [
        (#"{"op":"eq","question_id":"q","value":"v1"}"#, []),
        (#"{"op":"eq","question_id":"q","value":"é"}"#, []),
        (#"{"op":"neq","question_id":"q","value":"v0 "}"#, [#""v0 ""#]),
        (#"{"op":"contains","question_id":"q","value":"V1"}"#, [#""V1""#]),
        (#"{"op":"in","question_id":"q","value":["v0","v2"]}"#, []),
        (#"{"op":"in","question_id":"q","value":["v0","x",5,"\u00e9"]}"#, [#""x""#, "5"]),
        (#"{"op":"not_in","question_id":"q","value":["nope"]}"#, [#""nope""#]),
    ]

    @Test(arguments: [4, FunnelContext.searchedOptionLimit, FunnelContext.searchedOptionLimit + 1, 40])
    func unknownValuesAreFoundAtEverySize(optionCount: Int) {
        let found = findings(Self.text(optionCount: optionCount, clauses: Self.clauses.map(\.clause)))
            .filter { $0.rule == .clauseOptionUnknown }
        let expected = Self.clauses.enumerated().filter { !$0.element.unknown.isEmpty }
        #expect(found.count == expected.count)
        for (finding, (index, clause)) in zip(found, expected) {
            #expect(finding.message.hasPrefix(#"Rule "r\#(index)" on page "after""#))
            #expect(finding.message.contains("with \(clause.unknown.joined(separator: ", ")), which is not"))
        }
    }

    /// A value one edit away from an option's is suggested, among few options and many alike.
    @Test(arguments: [5, FunnelContext.searchedOptionLimit + 1, 150])
    func aCloseValueIsSuggested(optionCount: Int) throws {
        let clause = #"{"op":"eq","question_id":"q","value":"vv2"}"#
        let finding = try #require(findings(Self.text(optionCount: optionCount, clauses: [clause])).first { $0.rule == .clauseOptionUnknown })
        #expect(finding.message.contains(#"did you mean "v2"?"#))
        #expect(finding.message.contains(#"values: "v0", "v1""#))
        #expect(finding.message.contains(", …") == (optionCount > 12))
    }

    /// `count` pages asking `goal_0`, `goal_1`, …, and a rule reading `goal_x1`: one edit from `goal_1`.
    static func questionsText(count: Int) -> String {
        var pages = (0..<count).map { #"{"id":"p\#($0)","question_id":"goal_\#($0)","title":"Q","type":"yes_no"}"# }
        let rule = #"{"condition":{"clauses":[{"op":"is_answered","question_id":"goal_x1"}],"op":"all"},"goto":"end","id":"r"}"#
        pages.append(#"{"id":"last","next_rules":[\#(rule)],"title":"L","type":"info"}"#)
        let funnel = #"{"id":"f","pages":[\#(pages.joined(separator: ","))],"slug":"f"}"#
        return Snap.file(#""a":{"placement":\#(Snap.placement("a")),"funnel":\#(funnel)}"#)
    }

    @Test(arguments: [2, Format.suggestionCandidateLimit, Format.suggestionCandidateLimit + 1, 600])
    func aCloseQuestionIsSuggestedAmongFew(count: Int) throws {
        let finding = try #require(findings(Self.questionsText(count: count)).first { $0.rule == .questionUnknown })
        #expect(finding.message.contains(#"reads question "goal_x1""#))
        #expect(finding.message.contains(#"did you mean "goal_1"?"#) == (count <= Format.suggestionCandidateLimit))
    }
}
