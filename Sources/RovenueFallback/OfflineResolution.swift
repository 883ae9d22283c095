/// What an offline device is served for a placement from its fallback entry (the contract's §5).
public struct OfflineResolution: Sendable {
    public enum Served: Sendable {
        case funnel(Funnel)
        case paywall(Paywall)
        case nothing(NothingReason)
    }

    /// Why an entry serves nothing.
    public enum NothingReason: Sendable, Hashable {
        /// The entry has no `placement`.
        case placementMissing
        /// No funnel, no paywall and no experiment.
        case noTarget
        /// The experiment has no variants.
        case noVariants
    }

    /// The variant a subscriber draws from an experiment.
    public struct Draw: Sendable, Hashable {
        public let experimentId: String
        public let experimentKey: String
        public let bucket: Int
        public let variantIndex: Int
        public let variantId: String
    }

    /// The entry's own placement: what the SDK reports for exposure, whatever the map key.
    public let placement: Placement?
    public let served: Served
    /// The draw, when an experiment decided what is served.
    public let draw: Draw?

    /// Always true: this resolution comes from the bundled file.
    public var servedFromFallback: Bool { true }

    public var funnel: Funnel? {
        if case .funnel(let funnel) = served { return funnel }
        return nil
    }

    public var paywall: Paywall? {
        if case .paywall(let paywall) = served { return paywall }
        return nil
    }
}

extension FallbackEntry {
    /// What a device with `subscriberId` is served offline from this entry: a direct funnel, else a
    /// direct paywall, else the funnel or paywall of the variant it draws.
    public func resolve(subscriberId: String) -> OfflineResolution {
        guard let placement else {
            return OfflineResolution(placement: nil, served: .nothing(.placementMissing), draw: nil)
        }
        if let funnel {
            return OfflineResolution(placement: placement, served: .funnel(funnel), draw: nil)
        }
        if let paywall {
            return OfflineResolution(placement: placement, served: .paywall(paywall), draw: nil)
        }
        guard let experiment else {
            return OfflineResolution(placement: placement, served: .nothing(.noTarget), draw: nil)
        }
        let bucket = Bucketing.bucket(subscriberId: subscriberId, experimentKey: experiment.key)
        guard let index = Bucketing.variantIndex(forBucket: bucket, weights: experiment.variants.map(\.weight)) else {
            return OfflineResolution(placement: placement, served: .nothing(.noVariants), draw: nil)
        }
        let variant = experiment.variants[index]
        let draw = OfflineResolution.Draw(
            experimentId: experiment.id, experimentKey: experiment.key, bucket: bucket, variantIndex: index,
            variantId: variant.variantId)
        // A decoded variant always has a funnel or a paywall; the funnel is checked first, as for the entry.
        let served: OfflineResolution.Served = variant.funnel.map { .funnel($0) } ?? .paywall(variant.paywall!)
        return OfflineResolution(placement: placement, served: served, draw: draw)
    }
}
