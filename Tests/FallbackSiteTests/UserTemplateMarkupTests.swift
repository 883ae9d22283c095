import FallbackAudit
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A build with a user's template that writes a comment with an apostrophe, then values in text,
/// as an unquoted attribute value, as a tag's name and as an attribute's name, and in a comment:
/// whatever the snapshot's text, the page has the template's elements and attributes and no
/// others, and text after the comment is still written as text (`<bdi>`, controls spelled out,
/// cut after 1,000 characters).
@Suite("A user template's comments, names and unquoted values, built")
struct UserTemplateMarkupTests {
    static let template = """
        # Paywall {{id}}

        <!-- don't edit by hand: it's generated -->

        <p class="text">{{name}}</p>

        <p class=k title={{name}}>unquoted</p>

        <p class=k title=v{{name}}>unquoted after text</p>

        <{{name}} class=k>tag name</{{name}}>

        <p {{name}}="v" class=k>attribute name</p>

        <!-- the name: {{name}} -->

        <p class="last">{{name}}</p>

        """

    /// `text` as a JSON string.
    static func json(_ text: String) -> String {
        var quoted = ""
        JSONValue.writeQuoted(text, to: &quoted)
        return quoted
    }

    /// A snapshot whose placement `p<n>` serves the paywall `pw<n>`, named by the n-th hostile value.
    static func snapshot(names: [String]) -> [UInt8] {
        let entries = names.enumerated().map { number, name in
            #""p\#(number)":{"placement":{"identifier":"p\#(number)","revision":1},"paywall":{"id":"pw\#(number)","identifier":"pw\#(number)","name":\#(Self.json(name)),"configFormatVersion":1,"remoteConfig":null,"offering":null}}"#
        }
        return Array(#"{"formatVersion":1,"generatedAt":1784000000000,"projectId":"proj_1","placements":{\#(entries.joined(separator: ","))}}"#.utf8)
    }

    /// The site of `snapshot(names:)` built with `paywall` as the paywall page's template, in a
    /// temporary folder (its `site` folder), which lives as long as the value returned.
    static func build(paywall: String, names: [String]) throws -> TemporaryFolder {
        let root = try TemporaryFolder("user-template")
        try FileManager.default.createDirectory(atPath: root.path + "/templates", withIntermediateDirectories: true)
        try Data(paywall.utf8).write(to: URL(fileURLWithPath: root.path + "/templates/paywall.md"))
        let snapshot = Self.snapshot(names: names)
        let build = SiteBuild(
            input: .file("hostile.json"), templates: root.path + "/templates", writer: SiteWriter(outputPath: root.path + "/site"),
            readFile: { _ in snapshot })
        _ = try build.run()
        return root
    }

    @Test func hostileNamesStayText() throws {
        // (An empty value makes no token: the page then holds the template's bytes as they are.)
        let names = MarkupContextTests.hostileValues.filter { !$0.isEmpty }
        let root = try Self.build(paywall: Self.template, names: names)
        for (number, name) in names.enumerated() {
            let path = root.path + "/site/paywalls/pw\(number).html"
            let page = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }, "\(path)")
            let said = "\(name.debugDescription.prefix(80))"
            let written = SnapshotText.name(name).lowercased()
            // What the safety scan finds is the template's comments and the odd names the value
            // makes; no element, attribute, script or link of the value's own.
            let problems = PageSafetyScan.problems(in: page).filter { problem in
                !problem.hasPrefix("a comment or declaration at byte ") && !problem.hasPrefix("<\(written)> at byte ")
                    && !problem.hasPrefix("<p \(written)=…> at byte ")
            }
            #expect(problems == [], "\(said)")
            let tags = MarkupContextTests.tags(in: page)
            for tag in [
                "p class=\"k\" title=\(name.debugDescription)", "p class=\"k\" title=\(("v" + name).debugDescription)", "\(written) class=\"k\"",
                "/\(written)", "p \(written)=\"v\" class=\"k\"", "p class=\"last\"",
            ] {
                let found = tags.contains(tag)
                #expect(found, "\(tag.prefix(200)) for \(said)")
            }
            // Text after the comment, and after the value's own comment, is text.
            for paragraph in ["text", "last"] {
                let found = page.contains("<p class=\"\(paragraph)\">\(SnapshotText.html(name))</p>")
                #expect(found, "\(paragraph) for \(said)")
            }
            let hidden = page.unicodeScalars.contains { VisibleText.isBidiControl($0) || ($0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0)) }
            #expect(!hidden, "\(said)")
        }
        let rightToLeft = try #require(names.firstIndex(of: "a\u{202E}evil\u{202C}"))
        let isolated = try String(contentsOfFile: root.path + "/site/paywalls/pw\(rightToLeft).html", encoding: .utf8)
        #expect(isolated.contains("<p class=\"text\"><bdi>a<span class=\"control-char\">&lt;U+202E&gt;</span>evil"))
        let long = try #require(names.firstIndex { $0.utf8.count == 5_000 })
        let cut = try String(contentsOfFile: root.path + "/site/paywalls/pw\(long).html", encoding: .utf8)
        let isCut = cut.contains("<p class=\"text\"><bdi>" + String(repeating: "A", count: 1_000) + "… (5,000 bytes, #")
        #expect(isCut)
    }

    /// A CDATA section in SVG ends at `]]>` in a browser, the scan ends it at its first `>`: a
    /// `<!--` inside it then reads as a comment to the scan, which runs on over what the browser
    /// reads as the page. A value there is written in the comment's form, inert in any of them:
    /// it adds no attribute and no live bidi control (review: `title=x onmouseover=alert(5) y`).
    @Test func aValueAfterACDATASectionThatHidesAComment() throws {
        let template = "# Paywall\n\n<svg><text><![CDATA[ a > b <!-- ]]></text></svg>\n\n<p title={{name}} class=k>x</p>\n\n<p class=k2>{{name}}</p>\n"
        let names = ["x onmouseover=alert(5) y", "a\u{202E}evil\u{202C}", "\" onclick=\"alert(1)"]
        let root = try Self.build(paywall: template, names: names)
        for (number, name) in names.enumerated() {
            let page = try String(contentsOfFile: root.path + "/site/paywalls/pw\(number).html", encoding: .utf8)
            // Both values after the CDATA section are in the comment's form: no space, `=`, quote
            // or hidden character of the name is written as it is, nor as a reference to one.
            #expect(page.contains("<p title=\(SnapshotText.comment(name)) class=k>x</p>"), "\(name.debugDescription)")
            #expect(page.contains("<p class=k2>\(SnapshotText.comment(name))</p>"), "\(name.debugDescription)")
            #expect(!page.contains("title=" + name) && !page.contains("k2>" + name), "\(name.debugDescription)")
            #expect(!SnapshotText.comment(name).contains("&#x202E;") && !page.unicodeScalars.contains { VisibleText.isBidiControl($0) })
        }
    }
}
