/// How `{{name}}` tags escape a value's text; `{{{name}}}` and `{{&name}}` never escape.
public struct MustacheEscaping: Sendable {
    private let transform: @Sendable (String) -> String
    /// Appends what `transform` returns as UTF-8 (without making the `String`, when the escaping
    /// was made with one). Not optional: binding an optional closure retained and released it at
    /// every value a render escaped.
    private let appender: @Sendable (String, inout ByteWriter) -> Void

    /// Escapes with a custom function.
    public static func custom(_ escape: @escaping @Sendable (String) -> String) -> MustacheEscaping {
        MustacheEscaping(transform: escape)
    }

    /// Escapes with a custom function, and renders by `append`, which must append to the output
    /// exactly the UTF-8 of what `escape` returns for the same text (and do the same otherwise):
    /// a render writes each value into its output with no `String` of the escaped value.
    public static func custom(
        _ escape: @escaping @Sendable (String) -> String, appending append: @escaping @Sendable (String, inout ByteWriter) -> Void
    ) -> MustacheEscaping {
        MustacheEscaping(transform: escape, appender: append)
    }

    /// Inserts text unchanged.
    public static let none = MustacheEscaping(transform: { $0 })

    /// Escapes `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`,
    /// which is safe in HTML text and in quoted attribute values.
    public static let html = MustacheEscaping(ByteReplacements { byte in
        characterReference(for: byte)
    })

    /// Makes text inert in Markdown (CommonMark with GitHub's extensions, as cmark-gfm renders it).
    ///
    /// - `&`, `<`, `>`, `"` and `'` become the character references `&amp;`, `&lt;`, `&gt;`,
    ///   `&quot;` and `&#39;`.
    /// - Every other ASCII punctuation character is backslash-escaped: ``\* \_ \` \# \[ \] \| \\``
    ///   and the rest.
    /// - `\r\n`, `\n` and `\r` each become one space, so a value cannot start a line and with it
    ///   a heading, list, quote, fence, table row or HTML block.
    ///
    /// In Markdown's inline text (paragraphs, headings, list items, table cells, link text)
    /// backslash escapes alone would suffice: an escaped character is literal text, and cmark
    /// writes a literal `<` as `&lt;`. Character references are equally inert there (CommonMark
    /// never treats them as markup) and render as the same characters, but they also stay inert
    /// where CommonMark processes no backslash escapes: inside a raw HTML block that cmark
    /// passes through (its unsafe option), `\<script\>` reaches the browser as `\<script\>`,
    /// a tag; `&lt;script&gt;` stays text, and `&quot;` cannot end a quoted attribute.
    ///
    /// What escaping cannot change: leading spaces of a value placed at the start of a line
    /// still count as indentation (four make an indented code block of literal text), two
    /// trailing spaces before a template line break make a `<br />`, and GFM's autolink
    /// extension still links an e-mail address (`mailto:`) in plain text. In code spans and
    /// code blocks, which show their content verbatim, the escapes themselves show.
    public static let markdown = MustacheEscaping(ByteReplacements(lineBreak: " ") { byte in
        if let reference = characterReference(for: byte) { return reference }
        switch byte {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E:
            return "\\" + String(UnicodeScalar(byte))
        default:
            return nil
        }
    })

    private static func characterReference(for byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    private init(_ replacements: ByteReplacements) {
        self.init(transform: replacements.apply)
    }

    private init(transform: @escaping @Sendable (String) -> String, appender: (@Sendable (String, inout ByteWriter) -> Void)? = nil) {
        self.transform = transform
        self.appender = appender ?? { text, output in output.append(transform(text)) }
    }

    /// Returns `text` escaped.
    public func escape(_ text: String) -> String {
        transform(text)
    }

    /// Appends `text` escaped to `output`, as UTF-8: the bytes of `escape(text)`.
    func append(_ text: String, to output: inout ByteWriter) {
        appender(text, &output)
    }
}

/// Replacements for ASCII bytes, which leave multi-byte UTF-8 sequences intact.
private struct ByteReplacements: Sendable {
    private let table: [[UInt8]?]
    private let lineBreak: [UInt8]?

    /// - Parameter lineBreak: What replaces each `\r\n`, `\n` and `\r`, if anything.
    init(lineBreak: String? = nil, _ replacement: (UInt8) -> String?) {
        self.lineBreak = lineBreak.map { Array($0.utf8) }
        table = (0..<128).map { byte in replacement(UInt8(byte)).map { Array($0.utf8) } }
    }

    func apply(to text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { replacement(for: $0) != nil }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count + utf8.count / 4)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            if byte == UInt8(ascii: "\r"), lineBreak != nil, index < utf8.count, utf8[index] == UInt8(ascii: "\n") {
                continue
            }
            if let replaced = replacement(for: byte) {
                result.append(contentsOf: replaced)
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func replacement(for byte: UInt8) -> [UInt8]? {
        if let lineBreak, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return lineBreak }
        return byte < 0x80 ? table[Int(byte)] : nil
    }
}
