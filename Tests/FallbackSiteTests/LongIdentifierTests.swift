import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// A huge key or id is shown shortened wherever it appears, and in full once, on its own page, so
/// the site grows with what is worth showing, not with how often a page names the value.
@Suite("Huge keys and ids")
struct LongIdentifierTests {
    static let keyLength = 5_000_000
    static let idLength = 200_000
    static let key = "k" + String(repeating: "a", count: keyLength - 2) + "z"
    static let funnelId = "f" + String(repeating: "b", count: idLength - 1)
    static let pageId = "p" + String(repeating: "c", count: idLength - 1)

    static let snapshot: String = {
        // The key is written twice and is the subject of findings (an unknown target, a repeated
        // key); the funnel id and a page id are huge too, and the funnel is served by two placements.
        let funnel = #"{"id":"\#(funnelId)","slug":"s","name":"N","pages":[{"id":"\#(pageId)","type":"info","default_next":"nowhere","mediaUrl":"https://cdn.example.com/a.png"},{"id":"p2","type":"info","default_next":"\#(pageId)"}]}"#
        let entry = #"{"placement":{"identifier":"k","revision":1},"funnel":\#(funnel)}"#
        let experiment = #"{"placement":{"identifier":"e","revision":1},"experiment":{"id":"x","key":"y","variants":[{"variantId":"v","weight":1,"funnel":\#(funnel)}]}}"#
        return #"{"formatVersion":1,"placements":{"\#(key)":{},"\#(key)":\#(entry),"e":\#(experiment)}}"#
    }()

    /// Built once for every test here.
    static let files: [String: String] = try! site(for: Array(snapshot.utf8))

    @Test func pagesStayBoundedWithTheFullValueShownOnce() throws {
        let files = Self.files
        let pages = files.filter { $0.key.hasSuffix(".html") }
        let placementPath = try #require(pages.keys.first { $0.hasPrefix("placements/") && $0 != "placements/e.html" })
        let funnelPath = try #require(pages.keys.first { $0.hasPrefix("funnels/") })
        let total = pages.values.reduce(0) { $0 + $1.utf8.count }
        // The key in full once, the funnel id in full once, and a bounded rest.
        #expect(total < Self.keyLength + Self.idLength + 600_000, "\(total) bytes")
        for (path, html) in pages where path != placementPath && path != funnelPath {
            #expect(html.utf8.count < 200_000, "\(path): \(html.utf8.count) bytes")
        }
        let placement = try #require(pages[placementPath])
        #expect(placement.utf8.count < Self.keyLength + 200_000)
        #expect(placement.contains("<details"))
        #expect(placement.contains(Self.key))
        let funnel = try #require(pages[funnelPath])
        #expect(funnel.utf8.count < Self.idLength + 200_000)
        #expect(funnel.contains(Self.funnelId))
    }

    @Test func shortenedValuesSayHowLongTheyAreAndDifferByTheirEnd() {
        let shortened = SnapshotText.shortened(Self.key)
        #expect(shortened.count < 200)
        #expect(shortened.hasPrefix(String(Self.key.prefix(SnapshotText.shortLength))))
        #expect(shortened.contains("…"))
        #expect(shortened.contains("5,000,000"))
        // Two values with the same beginning are told apart.
        #expect(shortened != SnapshotText.shortened(String(Self.key.dropLast()) + "y"))
        #expect(SnapshotText.shortened("onboarding") == "onboarding")
    }

    @Test func fileNamesStayBounded() throws {
        let files = Self.files
        for path in files.keys {
            #expect(path.utf8.count <= 100, "\(path.prefix(120))")
        }
    }

    @Test func aSourceListingCutsLongLines() throws {
        let files = Self.files
        let placement = try #require(files.first { $0.key.hasPrefix("placements/") && $0.key != "placements/e.html" }?.value)
        let listing = try #require(placement.range(of: "<pre class=\"source\">")).lowerBound
        let lines = placement[listing...].split(separator: "\n")
        for line in lines {
            #expect(line.utf8.count < 4_000, "\(line.prefix(200))")
        }
    }
}
