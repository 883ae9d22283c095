import FallbackAudit
import RovenueFallback

/// How much a change between two snapshots matters to a device that falls back on the newer one.
///
/// A more severe class compares greater: `.info < .notable < .breaking`. `allCases` lists the most
/// severe first.
public enum ChangeClass: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Something that worked offline no longer does: a placement removed, an entry that fails to
    /// decode, a paywall a funnel can no longer show, a rejected file, another project.
    case breaking
    /// What subscribers get changes shape: another target, an experiment's variants or weights,
    /// pages added or removed, branching.
    case notable
    /// Copy, options, media and other fields.
    case info

    private var rank: Int {
        switch self {
        case .info: 0
        case .notable: 1
        case .breaking: 2
        }
    }

    public static func < (lhs: ChangeClass, rhs: ChangeClass) -> Bool {
        lhs.rank < rhs.rank
    }
}

/// What changed, with a stable id (`docs/diff.md` documents each one).
///
/// Every kind has one class. Cases are declared in the order a diff lists them within a class and
/// placement.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable {
    // Breaking
    case fileRejected = "file-rejected"
    case projectChanged = "project-changed"
    case placementRemoved = "placement-removed"
    case entryNowSkipped = "entry-now-skipped"
    case paywallUnreachableOffline = "paywall-unreachable-offline"
    // Notable
    case generatedEarlier = "generated-earlier"
    case placementAdded = "placement-added"
    case entryNowLoads = "entry-now-loads"
    case targetChanged = "target-changed"
    case identifierChanged = "identifier-changed"
    case experimentStarted = "experiment-started"
    case experimentEnded = "experiment-ended"
    case experimentKeyChanged = "experiment-key-changed"
    case variantRemoved = "variant-removed"
    case variantAdded = "variant-added"
    case weightsChanged = "weights-changed"
    case pageAdded = "page-added"
    case pageRemoved = "page-removed"
    case pagesReordered = "pages-reordered"
    case ruleChanged = "rule-changed"
    case pagePaywallChanged = "page-paywall-changed"
    case paywallReachableOffline = "paywall-reachable-offline"
    // Info
    case revisionChanged = "revision-changed"
    case funnelVersionChanged = "funnel-version-changed"
    case copyChanged = "copy-changed"
    case optionsChanged = "options-changed"
    case mediaChanged = "media-changed"
    case funnelPaywallAdded = "funnel-paywall-added"
    case funnelPaywallRemoved = "funnel-paywall-removed"
    case offeringChanged = "offering-changed"
    case fieldChanged = "field-changed"
    case skippedEntryRemoved = "skipped-entry-removed"
    case entryStillSkipped = "entry-still-skipped"

    /// The stable id, e.g. `placement-removed`.
    public var id: String { rawValue }

    public var changeClass: ChangeClass {
        switch self {
        case .fileRejected, .projectChanged, .placementRemoved, .entryNowSkipped, .paywallUnreachableOffline:
            .breaking
        case .generatedEarlier, .placementAdded, .entryNowLoads, .targetChanged, .identifierChanged, .experimentStarted,
            .experimentEnded, .experimentKeyChanged, .variantRemoved, .variantAdded, .weightsChanged, .pageAdded, .pageRemoved,
            .pagesReordered, .ruleChanged, .pagePaywallChanged, .paywallReachableOffline:
            .notable
        case .revisionChanged, .funnelVersionChanged, .copyChanged, .optionsChanged, .mediaChanged, .funnelPaywallAdded,
            .funnelPaywallRemoved, .offeringChanged, .fieldChanged, .skippedEntryRemoved, .entryStillSkipped:
            .info
        }
    }

    /// One line saying what the kind reports.
    public var summary: String {
        switch self {
        case .fileRejected: "A snapshot is rejected by the SDK (§2): nothing in it loads."
        case .projectChanged: "The snapshots name different projectIds."
        case .placementRemoved: "A placement that loaded is gone: app code that asks for it gets nothing offline."
        case .entryNowSkipped: "An entry fails to decode (§4), so the SDK skips it and the placement serves nothing offline."
        case .paywallUnreachableOffline:
            "A funnel's paywall page names a paywall its paywalls map does not carry, newly: offline, it cannot show it."
        case .generatedEarlier: "The new snapshot's generatedAt is earlier than the old one's."
        case .placementAdded: "A placement key is new."
        case .entryNowLoads: "An entry the SDK skipped decodes again."
        case .targetChanged: "What a placement (or a variant) serves changed kind or id."
        case .identifierChanged: "The entry's placement.identifier, which exposures report, changed."
        case .experimentStarted: "A placement now draws from an experiment."
        case .experimentEnded: "A placement no longer draws from an experiment."
        case .experimentKeyChanged: "An experiment's key, which seeds bucketing, changed: every subscriber draws again."
        case .variantRemoved: "An experiment lost a variant."
        case .variantAdded: "An experiment gained a variant."
        case .weightsChanged: "An experiment's split changed; the diff says how many subscribers draw another variant."
        case .pageAdded: "A funnel gained a page."
        case .pageRemoved: "A funnel lost a page."
        case .pagesReordered: "A funnel's pages are in another order."
        case .ruleChanged: "A page's next_rules or default_next changed."
        case .pagePaywallChanged: "A paywall page shows another paywall."
        case .paywallReachableOffline: "A paywall page that could not show its paywall offline now can."
        case .revisionChanged: "A placement's revision changed."
        case .funnelVersionChanged: "A funnel's versionNo or versionId changed."
        case .copyChanged: "A text field of a page or an option label changed."
        case .optionsChanged: "A page's options were added, removed or reordered."
        case .mediaChanged: "A media field (mediaUrl, imageUrl, …) changed."
        case .funnelPaywallAdded: "A funnel's paywalls map gained a paywall."
        case .funnelPaywallRemoved: "A funnel's paywalls map lost a paywall."
        case .offeringChanged: "A paywall's offering or packages changed."
        case .fieldChanged: "Any other field changed."
        case .skippedEntryRemoved: "An entry the SDK skipped is gone."
        case .entryStillSkipped: "An entry the SDK skipped changed and is still skipped."
        }
    }
}

/// One change between two snapshots, matched by placement key, variant, funnel, page and paywall id.
public struct Change: Sendable, Hashable, CustomStringConvertible {
    /// What a change is and where it is, without what it says: its kind and the ids it is reported
    /// under. What `SnapshotDiff.funnelChangeOutlines` gives, for a caller that needs no more.
    public struct Outline: Sendable, Hashable {
        public let kind: ChangeKind
        /// The placement key; nil for the file as a whole.
        public let placementKey: String?
        /// The experiment variant the change is in, when there is one.
        public let variantId: String?
        public let funnelId: String?
        public let pageId: String?
        /// The paywall the change is in: a funnel's `paywalls` key, or a served paywall's id.
        public let paywallId: String?

        init(kind: ChangeKind, scope: ChangeScope) {
            self.kind = kind
            placementKey = scope.placement
            variantId = scope.variant
            funnelId = scope.funnel
            pageId = scope.page
            paywallId = scope.paywall
        }
    }

    /// This change's kind and ids.
    public let outline: Outline
    /// The field, relative to the page, paywall, funnel or placement the change is in:
    /// `title`, `options[value="morning"].label`, `theme.colors.primary`.
    public let field: String?
    /// What changed and what it does on a device.
    public let message: String
    /// The old value as compact JSON, shortened past 120 characters; nil when there was none.
    public let oldValue: String?
    /// The new value as compact JSON, shortened past 120 characters; nil when there is none.
    public let newValue: String?
    /// Where the change sits in the old snapshot; nil when it has no place there.
    public let oldLocation: FallbackFile.Location?
    /// Where the change sits in the new snapshot; nil when it has no place there.
    public let newLocation: FallbackFile.Location?
    /// For `copy-changed`, the old and new text in full per locale with the words that differ; nil
    /// for other kinds.
    public let copy: CopyChange?

    public var kind: ChangeKind { outline.kind }
    /// The placement key; nil for the file as a whole.
    public var placementKey: String? { outline.placementKey }
    /// The experiment variant the change is in, when there is one.
    public var variantId: String? { outline.variantId }
    public var funnelId: String? { outline.funnelId }
    public var pageId: String? { outline.pageId }
    /// The paywall the change is in: a funnel's `paywalls` key, or a served paywall's id.
    public var paywallId: String? { outline.paywallId }

    public var changeClass: ChangeClass { kind.changeClass }

    /// The new location's JSON Pointer, else the old one's.
    public var pointer: String? { jsonPointer?.string }
    /// `pointer` as held, its long tokens shared (`JSONPointer`).
    public var jsonPointer: JSONPointer? { (newLocation ?? oldLocation)?.jsonPointer }

    /// `class kind [key]: message`.
    public var description: String {
        "\(changeClass.rawValue) \(kind.rawValue)\(placementKey.map { " [\($0)]" } ?? ""): \(message)"
    }
}
