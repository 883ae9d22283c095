/// What an offline device with a given subscriber id is served for a placement from its fallback
/// entry (the contract's §5): the entry's `OfflineTarget`, and for an experiment the variant drawn.
public struct OfflineResolution: Sendable {
    /// The variant a subscriber draws from an experiment.
    public struct Draw: Sendable, Hashable {
        /// The experiment's `id`.
        public let experimentId: String
        /// The experiment's `key`, which seeds the bucket.
        public let experimentKey: String
        /// The subscriber's bucket, in `0..<Bucketing.bucketCount` (§5 step 4).
        public let bucket: Int
        /// The drawn variant's position in the experiment's `variants`.
        public let variantIndex: Int
        /// The drawn variant's `variantId`.
        public let variantId: String
    }

    /// The entry's own placement: what the SDK reports for exposure, whatever the map key.
    public let placement: Placement?
    /// What the entry serves whoever the subscriber is.
    public let target: OfflineTarget
    /// The draw, when the target is an experiment.
    public let draw: Draw?

    /// What this subscriber is served: the target itself, or for an experiment the drawn variant's
    /// funnel or paywall. Never `.experiment`.
    public var served: OfflineTarget {
        guard case .experiment(let experiment) = target, let draw else { return target }
        return experiment.variants[draw.variantIndex].offlineTarget
    }

    /// True when the fallback set answers with a funnel or paywall (§5: "true only when the
    /// fallback set answered"); false when the entry serves nothing.
    public var servedFromFallback: Bool { served.kind != .nothing }

    /// The funnel served, if any.
    public var funnel: Funnel? { served.funnel }

    /// The paywall served, if any.
    public var paywall: Paywall? { served.paywall }
}

extension FallbackEntry {
    /// What a device with `subscriberId` is served offline from this entry: a direct funnel, else a
    /// direct paywall, else the funnel or paywall of the variant it draws.
    public func resolve(subscriberId: String) -> OfflineResolution {
        let target = offlineTarget
        guard case .experiment(let experiment) = target else {
            return OfflineResolution(placement: placement, target: target, draw: nil)
        }
        let bucket = Bucketing.bucket(subscriberId: subscriberId, experimentKey: experiment.key)
        // An experiment target has at least one variant, so a variant is always drawn.
        let index = Bucketing.variantIndex(forBucket: bucket, weights: experiment.variants.map(\.weight)) ?? experiment.variants.count - 1
        let draw = OfflineResolution.Draw(
            experimentId: experiment.id, experimentKey: experiment.key, bucket: bucket, variantIndex: index,
            variantId: experiment.variants[index].variantId)
        return OfflineResolution(placement: placement, target: target, draw: draw)
    }
}
