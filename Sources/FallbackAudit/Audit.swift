import Foundation
import RovenueFallback

/// The checks beyond decoding: what a fallback file does on an offline first launch that the
/// loader alone does not say.
///
/// ```swift
/// let findings = Audit(now: Date()).findings(in: FallbackFile(bytes: bytes))
/// ```
public struct Audit: Sendable {
    /// The time `generated-at-future` compares `generatedAt` with; nil skips that rule.
    public var now: Date?
    public var configuration: AuditConfiguration

    public init(now: Date? = nil, configuration: AuditConfiguration = AuditConfiguration()) {
        self.now = now
        self.configuration = configuration
    }

    /// Every finding in `file`, ordered by line, column, then rule id.
    ///
    /// A file the SDK rejects gets `file-rejected` and, for the array quirk, `array-top-level`:
    /// nothing in it loads, so nothing else applies.
    ///
    /// Entries are checked concurrently on the available cores, in chunks of about
    /// `FallbackTopLevel.decodeChunkSize` as `check` runs them: with many small chunks no core
    /// waits long for the last one (with four per core, the audit of a 10,000-placement file took
    /// 4% longer). The result does not depend on how they are split.
    public func findings(in file: FallbackFile) -> [Finding] {
        findings(in: file, chunks: ParallelChunks(count: file.entries.count, size: FallbackTopLevel.decodeChunkSize).ranges.count)
    }

    /// The findings, with entries checked in `chunks` contiguous runs (at most one per entry).
    func findings(in file: FallbackFile, chunks: Int) -> [Finding] {
        let entries = file.rejection == nil ? file.entries : []
        return pass(over: file.topLevel, in: ParallelChunks(count: entries.count, chunks: chunks), records: entries, summarizing: { _ in })
            .findings
    }

    /// What `check` needs of a file, with each entry decoded, audited and let go a chunk at a time:
    /// the findings (the same, in the same order, as `findings(in: FallbackFile(topLevel: topLevel))`)
    /// and `summarize` of each entry's record, in file order.
    ///
    /// Chunks of `chunkSize` entries run concurrently on the available cores; each is decoded
    /// (`FallbackTopLevel.EntryDecoding`, one decoder for the chunk, as a whole-file load decodes
    /// its chunks), audited and summarised, and its records go when it
    /// ends, so at most about (cores × `chunkSize`) decoded entries are alive at once, not the typed
    /// model of the whole file. Keep a summary small: every entry's is kept.
    ///
    /// ```swift
    /// let (findings, loaded) = Audit().check(FallbackTopLevel(bytes: bytes)) { $0.entry != nil }
    /// ```
    public func check<Summary>(
        _ topLevel: FallbackTopLevel, chunkSize: Int = FallbackTopLevel.decodeChunkSize,
        summarizing summarize: @Sendable (EntryRecord) -> Summary
    ) -> (findings: [Finding], summaries: [Summary]) {
        pass(
            over: topLevel, in: ParallelChunks(count: topLevel.entryHeads.count, size: chunkSize), records: nil,
            summarizing: summarize)
    }

    /// The one audit pass both paths run: the file-level checks, then each chunk of `chunks` checks
    /// its entries in one `AuditRun` and keeps only their findings, located and sorted on the
    /// chunk's own thread (`FindingRun`), and summaries; then the runs joined in order (`joined`).
    ///
    /// The entries are `records`, decoded earlier (each one's value is brought into the cache
    /// before its checks), or, when nil, decoded now, a chunk at a time with one decoder per chunk
    /// (`FallbackTopLevel.EntryDecoding`).
    private func pass<Summary>(
        over topLevel: FallbackTopLevel, in chunks: ParallelChunks, records: [EntryRecord]?,
        summarizing summarize: @Sendable (EntryRecord) -> Summary
    ) -> (findings: [Finding], summaries: [Summary]) {
        let entryLookups = EntryLookups(record: { index in records?[index] ?? topLevel.decodeEntry(at: index) })
        var fileRun = AuditRun(file: topLevel, configuration: configuration, now: now, entryLookups: entryLookups)
        fileRun.checkFile()
        var runs = [FindingRun(fileRun)]
        var summaries: [Summary] = []
        summaries.reserveCapacity(chunks.ranges.last?.upperBound ?? 0)
        let (configuration, now) = (configuration, now)
        let mediaMemory = MediaScanMemory()
        for chunk in chunks.map({ range in
            var run = AuditRun(file: topLevel, configuration: configuration, now: now, entryLookups: entryLookups, mediaMemory: mediaMemory)
            var chunkSummaries: [Summary] = []
            chunkSummaries.reserveCapacity(range.count)
            var decoding = FallbackTopLevel.EntryDecoding(topLevel)
            for index in range {
                let record: EntryRecord
                if let records {
                    record = records[index]
                    run.bringIntoCache(record)
                } else {
                    record = decoding.record(at: index)
                }
                chunkSummaries.append(summarize(record))
                run.checkEntry(record)
            }
            return (findings: FindingRun(run), summaries: chunkSummaries)
        }) {
            runs.append(chunk.findings)
            summaries += chunk.summaries
        }
        return (Self.joined(runs), summaries)
    }

    /// The findings of `runs`, each in `sorted` order, as `sorted` orders them all: moved out of
    /// the runs, not copied (a copy retains each of a finding's strings, and every copy is released
    /// again, all on one thread after the chunks). When each run sorts at or after the one before
    /// (the entries' findings point into the entries, which come in file order) that is the runs
    /// one after another; otherwise (a file-level finding after the placements, a finding that
    /// points elsewhere) the joined list is sorted again, which gives the same order as sorting
    /// every finding at once: a run's sort kept the reported order of findings that tie.
    static func joined(_ runs: [FindingRun]) -> [Finding] {
        var inOrder = true
        var previous: FindingRun?
        for run in runs where run.count > 0 {
            if let previous, run.firstKey < previous.lastKey { inOrder = false }
            previous = run
        }
        let total = runs.reduce(0) { $0 + $1.count }
        let joined = [Finding](unsafeUninitializedCapacity: total) { buffer, initialized in
            for run in runs {
                initialized += run.move(to: buffer.baseAddress! + initialized)
            }
        }
        return inOrder ? joined : sorted(joined)
    }

    /// Findings by line, column and rule id; findings that tie keep the order they were reported in.
    ///
    /// The findings are moved into their places (swapped along the permutation's cycles), not
    /// copied: a copy of a finding retains each of its strings.
    package static func sorted(_ findings: consuming [Finding]) -> [Finding] {
        var keys = findings.indices.map { index in
            let finding = findings[index]
            return SortKey(line: finding.line, column: finding.column, rule: ruleRank[finding.ruleId] ?? 0, index: index)
        }
        keys.sort()
        var sorted = findings
        // Place `i` takes the finding at `keys[i].index`; each cycle of that permutation is walked once.
        var placed = [Bool](repeating: false, count: keys.count)
        for start in keys.indices where !placed[start] {
            var place = start
            while true {
                placed[place] = true
                let source = keys[place].index
                if source == start { break }
                sorted.swapAt(place, source)
                place = source
            }
        }
        return sorted
    }

    /// Where a finding sorts: `rule` is the rank of its id among all rule ids.
    struct SortKey: Comparable {
        let line: Int
        let column: Int
        let rule: Int
        let index: Int

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.line, lhs.column, lhs.rule, lhs.index) < (rhs.line, rhs.column, rhs.rule, rhs.index)
        }
    }

    /// Each rule id's position among all rule ids in ascending order.
    static let ruleRank: [Rule.ID: Int] = Dictionary(
        uniqueKeysWithValues: Rule.all.map(\.id).sorted().enumerated().map { ($1, $0) })
}

/// What `getFunnel`/`getPaywall` of a placement key finds offline, for each entry of a file by its
/// index in `entryHeads`: found out the first time a check asks about one (`AuditRun.offlineLookup(ofKey:)`,
/// rarely) from the pass's own records, which a whole file has decoded already and `check` decodes
/// once more for the entry asked about; shared by every chunk.
final class EntryLookups: @unchecked Sendable {
    /// What a lookup of the key finds.
    enum Found: Sendable, Equatable {
        /// No entry: the key is not in `placements`, or the SDK skips its entry, which is then not
        /// in its map (§3).
        case nothing
        /// The entry under the key, which loads; with why it serves nothing, if it does (§5).
        case entry(servingNothingFor: OfflineTarget.NothingReason?)
    }

    private let record: @Sendable (Int) -> EntryRecord
    private let lock = NSLock()
    private var foundByIndex: [Int: Found] = [:]

    init(record: @escaping @Sendable (Int) -> EntryRecord) {
        self.record = record
    }

    /// What a lookup of the key of `entryHeads[index]` finds. Decoded outside the lock: two chunks
    /// asking about the same entry at once may both decode it, and agree.
    func found(at index: Int) -> Found {
        if let known = lock.withLock({ foundByIndex[index] }) { return known }
        let found: Found
        if let entry = record(index).entry {
            if case .nothing(let reason, _) = OfflineTarget(entry) {
                found = .entry(servingNothingFor: reason)
            } else {
                found = .entry(servingNothingFor: nil)
            }
        } else {
            found = .nothing
        }
        lock.withLock { foundByIndex[index] = found }
        return found
    }
}

/// One `AuditRun`'s findings, located and in `Audit.sorted` order, in a buffer of their own so
/// that `Audit.joined` can move them into the file's list: an array's elements can only be copied
/// out. Made on the thread that ran the checks, so the sort and the positions cost the chunks,
/// not the serial end of the pass.
final class FindingRun: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Finding>
    /// The findings still held (0 once moved out).
    private(set) var count: Int
    /// Where the first and the last finding sort (the index is the place in the run).
    let firstKey: Audit.SortKey
    let lastKey: Audit.SortKey

    /// The findings `run` reported, in order by line, column and rule id, ties in reported order.
    init(_ run: AuditRun) {
        var keys = run.sortKeys()
        keys.sort()
        base = UnsafeMutablePointer<Finding>.allocate(capacity: keys.count)
        // In text order, so each pointer mostly shares its path with the one before.
        var pointers = JSONDocument.PointerSpeller(document: run.document)
        for (place, key) in keys.enumerated() {
            (base + place).initialize(to: run.locatedFinding(key.index, line: key.line, column: key.column, pointers: &pointers))
        }
        count = keys.count
        let none = Audit.SortKey(line: 0, column: 0, rule: 0, index: 0)
        firstKey = keys.first.map { Audit.SortKey(line: $0.line, column: $0.column, rule: $0.rule, index: 0) } ?? none
        lastKey = keys.last.map { Audit.SortKey(line: $0.line, column: $0.column, rule: $0.rule, index: 0) } ?? none
    }

    /// Moves every finding to `destination` (uninitialized memory for `count` findings), in order;
    /// returns how many. The run is empty after.
    func move(to destination: UnsafeMutablePointer<Finding>) -> Int {
        let moved = count
        destination.moveInitialize(from: base, count: moved)
        count = 0
        return moved
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

extension FallbackFile {
    /// The audit's findings for this file; see `Audit`.
    public func audit(now: Date? = nil, configuration: AuditConfiguration = AuditConfiguration()) -> [Finding] {
        Audit(now: now, configuration: configuration).findings(in: self)
    }
}

/// One pass of the audit over one file: collects findings, locates them at the end.
package struct AuditRun {
    /// Where a finding points.
    enum Anchor {
        /// A value: its pointer and its first byte.
        case value(Int)
        /// An object member's key node: the pointer of its value, the position of the key.
        case key(Int)
        /// A place computed elsewhere (the loader's rejection).
        case fixed(pointer: String, position: JSONDocument.Position)
    }

    struct Pending {
        let rule: Rule
        let severity: Severity
        let message: String
        let subject: FindingSubject
        let anchor: Anchor
    }

    /// The file up to its entries: the entries come to `checkEntry` one at a time.
    let file: FallbackTopLevel
    let document: JSONDocument
    let configuration: AuditConfiguration
    let now: Date?
    private var pending: [Pending] = []
    private let entryLookups: EntryLookups
    /// Reused for every page, theme and paywall of the run.
    var media: MediaScan
    /// What `bringIntoCache` read, kept so that its reads are not dropped as unused.
    private let keptReads = KeptReads()

    /// A run whose media scans remember their results in `mediaMemory` (shared by every run of a
    /// pass over `file`), or in a memory of their own when nil.
    init(
        file: FallbackTopLevel, configuration: AuditConfiguration, now: Date?, entryLookups: EntryLookups,
        mediaMemory: MediaScanMemory? = nil
    ) {
        self.entryLookups = entryLookups
        self.file = file
        self.document = file.document
        self.configuration = configuration
        self.now = now
        media = MediaScan(document: file.document, memory: mediaMemory)
    }

    /// Reads a word of every cache line of `record`'s value in the document (its nodes and text)
    /// before its checks, for an entry decoded long before (`Audit.findings(in:)`): the checks read
    /// its nodes one at a time, each a stall when missed, where these reads miss together.
    /// (`check` audits each entry right after decoding it, with its value still in the cache.)
    func bringIntoCache(_ record: EntryRecord) {
        keptReads.sum = document.wordsOfCacheLines(inSubtree: record.value.node)
    }

    func isEnabled(_ rule: Rule) -> Bool {
        configuration.overrides.isEmpty || configuration.severity(of: rule) != nil
    }

    /// Records a finding of `rule` about `subject`, unless the configuration turns the rule off.
    mutating func report(_ rule: Rule, _ message: String, about subject: FindingSubject, at anchor: Anchor) {
        guard let severity = configuration.overrides.isEmpty ? rule.severity : configuration.severity(of: rule) else { return }
        pending.append(Pending(rule: rule, severity: severity, message: message, subject: subject, anchor: anchor))
    }

    mutating func report(_ rule: Rule, _ message: String, about subject: FindingSubject, at node: Int) {
        report(rule, message, about: subject, at: .value(node))
    }

    /// The node of `field` in a decoded value when it is written, else the value's own node.
    ///
    /// `node(of: .revision, in: placement)`: the field must be one of the value's own struct.
    func node<Value: SourceBacked>(of field: Value.Field, in value: Value) -> Int {
        file.fieldRef(field, in: value)?.node ?? value.source.node
    }

    /// What `getFunnel`/`getPaywall(key)` finds offline: the entry under exactly `key`
    /// (`FallbackTopLevel.entryIndex(forKey:)`) when the SDK loads it, else nothing.
    func offlineLookup(ofKey key: String) -> EntryLookups.Found {
        file.entryIndex(forKey: key).map(entryLookups.found(at:)) ?? .nothing
    }

    /// The line and column of a node's first byte.
    func position(ofNode node: Int) -> JSONDocument.Position {
        document.position(ofNode: node)
    }

    /// Where each finding reported so far sorts (`Audit.sorted`'s order), by its place in the report.
    ///
    /// Each finding's fields are read in place, not copied out whole (a copy retains every string
    /// it holds); a rule's rank is looked up again only when it differs from the finding before's
    /// (a run reports few rules, often many times in a row; a lookup hashes the id).
    func sortKeys() -> [Audit.SortKey] {
        var lastRule: Rule.ID?
        var lastRank = 0
        return pending.withUnsafeBufferPointer { items in
            items.indices.map { index in
                let position = position(of: items[index].anchor)
                let rule = items[index].rule.id
                if rule != lastRule {
                    lastRank = Audit.ruleRank[rule] ?? 0
                    lastRule = rule
                }
                return Audit.SortKey(line: position.line, column: position.column, rule: lastRank, index: index)
            }
        }
    }

    /// The line and column a finding at `anchor` reports.
    private func position(of anchor: Anchor) -> JSONDocument.Position {
        switch anchor {
        case .value(let node), .key(let node): position(ofNode: node)
        case .fixed(_, let fixedPosition): fixedPosition
        }
    }

    /// The finding reported `index`th, with its pointer spelled by `pointers`, at `line` and
    /// `column` (its anchor's position).
    func locatedFinding(_ index: Int, line: Int, column: Int, pointers: inout JSONDocument.PointerSpeller) -> Finding {
        // Read in place, field by field: a copy of the whole report would retain each of its strings.
        pending.withUnsafeBufferPointer { items in
            let pointer: JSONPointer
            switch items[index].anchor {
            case .value(let node): pointer = pointers.jsonPointer(ofNode: node)
            case .key(let node): pointer = pointers.jsonPointer(ofNode: node + 1)
            case .fixed(let fixedPointer, _): pointer = JSONPointer(fixedPointer)
            }
            return Finding(
                ruleId: items[index].rule.id, severity: items[index].severity, message: items[index].message,
                subject: items[index].subject, pointer: pointer, line: line, column: column)
        }
    }
}

extension Audit {
    /// The `file-rejected` finding of a file the SDK rejects, at its own severity (error) whatever a
    /// configuration says; none for a file it loads.
    package static func rejectionFindings(in file: FallbackFile) -> [Finding] {
        rejectionFindings(in: file.topLevel)
    }

    /// The `file-rejected` finding of a file the SDK rejects; see `rejectionFindings(in:)`.
    package static func rejectionFindings(in topLevel: FallbackTopLevel) -> [Finding] {
        guard topLevel.rejection != nil else { return [] }
        return Audit().check(topLevel) { _ in }.findings.filter { $0.ruleId == Rule.fileRejected.id }
    }
}

/// The sum of words an `AuditRun` read to bring them into the cache (`AuditRun.bringIntoCache`),
/// stored where the compiler cannot prove it unread. Only its run's thread writes it.
private final class KeptReads {
    @exclusivity(unchecked) var sum: UInt32 = 0
}
