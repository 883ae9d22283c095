/// How much a finding matters. A more severe level compares greater: `.info < .warning < .error`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// The SDK throws, skips an entry, or a device cannot run what the file describes.
    case error
    /// The file loads, but a device does something other than what was probably meant.
    case warning
    /// Worth knowing about a first launch; not wrong in itself.
    case info

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }
}

/// One check of the audit: a stable id, a default severity and a one-line summary.
///
/// Ids never change once published; `docs/rules.md` documents each one.
public struct Rule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// What a rule looks at.
    public enum Category: String, Sendable, Hashable, CaseIterable {
        /// The file as a whole: what `setFallbackPlacements` does with it.
        case file
        /// One placement entry: its key, its `placement`, what it targets.
        case entry
        /// An experiment's variants and weights.
        case experiment
        /// A funnel's pages, branching, copy and media, and the paywalls it carries.
        case funnel
        /// A series of snapshots: how placements and projects change from one to the next.
        case history
    }

    /// A rule's stable id, e.g. `goto-unknown`: written as its text in every report, compared by it.
    ///
    /// A diff's change kinds (`field-changed`, …) use the same type when diffs are reported as findings.
    public struct ID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral value: String) {
            rawValue = value
        }

        public var description: String { rawValue }

        public static func < (lhs: ID, rhs: ID) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    /// The stable id, e.g. `goto-unknown`.
    public let id: ID
    /// The severity findings get unless a configuration overrides it.
    public let severity: Severity
    public let category: Category
    /// One line saying what the rule reports.
    public let summary: String

    init(_ id: ID, _ severity: Severity, _ category: Category, _ summary: String) {
        self.id = id
        self.severity = severity
        self.category = category
        self.summary = summary
    }

    /// Whether the rule's findings are each about one placement: every rule but the file's and the
    /// history rules about snapshots as a whole (`project-changed`, `snapshot-stale`,
    /// `snapshot-tie`, `snapshot-back-in-time`), which never name one. A report with a case per
    /// placement and rule (JUnit) lists these once per file, not once per placement.
    public var isAboutAPlacement: Bool {
        switch category {
        case .file: false
        case .history: self == .revisionRegressed || self == .contentChangedSameRevision
        case .entry, .experiment, .funnel: true
        }
    }

    /// The rule with `id`, if there is one.
    public init?(id: ID) {
        guard let rule = Rule.byId[id] else { return nil }
        self = rule
    }

    public var description: String { id.rawValue }

    private static let byId: [ID: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}

extension Rule {
    // MARK: File

    public static let fileRejected = Rule(
        "file-rejected", .error, .file, "The SDK throws on the file and keeps the previously loaded set (§2).")
    public static let arrayTopLevel = Rule(
        "array-top-level", .warning, .file, "The top level is the array quirk [formatVersion, placements].")
    public static let generatedAtInvalid = Rule(
        "generated-at-invalid", .warning, .file, "generatedAt is missing or not plausible integer epoch milliseconds.")
    public static let generatedAtFuture = Rule(
        "generated-at-future", .warning, .file, "generatedAt is later than now, beyond clock skew.")
    public static let projectIdMissing = Rule(
        "project-id-missing", .info, .file, "projectId is missing or not a non-empty string.")

    // MARK: Entry

    public static let entrySkipped = Rule(
        "entry-skipped", .error, .entry, "The entry fails to decode: the SDK skips it and serves nothing for its key.")
    public static let arrayAsObject = Rule(
        "array-as-object", .warning, .entry, "An object is written as the array quirk of its fields.")
    public static let duplicateKey = Rule(
        "duplicate-key", .warning, .entry, "A placement key or a known field is written twice; the last one wins silently.")
    public static let keyMismatch = Rule(
        "key-mismatch", .warning, .entry, "The map key differs from placement.identifier.")
    public static let servesNothing = Rule(
        "serves-nothing", .warning, .entry, "The entry loads but an offline device is served nothing.")
    public static let shadowedTarget = Rule(
        "shadowed-target", .warning, .entry, "More than one of funnel, paywall and experiment; only one is ever served.")
    public static let revisionInvalid = Rule(
        "revision-invalid", .warning, .entry, "placement.revision is below 1.")
    public static let identifierInvalid = Rule(
        "identifier-invalid", .warning, .entry,
        "A placement key or identifier is empty, has surrounding whitespace or is over 160 characters.")

    // MARK: Experiment

    public static let weightsSum = Rule(
        "weights-sum", .warning, .experiment, "Variant weights do not sum to 1; the last variant absorbs the difference.")
    public static let weightsPercent = Rule(
        "weights-percent", .error, .experiment, "Variant weights look like percentages; the first variant takes everyone.")
    public static let weightNotPositive = Rule(
        "weight-not-positive", .warning, .experiment, "A variant's weight is zero or negative.")
    public static let singleVariant = Rule(
        "single-variant", .warning, .experiment, "An experiment has a single variant.")
    public static let duplicateVariantId = Rule(
        "duplicate-variant-id", .error, .experiment, "Two variants of an experiment share a variantId.")

    // MARK: Funnel

    public static let funnelEmpty = Rule(
        "funnel-empty", .error, .funnel, "A funnel has no pages.")
    public static let pageTypeUnknown = Rule(
        "page-type-unknown", .warning, .funnel, "A page's type is not one of the 26 funnel page types.")
    public static let duplicatePageId = Rule(
        "duplicate-page-id", .error, .funnel, "Two pages of a funnel share an id.")
    public static let gotoUnknown = Rule(
        "goto-unknown", .error, .funnel, "A goto or default_next names no page, \"end\" or an existing \"paywall\" page.")
    public static let cycle = Rule(
        "cycle", .error, .funnel, "A rule or default_next goes back to an earlier page (or the same page).")
    public static let pageUnreachable = Rule(
        "page-unreachable", .warning, .funnel, "No path from the first page reaches the page.")
    public static let duplicateQuestionId = Rule(
        "duplicate-question-id", .error, .funnel, "Two pages of a funnel ask the same question_id.")
    public static let questionUnknown = Rule(
        "question-unknown", .error, .funnel, "A clause reads a question no page asks.")
    public static let questionNotYetAsked = Rule(
        "question-not-yet-asked", .warning, .funnel, "A clause reads a question asked only on later pages.")
    public static let clauseValueInvalid = Rule(
        "clause-value-invalid", .error, .funnel, "A clause's value does not fit its operator.")
    public static let clauseOptionUnknown = Rule(
        "clause-option-unknown", .warning, .funnel, "A clause compares a choice question with a value none of its options has.")
    public static let optionsMissing = Rule(
        "options-missing", .warning, .funnel, "A choice page has no options to choose from.")
    public static let paywallUnavailableOffline = Rule(
        "paywall-unavailable-offline", .error, .funnel, "A paywall page's paywall is not carried in the funnel's paywalls map.")
    public static let translationMissing = Rule(
        "translation-missing", .warning, .funnel, "A localized text is empty or absent for a locale the funnel declares.")
    public static let textNotLocalized = Rule(
        "text-not-localized", .warning, .funnel,
        "A funnel that declares several locales has a plain text, list or option label: every locale shows it as written.")
    public static let remoteMedia = Rule(
        "remote-media", .info, .funnel, "A page, theme or paywall loads images or video over the network.")

    // MARK: History

    public static let revisionRegressed = Rule(
        "revision-regressed", .error, .history, "A placement's revision went down between consecutive snapshots.")
    public static let projectChanged = Rule(
        "project-changed", .error, .history, "Consecutive snapshots name different projectIds.")
    public static let snapshotStale = Rule(
        "snapshot-stale", .warning, .history,
        "The current snapshot is older than the staleness threshold, or than a change a later snapshot records.")
    public static let contentChangedSameRevision = Rule(
        "content-changed-same-revision", .info, .history, "What a placement serves changed while its revision did not.")
    public static let snapshotTie = Rule(
        "snapshot-tie", .info, .history, "Two snapshots have the same generatedAt; source order decides between them.")
    public static let snapshotBackInTime = Rule(
        "snapshot-back-in-time", .warning, .history,
        "A snapshot comes later in source order than one generated after it.")

    /// Every rule, grouped by category, in the order of `docs/rules.md`.
    public static let all: [Rule] = [
        fileRejected, arrayTopLevel, generatedAtInvalid, generatedAtFuture, projectIdMissing,
        entrySkipped, arrayAsObject, duplicateKey, keyMismatch, servesNothing, shadowedTarget, revisionInvalid,
        identifierInvalid,
        weightsSum, weightsPercent, weightNotPositive, singleVariant, duplicateVariantId,
        funnelEmpty, pageTypeUnknown, duplicatePageId, gotoUnknown, cycle, pageUnreachable, duplicateQuestionId,
        questionUnknown, questionNotYetAsked, clauseValueInvalid, clauseOptionUnknown, optionsMissing,
        paywallUnavailableOffline, translationMissing, textNotLocalized, remoteMedia,
        revisionRegressed, projectChanged, snapshotStale, contentChangedSameRevision, snapshotTie, snapshotBackInTime,
    ]
}
