import FallbackAudit
import FallbackDiff
import FallbackHistory
import Foundation
import RovenueFallback

/// The experiment page (issue 9, point 7): a card per variant with what it serves and its health,
/// the variants' funnels compared with the first variant's, the allocation across a series with
/// what each change does to subscribers' buckets (§5), and a page for an experiment whose entry
/// the SDK skips.

// MARK: - Where a subject sits

extension FindingSubject.Route {
    /// The variant's position in the experiment, for a variant route.
    var variantIndex: Int? {
        if case .variant(let index, _) = self { return index }
        return nil
    }
}

extension FindingSubject {
    /// The placement and the variant's position when the subject is a variant, or what a variant
    /// serves (its funnel, one of its pages, a paywall it or its funnel carries); nil otherwise.
    var variantPosition: (placementKey: ExactKey, index: Int)? {
        switch self {
        case .variant(let key, let index, _): (key, index)
        case .funnel(let funnel), .page(let funnel, _, _), .paywall(.funnel(let funnel), _):
            funnel.route.variantIndex.map { (funnel.placementKey, $0) }
        case .paywall(.placement(let key, let route), _): route.variantIndex.map { (key, $0) }
        case .file, .placement, .experiment: nil
        }
    }
}

// MARK: - Skipped experiments

extension SiteModel {
    /// Skipped entries that carry an experiment (a non-null `experiment`, written as a member or as
    /// the array form's element), in placement order.
    static func skippedExperimentEntries(in file: FallbackFile) -> [(key: String, experimentNode: Int, failure: DecodeFailure)] {
        file.entries.compactMap { record in
            guard let failure = record.failure, let experiment = experimentValue(ofEntry: file.document.value(at: record.value.node))
            else { return nil }
            return (record.key, experiment.index, failure)
        }
    }

    /// The value an entry is written with for `field` (`FallbackEntry.Field` or `Experiment.Field`):
    /// the object's member (the last, as the SDK keeps), or the array form's element; nil when absent.
    static func member<Field: SchemaField>(_ field: Field, of value: JSONDocument.Value) -> JSONDocument.Value? {
        switch value.kind {
        case .object: return value[field.rawValue]
        case .array:
            let elements = value.elements
            return field.position < elements.count ? elements[field.position] : nil
        default: return nil
        }
    }

    /// The entry's `experiment` as written; nil when absent or null.
    static func experimentValue(ofEntry entry: JSONDocument.Value) -> JSONDocument.Value? {
        guard let value = member(FallbackEntry.Field.experiment, of: entry), value.kind != .null else { return nil }
        return value
    }

    /// The page of the experiment a finding is about: the experiment a placement runs (its
    /// variants, what they serve), or the experiment of a skipped entry (any finding about that
    /// placement). Below the site's root; nil when there is none.
    func experimentPagePath(about subject: FindingSubject) -> String? {
        if let key = subject.experimentPlacementKey ?? subject.variantPosition?.placementKey, let index = experimentIndex[key] {
            return "experiments/\(experiments[index].fileName).html"
        }
        return subject.placementKey.flatMap { skippedExperimentIndex[$0] }.map { "experiments/\(skippedExperiments[$0].fileName).html" }
    }

    /// The page of the experiment placement `key` runs, or of the experiment its skipped entry carries.
    func experimentPagePath(forPlacement key: String) -> String? {
        if let index = experimentIndex[ExactKey(key)] { return "experiments/\(experiments[index].fileName).html" }
        return skippedExperimentIndex[ExactKey(key)].map { "experiments/\(skippedExperiments[$0].fileName).html" }
    }

    /// The placement page's link to the experiment of its skipped entry.
    func skippedExperimentLink(placementKey: String, root: String) -> PlacementPage.ExperimentLink? {
        guard let index = skippedExperimentIndex[ExactKey(placementKey)] else { return nil }
        let info = skippedExperiments[index]
        let written = writtenExperiment(info)
        return PlacementPage.ExperimentLink(
            id: written.id, key: written.key, variantCount: written.variantCount ?? 0, path: root + "experiments/\(info.fileName).html",
            skipped: true)
    }

    /// What a skipped experiment is written with, as pages name it (`(not a string)` where it is not readable).
    func writtenExperiment(_ info: SkippedExperimentInfo) -> (id: String, key: String, variantCount: Int?) {
        let value = snapshot.file.document.value(at: info.experimentNode)
        func text(_ field: Experiment.Field) -> String {
            guard let member = SiteModel.member(field, of: value) else { return "(missing)" }
            return member.string.map { SiteModel.name($0) } ?? "(\(member.kind.article), not a string)"
        }
        let variants = SiteModel.member(Experiment.Field.variants, of: value)
        return (text(.id), text(.key), variants?.kind == .array ? variants?.count : nil)
    }

    func skippedExperimentPage(placementKey: String, root: String, values: PageValues) -> ExperimentPage? {
        guard let index = skippedExperimentIndex[ExactKey(placementKey)] else { return nil }
        let info = skippedExperiments[index]
        let file = snapshot.file
        guard let record = record(forKey: placementKey) else { return nil }
        let written = writtenExperiment(info)
        let location = file.location(of: info.failure.source)
        // Inside the experiment when the failing value is the experiment or lies below it.
        var inExperiment = false
        var current: JSONDocument.Value? = file.document.value(at: info.failure.source.node)
        while let value = current, value.index >= info.experimentNode {
            if value.index == info.experimentNode { inExperiment = true }
            current = value.parent
        }
        let pointer = SnapshotText.shortenedPointer(location.pointer)
        let shownKey = SiteModel.name(placementKey)
        let whereText =
            inExperiment
            ? "That is inside the experiment: fix it there."
            : "That is outside the experiment, which may itself be well formed; it is lost with the rest of the entry."
        let explanation =
            "The SDK decodes each placement entry as one typed value (§3, §4), and one part that does not fit skips the whole "
            + "entry: the placement, its targets and the experiment with every variant. At \(pointer.isEmpty ? "/" : pointer) "
            + "(line \(location.line), column \(location.column)): \(info.failure.expectation). \(whereText) The SDK logs "
            + "\"fallback placement entry skipped: \(shownKey)\", the entry does not count toward the loaded total, and offline "
            + "getFunnel/getPaywall(\(shownKey)) gets nothing from the fallback file: no subscriber is drawn into any variant."
        let placementFindings = findings(forPlacement: placementKey)
        let entryValue = file.document.value(at: record.value.node)
        let history = allocationHistory(placementKey: placementKey)
        let skipped = ExperimentPage.Skipped(
            explanation: explanation, expectation: info.failure.expectation, pointer: pointer, line: location.line,
            column: location.column, anchor: SourceListing.anchor(line: location.line, column: location.column),
            inExperiment: inExperiment, variantCount: written.variantCount,
            source: values.html(utf8: SourceListing.bytes(for: entryValue, key: placementKey, findings: placementFindings)))
        return ExperimentPage(
            id: written.id, key: written.key, lookupKey: "", placement: shownKey, placementPath: root + placementPath(placementKey),
            variants: [], variantCount: 0, hasVariants: false, serves: OfflineTarget.skippedSummary, weightsSumToOne: true, weightSum: "0",
            allocation: values.html(""),
            findings: listedFindings(placementFindings, root: root).map { row in
                var row = row
                row.experimentPath = nil
                return row
            },
            moreFindings: moreFindings(placementFindings), hasFindings: !placementFindings.isEmpty, control: nil, comparison: [],
            history: history, hasHistory: history != nil, skipped: skipped)
    }
}

// MARK: - The experiment page

extension SiteModel {
    func experimentPage(placementKey: String, root: String, values: PageValues) -> ExperimentPage? {
        guard let info = experimentInfo(placementKey: placementKey) else { return nil }
        let experiment = info.experiment
        let experimentFindings = findings(forExperimentOf: placementKey)
        let placementFindings = findings(forPlacement: placementKey)
        let weights = experiment.variants.map(\.weight)
        let ranges = Bucketing.bucketRanges(weights: weights)
        let shares = Bucketing.shares(weights: weights)
        let sum = weights.reduce(0, +)
        let history = allocationHistory(placementKey: placementKey)
        let findingsByVariant = Dictionary(grouping: placementFindings.filter { $0.subject.variantPosition != nil }) {
            $0.subject.variantPosition?.index ?? -1
        }
        let variants = experiment.variants.enumerated().map { index, variant in
            let health = findingsByVariant[index] ?? []
            let counts = SeverityCounts(health)
            var row = ExperimentPage.VariantRow(
                index: index, colour: index % 8, variantId: SiteModel.name(variant.variantId),
                // What the lookup shows when it draws this variant (site.js writes it as text).
                variantLabel: SnapshotText.spelledOut(SnapshotText.shortened(variant.variantId)), weight: variant.weightText,
                // What the lookup draws with: the SDK's value (§2.1, not what JSON.parse makes of the
                // text), as the shortest text that `parseFloat` reads back to exactly that double.
                weightValue: variant.weight.description,
                buckets: ranges[index].map { "\($0.lowerBound)–\($0.upperBound)" } ?? "none",
                share: SiteModel.percent(buckets: shares[index]), health: counts, healthSummary: SiteModel.healthSummary(counts),
                healthSeverity: counts.errors > 0 ? "error" : counts.warnings > 0 ? "warning" : "none", healthFindings: listedFindings(health, root: root).map { row in
                    var row = row
                    if checksListedIds.contains(row.id) { row.checksPath = root + "checks.html#" + row.id }
                    return row
                },
                moreHealthFindings: moreFindings(health))
            switch variant.offlineTarget {
            case .funnel(let funnel):
                row.funnel = funnelLink(funnel.id, root: root)
            case .paywall(let paywall):
                row.paywall = paywallSummary(paywall, root: root)
            case .nothing(let reason, _):
                row.nothing = reason.summary
            case .experiment:
                break
            }
            return row
        }
        return ExperimentPage(
            id: SiteModel.name(experiment.id), key: SiteModel.name(experiment.key), lookupKey: experiment.key,
            placement: SiteModel.name(placementKey), placementPath: root + placementPath(placementKey), variants: variants,
            variantCount: variants.count, hasVariants: !variants.isEmpty, serves: info.serves, weightsSumToOne: abs(sum - 1) <= 1e-9,
            weightSum: JSONNumber(sum).text,
            allocation: values.html(
                AllocationBar.svg(variantIds: experiment.variants.map { SnapshotText.spelledOut(SnapshotText.shortened($0.variantId)) }, shares: shares)),
            // On the experiment's own page a finding needs no link back to it.
            findings: listedFindings(experimentFindings, root: root).map { row in
                var row = row
                row.experimentPath = nil
                return row
            }, moreFindings: moreFindings(experimentFindings),
            hasFindings: !experimentFindings.isEmpty, control: experiment.variants.first.map { SiteModel.name($0.variantId) },
            comparison: comparison(of: experiment, placementKey: placementKey, root: root),
            moreComparedVariants: max(0, experiment.variants.count - 1 - SiteModel.comparedVariantLimit),
            history: history, hasHistory: history != nil, skipped: nil)
    }

    /// `50%`, `33.33%`: buckets out of `Bucketing.bucketCount` (a bucket is 0.01%).
    static func percent(buckets: Int) -> String {
        buckets % 100 == 0 ? "\(buckets / 100)%" : String(format: "%.2f%%", Double(buckets) / 100)
    }

    /// A variant card's badge: errors and warnings, never colour alone (`1 error, 2 warnings`).
    static func healthSummary(_ counts: SeverityCounts) -> String {
        var parts: [String] = []
        if counts.errors > 0 { parts.append("\(counts.errors) \(Severity.error.noun(count: counts.errors))") }
        if counts.warnings > 0 { parts.append("\(counts.warnings) \(Severity.warning.noun(count: counts.warnings))") }
        return parts.isEmpty ? "no errors or warnings" : parts.joined(separator: ", ")
    }

    // MARK: Variant funnels compared

    /// Each variant after the first, its funnel compared with the first variant's by the diff's
    /// funnel comparison (`SnapshotDiff.funnelChanges`; the row needs only each change's kind and
    /// page, so it asks for their outlines).
    ///
    /// The first `SiteModel.comparedVariantLimit` variants after the first are compared, and each
    /// list names at most `SiteModel.comparedPageLimit` pages: each comparison reads the first
    /// variant's whole funnel, so thousands of variants against a funnel of thousands of pages
    /// made a page of tens of megabytes, or none.
    func comparison(of experiment: Experiment, placementKey: String, root: String) -> [ExperimentPage.ComparisonRow] {
        guard let control = experiment.variants.first else { return [] }
        let controlName = SiteModel.name(control.variantId)
        let controlFunnel = control.offlineTarget.funnel
        return experiment.variants.enumerated().dropFirst().prefix(SiteModel.comparedVariantLimit).map { index, variant in
            var row = ExperimentPage.ComparisonRow(
                variantId: SiteModel.name(variant.variantId), colour: index % 8, funnel: nil, note: nil, added: [], removed: [],
                copyChanged: [], routingChanged: [], reordered: false, otherChanges: 0)
            guard let funnel = variant.offlineTarget.funnel else {
                row.note = "serves \(variant.offlineTarget.phrase { SiteModel.name($0) }), not a funnel: no pages to compare"
                return row
            }
            row.funnel = funnelLink(funnel.id, root: root)
            guard let controlFunnel else {
                row.note = "\(controlName) serves \(control.offlineTarget.phrase { SiteModel.name($0) }), not a funnel: no pages to compare"
                return row
            }
            let changes = SnapshotDiff.funnelChangeOutlines(
                from: controlFunnel, to: funnel, in: snapshot.file, placementKey: placementKey, variantId: variant.variantId)
            if changes.isEmpty {
                row.note =
                    ExactKey.same(controlFunnel.id, funnel.id)
                    ? "the same funnel as \(controlName), page for page" : "the same pages, copy and routing as \(controlName)'s funnel"
                return row
            }
            var listed: [String: Set<ExactKey>] = [:]
            typealias Row = ExperimentPage.ComparisonRow
            func add(_ list: WritableKeyPath<Row, [ExperimentPage.PageLink]>, _ more: WritableKeyPath<Row, Int>, _ name: String, _ pageId: String, in shown: Funnel) {
                guard listed[name, default: []].insert(ExactKey(pageId)).inserted else { return }
                if row[keyPath: list].count < SiteModel.comparedPageLimit {
                    row[keyPath: list].append(pageLink(pageId, in: shown, root: root))
                } else {
                    row[keyPath: more] += 1
                }
            }
            for change in changes {
                switch (change.kind, change.pageId) {
                case (.pageAdded, let page?): add(\.added, \.moreAdded, "added", page, in: funnel)
                case (.pageRemoved, let page?): add(\.removed, \.moreRemoved, "removed", page, in: controlFunnel)
                case (.copyChanged, let page?), (.optionsChanged, let page?): add(\.copyChanged, \.moreCopyChanged, "copy", page, in: funnel)
                case (.ruleChanged, let page?), (.pagePaywallChanged, let page?):
                    add(\.routingChanged, \.moreRoutingChanged, "routing", page, in: funnel)
                case (.pagesReordered, _): row.reordered = true
                default: row.otherChanges += 1
                }
            }
            return row
        }
    }

    /// A page of `funnel`, linked to its row on the page of the funnel with that id when that page
    /// shows it (the page shows the copy its first use serves), else to the page as a whole.
    func pageLink(_ pageId: String, in funnel: Funnel, root: String) -> ExperimentPage.PageLink {
        guard let info = funnelInfo(id: funnel.id) else { return ExperimentPage.PageLink(id: SiteModel.name(pageId), path: nil) }
        let path = root + "funnels/\(info.fileName).html"
        guard let anchor = pageRows(of: info).anchor(of: pageId) else { return ExperimentPage.PageLink(id: SiteModel.name(pageId), path: path) }
        return ExperimentPage.PageLink(id: SiteModel.name(pageId), path: path + "#" + anchor)
    }

    // MARK: Allocation history

    /// The experiment of placement `key` across the series, in runs of snapshots with the same
    /// allocation, oldest first; nil when the site is built from one snapshot.
    func allocationHistory(placementKey key: String) -> [ExperimentPage.AllocationRow]? {
        guard let timeline, timeline.snapshots.count > 1 else { return nil }
        let revisions = timeline.placement(key)?.revisions ?? []
        var runs: [(state: AllocationState, first: SnapshotRecord, last: SnapshotRecord, count: Int)] = []
        // Snapshots and revisions are both in timeline order: one pass over each.
        var next = 0
        for record in timeline.snapshots {
            while next < revisions.count, revisions[next].firstSeen.index <= record.stamp.index { next += 1 }
            let revision = next > 0 ? revisions[next - 1] : nil
            let state = AllocationState(revision: revision, rejected: record.rejection != nil)
            if let last = runs.last, last.state.isSame(as: state) {
                runs[runs.count - 1].last = record
                runs[runs.count - 1].count += 1
            } else {
                runs.append((state, record, record, 1))
            }
        }
        let currentIndex = timeline.currentIndex
        return runs.enumerated().map { number, run in
            let state = run.state
            let shares = Bucketing.shares(weights: state.weights.map(\.value))
            let change = number == 0 ? nil : AllocationState.change(from: runs[number - 1].state, to: state)
            let labels = ["everyone": "everyone redrawn", "some": "some move", "none": "nobody moves", "start": "starts", "end": "stops"]
            return ExperimentPage.AllocationRow(
                snapshots: run.count == 1
                    ? run.first.stamp.name : "\(run.first.stamp.name) … \(run.last.stamp.name) (\(run.count) snapshots)",
                first: run.first.stamp.name, last: run.last.stamp.name, snapshotCount: run.count,
                current: currentIndex.map { (run.first.stamp.index...run.last.stamp.index).contains($0) } ?? false,
                present: state.isPresent, state: state.description, experimentId: state.id.map { SiteModel.name($0) },
                key: state.key.map { SiteModel.name($0) },
                weights: zip(state.weights, shares).map { weight, buckets in
                    ExperimentPage.AllocationRow.Weight(
                        variantId: SiteModel.name(weight.variantId), weight: weight.text, share: SiteModel.percent(buckets: buckets))
                },
                split: state.isPresent ? shares.map { SiteModel.percent(buckets: $0) }.joined(separator: " / ") : nil,
                note: change?.note, moves: change?.moves, movesLabel: change.flatMap { labels[$0.moves] })
        }
    }
}

/// What a placement does with its experiment in one snapshot: the facts bucketing depends on (§5:
/// the key, the variants in order and their weights), or what it does instead.
struct AllocationState {
    struct Weight {
        let variantId: String
        /// As written.
        let text: String
        /// As the SDK reads it (§2.1).
        let value: Double
    }

    let isPresent: Bool
    /// What the placement does instead, when it runs no experiment.
    let absence: String?
    let id: String?
    let key: String?
    let weights: [Weight]

    init(revision: PlacementRevision?, rejected: Bool) {
        var absence: String?
        var identity: OfflineTarget.Identity?
        if rejected {
            absence = "the SDK rejects the whole file: nothing loads"
        } else if let revision {
            switch revision.served {
            case nil: absence = "the placement is not in this snapshot"
            case .skipped?: absence = "the entry is skipped (it does not decode): no variant is drawn"
            case .target(let target)?:
                if target.kind == .experiment { identity = target } else { absence = "serves \(target.description), no experiment" }
            }
        } else {
            absence = "the placement is not in this snapshot yet"
        }
        isPresent = identity != nil
        self.absence = absence
        id = identity?.id
        key = identity?.experimentKey
        weights = (identity?.variants ?? []).map {
            Weight(variantId: $0.variantId, text: $0.weight, value: JSONNumber(text: $0.weight).reading?.double ?? 0)
        }
    }

    var description: String {
        absence ?? "runs experiment \(SnapshotText.shortened(id ?? ""))"
    }

    /// The same allocation, written the same way (ids and keys by their bytes).
    func isSame(as other: AllocationState) -> Bool {
        isPresent == other.isPresent && ExactKey.same(absence, other.absence) && ExactKey.same(id, other.id)
            && ExactKey.same(key, other.key)
            && weights.elementsEqual(other.weights) { ExactKey.same($0.variantId, $1.variantId) && ExactKey.same($0.text, $1.text) }
    }

    /// The same variants in the same order with the same weights as the SDK reads them.
    func hasSameSplit(as other: AllocationState) -> Bool {
        weights.elementsEqual(other.weights) { ExactKey.same($0.variantId, $1.variantId) && $0.value == $1.value }
    }

    /// What going from `old` to `new` does to subscribers' variants (§5): `moves` is `everyone`,
    /// `some`, `none`, `start` or `end`.
    static func change(from old: AllocationState, to new: AllocationState) -> (note: String, moves: String) {
        switch (old.isPresent, new.isPresent) {
        case (false, false):
            return ("No experiment before or after: nobody is drawn.", "none")
        case (false, true):
            return ("The experiment starts (before, \(old.description)): every subscriber is drawn into a variant.", "start")
        case (true, false):
            return ("The experiment stops: \(new.description). Subscribers no longer draw a variant.", "end")
        case (true, true):
            break
        }
        if !ExactKey.same(old.key, new.key) {
            return (
                "Key \(SnapshotText.shortened(old.key ?? "")) → \(SnapshotText.shortened(new.key ?? "")): the key seeds every "
                    + "subscriber's bucket (§5), so every subscriber is drawn again, and lands on a variant independently of the one "
                    + "they had.", "everyone"
            )
        }
        if !new.hasSameSplit(as: old) {
            let moved = Rebucketing(
                placementKey: "", experimentId: new.id ?? "", experimentKey: new.key ?? "",
                old: old.weights.map { (variantId: $0.variantId, weight: $0.value) }, new: new.weights.map { (variantId: $0.variantId, weight: $0.value) })
            guard moved.movedBuckets > 0 else {
                return ("The variants or weights are written differently but give every bucket the same variant: nobody moves.", "none")
            }
            let moves = moved.moves.prefix(6).map { move in
                let ranges = move.ranges.prefix(3).map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
                    + (move.ranges.count > 3 ? ", …" : "")
                return "\(SnapshotText.shortened(move.from)) → \(SnapshotText.shortened(move.to)) (buckets \(ranges))"
            }
            return (
                "Same key, new split: a subscriber keeps their bucket, and \(moved.movedPercent) of them "
                    + "(\(SnapshotText.grouped(moved.movedBuckets)) of \(SnapshotText.grouped(Bucketing.bucketCount)) buckets) land on "
                    + "another variant: \(moves.joined(separator: "; "))\(moved.moves.count > 6 ? "; …" : "").", "some"
            )
        }
        if !ExactKey.same(old.id, new.id) {
            return (
                "Experiment id \(SnapshotText.shortened(old.id ?? "")) → \(SnapshotText.shortened(new.id ?? "")): the id does not enter "
                    + "bucketing, so nobody moves.", "none"
            )
        }
        return ("Same key and split, written differently: nobody moves.", "none")
    }
}
