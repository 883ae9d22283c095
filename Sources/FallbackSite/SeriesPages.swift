import FallbackAudit
import FallbackDiff
import FallbackHistory
import RovenueFallback

// MARK: - Contexts

/// A link to a snapshot's page of the series.
struct SnapshotLink: TemplateContext {
    /// The snapshot's name (a path, `hash:path` for a git history), shortened.
    var name: String
    /// Its release label (`SeriesWalk.label`).
    var label: String
    var path: String

    static let fields: TemplateFields<Self> = [.init("name", \.name), .init("label", \.label), .init("path", \.path)]
}

/// Findings against the snapshot before: how many are new, still present and fixed, and the fixed ones.
struct FindingChanges: TemplateContext {
    /// The snapshot compared against.
    var against: String
    /// Its page, in a series.
    var againstPath: String?
    /// The page of the changes between the two.
    var changesPath: String?
    var newCount: Int
    var stillPresentCount: Int
    var fixedCount: Int
    /// The findings of `against` that are gone, badged `fixed`, at most 500.
    var fixed: [FindingRow]
    var moreFixed: Int
    var hasFixed: Bool

    static let fields: TemplateFields<Self> = [
        .init("against", \.against), .init("againstPath", omittedWhenNil: \.againstPath), .init("changesPath", omittedWhenNil: \.changesPath),
        .init("newCount", \.newCount), .init("stillPresentCount", \.stillPresentCount), .init("fixedCount", \.fixedCount),
        .init("fixed", \.fixed), .init("moreFixed", \.moreFixed), .init("hasFixed", \.hasFixed),
    ]
}

/// One snapshot of a series (`snapshots/<name>.html`).
struct SnapshotPage: TemplateContext {
    var name: String
    var label: String
    /// 1-based position in the series, oldest first, and the series' length.
    var position: Int
    var snapshotCount: Int
    var date: String?
    var commit: HistoryPage.SnapshotRow.Commit?
    /// The snapshot the rest of the site shows.
    var current: Bool
    var rejected: Bool
    /// What the SDK makes of the file.
    var verdict: String
    /// Ready to ship or not: errors, and breaking changes since the previous snapshot.
    var readiness: OverviewPage.Readiness
    var counts: SeverityCounts
    var placements: Int
    var funnels: Int
    var experiments: Int
    var paywalls: Int
    /// What changed since the previous snapshot, in one line (as the history's row says).
    var summary: String
    var previous: SnapshotLink?
    var next: SnapshotLink?
    /// The pages of the changes from the previous snapshot to this one, and from this one to the next.
    var changesFromPrevious: String?
    var changesToNext: String?
    var comparison: FindingChanges?
    var findings: [FindingRow]
    var moreFindings: Int
    var hasFindings: Bool
    var historyPath: String

    static let fields: TemplateFields<Self> = [
        .init("name", \.name), .init("label", \.label), .init("position", \.position), .init("snapshotCount", \.snapshotCount),
        .init("date", omittedWhenNil: \.date), .init("commit", omittedWhenNil: \.commit), .init("current", \.current),
        .init("rejected", \.rejected), .init("verdict", \.verdict), .init("readiness", \.readiness), .init("counts", \.counts),
        .init("placements", \.placements), .init("funnels", \.funnels), .init("experiments", \.experiments),
        .init("paywalls", \.paywalls), .init("summary", \.summary), .init("previous", omittedWhenNil: \.previous),
        .init("next", omittedWhenNil: \.next), .init("changesFromPrevious", omittedWhenNil: \.changesFromPrevious),
        .init("changesToNext", omittedWhenNil: \.changesToNext), .init("comparison", omittedWhenNil: \.comparison),
        .init("findings", \.findings), .init("moreFindings", \.moreFindings), .init("hasFindings", \.hasFindings),
        .init("historyPath", \.historyPath),
    ]
}

// MARK: - Building them

extension SiteModel {
    /// Whether snapshot `index` of the walk is the one the site shows (its placement pages are this snapshot's).
    func isShown(_ index: Int, in walk: SeriesWalk) -> Bool {
        index == walk.snapshots.count - 1 && ExactKey.same(walk.snapshots[index].stamp.name, snapshot.name)
    }

    func snapshotLink(_ index: Int, in walk: SeriesWalk, root: String) -> SnapshotLink {
        let stamp = walk.snapshots[index].stamp
        return SnapshotLink(name: SiteModel.name(stamp.name), label: SiteModel.name(SeriesWalk.label(stamp)), path: root + walk.snapshotPath(index))
    }

    /// `findings` as rows badged with `statuses` (parallel to them); placement and experiment links
    /// only when `linked` (the site shows the snapshot the findings are in).
    func statusRows(_ findings: [Finding], statuses: [FindingStatus]?, linked: Bool, root: String) -> [FindingRow] {
        var rows = listedFindings(findings, root: root)
        for index in rows.indices {
            if let status = statuses?[index] {
                rows[index].status = status.rawValue
                rows[index].statusLabel = status.label
            }
            if !linked {
                rows[index].placementPath = nil
                rows[index].anchor = nil
                rows[index].experimentPath = nil
            }
        }
        return rows
    }

    /// The findings of a snapshot against `comparison`'s, for its page or the checks page.
    func findingChanges(
        _ comparison: FindingComparison, against: String, againstPath: String?, changesPath: String?, linked: Bool, root: String
    ) -> FindingChanges {
        let fixed = statusRows(comparison.fixed, statuses: comparison.fixed.map { _ in .fixed }, linked: linked, root: root)
        return FindingChanges(
            against: SiteModel.name(against), againstPath: againstPath, changesPath: changesPath, newCount: comparison.newCount,
            stillPresentCount: comparison.stillPresentCount, fixedCount: comparison.fixedCount, fixed: fixed,
            moreFixed: max(0, comparison.fixedCount - fixed.count), hasFixed: comparison.fixedCount > 0)
    }

    /// Snapshot `index`'s page.
    func snapshotPage(index: Int, root: String) -> SnapshotPage? {
        guard let walk, walk.snapshots.indices.contains(index) else { return nil }
        let summary = walk.snapshots[index]
        let stamp = summary.stamp
        let linked = isShown(index, in: walk)
        let fromPrevious = index > 0 ? root + walk.pairPath(index - 1) : nil
        let previousName = index > 0 ? walk.snapshots[index - 1].stamp.name : nil
        let readiness = SiteModel.readiness(
            counts: summary.counts, comparison: previousName.map { (summary.breaking ?? 0, SiteModel.name($0), "the previous snapshot") }, root: "",
            links: ("#findings-title", "#findings-title", (fromPrevious ?? "") + "#breaking"))
        let record = timeline.flatMap { $0.snapshots.indices.contains(index) ? $0.snapshots[index] : nil }
        let comparison = summary.comparison.map {
            findingChanges(
                $0, against: previousName ?? "", againstPath: root + walk.snapshotPath(index - 1), changesPath: fromPrevious, linked: linked, root: root)
        }
        return SnapshotPage(
            name: SiteModel.name(stamp.name), label: SiteModel.name(SeriesWalk.label(stamp)), position: index + 1,
            snapshotCount: walk.snapshots.count, date: stamp.generatedAt.map { EpochMilliseconds.isoDate($0) },
            commit: stamp.commit.map { HistoryPage.SnapshotRow.Commit(hash: $0.shortHash, date: $0.authorDate, subject: $0.subject) },
            current: linked, rejected: summary.rejected, verdict: summary.verdict, readiness: readiness, counts: summary.counts,
            placements: summary.placements, funnels: summary.funnels, experiments: summary.experiments, paywalls: summary.paywalls,
            summary: record?.changes.summary ?? "", previous: index > 0 ? snapshotLink(index - 1, in: walk, root: root) : nil,
            next: index + 1 < walk.snapshots.count ? snapshotLink(index + 1, in: walk, root: root) : nil, changesFromPrevious: fromPrevious,
            changesToNext: index + 1 < walk.snapshots.count ? root + walk.pairPath(index) : nil, comparison: comparison,
            findings: statusRows(summary.listedFindings, statuses: summary.comparison?.statuses, linked: linked, root: root),
            moreFindings: summary.findingCount - min(summary.listedFindings.count, SiteModel.listedFindingLimit),
            hasFindings: summary.findingCount > 0, historyPath: root + "history.html")
    }

    /// Pair `index`'s page: the changes page's context, for two snapshots of the series.
    func pairChangesPage(index: Int, root: String, values: PageValues) -> ChangesPage? {
        guard let walk, walk.pairs.indices.contains(index) else { return nil }
        let pair = walk.pairs[index]
        let linked = isShown(pair.newer, in: walk)
        let loaded = linked ? Set(snapshot.file.entries.map { ExactKey($0.key) }) : []
        var page = changesPage(
            pair.diff, baseline: walk.snapshots[pair.older].stamp.name, newer: walk.snapshots[pair.newer].stamp.name, root: root,
            values: values, linksFunnelPages: linked
        ) { key in
            linked ? (loaded.contains(ExactKey(key)) ? .page(root + placementPath(key)) : .notLoaded) : .notShown
        }
        page.pair = ChangesPage.PairLinks(
            older: snapshotLink(pair.older, in: walk, root: root), newer: snapshotLink(pair.newer, in: walk, root: root),
            previousPair: index > 0 ? root + walk.pairPath(index - 1) : nil,
            nextPair: index + 1 < walk.pairs.count ? root + walk.pairPath(index + 1) : nil, historyPath: root + "history.html")
        return page
    }

    /// The checks page's comparison: the site's snapshot against its baseline (in a series, the
    /// snapshot before it), and each finding's status by position in `snapshot.findings`.
    func checksComparison(root: String) -> (changes: FindingChanges, statuses: [FindingStatus])? {
        guard let baseline else { return nil }
        let comparison = FindingComparison(previous: baseline.findings, current: snapshot.findings)
        var againstPath: String?
        var changesPath: String? = root + "changes.html"
        if let walk, let last = walk.snapshots.indices.last, last > 0, isShown(last, in: walk),
            ExactKey.same(walk.snapshots[last - 1].stamp.name, baseline.name)
        {
            againstPath = root + walk.snapshotPath(last - 1)
            changesPath = root + walk.pairPath(last - 1)
        }
        return (
            findingChanges(comparison, against: baseline.name, againstPath: againstPath, changesPath: changesPath, linked: false, root: root),
            comparison.statuses
        )
    }
}
