import FallbackAudit
import FallbackSample
import FallbackTestSupport
import Foundation
@testable import FallbackSite
@testable import RovenueFallback
import Testing

/// The site's parts that read findings' pointers and keys once a finding: with long keys, each
/// reads a shared head or a run's key once, and shows and marks what the spelled pointers give.
@Suite struct LongKeyPageTests {
    static let long = JSONPointer.longToken

    /// Long keys at three depths (placement, funnel paywall, a page's own member), with rules to
    /// missing pages and remote images, so findings sit under each.
    static func snapshot(rules: Int) -> String {
        let key = String(repeating: "k", count: 3 * long)
        let paywallKey = String(repeating: "w/~", count: long)
        let member = String(repeating: "é", count: long)
        let ruleList = (0..<rules).map { #"{"id":"r\#($0)","condition":{"op":"all","clauses":[]},"goto":"q\#($0)"}"# }
            .joined(separator: ",")
        let funnel = #"{"id":"f","slug":"f","paywalls":{"\#(paywallKey)":{"id":"pwx","identifier":"pwx","name":"X","configFormatVersion":1,"#
            + #""remoteConfig":null,"offering":null,"builderConfig":{"img":"https://cdn.x/a.png"}}},"pages":["#
            + #"{"id":"p1","type":"welcome","\#(member)":{"imageUrl":"https://cdn.x/b.png"},"next_rules":[\#(ruleList)]},"#
            + #"{"id":"p3","type":"paywall","paywallId":"\#(paywallKey)"}]}"#
        return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"#
            + #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},"funnel":\#(funnel)},"#
            + #""short":{"placement":{"identifier":"short","revision":1},"funnel":\#(funnel)}}}"#
    }

    /// The listing of each entry, given the audit's findings (whose pointers under one key share a
    /// head) or the same findings made from their pointers' text (a head each), is the reference
    /// listing's, which keys its marks by the spelled pointers.
    @Test func listingsMarkWhatTheSpelledPointersMark() throws {
        let text = Self.snapshot(rules: 30)
        let file = FallbackFile(text: text)
        let found = file.audit(now: testNow)
        #expect(found.count > 60)
        let remade = found.map {
            Finding(
                ruleId: $0.ruleId, severity: $0.severity, message: $0.message, subject: $0.subject, pointer: $0.pointer,
                line: $0.line, column: $0.column)
        }
        let placements = try #require(file.document.root["placements"])
        for entry in placements.members {
            let own = found.filter { $0.placementKey == entry.key }
            let listing = SourceListing.html(for: entry.value, key: entry.key, findings: own)
            #expect(listing == ReferenceSourceListing.html(for: entry.value, key: entry.key, findings: own))
            #expect(listing == SourceListing.html(for: entry.value, key: entry.key, findings: remade.filter { $0.placementKey == entry.key }))
            let markedLines = listing.components(separatedBy: "is-marked").count - 1
            #expect(markedLines == Set(own.map { ExactKey($0.pointer) }).count)
        }
        // Findings at every value, a head each.
        ListingBytesTests.expectListingsAgree(text, stride: 1)
        ListingBytesTests.expectListingsAgree(text, stride: 3)
    }

    /// A pointer shortened head and tail apart, the head remembered, reads as the whole text
    /// shortened token by token.
    @Test func shortenedPointersMatchTheWholeText() {
        let long = String(repeating: "k", count: Self.long)
        let pointers = [
            "", "/a", "/placements/\(long)", "/placements/\(long)/funnel/pages/0/options/12/imageUrl",
            "/placements/\(long)/x/" + String(repeating: "t", count: 100) + "/y",
            "/" + String(repeating: "e\u{301}", count: Self.long) + "/\u{301}z/" + String(repeating: "\u{301}", count: 90),
            "/" + String(repeating: "~1", count: Self.long) + "/p/" + String(repeating: "~0", count: 50),
            "/a/\(long)/b/\(long)2/" + String(repeating: "m", count: 81) + "/0",
            "/" + String(repeating: "s", count: 79) + "/" + String(repeating: "s", count: 80),
        ]
        let memo = SnapshotText.ShortenedPointers()
        for text in pointers {
            let pointer = JSONPointer(text)
            let expected = SnapshotText.shortenedPointer(text)
            #expect(memo.shortened(pointer) == expected, "\(text.prefix(40))")
            #expect(memo.shortened(pointer) == expected, "asked again: \(text.prefix(40))")
            #expect(memo.shortened(JSONPointer(head: pointer.head, tail: pointer.tail + "/9")) == SnapshotText.shortenedPointer(text + "/9"))
        }
    }

    /// Grouping by runs gives what grouping item by item gives: each key's items in order, keys
    /// met again after other keys included.
    @Test(arguments: [0, 1, 2, 3]) func runGroupingIsDictionaryGrouping(_ seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let keys = ["a", "b", "c", String(repeating: "l", count: 300), "e\u{301}", "\u{e9}"].map(ExactKey.init)
        var items: [(key: ExactKey, value: Int)] = []
        for value in 0..<400 {
            // Runs of one to six items under one key.
            let key = items.last.flatMap { last in Int.random(in: 0..<3, using: &generator) > 0 ? last.key : nil }
                ?? keys[Int.random(in: 0..<keys.count, using: &generator)]
            items.append((key, value))
        }
        var grouping = RunGrouping<ExactKey, Int>()
        for item in items { grouping.append(item.value, under: item.key) }
        let expected = Dictionary(grouping: items, by: \.key).mapValues { $0.map(\.value) }
        #expect(grouping.groups == expected)
        #expect(RunGrouping<ExactKey, Int>().groups.isEmpty)
    }
}
