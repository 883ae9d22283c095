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

    private static func parse(
        _ markdown: UnsafeBufferPointer<UInt8>, options: Options, tagFiltering: TagFiltering
    ) -> (parser: OpaquePointer, document: OpaquePointer) {
        Runtime.parseLock.withLock {
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
            guard let document = cmark_parser_finish(parser) else {
                fatalError("cmark-gfm: cmark_parser_finish returned NULL")
            }
            return (parser, document)
        }
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
/// `static let` initialiser, which Swift runs exactly once. Parses are serialised because
/// cmark-gfm switches a process-wide table of special inline characters on and off around every
/// parse with inline extensions (strikethrough, autolink, table cells). Rendering a finished
/// document touches no shared state and runs outside the lock.
private enum Runtime {
    static let parseLock: NSLock = {
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
