import RovenueFallback

/// A drawing of a funnel's flow as an inline `<svg>` element.
///
/// Pages are boxes in layers from the first page, joined by the steps §6 of the format can take:
/// each rule's `goto` (labelled with its condition), `default_next`, and the next page in order
/// when a page has no `default_next`. `"paywall"` targets point at the first paywall page, `"end"`
/// and falling off the last page at an end terminal, anything else at an error terminal. Steps
/// back to an earlier layer run along the side so cycles stand out.
///
/// The drawing is styled only through classes (rules in `Site/assets/site.css`): it carries no `style` attribute
/// and no `<style>` element. Every text from the snapshot is cleaned for XML 1.0, shortened and
/// escaped, and element ids come from `idPrefix` and page positions only. The same funnel always
/// gives the same bytes.
public struct FunnelDrawing: Sendable {
    /// The `<svg>` element.
    public let svg: String
    /// The drawing's width in CSS pixels, as in its `width` attribute.
    public let width: Int
    /// The drawing's height in CSS pixels, as in its `height` attribute.
    public let height: Int

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
    public init(funnel: Funnel, unreachablePageIndices: Set<Int>, locale: String? = nil, idPrefix: String? = nil) {
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        let layout = GraphLayout(graph: flow)
        let prefix = FunnelDrawing.elementIdPrefix(idPrefix, funnelId: funnel.id)
        var writer = DrawingWriter(
            funnel: funnel, flow: flow, layout: layout, prefix: prefix, unreachablePages: unreachablePageIndices,
            locale: locale)
        svg = writer.write()
        width = writer.width
        height = writer.height
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
