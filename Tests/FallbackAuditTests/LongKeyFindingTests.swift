@testable import FallbackAudit
import FallbackSample
import FallbackTestSupport
import Foundation
@testable import RovenueFallback
import Testing

/// Findings under long keys (a placement key, a funnel's paywall key, a page id) keep their JSON
/// Pointers as `JSONPointer`s whose heads they share, and compare, hash and match across snapshots
/// exactly as their spelled pointers do.
@Suite struct LongKeyFindingTests {
    /// A placement keyed `key` runs an experiment whose first variant serves a funnel with a
    /// paywall keyed `paywallKey`, a first page whose id is `pageId` and `rules` rules to pages that
    /// do not exist; a placement `short` serves the same funnel directly.
    static func snapshot(key: String, paywallKey: String, pageId: String, rules: Int, target: String = "q") -> String {
        let ruleList = (0..<rules).map { #"{"id":"r\#($0)","condition":{"op":"all","clauses":[]},"goto":"\#(target)\#($0)"}"# }
            .joined(separator: ",")
        func funnel(_ id: String) -> String {
            #"{"id":"\#(id)","slug":"\#(id)","paywalls":{"\#(paywallKey)":{"id":"pwx","identifier":"pwx","name":"X","configFormatVersion":1,"#
                + #""remoteConfig":null,"offering":null,"builderConfig":{"img":"https://cdn.x/a.png"}}},"pages":["#
                + #"{"id":"\#(pageId)","type":"welcome","imageUrl":"https://cdn.x/b.png","next_rules":[\#(ruleList)]},"#
                + #"{"id":"p2","type":"single_choice","question_id":"goal","options":[{"label":"A","value":"a","imageUrl":"https://cdn.x/c.png"}]},"#
                + #"{"id":"p3","type":"paywall","paywallId":"\#(paywallKey)"}]}"#
        }
        let paywall = #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
        return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"#
            + #""\#(key)":{"placement":{"identifier":"\#(key)x","revision":1},"experiment":{"id":"exp","key":"e","variants":["#
            + #"{"variantId":"v1","weight":50,"funnel":\#(funnel("f1"))},{"variantId":"v2","weight":50,"paywall":\#(paywall)}]}},"#
            + #""short":{"placement":{"identifier":"short","revision":1},"funnel":\#(funnel("f2"))}}}"#
    }

    static let long = String(repeating: "k", count: 3 * JSONPointer.longToken)
    static let longPaywall = String(repeating: "w", count: JSONPointer.longToken)
    static let longPage = String(repeating: "p", count: 2 * JSONPointer.longToken)

    static let text = snapshot(key: long, paywallKey: longPaywall, pageId: longPage, rules: 40)

    /// Each finding's pointer is the text the document spells for it, split as the text splits, and
    /// the findings under the long placement key hold its head once.
    @Test func findingsUnderALongKeyShareItsHead() throws {
        let found = findings(Self.text)
        let under = found.filter { $0.pointer.hasPrefix("/placements/\(Self.long)/") }
        #expect(under.count > 40)
        for finding in found {
            #expect(finding.jsonPointer == JSONPointer(finding.pointer))
            #expect(finding.jsonPointer.hashValue == JSONPointer(finding.pointer).hashValue)
        }
        let rules = under.filter { $0.ruleId == "goto-unknown" }
        #expect(rules.count == 40)
        let head = try #require(rules.first?.jsonPointer.head)
        #expect(head.text == "/placements/\(Self.long)")
        #expect(rules.allSatisfy { $0.jsonPointer.head === head })
    }

    /// A finding made with the pointer's text is the same finding as the audit's, which holds the
    /// speller's shared head: equal, with the same hash.
    @Test func aFindingIsTheSameWhateverHoldsItsPointer() {
        for finding in findings(Self.text) {
            let remade = Finding(
                ruleId: finding.ruleId, severity: finding.severity, message: finding.message, subject: finding.subject,
                pointer: finding.pointer, line: finding.line, column: finding.column)
            #expect(remade == finding)
            #expect(remade.hashValue == finding.hashValue)
            #expect(remade.description == finding.description)
        }
    }

    /// The tail searched first, then the head on its own, finds the subject's node where the
    /// whole pointer's segments do, for every finding against every subject's anchor.
    @Test func thePointerBelowTheSubjectIsTheSameFromTheParts() {
        let found = findings(Self.text) + findings(Snap.funnelFile(welcome: #""next_rules":[\#(Snap.rule("r1", goto: "p9"))]"#))
            + findings(Self.manySubjects(key: Self.long, pages: 5))
        let anchors = found.map { FindingIdentity.path(of: $0.subject).1 } + [["paywalls"], ["placements", Self.long], []]
        for finding in found {
            for anchor in anchors {
                #expect(
                    FindingIdentity.pointer(finding.jsonPointer, below: anchor) == FindingIdentity.pointer(finding.pointer, below: anchor),
                    "\(finding.ruleId) \(anchor.map { String($0.prefix(12)) })")
            }
        }
    }

    /// A finding's identity as it was made before pointers had heads: the rule, the subject's keys
    /// and ids, and the spelled pointer below the subject's node, searched in the whole text.
    struct ReferenceIdentity: Hashable {
        let rule: Rule.ID
        let path: [ExactKey]
        let pointer: ExactKey

        init(_ finding: Finding) {
            rule = finding.ruleId
            let (keys, anchor) = FindingIdentity.path(of: finding.subject)
            path = keys
            pointer = ExactKey(FindingIdentity.pointer(finding.pointer, below: anchor))
        }
    }

    /// What `FindingComparison` did before it numbered keys: identities in a dictionary.
    static func referenceComparison(previous: [Finding], current: [Finding]) -> (statuses: [FindingStatus], fixed: [Finding]) {
        var remaining: [ReferenceIdentity: Int] = [:]
        for finding in previous { remaining[ReferenceIdentity(finding), default: 0] += 1 }
        let statuses = current.map { finding -> FindingStatus in
            guard let count = remaining[ReferenceIdentity(finding)], count > 0 else { return .new }
            remaining[ReferenceIdentity(finding)] = count - 1
            return .stillPresent
        }
        var fixed: [Finding] = []
        for finding in previous.reversed() {
            guard let count = remaining[ReferenceIdentity(finding)], count > 0 else { continue }
            remaining[ReferenceIdentity(finding)] = count - 1
            fixed.append(finding)
        }
        return (statuses, fixed.reversed())
    }

    /// A placement keyed `key` whose funnel has `pages` pages, each with one rule to a page that
    /// does not exist and a paywall page naming a paywall keyed with a long key of its own: many
    /// subjects under one key, and long keys under a long key.
    static func manySubjects(key: String, pages: Int, target: String = "q") -> String {
        let paywallKeys = (0..<pages).map { "\($0)" + String(repeating: "w", count: JSONPointer.longToken) }
        let paywalls = paywallKeys.map {
            #""\#($0)":{"id":"pwx","identifier":"pwx","name":"X","configFormatVersion":1,"remoteConfig":null,"offering":null,"builderConfig":{"img":"https://cdn.x/a.png"}}"#
        }.joined(separator: ",")
        let pageList = (0..<pages).map {
            #"{"id":"p\#($0)","type":"welcome","next_rules":[{"id":"r","condition":{"op":"all","clauses":[]},"goto":"\#(target)\#($0)"}]}"#
        } + paywallKeys.enumerated().map { #"{"id":"pay\#($0.offset)","type":"paywall","paywallId":"\#($0.element)"}"# }
        return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"#
            + #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},"funnel":{"id":"f","slug":"f","paywalls":{\#(paywalls)},"#
            + #""pages":[\#(pageList.joined(separator: ","))]}}}}"#
    }

    static let pairs: [(String, String)] = [
        (text, text),
        (text, snapshot(key: long, paywallKey: longPaywall, pageId: longPage, rules: 45)),
        (text, snapshot(key: long, paywallKey: longPaywall, pageId: longPage, rules: 40, target: "z")),
        (text, snapshot(key: long + "x", paywallKey: longPaywall, pageId: longPage, rules: 40)),
        (text, snapshot(key: long, paywallKey: longPaywall + "x", pageId: longPage, rules: 40)),
        (text, snapshot(key: long, paywallKey: longPaywall, pageId: "short", rules: 40)),
        (snapshot(key: "a", paywallKey: "b", pageId: "c", rules: 3), text),
        (SampleExport(placementCount: 30, seed: 1).jsonText(), SampleExport(placementCount: 30, seed: 2).jsonText()),
        (manySubjects(key: long, pages: 30), manySubjects(key: long, pages: 25)),
        (manySubjects(key: long, pages: 30), manySubjects(key: long, pages: 30, target: "z")),
        (manySubjects(key: long, pages: 30), manySubjects(key: long + "x", pages: 30)),
    ]

    /// Numbering the keys (`FindingIdentity.Table`) matches what the identities match, finding for
    /// finding, across snapshots that keep, change and rename the long keys.
    @Test(arguments: 0..<pairs.count) func theComparisonMatchesTheIdentities(_ which: Int) {
        let (old, new) = Self.pairs[which]
        let previous = findings(old)
        let current = findings(new)
        let comparison = FindingComparison(previous: previous, current: current)
        let reference = Self.referenceComparison(previous: previous, current: current)
        #expect(comparison.statuses == reference.statuses)
        #expect(comparison.fixed == reference.fixed)
    }

    /// Two findings get equal table keys exactly when their identities are equal, whichever order
    /// the table meets them in (its memory of the last subject and head must not leak).
    @Test func tableKeysAreEqualExactlyWhenIdentitiesAre() {
        let all = findings(Self.text) + findings(Self.pairs[3].1) + findings(Self.pairs[4].1) + findings(Self.pairs[5].1)
            + findings(Self.pairs[8].0) + findings(Self.pairs[10].1)
        let identities = all.map(ReferenceIdentity.init)
        var generator = SplitMix64(seed: 3)
        for order in [Array(all.indices), all.indices.reversed(), all.indices.shuffled(using: &generator)] {
            var table = FindingIdentity.Table()
            var keys: [Int: FindingIdentity.Table.Key] = [:]
            for index in order { keys[index] = table.key(for: all[index]) }
            var mismatches: [(Int, Int)] = []
            for left in all.indices {
                for right in all.indices where right >= left && (keys[left] == keys[right]) != (identities[left] == identities[right]) {
                    mismatches.append((left, right))
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
            #expect(Set(keys.values).count == Set(identities).count)
        }
    }
}
