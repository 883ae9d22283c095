@testable import FallbackAudit
import RovenueFallback
import Testing

/// `Audit.sorted` moves findings into order along the permutation's cycles; the order is the one a
/// stable sort by line, column and rule id gives, ties kept in reported order.
@Suite struct SortedFindingsTests {
    /// The order by a stable sort written here: line, column, rule id, then reported position.
    static func reference(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { lhs, rhs in
            (lhs.element.line, lhs.element.column, lhs.element.ruleId.rawValue, lhs.offset)
                < (rhs.element.line, rhs.element.column, rhs.element.ruleId.rawValue, rhs.offset)
        }.map(\.element)
    }

    /// `count` findings at few lines, columns and rules, so many tie; messages tell them apart.
    static func findings(count: Int, seed: UInt64) -> [Finding] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let rules = Rule.all
        return (0..<count).map { index in
            let rule = rules[next(rules.count)]
            return Finding(
                ruleId: rule.id, severity: rule.severity, message: "finding \(index)", placementKey: next(3) == 0 ? nil : "k\(next(4))",
                pointer: "/placements/k/\(index)", line: 1 + next(5), column: 1 + next(4))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 17, 1000]) func sortedMatchesAStableSort(_ count: Int) {
        for seed in UInt64(1)...5 {
            let findings = Self.findings(count: count, seed: seed)
            #expect(Audit.sorted(findings) == Self.reference(findings))
        }
    }

    @Test func sortedKeepsTheCallersArray() {
        let findings = Self.findings(count: 50, seed: 9)
        let copy = findings
        _ = Audit.sorted(findings)
        #expect(findings == copy)
    }

    @Test func alreadySortedAndReversedInputs() {
        let sorted = Self.reference(Self.findings(count: 200, seed: 3))
        #expect(Audit.sorted(sorted) == sorted)
        #expect(Audit.sorted(sorted.reversed()) == Self.reference(sorted.reversed()))
    }
}
