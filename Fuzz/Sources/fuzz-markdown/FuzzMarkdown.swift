import FallbackSite
import FuzzSupport
import FallbackMarkdown
import FallbackMustache

/// The Markdown wrapper (cmark-gfm with GitHub's extensions) on any text.
///
/// Properties, besides "no crash, no hang":
/// - any text renders (the wrapper never traps on what cmark-gfm returns);
/// - text escaped with `MustacheEscaping.markdown` and put in a template (paragraph, heading, list
///   item, table cell, link text, raw HTML block) adds no markup to it: every tag of the result is
///   one the template makes with plain text, or one of the documented exceptions (an e-mail address
///   becomes a `mailto:` link; leading spaces make a code block). Blank values are left out: they
///   change the template around them (`**{{x}}**` with an empty x is a thematic break).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: Fuzzer.bytes(data, size), as: UTF8.self)
    _ = Markdown.html(from: text)
    _ = Markdown.html(from: text, options: [])

    // A value of only spaces is left as it is (escaping cannot change what an empty or blank value
    // does to the template around it: `**{{x}}**` with nothing in x is a thematic break).
    guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return 0 }
    let escaped = MustacheEscaping.markdown.escape(text)
    for (template, expected) in zip(MarkdownTemplates.all, MarkdownTemplates.plainTags) {
        let html = Markdown.html(from: template.replacingOccurrences(of: "VALUE", with: escaped))
        let tags = PageSafetyScan.tags(in: html)
        func isMailLinkStart(_ tag: PageSafetyScan.Tag) -> Bool {
            tag.name == "a" && !tag.isEnd && tag.attributes.map(\.name) == ["href"] && tag.attributes[0].value?.hasPrefix("mailto:") == true
        }
        // The `</a>` that closes a mail link is part of the exception too.
        let makesMailLinks = tags.contains(where: isMailLinkStart)
        for tag in tags {
            let isMailLink = isMailLinkStart(tag) || (makesMailLinks && tag.name == "a" && tag.isEnd)
            let isCode = (tag.name == "pre" || tag.name == "code") && tag.attributes.isEmpty
            Fuzzer.require(
                expected.contains(MarkdownTemplates.Shape(tag)) || isMailLink || isCode,
                "escaped text made <\(tag.isEnd ? "/" : "")\(tag.name)> in \(template.debugDescription): \(html.debugDescription)")
        }
    }
    return 0
}

enum MarkdownTemplates {
    static let all = [
        "VALUE", "# VALUE", "Text VALUE text.", "- VALUE\n- two", "1. VALUE", "| a | b |\n|---|---|\n| VALUE | x |", "[VALUE](https://example.com)",
        "**VALUE**", "<div class=\"x\">VALUE</div>", "<div>\n\nVALUE\n\n</div>", "> VALUE",
    ]

    /// The tags of each template with plain text for the value.
    static let plainTags = all.map { tags($0.replacingOccurrences(of: "VALUE", with: "plain")) }

    /// A tag without its place.
    struct Shape: Hashable {
        let name: String
        let isEnd: Bool
        let attributes: [PageSafetyScan.Attribute]

        init(_ tag: PageSafetyScan.Tag) {
            (name, isEnd, attributes) = (tag.name, tag.isEnd, tag.attributes)
        }
    }

    /// The tags a rendering has.
    static func tags(_ markdown: String) -> Set<Shape> {
        Set(PageSafetyScan.tags(in: Markdown.html(from: markdown)).map(Shape.init))
    }
}

@main
enum FuzzMarkdown {
    static func main() { Fuzzer.run(fuzzMarkdown) }
}
