import Foundation
import Testing

@testable import FallbackMarkdown

/// `tagfilter` with `TagFilter`'s test of each tag against cmark-gfm's own extension: every render
/// must give the same bytes both ways, in raw HTML mode and in safe mode.
struct MarkdownTagFilterTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Renders `markdown` both ways; nil when they agree, else both outputs.
    static func disagreement(_ markdown: [UInt8], options: Markdown.Options) -> (swift: String, cmark: String)? {
        markdown.withUnsafeBufferPointer { source in
            let swift = Markdown.withHTML(fromUTF8: source, options: options, tagFiltering: .swift) { Array($0) }
            let cmark = Markdown.withHTML(fromUTF8: source, options: options, tagFiltering: .cmark) { Array($0) }
            return swift == cmark ? nil : (String(decoding: swift, as: UTF8.self), String(decoding: cmark, as: UTF8.self))
        }
    }

    /// Pieces of Markdown and raw HTML around the disallowed names: every name, in blocks, inline,
    /// closing, self-closing, in other cases, cut short, followed by each byte the rule looks at,
    /// inside comments, code, attributes and link titles, and at the very end of the text.
    static let fragments: [String] = {
        var pieces = [
            "<script>alert(1)</script>\n", "<SCRIPT >x</SCRIPT\t>", "<ScRiPt/>", "<script/ >", "<script", "<script\n",
            "</script", "<scripts>", "<scrip>", "<title>a</title>", "<textarea rows=2>", "<style>p{}</style>",
            "<xmp>", "<iframe src=x>", "<noembed>", "<noframes>", "<plaintext>", "<thead>", "<th>", "<tbody>",
            "<strong>", "<section>", "<sup>", "<p>", "<i>", "<x>", "<n>", "<t>", "<s>", "< script>", "<!-- <script> -->",
            "<?php <style> ?>", "<![CDATA[<title>]]>", "`<script>`", "    <script>\n", "```\n<script>\n```\n",
            "[a](x \"<script>\")", "<a title=\"<script>\">", "<div>\n<script>\n</div>\n", "<div><textarea></div>",
            "\\<script>", "&lt;script>", "*<script>*", "| <script> | b |\n| --- | --- |\n| <title> | <x> |\n",
            "- [ ] <style>\n", "~~<xmp>~~", "https://x.test/<script>", "<https://x.test/<script>>", "\r\n", "\r", "\n\n",
            "<script\u{0B}>", "<script\u{0C}>", "<script\r>", "<script\u{00}>", "<scr\u{00}ipt>", "\u{00}", "<\u{00}",
            "<script\u{00A0}>", "<scrİpt>", "<TITLE/>", "</title\n>", "<title/", "<title/x>", "<", "</", "<<script>>",
        ]
        for name in TagFilter.names.map({ $0.description }) {
            pieces += ["<\(name)>", "</\(name.uppercased())>", "<\(name) />", "<\(name)", "<\(name)x>", "<\(name.dropLast())>"]
        }
        return pieces
    }()

    @Test(arguments: [Markdown.Options.default, []])
    func everyFragmentAloneAndInLines(options: Markdown.Options) {
        for fragment in Self.fragments {
            for text in [fragment, fragment + "\n", "a " + fragment + " b\n", "<div>\n" + fragment + "\n</div>\n", "x\n\n" + fragment] {
                let difference = Self.disagreement(Array(text.utf8), options: options)
                #expect(difference == nil, "\(text.debugDescription): \(difference.map { "\($0.swift) ≠ \($0.cmark)" } ?? "")")
            }
        }
    }

    /// Thousands of random mixes of the fragments and of Markdown around them (fixed seed).
    @Test(arguments: [Markdown.Options.default, []])
    func randomMixes(options: Markdown.Options) {
        var generator = SplitMix(seed: 0x7A6F)
        let glue = ["\n", "\n\n", " ", "", "> ", "- ", "1. ", "# ", "    ", "| ", "*", "`", "<div>", "</div>\n", "text "]
        var disagreements = 0
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12 + 1) {
                text += glue[Int(generator.next() % UInt64(glue.count))]
                text += Self.fragments[Int(generator.next() % UInt64(Self.fragments.count))]
            }
            if let difference = Self.disagreement(Array(text.utf8), options: options) {
                disagreements += 1
                if disagreements <= 5 { Issue.record("\(text.debugDescription): \(difference.swift) ≠ \(difference.cmark)") }
            }
        }
        #expect(disagreements == 0)
    }

    /// The repository's own Markdown and templates: what pages are made of.
    @Test func repositoryMarkdownAndTemplates() throws {
        var files: [URL] = []
        for folder in ["Templates", "docs"] {
            let root = Self.repository.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "md" || url.pathExtension == "mustache" { files.append(url) }
            }
        }
        files += ["README.md", "ARCHITECTURE.md"].map { Self.repository.appendingPathComponent($0) }
        #expect(files.count > 10)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            #expect(Self.disagreement(bytes, options: .default) == nil, "\(file.lastPathComponent)")
        }
    }

    /// The test alone, on tags cut where cmark-gfm never cuts a node (a node ends with `>` or a
    /// line feed), as `is_tag` in cmark-gfm's `tagfilter.c` answers: the name must be followed,
    /// inside the tag, by whitespace, `>` or `/>`.
    @Test(arguments: [
        ("<title>", true), ("<title", false), ("<title/", false), ("<title/>", true), ("<title/x", false), ("<title ", true),
        ("<title\u{0C}", false), ("<title\u{0B}", false), ("<title\r", true), ("</SCRIPT>", true), ("</script", false),
        ("<scrip", false), ("<", false), ("<t", false), ("</", false), ("</t>", false), ("<x>", false), ("<xmp>", true),
        ("<XMP\t", true), ("<plaintext>", true), ("<plaintex>", false), ("<noframes/>", true), ("<noembed>", true),
        ("<iframe\n", true), ("<textarea>", true), ("<textareas>", false), ("<style>", true), ("<STYLE/>", true),
        ("<span>", false), ("<strong>", false), ("<thead>", false), ("<p>", false), ("x<title>", false), ("<\u{54}itle>", true),
        ("<\u{14}itle>", false), ("<tİtle>", false),
    ])
    func decidesAsCmarkDoes(tag: String, disallowed: Bool) {
        let bytes = Array(tag.utf8)
        #expect(bytes.withUnsafeBufferPointer { TagFilter.isDisallowed($0) } == disallowed)
    }

    /// Every name of the list is tested, whatever letter it starts with.
    @Test func everyNameIsDisallowed() {
        for name in TagFilter.names.map(\.description) {
            for tag in ["<\(name)>", "</\(name.uppercased()) ", "<\(name)/>"] {
                #expect(Array(tag.utf8).withUnsafeBufferPointer { TagFilter.isDisallowed($0) }, "\(tag)")
            }
        }
    }

    /// The filter does change what it should, and only that.
    @Test func neutralisesOnlyDisallowedTags() {
        #expect(Markdown.html(from: "<div><script>x</script><span>y</span><TITLE/></div>\n")
            == "<div>&lt;script>x&lt;/script><span>y</span>&lt;TITLE/></div>\n")
        #expect(Markdown.html(from: "plain text, no tags\n") == "<p>plain text, no tags</p>\n")
    }
}

/// A small fixed-seed generator, so every run mixes the same texts.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
