import Foundation
import Testing
@testable import FallbackSite

/// Sizes at which a quadratic step of the site build takes minutes; built in about a second when
/// every step is linear. The size is the assertion: there is no clock here.
/// The sizes are chosen so the old, quadratic code took minutes (21 s at 10,000 options, over two
/// minutes at 50,000): the coarse time limit makes such a regression fail rather than only slow
/// the suite, while a linear build takes seconds even in a debug build on a loaded machine.
@Suite("Site builds stay linear", .timeLimit(.minutes(2)))
struct SiteScalingTests {
    @Test func aPageWithFiftyThousandImageOptionsListsEveryURL() throws {
        let count = 50_000
        var options: [String] = []
        options.reserveCapacity(count)
        for index in 0..<count {
            options.append(#"{"label":"o\#(index)","value":"v\#(index)","imageUrl":"https://cdn.example.com/\#(index).png"}"#)
        }
        let snapshot = #"{"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"funnel":{"id":"f","slug":"f","pages":[{"id":"p1","type":"single_choice","question_id":"q","options":["#
            + options.joined(separator: ",") + "]}]}}}}"
        let files = try site(for: Array(snapshot.utf8))
        let funnel = try #require(files["funnels/f.html"])
        #expect(funnel.contains("<code>options/0/imageUrl</code>"))
        #expect(funnel.contains("<code>options/\(count - 1)/imageUrl</code>: <a class=\"mono\" href=\"https://cdn.example.com/\(count - 1).png\""))
        #expect(funnel.components(separatedBy: "<li><a href=\"#").count - 1 == count)
    }

    @Test func aKeyWrittenAHundredThousandTimesAnchorsEveryFinding() throws {
        let count = 100_000
        let entry = #""k":{"placement":{"identifier":"k","revision":1}}"#
        let snapshot = #"{"formatVersion":1,"placements":{"# + Array(repeating: entry, count: count).joined(separator: ",") + "}}"
        let files = try site(for: Array(snapshot.utf8))
        let placement = try #require(files["placements/k.html"])
        #expect(placement.contains("written \(count) times"))
        // Each repeated key has its finding, linked to its own line and column.
        let anchors = LinkChecker.attributeValues(named: "id", in: placement).filter { $0.hasPrefix("L") }
        #expect(Set(anchors).count >= count - 1)
        #expect(LinkChecker(files: files).brokenLinks().isEmpty)
    }
}
