/// GitHub-Flavored Markdown's "disallowed raw HTML" (the `tagfilter` extension): the test cmark-gfm
/// runs on raw HTML, which turns the `<` of a disallowed tag into `&lt;`.
///
/// cmark-gfm hands the test each `<` of an HTML block, and the start of each inline HTML tag, with
/// the rest of the node after it. This is cmark-gfm's own test (`is_tag` in `tagfilter.c`), with
/// the same answers: `MarkdownTagFilterTests` renders with both and compares the bytes.
enum TagFilter {
    /// The disallowed tag names, lowercase (GFM spec, section 6.11), in cmark-gfm's order;
    /// `isDisallowed` tests each by its first letter.
    static let names: [StaticString] = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"]

    /// Whether `tag` (a `<` and what follows it in its node) opens or closes a disallowed tag: `<`,
    /// an optional `/`, a name in any ASCII case, then whitespace, `>` or `/>`, all inside `tag`.
    static func isDisallowed(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        guard tag.count >= 3, tag[0] == UInt8(ascii: "<") else { return false }
        let nameStart = tag[1] == UInt8(ascii: "/") ? 2 : 1
        // Only the names with the tag's first letter can match (a byte ORed with 0x20 is a
        // lowercase letter only when it was that letter in either case); most tags have none.
        switch tag[nameStart] | 0x20 {
        case UInt8(ascii: "t"): return isTag(tag, named: "title", from: nameStart) || isTag(tag, named: "textarea", from: nameStart)
        case UInt8(ascii: "s"): return isTag(tag, named: "style", from: nameStart) || isTag(tag, named: "script", from: nameStart)
        case UInt8(ascii: "x"): return isTag(tag, named: "xmp", from: nameStart)
        case UInt8(ascii: "i"): return isTag(tag, named: "iframe", from: nameStart)
        case UInt8(ascii: "n"): return isTag(tag, named: "noembed", from: nameStart) || isTag(tag, named: "noframes", from: nameStart)
        case UInt8(ascii: "p"): return isTag(tag, named: "plaintext", from: nameStart)
        default: return false
        }
    }

    /// Whether `tag` holds `name` in any ASCII case at `start`, then whitespace, `>` or `/>`.
    @inline(__always)
    private static func isTag(_ tag: UnsafeBufferPointer<UInt8>, named name: StaticString, from start: Int) -> Bool {
        let length = name.utf8CodeUnitCount
        // The node ending inside the name, or right after it, is no match.
        guard start + length < tag.count else { return false }
        let letters = name.utf8Start
        for offset in 0..<length where lowercased(tag[start + offset]) != letters[offset] { return false }
        let after = tag[start + length]
        if isSpace(after) || after == UInt8(ascii: ">") { return true }
        return after == UInt8(ascii: "/") && start + length + 1 < tag.count && tag[start + length + 1] == UInt8(ascii: ">")
    }

    /// `tolower` of the C locale: ASCII letters only.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// cmark's `cmark_isspace`: tab, line feed, carriage return and space (not form feed or
    /// vertical tab).
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
