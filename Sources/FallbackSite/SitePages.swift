import FallbackAudit
import FallbackDiff
import Foundation
import FallbackMustache
import RovenueFallback

/// A page of the site: where it goes, which template renders it, and how to build its context.
public struct SitePage: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case overview, placement, funnel, experiment, paywall, checks, changes, history, rule
        /// One snapshot of a series (`snapshots/<name>.html`); a pair's changes are `changes` pages
        /// with the pair's index as id (`diffs/<older>--<newer>.html`).
        case snapshot
    }

    public let kind: Kind
    /// The identifier the page is about (placement key, funnel id, experiment's placement key).
    public let id: String?
    /// The path below the output folder.
    public let path: String

    /// The template that renders the page's body.
    public var template: String { kind.template }

    /// `""` for top-level pages, `"../"` for pages one folder down.
    public var root: String { path.utf8.contains(UInt8(ascii: "/")) ? "../" : "" }
}

extension SitePage.Kind {
    /// The template that renders the body of a page of this kind.
    public var template: String { "\(rawValue).md" }

    /// True for the pages about the whole site or a whole snapshot, false for those about one
    /// placement, funnel, experiment or paywall.
    var isSiteWide: Bool {
        switch self {
        case .overview, .checks, .changes, .history, .rule, .snapshot: true
        case .placement, .funnel, .experiment, .paywall: false
        }
    }

    /// The type of the page's own context, beside `CommonPageFields` (`SiteModel.context(for:values:)`).
    var contextType: any TemplateContext.Type {
        switch self {
        case .overview: OverviewPage.self
        case .placement: PlacementPage.self
        case .funnel: FunnelPage.self
        case .experiment: ExperimentPage.self
        case .paywall: PaywallPage.self
        case .checks: ChecksPage.self
        case .changes: ChangesPage.self
        case .history: HistoryPage.self
        case .rule: RulePage.self
        case .snapshot: SnapshotPage.self
        }
    }
}

extension SiteModel {
    /// Every page of the site, in a stable order.
    public var pages: [SitePage] {
        var pages = [SitePage(kind: .overview, id: nil, path: "index.html"), SitePage(kind: .checks, id: nil, path: "checks.html")]
        // The placements past the overview's first `overviewRowLimit`: `index-2.html`, `index-3.html`, … (id "2", "3", …).
        pages += (1..<overviewPageCount).map { SitePage(kind: .overview, id: String($0 + 1), path: SiteModel.overviewPath(number: $0 + 1)) }
        if changes != nil { pages.append(SitePage(kind: .changes, id: nil, path: "changes.html")) }
        if timeline != nil { pages.append(SitePage(kind: .history, id: nil, path: "history.html")) }
        if let walk {
            pages += walk.snapshots.indices.map { SitePage(kind: .snapshot, id: String($0), path: walk.snapshotPath($0)) }
            pages += walk.pairs.indices.map { SitePage(kind: .changes, id: String($0), path: walk.pairPath($0)) }
        }
        pages += snapshot.file.entries.map { SitePage(kind: .placement, id: $0.key, path: placementPath($0.key)) }
        pages += funnels.map { SitePage(kind: .funnel, id: $0.funnel.id, path: "funnels/\($0.fileName).html") }
        pages += experiments.map { SitePage(kind: .experiment, id: $0.placementKey, path: "experiments/\($0.fileName).html") }
        pages += skippedExperiments.map { SitePage(kind: .experiment, id: $0.placementKey, path: "experiments/\($0.fileName).html") }
        pages += paywalls.map { SitePage(kind: .paywall, id: $0.id, path: "paywalls/\($0.fileName).html") }
        // Every rule of the catalogue, with findings or not, so a rule's link never breaks.
        pages += Rule.all.map { SitePage(kind: .rule, id: $0.id.rawValue, path: SiteModel.rulePath($0.id)!) }
        return pages
    }

    /// The page of `kind` about `id`, if the site has one.
    public func page(_ kind: SitePage.Kind, id: String?) -> SitePage? {
        pages.first { $0.kind == kind && $0.id.map(ExactKey.init) == id.map(ExactKey.init) }
    }

    /// The context `page`'s template receives: the fields every page has and the page's own
    /// (`kind.contextType`), as a plain dictionary. Trusted HTML (drawings, listings) is registered in `values`.
    public func context(for page: SitePage, values: PageValues) -> MustacheValue {
        var context = commonFields(for: page).fieldValues
        if let specific = ownFields(for: page, values: values) { context.merge(specific.fieldValues) { _, new in new } }
        return .dictionary(context)
    }

    /// `context(for:values:)` as the site renders it: a record, which renders the same.
    func renderContext(for page: SitePage, values: PageValues) -> MustacheValue {
        pageRenderValue(common: commonFields(for: page), specific: ownFields(for: page, values: values))
    }

    private func commonFields(for page: SitePage) -> CommonPageFields {
        CommonPageFields(root: page.root, siteTitle: title, snapshot: snapshot.name, kind: page.kind.rawValue)
    }

    /// The page's own fields (of `page.kind.contextType`), if the site has the page.
    private func ownFields(for page: SitePage, values: PageValues) -> (any TemplateContext)? {
        switch page.kind {
        case .overview: overviewPage(number: page.id.flatMap { Int($0) } ?? 1, root: page.root)
        case .checks: checksPage(root: page.root)
        case .placement: placementPage(key: page.id ?? "", root: page.root, values: values)
        case .funnel: funnelPage(id: page.id ?? "", root: page.root, values: values)
        case .experiment:
            experimentPage(placementKey: page.id ?? "", root: page.root, values: values)
                ?? skippedExperimentPage(placementKey: page.id ?? "", root: page.root, values: values)
        case .paywall: paywallPage(id: page.id ?? "", root: page.root, values: values)
        case .changes: page.id.flatMap { Int($0) }.map { pairChangesPage(index: $0, root: page.root, values: values) } ?? changesPage(root: page.root, values: values)
        case .history: historyPage(root: page.root, values: values)
        case .rule: rulePage(id: page.id ?? "", root: page.root, values: values)
        case .snapshot: page.id.flatMap { Int($0) }.flatMap { snapshotPage(index: $0, root: page.root) }
        }
    }

    /// The most findings one list on a page shows; `check` reports them all.
    static let listedFindingLimit = 500
    /// The most changes of one class a changes page lists; `fallback-site diff` reports them all.
    static let listedChangeLimit = 200
    /// The variants after the first whose funnels an experiment page compares with the first's.
    static let comparedVariantLimit = 50
    /// The pages each list of an experiment page's comparison row names.
    static let comparedPageLimit = 20
    /// The bytes of old and new copy a changes page shows whole; `fallback-site diff` shows the rest.
    static let copyTextBudget = 256 * 1024
    /// The locales a changes page's copy diffs list (a row for each that changed, a name for each
    /// that did not): each costs markup however short its text, so a text in tens of thousands of
    /// locales is left out like a long one.
    static let copyLocaleBudget = 2_000

    /// The first `listedFindingLimit` of `findings`, as a list's rows.
    func listedFindings(_ findings: [Finding], root: String) -> [FindingRow] {
        let listed = findings.prefix(SiteModel.listedFindingLimit)
        return zip(listed, FindingPermalink.ids(for: listed, memo: permalinks)).map { SiteModel.finding($0, id: $1, root: root, model: self) }
    }

    /// How many of `findings` a list leaves out.
    func moreFindings(_ findings: [Finding]) -> Int {
        max(0, findings.count - SiteModel.listedFindingLimit)
    }

    // MARK: Overview

    /// How many overview pages list the placements: one per `overviewRowLimit` rows, at least one.
    var overviewPageCount: Int {
        max(1, (snapshot.file.entries.count + overviewRows - 1) / overviewRows)
    }

    /// `overviewRowLimit`, at least 1.
    var overviewRows: Int { max(1, overviewRowLimit) }

    /// `index.html` for the first overview page, `index-2.html` for the second, ….
    static func overviewPath(number: Int) -> String { number <= 1 ? "index.html" : "index-\(number).html" }

    /// The file's entries, problems first: errors, then warnings, then the rest; within each, by
    /// the key's bytes (as the SDK compares keys), so the order never depends on the file's.
    /// Sorted once, when the model is made (`overviewOrder`).
    func entriesProblemsFirst() -> [EntryRecord] {
        overviewOrder.map { snapshot.file.entries[$0] }
    }

    /// The positions of `entries` problems first (`entriesProblemsFirst`), each ranked by the
    /// worst of `findings(key)`.
    static func problemsFirst(_ entries: [EntryRecord], findings: (String) -> [Finding]) -> [Int] {
        record(.overviewOrder, entries.count)
        func rank(_ key: String) -> Int {
            switch findings(key).map(\.severity).max() {
            case .error: 0
            case .warning: 1
            default: 2
            }
        }
        return entries.indices.map { (rank: rank(entries[$0].key), bytes: Array(entries[$0].key.utf8), index: $0) }
            .sorted { $0.rank != $1.rank ? $0.rank < $1.rank : $0.bytes.lexicographicallyPrecedes($1.bytes) }
            .map(\.index)
    }

    /// The verdict the overview opens with: not ready with any error, or with any breaking change
    /// since `comparison`'s snapshot; warnings are mentioned, never decisive. Links start at `root`.
    static func readiness(
        counts: SeverityCounts, comparison: (breaking: Int, baseline: String, since: String)?, root: String,
        links: (errors: String, warnings: String, breaking: String) = ("checks.html#errors", "checks.html#warnings", "changes.html#breaking")
    ) -> OverviewPage.Readiness {
        func count(_ value: Int, _ noun: (Int) -> String, path: String, severity: String) -> OverviewPage.Readiness.Count {
            OverviewPage.Readiness.Count(
                count: value, text: value == 0 ? "no \(noun(0))" : "\(value) \(noun(value))", path: value == 0 ? nil : root + path,
                severity: value == 0 ? "none" : severity)
        }
        let breaking = comparison.map {
            count($0.breaking, { $0 == 1 ? "breaking change" : "breaking changes" }, path: links.breaking, severity: "error")
        }
        let ready = counts.errors == 0 && (comparison?.breaking ?? 0) == 0
        return OverviewPage.Readiness(
            ready: ready, status: ready ? "Ready to ship" : "Not ready",
            errors: count(counts.errors, Severity.error.noun(count:), path: links.errors, severity: "error"), breaking: breaking,
            warnings: counts.warnings == 0 ? nil : count(counts.warnings, Severity.warning.noun(count:), path: links.warnings, severity: "warning"),
            since: comparison?.since, baseline: comparison?.baseline)
    }

    /// The overview's verdict for this model: breaking changes since the baseline, when there is one.
    func readiness(root: String) -> OverviewPage.Readiness {
        var comparison: (breaking: Int, baseline: String, since: String)?
        if let changes, let baseline {
            // In a series the baseline is the snapshot before the newest unless the build named another.
            let previous = timeline.flatMap { timeline in
                timeline.currentIndex.flatMap { $0 > 0 ? timeline.snapshots[$0 - 1].stamp.name : nil }
            }
            comparison = (changes.count(.breaking), baseline.name, previous == baseline.name ? "the previous snapshot" : "the baseline")
        }
        return Self.readiness(counts: findingTotals, comparison: comparison, root: root)
    }

    func overviewPage(number: Int, root: String) -> OverviewPage {
        let file = snapshot.file
        var generatedAt: OverviewPage.GeneratedAt?
        if let milliseconds = file.generatedAtMilliseconds {
            var age: String?
            if let referenceDate, case let (seconds, overflow) = referenceDate.subtractingReportingOverflow(Int(milliseconds / 1000)), !overflow {
                age = SiteModel.age(seconds: seconds)
            }
            generatedAt = OverviewPage.GeneratedAt(iso: EpochMilliseconds.isoDate(milliseconds), milliseconds: String(milliseconds), age: age)
        }
        let rejection = file.rejection.map { rejection in
            OverviewPage.Rejection(
                message: rejection.message, rule: rejection.rule.section, summary: rejection.rule.summary,
                line: rejection.position.line, column: rejection.position.column)
        }
        let first = (max(1, number) - 1) * overviewRows
        let listed = overviewOrder.dropFirst(first).prefix(overviewRows).map { file.entries[$0] }
        let placements = listed.map { record in
            let findings = findings(forPlacement: record.key)
            let serving = SiteModel.serving(record.entry)
            return OverviewPage.PlacementRow(
                key: SiteModel.name(record.key), path: root + placementPath(record.key),
                revision: record.entry?.placement.map { String($0.revision) }, kind: serving.kind, icon: serving.icon,
                serves: serving.text, findingCount: findings.count, findingNoun: findings.count == 1 ? "finding" : "findings",
                findingSummary: SeverityCounts(findings).description,
                severity: SiteModel.worstSeverity(findings), skipped: record.entry == nil,
                search: [record.key, record.entry?.placement?.identifier ?? "", serving.text].map { SnapshotText.spelledOut(SnapshotText.shortened($0)) }
                    .joined(separator: " ").lowercased(), experimentPath: experimentPagePath(forPlacement: record.key).map { root + $0 })
        }
        return OverviewPage(
            projectId: file.projectId?.string.map { SiteModel.name($0) }, generatedAt: generatedAt,
            formatVersion: file.formatVersion.map { $0.number?.text ?? FallbackFile.describeKind($0) } ?? "missing",
            size: SiteModel.size(snapshot.bytes.count), bytes: snapshot.bytes.count, sha256: snapshotDigest,
            verdict: file.verdict, readiness: readiness(root: root), rejected: file.rejection != nil, rejection: rejection, counts: findingTotals,
            loaded: file.loadedCount, entryCount: file.entries.count, skipped: file.skippedCount, hasPlacements: !file.entries.isEmpty,
            placements: placements, pager: overviewPager(number: number, root: root))
    }

    /// The pager of overview page `number`; nil when every placement fits on one page.
    func overviewPager(number: Int, root: String) -> OverviewPage.Pager? {
        let count = overviewPageCount
        guard count > 1 else { return nil }
        let number = min(max(1, number), count)
        let total = snapshot.file.entries.count
        let first = (number - 1) * overviewRows + 1
        func path(_ page: Int) -> String { root + SiteModel.overviewPath(number: page) }
        return OverviewPage.Pager(
            number: number, count: count, first: first, last: min(total, first + overviewRows - 1), total: total,
            previous: number > 1 ? path(number - 1) : nil, next: number < count ? path(number + 1) : nil,
            pages: OverviewPage.Pager.listedPages(count: count, current: number).map { page, gapBefore in
                OverviewPage.Pager.Link(number: page, path: path(page), current: page == number, gapBefore: gapBefore)
            })
    }

    // MARK: Changes

    func changesPage(root: String, values: PageValues) -> ChangesPage? {
        guard let diff = changes, let baseline else { return nil }
        let loaded = Set(snapshot.file.entries.map { ExactKey($0.key) })
        return changesPage(diff, baseline: baseline.name, newer: snapshot.name, root: root, values: values) { key in
            loaded.contains(ExactKey(key)) ? .page(root + placementPath(key)) : .notLoaded
        }
    }

    /// Where a changes page links a placement: to its page, to nothing because the newer snapshot no
    /// longer loads it, or to nothing because the site shows another snapshot (a pair of the series).
    enum ChangedPlacement {
        case page(String)
        case notLoaded
        case notShown
    }

    /// The changes from `baseline` to `newer` (the site's snapshot, or a pair of its series).
    /// `linksFunnelPages` is false for a pair whose newer snapshot the site does not show.
    func changesPage(
        _ diff: SnapshotDiff, baseline: String, newer: String, root: String, values: PageValues, linksFunnelPages: Bool = true,
        placement: (String) -> ChangedPlacement
    ) -> ChangesPage {
        func link(_ key: String?) -> String? {
            guard let key, case .page(let path) = placement(key) else { return nil }
            return path
        }
        func unloaded(_ key: String?) -> Bool {
            guard let key, case .notLoaded = placement(key) else { return false }
            return true
        }
        // Whole texts until the page has shown `copyTextBudget` bytes or `copyLocaleBudget` locales
        // of them; past either, copy changes say where to read their words, so a release that
        // rewrites every text, or one text in every locale, stays a page.
        var copyBytesLeft = SiteModel.copyTextBudget
        var copyLocalesLeft = SiteModel.copyLocaleBudget
        let groups = ChangeClass.allCases.compactMap { changeClass -> ChangesPage.ChangeGroup? in
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { return nil }
            let rows = changes.prefix(SiteModel.listedChangeLimit).map { change in
                var copy: CopyChange?
                var copyLeftOut = false
                if let changed = change.copy {
                    let bytes = changed.textBytes
                    if bytes <= copyBytesLeft, changed.locales.count <= copyLocalesLeft {
                        copyBytesLeft -= bytes
                        copyLocalesLeft -= changed.locales.count
                        copy = changed
                    } else {
                        copyBytesLeft = 0
                        copyLocalesLeft = 0
                        copyLeftOut = true
                    }
                }
                let location = change.newLocation ?? change.oldLocation
                return ChangesPage.ChangeRow(
                    kind: change.kind.id, message: change.message, placement: change.placementKey.map { SiteModel.name($0) },
                    placementPath: link(change.placementKey), unloaded: unloaded(change.placementKey), from: change.oldValue, to: change.newValue, line: location?.line,
                    column: location?.column, pointer: location.map { SnapshotText.shortenedPointer($0.pointer) },
                    // The placement's page anchors every change location it lists (see `changeAnchorsByPlacement`).
                    anchor: change.newLocation.map { SourceListing.anchor(line: $0.line, column: $0.column) },
                    // Funnel pages are the shown snapshot's: an older pair of a series links none.
                    funnelPage: linksFunnelPages ? funnelPageLink(funnelId: change.funnelId, pageId: change.pageId, root: root) : nil,
                    copy: copy.map { copyDiff($0, values: values) }, copyLeftOut: copyLeftOut)
            }
            let title: String =
                switch changeClass {
                case .breaking: "Breaking"
                case .notable: "Notable"
                case .info: "Info"
                }
            // The class's count from the diff: a series keeps its pairs' diffs cut to what this page
            // lists (`SnapshotDiff.listing(first:)`).
            let count = diff.count(changeClass)
            return ChangesPage.ChangeGroup(
                changeClass: changeClass.rawValue, title: title, count: count, changes: Array(rows),
                moreChanges: max(0, count - rows.count))
        }
        let rebucketing = diff.rebucketing.map { item in
            ChangesPage.RebucketingRow(
                placement: SiteModel.name(item.placementKey), placementPath: link(item.placementKey), experiment: SiteModel.name(item.experimentId),
                split: item.splitText, moved: item.movedPercent, movedBuckets: item.movedBuckets)
        }
        return ChangesPage(
            baseline: baseline, baselineVerdict: diff.old.verdict, breaking: diff.count(.breaking), notable: diff.count(.notable),
            infos: diff.count(.info), hasChanges: diff.mostSevereClass != nil, groups: groups, rebucketing: rebucketing,
            hasRebucketing: !rebucketing.isEmpty, newer: newer)
    }

    /// The row of page `pageId` on the page of funnel `funnelId`; nil when the site shows no such row.
    func funnelPageLink(funnelId: String?, pageId: String?, root: String) -> ChangesPage.FunnelPageLink? {
        guard let funnelId, let pageId, let info = funnelInfo(id: funnelId), let anchor = pageRows(of: info).anchor(of: pageId) else { return nil }
        return ChangesPage.FunnelPageLink(
            page: SiteModel.name(pageId), funnel: SiteModel.name(info.funnel.name ?? info.funnel.slug),
            path: root + "funnels/\(info.fileName).html#\(anchor)")
    }

    /// A copy change as the changes page shows it: each locale whose text differs, old and new whole.
    func copyDiff(_ copy: CopyChange, values: PageValues) -> ChangesPage.CopyDiff {
        let form: String? =
            switch (copy.oldForm, copy.newForm) {
            case (.plain, .localized): "Was one text for every locale; now a text per locale."
            case (.localized, .plain): "Was a text per locale; now one text for every locale."
            case (.absent, _): "New text."
            case (_, .absent): "Text removed."
            default: nil
            }
        func segments(_ segments: [WordDiff.Segment]) -> [ChangesPage.CopySegment] {
            segments.map { segment in
                let changed = segment.operation != .same
                let whitespace = changed && segment.isWhitespace
                let text = whitespace ? WordDiff.visibleWhitespace(segment.text) : segment.text
                return ChangesPage.CopySegment(
                    text: values.html(SnapshotText.html(text, limit: nil, isolated: false)), removed: segment.operation == .removed,
                    added: segment.operation == .added, whitespace: whitespace)
            }
        }
        let locales = copy.changedLocales.map { text in
            let statusText: String =
                switch text.status {
                case .added: "added: no text before"
                case .removed: "removed: no text now"
                case .changed, .unchanged: text.changesOnlyWhitespace ? "only whitespace changed" : "changed"
                }
            return ChangesPage.CopyLocale(
                locale: text.locale.map { SiteModel.name($0) } ?? "every locale", status: text.status.rawValue, statusText: statusText,
                whitespaceOnly: text.changesOnlyWhitespace,
                // Beside a text listed once (`omittedSide`), the shared side points to it.
                old: text.runs(of: .old).map(segments), new: text.runs(of: .new).map(segments), oldShared: text.omittedSide == .old,
                newShared: text.omittedSide == .new)
        }
        let unchanged = copy.locales.filter { $0.status == .unchanged }.map { ChangesPage.LocaleName(locale: SiteModel.name($0.locale ?? "every locale")) }
        let shared = copy.sharedSide.flatMap { side in
            copy.sharedText.map { text in
                ChangesPage.SharedCopy(
                    before: side == .old, segments: segments([WordDiff.Segment(side == .old ? .removed : .added, text)]))
            }
        }
        return ChangesPage.CopyDiff(form: form, shared: shared, locales: locales, unchanged: unchanged, hasUnchanged: !unchanged.isEmpty)
    }

    // MARK: History

    func historyPage(root: String, values: PageValues) -> HistoryPage? {
        guard let timeline else { return nil }
        let snapshots = timeline.snapshots.reversed().map { record in
            HistoryPage.SnapshotRow(
                name: record.stamp.name, date: record.stamp.generatedAt.map { EpochMilliseconds.isoDate($0) },
                commit: record.stamp.commit.map { HistoryPage.SnapshotRow.Commit(hash: $0.shortHash, date: $0.authorDate, subject: $0.subject) },
                entries: record.entryCount, loaded: record.loadedCount, skipped: record.skippedCount, errors: record.findingCounts.errors,
                warnings: record.findingCounts.warnings, infos: record.findingCounts.infos, counts: record.countsSummary,
                summary: record.changes.summary, rejected: record.rejection != nil, current: record.stamp.index == timeline.currentIndex,
                path: walkPath(record.stamp.index, root: root, pair: false), changesPath: walkPath(record.stamp.index, root: root, pair: true))
        }
        // A few, the most severe first, in the timeline's order: a long series of releases can have
        // an info for every placement of each, and an error after them is still listed.
        let listed = Self.mostSevere(timeline.findings, limit: SiteModel.listedFindingLimit, severity: \.finding.severity)
        let findings = zip(listed, FindingPermalink.ids(for: listed.map(\.finding), memo: permalinks)).map { item, id in
            HistoryPage.HistoryFindingRow(
                id: id, rule: item.finding.ruleId.rawValue, rulePath: SiteModel.rulePath(item.finding.ruleId).map { root + $0 }, severity: item.finding.severity.rawValue, message: item.finding.message,
                snapshot: item.snapshot.name, placement: item.finding.placementKey.map { SiteModel.name($0) }, line: item.finding.line,
                column: item.finding.column, pointer: shortenedPointers.shortened(item.finding.jsonPointer))
        }
        return HistoryPage(
            snapshotCount: timeline.snapshots.count, snapshots: snapshots, findings: findings,
            moreFindings: max(0, timeline.findings.count - SiteModel.listedFindingLimit), hasFindings: !findings.isEmpty,
            chart: values.html(
                HistoryChart.svg(
                    for: timeline.snapshots, labels: timeline.snapshots.map { SeriesWalk.label($0.stamp) },
                    paths: walk.map { walk in timeline.snapshots.indices.compactMap { walkPath($0, root: root, pair: false) } }
                        .flatMap { $0.count == timeline.snapshots.count ? $0 : nil })))
    }

    /// The first `limit` of `items` when taken errors first, then warnings, then infos, in their
    /// own order.
    static func mostSevere<Item>(_ items: [Item], limit: Int, severity: (Item) -> Severity) -> [Item] {
        guard items.count > limit else { return items }
        var left = limit
        var kept = Set<Int>()
        for level in Severity.allCases.sorted(by: >) where left > 0 {
            for index in items.indices where left > 0 && severity(items[index]) == level {
                kept.insert(index)
                left -= 1
            }
        }
        return items.indices.filter(kept.contains).map { items[$0] }
    }

    /// Snapshot `index`'s page, or (`pair`) the page of its changes since the snapshot before; nil
    /// when the site has none.
    func walkPath(_ index: Int, root: String, pair: Bool) -> String? {
        guard let walk, walk.snapshots.indices.contains(index) else { return nil }
        if pair { return index > 0 ? root + walk.pairPath(index - 1) : nil }
        return root + walk.snapshotPath(index)
    }

    // MARK: Checks

    func checksPage(root: String) -> ChecksPage {
        // Against the snapshot before, each finding (by position) is new or still present.
        let compared = checksComparison(root: root)
        let all = snapshot.findings
        let groups = Severity.allCases.sorted(by: >).compactMap { severity -> ChecksPage.SeverityGroup? in
            let findings = all.filter { $0.severity == severity }
            guard !findings.isEmpty else { return nil }
            let byRule = Dictionary(grouping: all.indices.filter { all[$0].severity == severity }, by: { all[$0].ruleId })
            let rules = byRule.keys.sorted().map { id in
                let ruleFindings = byRule[id]!.map { all[$0] }
                return ChecksPage.RuleGroup(
                    rule: id.rawValue, rulePath: SiteModel.rulePath(id).map { root + $0 },
                    anchor: "rule-\(severity.rawValue)-\(FindingPermalink.slug(id.rawValue))", severity: severity.rawValue,
                    summary: Rule(id: id)?.summary ?? "", count: ruleFindings.count,
                    findingNoun: ruleFindings.count == 1 ? "finding" : "findings", open: severity != .info,
                    findings: statusRows(ruleFindings, statuses: compared.map { compared in byRule[id]!.map { compared.statuses[$0] } }, linked: true, root: root),
                    moreFindings: moreFindings(ruleFindings))
            }
            let (anchor, heading): (String, String) =
                switch severity {
                case .error: ("errors", "Errors")
                case .warning: ("warnings", "Warnings")
                case .info: ("infos", "Info")
                }
            return ChecksPage.SeverityGroup(severity: severity.rawValue, anchor: anchor, title: heading, count: findings.count, rules: rules)
        }
        return ChecksPage(
            counts: findingTotals, hasFindings: !snapshot.findings.isEmpty, groups: groups,
            comparison: compared?.changes)
    }

    // MARK: Placement

    func placementPage(key: String, root: String, values: PageValues) -> PlacementPage? {
        let file = snapshot.file
        guard let record = record(forKey: key) else { return nil }
        let findings = findings(forPlacement: key)
        let serving = SiteModel.serving(record.entry)
        let entryValue = file.document.value(at: record.value.node)
        var page = PlacementPage(
            key: SiteModel.name(key), fullKey: SiteModel.fullName(key, values: values), occurrences: record.keyCount,
            occurrencesNote: record.keyCount > 1 ? "(written \(record.keyCount) times; the SDK keeps the last)" : nil,
            serves: serving.text, servesKind: serving.kind, servesIcon: serving.icon,
            findings: listedFindings(findings, root: root), moreFindings: moreFindings(findings), counts: SiteModel.severityCounts(findings),
            source: values.html(
                utf8: SourceListing.bytes(for: entryValue, key: key, findings: findings, linkedFrom: changeAnchorsByPlacement[ExactKey(key)] ?? [])))
        if let failure = record.failure {
            let location = file.location(of: failure.source)
            page.skip = PlacementPage.Skip(
                reason: "\(SnapshotText.shortenedPointer(location.pointer)): \(failure.expectation)", line: location.line, column: location.column)
            page.experiment = skippedExperimentLink(placementKey: key, root: root)
        }
        if let entry = record.entry {
            if let placement = entry.placement {
                page.identifier = SiteModel.name(placement.identifier)
                page.revision = String(placement.revision)
                page.keyMismatch = !ExactKey.same(placement.identifier, key)
            }
            let target = entry.offlineTarget
            switch target {
            case .funnel(let funnel):
                page.funnel = funnelLink(funnel.id, root: root)
            case .paywall(let paywall):
                page.paywall = paywallSummary(paywall, root: root, name: paywall.name)
            case .experiment, .nothing:
                break
            }
            if let experiment = target.decidingExperiment, let info = experimentInfo(placementKey: key) {
                page.experiment = PlacementPage.ExperimentLink(
                    id: SiteModel.name(experiment.id), key: SiteModel.name(experiment.key), variantCount: experiment.variants.count,
                    path: root + "experiments/\(info.fileName).html")
            }
        }
        if let history = timeline?.placement(key) {
            page.revisions = history.revisions.reversed().map { revision in
                PlacementPage.RevisionRow(
                    revision: revision.revisionText, snapshot: revision.firstSeen.name,
                    date: revision.firstSeen.generatedAt.map { EpochMilliseconds.isoDate($0) }, commit: revision.firstSeen.commit?.shortHash,
                    served: revision.served?.description, summary: revision.summary, removed: revision.isRemoved)
            }
            page.hasRevisions = true
        }
        return page
    }

    /// The anchor of page `pageId`'s row on its funnel's page: `page-` and its name among the funnel's page ids.
    static func pageRowAnchor(_ pageId: String, names: PageNames) -> String {
        "page-" + names.name(for: pageId)
    }

    /// The rows of a funnel's page: the shown copy's page ids and their names.
    struct PageRows: Sendable {
        let ids: Set<ExactKey>
        let names: PageNames

        init(_ funnel: Funnel) {
            let ids = funnel.pages.map(\.id)
            self.ids = Set(ids.map(ExactKey.init))
            names = PageNames(identifiers: ids)
        }

        /// The anchor of page `pageId`'s row (`pageRowAnchor`); nil when the funnel's page shows no such row.
        func anchor(of pageId: String) -> String? {
            ids.contains(ExactKey(pageId)) ? SiteModel.pageRowAnchor(pageId, names: names) : nil
        }

        /// Each funnel's rows, made once for every page and link of a site that needs them: a
        /// funnel served by thousands of placements or experiments was named again for each (the
        /// search index, the changes page and every experiment page link into it). Safe from any
        /// thread; holds one entry per funnel asked for.
        final class Memo: @unchecked Sendable {
            private let lock = NSLock()
            private var rows: [ExactKey: PageRows] = [:]

            func rows(of info: FunnelInfo) -> PageRows {
                let key = ExactKey(info.funnel.id)
                if let made = lock.withLock({ rows[key] }) { return made }
                let made = PageRows(info.funnel)
                lock.withLock { rows[key] = made }
                return made
            }
        }
    }

    /// The rows of the page of the funnel `info` describes, made once per site (`PageRows.Memo`).
    func pageRows(of info: FunnelInfo) -> PageRows {
        pageRowsMemo.rows(of: info)
    }

    /// The link to the page of the funnel `id`; nil when the site has no page for it.
    func funnelLink(_ id: String, root: String) -> FunnelLink? {
        guard let info = funnelInfo(id: id) else { return nil }
        return FunnelLink(
            id: SiteModel.name(id), slug: SiteModel.name(info.funnel.slug), name: info.funnel.name ?? info.funnel.slug,
            path: root + "funnels/\(info.fileName).html", pageCount: info.funnel.pages.count)
    }

    // MARK: Funnel

    func funnelPage(id: String, root: String, values: PageValues) -> FunnelPage? {
        guard let info = funnelInfo(id: id) else { return nil }
        let funnel = info.funnel
        let locale = PlainCopy.writtenLocale(of: funnel)
        let funnelFindings = findings(forFunnel: id)
        // The pages of the copy shown that its first page does not reach, by position, not id: a
        // reachable page may share its id with an unreachable one. The graph decides, not the
        // findings, so a configuration that turns `page-unreachable` off keeps the marks.
        let graph = FunnelGraph(funnel)
        let unreachable = Set(graph.pagesReachedFromFirstPage().enumerated().compactMap { $1 ? nil : $0 })
        // Rows are anchored by a safe, bounded name of their page id.
        let anchors = PageNames(identifiers: funnel.pages.map(\.id))
        func anchor(_ pageId: String) -> String { SiteModel.pageRowAnchor(pageId, names: anchors) }
        let previews = FunnelPreviews(funnel: funnel)
        var pages: [FunnelPage.PageRow] = []
        var media: [FunnelPage.MediaRow] = []
        // Per page, the paths of its remote media, shortened: the media rows and the previews
        // show the same, found once (a page's walk cost some 4,500 instructions).
        var mediaPaths: [[String]] = []
        mediaPaths.reserveCapacity(funnel.pages.count)
        for (index, page) in funnel.pages.enumerated() {
            let options = (page.options ?? []).map { option in
                FunnelPage.OptionRow(label: SiteModel.text(option.label, locale: locale) ?? "", value: SiteModel.name(option.value))
            }
            let rules = (page.nextRules ?? []).map { rule in
                FunnelPage.RuleRow(id: SiteModel.name(rule.id), goto: SiteModel.name(rule.goto), condition: FunnelGraph.text(of: rule.condition))
            }
            let steps = zip(1..., graph.steps(from: index)).map { priority, step in
                var row = FunnelPage.StepRow(
                    priority: priority, kind: "next page in order", condition: nil, otherwise: !rules.isEmpty, target: "",
                    targetAnchor: nil, toPaywall: false, toEnd: false, toUnknown: false)
                switch step.kind {
                case .rule(let rule):
                    row.kind = "rule " + rules[rule].id
                    row.condition = rules[rule].condition
                    row.otherwise = false
                case .defaultNext: row.kind = "default_next"
                case .nextInOrder: break
                }
                switch step.target {
                case .page(let target), .paywall(let target):
                    row.target = SiteModel.name(funnel.pages[target].id)
                    row.targetAnchor = anchor(funnel.pages[target].id)
                    if case .paywall = step.target { row.toPaywall = true }
                case .end:
                    row.target = "end"
                    row.toEnd = true
                case .unknown:
                    row.target = SiteModel.name(graph.writtenTarget(of: step) ?? "")
                    row.toUnknown = true
                }
                return row
            }
            pages.append(
                FunnelPage.PageRow(
                    number: index + 1, id: SiteModel.name(page.id), anchor: anchor(page.id), type: SiteModel.name(page.type),
                    title: SiteModel.text(page.title ?? page.headline, locale: locale), question: page.questionId.map { SiteModel.name($0) },
                    options: options, hasOptions: !options.isEmpty, rules: rules, hasRules: !rules.isEmpty,
                    defaultNext: page.defaultNext.map { SiteModel.name($0) }, paywallId: page.paywallId.map { SiteModel.name($0) },
                    paywallPath: page.paywallId.flatMap { funnel.paywalls?[$0] }.flatMap { paywallPath($0.id) }.map { root + $0 },
                    unreachable: unreachable.contains(index), steps: steps, previewed: index < previews.previewedPageCount))
            // Each key shortened once (`SnapshotText.shortenedKey`), not each whole path.
            let urls = RemoteMedia.urls(on: page, in: snapshot.file, keySpelling: SnapshotText.shortenedKey)
            let paths = urls.map(\.path)
            mediaPaths.append(paths)
            for (path, (_, url)) in zip(paths, urls) {
                media.append(
                    FunnelPage.MediaRow(
                        page: SiteModel.name(page.id), anchor: anchor(page.id), field: path, url: url,
                        href: WebAddress.isLinkable(url) ? url : nil))
            }
        }
        let locales = funnel.locales ?? []
        let coverage = FunnelText.coverage(of: funnel).map { locale, counted in
            FunnelPage.LocaleCoverage(
                locale: SiteModel.name(locale), present: counted.present, plain: counted.plain, missing: counted.missing,
                total: counted.total, percent: counted.total == 0 ? 100 : counted.present * 100 / counted.total,
                complete: counted.present == counted.total)
        }
        let drawingOmitted = funnel.pages.count > FunnelPage.drawnPagesLimit
        let drawing =
            drawingOmitted
            ? nil
            : FunnelDrawing(
                funnel: funnel, unreachablePageIndices: unreachable, locale: locale, idPrefix: "fd",
                pageAnchors: funnel.pages.map { anchor($0.id) })
        let uses = info.uses.map { use in
            FunnelPage.Use(
                placement: SiteModel.name(use.placementKey), path: root + placementPath(use.placementKey),
                variant: use.variantId.map { SiteModel.name($0) })
        }
        return FunnelPage(
            id: SiteModel.name(funnel.id), fullId: SiteModel.fullName(funnel.id, values: values), slug: SiteModel.name(funnel.slug),
            name: funnel.name ?? funnel.slug, version: funnel.versionNo.map { String($0) }, versionId: funnel.versionId.map { SiteModel.name($0) },
            defaultLocale: locale.map { SiteModel.name($0) }, hasLocales: !locales.isEmpty, locales: coverage, pageCount: funnel.pages.count,
            pages: pages, media: media, hasMedia: !media.isEmpty, uses: uses,
            paywalls: zip(funnel.paywalls?.keys ?? [], funnel.paywalls?.values ?? []).map { key, paywall in
                FunnelPage.BundledPaywall(key: SiteModel.name(key), path: paywallPath(paywall.id).map { root + $0 })
            }, findings: listedFindings(funnelFindings, root: root),
            moreFindings: moreFindings(funnelFindings), hasFindings: !funnelFindings.isEmpty,
            drawing: values.html(utf8: drawing?.svgBytes ?? []), legend: values.html(drawing?.legend ?? ""),
            largeFunnel: funnel.pages.count >= FunnelPage.largeFunnelPages, drawingOmitted: drawingOmitted,
            previews: previews.pages(anchor: anchor) { mediaPaths[$0] }, unpreviewedPages: previews.unpreviewedPageCount,
            previewLocales: previews.switchLocales, hasLocaleSwitch: !previews.switchLocales.isEmpty,
            unpreviewedLocales: max(0, previews.declaredLocaleCount - FunnelPreviews.localeLimit))
    }
}

extension FallbackFile {
    static func describeKind(_ value: JSONDocument.Value) -> String {
        value.kind == .string ? JSONValue.quoted(value.string ?? "") : value.kind.article
    }
}
