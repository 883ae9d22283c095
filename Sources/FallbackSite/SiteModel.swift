import FallbackAudit
import FallbackDiff
import FallbackHistory
import Foundation
import RovenueFallback

/// Everything the pages show about one snapshot, gathered once: the loader's outcome, the findings,
/// and the funnels and experiments the placements reach, each with a stable file name.
public struct SiteModel: Sendable {
    /// One snapshot as read from disk.
    public struct Snapshot: Sendable {
        /// How the snapshot is named on pages (the path given on the command line).
        public let name: String
        public let bytes: [UInt8]
        public let file: FallbackFile
        public let findings: [Finding]
        /// The SHA-256 of `bytes` in hex, when it was computed beside the parse and the audit
        /// (`SiteBuild.snapshot(_:audit:)`); nil leaves it to the model.
        let digest: String?

        public init(name: String, bytes: [UInt8], file: FallbackFile, findings: [Finding]) {
            self.init(name: name, bytes: bytes, file: file, findings: findings, digest: nil)
        }

        init(name: String, bytes: [UInt8], file: FallbackFile, findings: [Finding], digest: String?) {
            self.name = name
            self.bytes = bytes
            self.file = file
            self.findings = findings
            self.digest = digest
        }
    }

    /// Where a funnel is served from: a placement directly or one of its experiment's variants.
    public struct Use: Sendable {
        public let placementKey: String
        public let variantId: String?
        /// The copy served, as findings name it (`Finding.subject`).
        public let served: FindingSubject.ServedFunnel
    }

    public struct FunnelInfo: Sendable {
        /// The funnel as its first use serves it: the copy the page shows.
        public let funnel: Funnel
        public let fileName: String
        /// Every copy a placement serves, in placement order; never empty. A variant's copy that a
        /// direct funnel shadows is not among them (§5).
        public internal(set) var uses: [Use]

        /// The first use, as findings name it: the copy the page shows.
        public var shown: FindingSubject.ServedFunnel { uses[0].served }
    }

    public struct ExperimentInfo: Sendable {
        public let experiment: Experiment
        public let placementKey: String
        public let fileName: String
        /// What the placement serves, in the words of its row: `nothing (an experiment with no variants)`.
        public let serves: String
    }

    /// An experiment whose entry the SDK skips (§3): the whole entry fails to decode, so no variant
    /// is ever drawn. Its page says why.
    public struct SkippedExperimentInfo: Sendable {
        public let placementKey: String
        public let fileName: String
        /// The entry's `experiment` value as written.
        public let experimentNode: Int
        /// Why the decoder gave up on the entry.
        public let failure: DecodeFailure
    }

    public let snapshot: Snapshot
    /// The snapshot the Changes page compares against (the previous one, or a baseline).
    public let baseline: Snapshot?
    /// `snapshot` compared with `baseline`.
    public let changes: SnapshotDiff?
    /// The series the snapshot is the newest of, when the site is built from several.
    public let timeline: Timeline?
    /// The series as pages to walk (`snapshots/…`, `diffs/…`), when the site is built from several.
    public var walk: SeriesWalk?
    public let title: String
    /// Seconds since 1970 to measure ages against (`SOURCE_DATE_EPOCH`); nil leaves ages to the browser.
    public let referenceDate: Int?
    public let placementNames: PageNames
    /// The most placements one overview page lists; the rest go on `index-2.html`, `index-3.html`, …
    /// so the overview of a 10,000-placement file stays small enough to open on a phone.
    public var overviewRowLimit = SiteModel.defaultOverviewRowLimit
    public static let defaultOverviewRowLimit = 500
    /// Distinct funnels by id, in order of first appearance.
    public let funnels: [FunnelInfo]
    /// Experiments in placement order.
    public let experiments: [ExperimentInfo]
    /// Skipped entries that carry an experiment, in placement order; their pages are named among
    /// the experiments' (by placement key), so the two never share a name.
    public let skippedExperiments: [SkippedExperimentInfo]
    let skippedExperimentIndex: [ExactKey: Int]
    /// Distinct paywalls by id, in order of first appearance (`collectPaywalls`).
    public let paywalls: [PaywallInfo]
    let paywallIndex: [ExactKey: Int]
    /// Ids and keys compare by their bytes, as the SDK compares them: `é` and `e` + U+0301 are two.
    let funnelIndex: [ExactKey: Int]
    let experimentIndex: [ExactKey: Int]
    /// Findings by the placement they are about (`Finding.subject`), in report order.
    let findingsByPlacement: [ExactKey: [Finding]]
    /// Findings about a served copy of a funnel, one of its pages or a paywall it carries, by the
    /// funnel's id. Findings about a copy no placement serves (a variant's, shadowed by a direct
    /// funnel) are on the placement's page only.
    let findingsByFunnel: [ExactKey: [Finding]]
    /// Findings about an experiment, one of its variants or a paywall a variant serves, by the key
    /// of the placement that runs the experiment.
    let findingsByExperiment: [ExactKey: [Finding]]
    /// The permalink ids of the findings the Checks page lists: the first `listedFindingLimit` of
    /// each rule's group of each severity. Only those may be linked as `checks.html#<id>`.
    let checksListedIds: Set<String>
    /// The findings' permalink ids, each made once for all the pages that list it.
    let permalinks = FindingPermalink.Memo()
    /// The findings' pointers as their rows show them, each long key shortened once.
    let shortenedPointers = SnapshotText.ShortenedPointers()
    /// Each funnel page's rows, made once for all the links into them (`pageRows(of:)`).
    let pageRowsMemo = PageRows.Memo()
    /// The texts of the paywall configs the previews show, each config read once.
    let paywallTexts = PaywallPreview.TextsMemo()
    /// Where the Changes page links into each placement's source listing (`L<line>-<column>`).
    let changeAnchorsByPlacement: [ExactKey: [String]]
    /// The entries' positions in the overview's order, problems first (`entriesProblemsFirst`):
    /// sorted once for all the overview's pages.
    let overviewOrder: [Int]
    /// The snapshot's SHA-256 in hex, as the overview shows it: hashed once for all its pages.
    let snapshotDigest: String
    /// The snapshot's findings by severity, as the overview and the Checks page total them.
    let findingTotals: SeverityCounts

    public init(snapshot: Snapshot, baseline: Snapshot? = nil, timeline: Timeline? = nil, title: String?, referenceDate: Int?) {
        self.init(
            snapshot: snapshot, baseline: baseline, changes: baseline.map { SnapshotDiff(old: $0.file, new: snapshot.file) },
            timeline: timeline, title: title, referenceDate: referenceDate)
    }

    /// A model whose `changes` (`baseline` to `snapshot`) are already computed (`SiteBuild.diff`).
    public init(snapshot: Snapshot, baseline: Snapshot?, changes: SnapshotDiff?, timeline: Timeline?, title: String?, referenceDate: Int?) {
        self.snapshot = snapshot
        self.baseline = baseline
        self.timeline = timeline
        self.changes = changes
        self.referenceDate = referenceDate
        let file = snapshot.file
        self.title = title ?? file.projectId?.string.map { "Fallback file of \(SnapshotText.shortened($0))" } ?? "Fallback file"
        // The model is made before any page renders, with nothing else to run beside it: the
        // parts that need only the snapshot (the placements' page names, the Checks page's
        // permalink ids, then the paywalls, which need the funnels) are made on another core
        // while this one gathers the rest. Alone, the model kept a core idle for some 15 ms of a
        // 1,000-placement build.
        let findings = snapshot.findings
        let permalinks = permalinks
        let namesAndListedIds = RenderAhead { _ in
            (names: PageNames(identifiers: file.entries.map(\.key)), listedIds: SiteModel.checksListedIds(findings, memo: permalinks))
        }

        var funnels: [FunnelInfo] = []
        var funnelIndex: [ExactKey: Int] = [:]
        var experiments: [ExperimentInfo] = []
        func add(_ funnel: Funnel, _ use: Use) {
            if let index = funnelIndex[use.served.id] {
                funnels[index].uses.append(use)
            } else {
                funnelIndex[use.served.id] = funnels.count
                funnels.append(FunnelInfo(funnel: funnel, fileName: "", uses: [use]))
            }
        }
        // Only what an entry serves (§5): a direct funnel or paywall shadows the experiment beside it.
        for (key, entry) in file.loadedEntries {
            let target = entry.offlineTarget
            for served in target.servedFunnels {
                var route = FindingSubject.Route.direct
                if let variant = served.variant, let index = served.variantIndex { route = .variant(index: index, id: ExactKey(variant.variantId)) }
                let use = Use(
                    placementKey: key, variantId: served.variantId,
                    served: FindingSubject.ServedFunnel(placementKey: ExactKey(key), route: route, id: ExactKey(served.value.id)))
                add(served.value, use)
            }
            if let experiment = target.decidingExperiment {
                experiments.append(
                    ExperimentInfo(experiment: experiment, placementKey: key, fileName: "", serves: Self.serving(entry).text))
            }
        }
        let funnelNames = PageNames(identifiers: funnels.map(\.funnel.id))
        self.funnels = funnels.map {
            FunnelInfo(funnel: $0.funnel, fileName: funnelNames.name(for: $0.funnel.id), uses: $0.uses)
        }
        // An experiment's page is named after the placement that runs it: ids may repeat across
        // placements. Skipped experiments are named in the same set, by their (distinct) keys.
        let skipped = SiteModel.skippedExperimentEntries(in: file)
        let experimentNames = PageNames(identifiers: experiments.map(\.placementKey) + skipped.map(\.key))
        skippedExperiments = skipped.map {
            SkippedExperimentInfo(
                placementKey: $0.key, fileName: experimentNames.name(for: $0.key), experimentNode: $0.experimentNode, failure: $0.failure)
        }
        skippedExperimentIndex = Dictionary(skippedExperiments.enumerated().map { (ExactKey($1.placementKey), $0) }) { first, _ in first }
        self.experiments = experiments.map {
            ExperimentInfo(
                experiment: $0.experiment, placementKey: $0.placementKey, fileName: experimentNames.name(for: $0.placementKey),
                serves: $0.serves)
        }
        self.funnelIndex = funnelIndex
        let namedFunnels = self.funnels
        let collectedPaywalls = RenderAhead { _ in SiteModel.collectPaywalls(file: file, funnels: namedFunnels) }
        experimentIndex = Dictionary(self.experiments.enumerated().map { (ExactKey($1.placementKey), $0) }) { first, _ in first }
        // The findings come in text order, so those about one placement follow one another: each
        // run is filed under its key with one lookup. Hashing a key reads all of it, and a key can
        // be a megabyte with thousands of findings; comparing it with the run's key does not read
        // it when both are the one string the entry's key is.
        var byPlacement = RunGrouping<ExactKey, Finding>()
        var byFunnel = RunGrouping<ExactKey, Finding>()
        let servedFunnels = Set(funnels.lazy.flatMap(\.uses).map(\.served))
        var lastFunnel: (funnel: FindingSubject.ServedFunnel, isServed: Bool)?
        var byExperiment = RunGrouping<ExactKey, Finding>()
        for finding in snapshot.findings {
            if let key = finding.subject.placementKey { byPlacement.append(finding, under: key) }
            if let funnel = finding.subject.funnel {
                let isServed = lastFunnel.flatMap { $0.funnel == funnel ? $0.isServed : nil } ?? servedFunnels.contains(funnel)
                lastFunnel = (funnel, isServed)
                if isServed { byFunnel.append(finding, under: funnel.id) }
            }
            if let key = finding.subject.experimentPlacementKey { byExperiment.append(finding, under: key) }
        }
        let byPlacementGroups = byPlacement.groups
        findingsByPlacement = byPlacementGroups
        overviewOrder = SiteModel.problemsFirst(file.entries) { byPlacementGroups[ExactKey($0)] ?? [] }
        SiteModel.record(.snapshotDigest, snapshot.bytes.count)
        snapshotDigest = snapshot.digest ?? SHA256Digest(of: snapshot.bytes).hexString
        findingTotals = SiteModel.severityCounts(snapshot.findings)
        findingsByFunnel = byFunnel.groups
        findingsByExperiment = byExperiment.groups
        // A placement's changes follow one another: filed a run at a time (`RunGrouping`).
        var changeAnchors = RunGrouping<ExactKey, String>()
        for change in changes?.changes ?? [] {
            if let key = change.placementKey, let location = change.newLocation {
                changeAnchors.append(SourceListing.anchor(line: location.line, column: location.column), under: ExactKey(key))
            }
        }
        changeAnchorsByPlacement = changeAnchors.groups
        (placementNames, checksListedIds) = namesAndListedIds.wait()
        paywalls = collectedPaywalls.wait()
        paywallIndex = Dictionary(paywalls.enumerated().map { (ExactKey($1.id), $0) }) { first, _ in first }
    }

    /// The permalink ids of the findings the Checks page lists, as it groups and cuts its lists
    /// (`checksPage`): made once for every page (`checksListedIds`).
    static func checksListedIds(_ findings: [Finding], memo: FindingPermalink.Memo) -> Set<String> {
        var groups: [Severity: [Rule.ID: [Finding]]] = [:]
        for finding in findings { groups[finding.severity, default: [:]][finding.ruleId, default: []].append(finding) }
        return Set(groups.values.flatMap(\.values).flatMap { FindingPermalink.ids(for: $0.prefix(SiteModel.listedFindingLimit), memo: memo) })
    }

    func findings(forPlacement key: String) -> [Finding] {
        findingsByPlacement[ExactKey(key)] ?? []
    }

    /// The findings about the funnel `id`, its pages and the paywalls it carries, in every copy a
    /// placement serves.
    func findings(forFunnel id: String) -> [Finding] {
        findingsByFunnel[ExactKey(id)] ?? []
    }

    /// The findings about the experiment of placement `key`, its variants and the paywalls they serve.
    func findings(forExperimentOf key: String) -> [Finding] {
        findingsByExperiment[ExactKey(key)] ?? []
    }

    func funnelInfo(id: String) -> FunnelInfo? {
        funnelIndex[ExactKey(id)].map { funnels[$0] }
    }

    func experimentInfo(placementKey: String) -> ExperimentInfo? {
        experimentIndex[ExactKey(placementKey)].map { experiments[$0] }
    }

    /// The entry record of the placement `key` (compared by its exact bytes), from the file's index of its keys.
    func record(forKey key: String) -> EntryRecord? {
        SiteModel.record(.entryLookup, 1)
        return snapshot.file.topLevel.entryIndex(forKey: key).map { snapshot.file.entries[$0] }
    }

    func placementPath(_ key: String) -> String { "placements/\(placementNames.name(for: key)).html" }
}

// MARK: - Shared pieces of context

extension SiteModel {
    /// A key or id as pages name it: shortened when long (`SnapshotText.shortened(_:limit:)`).
    static func name(_ identifier: String) -> String { SnapshotText.shortened(identifier) }

    /// The whole of `identifier` as HTML, when pages show it shortened: for a `<details>` on its own page.
    static func fullName(_ identifier: String, values: PageValues) -> TrustedHTML? {
        SnapshotText.cut(identifier, limit: SnapshotText.shortLength).note == nil ? nil : values.html(SnapshotText.html(identifier, limit: nil))
    }

    /// `1.2 MB`, `830 KB`, `512 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        if bytes >= 1_000 { return String(format: "%.0f KB", Double(bytes) / 1_000) }
        return "\(bytes) bytes"
    }

    /// `3 days`, `5 hours`, `2 months`.
    static func age(seconds: Int) -> String {
        let magnitude = seconds.magnitude
        let (value, unit): (UInt, String) =
            switch magnitude {
            case ..<3600: (max(1, magnitude / 60), "minute")
            case ..<86_400: (magnitude / 3600, "hour")
            case ..<(86_400 * 60): (magnitude / 86_400, "day")
            case ..<(86_400 * 730): (magnitude / (86_400 * 30), "month")
            default: (magnitude / (86_400 * 365), "year")
            }
        let text = "\(value) \(unit)\(value == 1 ? "" : "s")"
        return seconds >= 0 ? "\(text) old" : "\(text) in the future"
    }

    static func finding(_ finding: Finding, id: String, root: String, model: SiteModel) -> FindingRow {
        let key = finding.placementKey
        return FindingRow(
            id: id, rule: finding.ruleId.rawValue, rulePath: rulePath(finding.ruleId).map { root + $0 }, severity: finding.severity.rawValue, isError: finding.severity == .error,
            isWarning: finding.severity == .warning, isInfo: finding.severity == .info, message: finding.message,
            pointer: model.shortenedPointers.shortened(finding.jsonPointer), line: finding.line, column: finding.column,
            placement: key.map { SnapshotText.shortened($0) }, placementPath: key.map { root + model.placementPath($0) },
            anchor: key.map { _ in SourceListing.anchor(line: finding.line, column: finding.column) },
            experimentPath: model.experimentPagePath(about: finding.subject).map { root + $0 })
    }

    static func severityCounts(_ findings: [Finding]) -> SeverityCounts {
        record(.findingCount, findings.count)
        return SeverityCounts(findings)
    }

    /// What a placement's entry serves offline, as its row and page show it.
    struct Serving {
        /// The overview's filter value: an `OfflineTarget.Kind`, or `skipped`.
        let kind: String
        /// The theme's icon.
        let icon: String
        /// In words: `funnel fnl_a`, `experiment over 2 funnels`, `nothing (no funnel, paywall or experiment)`.
        let text: String
    }

    /// What `entry` serves offline (`skipped` when there is no entry: the SDK skips it).
    static func serving(_ entry: FallbackEntry?) -> Serving {
        guard let entry else { return Serving(kind: "skipped", icon: "error", text: OfflineTarget.skippedSummary) }
        let target = entry.offlineTarget
        let text = target.overviewPhrase { SnapshotText.shortened($0) }
        return Serving(kind: target.kind.rawValue, icon: icon(for: target.kind), text: text)
    }

    /// The theme's icon for a target kind.
    static func icon(for kind: OfflineTarget.Kind) -> String {
        switch kind {
        case .funnel: "funnel"
        case .paywall: "paywall"
        case .experiment: "experiment"
        case .nothing: "nothing"
        }
    }

    static func worstSeverity(_ findings: [Finding]) -> String {
        findings.map(\.severity).max()?.rawValue ?? "none"
    }

    /// The text of a localized field for `locale`, else the default locale's, else the first.
    static func text(_ text: LocalizedText?, locale: String?) -> String? {
        guard let text else { return nil }
        switch text {
        case .plain(let value): return value
        case .localized(let map):
            if let locale, let value = map[locale] { return value }
            return map.values.first
        }
    }
}

