import FallbackAudit
import RovenueFallback

/// What changes for an offline device between two snapshots of the fallback file.
///
/// Placements are matched by key; within a placement, experiment variants by `variantId`, funnels
/// by `id` (wherever they sit: directly or in a variant), pages by `id`, paywalls by id or
/// `paywalls` key, options by `value`, rules by `id`. Every change has a kind and a class;
/// experiments whose variants or weights change get an exact re-bucketing count.
///
/// ```swift
/// let diff = SnapshotDiff(old: FallbackFile(bytes: before), new: FallbackFile(bytes: after))
/// if diff.reaches(.breaking) { … }
/// ```
public struct SnapshotDiff: Sendable {
    /// One side of the comparison in a few facts.
    public struct Snapshot: Sendable, Hashable {
        /// The loader's outcome in words (`FallbackFile.verdict`).
        public let verdict: String
        /// The SDK's message when it rejects the file.
        public let rejection: String?
        /// `generatedAt` in epoch milliseconds, when it is an integer.
        public let generatedAt: Int64?
        /// `generatedAt` as an ISO 8601 UTC date-time.
        public let generatedAtDate: String?
        public let projectId: String?
        /// Distinct placement keys.
        public let entryCount: Int
        /// Keys whose entry decodes.
        public let loadedCount: Int

        public var isRejected: Bool { rejection != nil }

        init(_ file: FallbackFile) {
            verdict = file.verdict
            rejection = file.rejection?.message
            generatedAt = file.generatedAtMilliseconds
            generatedAtDate = generatedAt.map { EpochMilliseconds.isoDate($0) }
            projectId = file.projectId?.string
            entryCount = file.entries.count
            loadedCount = file.loadedCount
        }
    }

    public let old: Snapshot
    public let new: Snapshot
    /// Most severe class first, then by placement key (the file's own changes first), then by kind
    /// in `ChangeKind` order; changes that tie keep the order of the snapshot. For a diff made
    /// `listing(first:)`, the first changes of each class only.
    public let changes: [Change]
    /// One per experiment whose variants or weights changed under the same id and key, by placement key.
    public let rebucketing: [Rebucketing]
    /// How many changes of each class there are, in `ChangeClass.allCases` order, when `changes`
    /// holds only the first of each (`listing(first:)`); nil when it holds them all.
    private let classCounts: [Int]?

    public init(old: FallbackFile, new: FallbackFile) {
        self.old = Snapshot(old)
        self.new = Snapshot(new)
        var run = DiffRun(old: old, new: new)
        run.compareFiles()
        changes = Self.sorted(run.changes)
        rebucketing = run.rebucketing.sorted { ExactKey.precedes($0.placementKey, $1.placementKey) }
        classCounts = nil
    }

    private init(old: Snapshot, new: Snapshot, changes: [Change], rebucketing: [Rebucketing], classCounts: [Int]) {
        self.old = old
        self.new = new
        self.changes = changes
        self.rebucketing = rebucketing
        self.classCounts = classCounts
    }

    /// This diff with the first `limit` changes of each class, in order, and the count of every
    /// class (`count(_:)`): what a page that lists `limit` changes a class reads. A series site
    /// keeps one diff per pair of releases, and a release that rewrites every key changes thousands.
    public func listing(first limit: Int) -> SnapshotDiff {
        precondition(limit >= 0, "a listing keeps a number of changes, not fewer than none")
        let counts = ChangeClass.allCases.map { count($0) }
        guard counts.contains(where: { $0 > limit }) else { return self }
        var kept: [Change] = []
        var keptOfClass = [ChangeClass: Int]()
        for change in changes where keptOfClass[change.changeClass, default: 0] < limit {
            keptOfClass[change.changeClass, default: 0] += 1
            kept.append(change)
        }
        return SnapshotDiff(old: old, new: new, changes: kept, rebucketing: rebucketing, classCounts: counts)
    }

    /// True when `changes` holds only the first changes of each class (`listing(first:)`):
    /// `count(_:)` still counts them all, but a report of every change needs the whole diff.
    public var isListed: Bool { classCounts != nil }

    /// The changes of one class, in order: for a listed diff (`isListed`), the first few, while
    /// `count(_:)` counts them all.
    public func changes(_ changeClass: ChangeClass) -> [Change] {
        changes.filter { $0.changeClass == changeClass }
    }

    public func count(_ changeClass: ChangeClass) -> Int {
        if let classCounts, let position = ChangeClass.allCases.firstIndex(of: changeClass) { return classCounts[position] }
        return changes.count { $0.changeClass == changeClass }
    }

    /// The class of the most severe change; nil when nothing changed.
    public var mostSevereClass: ChangeClass? {
        guard let classCounts else { return changes.first?.changeClass }
        return zip(ChangeClass.allCases, classCounts).filter { $0.1 > 0 }.map(\.0).max()
    }

    /// True when a change is of `threshold`'s class or a more severe one.
    public func reaches(_ threshold: ChangeClass) -> Bool {
        mostSevereClass.map { $0 >= threshold } ?? false
    }

    /// True when either snapshot is rejected: the comparison stops at the file.
    public var hasRejectedSnapshot: Bool { old.isRejected || new.isRejected }

    static func sorted(_ changes: [Change]) -> [Change] {
        let kindRank = Dictionary(uniqueKeysWithValues: ChangeKind.allCases.enumerated().map { ($1, $0) })
        return changes.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element, rhs.element)
            if left.changeClass != right.changeClass { return left.changeClass > right.changeClass }
            switch (left.placementKey, right.placementKey) {
            case (nil, .some): return true
            case (.some, nil): return false
            case (.some(let leftKey), .some(let rightKey)) where !ExactKey.same(leftKey, rightKey):
                return ExactKey.precedes(leftKey, rightKey)
            default: break
            }
            if left.kind != right.kind { return kindRank[left.kind]! < kindRank[right.kind]! }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
