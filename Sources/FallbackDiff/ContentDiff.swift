import FallbackAudit
import RovenueFallback

extension DiffRun {
    /// More differing values than this under one field are reported as one change of the field.
    static let differenceLimit = 12

    /// Keys whose values are media: a change under one is `media-changed`.
    static let mediaKeys: Set<String> = AuditRun.mediaKeys.union(["mediaKind", "videoUrl", "lottieUrl", "animationUrl"])

    /// A field's name and its written value on each side.
    typealias FieldPair = (name: String, old: JSONDocument.Value?, new: JSONDocument.Value?)

    /// The fields of both sides, in the new side's order, then those only the old side has.
    static func pairs(_ old: [WrittenField], _ new: [WrittenField]) -> [FieldPair] {
        var oldByName: [ExactKey: JSONDocument.Value] = [:]
        for field in old { oldByName[ExactKey(field.name)] = field.value }
        var seen: Set<ExactKey> = []
        var result: [FieldPair] = []
        for field in new {
            let key = ExactKey(field.name)
            seen.insert(key)
            result.append((field.name, oldByName[key], field.value))
        }
        for field in old where !seen.contains(ExactKey(field.name)) {
            result.append((field.name, field.value, nil))
        }
        return result
    }

    static func differ(_ old: JSONDocument.Value?, _ new: JSONDocument.Value?) -> Bool {
        switch (old, new) {
        case (nil, nil): false
        case (let old?, let new?): !RawComparison.same(old, new)
        default: true
        }
    }

    static func verb(_ old: JSONDocument.Value?, _ new: JSONDocument.Value?) -> String {
        old == nil ? "added" : new == nil ? "removed" : "changed"
    }

    /// Reports a whole field as one change; its details are built only when the run keeps changes.
    func reportField(
        _ kind: ChangeKind, in scope: ChangeScope, _ path: @autoclosure () -> [PathStep], _ old: JSONDocument.Value?,
        _ new: JSONDocument.Value?, oldAnchor: Int, newAnchor: Int, message: @autoclosure () -> String? = nil,
        copy: @autoclosure () -> CopyChange? = nil
    ) {
        report(
            kind, in: scope, message() ?? "\(scope.whereText): \(PathStep.text(path())) \(Self.verb(old, new)).",
            field: PathStep.text(path()), old: oldPlace(old?.index ?? oldAnchor), new: newPlace(new?.index ?? newAnchor),
            written: (old, new), copy: copy())
    }

    /// Reports each value that differs under a field, as `base` (or `media-changed` under a media
    /// key); past `differenceLimit` values, the field as a whole.
    mutating func compareValues(
        _ old: JSONDocument.Value?, _ new: JSONDocument.Value?, path: [PathStep], base: ChangeKind, oldAnchor: Int, newAnchor: Int,
        in scope: ChangeScope
    ) {
        guard Self.differ(old, new) else { return }
        // One more than the limit: enough to know the field is reported whole.
        var search = DifferenceSearch(keeping: Self.differenceLimit + 1)
        search.compare(
            old, new, path: path,
            arrayKey: path.last.flatMap { step in
                if case .member(let name) = step { return RawComparison.keyedArrays[name] }
                return nil
            }, oldAnchor: oldAnchor, newAnchor: newAnchor)
        if search.count > Self.differenceLimit {
            reportField(
                Self.isMedia(path) ? .mediaChanged : base, in: scope, path, old, new, oldAnchor: oldAnchor, newAnchor: newAnchor,
                message: "\(scope.whereText): \(PathStep.text(path)): \(search.count) values changed.")
            return
        }
        for leaf in search.differences {
            reportField(
                Self.isMedia(leaf.path) ? .mediaChanged : base, in: scope, leaf.path, leaf.old, leaf.new, oldAnchor: leaf.oldAnchor,
                newAnchor: leaf.newAnchor)
        }
    }

    static func isMedia(_ path: [PathStep]) -> Bool {
        path.contains { step in
            if case .member(let name) = step { return mediaKeys.contains(name) }
            return false
        }
    }

    // MARK: Funnels

    mutating func compareFunnels(_ old: Funnel, _ new: Funnel, in scope: ChangeScope) {
        if old.versionNo != new.versionNo || !Self.sameOptional(old.versionId, new.versionId) {
            let version = { (funnel: Funnel) -> JSONValue in
                .object([
                    .init(Funnel.Field.versionId.rawValue, funnel.versionId.map { .string($0) } ?? nil),
                    .init(Funnel.Field.versionNo.rawValue, funnel.versionNo.map { .number(JSONNumber(text: String($0))) } ?? nil),
                ])
            }
            report(
                .funnelVersionChanged, in: scope, "\(scope.whereText): version \(Self.versionText(old)) → \(Self.versionText(new)).", field: Funnel.Field.versionNo.rawValue,
                old: oldPlace(self.old.fieldRef(.versionNo, in: old)?.node ?? old.source.node),
                new: newPlace(self.new.fieldRef(.versionNo, in: new)?.node ?? new.source.node), values: (version(old), version(new)))
        }
        let skipped = Set([Funnel.Field.id, .pages, .paywalls, .versionNo, .versionId].map(\.rawValue))
        for field in Self.pairs(RawComparison.fields(of: old, in: self.old.document), RawComparison.fields(of: new, in: self.new.document))
        where !skipped.contains(field.name) {
            compareValues(
                field.old, field.new, path: [.member(field.name)], base: .fieldChanged, oldAnchor: old.source.node,
                newAnchor: new.source.node, in: scope)
        }
        comparePages(old, new, in: scope)
        compareFunnelPaywalls(old, new, in: scope)
    }

    static func sameOptional(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): ExactKey.same(lhs, rhs)
        default: false
        }
    }

    static func versionText(_ funnel: Funnel) -> String {
        switch (funnel.versionNo, funnel.versionId) {
        case (let number?, let id?): "v\(number) (\(Format.quoted(id)))"
        case (let number?, nil): "v\(number)"
        case (nil, let id?): Format.quoted(id)
        case (nil, nil): "none"
        }
    }

    /// The first index of each id.
    private static func firstIndices<T>(_ items: [T], id: (T) -> String) -> [ExactKey: Int] {
        var indices: [ExactKey: Int] = [:]
        for (index, item) in items.enumerated() where indices[ExactKey(id(item))] == nil {
            indices[ExactKey(id(item))] = index
        }
        return indices
    }

    /// The ids both lists have, in `items`' order (first occurrences only).
    private static func commonOrder<T>(_ items: [T], _ others: [ExactKey: Int], id: (T) -> String) -> [String] {
        var seen: Set<ExactKey> = []
        return items.compactMap { item in
            let key = ExactKey(id(item))
            return others[key] != nil && seen.insert(key).inserted ? id(item) : nil
        }
    }

    private mutating func comparePages(_ old: Funnel, _ new: Funnel, in scope: ChangeScope) {
        let oldIndices = Self.firstIndices(old.pages, id: \.id)
        let newIndices = Self.firstIndices(new.pages, id: \.id)
        let oldPagesNode = self.old.fieldRef(.pages, in: old)?.node ?? old.source.node
        let newPagesNode = self.new.fieldRef(.pages, in: new)?.node ?? new.source.node

        for (index, page) in old.pages.enumerated() where newIndices[ExactKey(page.id)] == nil && oldIndices[ExactKey(page.id)] == index
        {
            let scope = scope.page(page.id)
            report(
                .pageRemoved, in: scope, "\(scope.whereText) (\(page.type)) removed.", old: oldPlace(page.source.node),
                new: newPlace(newPagesNode),
                values: (.string(page.id), nil))
        }
        for (index, page) in new.pages.enumerated() where oldIndices[ExactKey(page.id)] == nil && newIndices[ExactKey(page.id)] == index
        {
            let scope = scope.page(page.id)
            report(
                .pageAdded, in: scope,
                "\(scope.whereText) (\(page.type)) added "
                    + (index == 0 ? "as the first page." : "after \(Format.quoted(new.pages[index - 1].id))."),
                old: oldPlace(oldPagesNode),
                new: newPlace(page.source.node),
                values: (nil, .string(page.id)))
        }
        let oldOrder = Self.commonOrder(old.pages, newIndices, id: \.id)
        let newOrder = Self.commonOrder(new.pages, oldIndices, id: \.id)
        if !oldOrder.elementsEqual(newOrder, by: ExactKey.same) {
            report(
                .pagesReordered, in: scope,
                "\(scope.whereText): pages are in another order, which changes where a page without a matching rule "
                    + "or default_next goes next.",
                field: Funnel.Field.pages.rawValue, old: oldPlace(oldPagesNode), new: newPlace(newPagesNode),
                values: (.array(oldOrder.map { .string($0) }), .array(newOrder.map { .string($0) })))
        }
        for (index, page) in new.pages.enumerated() where newIndices[ExactKey(page.id)] == index {
            guard let oldIndex = oldIndices[ExactKey(page.id)] else { continue }
            comparePage(old.pages[oldIndex], page, in: scope.page(page.id))
        }
    }

    private static let copyFields = Set(Page.Field.textFields + Page.Field.textListFields)

    private mutating func comparePage(_ old: Page, _ new: Page, in scope: ChangeScope) {
        let oldNode = old.source.node
        let newNode = new.source.node
        for field in Self.pairs(RawComparison.fields(of: old, in: self.old.document), RawComparison.fields(of: new, in: self.new.document))
        {
            switch Page.Field(rawValue: field.name) {
            case .id?:
                continue
            case .options?:
                compareOptions(old, new, in: scope)
            case .nextRules?:
                compareRules(old, new, in: scope)
            case .defaultNext?:
                guard Self.differ(field.old, field.new) else { continue }
                reportField(
                    .ruleChanged, in: scope, [.member(Page.Field.defaultNext)], field.old, field.new, oldAnchor: oldNode, newAnchor: newNode,
                    message: "\(scope.whereText): default_next \(Self.targetText(field.old)) → \(Self.targetText(field.new)).")
            case .paywallId?:
                guard Self.differ(field.old, field.new) else { continue }
                reportField(
                    .pagePaywallChanged, in: scope, [.member(Page.Field.paywallId)], field.old, field.new, oldAnchor: oldNode, newAnchor: newNode,
                    message: "\(scope.whereText): shows paywall \(Self.targetText(field.new)) instead of \(Self.targetText(field.old)).")
            case let copy? where Self.copyFields.contains(copy):
                guard Self.differ(field.old, field.new) else { continue }
                reportField(
                    .copyChanged, in: scope, [.member(field.name)], field.old, field.new, oldAnchor: oldNode, newAnchor: newNode,
                    copy: Page.Field.textListFields.contains(copy)
                        ? CopyChange(old: .init(old.textList(copy)), new: .init(new.textList(copy)))
                        : CopyChange(old: .init(old.text(copy)), new: .init(new.text(copy))))
            default:
                compareValues(
                    field.old, field.new, path: [.member(field.name)], base: .fieldChanged, oldAnchor: oldNode, newAnchor: newNode,
                    in: scope)
            }
        }
    }

    private static func targetText(_ value: JSONDocument.Value?) -> String {
        guard let value else { return "none" }
        return value.string.map(Format.quoted) ?? Format.json(value.owned)
    }

    private mutating func compareOptions(_ old: Page, _ new: Page, in scope: ChangeScope) {
        let oldOptions = old.options ?? []
        let newOptions = new.options ?? []
        let oldIndices = Self.firstIndices(oldOptions, id: \.value)
        let newIndices = Self.firstIndices(newOptions, id: \.value)
        let oldAnchor = self.old.fieldRef(.options, in: old)?.node ?? old.source.node
        let newAnchor = self.new.fieldRef(.options, in: new)?.node ?? new.source.node
        let path = { (value: String) -> [PathStep] in [.member(Page.Field.options), .matched(field: PageOption.Field.value, value: value)] }

        for (index, option) in oldOptions.enumerated()
        where newIndices[ExactKey(option.value)] == nil && oldIndices[ExactKey(option.value)] == index {
            reportField(
                .optionsChanged, in: scope, path(option.value), self.old.document.value(at: option.source.node), nil, oldAnchor: oldAnchor,
                newAnchor: newAnchor, message: "\(scope.whereText): option \(Format.quoted(option.value)) removed.")
        }
        for (index, option) in newOptions.enumerated()
        where oldIndices[ExactKey(option.value)] == nil && newIndices[ExactKey(option.value)] == index {
            reportField(
                .optionsChanged, in: scope, path(option.value), nil, self.new.document.value(at: option.source.node), oldAnchor: oldAnchor,
                newAnchor: newAnchor, message: "\(scope.whereText): option \(Format.quoted(option.value)) added.")
        }
        let oldOrder = Self.commonOrder(oldOptions, newIndices, id: \.value)
        let newOrder = Self.commonOrder(newOptions, oldIndices, id: \.value)
        if !oldOrder.elementsEqual(newOrder, by: ExactKey.same) {
            report(
                .optionsChanged, in: scope, "\(scope.whereText): options are in another order.", field: Page.Field.options.rawValue, old: oldPlace(oldAnchor),
                new: newPlace(newAnchor), values: (.array(oldOrder.map { .string($0) }), .array(newOrder.map { .string($0) })))
        }
        for (index, option) in newOptions.enumerated() where newIndices[ExactKey(option.value)] == index {
            guard let oldIndex = oldIndices[ExactKey(option.value)] else { continue }
            let oldOption = oldOptions[oldIndex]
            for field in Self.pairs(
                RawComparison.fields(of: oldOption, in: self.old.document), RawComparison.fields(of: option, in: self.new.document))
            where field.name != PageOption.Field.value.rawValue {
                let fieldPath = path(option.value) + [.member(field.name)]
                if field.name == PageOption.Field.label.rawValue {
                    guard Self.differ(field.old, field.new) else { continue }
                    reportField(
                        .copyChanged, in: scope, fieldPath, field.old, field.new, oldAnchor: oldOption.source.node,
                        newAnchor: option.source.node, copy: CopyChange(old: .init(oldOption.label), new: .init(option.label)))
                } else {
                    compareValues(
                        field.old, field.new, path: fieldPath, base: .fieldChanged, oldAnchor: oldOption.source.node,
                        newAnchor: option.source.node, in: scope)
                }
            }
        }
    }

    private mutating func compareRules(_ old: Page, _ new: Page, in scope: ChangeScope) {
        let oldRules = old.nextRules ?? []
        let newRules = new.nextRules ?? []
        let oldIndices = Self.firstIndices(oldRules, id: \.id)
        let newIndices = Self.firstIndices(newRules, id: \.id)
        let oldAnchor = self.old.fieldRef(.nextRules, in: old)?.node ?? old.source.node
        let newAnchor = self.new.fieldRef(.nextRules, in: new)?.node ?? new.source.node
        let path = { (id: String) -> [PathStep] in [.member(Page.Field.nextRules), .matched(field: NextRule.Field.id, value: id)] }

        for (index, rule) in oldRules.enumerated() where newIndices[ExactKey(rule.id)] == nil && oldIndices[ExactKey(rule.id)] == index
        {
            reportField(
                .ruleChanged, in: scope, path(rule.id), self.old.document.value(at: rule.source.node), nil, oldAnchor: oldAnchor,
                newAnchor: newAnchor,
                message: "\(scope.whereText): rule \(Format.quoted(rule.id)) (goto \(Format.quoted(rule.goto))) removed.")
        }
        for (index, rule) in newRules.enumerated() where oldIndices[ExactKey(rule.id)] == nil && newIndices[ExactKey(rule.id)] == index
        {
            reportField(
                .ruleChanged, in: scope, path(rule.id), nil, self.new.document.value(at: rule.source.node), oldAnchor: oldAnchor,
                newAnchor: newAnchor,
                message: "\(scope.whereText): rule \(Format.quoted(rule.id)) (goto \(Format.quoted(rule.goto))) added.")
        }
        let oldOrder = Self.commonOrder(oldRules, newIndices, id: \.id)
        let newOrder = Self.commonOrder(newRules, oldIndices, id: \.id)
        if !oldOrder.elementsEqual(newOrder, by: ExactKey.same) {
            report(
                .ruleChanged, in: scope, "\(scope.whereText): rules are in another order, and the first rule that matches wins.", field: Page.Field.nextRules.rawValue,
                old: oldPlace(oldAnchor), new: newPlace(newAnchor),
                values: (.array(oldOrder.map { .string($0) }), .array(newOrder.map { .string($0) })))
        }
        for (index, rule) in newRules.enumerated() where newIndices[ExactKey(rule.id)] == index {
            guard let oldIndex = oldIndices[ExactKey(rule.id)] else { continue }
            let oldValue = self.old.document.value(at: oldRules[oldIndex].source.node)
            let newValue = self.new.document.value(at: rule.source.node)
            guard !RawComparison.same(oldValue, newValue) else { continue }
            var search = DifferenceSearch(keeping: 1)
            search.compare(oldValue, newValue, path: path(rule.id), oldAnchor: oldValue.index, newAnchor: newValue.index)
            if search.count == 1, let leaf = search.differences.first {
                reportField(
                    .ruleChanged, in: scope, leaf.path, leaf.old, leaf.new, oldAnchor: leaf.oldAnchor, newAnchor: leaf.newAnchor,
                    message: "\(scope.whereText): rule \(Format.quoted(rule.id)) changed "
                        + "(\(PathStep.text(Array(leaf.path.dropFirst(2)))) \(Self.verb(leaf.old, leaf.new))).")
            } else {
                reportField(
                    .ruleChanged, in: scope, path(rule.id), oldValue, newValue, oldAnchor: oldAnchor, newAnchor: newAnchor,
                    message: "\(scope.whereText): rule \(Format.quoted(rule.id)) changed (\(search.count) values).")
            }
        }
    }

    // MARK: Paywalls

    private mutating func compareFunnelPaywalls(_ old: Funnel, _ new: Funnel, in scope: ChangeScope) {
        let oldPaywalls = old.paywalls ?? OrderedMap()
        let newPaywalls = new.paywalls ?? OrderedMap()
        let oldAnchor = self.old.fieldRef(.paywalls, in: old)?.node ?? old.source.node
        let newAnchor = self.new.fieldRef(.paywalls, in: new)?.node ?? new.source.node
        for (key, paywall) in newPaywalls.pairs {
            let scope = scope.paywall(key)
            if let oldPaywall = oldPaywalls[key] {
                comparePaywalls(oldPaywall, paywall, in: scope)
            } else {
                report(
                    .funnelPaywallAdded, in: scope, "\(scope.whereText): the funnel's paywalls map gains it (\(Self.paywallText(paywall))).",
                    field: PathStep.text([.member(Funnel.Field.paywalls), .member(key)]), old: oldPlace(oldAnchor), new: newPlace(paywall.source.node))
            }
        }
        for (key, paywall) in oldPaywalls.pairs where newPaywalls[key] == nil {
            let scope = scope.paywall(key)
            report(
                .funnelPaywallRemoved, in: scope, "\(scope.whereText): the funnel's paywalls map no longer carries it (\(Self.paywallText(paywall))).",
                field: PathStep.text([.member(Funnel.Field.paywalls), .member(key)]), old: oldPlace(paywall.source.node), new: newPlace(newAnchor))
        }
    }

    private static func paywallText(_ paywall: Paywall) -> String {
        var text = "\(Format.quoted(paywall.name))"
        if let offering = paywall.offering {
            text +=
                ", offering \(Format.quoted(offering.identifier)): "
                + offering.packages.map { Format.quoted($0.identifier) }.joined(separator: ", ")
        }
        return text
    }

    mutating func comparePaywalls(_ old: Paywall, _ new: Paywall, in scope: ChangeScope) {
        for field in Self.pairs(RawComparison.fields(of: old, in: self.old.document), RawComparison.fields(of: new, in: self.new.document))
        where field.name != Paywall.Field.id.rawValue {
            compareValues(
                field.old, field.new, path: [.member(field.name)],
                base: field.name == Paywall.Field.offering.rawValue ? .offeringChanged : .fieldChanged,
                oldAnchor: old.source.node, newAnchor: new.source.node, in: scope)
        }
    }

    // MARK: Paywall pages

    private static func paywallKeys(_ funnel: Funnel) -> JSONValue {
        .array((funnel.paywalls?.keys ?? []).map { .string($0) })
    }

    /// Reports paywall pages that can no longer show their paywall offline, and those that can again.
    mutating func checkPaywallPages(old: Funnel?, new: Funnel, in scope: ChangeScope) {
        let carried = { (funnel: Funnel) -> String in
            let keys = funnel.paywalls?.keys ?? []
            return keys.isEmpty ? "it carries none" : "it carries " + Format.quotedList(keys, limit: Format.listedLimit)
        }
        // The graphs look pages up by id; built only when a paywall page needs it.
        var oldGraph: FunnelGraph?
        for page in new.pages where FunnelGraph.cannotShowPaywall(page, in: new) {
            if oldGraph == nil { oldGraph = old.map(FunnelGraph.init) }
            let oldPage = oldGraph.flatMap { graph in graph.pageIndex(of: page.id).map { graph.funnel.pages[$0] } }
            if let old, let oldPage, FunnelGraph.cannotShowPaywall(oldPage, in: old) { continue }
            let scope = scope.page(page.id)
            report(
                .paywallUnreachableOffline, in: scope,
                "\(scope.whereText): the paywall page "
                    + (page.paywallId.flatMap { $0.isEmpty ? nil : "shows paywall \(Format.quoted($0))" } ?? "names no paywall")
                    + ", which the funnel's paywalls map does not carry (\(carried(new))): "
                    + "offline, the funnel \(oldPage == nil ? "cannot" : "can no longer") show its paywall.",
                field: Page.Field.paywallId.rawValue,
                old: oldPlace(oldPage.map { self.old.fieldRef(.paywallId, in: $0)?.node ?? $0.source.node }),
                new: newPlace(self.new.fieldRef(.paywallId, in: page)?.node ?? page.source.node),
                values: (oldPage?.paywallId.map { .string($0) }, page.paywallId.map { .string($0) }))
        }
        if let old {
            var newGraph: FunnelGraph?
            // Every page that can show its paywall again shows both maps' keys: written once, not
            // once a page (a funnel of N such pages wrote N keys N times).
            var keyTexts: (old: String?, new: String?)?
            for oldPage in old.pages where FunnelGraph.cannotShowPaywall(oldPage, in: old) {
                if newGraph == nil { newGraph = FunnelGraph(new) }
                guard let index = newGraph?.pageIndex(of: oldPage.id), case let page = new.pages[index], FunnelGraph.isPaywallPage(page),
                    !FunnelGraph.cannotShowPaywall(page, in: new)
                else { continue }
                let scope = scope.page(page.id)
                if keyTexts == nil {
                    keyTexts = (RawComparison.text(Self.paywallKeys(old)), RawComparison.text(Self.paywallKeys(new)))
                }
                report(
                    .paywallReachableOffline, in: scope,
                    "\(scope.whereText): the paywall page can show paywall \(Format.quoted(page.paywallId ?? "")) offline again: the "
                        + "funnel's paywalls map now carries it.",
                    field: Funnel.Field.paywalls.rawValue, old: oldPlace(self.old.fieldRef(.paywalls, in: old)?.node ?? old.source.node),
                    new: newPlace(self.new.fieldRef(.paywalls, in: new)?.node ?? new.source.node),
                    valueTexts: keyTexts)
            }
        }
    }
}
