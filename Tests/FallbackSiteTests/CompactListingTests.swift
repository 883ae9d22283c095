import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The source listing's lean markup (issue 10, page weight): preformatted text with a gutter span
/// per line, an element only for a marked line, bare punctuation, unescaped quotes; and still
/// every character of the value, every position, every marker and every anchor.
@Suite("Compact source listing")
struct CompactListingTests {
    static let text = #"{"k":{"id":"pg \"a\" <b> & c","n":-1.5e3,"t":true,"f":false,"z":null,"e":[],"o":{},"l":["x",{"y":"é"}]}}"#

    /// The listing of the value under `/k`, with `findings` marked.
    static func listing(_ text: String = text, findings: [Finding] = [], anchors: [String] = []) -> String {
        let document = JSONDocument(text: text)
        let value = document.root.members[0].value
        return SourceListing.html(for: value, key: "k", findings: findings, linkedFrom: anchors)
    }

    /// `html` as the browser shows it: tags removed, character references decoded.
    static func shown(_ html: String) -> String {
        html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The listing's lines, gutters removed.
    static func codeLines(_ html: String) -> [String] {
        let body = html.replacingOccurrences(of: #"<span class="ln">[^<]*</span>"#, with: "", options: .regularExpression)
        return shown(body).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
    }

    @Test func theListingIsTheValuePrettyPrintedWithNothingLost() throws {
        let lines = Self.codeLines(Self.listing())
        #expect(lines.first == #""k": {"#)
        #expect(lines.contains(#"  "id": "pg \"a\" <b> & c","#))
        #expect(lines.contains(#"  "n": -1.5e3,"#))
        #expect(lines.contains(#"  "e": [],"#))
        // Without its key, the text parses back to the very value it lists.
        let json = lines.joined(separator: "\n").dropFirst(#""k": "#.count)
        let listed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        let original = try JSONSerialization.jsonObject(with: Data(Self.text.utf8)) as? [String: Any]
        #expect(listed == original?["k"] as? NSDictionary)
    }

    @Test func eachLineIsOneTextLineWithItsGutter() {
        let html = Self.listing()
        let body = html.dropFirst(#"<pre class="source"><code>"#.count).dropLast("</code></pre>".count)
        let lines = body.split(separator: "\n")
        #expect(lines.count == Self.codeLines(html).count)
        let document = JSONDocument(text: Self.text)
        let id = document.root.members[0].value.members[0].value.position
        #expect(lines.contains { $0.hasPrefix(#"<span class="ln">\#(id.line):\#(id.column)</span>  <span class="k">"id"</span>: "#) })
        // A closing bracket has an empty gutter.
        #expect(lines.contains(#"<span class="ln"></span>    }"#) && lines.contains(#"<span class="ln"></span>  ]"#))
        #expect(lines.last == #"<span class="ln"></span>}"#)
    }

    @Test(arguments: [#"class="line""#, #"class="lc""#, "tok-", "&quot;", "&#39;"])
    func theMarkupCarriesNothingRedundant(_ fragment: String) {
        #expect(!Self.listing().contains(fragment))
    }

    @Test func textCannotBecomeMarkup() throws {
        let hostile = #"{"k":{"</code></pre><script>alert(1)</script>":"<img src=x onerror=alert(1)>&amp;"}}"#
        let html = Self.listing(hostile)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;"))
        #expect(html.contains("&amp;amp;"))
        let tags = try NSRegularExpression(pattern: "<(/?)([a-z]+)").matches(in: html, range: NSRange(html.startIndex..., in: html))
        #expect(Set(tags.map { (html as NSString).substring(with: $0.range(at: 2)) }) == ["pre", "code", "span"])
    }

    @Test func aMarkedLineIsABlockWithItsAnchorAndRule() throws {
        let document = JSONDocument(text: Self.text)
        let value = document.root.members[0].value.members[1].value
        let finding = Finding(
            ruleId: "number-bad", severity: .warning, message: "m", placementKey: "k", pointer: "/k/n",
            line: value.position.line, column: value.position.column)
        let html = Self.listing(findings: [finding, finding])
        let anchor = SourceListing.anchor(line: value.position.line, column: value.position.column)
        let marked = try #require(html.range(of: #"<span class="line is-marked sev-warning">"#))
        let rest = html[marked.upperBound...]
        #expect(rest.hasPrefix(#"<span id="\#(anchor)"></span><span class="ln">\#(value.position.line):\#(value.position.column)</span>"#))
        // The line's own line feed ends inside it, so the block adds no empty line.
        #expect(rest.contains(#"-1.5e3</span>, <mark>number-bad</mark> ×2"# + "\n</span>"))
        #expect(html.components(separatedBy: "is-marked").count == 2)
    }

    @Test func anAnchorNoLineCarriesStillExists() {
        let html = Self.listing(anchors: ["L9-99"])
        #expect(html.hasSuffix(#"<span id="L9-99"></span><span class="ln"></span>"# + "\n</code></pre>"))
    }

    @Test func aLongValueIsCutWithItsLengthInANote() {
        let long = String(repeating: "\"", count: SourceListing.maximumStringLength + 10)
        let escaped = long.replacingOccurrences(of: "\"", with: "\\\"")
        let html = Self.listing(#"{"k":"\#(escaped)"}"#)
        #expect(html.contains(#"<span class="note">("#))
        #expect(!html.contains("&quot;"))
    }

    @Test func aListingPassesThePageSafetyScanInAPage() throws {
        let files = try site(for: Array(#"{"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"funnel":{"id":"f","slug":"s","name":"\"<N>\"","pages":[{"id":"a","type":"info","title":"it's \"x\""}]}}}}"#.utf8))
        let page = try #require(files.first { $0.key.hasPrefix("placements/") }?.value)
        #expect(page.contains(#"<span class="s">"\"&lt;N&gt;\""</span>"#))
        #expect(PageSafetyScan.problems(in: page) == [])
    }
}
