import Foundation
import Testing
@testable import FallbackSite

@Suite("The page safety scan")
struct PageSafetyScanTests {
    static let sources = [
        "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json", "Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json",
        "Examples/2026-03-03-release-3.0.json", "Examples/2026-06-23-release-3.3.json", "Examples/2026-07-21-release-3.4.json",
    ]

    @Test(arguments: sources)
    func everyPageOfABuiltSitePasses(_ source: String) throws {
        let pages = try site(for: try example(source), baseline: try example("Examples/2026-05-19-release-3.2.json"))
            .filter { $0.key.hasSuffix(".html") }
        #expect(pages.count > 3)
        for (path, html) in pages {
            #expect(PageSafetyScan.problems(in: html) == [], "\(path)")
        }
    }

    /// Each edit injects what escaped text never produces; the scan names it.
    static let injections: [(String, String)] = [
        ("<main id=\"main\">", "<main id=\"main\"><img src=x onerror=alert(1)>"),
        ("<main id=\"main\">", "<main id=\"main\"><a href=\"javascript&#58;alert(1)\">x</a>"),
        ("<main id=\"main\">", "<main id=\"main\"><a href=\" JaVaScRiPt:alert(1)\">x</a>"),
        ("<main id=\"main\">", "<main id=\"main\"><a href=\"java&#x09;script:alert(1)\">x</a>"),
        ("<main id=\"main\">", "<main id=\"main\"><img src=\"data:image/svg+xml,x\" alt=\"\">"),
        ("<main id=\"main\">", "<main id=\"main\"><p style=\"color:red\">x</p>"),
        ("<main id=\"main\">", "<main id=\"main\"><script>alert(1)</script>"),
        ("<main id=\"main\">", "<main id=\"main\"><!-- x -->"),
        ("<main id=\"main\">", "<main id=\"main\"><iframe src=\"x.html\"></iframe>"),
        // (<del> and <ins> are the copy diffs' own; <s> is an element no template writes.)
        ("<main id=\"main\">", "<main id=\"main\"><s>x</s>"),
        ("<main id=\"main\">", "<main id=\"main\"><h1>again</h1>"),
        ("<main id=\"main\">", "<main id=\"main\">a <b"),
        ("<main id=\"main\">", "<main id=\"main\"><meta http-equiv=\"refresh\" content=\"0;url=https://example.com\">"),
        ("<meta http-equiv=\"Content-Security-Policy\"", "<meta http-equiv=\"X-Nothing\""),
    ]

    @Test(arguments: injections)
    func anInjectionIsReported(_ injection: (String, String)) throws {
        let index = try #require(try site(for: try example("Examples/2026-03-03-release-3.0.json"))["index.html"])
        #expect(PageSafetyScan.problems(in: index) == [])
        #expect(index.contains(injection.0))
        let injected = index.replacingOccurrences(of: injection.0, with: injection.1)
        #expect(PageSafetyScan.problems(in: injected) != [], "\(injection.1)")
    }

    /// A comment ends where the tokenizer ends it, and nothing inside it is read as a tag: the scan
    /// reports it, and reads the page after it (here `<p>after</p>`, or what the comment leaves).
    @Test(arguments: [
        ("<!-- <b title='x'> -->", "<p>after</p>"), ("<!-->", "<p>after</p>"), ("<!--->", "<p>after</p>"),
        ("<!-- a --!>", "<p>after</p>"), ("<!-- a --->", "<p>after</p>"), ("<!-- a -- > b -->", "<p>after</p>"),
        ("<!doctype x 'y>", "<p>after</p>"), ("<!x>", "<p>after</p>"), ("<!-x>", "<p>after</p>"), ("<!", "after</p>"),
        ("<!-- a ->", ""), ("<!-- a", ""),
    ])
    func aCommentEndsWhereTheTokenizerEndsIt(comment: String, rest: String) {
        let page = comment + "<p>after</p>"
        let end = PageSafetyScan.endOfComment(startingAt: 0, in: Array(page.utf8))
        #expect(String(decoding: Array(page.utf8)[end...], as: UTF8.self) == rest, "\(comment)")
        let (tags, problems) = PageSafetyScan.read(Array(("<i>" + page).utf8))
        #expect(tags.map { ($0.isEnd ? "/" : "") + $0.name } == ["i"] + PageSafetyScan.tags(in: rest).map { ($0.isEnd ? "/" : "") + $0.name })
        #expect(problems == ["a comment or declaration at byte 3"], "\(comment)")
    }

    @Test func theSchemeIsReadAsABrowserReadsIt() {
        #expect(PageSafetyScan.scheme(of: "assets/site.js") == nil)
        #expect(PageSafetyScan.scheme(of: "#L1-2") == nil)
        #expect(PageSafetyScan.scheme(of: "a/b:c") == nil)
        #expect(PageSafetyScan.scheme(of: "HTTPS://example.com") == "https")
        #expect(PageSafetyScan.scheme(of: "&#106;avascript:x") == "javascript")
        #expect(PageSafetyScan.scheme(of: "javascript&colon;x") == "javascript")
        #expect(PageSafetyScan.scheme(of: "\u{1}java\nscript:x") == "javascript")
    }
}
