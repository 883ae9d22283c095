import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// A funnel page holds one drawing, so its element ids need no part of the funnel's id to be
/// unique: `fd-title`, `fd-page-0`, `fd-arrow-plain`, not `fd-<slug of the id>-<hash>-page-0`
/// (issue 10, page weight: the prefix was repeated on every box, edge and label).
@Suite("Short drawing ids")
struct ShortDrawingIdTests {
    static let funnelId = "fnl_Quite_A_Long_Funnel_Identifier_2026"

    @Test func aFunnelPageDrawingUsesTheShortPrefix() throws {
        let snapshot = #"{"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"funnel":{"id":"\#(Self.funnelId)","slug":"s","name":"N","pages":[{"id":"a","type":"info","default_next":"b"},{"id":"b","type":"info"}]}}}}"#
        let files = try site(for: Array(snapshot.utf8))
        let page = try #require(files.first { $0.key.hasPrefix("funnels/") }?.value)
        #expect(page.contains(#"<title id="fd-title">"#))
        #expect(page.contains(#"id="fd-page-0""#))
        #expect(page.contains(#"data-from="fd-page-0" data-to="fd-page-1""#))
        #expect(page.contains("url(#fd-arrow-"))
        #expect(!page.lowercased().contains("fd-fnl"))
        // Every id the drawing refers to is on the page, once.
        let ids = matches(#" id="([^"]+)""#, in: page)
        #expect(Set(ids).count == ids.count, "an id repeats")
        for reference in matches(#"(?:data-from|data-to|data-node)="([^"]+)""#, in: page) + matches(#"url\(#([^)]+)\)"#, in: page) {
            #expect(ids.contains(reference), "\(reference)")
        }
    }

    private func matches(_ pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            (text as NSString).substring(with: $0.range(at: 1))
        }
    }
}
