import FallbackAudit
import RovenueFallback

/// The snapshots of a source in timeline order: by `generatedAt`, then by source order.
///
/// Building a series reads each snapshot once, keeping only its `generatedAt`; `timeline(_:)`
/// then reads them again one at a time and folds each into a `TimelineBuilder`, so no more than
/// one snapshot's parse is alive at any moment, and two snapshots' texts: both passes read the
/// next snapshot while the last is used (`SnapshotReadAhead`).
///
/// ```swift
/// let series = try SnapshotSeries(GitFileHistory(file: "App/rovenue-fallback.json"))
/// let timeline = try series.timeline(HistoryOptions(now: Date()))
/// ```
public struct SnapshotSeries: Sendable {
    /// One snapshot of the series.
    public struct Member: Sendable, Hashable {
        public let reference: SnapshotReference
        /// The position in source order (the order given, file-name order, commit order).
        public let sourceIndex: Int
        /// The last top-level `generatedAt`, when it is an integer token (epoch milliseconds).
        public let generatedAt: Int64?

        public init(reference: SnapshotReference, sourceIndex: Int, generatedAt: Int64?) {
            self.reference = reference
            self.sourceIndex = sourceIndex
            self.generatedAt = generatedAt
        }
    }

    public let source: any SnapshotSource
    /// The snapshots in timeline order.
    public let members: [Member]

    /// Lists `source` and reads each snapshot's `generatedAt` to order them, calling `progress`
    /// with (snapshots read, total) after each.
    public init(_ source: some SnapshotSource, progress: ((_ read: Int, _ total: Int) -> Void)? = nil) throws {
        let references = try source.references()
        var members: [Member] = []
        members.reserveCapacity(references.count)
        try SnapshotReadAhead.forEach(references, in: source) { index, bytes in
            let generatedAt = GeneratedAtScan.generatedAt(in: bytes)
            members.append(Member(reference: references[index], sourceIndex: index, generatedAt: generatedAt))
            progress?(index + 1, references.count)
        }
        self.init(source: source, sourceOrder: members)
    }

    /// A series of members already scanned, given in source order.
    public init(source: some SnapshotSource, sourceOrder: [Member]) {
        self.source = source
        self.members = Self.timelineOrder(sourceOrder)
    }

    /// Sorts by `generatedAt`, then source order. A snapshot whose `generatedAt` cannot be read
    /// keeps its place right after the snapshot before it in source order.
    static func timelineOrder(_ sourceOrder: [Member]) -> [Member] {
        var keyed: [(time: Int64, member: Member)] = []
        var lastKnown = Int64.min
        for member in sourceOrder.sorted(by: { $0.sourceIndex < $1.sourceIndex }) {
            if let time = member.generatedAt { lastKnown = time }
            keyed.append((lastKnown, member))
        }
        keyed.sort { ($0.time, $0.member.sourceIndex) < ($1.time, $1.member.sourceIndex) }
        return keyed.map(\.member)
    }

    /// Reads, parses and folds each snapshot in timeline order, calling `progress` after each.
    public func timeline(
        _ options: HistoryOptions = HistoryOptions(), progress: ((SnapshotRecord) -> Void)? = nil
    ) throws -> Timeline {
        try timeline(options) { _, _, record in progress?(record) }
    }

    /// Reads, parses, audits and folds each snapshot in timeline order, and hands `visit` each
    /// parsed file with its findings (`options.audit`'s, computed once) and its record, before the
    /// file is dropped: what a caller keeps of a snapshot is up to it, one snapshot at a time.
    ///
    /// What one snapshot frees stays with the allocator for the next, which faults in none of it
    /// again (the executables keep it warm: `MemoryPages.keepFreedMemoryWarm()`). Trimming the heap
    /// after each snapshot (`malloc_trim`) did not lower the peak (four 10,000-placement snapshots:
    /// 422-424 MB without, 426-441 MB with) and cost system time (30 snapshots of 1,000
    /// placements: 0.03-0.09 s without, 0.13-0.17 s with).
    public func timeline(
        _ options: HistoryOptions, visit: (_ file: FallbackFile, _ findings: [Finding], _ record: SnapshotRecord) -> Void
    ) throws -> Timeline {
        try fold(options) { folded in visit(folded.file, folded.findings, folded.record) }
    }

    /// `timeline(_:visit:)`, handing `visit` each snapshot's bytes as read besides.
    func fold(_ options: HistoryOptions, visit: (FoldedSnapshot) -> Void) throws -> Timeline {
        var builder = TimelineBuilder(options: options)
        try SnapshotReadAhead.forEach(members.map(\.reference), in: source) { index, bytes in
            let member = members[index]
            let file = FallbackFile(bytes: bytes)
            let findings = options.audit.findings(in: file)
            let record = builder.add(file, as: member, findings: findings)
            visit(FoldedSnapshot(reference: member.reference, bytes: bytes, file: file, findings: findings, record: record))
        }
        return builder.finish()
    }
}

/// One snapshot as a fold hands it to its visitor, before it is dropped: the bytes as read (a byte
/// order mark included, which the parsed file leaves out), the file parsed from them, its findings
/// and its record in the timeline.
public struct FoldedSnapshot: Sendable {
    public let reference: SnapshotReference
    public let bytes: [UInt8]
    public let file: FallbackFile
    public let findings: [Finding]
    public let record: SnapshotRecord
}

extension SnapshotSeries {
    /// What `timeline(of:_:progress:)` reports after each snapshot.
    public enum Progress: Sendable {
        /// A snapshot read for its `generatedAt` only, `done` of `total`: one before it came out of
        /// timeline order, so the fold waits for every snapshot's time.
        case scanned(done: Int, total: Int)
        /// A snapshot folded, `done` of `total` in this pass. A pass that starts again after a
        /// snapshot out of order counts from 1 again.
        case folded(SnapshotRecord, done: Int, total: Int)
    }

    /// What `timeline(of:_:progress:visit:)` hands its visitor.
    public enum Visit: Sendable {
        /// A snapshot out of order: the fold starts again from the first snapshot in timeline
        /// order, and what was handed over before is not part of it.
        case restart
        /// A snapshot folded: the one at `position` (from 0) of the `count` in timeline order, the
        /// next after the one handed over before.
        case folded(FoldedSnapshot, position: Int, count: Int)
    }

    /// Reads, parses, audits and folds every snapshot of `source` into its timeline, reading each
    /// snapshot once while the source order is the timeline order; the result is the same as
    /// `SnapshotSeries(source).timeline(options)`.
    ///
    /// A normal release history is written in time order, so its commit or file-name order is its
    /// timeline order: `generatedAt` never goes down. Folding each snapshot as it is read then
    /// gives the timeline in one pass, where `SnapshotSeries(_:)` reads every snapshot once for its
    /// time and `timeline(_:)` once more to fold it (a git history's blobs inflated twice). At the
    /// first snapshot whose `generatedAt` is earlier than the one before, what was folded is
    /// dropped, the rest is read for its time only, and the series is folded again in timeline
    /// order: at worst, one fold per snapshot more than two passes cost.
    ///
    /// Stable sorting by time then source index leaves a series whose times never go down in
    /// source order (a snapshot with no readable time takes the last time before it) exactly as
    /// it was, so the one-pass fold sees the snapshots in `members` order.
    ///
    /// `visit`, when given, is handed each snapshot as it is folded, in timeline order (what
    /// `timeline(_:visit:)` hands it, with the bytes as read). After a snapshot out of order it is
    /// called with `.restart` once, at once (so it can let go of what it kept), and the whole series
    /// is handed to it again in timeline order once every snapshot's time is read.
    public static func timeline(
        of source: some SnapshotSource, _ options: HistoryOptions = HistoryOptions(), progress: ((Progress) -> Void)? = nil,
        visit: ((Visit) -> Void)? = nil
    ) throws -> Timeline {
        let references = try source.references()
        var sourceOrder: [Member] = []
        sourceOrder.reserveCapacity(references.count)
        var builder = TimelineBuilder(options: options)
        var inTimelineOrder = true
        var lastTime = Int64.min
        try SnapshotReadAhead.forEach(references, in: source) { index, bytes in
            let member = Member(reference: references[index], sourceIndex: index, generatedAt: GeneratedAtScan.generatedAt(in: bytes))
            sourceOrder.append(member)
            let time = member.generatedAt ?? lastTime
            if inTimelineOrder, time < lastTime {
                inTimelineOrder = false
                builder = TimelineBuilder(options: options)  // what was folded is freed
                visit?(.restart)
            }
            lastTime = time
            guard inTimelineOrder else {
                progress?(.scanned(done: index + 1, total: references.count))
                return
            }
            let file = FallbackFile(bytes: bytes)
            let findings = options.audit.findings(in: file)
            let record = builder.add(file, as: member, findings: findings)
            visit?(.folded(
                FoldedSnapshot(reference: member.reference, bytes: bytes, file: file, findings: findings, record: record),
                position: index, count: references.count))
            progress?(.folded(record, done: index + 1, total: references.count))
        }
        if inTimelineOrder { return builder.finish() }
        var folded = 0
        return try SnapshotSeries(source: source, sourceOrder: sourceOrder).fold(options) { snapshot in
            visit?(.folded(snapshot, position: folded, count: references.count))
            folded += 1
            progress?(.folded(snapshot.record, done: folded, total: references.count))
        }
    }
}

/// Reads the last top-level `generatedAt` of a snapshot without parsing the rest: containers are
/// skipped by counting brackets outside strings (`StructuralIndex.endOfContainer(in:openingAt:path:)`,
/// 64 bytes at a time; `path` `.scalar` for the tests' reference).
enum GeneratedAtScan {
    static func generatedAt(in bytes: [UInt8], path: StructuralIndex.Path = .vector) -> Int64? {
        bytes.withUnsafeBufferPointer { scan($0, path: path) }
    }

    private static let key = Array(TopLevelField.generatedAt.rawValue.utf8)

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, path: StructuralIndex.Path) -> Int64? {
        var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let count = bytes.count
        func skipWhitespace() {
            while offset < count, bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D || bytes[offset] == 0x09 {
                offset += 1
            }
        }
        /// Moves past a string starting at its opening quote; returns its raw contents.
        func skipString() -> Range<Int>? {
            let start = offset + 1
            var index = start
            while index < count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    offset = index + 1
                    return start..<index
                default: index += 1
                }
            }
            return nil
        }
        /// Moves past one value; returns the range of a scalar token.
        func skipValue() -> Range<Int>? {
            guard offset < count else { return nil }
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                let start = offset
                return skipString().map { _ in start..<offset }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let start = offset
                guard let end = StructuralIndex.endOfContainer(in: bytes, openingAt: start, path: path) else { return nil }
                offset = end
                return start..<end
            default:
                let start = offset
                while offset < count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09]
                    .contains(bytes[offset])
                {
                    offset += 1
                }
                return start..<offset
            }
        }

        skipWhitespace()
        guard offset < count, bytes[offset] == UInt8(ascii: "{") else { return nil }
        offset += 1
        var found: Int64?
        while true {
            skipWhitespace()
            guard offset < count, bytes[offset] == UInt8(ascii: "\""), let keyRange = skipString() else { return found }
            skipWhitespace()
            guard offset < count, bytes[offset] == UInt8(ascii: ":") else { return found }
            offset += 1
            skipWhitespace()
            guard let valueRange = skipValue() else { return found }
            if isGeneratedAt(UnsafeBufferPointer(rebasing: bytes[keyRange])) {
                found = epochMilliseconds(UnsafeBufferPointer(rebasing: bytes[valueRange]))
            }
            skipWhitespace()
            guard offset < count, bytes[offset] == UInt8(ascii: ",") else { return found }
            offset += 1
        }
    }

    private static func isGeneratedAt(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        if raw.elementsEqual(key) { return true }
        guard raw.contains(UInt8(ascii: "\\")) else { return false }
        let document = JSONDocument(bytes: [UInt8(ascii: "\"")] + Array(raw) + [UInt8(ascii: "\"")])
        return document.hasRoot && ExactKey.same(document.root.string, TopLevelField.generatedAt.rawValue)
    }

    /// An integer token within 64 bits, as the audit reads `generatedAt` (`-0` is not one).
    private static func epochMilliseconds(_ token: UnsafeBufferPointer<UInt8>) -> Int64? {
        JSONNumber.reading(of: token)?.int64
    }
}
