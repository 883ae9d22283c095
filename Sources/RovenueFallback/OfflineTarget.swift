/// What a fallback entry serves an offline device, whoever the subscriber is: the contract's §5
/// up to the draw. Every command, report and page that says what an entry serves reads it here.
///
/// 1. No `placement`: nothing is served.
/// 2. A `funnel`: that funnel. Else a `paywall`: that paywall. A direct target wins over (shadows)
///    an experiment written beside it.
/// 3. Else an `experiment` with at least one variant: a device draws a variant
///    (`FallbackEntry.resolve(subscriberId:)`) and is served that variant's own target.
/// 4. Else nothing: no target at all, or an experiment with no variants.
public enum OfflineTarget: Sendable {
    /// The entry's own funnel.
    case funnel(Funnel)
    /// The entry's own paywall (the entry has no funnel).
    case paywall(Paywall)
    /// An experiment with at least one variant; each variant serves its `Variant.offlineTarget`.
    case experiment(Experiment)
    /// Nothing is served, for `NothingReason`; for `.noVariants`, `experiment` is the experiment
    /// with no variants that decides so (nil for every other reason).
    case nothing(NothingReason, experiment: Experiment? = nil)

    /// Why an entry serves nothing. Its `description` and `summary` are the only words the tool
    /// has for it.
    public enum NothingReason: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The entry has no `placement` (§5 step 1).
        case placementMissing
        /// No funnel, no paywall and no experiment (§5 step 3).
        case noTarget
        /// The experiment has no variants (§5 step 3).
        case noVariants

        /// The reason in a few words: `an experiment with no variants`.
        public var description: String {
            switch self {
            case .placementMissing: "the entry has no placement"
            case .noTarget: "no funnel, paywall or experiment"
            case .noVariants: "an experiment with no variants"
            }
        }

        /// What is served, with the reason: `nothing (an experiment with no variants)`.
        public var summary: String { "nothing (\(description))" }
    }

    /// What a key whose entry does not decode serves: the SDK skips the entry (§3), so nothing.
    public static let skippedSummary = "nothing (the entry does not decode)"

    /// What `entry` serves (§5 steps 1–3).
    public init(_ entry: FallbackEntry) {
        if entry.placement == nil {
            self = .nothing(.placementMissing)
        } else if let funnel = entry.funnel {
            self = .funnel(funnel)
        } else if let paywall = entry.paywall {
            self = .paywall(paywall)
        } else if let experiment = entry.experiment {
            self = experiment.variants.isEmpty ? .nothing(.noVariants, experiment: experiment) : .experiment(experiment)
        } else {
            self = .nothing(.noTarget)
        }
    }

    /// What a device that draws `variant` is served (§5 step 5): its funnel, else its paywall.
    /// A decoded variant always has one of them; a variant built with neither serves nothing.
    public init(_ variant: Variant) {
        if let funnel = variant.funnel {
            self = .funnel(funnel)
        } else if let paywall = variant.paywall {
            self = .paywall(paywall)
        } else {
            self = .nothing(.noTarget)
        }
    }

    /// What kind of target it is; the raw value is the word (`funnel`, `paywall`, `experiment`, `nothing`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// One per case of `OfflineTarget`.
        case funnel, paywall, experiment, nothing
    }

    /// What kind of target it is.
    public var kind: Kind {
        switch self {
        case .funnel: .funnel
        case .paywall: .paywall
        case .experiment: .experiment
        case .nothing: .nothing
        }
    }

    /// The funnel, paywall or experiment id; nil for nothing.
    public var id: String? {
        switch self {
        case .funnel(let funnel): funnel.id
        case .paywall(let paywall): paywall.id
        case .experiment(let experiment): experiment.id
        case .nothing: nil
        }
    }

    /// True when both serve the same kind of target with the same id bytes (as the SDK compares
    /// ids, not canonical equivalence), whatever their content; serving nothing is the same
    /// whatever the reason.
    public func isSameTarget(as other: OfflineTarget) -> Bool {
        kind == other.kind && ExactKey.same(id, other.id)
    }

    /// The funnel, when the target is one.
    public var funnel: Funnel? {
        if case .funnel(let funnel) = self { return funnel }
        return nil
    }

    /// The paywall, when the target is one.
    public var paywall: Paywall? {
        if case .paywall(let paywall) = self { return paywall }
        return nil
    }

    /// The experiment, when the target is one (it has at least one variant).
    public var experiment: Experiment? {
        if case .experiment(let experiment) = self { return experiment }
        return nil
    }

    /// Why nothing is served, when nothing is.
    public var nothingReason: NothingReason? {
        if case .nothing(let reason, _) = self { return reason }
        return nil
    }

    /// The experiment that decides what is served: the target's, or one with no variants (which
    /// decides that nothing is). An experiment shadowed by a direct target, or in an entry with no
    /// placement, decides nothing, so it is nil then.
    public var decidingExperiment: Experiment? {
        switch self {
        case .experiment(let experiment): experiment
        case .nothing(_, let experiment): experiment
        case .funnel, .paywall: nil
        }
    }

    /// A funnel or paywall a device can be served through a target, and the variant it is drawn
    /// through (nil when the entry serves it directly).
    public struct Served<Value: Sendable>: Sendable {
        /// The variant it is drawn through; nil when the entry serves it directly.
        public let variant: Variant?
        /// The variant's position in the experiment's `variants`; nil when served directly.
        public let variantIndex: Int?
        /// The funnel or paywall.
        public let value: Value

        /// The variant's id, nil when served directly.
        public var variantId: String? { variant?.variantId }
    }

    /// Every funnel a device can be served: the direct funnel, or each variant's funnel in order.
    public var servedFunnels: [Served<Funnel>] {
        switch self {
        case .funnel(let funnel): [Served(variant: nil, variantIndex: nil, value: funnel)]
        case .experiment(let experiment):
            experiment.variants.enumerated().compactMap { index, variant in
                OfflineTarget(variant).funnel.map { Served(variant: variant, variantIndex: index, value: $0) }
            }
        case .paywall, .nothing: []
        }
    }

    /// Every paywall a device can be served: the direct paywall, or the paywall of each variant
    /// that has no funnel, in order.
    public var servedPaywalls: [Served<Paywall>] {
        switch self {
        case .paywall(let paywall): [Served(variant: nil, variantIndex: nil, value: paywall)]
        case .experiment(let experiment):
            experiment.variants.enumerated().compactMap { index, variant in
                OfflineTarget(variant).paywall.map { Served(variant: variant, variantIndex: index, value: $0) }
            }
        case .funnel, .nothing: []
        }
    }
}

extension FallbackEntry {
    /// What this entry serves an offline device, whoever the subscriber is (§5).
    public var offlineTarget: OfflineTarget { OfflineTarget(self) }
}

extension Variant {
    /// What a device that draws this variant is served: its funnel, else its paywall.
    public var offlineTarget: OfflineTarget { OfflineTarget(self) }
}

// MARK: - Identity

extension OfflineTarget {
    /// A target by its ids, versions, keys and weights: what a timeline records of a snapshot and
    /// compares with the next. Two identities are equal when each of those has the same bytes, as
    /// the SDK compares them (`é` precomposed and `e` + U+0301 are two ids).
    public struct Identity: Sendable, Hashable, CustomStringConvertible {
        /// One variant of an experiment: its id, its weight as written, and what it serves.
        public struct Variant: Sendable, Hashable {
            /// The variant's `variantId`.
            public let variantId: String
            /// The weight as written (`0.5`, `5e-1`).
            public let weight: String
            /// What a device that draws the variant is served.
            public let target: Identity

            public static func == (lhs: Self, rhs: Self) -> Bool {
                ExactKey.same(lhs.variantId, rhs.variantId) && ExactKey.same(lhs.weight, rhs.weight) && lhs.target == rhs.target
            }

            public func hash(into hasher: inout Hasher) {
                hasher.combine(ExactKey(variantId))
                hasher.combine(ExactKey(weight))
                hasher.combine(target)
            }
        }

        /// What kind of target it is.
        public let kind: OfflineTarget.Kind
        /// The funnel, paywall or experiment id; nil for nothing.
        public let id: String?
        /// A funnel's `versionNo`.
        public let version: Int64?
        /// An experiment's bucketing key.
        public let experimentKey: String?
        /// An experiment's variants, in order; empty for any other kind.
        public let variants: [Variant]
        /// Why nothing is served, for `.nothing`.
        public let reason: NothingReason?

        /// The identity of `target`.
        public init(_ target: OfflineTarget) {
            kind = target.kind
            id = target.id
            var version: Int64?
            var experimentKey: String?
            var variants: [Variant] = []
            var reason: NothingReason?
            switch target {
            case .funnel(let funnel):
                version = funnel.versionNo
            case .paywall:
                break
            case .experiment(let experiment):
                experimentKey = experiment.key
                variants = experiment.variants.map {
                    Variant(variantId: $0.variantId, weight: $0.weightText, target: Identity($0.offlineTarget))
                }
            case .nothing(let why, _):
                reason = why
            }
            self.version = version
            self.experimentKey = experimentKey
            self.variants = variants
            self.reason = reason
        }

        /// True when both serve the same kind of target with the same id bytes, whatever their
        /// versions, keys, weights or reasons for serving nothing.
        public func isSameTarget(as other: Identity) -> Bool {
            kind == other.kind && ExactKey.same(id, other.id)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.kind == rhs.kind && ExactKey.same(lhs.id, rhs.id) && lhs.version == rhs.version
                && ExactKey.same(lhs.experimentKey, rhs.experimentKey) && lhs.variants == rhs.variants && lhs.reason == rhs.reason
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(id.map(ExactKey.init))
            hasher.combine(version)
            hasher.combine(experimentKey.map(ExactKey.init))
            hasher.combine(variants)
            hasher.combine(reason)
        }

        /// The history's wording, with versions and weights: `funnel fnl_calm_quiz v6`,
        /// `paywall pwl_trial_end`, `experiment exp_onb (control 0.5, short_quiz 0.5)`,
        /// `nothing (no funnel, paywall or experiment)`.
        public var description: String {
            switch kind {
            case .funnel: OfflineTarget.phrase(kind, id) + (version.map { " v\($0)" } ?? "")
            case .paywall: OfflineTarget.phrase(kind, id)
            case .experiment:
                OfflineTarget.phrase(kind, id) + " (" + variants.map { "\($0.variantId) \($0.weight)" }.joined(separator: ", ") + ")"
            case .nothing: (reason ?? .noTarget).summary
            }
        }
    }

    /// This target by its ids, versions, keys and weights.
    public var identity: Identity { Identity(self) }
}

// MARK: - Wording

extension OfflineTarget {
    // Every report and page words a target with one of these; `Identity.description` is the
    // history's wording (with versions and weights).

    /// The target's kind and id, the id spelled by `spell` (quoted, shortened): `funnel "fnl_a"`,
    /// `experiment "exp_onb"`; nothing is its reason's `summary`: `nothing (an experiment with no variants)`.
    /// The diff's wording.
    public func phrase(spellingIds spell: (String) -> String) -> String {
        if case .nothing(let reason, _) = self { return reason.summary }
        return Self.phrase(kind, id.map(spell))
    }

    /// As `phrase(spellingIds:)`, but an experiment is worded by what its variants serve:
    /// `experiment over 2 funnels and 1 paywall`. The site's wording.
    public func overviewPhrase(spellingIds spell: (String) -> String) -> String {
        guard case .experiment(let experiment) = self else { return phrase(spellingIds: spell) }
        let funnels = experiment.variants.count { $0.offlineTarget.kind == .funnel }
        let paywalls = experiment.variants.count - funnels
        var parts: [String] = []
        if funnels > 0 { parts.append("\(funnels) funnel\(funnels == 1 ? "" : "s")") }
        if paywalls > 0 { parts.append("\(paywalls) paywall\(paywalls == 1 ? "" : "s")") }
        return "experiment over " + parts.joined(separator: " and ")
    }

    /// `funnel fnl_a`: a kind and an id as written.
    fileprivate static func phrase(_ kind: Kind, _ id: String?) -> String {
        "\(kind.rawValue) \(id ?? "")"
    }
}
