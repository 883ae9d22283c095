import CCmarkGFM
import Foundation

/// GitHub-Flavored Markdown to HTML, rendered by the system's cmark-gfm.
///
/// Every render attaches the ``extensions``: `table`, `strikethrough`, `autolink`, `tagfilter`
/// and `tasklist`. The first render registers cmark-gfm's core extensions; from then on,
/// rendering is safe from any thread or task.
public enum Markdown {
    /// The cmark-gfm extensions attached to every render.
    public static let extensions = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

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
        let (parser, document) = parse(markdown, options: options)
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
        _ markdown: UnsafeBufferPointer<UInt8>, options: Options
    ) -> (parser: OpaquePointer, document: OpaquePointer) {
        Runtime.parseLock.withLock {
            guard let parser = cmark_parser_new(options.rawValue) else {
                fatalError("cmark-gfm: cmark_parser_new returned NULL")
            }
            for name in extensions {
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
}
