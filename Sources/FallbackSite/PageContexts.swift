import FallbackAudit
/// The context of every page and of every row its sections iterate over, one type each (see
/// `TemplateContext`). `docs/templates.md` documents exactly these keys; the site's
/// `PageTypeDocumentationTests` check it, and check that every tag of `Templates/` names one.

// MARK: - Every page

/// What every page's context has, beside its own page's.
struct CommonPageFields: TemplateContext {
    var root: String
    var siteTitle: String
    var snapshot: String
    var kind: String

    static let fields: TemplateFields<Self> = [
        .init("root", \.root), .init("siteTitle", \.siteTitle), .init("snapshot", \.snapshot), .init("kind", \.kind),
    ]
}

/// A finding, wherever a page lists `findings`.
struct FindingRow: TemplateContext {
    /// The finding's permalink id (`FindingPermalink`): its row's `id`.
    var id: String
    var rule: String
    /// The rule's page, for a rule of the catalogue.
    var rulePath: String?
    var severity: String
    var isError: Bool
    var isWarning: Bool
    var isInfo: Bool
    var message: String
    var pointer: String
    var line: Int
    var column: Int
    /// For findings about a placement: its key, the link to its page, and the marked source line there.
    var placement: String?
    var placementPath: String?
    var anchor: String?
    /// For a finding about an experiment, one of its variants, or the skipped entry that carries
    /// one: the experiment's page.
    var experimentPath: String? = nil
    /// Against the previous snapshot (`FindingStatus`): `new`, `still-present` or `fixed`, and the
    /// badge's words; only where a page compares (a snapshot's page, the checks page of a series).
    var status: String? = nil
    var statusLabel: String? = nil
    /// Where a page other than the Checks page lists the finding: its row on the Checks page, when
    /// that page lists it (not past a rule's `listedFindingLimit`).
    var checksPath: String? = nil

    static let fields: TemplateFields<Self> = [
        .init("checksPath", omittedWhenNil: \.checksPath),
        .init("id", \.id), .init("rule", \.rule), .init("rulePath", omittedWhenNil: \.rulePath), .init("severity", \.severity),
        .init("experimentPath", omittedWhenNil: \.experimentPath),
        .init("isError", \.isError), .init("isWarning", \.isWarning),
        .init("isInfo", \.isInfo), .init("message", \.message), .init("pointer", \.pointer), .init("line", \.line),
        .init("column", \.column), .init("placement", omittedWhenNil: \.placement),
        .init("placementPath", omittedWhenNil: \.placementPath), .init("anchor", omittedWhenNil: \.anchor),
        .init("status", omittedWhenNil: \.status), .init("statusLabel", omittedWhenNil: \.statusLabel),
    ]
}

/// Findings by severity: the audit's own counts, as a page shows them.
extension SeverityCounts: TemplateContext {
    static let fields: TemplateFields<Self> = [
        .init("errors", \.errors), .init("warnings", \.warnings), .init("infos", \.infos), .init("total", \.total),
    ]
}

/// A link to a funnel's page, from a placement or an experiment's variant.
struct FunnelLink: TemplateContext {
    var id: String
    var slug: String
    var name: String
    var path: String
    var pageCount: Int
    /// `page` for one, else `pages`.
    var pageNoun: String { pageCount == 1 ? "page" : "pages" }

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("slug", \.slug), .init("name", \.name), .init("path", \.path), .init("pageCount", \.pageCount),
        .init("pageNoun", \.pageNoun),
    ]
}

/// A paywall a placement or a variant serves.
struct PaywallSummary: TemplateContext {
    var id: String
    var identifier: String
    /// On the placement page only.
    var name: String?
    /// The link to the paywall's page.
    var path: String?

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("identifier", \.identifier), .init("name", omittedWhenNil: \.name), .init("path", \.path),
    ]
}

// MARK: - Overview

struct OverviewPage: TemplateContext {
    struct GeneratedAt: TemplateContext {
        var iso: String
        var milliseconds: String
        /// Only with a reference date (`SOURCE_DATE_EPOCH`).
        var age: String?

        static let fields: TemplateFields<Self> = [
            .init("iso", \.iso), .init("milliseconds", \.milliseconds), .init("age", omittedWhenNil: \.age),
        ]
    }

    struct Rejection: TemplateContext {
        var message: String
        var rule: String
        var summary: String
        var line: Int
        var column: Int

        static let fields: TemplateFields<Self> = [
            .init("message", \.message), .init("rule", \.rule), .init("summary", \.summary), .init("line", \.line), .init("column", \.column),
        ]
    }

    /// One row of the placements table.
    struct PlacementRow: TemplateContext {
        var key: String
        var path: String
        var revision: String?
        var kind: String
        var icon: String
        var serves: String
        var findingCount: Int
        var findingNoun: String
        /// The findings by severity, the badge's words: `1 error`, `1 warning, 2 infos` (never colour alone).
        var findingSummary: String
        var severity: String
        var skipped: Bool
        var search: String
        /// The page of the experiment the placement runs, or of the experiment its skipped entry carries.
        var experimentPath: String? = nil

        static let fields: TemplateFields<Self> = [
            .init("key", \.key), .init("path", \.path), .init("revision", \.revision), .init("kind", \.kind), .init("icon", \.icon),
            .init("serves", \.serves), .init("findingCount", \.findingCount), .init("findingNoun", \.findingNoun),
            .init("findingSummary", \.findingSummary), .init("severity", \.severity), .init("skipped", \.skipped), .init("search", \.search),
            .init("experimentPath", \.experimentPath),
        ]
    }

    /// The verdict the overview opens with: ready to ship, or what stands in the way, each linked.
    struct Readiness: TemplateContext {
        /// One count of the verdict: `1 error`, `no breaking changes`; linked when not zero.
        struct Count: TemplateContext {
            var count: Int
            /// The count in words, the badge's text: `1 error`, `2 breaking changes`, `no errors`.
            var text: String
            /// The list of them (`checks.html#errors`, `changes.html#breaking`); nil when there are none.
            var path: String?
            /// The theme's severity class: `error`, `warning` or `none`.
            var severity: String

            static let fields: TemplateFields<Self> = [
                .init("count", \.count), .init("text", \.text), .init("path", \.path), .init("severity", \.severity),
            ]
        }

        /// No errors, and no breaking changes since the snapshot compared against.
        var ready: Bool
        /// `Ready to ship` or `Not ready`.
        var status: String
        var errors: Count
        /// Changes that break an offline first launch since `since`; nil without a snapshot to compare against.
        var breaking: Count?
        /// Mentioned after the rest; nil when there are none.
        var warnings: Count?
        /// What the breaking changes are counted since: `the previous snapshot` or `the baseline`; nil without one.
        var since: String?
        /// The name of the snapshot compared against; nil without one.
        var baseline: String?

        static let fields: TemplateFields<Self> = [
            .init("ready", \.ready), .init("status", \.status), .init("errors", \.errors),
            .init("breaking", omittedWhenNil: \.breaking), .init("warnings", omittedWhenNil: \.warnings),
            .init("since", omittedWhenNil: \.since), .init("baseline", omittedWhenNil: \.baseline),
        ]
    }

    /// Where this page's rows sit among all placements, when they do not fit on one page.
    struct Pager: TemplateContext {
        struct Link: TemplateContext {
            var number: Int
            var path: String
            var current: Bool
            /// Whether pages are left out between the previous link and this one (an ellipsis goes here).
            var gapBefore: Bool

            static let fields: TemplateFields<Self> = [
                .init("number", \.number), .init("path", \.path), .init("current", \.current), .init("gapBefore", \.gapBefore),
            ]
        }

        /// Up to this many pages, the pager links every one; past it, only `listedPages` below.
        static let everyPageLimit = 9

        /// The pages the pager links, in order, each with whether pages are left out before it: every
        /// page up to `everyPageLimit` of them; past that the first, the last and the two on each side
        /// of the current one (and a page an ellipsis would stand for alone), so each page's pager stays the same size however many pages there are
        /// (linking every page from every page grows with the square of the pages).
        static func listedPages(count: Int, current: Int) -> [(page: Int, gapBefore: Bool)] {
            guard count > 0 else { return [] }
            if count <= everyPageLimit { return (1...count).map { ($0, false) } }
            let current = min(max(1, current), count)
            // An ellipsis never stands for one page: that page is linked instead.
            let low = max(2, current - 2) == 3 ? 2 : max(2, current - 2)
            let high = min(count - 1, current + 2) == count - 2 ? count - 1 : min(count - 1, current + 2)
            let pages = [1] + Array(low...high) + [count]
            return pages.enumerated().map { index, page in (page, index > 0 && page != pages[index - 1] + 1) }
        }

        /// This page's number, from 1, and how many there are.
        var number: Int
        var count: Int
        /// The rows listed here, from 1, and all of them.
        var first: Int
        var last: Int
        var total: Int
        var previous: String?
        var next: String?
        var pages: [Link]

        static let fields: TemplateFields<Self> = [
            .init("number", \.number), .init("count", \.count), .init("first", \.first), .init("last", \.last), .init("total", \.total),
            .init("previous", omittedWhenNil: \.previous), .init("next", omittedWhenNil: \.next), .init("pages", \.pages),
        ]
    }

    var projectId: String?
    var generatedAt: GeneratedAt?
    var formatVersion: String
    var size: String
    var bytes: Int
    var sha256: String
    var verdict: String
    var readiness: Readiness
    var rejected: Bool
    var rejection: Rejection?
    var counts: SeverityCounts
    var loaded: Int
    var entryCount: Int
    var skipped: Int
    var hasPlacements: Bool
    var placements: [PlacementRow]
    var pager: Pager?

    static let fields: TemplateFields<Self> = [
        .init("projectId", \.projectId), .init("generatedAt", omittedWhenNil: \.generatedAt), .init("formatVersion", \.formatVersion),
        .init("size", \.size), .init("bytes", \.bytes), .init("sha256", \.sha256), .init("verdict", \.verdict),
        .init("readiness", \.readiness), .init("rejected", \.rejected), .init("rejection", omittedWhenNil: \.rejection), .init("counts", \.counts),
        .init("loaded", \.loaded), .init("entryCount", \.entryCount), .init("skipped", \.skipped),
        .init("hasPlacements", \.hasPlacements), .init("placements", \.placements),
        .init("pager", omittedWhenNil: \.pager),
    ]
}

// MARK: - Checks

struct ChecksPage: TemplateContext {
    /// The findings of one severity.
    struct SeverityGroup: TemplateContext {
        var severity: String
        var anchor: String
        var title: String
        var count: Int
        var rules: [RuleGroup]

        static let fields: TemplateFields<Self> = [
            .init("severity", \.severity), .init("anchor", \.anchor), .init("title", \.title), .init("count", \.count), .init("rules", \.rules),
        ]
    }

    /// The findings of one rule, within a severity.
    struct RuleGroup: TemplateContext {
        var rule: String
        /// The rule's page, for a rule of the catalogue.
        var rulePath: String?
        /// The id of the group's heading: `rule-<severity>-<rule>`, the rule id reduced to safe characters.
        var anchor: String
        var severity: String
        var summary: String
        var count: Int
        var findingNoun: String
        /// Whether the group starts expanded: errors and warnings do, infos do not.
        var open: Bool
        var findings: [FindingRow]
        var moreFindings: Int

        static let fields: TemplateFields<Self> = [
            .init("rule", \.rule), .init("rulePath", omittedWhenNil: \.rulePath), .init("anchor", \.anchor),
            .init("severity", \.severity), .init("summary", \.summary), .init("count", \.count),
            .init("findingNoun", \.findingNoun), .init("open", \.open), .init("findings", \.findings),
            .init("moreFindings", \.moreFindings),
        ]
    }

    var counts: SeverityCounts
    var hasFindings: Bool
    var groups: [SeverityGroup]
    /// The findings against the snapshot before (the baseline); nil without one.
    var comparison: FindingChanges? = nil

    static let fields: TemplateFields<Self> = [
        .init("counts", \.counts), .init("hasFindings", \.hasFindings), .init("groups", \.groups),
        .init("comparison", omittedWhenNil: \.comparison),
    ]
}

// MARK: - Placement

struct PlacementPage: TemplateContext {
    struct Skip: TemplateContext {
        var reason: String
        var line: Int
        var column: Int

        static let fields: TemplateFields<Self> = [.init("reason", \.reason), .init("line", \.line), .init("column", \.column)]
    }

    struct ExperimentLink: TemplateContext {
        var id: String
        var key: String
        var variantCount: Int
        var path: String
        /// The SDK skips the whole entry, experiment included: the page says why.
        var skipped = false

        static let fields: TemplateFields<Self> = [
            .init("id", \.id), .init("key", \.key), .init("variantCount", \.variantCount), .init("path", \.path),
            .init("skipped", \.skipped),
        ]
    }

    /// When one state of the entry first appeared in the series.
    struct RevisionRow: TemplateContext {
        var revision: String?
        var snapshot: String
        var date: String?
        var commit: String?
        var served: String?
        var summary: String
        var removed: Bool

        static let fields: TemplateFields<Self> = [
            .init("revision", \.revision), .init("snapshot", \.snapshot), .init("date", \.date), .init("commit", \.commit),
            .init("served", \.served), .init("summary", \.summary), .init("removed", \.removed),
        ]
    }

    var key: String
    var fullKey: TrustedHTML?
    var occurrences: Int
    var occurrencesNote: String?
    /// From the entry's own `placement`, when it has one.
    var identifier: String?
    var revision: String?
    var keyMismatch: Bool?
    var serves: String
    var servesKind: String
    var servesIcon: String
    var skip: Skip?
    var funnel: FunnelLink?
    var paywall: PaywallSummary?
    var experiment: ExperimentLink?
    var findings: [FindingRow]
    var moreFindings: Int
    var counts: SeverityCounts
    /// With a series only.
    var hasRevisions: Bool?
    var revisions: [RevisionRow]?
    var source: TrustedHTML

    static let fields: TemplateFields<Self> = [
        .init("key", \.key), .init("fullKey", \.fullKey), .init("occurrences", \.occurrences), .init("occurrencesNote", \.occurrencesNote),
        .init("identifier", omittedWhenNil: \.identifier), .init("revision", omittedWhenNil: \.revision),
        .init("keyMismatch", omittedWhenNil: \.keyMismatch), .init("serves", \.serves), .init("servesKind", \.servesKind),
        .init("servesIcon", \.servesIcon), .init("skip", omittedWhenNil: \.skip), .init("funnel", omittedWhenNil: \.funnel),
        .init("paywall", omittedWhenNil: \.paywall), .init("experiment", omittedWhenNil: \.experiment), .init("findings", \.findings),
        .init("moreFindings", \.moreFindings), .init("counts", \.counts), .init("hasRevisions", omittedWhenNil: \.hasRevisions),
        .init("revisions", omittedWhenNil: \.revisions), .init("source", \.source),
    ]
}

// MARK: - Funnel

struct FunnelPage: TemplateContext {
    struct LocaleCoverage: TemplateContext {
        var locale: String
        var present: Int
        /// Plain texts a device in this locale shows as written, in the default locale's words.
        var plain: Int
        /// Texts with no copy, or blank copy, for this locale.
        var missing: Int
        var total: Int
        var percent: Int
        var complete: Bool

        static let fields: TemplateFields<Self> = [
            .init("locale", \.locale), .init("present", \.present), .init("plain", \.plain), .init("missing", \.missing),
            .init("total", \.total), .init("percent", \.percent), .init("complete", \.complete),
        ]
    }

    /// One row of the pages table.
    struct PageRow: TemplateContext {
        var number: Int
        var id: String
        var anchor: String
        var type: String
        var title: String?
        var question: String?
        var options: [OptionRow]
        var hasOptions: Bool
        var rules: [RuleRow]
        var hasRules: Bool
        var defaultNext: String?
        var paywallId: String?
        /// The link to the page of the paywall `paywallId` names in the funnel's `paywalls` map.
        var paywallPath: String?
        var unreachable: Bool
        /// Every way out of the page, in the order the SDK tries them (the outline).
        var steps: [StepRow]
        /// Whether the page has a preview: one of the first `FunnelPreviews.pageLimit` pages.
        var previewed: Bool

        static let fields: TemplateFields<Self> = [
            .init("number", \.number), .init("id", \.id), .init("anchor", \.anchor), .init("type", \.type), .init("title", \.title),
            .init("question", \.question), .init("options", \.options), .init("hasOptions", \.hasOptions), .init("rules", \.rules),
            .init("hasRules", \.hasRules), .init("defaultNext", \.defaultNext), .init("paywallId", \.paywallId), .init("paywallPath", \.paywallPath),
            .init("unreachable", \.unreachable), .init("steps", \.steps), .init("previewed", \.previewed),
        ]
    }

    /// One way out of a page, as `FunnelGraph` runs it (§6 of the format): a rule, then
    /// `default_next` or the next page in order.
    struct StepRow: TemplateContext {
        /// From 1, in the order the SDK tries the page's steps; the first that matches wins.
        var priority: Int
        /// `rule <id>`, `default_next` or `next page in order`.
        var kind: String
        /// A rule's condition as it reads; nil for the step taken when no rule matches.
        var condition: String?
        /// True for the step taken when none of the page's rules matches.
        var otherwise: Bool
        /// Where it leads: a page id, `end`, or the target as written when it leads nowhere.
        var target: String
        /// The anchor of the target page's row; nil for the end and unknown targets.
        var targetAnchor: String?
        var toPaywall: Bool
        var toEnd: Bool
        var toUnknown: Bool

        static let fields: TemplateFields<Self> = [
            .init("priority", \.priority), .init("kind", \.kind), .init("condition", \.condition), .init("otherwise", \.otherwise),
            .init("target", \.target), .init("targetAnchor", \.targetAnchor), .init("toPaywall", \.toPaywall), .init("toEnd", \.toEnd),
            .init("toUnknown", \.toUnknown),
        ]
    }

    struct OptionRow: TemplateContext {
        var label: String
        var value: String

        static let fields: TemplateFields<Self> = [.init("label", \.label), .init("value", \.value)]
    }

    /// One of a page's `next_rules`.
    struct RuleRow: TemplateContext {
        var id: String
        var goto: String
        var condition: String

        static let fields: TemplateFields<Self> = [.init("id", \.id), .init("goto", \.goto), .init("condition", \.condition)]
    }

    /// A remote URL an offline first launch cannot load.
    struct MediaRow: TemplateContext {
        var page: String
        var anchor: String
        var field: String
        var url: String
        /// Only for a web URL a page may link to.
        var href: String?

        static let fields: TemplateFields<Self> = [
            .init("page", \.page), .init("anchor", \.anchor), .init("field", \.field), .init("url", \.url), .init("href", omittedWhenNil: \.href),
        ]
    }

    /// A paywall of the funnel's own `paywalls` map.
    struct BundledPaywall: TemplateContext {
        var key: String
        var path: String?

        static let fields: TemplateFields<Self> = [.init("key", \.key), .init("path", \.path)]
    }

    /// A placement, or one of its experiment's variants, that serves the funnel.
    struct Use: TemplateContext {
        var placement: String
        var path: String
        var variant: String?

        static let fields: TemplateFields<Self> = [.init("placement", \.placement), .init("path", \.path), .init("variant", \.variant)]
    }

    var id: String
    var fullId: TrustedHTML?
    var slug: String
    var name: String
    var version: String?
    var versionId: String?
    var defaultLocale: String?
    var hasLocales: Bool
    var locales: [LocaleCoverage]
    var pageCount: Int
    /// `page` for one, else `pages`.
    var pageNoun: String { pageCount == 1 ? "page" : "pages" }
    var pages: [PageRow]
    var media: [MediaRow]
    var hasMedia: Bool
    var uses: [Use]
    var paywalls: [BundledPaywall]
    var findings: [FindingRow]
    var moreFindings: Int
    var hasFindings: Bool
    /// HTML: the flow as inline SVG; empty when `drawingOmitted`.
    var drawing: TrustedHTML
    /// HTML: a list with a key and words for every style the drawing uses; empty when `drawingOmitted`.
    var legend: TrustedHTML
    /// At least `largeFunnelPages` pages: the outline opens and the drawing starts closed.
    var largeFunnel: Bool
    /// More than `drawnPagesLimit` pages: no drawing is made, and the outline says everything it would.
    var drawingOmitted: Bool
    /// The most pages a funnel's drawing shows: `drawnPagesLimit` (as text, for the page).
    var drawnPagesLimit: Int { Self.drawnPagesLimit }

    /// From this many pages on, a funnel's outline reads better than its drawing.
    static let largeFunnelPages = 30
    /// Past this many pages a funnel is not drawn. The drawing costs about 2.5 KB of SVG a page: a
    /// funnel of 5,000 pages made a 12.8 MB drawing in a 17.6 MB page, and one of 10,000 went past
    /// the render budget and failed the build. Nobody reads a drawing of hundreds of boxes; the
    /// outline lists the same pages and steps in a few hundred bytes a page.
    static let drawnPagesLimit = 300
    /// One phone preview per page, in page order, for the first `FunnelPreviews.pageLimit` pages (`Previews.swift`).
    var previews: [FunnelPreviews.Page]
    /// Pages past `FunnelPreviews.pageLimit`, not previewed.
    var unpreviewedPages: Int
    /// The most pages previewed: `FunnelPreviews.pageLimit` (as text, for the page).
    var previewedPagesLimit: Int { FunnelPreviews.pageLimit }
    /// The locale switch of the previews; empty with fewer than two previewed locales.
    var previewLocales: [FunnelPreviews.Locale]
    var hasLocaleSwitch: Bool
    /// Declared locales past `FunnelPreviews.localeLimit`, not previewed.
    var unpreviewedLocales: Int

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("fullId", \.fullId), .init("slug", \.slug), .init("name", \.name), .init("version", \.version),
        .init("versionId", \.versionId), .init("defaultLocale", \.defaultLocale), .init("hasLocales", \.hasLocales),
        .init("locales", \.locales), .init("pageCount", \.pageCount), .init("pageNoun", \.pageNoun), .init("pages", \.pages),
        .init("media", \.media),
        .init("hasMedia", \.hasMedia), .init("uses", \.uses), .init("paywalls", \.paywalls), .init("findings", \.findings),
        .init("moreFindings", \.moreFindings), .init("hasFindings", \.hasFindings), .init("drawing", \.drawing),
        .init("legend", \.legend), .init("largeFunnel", \.largeFunnel), .init("drawingOmitted", \.drawingOmitted),
        .init("drawnPagesLimit", \.drawnPagesLimit),
        .init("previews", \.previews), .init("unpreviewedPages", \.unpreviewedPages), .init("previewedPagesLimit", \.previewedPagesLimit),
        .init("previewLocales", \.previewLocales), .init("hasLocaleSwitch", \.hasLocaleSwitch),
        .init("unpreviewedLocales", \.unpreviewedLocales),
    ]
}

// MARK: - Experiment

struct ExperimentPage: TemplateContext {
    struct VariantRow: TemplateContext {
        var index: Int
        var colour: Int
        var variantId: String
        /// The id as the lookup shows it (site.js writes it as text).
        var variantLabel: String
        /// As written.
        var weight: String
        /// The SDK's value, as the shortest text `parseFloat` reads back to it: what the lookup draws with.
        var weightValue: String
        var buckets: String
        var share: String
        var funnel: FunnelLink?
        var paywall: PaywallSummary?
        /// What a device that draws the variant gets when it serves neither (`nothing (…)`); null otherwise.
        var nothing: String?
        /// The findings about the variant and what it serves (its funnel, pages, paywalls), by severity.
        var health: SeverityCounts
        /// The card's badge, in words: `1 error, 2 warnings`, or `no errors or warnings`.
        var healthSummary: String
        /// The theme's severity class of the worst of them: `error`, `warning`, or `none` (infos only, or nothing).
        var healthSeverity: String
        /// Those findings (at most 500), each linked to its permalink on the checks page.
        var healthFindings: [FindingRow]
        var moreHealthFindings: Int

        static let fields: TemplateFields<Self> = [
            .init("index", \.index), .init("colour", \.colour), .init("variantId", \.variantId), .init("variantLabel", \.variantLabel),
            .init("weight", \.weight), .init("weightValue", \.weightValue), .init("buckets", \.buckets), .init("share", \.share),
            .init("funnel", omittedWhenNil: \.funnel), .init("paywall", omittedWhenNil: \.paywall), .init("nothing", \.nothing),
            .init("health", \.health), .init("healthSummary", \.healthSummary), .init("healthSeverity", \.healthSeverity),
            .init("healthFindings", \.healthFindings), .init("moreHealthFindings", \.moreHealthFindings),
        ]
    }

    /// A page of a variant's funnel, linked to its row on the funnel's page.
    struct PageLink: TemplateContext {
        var id: String
        /// Null when the funnel has no page on the site.
        var path: String?

        static let fields: TemplateFields<Self> = [.init("id", \.id), .init("path", \.path)]
    }

    /// A variant's funnel against the first variant's: the diff's funnel comparison.
    struct ComparisonRow: TemplateContext {
        var variantId: String
        var colour: Int
        var funnel: FunnelLink?
        /// Why there are no page lists, when there are none: `serves a paywall`, `the same funnel as control`.
        var note: String?
        /// Pages of this variant's funnel that the first variant's does not have (linked in this funnel).
        var added: [PageLink]
        /// Pages of the first variant's funnel that this one does not have (linked in that funnel).
        var removed: [PageLink]
        /// Pages both have whose copy (texts, options) differs.
        var copyChanged: [PageLink]
        /// Pages both have whose routing (`next_rules`, `default_next`, the paywall shown) differs, and
        /// `pages reordered` when the order of their common pages differs.
        var routingChanged: [PageLink]
        /// The pages both have are in another order (which moves where a page with no matching rule goes next).
        var reordered: Bool
        /// Every other difference the diff reports (slug, name, theme, media, bundled paywalls).
        var otherChanges: Int
        /// `other difference` for one, else `other differences`.
        var otherChangesNoun: String { otherChanges == 1 ? "other difference" : "other differences" }
        /// How many pages each list leaves out past `SiteModel.comparedPageLimit`.
        var moreAdded = 0
        var moreRemoved = 0
        var moreCopyChanged = 0
        var moreRoutingChanged = 0

        static let fields: TemplateFields<Self> = [
            .init("variantId", \.variantId), .init("colour", \.colour), .init("funnel", \.funnel), .init("note", \.note),
            .init("added", \.added), .init("removed", \.removed), .init("copyChanged", \.copyChanged),
            .init("routingChanged", \.routingChanged), .init("reordered", \.reordered), .init("otherChanges", \.otherChanges),
            .init("otherChangesNoun", \.otherChangesNoun),
            .init("moreAdded", \.moreAdded), .init("moreRemoved", \.moreRemoved), .init("moreCopyChanged", \.moreCopyChanged),
            .init("moreRoutingChanged", \.moreRoutingChanged),
        ]
    }

    /// The experiment's allocation over a run of consecutive snapshots of the series.
    struct AllocationRow: TemplateContext {
        /// One variant's weight in that run.
        struct Weight: TemplateContext {
            var variantId: String
            var weight: String
            var share: String

            static let fields: TemplateFields<Self> = [.init("variantId", \.variantId), .init("weight", \.weight), .init("share", \.share)]
        }

        /// `release-3.2`, or `release-3.2 … release-3.3 (2 snapshots)` for a run of several.
        var snapshots: String
        /// The first and last snapshot of the run (the same for a run of one), and how many it spans.
        var first: String
        var last: String
        var snapshotCount: Int
        /// The run includes the snapshot the site is built from.
        var current: Bool
        /// Whether the placement runs the experiment in this run; when not, `state` says what it does.
        var present: Bool
        var state: String
        var experimentId: String?
        /// The bucketing key (§5: it seeds every subscriber's bucket).
        var key: String?
        var weights: [Weight]
        /// `34/33/33`: the share of buckets of each variant, in percent.
        var split: String?
        /// What the change from the previous run does to subscribers' variants; null for the first run.
        var note: String?
        /// `everyone` (all buckets are drawn again), `some` (some buckets change variant), `none`
        /// (nobody changes variant), `start` or `end`; null for the first run.
        var moves: String?
        /// `moves` in words, the badge's text: `everyone redrawn`, `some move`, `nobody moves`, `starts`, `stops`.
        var movesLabel: String?

        static let fields: TemplateFields<Self> = [
            .init("snapshots", \.snapshots), .init("movesLabel", \.movesLabel), .init("first", \.first), .init("last", \.last), .init("snapshotCount", \.snapshotCount), .init("current", \.current),
            .init("present", \.present), .init("state", \.state), .init("experimentId", \.experimentId), .init("key", \.key),
            .init("weights", \.weights), .init("split", \.split), .init("note", \.note), .init("moves", \.moves),
        ]
    }

    /// Why the SDK skips the entry that carries the experiment, for an experiment whose entry does not decode.
    struct Skipped: TemplateContext {
        /// The whole story in plain words: what failed, where, and what that does offline.
        var explanation: String
        /// The decoder's words: `expected an integer, found the string "5"`.
        var expectation: String
        var pointer: String
        var line: Int
        var column: Int
        /// The anchor of that line in `source`.
        var anchor: String
        /// True when the failure is inside the experiment itself.
        var inExperiment: Bool
        var variantCount: Int?
        /// The entry as written, its failing line marked.
        var source: TrustedHTML

        static let fields: TemplateFields<Self> = [
            .init("explanation", \.explanation), .init("expectation", \.expectation), .init("pointer", \.pointer),
            .init("line", \.line), .init("column", \.column), .init("anchor", \.anchor), .init("inExperiment", \.inExperiment),
            .init("variantCount", \.variantCount), .init("source", \.source),
        ]
    }

    var id: String
    var key: String
    var lookupKey: String
    var placement: String
    var placementPath: String
    var variants: [VariantRow]
    var variantCount: Int
    var hasVariants: Bool
    var serves: String
    var weightsSumToOne: Bool
    var weightSum: String
    var allocation: TrustedHTML
    var findings: [FindingRow]
    var moreFindings: Int
    var hasFindings: Bool
    /// The variant the others' funnels are compared with: the first one. Null without variants.
    var control: String?
    var comparison: [ComparisonRow]
    /// The variants after the first `SiteModel.comparedVariantLimit` compared, which the table leaves out.
    var moreComparedVariants = 0
    /// The allocation over the series, oldest first; null when the site is built from one snapshot.
    var history: [AllocationRow]?
    /// `history` is there: the site is built from a series.
    var hasHistory: Bool
    /// For an experiment whose entry the SDK skips; null otherwise (then every field above describes it).
    var skipped: Skipped?

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("key", \.key), .init("lookupKey", \.lookupKey), .init("placement", \.placement),
        .init("placementPath", \.placementPath), .init("variants", \.variants), .init("variantCount", \.variantCount),
        .init("hasVariants", \.hasVariants), .init("serves", \.serves), .init("weightsSumToOne", \.weightsSumToOne),
        .init("weightSum", \.weightSum), .init("allocation", \.allocation), .init("findings", \.findings),
        .init("moreFindings", \.moreFindings), .init("hasFindings", \.hasFindings), .init("control", \.control),
        .init("comparison", \.comparison), .init("moreComparedVariants", \.moreComparedVariants), .init("history", \.history),
        .init("hasHistory", \.hasHistory), .init("skipped", \.skipped),
    ]
}

// MARK: - Changes

struct ChangesPage: TemplateContext {
    /// The changes of one class.
    struct ChangeGroup: TemplateContext {
        var changeClass: String
        var title: String
        var count: Int
        var changes: [ChangeRow]
        /// How many changes of the class the page leaves out (past `SiteModel.listedChangeLimit`).
        var moreChanges: Int = 0

        static let fields: TemplateFields<Self> = [
            .init("class", \.changeClass), .init("title", \.title), .init("count", \.count), .init("changes", \.changes),
            .init("moreChanges", \.moreChanges),
        ]
    }

    struct ChangeRow: TemplateContext {
        var kind: String
        var message: String
        var placement: String?
        /// Null when the key is no longer loaded, or the page compares two snapshots of the series
        /// that the site does not show.
        var placementPath: String?
        /// True when the newer snapshot no longer loads the key.
        var unloaded: Bool = false
        var from: String?
        var to: String?
        /// Where the change is: in the new snapshot, else in the old one.
        var line: Int?
        var column: Int?
        var pointer: String?
        /// Only for a place in the new snapshot, which the placement's page marks.
        var anchor: String?
        /// The funnel page the change is on, linked to its row on the funnel's page; nil when the
        /// change is not on a page the site shows.
        var funnelPage: FunnelPageLink?
        /// For a copy change, each locale's old and new text in full; nil for other kinds.
        var copy: CopyDiff?

        /// A copy change whose texts the page leaves out, past `SiteModel.copyTextBudget`.
        var copyLeftOut: Bool = false

        static let fields: TemplateFields<Self> = [
            .init("kind", \.kind), .init("message", \.message), .init("placement", \.placement), .init("placementPath", \.placementPath),
            .init("unloaded", \.unloaded), .init("from", omittedWhenNil: \.from), .init("to", omittedWhenNil: \.to), .init("line", omittedWhenNil: \.line),
            .init("column", omittedWhenNil: \.column), .init("pointer", omittedWhenNil: \.pointer), .init("anchor", omittedWhenNil: \.anchor),
            .init("funnelPage", omittedWhenNil: \.funnelPage), .init("copy", omittedWhenNil: \.copy),
            .init("copyLeftOut", \.copyLeftOut),
        ]
    }

    // MARK: Copy diffs

    /// A page of a funnel, linked to its row in the funnel page's Pages table.
    struct FunnelPageLink: TemplateContext {
        var page: String
        var funnel: String
        /// `funnels/<name>.html#page-<name>`.
        var path: String

        static let fields: TemplateFields<Self> = [.init("page", \.page), .init("funnel", \.funnel), .init("path", \.path)]
    }

    /// A changed text (`copy-changed`): each locale whose text differs, old and new in full.
    struct CopyDiff: TemplateContext {
        /// How the way the text is written changed, in words (`Was one text for every locale; now
        /// a text per locale.`); nil when both sides write it the same way.
        var form: String?
        /// The side that is one text for every locale, listed once rather than beside each locale
        /// (`CopyChange.sharedSide`); nil when none is.
        var shared: SharedCopy?
        var locales: [CopyLocale]
        /// The locales whose text is the same on both sides.
        var unchanged: [LocaleName]
        var hasUnchanged: Bool

        static let fields: TemplateFields<Self> = [
            .init("form", omittedWhenNil: \.form), .init("shared", omittedWhenNil: \.shared), .init("locales", \.locales),
            .init("unchanged", \.unchanged),
            .init("hasUnchanged", \.hasUnchanged),
        ]
    }

    /// A text for every locale, listed once: the text before (removed) or now (added).
    struct SharedCopy: TemplateContext {
        /// True for the text before, false for the text now.
        var before: Bool
        var segments: [CopySegment]

        static let fields: TemplateFields<Self> = [.init("before", \.before), .init("segments", \.segments)]
    }

    struct LocaleName: TemplateContext {
        var locale: String

        static let fields: TemplateFields<Self> = [.init("locale", \.locale)]
    }

    /// One locale's old and new text.
    struct CopyLocale: TemplateContext {
        /// The locale (`de`), or `every locale` for one text shown to all.
        var locale: String
        /// `changed`, `added` or `removed`.
        var status: String
        /// The status in words: `changed`, `only whitespace changed`, `added: no text before`, `removed: no text now`.
        var statusText: String
        var whitespaceOnly: Bool
        /// The old text's runs (kept and removed); nil when the locale had no text, or when the
        /// text before is listed once for every locale (`oldShared`).
        var old: [CopySegment]?
        /// The new text's runs (kept and added); nil when the locale has no text, or when the text
        /// now is listed once for every locale (`newShared`).
        var new: [CopySegment]?
        /// True when the locale's text before is the one listed once (`CopyDiff.shared`).
        var oldShared = false
        /// True when the locale's text now is the one listed once (`CopyDiff.shared`).
        var newShared = false
        var hasOld: Bool { old != nil }
        var hasNew: Bool { new != nil }

        static let fields: TemplateFields<Self> = [
            .init("locale", \.locale), .init("status", \.status), .init("statusText", \.statusText),
            .init("whitespaceOnly", \.whitespaceOnly), .init("old", omittedWhenNil: \.old), .init("new", omittedWhenNil: \.new),
            .init("hasOld", \.hasOld), .init("hasNew", \.hasNew), .init("oldShared", \.oldShared), .init("newShared", \.newShared),
        ]
    }

    /// A run of a text: kept, removed or added. Its text is whole (never cut), escaped, with hidden
    /// characters spelled out; a removed or added run of whitespace shows its characters as
    /// symbols (`·` space, `⇥` tab, `↵` line break).
    struct CopySegment: TemplateContext {
        var text: TrustedHTML
        var removed: Bool
        var added: Bool
        var whitespace: Bool

        static let fields: TemplateFields<Self> = [
            .init("text", \.text), .init("removed", \.removed), .init("added", \.added), .init("whitespace", \.whitespace),
        ]
    }

    /// An experiment whose split changed.
    struct RebucketingRow: TemplateContext {
        var placement: String
        var placementPath: String?
        var experiment: String
        var split: String
        var moved: String
        var movedBuckets: Int

        static let fields: TemplateFields<Self> = [
            .init("placement", \.placement), .init("placementPath", \.placementPath), .init("experiment", \.experiment),
            .init("split", \.split), .init("moved", \.moved), .init("movedBuckets", \.movedBuckets),
        ]
    }

    var baseline: String
    var baselineVerdict: String
    var breaking: Int
    var notable: Int
    var infos: Int
    var hasChanges: Bool
    var groups: [ChangeGroup]
    var rebucketing: [RebucketingRow]
    var hasRebucketing: Bool
    /// The newer snapshot: the site's own, or a pair's newer one.
    var newer: String
    /// On a pair's page (`diffs/…`): the pair's place in the series; nil on `changes.html`.
    var pair: PairLinks? = nil

    /// Where a pair of the series stands: its two snapshots' pages and the pairs beside it.
    struct PairLinks: TemplateContext {
        var older: SnapshotLink
        var newer: SnapshotLink
        var previousPair: String?
        var nextPair: String?
        var historyPath: String

        static let fields: TemplateFields<Self> = [
            .init("older", \.older), .init("newer", \.newer), .init("previousPair", \.previousPair), .init("nextPair", \.nextPair),
            .init("historyPath", \.historyPath),
        ]
    }

    static let fields: TemplateFields<Self> = [
        .init("baseline", \.baseline), .init("baselineVerdict", \.baselineVerdict), .init("breaking", \.breaking),
        .init("notable", \.notable), .init("infos", \.infos), .init("hasChanges", \.hasChanges), .init("groups", \.groups),
        .init("rebucketing", \.rebucketing), .init("hasRebucketing", \.hasRebucketing), .init("newer", \.newer),
        .init("pair", omittedWhenNil: \.pair),
    ]
}

// MARK: - History

struct HistoryPage: TemplateContext {
    struct SnapshotRow: TemplateContext {
        struct Commit: TemplateContext {
            var hash: String
            var date: String
            var subject: String

            static let fields: TemplateFields<Self> = [.init("hash", \.hash), .init("date", \.date), .init("subject", \.subject)]
        }

        var name: String
        var date: String?
        var commit: Commit?
        var entries: Int
        var loaded: Int
        var skipped: Int
        var errors: Int
        var warnings: Int
        var infos: Int
        var counts: String
        var summary: String
        var rejected: Bool
        var current: Bool
        /// The snapshot's own page, and the page of its changes since the snapshot before (none for the first).
        var path: String? = nil
        var changesPath: String? = nil

        static let fields: TemplateFields<Self> = [
            .init("name", \.name), .init("date", omittedWhenNil: \.date), .init("commit", omittedWhenNil: \.commit),
            .init("entries", \.entries), .init("loaded", \.loaded), .init("skipped", \.skipped), .init("errors", \.errors),
            .init("warnings", \.warnings), .init("infos", \.infos), .init("counts", \.counts), .init("summary", \.summary),
            .init("rejected", \.rejected), .init("current", \.current), .init("path", omittedWhenNil: \.path),
            .init("changesPath", omittedWhenNil: \.changesPath),
        ]
    }

    /// A finding of the history rules.
    struct HistoryFindingRow: TemplateContext {
        /// The finding's permalink id (`FindingPermalink`).
        var id: String
        var rule: String
        /// The rule's page, for a rule of the catalogue.
        var rulePath: String?
        var severity: String
        var message: String
        var snapshot: String
        var placement: String?
        var line: Int
        var column: Int
        var pointer: String

        static let fields: TemplateFields<Self> = [
            .init("id", \.id), .init("rule", \.rule), .init("rulePath", omittedWhenNil: \.rulePath), .init("severity", \.severity),
            .init("message", \.message), .init("snapshot", \.snapshot),
            .init("placement", \.placement), .init("line", \.line), .init("column", \.column), .init("pointer", \.pointer),
        ]
    }

    var snapshotCount: Int
    var snapshots: [SnapshotRow]
    /// The first `SiteModel.listedFindingLimit` history findings, and how many more there are.
    var findings: [HistoryFindingRow]
    var moreFindings: Int
    var hasFindings: Bool
    var chart: TrustedHTML

    static let fields: TemplateFields<Self> = [
        .init("snapshotCount", \.snapshotCount), .init("snapshots", \.snapshots), .init("findings", \.findings),
        .init("moreFindings", \.moreFindings), .init("hasFindings", \.hasFindings), .init("chart", \.chart),
    ]
}

// MARK: - Layout

/// The context of `layout.html`, around every page.
struct LayoutContext: TemplateContext {
    struct NavigationLink: TemplateContext {
        var label: String
        var path: String
        var current: Bool

        static let fields: TemplateFields<Self> = [.init("label", \.label), .init("path", \.path), .init("current", \.current)]
    }

    var root: String
    var title: String
    var siteTitle: String
    var snapshot: String
    var snapshotFile: String
    var kind: String
    var csp: String
    var generator: String
    var navigation: [NavigationLink]
    var content: TrustedHTML

    static let fields: TemplateFields<Self> = [
        .init("root", \.root), .init("title", \.title), .init("siteTitle", \.siteTitle), .init("snapshot", \.snapshot),
        .init("snapshotFile", \.snapshotFile), .init("kind", \.kind), .init("csp", \.csp), .init("generator", \.generator),
        .init("navigation", \.navigation), .init("content", \.content),
    ]
}
