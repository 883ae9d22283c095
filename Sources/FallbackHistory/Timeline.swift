import FallbackAudit
import Foundation
import RovenueFallback

/// What a series of snapshots tells: each snapshot with its counts and changes, each placement
/// with every state it was seen in, and the history checks' findings.
public struct Timeline: Sendable {
    /// The snapshots in timeline order (`generatedAt`, then source order).
    public let snapshots: [SnapshotRecord]
    /// Every placement key seen in any snapshot, in ascending byte order of the keys.
    public let placements: [PlacementHistory]
    /// The history checks' findings, by snapshot, then line, column and rule id.
    public let findings: [HistoryFinding]
    /// The index in `snapshots` of the current snapshot: the last in source order, the one an app
    /// bundles now (the last commit, the last file given). Nil for an empty series.
    public let currentIndex: Int?

    /// The history of one placement key.
    public func placement(_ key: String) -> PlacementHistory? {
        var low = 0
        var high = placements.count
        while low < high {
            let middle = (low + high) / 2
            if ExactKey.precedes(placements[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        return low < placements.count && ExactKey.same(placements[low].key, key) ? placements[low] : nil
    }
}

/// A snapshot's place in a timeline, as the states of placements refer to it.
///
/// Its fields live in one shared box: every revision of every placement holds two stamps, and the
/// fold's state of each key two more, so a stamp is copied once per key per snapshot. Held inline
/// (about 110 bytes, and a retain of each of its strings per copy) they were about half of what a
/// history keeps per key; boxed, a copy is a pointer and one retain.
public struct SnapshotStamp: Sendable, Hashable, CustomStringConvertible {
    private final class Fields: Sendable {
        let index: Int
        let name: String
        let location: String
        let generatedAt: Int64?
        let commit: Commit?

        init(index: Int, name: String, location: String, generatedAt: Int64?, commit: Commit?) {
            self.index = index
            self.name = name
            self.location = location
            self.generatedAt = generatedAt
            self.commit = commit
        }
    }

    private let fields: Fields

    /// The position in the timeline.
    public var index: Int { fields.index }
    public var name: String { fields.name }
    /// Where the snapshot is: the path as given, `folder/file` for a folder's, or the path
    /// relative to the repository's top level at that commit for a git history
    /// (`SnapshotReference.location`). Reports locate findings here.
    public var location: String { fields.location }
    /// `generatedAt` in epoch milliseconds, when readable.
    public var generatedAt: Int64? { fields.generatedAt }
    public var commit: Commit? { fields.commit }

    public init(index: Int, name: String, location: String, generatedAt: Int64?, commit: Commit?) {
        fields = Fields(index: index, name: name, location: location, generatedAt: generatedAt, commit: commit)
    }

    /// Equal fields: the same box, or boxes that hold the same values.
    public static func == (lhs: SnapshotStamp, rhs: SnapshotStamp) -> Bool {
        lhs.fields === rhs.fields
            || (lhs.index == rhs.index && lhs.name == rhs.name && lhs.location == rhs.location && lhs.generatedAt == rhs.generatedAt
                && lhs.commit == rhs.commit)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(name)
        hasher.combine(location)
        hasher.combine(generatedAt)
        hasher.combine(commit)
    }

    /// `name (2026-04-14 16:03:08Z)`.
    public var description: String {
        generatedAt.map { "\(name) (\(EpochMilliseconds.isoDate($0)))" } ?? name
    }
}

/// One snapshot of a timeline: where it came from, what the SDK makes of it, and what changed.
public struct SnapshotRecord: Sendable, Hashable {
    public let stamp: SnapshotStamp
    /// The position in source order.
    public let sourceIndex: Int
    /// The top-level `projectId`, when it is a string.
    public let projectId: String?
    /// Why the SDK throws on the file; nil when it loads.
    public let rejection: FallbackRejection?
    /// Distinct placement keys.
    public let entryCount: Int
    /// Entries the SDK loads.
    public let loadedCount: Int
    /// Entries the SDK skips.
    public let skippedCount: Int
    /// The audit's findings in this snapshot, by severity.
    public let findingCounts: SeverityCounts
    /// What changed since the previous snapshot the SDK loads.
    public let changes: SnapshotChanges
    /// Where `generatedAt` is written, for findings about the snapshot's time.
    let generatedAtLocation: FallbackFile.Location?

    /// `placements 7 · loaded 7 · skipped 0 · findings 0 error, 1 warning, 12 info`.
    public var countsSummary: String {
        "placements \(entryCount) · loaded \(loadedCount) · skipped \(skippedCount) · findings \(findingCounts)"
    }
}


/// What changed in a snapshot since the previous one the SDK loads.
public struct SnapshotChanges: Sendable, Hashable {
    /// A placement's revision moving between two readable integers.
    public struct RevisionChange: Sendable, Hashable {
        public let key: String
        public let from: Int64
        public let to: Int64
    }

    /// True for the first snapshot the SDK loads: everything in it is new.
    public var isBaseline = false
    public var added: [String] = []
    public var removed: [String] = []
    /// Revisions that went up.
    public var revisionBumps: [RevisionChange] = []
    /// Revisions that went down.
    public var revisionRegressions: [RevisionChange] = []
    /// Placements whose content (the entry beside `placement`) changed, whatever their revision.
    public var contentChanges: [String] = []
    /// Placements whose entry decoded in the previous snapshot and is skipped in this one.
    public var stoppedDecoding: [String] = []
    /// Placements whose entry was skipped in the previous snapshot and decodes in this one.
    public var decodesAgain: [String] = []
    /// The previous and current `projectId`, when they differ.
    public var projectChange: ProjectChange?
    /// The placement count of a baseline.
    var baselineCount = 0
    /// Why the SDK rejects the file, for a rejected snapshot.
    var rejectionSummary: String?

    /// Two different `projectId`s in consecutive snapshots.
    public struct ProjectChange: Sendable, Hashable {
        public let from: String
        public let to: String
    }

    public init() {}

    /// True when no placement and no project changed (a baseline or a rejected file is not empty).
    public var isEmpty: Bool {
        !isBaseline && rejectionSummary == nil && added.isEmpty && removed.isEmpty && revisionBumps.isEmpty
            && revisionRegressions.isEmpty && contentChanges.isEmpty && stoppedDecoding.isEmpty && decodesAgain.isEmpty
            && projectChange == nil
    }

    /// True when a snapshot the SDK loads, after the first, records a change.
    var recordsChanges: Bool { !isBaseline && rejectionSummary == nil && !isEmpty }

    /// One line: `1 added (streak_rescue) · 1 removed (spring_sale) · 1 revision bump (onboarding 4 → 5)`.
    public var summary: String {
        if let rejectionSummary { return "rejected by the SDK (\(rejectionSummary)); placements carried over" }
        if isBaseline { return "baseline: \(baselineCount) \(baselineCount == 1 ? "placement" : "placements")" }
        var parts: [String] = []
        if let projectChange { parts.append("project \(projectChange.from) → \(projectChange.to)") }
        func list(_ keys: [String], _ singular: String, _ plural: String) {
            guard !keys.isEmpty else { return }
            let shown = keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", +\(keys.count - 5) more" : "")
            parts.append("\(keys.count) \(keys.count == 1 ? singular : plural) (\(shown))")
        }
        let revision = { (change: RevisionChange) in "\(change.key) \(change.from) → \(change.to)" }
        list(added, "added", "added")
        list(removed, "removed", "removed")
        list(revisionBumps.map(revision), "revision bump", "revision bumps")
        list(revisionRegressions.map(revision), "revision down", "revisions down")
        list(contentChanges, "content change", "content changes")
        list(stoppedDecoding, "no longer decodes", "no longer decode")
        list(decodesAgain, "decodes again", "decode again")
        return parts.isEmpty ? "no placement changes" : parts.joined(separator: " · ")
    }
}

/// Every state one placement key was seen in, oldest first.
public struct PlacementHistory: Sendable, Hashable {
    public let key: String
    /// A new state starts when the placement appears, is removed, or its revision, identifier or
    /// content changes.
    public internal(set) var revisions: [PlacementRevision]

    /// The first snapshot the key appears in.
    public var firstSeen: SnapshotStamp { revisions[0].firstSeen }
    /// The latest state: `isRemoved` when the key is gone from the last snapshot that loads.
    public var latest: PlacementRevision { revisions[revisions.count - 1] }
}

/// One state of a placement and the snapshots it was seen in.
public struct PlacementRevision: Sendable, Hashable {
    /// What set this state apart from the one before.
    public struct Changes: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The key appears (first seen, or back after a removal).
        public static let added = Changes(rawValue: 1 << 0)
        /// The key is gone from the snapshot.
        public static let removed = Changes(rawValue: 1 << 1)
        public static let revisionRaised = Changes(rawValue: 1 << 2)
        public static let revisionLowered = Changes(rawValue: 1 << 3)
        /// What the entry serves (its JSON beside `placement`) changed.
        public static let contentChanged = Changes(rawValue: 1 << 4)
        public static let identifierChanged = Changes(rawValue: 1 << 5)
        /// The entry decoded before and is skipped now.
        public static let stoppedDecoding = Changes(rawValue: 1 << 6)
        /// The entry was skipped before and decodes now.
        public static let decodesAgain = Changes(rawValue: 1 << 7)
        /// The revision became unreadable (not an integer) or readable again.
        public static let revisionRewritten = Changes(rawValue: 1 << 8)
    }

    /// `placement.revision` when it is an integer token; nil when removed, absent or not an integer.
    public let revision: Int64?
    /// `placement.revision` as written (`5`, `"5"`), when present.
    public let revisionText: String?
    /// `placement.identifier`, when it is a string.
    public let identifier: String?
    /// What an offline device is served; nil when the key is removed.
    public let served: Served?
    /// SHA-256 of the entry's JSON without its `placement` member, written compactly with keys
    /// sorted (`JSONValue.jsonText([.sortedKeys])`); nil when removed.
    public let fingerprint: SHA256Digest?
    /// The first snapshot with this state.
    public let firstSeen: SnapshotStamp
    /// The last snapshot with this state (for a removal, the last snapshot the key is still missing from).
    public internal(set) var lastSeen: SnapshotStamp
    public let changes: Changes
    /// One line saying what changed: `rev 4 → 5; experiment exp_onb: variant breath_first added`.
    public let summary: String

    public var isRemoved: Bool { served == nil }

    /// What a present key serves: its entry's target, or nothing because the SDK skips the entry.
    public enum Served: Sendable, Hashable, CustomStringConvertible {
        /// The entry decodes and serves this target.
        case target(OfflineTarget.Identity)
        /// The entry does not decode (`reason`: where and what was expected), so the SDK skips it.
        case skipped(reason: String)

        /// The target, when the entry decodes.
        public var target: OfflineTarget.Identity? {
            if case .target(let target) = self { return target }
            return nil
        }

        public var isSkipped: Bool { target == nil }

        /// The target's description (`funnel fnl_calm_quiz v6`), or `OfflineTarget.skippedSummary`.
        public var description: String {
            switch self {
            case .target(let target): target.description
            case .skipped: OfflineTarget.skippedSummary
            }
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.target(let lhs), .target(let rhs)): lhs == rhs
            case (.skipped(let lhs), .skipped(let rhs)): ExactKey.same(lhs, rhs)
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .target(let target): hasher.combine(target)
            case .skipped(let reason): hasher.combine(ExactKey(reason))
            }
        }
    }
}

/// A history check's finding and the snapshot it points into.
public struct HistoryFinding: Sendable, Hashable, CustomStringConvertible {
    public let snapshot: SnapshotStamp
    /// Its pointer, line and column are in `snapshot`.
    public let finding: Finding

    public init(snapshot: SnapshotStamp, finding: Finding) {
        self.snapshot = snapshot
        self.finding = finding
    }

    /// `name: line:column severity rule-id [key] pointer: message`.
    public var description: String { "\(snapshot.name): \(finding)" }
}
