import CCmarkGFM
import Foundation

/// GitHub-Flavored Markdown to HTML, rendered by the system's cmark-gfm.
///
/// Every render applies the ``extensions``: `table`, `strikethrough`, `autolink`, `tagfilter`
/// and `tasklist`. The first render registers cmark-gfm's core extensions; from then on,
/// rendering is safe from any thread or task.
public enum Markdown {
    /// The cmark-gfm extensions every render applies. `tagfilter` is cmark-gfm's, with its test of
    /// each tag in Swift (``TagFilter``), which gives the same output.
    public static let extensions = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    /// Whose test of a raw HTML tag `tagfilter` runs: ``TagFilter``'s (every render), or
    /// cmark-gfm's own (the reference the tests compare with).
    enum TagFiltering {
        case swift
        case cmark
    }

    /// Renders `markdown` as an HTML fragment.
    ///
    /// With the default options raw HTML passes through (apart from the tags that `tagfilter`
    /// neutralises), so `markdown` must be trusted or already escaped.
    public static func html(from markdown: String, options: Options = .default) -> String {
        var markdown = markdown
        return markdown.withUTF8 { bytes in
            withHTML(fromUTF8: bytes, options: options) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Renders the UTF-8 `markdown` as an HTML fragment and hands `body` cmark-gfm's own buffer of
    /// it (the bytes `html(from:)` decodes), valid only during the call: a caller that reads the
    /// HTML as bytes makes no `String` of it. The same trust rules as `html(from:)`.
    public static func withHTML<Result>(
        fromUTF8 markdown: UnsafeBufferPointer<UInt8>, options: Options = .default, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withHTML(fromUTF8: markdown, options: options, tagFiltering: .swift, body)
    }

    /// `withHTML(fromUTF8:options:_:)` with the tag filter applied by `tagFiltering`.
    static func withHTML<Result>(
        fromUTF8 markdown: UnsafeBufferPointer<UInt8>, options: Options, tagFiltering: TagFiltering,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let (parser, document) = parse(markdown, options: options, tagFiltering: tagFiltering)
        defer {
            cmark_node_free(document)
            cmark_parser_free(parser)
        }
        guard let rendered = cmark_render_html(
            document, options.rawValue, cmark_parser_get_syntax_extensions(parser)
        ) else {
            fatalError("cmark-gfm: cmark_render_html returned NULL")
        }
        defer { free(rendered) }
        return try rendered.withMemoryRebound(to: UInt8.self, capacity: 1) { start in
            try body(UnsafeBufferPointer(start: start, count: strlen(rendered)))
        }
    }

    /// Parses `markdown` with the ``extensions``. Only `cmark_parser_finish` runs under
    /// ``Runtime/finishLock``: making the parser, attaching the extensions and feeding it (the
    /// block parse, most of cmark-gfm's work) run on any number of threads at once (see
    /// ``Runtime`` for why that is safe).
    private static func parse(
        _ markdown: UnsafeBufferPointer<UInt8>, options: Options, tagFiltering: TagFiltering
    ) -> (parser: OpaquePointer, document: OpaquePointer) {
        // First: the lock's initialiser registers the core extensions that are looked up below.
        let finishLock = Runtime.finishLock
        guard let parser = cmark_parser_new(options.rawValue) else {
            fatalError("cmark-gfm: cmark_parser_new returned NULL")
        }
        for name in extensions {
            if name == "tagfilter", tagFiltering == .swift {
                cmark_parser_attach_syntax_extension(parser, Runtime.tagFilter)
                continue
            }
            guard let syntaxExtension = cmark_find_syntax_extension(name) else {
                fatalError("cmark-gfm: the core extension '\(name)' is not registered")
            }
            cmark_parser_attach_syntax_extension(parser, syntaxExtension)
        }
        markdown.withMemoryRebound(to: CChar.self) { chars in
            if let base = chars.baseAddress { cmark_parser_feed(parser, base, chars.count) }
        }
        guard let document = finishLock.withLock({ cmark_parser_finish(parser) }) else {
            fatalError("cmark-gfm: cmark_parser_finish returned NULL")
        }
        return (parser, document)
    }
}

extension Markdown {
    /// cmark-gfm's `CMARK_OPT_*` flags for parsing and HTML rendering.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Keeps raw HTML and dangerous URLs (`javascript:`, …) instead of omitting them.
        public static let unsafe = Options(rawValue: CMARK_OPT_UNSAFE)
        /// Curly quotes, en and em dashes, ellipses.
        public static let smart = Options(rawValue: CMARK_OPT_SMART)
        /// Fenced code as `<pre lang="x"><code>` instead of `<pre><code class="language-x">`.
        public static let githubPreLang = Options(rawValue: CMARK_OPT_GITHUB_PRE_LANG)
        /// Soft line breaks as `<br />`.
        public static let hardBreaks = Options(rawValue: CMARK_OPT_HARDBREAKS)
        /// Footnote references and definitions (`[^1]`).
        public static let footnotes = Options(rawValue: CMARK_OPT_FOOTNOTES)
        /// A `data-sourcepos` attribute on block elements.
        public static let sourcePositions = Options(rawValue: CMARK_OPT_SOURCEPOS)

        /// For trusted templates: raw HTML kept; no smart punctuation; `language-x` code classes.
        public static let `default`: Options = [.unsafe]
    }
}

/// Process-wide cmark-gfm state.
///
/// `cmark_gfm_core_extensions_ensure_registered` is not thread-safe, so it runs in this lazy
/// `static let` initialiser, which Swift runs exactly once, before any parser is made.
///
/// Only `cmark_parser_finish` is serialised. cmark-gfm keeps two process-wide tables of the
/// special inline characters, `SPECIAL_CHARS` and `SKIP_CHARS` (inlines.c), and switches the
/// inline extensions' characters (strikethrough `~`, autolink `:` and `w`) on and off around
/// every document's inline pass: `cmark_parser_finish` → `finalize_document` →
/// `process_inlines` calls `cmark_manage_extensions_special_characters(parser, true)`, runs
/// `cmark_parse_inlines` on each block (which reads the tables, in `subject_find_special_char`
/// and `scan_delims`), then `cmark_manage_extensions_special_characters(parser, false)`. A parse
/// finishing on another thread in the middle would switch `~` off under this one, so finishes
/// take turns. Nothing else touches the tables: in the installed libcmark-gfm 0.29.0.gfm.6
/// (`objdump -dr` of libcmark-gfm.a, where the tables are `static` in inlines.c.o) they are read
/// only by `cmark_parse_inlines` and written only by `cmark_inlines_add_special_character` and
/// `cmark_inlines_remove_special_character`, which only `cmark_manage_extensions_special_characters`
/// and `cmark_parser_finish` call; libcmark-gfm-extensions calls none of them. So
/// `cmark_parser_new`, `cmark_parser_attach_syntax_extension` (appends to the parser's own lists)
/// and `cmark_parser_feed` (the block parse, `S_process_line`, and the extensions' block hooks
/// such as the table's `try_opening_table_block`) run unlocked: besides the parser's own
/// memory they only read what registration wrote once (the registry of extensions, the
/// extensions' node types and callbacks). Rendering a finished document reads only the document
/// and the extensions, and runs unlocked too.
private enum Runtime {
    static let finishLock: NSLock = {
        cmark_gfm_core_extensions_ensure_registered()
        return NSLock()
    }()

    /// `tagfilter` with ``TagFilter``'s test of each tag: cmark-gfm calls it where it calls its
    /// own (each `<` of an HTML block, the start of each inline HTML tag), so the output is the
    /// same; its own spends a few hundred instructions on each (3% of a site build), where
    /// ``TagFilter`` lets most tags go on their first letter. Made once, never freed, shared by
    /// every parser: cmark-gfm only reads it, so sharing it across threads is safe.
    nonisolated(unsafe) static let tagFilter: OpaquePointer = {
        guard let filter = cmark_syntax_extension_new("tagfilter") else {
            fatalError("cmark-gfm: cmark_syntax_extension_new returned NULL")
        }
        cmark_syntax_extension_set_html_filter_func(filter) { _, tag, length in
            guard let tag else { return 1 }
            return TagFilter.isDisallowed(UnsafeBufferPointer(start: tag, count: length)) ? 0 : 1
        }
        return filter
    }()
}
