import FallbackAudit
import FallbackDiff
import FallbackHistory
import RovenueFallback

/// A series as pages you can walk: each snapshot summarised (its verdict, its counts, its findings
/// against the snapshot before it) and each consecutive pair's changes.
///
/// Built while the series is folded (`SiteBuild.audit`), one snapshot at a time: it keeps the
/// previous snapshot's parse to compare with and drops it on the next, so the walk holds counts,
/// findings and changes, never the snapshots' text. Findings are matched by identity through a hash
/// table (`FindingComparison`), so the work is linear in snapshots and findings.
public struct SeriesWalk: Sendable {
    /// One snapshot of the series, as its page shows it.
    public struct Summary: Sendable {
        public let stamp: SnapshotStamp
        /// The page's name below `snapshots/` (`PageNames` of the snapshot's name: untrusted).
        public internal(set) var fileName: String
        /// What the SDK makes of the file (`FallbackFile.verdict`).
        public let verdict: String
        public let rejected: Bool
        public let counts: SeverityCounts
        public let placements: Int
        public let funnels: Int
        public let experiments: Int
        public let paywalls: Int
        /// The audit's first findings in report order, as many as the page lists
        /// (`SiteModel.listedFindingLimit`): a series keeps every snapshot's, and a snapshot can
        /// have thousands. A finding carried over from the snapshot before holds that one's text
        /// (`Finding.sharingText(with:)`).
        public let listedFindings: [Finding]
        /// How many findings the audit reported.
        public let findingCount: Int
        /// Against the previous snapshot, listing as many as the page does
        /// (`FindingComparison.listing(first:)`); nil for the first.
        public let comparison: FindingComparison?
        /// Breaking changes since the previous snapshot; nil for the first.
        public let breaking: Int?

        /// Ready to ship: no error and no breaking change since the previous snapshot.
        public var isReady: Bool { counts.errors == 0 && (breaking ?? 0) == 0 }
    }

    /// Two consecutive snapshots and what changes from the older to the newer.
    public struct Pair: Sendable {
        /// Positions in `snapshots`: `newer` is `older + 1`.
        public let older: Int
        public let newer: Int
        /// What changes, cut to as many changes a class as the pair's page lists
        /// (`SnapshotDiff.listing(first:)` with `SiteModel.listedChangeLimit`), with every count.
        public let diff: SnapshotDiff
        /// The page's name below `diffs/`: `<older>--<newer>`, each the snapshot's page name.
        public internal(set) var fileName: String
    }

    /// In timeline order.
    public private(set) var snapshots: [Summary] = []
    /// `pairs[i]` compares `snapshots[i]` with `snapshots[i + 1]`.
    public private(set) var pairs: [Pair] = []
    private var previous: (file: FallbackFile, findings: [Finding])?

    public init() {}

    /// Adds the next snapshot in timeline order, audited (`findings`) and folded (`record`).
    ///
    /// Each summary keeps the findings its page lists, not all of them, and a finding still present
    /// from the snapshot before holds that one's strings where they are the same bytes. Keeping
    /// every finding whole, a series of a 1,000-placement file (1,143 findings a release) grew a
    /// build's peak by about 0.8 MB a release, nearly all of it findings repeated from the one
    /// before; it now grows by at most 0.27 MB.
    public mutating func add(_ file: FallbackFile, findings: [Finding], record: SnapshotRecord) {
        var comparison: FindingComparison?
        var breaking: Int?
        let limit = SiteModel.listedFindingLimit
        var kept = findings
        if let previous {
            comparison = FindingComparison(previous: previous.findings, current: findings) { current, earlier in
                kept[current] = findings[current].sharingText(with: previous.findings[earlier])
            }.listing(first: limit)
            let diff = SnapshotDiff(old: previous.file, new: file)
            breaking = diff.count(.breaking)
            pairs.append(Pair(older: snapshots.count - 1, newer: snapshots.count, diff: diff.listing(first: SiteModel.listedChangeLimit), fileName: ""))
        }
        // The overview's own counts: the model of the snapshot alone, without its text.
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: record.stamp.name, bytes: [], file: file, findings: []), title: nil, referenceDate: nil)
        snapshots.append(
            Summary(
                stamp: record.stamp, fileName: "", verdict: file.verdict, rejected: file.rejection != nil, counts: SeverityCounts(findings),
                placements: file.entries.count, funnels: model.funnels.count, experiments: model.experiments.count,
                paywalls: model.paywalls.count, listedFindings: Array(kept.prefix(limit)), findingCount: findings.count,
                comparison: comparison, breaking: breaking))
        previous = (file, kept)
    }

    /// The walk with every page named, once every snapshot is added: each from the snapshot's
    /// label (untrusted); a label given twice gets a NUL and its count appended first (no file name
    /// holds a NUL), so no two pages share a file.
    public func named() -> SeriesWalk {
        var walk = self
        walk.previous = nil
        var seen: [ExactKey: Int] = [:]
        let identifiers = snapshots.map { summary -> String in
            let label = SeriesWalk.label(summary.stamp)
            let count = (seen[ExactKey(label)] ?? 0) + 1
            seen[ExactKey(label)] = count
            return count == 1 ? label : "\(label)\u{0}\(count)"
        }
        let pageNames = PageNames(identifiers: identifiers)
        for index in walk.snapshots.indices { walk.snapshots[index].fileName = pageNames.name(for: identifiers[index]) }
        let pairNames = SeriesWalk.pairFileNames(walk.pairs.map { (walk.snapshots[$0.older].fileName, walk.snapshots[$0.newer].fileName) })
        for index in walk.pairs.indices { walk.pairs[index].fileName = pairNames[index] }
        return walk
    }

    /// The file names of the pages of `pairs` of snapshots, given by the snapshots' file names
    /// (each pair once): `OLDER--NEWER`, which reads back as one pair only while no name holds `--`
    /// or starts or ends with `-`. Otherwise two pairs could spell one name (`x` then `y--z`, and
    /// `x--y` then `z`, are both `x--y--z`), and one pair's page would be written over the other's:
    /// then every pair is named through `PageNames` from its two names joined by a NUL, which no
    /// file name holds, so each pair has a page of its own.
    static func pairFileNames(_ pairs: [(older: String, newer: String)]) -> [String] {
        func isSeparable(_ name: String) -> Bool {
            !name.contains("--") && !name.hasPrefix("-") && !name.hasSuffix("-")
        }
        guard !pairs.allSatisfy({ isSeparable($0.older) && isSeparable($0.newer) }) else {
            return pairs.map { "\($0.older)--\($0.newer)" }
        }
        let identifiers = pairs.map { "\($0.older)\u{0}\($0.newer)" }
        let names = PageNames(identifiers: identifiers)
        return identifiers.map { names.name(for: $0) }
    }

    /// A snapshot as a release label: a commit's short hash for a git history, else its file name
    /// without folders and without `.json` (`Examples/2026-07-21-release-3.4.json` → `2026-07-21-release-3.4`).
    public static func label(_ stamp: SnapshotStamp) -> String {
        if let commit = stamp.commit { return commit.shortHash }
        var label = Substring(stamp.name)
        if let slash = label.lastIndex(where: { $0 == "/" || $0 == "\\" }), label.index(after: slash) < label.endIndex {
            label = label[label.index(after: slash)...]
        }
        if label.count > 5, label.lowercased().hasSuffix(".json") { label = label.dropLast(5) }
        return String(label)
    }

    /// The path of snapshot `index`'s page, and of pair `index`'s page, below the output folder.
    public func snapshotPath(_ index: Int) -> String { "snapshots/\(snapshots[index].fileName).html" }
    public func pairPath(_ index: Int) -> String { "diffs/\(pairs[index].fileName).html" }
}
