import RovenueFallback

/// A drawing of a funnel's flow as an inline `<svg>` element.
///
/// Pages are boxes in layers from the first page, joined by the steps §6 of the format can take:
/// each rule's `goto`, `default_next`, and the next page in order when a page has no
/// `default_next`. On a page with rules, every step carries its priority (the order the SDK tries
/// them: rules first, the first match wins, then `default_next` or the next page) in a numbered
/// bead where it leaves the page, and a label below the page with the priority and the condition
/// (or `else`), wrapped over lines, never cut short (up to `GraphLayout.Metrics.labelMaxLines`
/// lines; the tooltip has the whole step). `"paywall"` targets point at the first paywall page,
/// `"end"` and falling off the last page at an end terminal, anything else at an error terminal.
/// Steps back to an earlier layer run along the side so cycles stand out.
///
/// The drawing is styled only through classes (rules in `Site/assets/site.css`): it carries no `style` attribute
/// and no `<style>` element. Every text from the snapshot is cleaned for XML 1.0 and escaped (a
/// page box's text shortened to the box), and element ids come from `idPrefix` and page positions
/// only. Steps, labels and beads carry `data-from` and `data-to` (node ids) for the theme's script.
/// The same funnel always gives the same bytes.
public struct FunnelDrawing: Sendable {
    /// The `<svg>` element.
    public var svg: String { String(decoding: svgBytes, as: UTF8.self) }
    /// `svg` as UTF-8, as the page takes it.
    let svgBytes: [UInt8]
    /// The drawing's width in CSS pixels, as in its `width` attribute.
    public let width: Int
    /// The drawing's height in CSS pixels, as in its `height` attribute.
    public let height: Int
    /// An HTML list (`<ul class="legend fd-legend">`) naming every style of step and node the
    /// drawing uses, each with a key drawn in that style and words, so no style is told by colour alone.
    public let legend: String

    /// Draws `funnel`, with the pages whose ids have exactly the bytes of one of `unreachablePages`
    /// in the error style (ids as `ExactKey`s: canonically equivalent ids are different pages). Every page
    /// with such an id is marked, duplicates too; to mark one of several pages that share an id, use
    /// `init(funnel:unreachablePageIndices:locale:idPrefix:)`.
    ///
    /// - Parameters:
    ///   - unreachablePages: The ids of the pages drawn in the error style; none by default.
    ///   - locale: The locale whose copy the boxes show; else the funnel's `defaultLocale`, else
    ///     the first locale a text has.
    ///   - idPrefix: Prefix of the element ids (markers, title), unique on the page that shows the
    ///     drawing. Used as given when it is a plain identifier (`[A-Za-z][A-Za-z0-9_-]*`, at most 64
    ///     characters); otherwise, and by default, one is derived from it or the funnel's id.
    public init(funnel: Funnel, unreachablePages: Set<ExactKey> = [], locale: String? = nil, idPrefix: String? = nil) {
        let indices = unreachablePages.isEmpty ? [] : funnel.pages.indices.filter { unreachablePages.contains(ExactKey(funnel.pages[$0].id)) }
        self.init(funnel: funnel, unreachablePageIndices: Set(indices), locale: locale, idPrefix: idPrefix)
    }

    /// Draws `funnel`, with the pages at the positions in `unreachablePageIndices` (positions in
    /// `funnel.pages`, as a check found them) in the error style.
    ///
    /// - Parameter pageAnchors: Per page position, the element id of the page's row on the page that
    ///   shows the drawing (one per page, else ignored): each box becomes a link there, focusable and
    ///   named, and the drawing a group of links rather than an image.
    public init(
        funnel: Funnel, unreachablePageIndices: Set<Int>, locale: String? = nil, idPrefix: String? = nil,
        pageAnchors: [String]? = nil
    ) {
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        let layout = GraphLayout(graph: flow)
        let prefix = FunnelDrawing.elementIdPrefix(idPrefix, funnelId: funnel.id)
        var writer = DrawingWriter(
            funnel: funnel, flow: flow, layout: layout, prefix: prefix, unreachablePages: unreachablePageIndices,
            locale: locale, pageAnchors: pageAnchors)
        svgBytes = writer.write()
        width = writer.width
        height = writer.height
        legend = writer.legend
    }

    /// `requested` when it is a plain identifier; otherwise a slug of it (or of the funnel's id)
    /// and a hash of its exact bytes.
    static func elementIdPrefix(_ requested: String?, funnelId: String) -> String {
        if let requested, isPlainIdentifier(requested) { return requested }
        let source = requested ?? funnelId
        var slug: [UInt8] = []
        for byte in source.utf8 {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            if PageNames.isSlugByte(lowered) {
                slug.append(lowered)
            } else if let last = slug.last, last != UInt8(ascii: "-") {
                slug.append(UInt8(ascii: "-"))
            }
            if slug.count >= 24 { break }
        }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        let hash = SHA256Digest(of: Array(source.utf8)).hexString.prefix(8)
        return slug.isEmpty ? "fd-\(hash)" : "fd-\(String(decoding: slug, as: UTF8.self))-\(hash)"
    }

    static func isPlainIdentifier(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= 64, isASCIILetter(first) else { return false }
        return bytes.allSatisfy {
            isASCIILetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
