import FallbackAudit
import RovenueFallback

extension OfflineTarget {
    /// `funnel "f"`, `paywall "p"`, `experiment "e"`, or `nothing (an experiment with no variants)`.
    var quotedText: String { phrase(spellingIds: Format.quoted) }
}

/// One comparison of two snapshots: collects changes in the order of the new snapshot.
///
/// The comparison decides what changed once, for both kinds of run: a run that keeps `.changes`
/// builds each change's message, values, locations and copy; one that keeps `.outlines` records
/// only each change's kind and where it is (`Change.Outline`), and never builds the rest.
struct DiffRun {
    /// What a run keeps of each change it finds.
    enum Keeping { case changes, outlines }

    /// The changes found so far. A reference, so that `report` does not modify the run: its details
    /// are closures that read the run, built only when they are kept.
    private final class Log {
        var changes: [Change] = []
        var outlines: [Change.Outline] = []
        /// The spellers of each side's pointers: the locations found one after another under one
        /// long key share its bytes, where thousands of changes would each hold a copy.
        var oldPointers: JSONDocument.PointerSpeller
        var newPointers: JSONDocument.PointerSpeller

        init(old: JSONDocument, new: JSONDocument) {
            oldPointers = JSONDocument.PointerSpeller(document: old)
            newPointers = JSONDocument.PointerSpeller(document: new)
        }
    }

    let old: FallbackFile
    let new: FallbackFile
    let keeping: Keeping
    private let log: Log
    var rebucketing: [Rebucketing] = []
    private var experimentKeyPlacements: [ExactKey: [String]]?

    init(old: FallbackFile, new: FallbackFile, keeping: Keeping = .changes) {
        self.old = old
        self.new = new
        self.keeping = keeping
        log = Log(old: old.document, new: new.document)
    }

    /// The changes found, in the order found (a run that keeps `.changes`).
    var changes: [Change] { log.changes }

    /// The outline of each change found, in the order found (a run that keeps `.outlines`).
    var outlines: [Change.Outline] { log.outlines }

    // MARK: Reporting

    /// Records a change under `scope`. Its details are evaluated only when the run keeps changes.
    func report(
        _ kind: ChangeKind, in scope: ChangeScope, _ message: @autoclosure () -> String, field: @autoclosure () -> String? = nil,
        old oldLocation: @autoclosure () -> FallbackFile.Location?, new newLocation: @autoclosure () -> FallbackFile.Location?,
        values: @autoclosure () -> (old: JSONValue?, new: JSONValue?)? = nil,
        written: @autoclosure () -> (old: JSONDocument.Value?, new: JSONDocument.Value?)? = nil,
        valueTexts: @autoclosure () -> (old: String?, new: String?)? = nil,
        copy: @autoclosure () -> CopyChange? = nil
    ) {
        guard keeping == .changes else {
            log.outlines.append(Change.Outline(kind: kind, scope: scope))
            return
        }
        // Values as written are shown without building their owned copies (a value the SDK does not
        // read, such as projectId, may nest 100,000 deep).
        let written = written()
        let texts = written == nil ? valueTexts() : nil
        let values = written == nil && texts == nil ? values() : nil
        let oldValue = written.map { $0.old.map { RawComparison.text($0) } } ?? texts?.old ?? values?.old.map { RawComparison.text($0) }
        let newValue = written.map { $0.new.map { RawComparison.text($0) } } ?? texts?.new ?? values?.new.map { RawComparison.text($0) }
        log.changes.append(
            Change(
                outline: Change.Outline(kind: kind, scope: scope), field: field(), message: message(), oldValue: oldValue, newValue: newValue,
                oldLocation: oldLocation(), newLocation: newLocation(), copy: copy()))
    }

    func oldPlace(_ node: Int?) -> FallbackFile.Location? {
        node.map { old.location(of: SourceRef(node: $0), pointers: &log.oldPointers) }
    }

    func newPlace(_ node: Int?) -> FallbackFile.Location? {
        node.map { new.location(of: SourceRef(node: $0), pointers: &log.newPointers) }
    }

    // MARK: Files

    mutating func compareFiles() {
        let scope = ChangeScope.file
        if let rejection = old.rejection {
            report(
                .fileRejected, in: scope,
                "The old snapshot is rejected by the SDK (\(rejection.rule.section): \(rejection.rule.summary)): "
                    + "\(rejection.message). Nothing in it loads, so no placement can be compared with it.",
                old: Self.location(of: rejection), new: nil)
        }
        if let rejection = new.rejection {
            report(
                .fileRejected, in: scope,
                "The new snapshot is rejected by the SDK (\(rejection.rule.section): \(rejection.rule.summary)): "
                    + "\(rejection.message). Nothing in it loads: a device keeps the set it loaded before, which on a "
                    + "first launch is nothing, so every placement serves nothing offline.",
                old: nil, new: Self.location(of: rejection))
        }
        guard old.rejection == nil, new.rejection == nil else { return }
        compareProjects()
        if let oldDate = old.generatedAtMilliseconds, let newDate = new.generatedAtMilliseconds, newDate < oldDate {
            report(
                .generatedEarlier, in: scope,
                "The new snapshot was generated at \(EpochMilliseconds.isoDate(newDate)), before the old one "
                    + "(\(EpochMilliseconds.isoDate(oldDate))): it goes back in time.",
                field: TopLevelField.generatedAt.rawValue, old: oldPlace(old.generatedAt?.index), new: newPlace(new.generatedAt?.index),
                written: (old.generatedAt, new.generatedAt))
        }
        comparePlacements()
    }

    static func location(of rejection: FallbackRejection) -> FallbackFile.Location {
        FallbackFile.Location(pointer: rejection.pointer ?? "", line: rejection.position.line, column: rejection.position.column)
    }

    private mutating func compareProjects() {
        let scope = ChangeScope.file
        let oldValue = old.projectId
        let newValue = new.projectId
        if let oldProject = oldValue?.string, let newProject = newValue?.string {
            if !ExactKey.same(oldProject, newProject) {
                report(
                    .projectChanged, in: scope,
                    "projectId \(Format.quoted(oldProject)) → \(Format.quoted(newProject)): the new snapshot is another "
                        + "project's export (a staging file bundled into a production app?).",
                    field: TopLevelField.projectId.rawValue, old: oldPlace(oldValue?.index), new: newPlace(newValue?.index),
                    written: (oldValue, newValue))
            }
            return
        }
        let differs: Bool
        switch (oldValue, newValue) {
        case (nil, nil): differs = false
        case (let oldValue?, let newValue?): differs = !RawComparison.same(oldValue, newValue)
        default: differs = true
        }
        if differs {
            report(
                .fieldChanged, in: scope, "projectId \(oldValue == nil ? "added" : newValue == nil ? "removed" : "changed").",
                field: TopLevelField.projectId.rawValue,
                old: oldPlace(oldValue?.index), new: newPlace(newValue?.index), written: (oldValue, newValue))
        }
    }

    // MARK: Placements

    /// Each placement key of either file, compared with the same key of the other (by its exact
    /// bytes, as the SDK's map finds it: each file's own index of its keys, `entryIndex(forKey:)`).
    private mutating func comparePlacements() {
        let oldEntries = old.entries
        for record in new.entries {
            compareRecords(key: record.key, old: old.topLevel.entryIndex(forKey: record.key).map { oldEntries[$0] }, new: record)
        }
        for record in oldEntries where new.topLevel.entryIndex(forKey: record.key) == nil {
            compareRecords(key: record.key, old: record, new: nil)
        }
    }

    /// The new snapshot's placement keys by the key of the experiment they draw from, built once.
    private mutating func placementsByExperimentKey() -> [ExactKey: [String]] {
        if let placementsByExperimentKey = experimentKeyPlacements { return placementsByExperimentKey }
        var placements: [ExactKey: [String]] = [:]
        for (key, entry) in new.loadedEntries {
            if let experiment = entry.offlineTarget.experiment {
                placements[ExactKey(experiment.key), default: []].append(key)
            }
        }
        experimentKeyPlacements = placements
        return placements
    }

    private func skipReason(_ failure: DecodeFailure, in file: FallbackFile) -> String {
        let pointer = file.location(of: failure.source).pointer
        return "at \(pointer.isEmpty ? "/" : pointer), \(failure.expectation)"
    }

    private mutating func compareRecords(key: String, old oldRecord: EntryRecord?, new newRecord: EntryRecord?) {
        let scope = ChangeScope(placement: key)
        let quotedKey = Format.quoted(key)
        switch (oldRecord, newRecord) {
        case (let oldRecord?, nil):
            if let entry = oldRecord.entry {
                report(
                    .placementRemoved, in: scope,
                    "Placement \(quotedKey) is removed: app code that asks for it gets nothing offline; it served "
                        + "\(entry.offlineTarget.quotedText).",
                    old: oldPlace(oldRecord.value.node), new: nil)
            } else {
                report(
                    .skippedEntryRemoved, in: scope, "Placement \(quotedKey), which the SDK skipped, is removed.",
                    old: oldPlace(oldRecord.value.node),
                    new: nil)
            }
        case (nil, let newRecord?):
            if let entry = newRecord.entry {
                let revision = entry.placement.map { " (revision \($0.revision))" } ?? ""
                var message = "New placement \(quotedKey)\(revision) serves \(entry.offlineTarget.quotedText)"
                if let placement = entry.placement {
                    if !ExactKey.same(placement.identifier, key) {
                        message +=
                            "; its placement.identifier is \(Format.quoted(placement.identifier)), so exposures and "
                            + "presented contexts report \(Format.quoted(placement.identifier)), not \(quotedKey)"
                    }
                }
                if let experimentKey = entry.offlineTarget.experiment?.key {
                    // The placement itself is in the list once (loaded keys are unique). Only the
                    // first few others are named: naming all of them in each of N placements' messages
                    // wrote N² names.
                    let placements = placementsByExperimentKey()[ExactKey(experimentKey), default: []]
                    let named = Array(placements.lazy.filter { !ExactKey.same($0, key) }.prefix(Format.listedLimit))
                    if !named.isEmpty {
                        message +=
                            "; it shares experiment key \(Format.quoted(experimentKey)) with "
                            + "\(Format.quotedList(named, more: placements.count - 1 - named.count)), so a subscriber draws the "
                            + "same variant through either"
                    }
                }
                report(.placementAdded, in: scope, message + ".", old: nil, new: newPlace(newRecord.value.node))
                compareContent(old: nil, new: entry, in: scope)
            } else if let failure = newRecord.failure {
                report(
                    .entryNowSkipped, in: scope,
                    "New placement \(quotedKey) fails to decode, so the SDK skips it (`fallback placement entry skipped: "
                        + "\(key)`): \(skipReason(failure, in: new)). getFunnel/getPaywall(\(quotedKey)) gets nothing offline.",
                    old: nil, new: newPlace(failure.source.node))
            }
        case (let oldRecord?, let newRecord?):
            switch (oldRecord.entry, newRecord.entry) {
            case (let oldEntry?, nil):
                let failure = newRecord.failure!
                report(
                    .entryNowSkipped, in: scope,
                    "The SDK now skips \(quotedKey) (`fallback placement entry skipped: \(key)`): "
                        + "\(skipReason(failure, in: new)). Offline, getFunnel/getPaywall(\(quotedKey)) gets nothing where it "
                        + "served \(oldEntry.offlineTarget.quotedText).",
                    old: oldPlace(oldRecord.value.node), new: newPlace(failure.source.node))
            case (nil, let newEntry?):
                let revision = newEntry.placement.map { " (revision \($0.revision))" } ?? ""
                report(
                    .entryNowLoads, in: scope,
                    "Placement \(quotedKey) decodes again\(revision): it serves \(newEntry.offlineTarget.quotedText) where the SDK "
                        + "skipped it.",
                    old: oldPlace(oldRecord.value.node), new: newPlace(newRecord.value.node))
                compareContent(old: nil, new: newEntry, in: scope)
            case (nil, nil):
                let oldValue = old.document.value(at: oldRecord.value.node)
                let newValue = new.document.value(at: newRecord.value.node)
                if !RawComparison.same(oldValue, newValue), let failure = newRecord.failure {
                    report(
                        .entryStillSkipped, in: scope,
                        "Placement \(quotedKey) changed and the SDK still skips it: \(skipReason(failure, in: new)).",
                        old: oldPlace(oldRecord.value.node), new: newPlace(failure.source.node))
                }
            case (let oldEntry?, let newEntry?):
                let oldValue = old.document.value(at: oldRecord.value.node)
                let newValue = new.document.value(at: newRecord.value.node)
                if !RawComparison.sameText(oldValue, newValue) {
                    compareEntries(oldEntry, newEntry, in: scope)
                }
            }
        case (nil, nil):
            break
        }
    }

    private mutating func compareEntries(_ oldEntry: FallbackEntry, _ newEntry: FallbackEntry, in scope: ChangeScope) {
        let key = scope.placement ?? ""
        if let oldPlacement = oldEntry.placement, let newPlacement = newEntry.placement {
            if !ExactKey.same(oldPlacement.identifier, newPlacement.identifier) {
                report(
                    .identifierChanged, in: scope,
                    "placement.identifier \(Format.quoted(oldPlacement.identifier)) → \(Format.quoted(newPlacement.identifier)): "
                        + "exposures and presented contexts for key \(Format.quoted(key)) now report "
                        + "\(Format.quoted(newPlacement.identifier)).",
                    field: PathStep.text([.member(FallbackEntry.Field.placement), .member(Placement.Field.identifier)]),
                    old: oldPlace(old.fieldRef(.identifier, in: oldPlacement)?.node),
                    new: newPlace(new.fieldRef(.identifier, in: newPlacement)?.node),
                    values: (.string(oldPlacement.identifier), .string(newPlacement.identifier)))
            }
            if oldPlacement.revision != newPlacement.revision {
                let down = newPlacement.revision < oldPlacement.revision ? ": it went down, which the dashboard never does" : ""
                report(
                    .revisionChanged, in: scope, "Revision \(oldPlacement.revision) → \(newPlacement.revision)\(down).",
                    field: PathStep.text([.member(FallbackEntry.Field.placement), .member(Placement.Field.revision)]),
                    old: oldPlace(old.fieldRef(.revision, in: oldPlacement)?.node),
                    new: newPlace(new.fieldRef(.revision, in: newPlacement)?.node),
                    values: (
                        .number(JSONNumber(text: String(oldPlacement.revision))), .number(JSONNumber(text: String(newPlacement.revision)))
                    ))
            }
        }

        let oldTarget = oldEntry.offlineTarget
        let newTarget = newEntry.offlineTarget
        if !oldTarget.isSameTarget(as: newTarget) {
            report(
                .targetChanged, in: scope, "\(Format.quoted(key)) serves \(newTarget.quotedText) instead of \(oldTarget.quotedText).",
                old: oldPlace(targetNode(oldEntry, in: old)), new: newPlace(targetNode(newEntry, in: new)))
        }

        let oldExperiment = oldTarget.experiment
        let newExperiment = newTarget.experiment
        if let oldExperiment, let newExperiment, ExactKey.same(oldExperiment.id, newExperiment.id) {
            compareExperiments(oldExperiment, newExperiment, in: scope)
        } else {
            if let oldExperiment { reportEnded(oldExperiment, now: newTarget, entry: newEntry, in: scope) }
            if let newExperiment { reportStarted(newExperiment, before: oldTarget, entry: oldEntry, in: scope) }
        }
        compareContent(old: oldEntry, new: newEntry, in: scope)
    }

    /// The node of the field that decides what an entry serves.
    private func targetNode(_ entry: FallbackEntry, in file: FallbackFile) -> Int {
        let target = entry.offlineTarget
        let field: FallbackEntry.Field? =
            switch target {
            case .funnel: .funnel
            case .paywall: .paywall
            case .experiment, .nothing: target.decidingExperiment == nil ? nil : .experiment
            }
        return field.flatMap { file.fieldRef($0, in: entry)?.node } ?? entry.source.node
    }

    // MARK: Experiments

    /// The buckets whose drawn variant serves something other than `target`, or nil when `target`
    /// is itself an experiment.
    private func bucketsServingOther(than target: OfflineTarget, in experiment: Experiment) -> Int? {
        if target.experiment != nil { return nil }
        let shares = Bucketing.shares(weights: experiment.variants.map(\.weight))
        return zip(experiment.variants, shares).reduce(0) { total, pair in
            pair.0.offlineTarget.isSameTarget(as: target) ? total : total + pair.1
        }
    }

    private func splitText(_ experiment: Experiment) -> String {
        let shares = Bucketing.shares(weights: experiment.variants.map(\.weight))
        return zip(experiment.variants, shares).map { variant, buckets in
            "\(Format.quoted(variant.variantId)) \(Rebucketing.percent(buckets: buckets, minimumDecimals: 0))%"
        }.joined(separator: ", ")
    }

    private mutating func reportStarted(
        _ experiment: Experiment, before: OfflineTarget, entry oldEntry: FallbackEntry, in scope: ChangeScope
    ) {
        var message =
            "\(Format.quoted(scope.placement ?? "")) starts experiment \(Format.quoted(experiment.id)) (key "
            + "\(Format.quoted(experiment.key))) over \(splitText(experiment))"
        if let buckets = bucketsServingOther(than: before, in: experiment) {
            message +=
                ": \(Rebucketing.percent(buckets: buckets, minimumDecimals: 1))% of subscribers get other content "
                + "than \(before.quotedText)"
        }
        report(
            .experimentStarted, in: scope, message + ".", old: oldPlace(targetNode(oldEntry, in: old)),
            new: newPlace(experiment.source.node))
    }

    private mutating func reportEnded(_ experiment: Experiment, now: OfflineTarget, entry newEntry: FallbackEntry, in scope: ChangeScope) {
        var message =
            "Experiment \(Format.quoted(experiment.id)) (key \(Format.quoted(experiment.key))) ended: "
            + "\(Format.quoted(scope.placement ?? "")) now serves \(now.quotedText)"
        if let buckets = bucketsServingOther(than: now, in: experiment) {
            message +=
                " to every subscriber; \(Rebucketing.percent(buckets: buckets, minimumDecimals: 1))% of subscribers "
                + "drew other content (\(splitText(experiment)))"
        }
        report(
            .experimentEnded, in: scope, message + ".", old: oldPlace(experiment.source.node), new: newPlace(targetNode(newEntry, in: new)))
    }

    private mutating func compareExperiments(_ oldExperiment: Experiment, _ newExperiment: Experiment, in scope: ChangeScope) {
        let name = Format.quoted(newExperiment.id)
        let keyChanged = !ExactKey.same(oldExperiment.key, newExperiment.key)
        if keyChanged {
            report(
                .experimentKeyChanged, in: scope,
                "Experiment \(name) key \(Format.quoted(oldExperiment.key)) → \(Format.quoted(newExperiment.key)): every "
                    + "subscriber's bucket is drawn again from the new key, independently of the old draw.",
                field: PathStep.text([.member(FallbackEntry.Field.experiment), .member(Experiment.Field.key)]),
                old: oldPlace(old.fieldRef(.key, in: oldExperiment)?.node), new: newPlace(new.fieldRef(.key, in: newExperiment)?.node),
                values: (.string(oldExperiment.key), .string(newExperiment.key)))
        }

        // Variants matched by id through lookups: searched for each variant, thousands of them cost
        // their count squared.
        let oldById = Self.firstIndices(of: oldExperiment.variants.lazy.map(\.variantId))
        let newById = Self.firstIndices(of: newExperiment.variants.lazy.map(\.variantId))
        let oldShares = Bucketing.shares(weights: oldExperiment.variants.map(\.weight))
        for (index, variant) in oldExperiment.variants.enumerated() where newById[ExactKey(variant.variantId)] == nil {
            report(
                .variantRemoved, in: scope.variant(variant.variantId),
                "Experiment \(name) lost variant \(Format.quoted(variant.variantId)) (\(variant.offlineTarget.quotedText), "
                    + "\(Rebucketing.percent(buckets: oldShares[index], minimumDecimals: 1))% of subscribers): they draw "
                    + "again from the remaining variants.",
                old: oldPlace(variant.source.node), new: newPlace(new.fieldRef(.variants, in: newExperiment)?.node))
        }
        for variant in newExperiment.variants {
            let variantScope = scope.variant(variant.variantId)
            guard let oldVariant = oldById[ExactKey(variant.variantId)].map({ oldExperiment.variants[$0] }) else {
                report(
                    .variantAdded, in: variantScope,
                    "Experiment \(name) gained variant \(Format.quoted(variant.variantId)) serving \(variant.offlineTarget.quotedText) "
                        + "(weight \(variant.weightText)).",
                    old: oldPlace(old.fieldRef(.variants, in: oldExperiment)?.node), new: newPlace(variant.source.node))
                continue
            }
            let oldTarget = oldVariant.offlineTarget
            let newTarget = variant.offlineTarget
            if !oldTarget.isSameTarget(as: newTarget) {
                report(
                    .targetChanged, in: variantScope,
                    "Variant \(Format.quoted(variant.variantId)) serves \(newTarget.quotedText) instead of \(oldTarget.quotedText).",
                    old: oldPlace(oldVariant.source.node), new: newPlace(variant.source.node))
            }
        }

        let oldSplit = oldExperiment.variants.map { (variantId: $0.variantId, weight: $0.weight) }
        let newSplit = newExperiment.variants.map { (variantId: $0.variantId, weight: $0.weight) }
        let sameSplit =
            oldSplit.count == newSplit.count
            && zip(oldSplit, newSplit).allSatisfy { ExactKey.same($0.variantId, $1.variantId) && $0.weight == $1.weight }
        guard !sameSplit else { return }
        let weightChanges =
            newExperiment.variants.map { variant in
                let before = oldById[ExactKey(variant.variantId)].map { oldExperiment.variants[$0] }
                return "\(Format.quoted(variant.variantId)) "
                    + (before.map { "\($0.weightText) → \(variant.weightText)" } ?? "\(variant.weightText) (new)")
            }
            + oldExperiment.variants.filter { variant in newById[ExactKey(variant.variantId)] == nil }
            .map { "\(Format.quoted($0.variantId)) \($0.weightText) → removed" }
        let message: String
        if keyChanged {
            let shares = { (experiment: Experiment) in
                Bucketing.shares(weights: experiment.variants.map(\.weight)).map { Rebucketing.percent(buckets: $0, minimumDecimals: 0) }
                    .joined(separator: "/")
            }
            message =
                "Experiment \(name) weights changed (\(weightChanges.joined(separator: ", "))): "
                + "\(shares(oldExperiment)) → \(shares(newExperiment)) under a new key, so every subscriber draws afresh."
        } else {
            let moved = Rebucketing(
                placementKey: scope.placement ?? "", experimentId: newExperiment.id, experimentKey: newExperiment.key, old: oldSplit,
                new: newSplit)
            rebucketing.append(moved)
            message =
                "Experiment \(name) weights changed (\(weightChanges.joined(separator: ", "))): \(moved) "
                + "(\(moved.movedBuckets) of \(Bucketing.bucketCount) buckets draw another variant)."
        }
        let weights = { (experiment: Experiment) -> JSONValue in
            .object(experiment.variants.map { JSONValue.Member($0.variantId, .number(JSONNumber(text: $0.weightText))) })
        }
        report(
            .weightsChanged, in: scope, message, field: PathStep.text([.member(FallbackEntry.Field.experiment), .member(Experiment.Field.variants)]),
            old: oldPlace(old.fieldRef(.variants, in: oldExperiment)?.node),
            new: newPlace(new.fieldRef(.variants, in: newExperiment)?.node), values: (weights(oldExperiment), weights(newExperiment)))
    }

    /// Each id's first position among `ids`, compared by their bytes.
    static func firstIndices<Ids: Sequence<String>>(of ids: Ids) -> [ExactKey: Int] {
        var first: [ExactKey: Int] = [:]
        for (index, id) in ids.enumerated() where first[ExactKey(id)] == nil { first[ExactKey(id)] = index }
        return first
    }

    // MARK: Served content

    /// Pairs each new item with an old one of the same id: through the same variant if possible,
    /// else through any variant not yet paired.
    ///
    /// Old items are kept in queues by id, and by id and variant, in their order: each new item takes
    /// the first one not yet paired from a queue, and a queue passes over paired ones once, so N
    /// items with one id cost N steps, not N².
    static func match<Value>(
        _ old: [OfflineTarget.Served<Value>], _ new: [OfflineTarget.Served<Value>], id: (Value) -> String
    ) -> [(old: Value?, new: OfflineTarget.Served<Value>)] {
        var sameId: [ExactKey: MatchQueue] = [:]
        var sameSlot: [MatchSlot: MatchQueue] = [:]
        for index in old.indices {
            let key = ExactKey(id(old[index].value))
            sameId[key, default: MatchQueue()].indices.append(index)
            sameSlot[MatchSlot(id: key, variantId: old[index].variantId.map(ExactKey.init)), default: MatchQueue()].indices.append(index)
        }
        var taken = [Bool](repeating: false, count: old.count)
        func firstFree(_ queue: inout MatchQueue) -> Int? {
            while queue.next < queue.indices.count, taken[queue.indices[queue.next]] { queue.next += 1 }
            return queue.next < queue.indices.count ? queue.indices[queue.next] : nil
        }
        var pairs: [(old: Value?, new: OfflineTarget.Served<Value>)] = []
        for item in new {
            let key = ExactKey(id(item.value))
            let slot = MatchSlot(id: key, variantId: item.variantId.map(ExactKey.init))
            var chosen = sameSlot[slot] == nil ? nil : firstFree(&sameSlot[slot]!)
            if chosen == nil, sameId[key] != nil { chosen = firstFree(&sameId[key]!) }
            if let chosen { taken[chosen] = true }
            pairs.append((chosen.map { old[$0].value }, item))
        }
        return pairs
    }

    /// Compares the funnels and paywalls two entries serve; with no old entry, checks the new one's
    /// paywall pages only.
    mutating func compareContent(old oldEntry: FallbackEntry?, new newEntry: FallbackEntry, in scope: ChangeScope) {
        for pair in Self.match(oldEntry?.offlineTarget.servedFunnels ?? [], newEntry.offlineTarget.servedFunnels, id: \.id) {
            let funnelScope = ChangeScope(placement: scope.placement, variant: pair.new.variantId, funnel: pair.new.value.id)
            if let oldFunnel = pair.old { compareFunnels(oldFunnel, pair.new.value, in: funnelScope) }
            checkPaywallPages(old: pair.old, new: pair.new.value, in: funnelScope)
        }
        if oldEntry != nil {
            for pair in Self.match(oldEntry?.offlineTarget.servedPaywalls ?? [], newEntry.offlineTarget.servedPaywalls, id: \.id) {
                guard let oldPaywall = pair.old else { continue }
                let paywallScope = ChangeScope(placement: scope.placement, variant: pair.new.variantId, paywall: pair.new.value.id)
                comparePaywalls(oldPaywall, pair.new.value, in: paywallScope)
            }
        }
    }
}

/// `DiffRun.match`'s key for old items served through one variant: their id and the variant's.
private struct MatchSlot: Hashable {
    let id: ExactKey
    let variantId: ExactKey?
}

/// `DiffRun.match`'s old items of one key, in order, and where the first not yet paired may be.
private struct MatchQueue {
    var indices: [Int] = []
    var next = 0
}
