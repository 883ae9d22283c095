import RovenueFallback

/// What a finding is about: the file as a whole, a placement, or one experiment, variant, funnel,
/// page or paywall that a placement carries.
///
/// Keys and ids are `ExactKey`s, compared by their UTF-8 bytes as the SDK compares them: funnels
/// `fnl_café` written composed and decomposed are two subjects. A subject says where in the
/// placement the thing sits (served directly, through a variant, or inside a funnel), so two
/// funnels of one placement, or two copies of a funnel in two variants, are different subjects.
///
/// Every finding of a snapshot check has the most specific subject its rule looks at (see
/// `docs/rules.md`); history and diff findings are about a placement or the file.
public enum FindingSubject: Hashable, Sendable {
    /// How a placement serves a funnel or paywall.
    public enum Route: Hashable, Sendable {
        /// The entry's own `funnel` or `paywall`.
        case direct
        /// The variant at `index` of the entry's experiment, whose `variantId` is `id`.
        case variant(index: Int, id: ExactKey)
    }

    /// One funnel as one placement serves it.
    public struct ServedFunnel: Hashable, Sendable {
        public let placementKey: ExactKey
        public let route: Route
        /// The funnel's `id`.
        public let id: ExactKey

        public init(placementKey: ExactKey, route: Route, id: ExactKey) {
            self.placementKey = placementKey
            self.route = route
            self.id = id
        }
    }

    /// What carries a paywall.
    public enum PaywallOwner: Hashable, Sendable {
        /// A placement serves it, directly or through a variant.
        case placement(key: ExactKey, route: Route)
        /// A funnel carries it in its `paywalls` map, for its paywall pages.
        case funnel(ServedFunnel)
    }

    /// The file as a whole: its format, `generatedAt`, `projectId`, or the loader's rejection.
    case file
    /// A placement entry: its key, its `placement`, what it targets, how it is written.
    case placement(key: ExactKey)
    /// The experiment of the placement under `placementKey`, as a whole (its variants list and weights).
    case experiment(placementKey: ExactKey, id: ExactKey)
    /// The variant at `index` of the experiment of the placement under `placementKey`.
    case variant(placementKey: ExactKey, index: Int, id: ExactKey)
    /// A funnel as a whole (its pages list, its theme).
    case funnel(ServedFunnel)
    /// The page at `index` of a funnel, whose `id` is `id`.
    case page(of: ServedFunnel, index: Int, id: ExactKey)
    /// A paywall, by its `id`.
    case paywall(of: PaywallOwner, id: ExactKey)

    /// A placement's subject, or the file's when `key` is nil: what a history or diff finding is about.
    public init(placementKey key: String?) {
        self = key.map { .placement(key: ExactKey($0)) } ?? .file
    }

    /// The key of the placement the subject belongs to; nil for the file.
    public var placementKey: ExactKey? {
        switch self {
        case .file: nil
        case .placement(let key), .experiment(let key, _), .variant(let key, _, _): key
        case .funnel(let funnel), .page(let funnel, _, _): funnel.placementKey
        case .paywall(.placement(let key, _), _): key
        case .paywall(.funnel(let funnel), _): funnel.placementKey
        }
    }

    /// How many bytes its keys and ids hold together, read from their lengths alone.
    package var keyByteCount: Int {
        func served(_ funnel: ServedFunnel) -> Int { funnel.placementKey.string.utf8.count + funnel.id.string.utf8.count + route(funnel.route) }
        func route(_ route: Route) -> Int {
            if case .variant(_, let id) = route { return id.string.utf8.count }
            return 0
        }
        switch self {
        case .file: return 0
        case .placement(let key): return key.string.utf8.count
        case .experiment(let key, let id), .variant(let key, _, let id): return key.string.utf8.count + id.string.utf8.count
        case .funnel(let funnel): return served(funnel)
        case .page(let funnel, _, let id): return served(funnel) + id.string.utf8.count
        case .paywall(.placement(let key, let via), let id): return key.string.utf8.count + route(via) + id.string.utf8.count
        case .paywall(.funnel(let funnel), let id): return served(funnel) + id.string.utf8.count
        }
    }

    /// The funnel the subject is, or is part of (a page, a paywall in its `paywalls` map); nil otherwise.
    public var funnel: ServedFunnel? {
        switch self {
        case .funnel(let funnel), .page(let funnel, _, _), .paywall(.funnel(let funnel), _): funnel
        case .file, .placement, .experiment, .variant, .paywall(.placement, _): nil
        }
    }

    /// When the subject is an experiment, one of its variants, or a paywall a variant serves: the key
    /// of the placement that runs the experiment. Nil otherwise, also for the funnels variants serve
    /// (they are subjects of their own).
    public var experimentPlacementKey: ExactKey? {
        switch self {
        case .experiment(let key, _), .variant(let key, _, _), .paywall(.placement(let key, .variant), _): key
        case .file, .placement, .funnel, .page, .paywall: nil
        }
    }
}
