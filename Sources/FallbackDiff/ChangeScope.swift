import FallbackAudit

/// The ids a change is reported under: the placement, and where in it (variant, funnel, paywall,
/// page).
///
/// A value, handed down to each comparison and narrowed on the way (`variant(_:)`, `page(_:)`,
/// `paywall(_:)`), so a comparison reports under the scope it was given and nothing it narrows can
/// outlive it.
struct ChangeScope: Hashable {
    let placement: String?
    let variant: String?
    let funnel: String?
    let paywall: String?
    let page: String?

    /// The file as a whole.
    static let file = ChangeScope(placement: nil)

    /// A placement, or a funnel or paywall that a placement serves (through `variant` when an
    /// experiment draws it).
    init(placement: String?, variant: String? = nil, funnel: String? = nil, paywall: String? = nil) {
        self.init(placement: placement, variant: variant, funnel: funnel, paywall: paywall, page: nil)
    }

    private init(placement: String?, variant: String?, funnel: String?, paywall: String?, page: String?) {
        self.placement = placement
        self.variant = variant
        self.funnel = funnel
        self.paywall = paywall
        self.page = page
    }

    /// This scope, in an experiment's variant.
    func variant(_ id: String) -> ChangeScope {
        ChangeScope(placement: placement, variant: id, funnel: funnel, paywall: paywall, page: page)
    }

    /// This scope, in one of the funnel's paywalls (by its `paywalls` key).
    func paywall(_ key: String) -> ChangeScope {
        ChangeScope(placement: placement, variant: variant, funnel: funnel, paywall: key, page: page)
    }

    /// This scope, on one of the funnel's pages.
    func page(_ id: String) -> ChangeScope {
        ChangeScope(placement: placement, variant: variant, funnel: funnel, paywall: paywall, page: id)
    }

    /// `Funnel "f" (variant "v"), page "p"`: where in the placement a change is.
    var whereText: String {
        var parts: [String] = []
        if let funnel {
            parts.append("funnel \(Format.quoted(funnel))" + (variant.map { " (variant \(Format.quoted($0)))" } ?? ""))
        } else if let variant, paywall == nil {
            parts.append("variant \(Format.quoted(variant))")
        }
        if let paywall {
            parts.append(
                "paywall \(Format.quoted(paywall))" + (funnel == nil ? variant.map { " (variant \(Format.quoted($0)))" } ?? "" : ""))
        }
        if let page { parts.append("page \(Format.quoted(page))") }
        let text = parts.isEmpty ? "the placement" : parts.joined(separator: ", ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
