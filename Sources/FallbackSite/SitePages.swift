import FallbackAudit
import FallbackDiff
import Foundation
import FallbackMustache
import RovenueFallback

/// A page of the site: where it goes, which template renders it, and how to build its context.
public struct SitePage: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case overview, placement, funnel, experiment, checks, changes, history
    }

    public let kind: Kind
    /// The identifier the page is about (placement key, funnel id, experiment's placement key).
    public let id: String?
    /// The path below the output folder.
    public let path: String

    /// The template that renders the page's body.
    public var template: String { "\(kind.rawValue).md" }

    /// `""` for top-level pages, `"../"` for pages one folder down.
    public var root: String { path.contains("/") ? "../" : "" }
}

extension SiteModel {
    /// Every page of the site, in a stable order.
    public var pages: [SitePage] {
        var pages = [SitePage(kind: .overview, id: nil, path: "index.html"), SitePage(kind: .checks, id: nil, path: "checks.html")]
        if changes != nil { pages.append(SitePage(kind: .changes, id: nil, path: "changes.html")) }
        if timeline != nil { pages.append(SitePage(kind: .history, id: nil, path: "history.html")) }
        pages += snapshot.file.entries.map { SitePage(kind: .placement, id: $0.key, path: placementPath($0.key)) }
        pages += funnels.map { SitePage(kind: .funnel, id: $0.funnel.id, path: "funnels/\($0.fileName).html") }
        pages += experiments.map { SitePage(kind: .experiment, id: $0.placementKey, path: "experiments/\($0.fileName).html") }
        return pages
    }

    /// The page of `kind` about `id`, if the site has one.
    public func page(_ kind: SitePage.Kind, id: String?) -> SitePage? {
        pages.first { $0.kind == kind && $0.id.map(ExactKey.init) == id.map(ExactKey.init) }
    }

    /// The context `page`'s template receives. Trusted HTML (drawings, listings) is registered in `values`.
    public func context(for page: SitePage, values: PageValues) -> MustacheValue {
        var context: [String: MustacheValue] = [
            "root": .string(page.root), "siteTitle": .string(title), "snapshot": .string(snapshot.name),
            "kind": .string(page.kind.rawValue),
        ]
        let specific: [String: MustacheValue]
        switch page.kind {
        case .overview: specific = overviewContext(root: page.root)
        case .checks: specific = checksContext(root: page.root)
        case .placement: specific = placementContext(key: page.id ?? "", root: page.root, values: values)
        case .funnel: specific = funnelContext(id: page.id ?? "", root: page.root, values: values)
        case .experiment: specific = experimentContext(placementKey: page.id ?? "", root: page.root, values: values)
        case .changes: specific = changesContext(root: page.root)
        case .history: specific = historyContext(root: page.root, values: values)
        }
        context.merge(specific) { _, new in new }
        return .dictionary(context)
    }

    /// The most findings one list on a page shows; `check` reports them all.
    static let listedFindingLimit = 500

    /// The first `listedFindingLimit` of `findings`, as a list's context.
    func listedFindings(_ findings: [Finding], root: String) -> MustacheValue {
        .list(findings.prefix(SiteModel.listedFindingLimit).map { SiteModel.finding($0, root: root, model: self) })
    }

    /// How many of `findings` a list leaves out.
    func moreFindings(_ findings: [Finding]) -> Int {
        max(0, findings.count - SiteModel.listedFindingLimit)
    }

    // MARK: Overview

    func overviewContext(root: String) -> [String: MustacheValue] {
        let file = snapshot.file
        var context: [String: MustacheValue] = [
            "projectId": file.projectId?.string.map { SiteModel.name($0) } ?? .null,
            "formatVersion": .string(file.formatVersion.map { $0.number?.text ?? FallbackFile.describeKind($0) } ?? "missing"),
            "size": .string(SiteModel.size(snapshot.bytes.count)), "bytes": .int(snapshot.bytes.count),
            "sha256": .string(SHA256Digest(of: snapshot.bytes).hexString),
            "verdict": .string(file.verdict), "rejected": .bool(file.rejection != nil),
            "counts": SiteModel.severityCounts(snapshot.findings),
            "loaded": .int(file.loadedCount), "entryCount": .int(file.entries.count), "skipped": .int(file.skippedCount),
        ]
        if let milliseconds = file.generatedAtMilliseconds {
            var generated: [String: MustacheValue] = ["iso": .string(EpochMilliseconds.isoDate(milliseconds)), "milliseconds": .string(String(milliseconds))]
            if let referenceDate, case let (age, overflow) = referenceDate.subtractingReportingOverflow(Int(milliseconds / 1000)), !overflow {
                generated["age"] = .string(SiteModel.age(seconds: age))
            }
            context["generatedAt"] = .dictionary(generated)
        }
        if let rejection = file.rejection {
            context["rejection"] = .dictionary([
                "message": .string(rejection.message), "rule": .string(rejection.rule.section),
                "summary": .string(rejection.rule.summary), "line": .int(rejection.position.line), "column": .int(rejection.position.column),
            ])
        }
        context["placements"] = .list(
            file.entries.map { record in
                let findings = findings(forPlacement: record.key)
                let serving = SiteModel.serving(record.entry)
                let revision = record.entry?.placement.map { MustacheValue.string(String($0.revision)) } ?? .null
                return .dictionary([
                    "key": SiteModel.name(record.key), "path": .string(root + placementPath(record.key)), "revision": revision,
                    "kind": .string(serving.kind), "icon": .string(serving.icon),
                    "serves": .string(serving.text), "findingCount": .int(findings.count),
                    "findingNoun": .string(findings.count == 1 ? "finding" : "findings"),
                    "severity": .string(SiteModel.worstSeverity(findings)), "skipped": .bool(record.entry == nil),
                    "search": .string(
                        [record.key, record.entry?.placement?.identifier ?? "", serving.text].map { SnapshotText.spelledOut(SnapshotText.shortened($0)) }
                            .joined(separator: " ").lowercased()),
                ])
            })
        context["hasPlacements"] = .bool(!file.entries.isEmpty)
        return context
    }

    // MARK: Changes

    func changesContext(root: String) -> [String: MustacheValue] {
        guard let diff = changes, let baseline else { return [:] }
        let loaded = Set(snapshot.file.entries.map { Array($0.key.utf8) })
        func link(_ key: String?) -> MustacheValue {
            guard let key, loaded.contains(Array(key.utf8)) else { return .null }
            return .string(root + placementPath(key))
        }
        let groups = ChangeClass.allCases.compactMap { changeClass -> MustacheValue? in
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { return nil }
            let items = changes.map { change -> MustacheValue in
                var item: [String: MustacheValue] = [
                    "kind": .string(change.kind.id), "message": .string(change.message),
                    "placement": change.placementKey.map { SiteModel.name($0) } ?? .null, "placementPath": link(change.placementKey),
                ]
                if let old = change.oldValue { item["from"] = .string(old) }
                if let new = change.newValue { item["to"] = .string(new) }
                if let location = change.newLocation ?? change.oldLocation {
                    item["line"] = .int(location.line)
                    item["column"] = .int(location.column)
                    item["pointer"] = .string(SnapshotText.shortenedPointer(location.pointer))
                    // The placement's page anchors every change location it lists (see `changeAnchorsByPlacement`).
                    if change.newLocation != nil { item["anchor"] = .string(SourceListing.anchor(line: location.line, column: location.column)) }
                }
                return .dictionary(item)
            }
            let title: String =
                switch changeClass {
                case .breaking: "Breaking"
                case .notable: "Notable"
                case .info: "Info"
                }
            return .dictionary([
                "class": .string(changeClass.rawValue), "title": .string(title), "count": .int(changes.count), "changes": .list(items),
            ])
        }
        let rebucketing = diff.rebucketing.map { item -> MustacheValue in
            .dictionary([
                "placement": SiteModel.name(item.placementKey), "placementPath": link(item.placementKey),
                "experiment": SiteModel.name(item.experimentId), "split": .string(item.splitText),
                "moved": .string(item.movedPercent), "movedBuckets": .int(item.movedBuckets),
            ])
        }
        return [
            "baseline": .string(baseline.name), "baselineVerdict": .string(baseline.file.verdict),
            "groups": .list(groups), "hasChanges": .bool(!diff.changes.isEmpty),
            "rebucketing": .list(rebucketing), "hasRebucketing": .bool(!rebucketing.isEmpty),
            "breaking": .int(diff.count(.breaking)), "notable": .int(diff.count(.notable)), "infos": .int(diff.count(.info)),
        ]
    }

    // MARK: History

    func historyContext(root: String, values: PageValues) -> [String: MustacheValue] {
        guard let timeline else { return [:] }
        let snapshots = timeline.snapshots.reversed().map { record -> MustacheValue in
            var item: [String: MustacheValue] = [
                "name": .string(record.stamp.name), "counts": .string(record.countsSummary),
                "summary": .string(record.changes.summary), "rejected": .bool(record.rejection != nil),
                "entries": .int(record.entryCount), "loaded": .int(record.loadedCount), "skipped": .int(record.skippedCount),
                "errors": .int(record.findingCounts.errors), "warnings": .int(record.findingCounts.warnings),
                "infos": .int(record.findingCounts.infos),
                "current": .bool(record.stamp.index == timeline.currentIndex),
            ]
            if let generatedAt = record.stamp.generatedAt { item["date"] = .string(EpochMilliseconds.isoDate(generatedAt)) }
            if let commit = record.stamp.commit {
                item["commit"] = .dictionary(["hash": .string(commit.shortHash), "date": .string(commit.authorDate), "subject": .string(commit.subject)])
            }
            return .dictionary(item)
        }
        let findings = timeline.findings.map { item -> MustacheValue in
            .dictionary([
                "rule": .string(item.finding.ruleId.rawValue), "severity": .string(item.finding.severity.rawValue),
                "message": .string(item.finding.message), "snapshot": .string(item.snapshot.name),
                "placement": item.finding.placementKey.map { SiteModel.name($0) } ?? .null,
                "line": .int(item.finding.line), "column": .int(item.finding.column),
                "pointer": .string(SnapshotText.shortenedPointer(item.finding.pointer)),
            ])
        }
        return [
            "snapshots": .list(snapshots), "snapshotCount": .int(timeline.snapshots.count),
            "findings": .list(findings), "hasFindings": .bool(!findings.isEmpty),
            "chart": values.html(HistoryChart.svg(for: timeline.snapshots)),
        ]
    }

    // MARK: Checks

    func checksContext(root: String) -> [String: MustacheValue] {
        let groups = Severity.allCases.sorted(by: >).compactMap { severity -> MustacheValue? in
            let findings = snapshot.findings.filter { $0.severity == severity }
            guard !findings.isEmpty else { return nil }
            let byRule = Dictionary(grouping: findings, by: \.ruleId)
            let rules = byRule.keys.sorted().map { id -> MustacheValue in
                .dictionary([
                    "rule": .string(id.rawValue), "summary": .string(Rule(id: id)?.summary ?? ""), "count": .int(byRule[id]!.count),
                    "findings": listedFindings(byRule[id]!, root: root), "moreFindings": .int(moreFindings(byRule[id]!)),
                ])
            }
            let (anchor, heading): (String, String) =
                switch severity {
                case .error: ("errors", "Errors")
                case .warning: ("warnings", "Warnings")
                case .info: ("infos", "Info")
                }
            return .dictionary([
                "severity": .string(severity.rawValue), "anchor": .string(anchor), "title": .string(heading),
                "count": .int(findings.count), "rules": .list(rules),
            ])
        }
        return ["groups": .list(groups), "counts": SiteModel.severityCounts(snapshot.findings), "hasFindings": .bool(!snapshot.findings.isEmpty)]
    }

    // MARK: Placement

    func placementContext(key: String, root: String, values: PageValues) -> [String: MustacheValue] {
        let file = snapshot.file
        guard let record = file.entries.first(where: { ExactKey.same($0.key, key) }) else { return [:] }
        let findings = findings(forPlacement: key)
        let serving = SiteModel.serving(record.entry)
        var context: [String: MustacheValue] = [
            "key": SiteModel.name(key), "fullKey": SiteModel.fullName(key, values: values), "serves": .string(serving.text), "servesKind": .string(serving.kind),
            "servesIcon": .string(serving.icon),
            "occurrencesNote": record.keyRefs.count > 1 ? .string("(written \(record.keyRefs.count) times; the SDK keeps the last)") : .null,
            "findings": listedFindings(findings, root: root), "moreFindings": .int(moreFindings(findings)),
            "counts": SiteModel.severityCounts(findings), "occurrences": .int(record.keyRefs.count),
        ]
        if let failure = record.failure {
            let location = file.location(of: failure.source)
            context["skip"] = .dictionary([
                "reason": .string("\(SnapshotText.shortenedPointer(location.pointer)): \(failure.expectation)"), "line": .int(location.line), "column": .int(location.column),
            ])
        }
        if let entry = record.entry {
            if let placement = entry.placement {
                context["identifier"] = SiteModel.name(placement.identifier)
                context["revision"] = .string(String(placement.revision))
                context["keyMismatch"] = .bool(!ExactKey.same(placement.identifier, key))
            }
            let target = entry.offlineTarget
            switch target {
            case .funnel(let funnel):
                context["funnel"] = funnelLink(funnel.id, root: root)
            case .paywall(let paywall):
                context["paywall"] = .dictionary([
                    "id": SiteModel.name(paywall.id), "identifier": SiteModel.name(paywall.identifier), "name": .string(paywall.name),
                ])
            case .experiment, .nothing:
                break
            }
            if let experiment = SiteModel.decidingExperiment(entry, target: target), let info = experimentInfo(placementKey: key) {
                context["experiment"] = .dictionary([
                    "id": SiteModel.name(experiment.id), "key": SiteModel.name(experiment.key), "variantCount": .int(experiment.variants.count),
                    "path": .string(root + "experiments/\(info.fileName).html"),
                ])
            }
        }
        if let history = timeline?.placement(key) {
            context["revisions"] = .list(
                history.revisions.reversed().map { revision in
                    .dictionary([
                        "revision": revision.revisionText.map { .string($0) } ?? .null,
                        "snapshot": .string(revision.firstSeen.name),
                        "date": revision.firstSeen.generatedAt.map { .string(EpochMilliseconds.isoDate($0)) } ?? .null,
                        "commit": revision.firstSeen.commit.map { .string($0.shortHash) } ?? .null,
                        "summary": .string(revision.summary), "removed": .bool(revision.isRemoved),
                        "served": revision.served.map { .string($0.description) } ?? .null,
                    ])
                })
            context["hasRevisions"] = .bool(true)
        }
        let entryValue = file.document.value(at: record.value.node)
        context["source"] = values.html(
            SourceListing.html(for: entryValue, key: key, findings: findings, linkedFrom: changeAnchorsByPlacement[ExactKey(key)] ?? []))
        return context
    }

    func funnelLink(_ id: String, root: String) -> MustacheValue {
        guard let info = funnelInfo(id: id) else { return .null }
        return .dictionary([
            "id": SiteModel.name(id), "slug": SiteModel.name(info.funnel.slug), "name": .string(info.funnel.name ?? info.funnel.slug),
            "path": .string(root + "funnels/\(info.fileName).html"), "pageCount": .int(info.funnel.pages.count),
        ])
    }

    // MARK: Funnel

    func funnelContext(id: String, root: String, values: PageValues) -> [String: MustacheValue] {
        guard let info = funnelInfo(id: id) else { return [:] }
        let funnel = info.funnel
        let locale = funnel.defaultLocale ?? funnel.locales?.first
        let funnelFindings = findings(forFunnel: id)
        // The pages of the copy shown that the audit found unreachable, by position, not id: a
        // reachable page may share its id with an unreachable one.
        let unreachable = Set(
            funnelFindings.compactMap { finding -> Int? in
                guard finding.ruleId == Rule.pageUnreachable.id, case .page(info.shown, let index, _) = finding.subject else { return nil }
                return index
            })
        // Rows are anchored by a safe, bounded name of their page id.
        let anchors = PageNames(identifiers: funnel.pages.map(\.id))
        func anchor(_ pageId: String) -> String { "page-" + anchors.name(for: pageId) }
        var pages: [MustacheValue] = []
        var media: [MustacheValue] = []
        for (index, page) in funnel.pages.enumerated() {
            let options = (page.options ?? []).map { option -> MustacheValue in
                .dictionary(["label": .string(SiteModel.text(option.label, locale: locale) ?? ""), "value": SiteModel.name(option.value)])
            }
            let rules = (page.nextRules ?? []).map { rule -> MustacheValue in
                .dictionary(["id": SiteModel.name(rule.id), "goto": SiteModel.name(rule.goto), "condition": .string(FunnelGraph.text(of: rule.condition))])
            }
            pages.append(.dictionary([
                "number": .int(index + 1), "id": SiteModel.name(page.id), "anchor": .string(anchor(page.id)), "type": SiteModel.name(page.type),
                "title": SiteModel.text(page.title ?? page.headline, locale: locale).map { .string($0) } ?? .null,
                "question": page.questionId.map { SiteModel.name($0) } ?? .null,
                "options": .list(options), "hasOptions": .bool(!options.isEmpty),
                "rules": .list(rules), "hasRules": .bool(!rules.isEmpty),
                "defaultNext": page.defaultNext.map { SiteModel.name($0) } ?? .null,
                "paywallId": page.paywallId.map { SiteModel.name($0) } ?? .null,
                "unreachable": .bool(unreachable.contains(index)),
            ]))
            for (path, url) in RemoteMedia.urls(on: page, in: snapshot.file) {
                var item: [String: MustacheValue] = [
                    "page": SiteModel.name(page.id), "anchor": .string(anchor(page.id)), "field": .string(SnapshotText.shortenedPointer(path)),
                    "url": .string(url),
                ]
                if SiteModel.isWebURL(url) { item["href"] = .string(url) }
                media.append(.dictionary(item))
            }
        }
        let locales = funnel.locales ?? []
        let coverage = locales.map { locale -> MustacheValue in
            let (present, total) = FunnelText.coverage(of: funnel, locale: locale)
            return .dictionary([
                "locale": SiteModel.name(locale), "present": .int(present), "total": .int(total),
                "percent": .int(total == 0 ? 100 : present * 100 / total), "complete": .bool(present == total),
            ])
        }
        let uses = info.uses.map { use -> MustacheValue in
            .dictionary([
                "placement": SiteModel.name(use.placementKey), "path": .string(root + placementPath(use.placementKey)),
                "variant": use.variantId.map { SiteModel.name($0) } ?? .null,
            ])
        }
        return [
            "id": SiteModel.name(funnel.id), "fullId": SiteModel.fullName(funnel.id, values: values), "slug": SiteModel.name(funnel.slug),
            "name": .string(funnel.name ?? funnel.slug),
            "version": funnel.versionNo.map { .string(String($0)) } ?? .null, "versionId": funnel.versionId.map { SiteModel.name($0) } ?? .null,
            "defaultLocale": locale.map { SiteModel.name($0) } ?? .null, "locales": .list(coverage), "hasLocales": .bool(!locales.isEmpty),
            "pages": .list(pages), "pageCount": .int(funnel.pages.count), "media": .list(media), "hasMedia": .bool(!media.isEmpty),
            "uses": .list(uses), "findings": listedFindings(funnelFindings, root: root), "moreFindings": .int(moreFindings(funnelFindings)),
            "hasFindings": .bool(!funnelFindings.isEmpty),
            "paywalls": .list((funnel.paywalls?.keys ?? []).map { SiteModel.name($0) }),
            "drawing": values.html(
                FunnelDrawing(funnel: funnel, unreachablePageIndices: unreachable, locale: locale).svg),
        ]
    }

    // MARK: Experiment

    func experimentContext(placementKey: String, root: String, values: PageValues) -> [String: MustacheValue] {
        guard let info = experimentInfo(placementKey: placementKey) else { return [:] }
        let experiment = info.experiment
        let experimentFindings = findings(forExperimentOf: placementKey)
        let weights = experiment.variants.map(\.weight)
        let ranges = Bucketing.bucketRanges(weights: weights)
        let shares = Bucketing.shares(weights: weights)
        let sum = weights.reduce(0, +)
        let variants = experiment.variants.enumerated().map { index, variant -> MustacheValue in
            var context: [String: MustacheValue] = [
                "index": .int(index), "colour": .int(index % 8), "variantId": SiteModel.name(variant.variantId),
                // What the lookup shows when it draws this variant (site.js writes it as text).
                "variantLabel": .string(SnapshotText.spelledOut(SnapshotText.shortened(variant.variantId))),
                "weight": .string(variant.weightText),
                // What the lookup draws with: the SDK's value (§2.1, not what JSON.parse makes of the
                // text), as the shortest text that `parseFloat` reads back to exactly that double.
                "weightValue": .string(variant.weight.description),
                "buckets": .string(ranges[index].map { "\($0.lowerBound)–\($0.upperBound)" } ?? "none"),
                "share": .string(String(format: "%.2f%%", Double(shares[index]) / 100)),
            ]
            switch variant.offlineTarget {
            case .funnel(let funnel):
                context["funnel"] = funnelLink(funnel.id, root: root)
            case .paywall(let paywall):
                context["paywall"] = .dictionary(["id": SiteModel.name(paywall.id), "identifier": SiteModel.name(paywall.identifier)])
            case .experiment, .nothing:
                break
            }
            return .dictionary(context)
        }
        return [
            "id": SiteModel.name(experiment.id), "key": SiteModel.name(experiment.key), "lookupKey": .string(experiment.key),
            "placement": SiteModel.name(placementKey),
            "placementPath": .string(root + placementPath(placementKey)), "variants": .list(variants),
            "hasVariants": .bool(!variants.isEmpty), "serves": .string(info.serves), "variantCount": .int(variants.count), "weightsSumToOne": .bool(abs(sum - 1) <= 1e-9),
            "findings": listedFindings(experimentFindings, root: root), "moreFindings": .int(moreFindings(experimentFindings)),
            "hasFindings": .bool(!experimentFindings.isEmpty),
            "weightSum": .string(JSONNumber(sum).text),
            "allocation": values.html(
                AllocationBar.svg(variantIds: experiment.variants.map { SnapshotText.spelledOut(SnapshotText.shortened($0.variantId)) }, shares: shares)),
        ]
    }
}

extension FallbackFile {
    static func describeKind(_ value: JSONDocument.Value) -> String {
        value.kind == .string ? JSONValue.quoted(value.string ?? "") : value.kind.article
    }
}
