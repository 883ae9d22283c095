import FallbackAudit
import Foundation
import RovenueFallback

/// How a timeline is built and checked.
public struct HistoryOptions: Sendable {
    /// The audit run on each snapshot for its finding counts; its configuration also sets (or turns
    /// off) the history rules.
    public var audit: Audit
    /// The time `snapshot-stale` measures the current snapshot's age against; nil skips that
    /// threshold (nothing reads the clock).
    public var now: Date?
    /// The age in days past which the current snapshot is stale.
    public var staleAfterDays: Int

    public init(now: Date? = nil, staleAfterDays: Int = 90, audit: Audit? = nil) {
        self.now = now
        self.staleAfterDays = staleAfterDays
        self.audit = audit ?? Audit(now: now)
    }
}

/// Folds snapshots into a `Timeline` one at a time, in timeline order.
///
/// The builder keeps a few values per placement key (revision, identifier, what it serves, a
/// fingerprint) and the text of the last snapshot it folded (to see which entries did not change),
/// never a parse: a caller that drops each `FallbackFile` after `add(_:as:)` holds one parse at a
/// time, whatever the length of the series.
public struct TimelineBuilder: Sendable {
    public let options: HistoryOptions
    private var snapshots: [SnapshotRecord] = []
    private var histories: [PlacementHistory] = []
    private var historyIndexOfKey: [ExactKey: Int] = [:]
    /// The placements of the last snapshot the SDK loads, by key bytes.
    private var present: [ExactKey: PlacementState] = [:]
    /// Keys seen before and missing from the last snapshot the SDK loads. Each one's last revision
    /// is its removal, last seen (missing) in the last snapshot folded: `lastFolded`, written into
    /// the revision when the key comes back (`fold`) or when the timeline is made (`finish`), not
    /// at every fold, where it cost every key ever removed times every later snapshot.
    private var absent: Set<ExactKey> = []
    /// The last snapshot folded: the last the SDK loads.
    private var lastFolded: SnapshotStamp?
    /// The last `projectId` named, and the snapshot that named it.
    private var lastProject: (id: String, stamp: SnapshotStamp)?
    private var findings: [HistoryFinding] = []
    private var hasBaseline = false
    /// The text of the last snapshot folded, the one `present` was read from: an entry whose
    /// bytes are its key's bytes there has that entry's fingerprint, without hashing it again.
    /// Only the text is kept (shared with its parse, which is freed), never a parse.
    private var foldedText: [UInt8] = []
    /// The timeline `finish()` made, once it has.
    private var finished: Timeline?

    public init(options: HistoryOptions = HistoryOptions()) {
        self.options = options
    }

    /// What the fold remembers of a placement from the last snapshot that loads.
    fileprivate struct PlacementState: Sendable {
        var revision: Int64?
        var revisionText: String?
        /// The last integer revision while the key has been present, and where it was seen.
        var lastReadable: (revision: Int64, stamp: SnapshotStamp)?
        var identifier: String?
        var served: PlacementRevision.Served
        var fingerprint: SHA256Digest
        /// Where the entry's value is in `foldedText`.
        var valueBytes: Range<Int>
        var stamp: SnapshotStamp
    }

    /// Folds `file`, the next snapshot in timeline order, and returns its record. `findings` are
    /// `options.audit`'s findings in `file` when the caller has them already; nil audits the file.
    @discardableResult
    public mutating func add(_ file: FallbackFile, as member: SnapshotSeries.Member, findings audited: [Finding]? = nil) -> SnapshotRecord {
        precondition(finished == nil, "TimelineBuilder.add(_:as:findings:) after finish(): the histories have moved into the timeline")
        let stamp = SnapshotStamp(
            index: snapshots.count, name: member.reference.name, location: member.reference.location, generatedAt: member.generatedAt, commit: member.reference.commit)
        let projectId = file.projectId.flatMap { $0.kind == .string ? $0.string : nil }
        var changes = SnapshotChanges()
        if let rejection = file.rejection {
            changes.rejectionSummary = "\(rejection.rule.section): \(rejection.rule.summary)"
            // A snapshot the SDK rejects is an error here as in every command.
            findings += Audit.rejectionFindings(in: file).map { HistoryFinding(snapshot: stamp, finding: $0) }
        } else {
            fold(file, stamp: stamp, changes: &changes)
            checkProject(projectId, in: file, stamp: stamp, changes: &changes)
        }
        let record = SnapshotRecord(
            stamp: stamp, sourceIndex: member.sourceIndex, projectId: projectId, rejection: file.rejection,
            entryCount: file.entries.count, loadedCount: file.loadedCount, skippedCount: file.skippedCount,
            findingCounts: SeverityCounts(audited ?? options.audit.findings(in: file)), changes: changes,
            generatedAtLocation: file.generatedAt.map { file.location(of: SourceRef(node: $0.index)) })
        snapshots.append(record)
        return record
    }

    /// The timeline, with the checks that need the whole series: ties, snapshots that go back in
    /// time, and staleness.
    ///
    /// The histories move into the timeline, and the builder keeps only the timeline: a copy of
    /// them (every key's revisions, copied again where a key still absent gets its last snapshot)
    /// was a quarter of what a history of many keys held at its peak. A second call returns the
    /// same timeline; adding a snapshot after it is a programming error.
    public mutating func finish() -> Timeline {
        if let finished { return finished }
        let timeline = makeTimeline()
        finished = timeline
        snapshots = []
        findings = []
        foldedText = []
        return timeline
    }

    private mutating func makeTimeline() -> Timeline {
        var findings = findings
        findings += orderFindings()
        findings += staleFindings()
        findings.sort { lhs, rhs in
            (lhs.snapshot.index, lhs.finding.line, lhs.finding.column, lhs.finding.ruleId)
                < (rhs.snapshot.index, rhs.finding.line, rhs.finding.column, rhs.finding.ruleId)
        }
        var placements = histories
        histories = []
        present = [:]
        if let lastFolded {
            for exactKey in absent {
                let index = historyIndexOfKey[exactKey]!
                placements[index].revisions[placements[index].revisions.count - 1].lastSeen = lastFolded
            }
        }
        historyIndexOfKey = [:]
        absent = []
        placements.sort { ExactKey.precedes($0.key, $1.key) }
        let current = snapshots.indices.max { snapshots[$0].sourceIndex < snapshots[$1].sourceIndex }
        return Timeline(snapshots: snapshots, placements: placements, findings: findings, currentIndex: current)
    }

    // MARK: Placements

    private mutating func fold(_ file: FallbackFile, stamp: SnapshotStamp, changes: inout SnapshotChanges) {
        let isBaseline = !hasBaseline
        hasBaseline = true
        changes.isBaseline = isBaseline
        changes.baselineCount = file.entries.count
        var seen: [ExactKey: PlacementState] = [:]
        seen.reserveCapacity(file.entries.count)
        let readings = EntryReading.readings(of: file, unchangedFrom: present, in: foldedText)
        for (record, reading) in zip(file.entries, readings) {
            let exactKey = ExactKey(record.key)
            let previous = present[exactKey]
            var state = PlacementState(
                revision: reading.revision, revisionText: reading.revisionText, lastReadable: nil,
                identifier: reading.identifier, served: reading.served, fingerprint: reading.fingerprint, valueBytes: reading.valueBytes,
                stamp: stamp)
            if let revision = reading.revision {
                state.lastReadable = (revision, stamp)
            } else {
                state.lastReadable = previous?.lastReadable
            }
            seen[exactKey] = state
            guard let previous else {
                let isReturn = historyIndexOfKey[exactKey] != nil
                if isReturn, let lastFolded, let index = historyIndexOfKey[exactKey] {
                    // Its removal was last seen in the snapshot folded before this one.
                    histories[index].revisions[histories[index].revisions.count - 1].lastSeen = lastFolded
                }
                if !isBaseline { changes.added.append(record.key) }
                let verb = isBaseline ? "first seen" : isReturn ? "added again" : "added"
                startRevision(
                    key: record.key, exactKey: exactKey, state: state, changes: .added,
                    summary: "\(verb) at \(Self.revisionLabel(state)): \(state.served)"
                        + Self.identifierNote(state.identifier, key: record.key))
                continue
            }
            compare(record, reading: reading, previous: previous, state: state, exactKey: exactKey, changes: &changes)
        }
        absent.subtract(seen.keys)
        for (exactKey, previous) in present where seen[exactKey] == nil {
            let index = historyIndexOfKey[exactKey]!
            let key = histories[index].key
            changes.removed.append(key)
            absent.insert(exactKey)
            histories[index].revisions.append(
                PlacementRevision(
                    revision: nil, revisionText: nil, identifier: nil, served: nil, fingerprint: nil, firstSeen: stamp,
                    lastSeen: stamp, changes: .removed,
                    summary: "removed; was \(Self.revisionLabel(previous)): \(previous.served)"))
        }
        changes.removed.sort { ExactKey.precedes($0, $1) }
        present = seen
        foldedText = file.document.bytes
        lastFolded = stamp
    }

    private mutating func compare(
        _ record: EntryRecord, reading: EntryReading, previous: PlacementState, state: PlacementState, exactKey: ExactKey,
        changes: inout SnapshotChanges
    ) {
        let key = record.key
        var kinds: PlacementRevision.Changes = []
        var parts: [String] = []
        if let revision = state.revision, let last = previous.lastReadable, revision != last.revision {
            let change = SnapshotChanges.RevisionChange(key: key, from: last.revision, to: revision)
            if revision > last.revision {
                kinds.insert(.revisionRaised)
                changes.revisionBumps.append(change)
                parts.append("rev \(last.revision) → \(revision)")
            } else {
                kinds.insert(.revisionLowered)
                changes.revisionRegressions.append(change)
                parts.append("rev \(last.revision) → \(revision) (down)")
                report(
                    .revisionRegressed,
                    "Placement \(Format.quoted(key)) goes from revision \(last.revision) in \(last.stamp.name) to \(revision): "
                        + "the dashboard only ever raises a revision, so this snapshot was edited by hand or exported "
                        + "from an older state, and a device updating from the release before steps back in targeting.",
                    key: key, at: reading.revisionLocation ?? reading.entryLocation, in: state.stamp)
            }
        } else if !ExactKey.same(state.revisionText, previous.revisionText) {
            kinds.insert(.revisionRewritten)
            parts.append("revision \(previous.revisionText ?? "absent") → \(state.revisionText ?? "absent")")
        }
        if !ExactKey.same(state.identifier, previous.identifier) {
            kinds.insert(.identifierChanged)
            let quoted = { (identifier: String?) in identifier.map(Format.quoted) ?? "absent" }
            parts.append("identifier \(quoted(previous.identifier)) → \(quoted(state.identifier))")
        }
        let wasSkipped = previous.served.isSkipped
        let isSkipped = state.served.isSkipped
        let contentChanged = state.fingerprint != previous.fingerprint
        if contentChanged {
            kinds.insert(.contentChanged)
            changes.contentChanges.append(key)
        }
        if !wasSkipped, isSkipped {
            kinds.insert(.stoppedDecoding)
            changes.stoppedDecoding.append(key)
            if case .skipped(let reason) = state.served {
                parts.append("no longer decodes (\(reason)); was \(previous.served)")
            }
        } else if wasSkipped, !isSkipped {
            kinds.insert(.decodesAgain)
            changes.decodesAgain.append(key)
            parts.append("decodes again: serves \(state.served)")
        } else if contentChanged {
            parts.append(Self.servedChange(from: previous.served, to: state.served))
        } else if kinds.contains(.revisionRaised) || kinds.contains(.revisionLowered) {
            parts.append("same content")
        }
        if contentChanged, let revision = state.revision, previous.revision == revision {
            report(
                .contentChangedSameRevision,
                "Placement \(Format.quoted(key)) serves different content at the same revision \(revision) as in "
                    + "\(previous.stamp.name): \(Self.servedChange(from: previous.served, to: state.served)). Normal for "
                    + "a republished funnel or paywall, but nothing in the revision says so: review it before release.",
                key: key, at: reading.entryLocation, in: state.stamp)
        }
        let index = historyIndexOfKey[exactKey]!
        if kinds.isEmpty {
            histories[index].revisions[histories[index].revisions.count - 1].lastSeen = state.stamp
        } else {
            startRevision(key: key, exactKey: exactKey, state: state, changes: kinds, summary: parts.joined(separator: "; "))
        }
    }

    private mutating func startRevision(
        key: String, exactKey: ExactKey, state: PlacementState, changes: PlacementRevision.Changes, summary: String
    ) {
        let revision = PlacementRevision(
            revision: state.revision, revisionText: state.revisionText, identifier: state.identifier, served: state.served,
            fingerprint: state.fingerprint, firstSeen: state.stamp, lastSeen: state.stamp, changes: changes, summary: summary)
        if let index = historyIndexOfKey[exactKey] {
            histories[index].revisions.append(revision)
        } else {
            historyIndexOfKey[exactKey] = histories.count
            histories.append(PlacementHistory(key: key, revisions: [revision]))
        }
    }

    /// ` (identifier "onboarding")` when the identifier is not the key, else empty.
    private static func identifierNote(_ identifier: String?, key: String) -> String {
        guard let identifier else { return " (no identifier)" }
        return ExactKey.same(identifier, key) ? "" : " (identifier \(Format.quoted(identifier)))"
    }

    /// `rev 4`, `revision "5"` (not an integer), or `no revision`.
    private static func revisionLabel(_ state: PlacementState) -> String {
        if let revision = state.revision { return "rev \(revision)" }
        return state.revisionText.map { "revision \($0)" } ?? "no revision"
    }

    /// What changed in what an entry serves, in a few words.
    static func servedChange(from old: PlacementRevision.Served, to new: PlacementRevision.Served) -> String {
        switch (old, new) {
        case (.target(let old), .target(let new)): servedChange(from: old, to: new)
        case (.skipped, .skipped): "content changed, still does not decode"
        default: "\(old) → \(new)"
        }
    }

    /// What changed between two targets an entry serves, in a few words.
    static func servedChange(from old: OfflineTarget.Identity, to new: OfflineTarget.Identity) -> String {
        guard old.isSameTarget(as: new) else { return "\(old) → \(new)" }
        switch new.kind {
        case .funnel:
            if let from = old.version, let to = new.version, from != to { return "funnel \(new.id ?? "") v\(from) → v\(to)" }
            return "\(new) changed, same version"
        case .paywall:
            return "\(new) changed"
        case .experiment:
            var parts: [String] = []
            if !ExactKey.same(old.experimentKey, new.experimentKey) {
                parts.append("key \(old.experimentKey ?? "") → \(new.experimentKey ?? "") (every subscriber draws again)")
            }
            let oldIds = old.variants.map(\.variantId)
            let newIds = new.variants.map(\.variantId)
            // Each id's first variant on each side, found by key: searching the other side's list
            // for every variant was quadratic in an experiment of thousands of variants.
            let oldFirst = Dictionary(zip(oldIds.map(ExactKey.init), oldIds.indices), uniquingKeysWith: { first, _ in first })
            let newFirst = Dictionary(zip(newIds.map(ExactKey.init), newIds.indices), uniquingKeysWith: { first, _ in first })
            for variant in new.variants where oldFirst[ExactKey(variant.variantId)] == nil {
                parts.append("variant \(variant.variantId) added (\(variant.target))")
            }
            for variant in old.variants where newFirst[ExactKey(variant.variantId)] == nil {
                parts.append("variant \(variant.variantId) removed")
            }
            if !old.variants.map(\.weight).elementsEqual(new.variants.map(\.weight), by: ExactKey.same)
                || !oldIds.elementsEqual(newIds, by: ExactKey.same)
            {
                let weights = { (target: OfflineTarget.Identity) in target.variants.map(\.weight).joined(separator: "/") }
                parts.append("weights \(weights(old)) → \(weights(new))")
            }
            for variant in new.variants {
                guard let before = oldFirst[ExactKey(variant.variantId)].map({ old.variants[$0] }), before != variant
                else {
                    continue
                }
                if before.target.isSameTarget(as: variant.target) {
                    if before.target.kind == .funnel, let from = before.target.version, let to = variant.target.version, from != to {
                        parts.append("\(variant.variantId): funnel \(variant.target.id ?? "") v\(from) → v\(to)")
                    }
                } else {
                    parts.append("\(variant.variantId): \(before.target) → \(variant.target)")
                }
            }
            let name = "experiment \(new.id ?? "")"
            return parts.isEmpty ? "\(name) changed, same variants and targets" : "\(name): " + parts.joined(separator: ", ")
        case .nothing:
            return "content changed, still serves nothing"
        }
    }

    // MARK: Project

    private mutating func checkProject(
        _ projectId: String?, in file: FallbackFile, stamp: SnapshotStamp, changes: inout SnapshotChanges
    ) {
        guard let projectId else { return }
        if let lastProject, !ExactKey.same(lastProject.id, projectId) {
            changes.projectChange = SnapshotChanges.ProjectChange(from: lastProject.id, to: projectId)
            let location = file.projectId.map { file.location(of: SourceRef(node: $0.index)) }
            report(
                .projectChanged,
                "projectId is \(Format.quoted(projectId)) but \(lastProject.stamp.name) names \(Format.quoted(lastProject.id)): "
                    + "this file was exported from another project (a staging file bundled into a production app?), so "
                    + "offline devices get that project's placements and report exposures against it.",
                key: nil, at: location, in: stamp)
        }
        lastProject = (projectId, stamp)
    }

    // MARK: Series-wide checks

    /// `snapshot-tie` for equal `generatedAt`s next to each other; `snapshot-back-in-time` for a
    /// snapshot that comes after, in source order, one generated later than it.
    private func orderFindings() -> [HistoryFinding] {
        var found: [HistoryFinding?] = []
        for (previous, record) in zip(snapshots, snapshots.dropFirst()) {
            guard let time = record.stamp.generatedAt, time == previous.stamp.generatedAt else { continue }
            found.append(
                finding(
                    .snapshotTie,
                    "\(record.stamp.name) has the same generatedAt as \(previous.stamp.name) (\(EpochMilliseconds.isoDate(time))): "
                        + "the series puts it after by source order; check that both exports are the ones meant to ship.",
                    key: nil, at: record.generatedAtLocation, in: record.stamp))
        }
        var latest: (time: Int64, record: SnapshotRecord)?
        for record in snapshots.sorted(by: { $0.sourceIndex < $1.sourceIndex }) {
            guard let time = record.stamp.generatedAt else { continue }
            guard let (latestTime, latestRecord) = latest, time < latestTime else {
                if time > latest?.time ?? .min { latest = (time, record) }
                continue
            }
            let gap = latestTime.subtractingReportingOverflow(time)
            found.append(
                finding(
                    .snapshotBackInTime,
                    "\(record.stamp.name) comes after \(latestRecord.stamp.name) in source order but was generated "
                        + "\(Format.duration(milliseconds: gap.overflow ? .max : gap.partialValue)) earlier "
                        + "(\(EpochMilliseconds.isoDate(time)) < \(EpochMilliseconds.isoDate(latestTime))): an older export "
                        + "replaced a newer one. The timeline orders it by generatedAt.",
                    key: nil, at: record.generatedAtLocation, in: record.stamp))
        }
        return found.compactMap { $0 }
    }

    /// `snapshot-stale` for the current snapshot (the last in source order): older than the
    /// threshold, or generated before snapshots that record changes it lacks.
    private func staleFindings() -> [HistoryFinding] {
        guard let current = snapshots.max(by: { $0.sourceIndex < $1.sourceIndex }) else { return [] }
        var found: [HistoryFinding?] = []
        if let now = options.now, let nowMilliseconds = Format.milliseconds(of: now), let time = current.stamp.generatedAt {
            let age = nowMilliseconds.subtractingReportingOverflow(time)
            let limit = Int64(options.staleAfterDays).multipliedReportingOverflow(by: 86_400_000)
            if !age.overflow, !limit.overflow, age.partialValue > limit.partialValue {
                found.append(
                    finding(
                        .snapshotStale,
                        "\(current.stamp.name), the current snapshot, was generated \(EpochMilliseconds.isoDate(time)), "
                            + "\(Format.duration(milliseconds: age.partialValue)) before now "
                            + "(\(EpochMilliseconds.isoDate(nowMilliseconds))), past the \(options.staleAfterDays)-day threshold: offline devices get placements as they were "
                            + "then. Export the fallback file again when you publish.",
                        key: nil, at: current.generatedAtLocation, in: current.stamp))
            }
        }
        let later = snapshots[(current.stamp.index + 1)...].filter(\.changes.recordsChanges)
        if let first = later.first {
            let more = later.count > 1 ? " (and \(later.count - 1) more later \(later.count == 2 ? "snapshot" : "snapshots"))" : ""
            found.append(
                finding(
                    .snapshotStale,
                    "\(current.stamp.name), the current snapshot (last in source order), was generated before \(first.stamp), "
                        + "which records changes it lacks: \(first.changes.summary)\(more). The app bundles the older export.",
                    key: nil, at: current.generatedAtLocation, in: current.stamp))
        }
        return found.compactMap { $0 }
    }

    // MARK: Findings

    private mutating func report(
        _ rule: Rule, _ message: String, key: String?, at location: FallbackFile.Location?, in stamp: SnapshotStamp
    ) {
        if let found = finding(rule, message, key: key, at: location, in: stamp) { findings.append(found) }
    }

    private func finding(
        _ rule: Rule, _ message: String, key: String?, at location: FallbackFile.Location?, in stamp: SnapshotStamp
    ) -> HistoryFinding? {
        guard let severity = options.audit.configuration.severity(of: rule) else { return nil }
        let location = location ?? FallbackFile.Location(pointer: "", line: 1, column: 1)
        return HistoryFinding(
            snapshot: stamp,
            finding: Finding(
                ruleId: rule.id, severity: severity, message: message, placementKey: key, pointer: location.jsonPointer,
                line: location.line, column: location.column))
    }
}

/// What the fold reads from one entry: revision and identifier as written, what it serves, and
/// the fingerprint of its content.
struct EntryReading {
    let revision: Int64?
    let revisionText: String?
    let identifier: String?
    let served: PlacementRevision.Served
    let fingerprint: SHA256Digest
    /// Where the entry's value is in the file's text.
    let valueBytes: Range<Int>
    let entryLocation: FallbackFile.Location
    let revisionLocation: FallbackFile.Location?

    /// Reads `record`; `fingerprint` is its content fingerprint when the caller knows it already.
    init(_ record: EntryRecord, in file: FallbackFile, fingerprint known: SHA256Digest? = nil) {
        let value = file.document.value(at: record.value.node)
        valueBytes = value.byteRange
        let placement = value.field(FallbackEntry.Field.placement)
        let revisionValue = placement?.field(Placement.Field.revision)
        let identifierValue = placement?.field(Placement.Field.identifier)
        revision = revisionValue.flatMap { $0.number?.int64Value }
        revisionText = revisionValue.map { Format.json($0.owned) }
        identifier = identifierValue.flatMap(\.string)
        fingerprint = known ?? ContentFingerprint.digest(of: value, excluding: FallbackEntry.Field.placement)
        switch record.outcome {
        case .loaded(let entry):
            served = .target(entry.offlineTarget.identity)
        case .skipped(let failure):
            let pointer = file.location(of: failure.source).pointer
            served = .skipped(reason: "at \(pointer.isEmpty ? "/" : pointer), \(failure.expectation)")
        }
        entryLocation = file.location(of: record.value)
        revisionLocation = revisionValue.map { file.location(of: SourceRef(node: $0.index)) }
    }

    /// The reading of every entry of `file`, in order; entries are read concurrently in chunks.
    static func readings(of file: FallbackFile) -> [EntryReading] {
        let entries = file.entries
        return ParallelChunks.forCores(count: entries.count).mapIndices { EntryReading(entries[$0], in: file) }
    }

    /// The reading of every entry of `file`, in order, taking the fingerprint of an entry whose
    /// bytes are the same as its key's in the snapshot before (`previous`, read from `text`).
    ///
    /// A fingerprint is the digest of the value's canonical text, which its bytes alone decide, so
    /// equal bytes give an equal fingerprint: exact, with no hash of the bytes to collide. Between
    /// two releases most entries do not change (5 of 1,000 in the benchmark's git history), and a
    /// byte comparison costs a small part of writing and hashing the canonical text.
    fileprivate static func readings(
        of file: FallbackFile, unchangedFrom previous: [ExactKey: TimelineBuilder.PlacementState], in text: [UInt8]
    ) -> [EntryReading] {
        guard !previous.isEmpty else { return readings(of: file) }
        let entries = file.entries
        let document = file.document
        let bytes = document.bytes
        return ParallelChunks.forCores(count: entries.count).mapIndices { index in
            let record = entries[index]
            var known: SHA256Digest?
            if let state = previous[ExactKey(record.key)], Self.same(bytes, document.value(at: record.value.node).byteRange, text, state.valueBytes) {
                known = state.fingerprint
            }
            return EntryReading(record, in: file, fingerprint: known)
        }
    }

    /// Whether `lhs[lhsRange]` and `rhs[rhsRange]` are the same bytes (`ExactKey.sameBytes`).
    private static func same(_ lhs: [UInt8], _ lhsRange: Range<Int>, _ rhs: [UInt8], _ rhsRange: Range<Int>) -> Bool {
        lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                ExactKey.sameBytes(UnsafeBufferPointer(rebasing: left[lhsRange]), UnsafeBufferPointer(rebasing: right[rhsRange]))
            }
        }
    }
}
