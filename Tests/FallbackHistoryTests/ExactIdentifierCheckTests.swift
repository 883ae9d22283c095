import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackHistoryTestSupport
import FallbackTestSupport

/// Ids and keys from a snapshot are compared by their bytes, as the SDK compares them: `café`
/// composed (U+00E9) and `café` decomposed (e + U+0301) are two different ids, although Swift's
/// `==` calls them equal.
@Suite("Checks compare ids by their bytes")
struct ExactIdentifierCheckTests {
    static let composed = "caf\\u00e9"
    static let decomposed = "cafe\\u0301"

    static func ruleIds(_ text: String) -> [Rule.ID] {
        findings(text).map(\.ruleId)
    }

    /// Enough filler pages to take the funnel past the size where lookups use dictionaries.
    static func filler(_ count: Int) -> [String] {
        (0..<count).map { Snap.page("f\($0)", "statement", #""default_next":"end""#) }
    }

    /// A goto or default_next naming the decomposed id does not reach the composed page: the SDK
    /// finds no such page.
    @Test(arguments: [0, FunnelContext.searchedPageLimit + 1])
    func aTargetMatchesOnlyTheSameBytes(fillerPages: Int) {
        let pages = [
            Snap.page("p1", "welcome", #""default_next":"\#(Self.decomposed)""#),
            Snap.page(Self.composed, "statement", #""default_next":"end""#),
        ]
        let text = Snap.funnelFile(extra: "", pages + Self.filler(fillerPages))
        #expect(Self.ruleIds(text).contains(Rule.gotoUnknown.id), "\(findings(text))")

        let rule = Snap.rule("r1", goto: Self.decomposed)
        let ruled = Snap.funnelFile(
            extra: "",
            [Snap.page("p1", "welcome", #""next_rules":[\#(rule)],"default_next":"end""#), pages[1]] + Self.filler(fillerPages))
        #expect(Self.ruleIds(ruled).contains(Rule.gotoUnknown.id), "\(findings(ruled))")

        let exact = Snap.funnelFile(
            extra: "",
            [Snap.page("p1", "welcome", #""default_next":"\#(Self.composed)""#), pages[1]] + Self.filler(fillerPages))
        #expect(!Self.ruleIds(exact).contains(Rule.gotoUnknown.id), "\(findings(exact))")
    }

    /// Two pages whose ids differ only by normalisation are two pages, not a duplicate.
    @Test(arguments: [0, FunnelContext.searchedPageLimit + 1])
    func twinPageIdsAreNotDuplicates(fillerPages: Int) {
        let text = Snap.funnelFile(
            extra: "",
            [
                Snap.page(Self.composed, "welcome", #""default_next":"\#(Self.decomposed)""#),
                Snap.page(Self.decomposed, "statement", #""default_next":"end""#),
            ] + Self.filler(fillerPages))
        let ids = Self.ruleIds(text)
        #expect(!ids.contains(Rule.duplicatePageId.id), "\(findings(text))")
        #expect(!ids.contains(Rule.gotoUnknown.id), "\(findings(text))")
    }

    /// Question ids: twins are two questions, and a clause naming one does not read the other.
    @Test(arguments: [0, FunnelContext.searchedPageLimit + 1])
    func twinQuestionIds(fillerPages: Int) {
        let question = { (id: String, page: String) in
            Snap.page(page, "single_choice", #""question_id":"\#(id)",\#(Snap.options)"#)
        }
        let twins = Snap.funnelFile(extra: "", [question(Self.composed, "q1"), question(Self.decomposed, "q2")] + Self.filler(fillerPages))
        #expect(!Self.ruleIds(twins).contains(Rule.duplicateQuestionId.id), "\(findings(twins))")

        let clause = Snap.clause(Self.decomposed, "eq", #""a""#)
        let reads = Snap.funnelFile(
            extra: "",
            [
                question(Self.composed, "q1"),
                Snap.page("p2", "statement", #""next_rules":[\#(Snap.rule("r1", goto: "end", clauses: clause))]"#),
            ] + Self.filler(fillerPages))
        #expect(Self.ruleIds(reads).contains(Rule.questionUnknown.id), "\(findings(reads))")
    }

    /// A clause value matches an option only with the same bytes.
    @Test(arguments: [1, 20])
    func clauseValuesMatchOptionsByBytes(optionCount: Int) {
        let options = ([Self.composed] + (1..<optionCount).map { "o\($0)" }).map { #"{"label":"L","value":"\#($0)"}"# }
        let page = Snap.page("q1", "single_choice", #""question_id":"goal","options":[\#(options.joined(separator: ","))]"#)
        for (op, value) in [("eq", "\"\(Self.decomposed)\""), ("in", "[\"\(Self.decomposed)\",\"o1\"]")] {
            let clause = Snap.clause("goal", op, value)
            let text = Snap.funnelFile(
                extra: "", [page, Snap.page("p2", "statement", #""next_rules":[\#(Snap.rule("r1", goto: "end", clauses: clause))]"#)])
            #expect(Self.ruleIds(text).contains(Rule.clauseOptionUnknown.id), "\(op): \(findings(text))")
        }
    }

    /// Two variants whose ids differ only by normalisation report two different ids.
    @Test func twinVariantIdsAreNotDuplicates() {
        let text = Snap.experimentFile(Snap.variant(Self.composed, "0.5"), Snap.variant(Self.decomposed, "0.5"))
        #expect(!Self.ruleIds(text).contains(Rule.duplicateVariantId.id), "\(findings(text))")
        let same = Snap.experimentFile(Snap.variant(Self.composed, "0.5"), Snap.variant(Self.composed, "0.5"))
        #expect(Self.ruleIds(same).contains(Rule.duplicateVariantId.id))
    }

    /// A variant renamed to its twin is a variant removed and one added, in the history.
    @Test func aVariantRenamedToItsTwinIsAChange() throws {
        let before = Snap.experimentFile(Snap.variant(Self.composed, "1"))
        let after = Snap.experimentFile(Snap.variant(Self.decomposed, "1"))
        let revisions = try #require(try timeline([before, after]).placements.first?.revisions)
        #expect(revisions.count == 2)
        let summary = try #require(revisions.last?.summary)
        #expect(summary.contains("added") && summary.contains("removed"), "\(summary)")
        #expect(revisions[0].served != revisions[1].served)
    }
}
