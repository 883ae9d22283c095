import RovenueFallback

/// The funnels and paywalls already checked for one placement.
///
/// An experiment often carries the same funnel (or the paywall a funnel shows) in several
/// variants. A copy with the same id and the same JSON text (whitespace aside) is checked once, at
/// its first occurrence; copies that differ are each checked.
struct CheckedContent {
    var funnels = CheckedCopies()
    var paywalls = CheckedCopies()
}

/// The funnels (or paywalls) of one placement checked so far, to tell whether another is a copy of
/// one of them: the same id and the same JSON text, whitespace between tokens aside.
///
/// A few are compared one by one; past `searchedLimit`, only those whose text has the same
/// fingerprint are compared, so an experiment with thousands of variants, each carrying its own
/// funnel under one id, costs linear work rather than a comparison of every pair.
struct CheckedCopies {
    /// How many values are compared one by one before fingerprints are taken.
    static let searchedLimit = 8

    private var values: [(id: String, node: Int)] = []
    /// Indices into `values` by the fingerprint of their text, once there are more than `searchedLimit`.
    private var byFingerprint: [Int: [Int]]?

    var count: Int { values.count }

    /// Records the value at `node` with `id`, unless it is a copy of one recorded before: then
    /// false. `same` says whether two values have the same text; `fingerprint` is equal for values
    /// with the same text.
    mutating func insert(id: String, node: Int, fingerprint: (Int) -> Int, same: (Int, Int) -> Bool) -> Bool {
        func isCopy(_ index: Int) -> Bool { ExactKey.same(values[index].id, id) && same(values[index].node, node) }
        if byFingerprint == nil, values.count < Self.searchedLimit {
            if values.indices.contains(where: isCopy) { return false }
            values.append((id, node))
            return true
        }
        // Taken out of the property while it grows, so it is never copied.
        var index: [Int: [Int]] = [:]
        if let existing = byFingerprint {
            index = existing
            byFingerprint = nil
        } else {
            for position in values.indices { index[fingerprint(values[position].node), default: []].append(position) }
        }
        let print = fingerprint(node)
        if index[print]?.contains(where: isCopy) == true {
            byFingerprint = index
            return false
        }
        values.append((id, node))
        index[print, default: []].append(values.count - 1)
        byFingerprint = index
        return true
    }
}

/// A step back to an earlier page (or the same one) written in the snapshot: a rule's `goto` or a
/// `default_next`.
struct BackStep {
    enum Kind {
        case rule(String)
        case defaultNext
    }

    let from: Int
    let to: Int
    let kind: Kind
    /// The `goto` or `default_next` value.
    let node: Int
}

extension AuditRun {
    /// `Page.knownTypes` in a fixed order, so suggestions are deterministic.
    static let knownPageTypes = Page.knownTypes.sorted()
    /// Page types that ask the user to pick among `options`.
    static let choicePageTypes: Set<String> = ["single_choice", "multi_choice", "picture_choice"]
    /// `Page.knownTypes` (flag 1) and `choicePageTypes` (flag 2) by their bytes, read without hashing
    /// the type for each page.
    static let pageTypeTable = MediaScan.KnownKeys(
        flags: Dictionary(Page.knownTypes.map { ($0, 1) } + choicePageTypes.map { ($0, 2) }, uniquingKeysWith: |))

    /// A page type's flags in `pageTypeTable`. A type that is not one of its keys by its bytes but has
    /// a non-ASCII byte is looked up in the sets, which compare strings by canonical equivalence.
    static func pageTypeFlags(_ type: String) -> UInt8 {
        if let flags = pageTypeTable.flags(of: type) { return flags }
        guard type.utf8.contains(where: { $0 >= 0x80 }) else { return 0 }
        return (Page.knownTypes.contains(type) ? 1 : 0) | (choicePageTypes.contains(type) ? 2 : 0)
    }

    /// Checks `funnel`, which a placement serves as `served`: its findings are about it, its pages and its paywalls.
    mutating func checkFunnel(_ funnel: Funnel, as served: FindingSubject.ServedFunnel, checked: inout CheckedContent) {
        guard insert(id: funnel.id, node: funnel.source.node, into: &checked.funnels) else { return }

        if isEnabled(.remoteMedia) {
            checkThemeMedia(funnel, about: served)
        }
        if let paywalls = funnel.paywalls {
            for index in paywalls.values.indices {
                checkPaywallMedia(paywalls.values[index], of: .funnel(served), checked: &checked)
            }
        }
        guard !funnel.pages.isEmpty else {
            report(
                .funnelEmpty,
                "Funnel \(Format.quoted(funnel.id)) has no pages: a device served it offline has nothing to show.",
                about: .funnel(served), at: node(of: .pages, in: funnel))
            return
        }
        let context = FunnelContext(funnel: funnel, served: served)
        checkPages(context)
        checkGraph(context)
        checkClauses(context)
        checkCopy(context)
        if isEnabled(.remoteMedia) {
            for index in context.pages.indices {
                checkPageMedia(context, index)
            }
        }
    }

    // MARK: Pages

    private mutating func checkPages(_ context: FunnelContext) {
        let funnel = context.funnel
        let pages = context.pages
        for index in pages.indices {
            if let first = context.graph.earlierPage(withIdOf: index) {
                report(
                    .duplicatePageId,
                    "Pages #\(first + 1) and #\(index + 1) of funnel \(Format.quoted(funnel.id)) share id "
                        + "\(Format.quoted(pages[index].id)): a goto or default_next naming it is ambiguous (this audit "
                        + "follows the first), and the dashboard blocks publishing it.",
                    about: context.page(index), at: node(of: .id, in: pages[index]))
            }
            if let question = pages[index].questionId, let first = context.earlierPage(askingQuestionOf: index) {
                report(
                    .duplicateQuestionId,
                    "Pages \(Format.quoted(pages[first].id)) and \(Format.quoted(pages[index].id)) both ask question_id "
                        + "\(Format.quoted(question)): clauses read the latest answer, so the later page overwrites the "
                        + "earlier one's answer. The dashboard blocks publishing it.",
                    about: context.page(index), at: node(of: .questionId, in: pages[index]))
            }
            let type = pages[index].type
            let typeFlags = Self.pageTypeFlags(type)
            if typeFlags & 1 == 0 {
                report(
                    .pageTypeUnknown,
                    "Page \(Format.quoted(pages[index].id)) has type \(Format.quoted(type)), not one of the 26 funnel page "
                        + "types\(Format.didYouMean(type, among: Self.knownPageTypes)): an SDK that does not know "
                        + "the type cannot render the page.",
                    about: context.page(index), at: node(of: .type, in: pages[index]))
            }
            if pages[index].options?.isEmpty ?? true, typeFlags & 2 != 0 {
                report(
                    .optionsMissing,
                    "Page \(Format.quoted(pages[index].id)) is a \(type) page with no options: a first launch shows a "
                        + "question with nothing to pick"
                        + "\(pages[index].questionId.map { ", and question \(Format.quoted($0)) is never answered" } ?? "").",
                    about: context.page(index), at: node(of: .options, in: pages[index]))
            }
            if context.graph.cannotShowPaywall(onPage: index) {
                reportPaywallPage(pages[index], about: context.page(index), funnel: funnel)
            }
        }
    }

    /// Reports a paywall page whose paywall the funnel does not carry.
    private mutating func reportPaywallPage(_ page: Page, about subject: FindingSubject, funnel: Funnel) {
        let carried = funnel.paywalls?.keys ?? []
        var carriedText: String { carried.isEmpty ? "it carries none" : "it carries \(Format.quotedList(carried, limit: Format.listedLimit))" }
        guard let paywallId = page.paywallId, !paywallId.isEmpty else {
            report(
                .paywallUnavailableOffline,
                "Paywall page \(Format.quoted(page.id)) has no paywallId: an offline first launch reaches the page with "
                    + "no paywall to show (funnel \(Format.quoted(funnel.id))'s paywalls map: \(carriedText)).",
                about: subject, at: node(of: .paywallId, in: page))
            return
        }
        report(
            .paywallUnavailableOffline,
            "Paywall page \(Format.quoted(page.id)) shows paywall \(Format.quoted(paywallId)), which funnel "
                + "\(Format.quoted(funnel.id))'s paywalls map does not carry (\(carriedText)"
                + "\(Format.suggestion(for: paywallId, among: carried).map { "; did you mean \(Format.quoted($0))?" } ?? "")): "
                + "an offline first launch reaches the page and cannot show its paywall.",
            about: subject, at: node(of: .paywallId, in: page))
    }

    // MARK: Graph

    private mutating func checkGraph(_ context: FunnelContext) {
        let pages = context.pages
        let graph = context.graph
        var backSteps: [BackStep] = []

        for index in pages.indices {
            let rules = pages[index].nextRules ?? []
            for step in graph.steps(from: index) {
                switch step.kind {
                case .rule(let rule):
                    let goto = rules[rule].goto
                    switch step.target {
                    case .page(let next), .paywall(let next):
                        if next <= index {
                            backSteps.append(
                                BackStep(from: index, to: next, kind: .rule(rules[rule].id), node: node(of: .goto, in: rules[rule])))
                        }
                    case .end:
                        break
                    case .unknown(let reason):
                        report(
                            .gotoUnknown,
                            "Rule \(Format.quoted(rules[rule].id)) on page \(Format.quoted(pages[index].id)) goes to "
                                + "\(context.unknownTargetText(goto, reason)): the dashboard blocks publishing this, and a device "
                                + "taking the branch has nowhere to go.",
                            about: context.page(index), at: node(of: .goto, in: rules[rule]))
                    }
                case .defaultNext:
                    let defaultNext = pages[index].defaultNext ?? ""
                    switch step.target {
                    case .page(let next), .paywall(let next):
                        if next <= index {
                            backSteps.append(
                                BackStep(from: index, to: next, kind: .defaultNext, node: node(of: .defaultNext, in: pages[index])))
                        }
                    case .end:
                        break
                    case .unknown(let reason):
                        report(
                            .gotoUnknown,
                            "default_next of page \(Format.quoted(pages[index].id)) is \(context.unknownTargetText(defaultNext, reason)): "
                                + "the dashboard blocks publishing this, and a device leaving the page without a matching rule "
                                + "has nowhere to go.",
                            about: context.page(index), at: node(of: .defaultNext, in: pages[index]))
                    }
                case .nextInOrder:
                    break
                }
            }
        }

        if !backSteps.isEmpty, isEnabled(.cycle) {
            reportCycles(backSteps, graph: graph, context: context)
        }
        if isEnabled(.pageUnreachable) {
            reportUnreachable(graph: graph, context: context)
        }
    }

    /// One finding per set of pages that all reach one another through a step back (a strongly
    /// connected component, or one page that goes to itself), and one per step back that closes no
    /// loop. Linear in the funnel's size, and each message is bounded.
    private mutating func reportCycles(_ backSteps: [BackStep], graph: FunnelGraph, context: FunnelContext) {
        let pages = context.pages
        let component = graph.stronglyConnectedComponents()
        let componentCount = (component.max() ?? -1) + 1
        // Each component's first page in page order, size, and the first few pages to name.
        var firstPage = [Int](repeating: -1, count: componentCount)
        var size = [Int](repeating: 0, count: componentCount)
        var named = [[Int]](repeating: [], count: componentCount)
        for page in pages.indices {
            let group = component[page]
            if firstPage[group] < 0 { firstPage[group] = page }
            size[group] += 1
            if named[group].count < Self.namedLoopPages { named[group].append(page) }
        }
        // Steps back inside each component, and the one its finding is reported at: the first step
        // into the component's first page (every component with a step back inside has one).
        var loopSteps = [Int](repeating: 0, count: componentCount)
        var reportedStep = [Int](repeating: -1, count: componentCount)
        for (index, step) in backSteps.enumerated() where component[step.from] == component[step.to] {
            let group = component[step.from]
            loopSteps[group] += 1
            if step.to == firstPage[group], reportedStep[group] < 0 { reportedStep[group] = index }
        }
        let parents = graph.parents(from: backSteps.indices.compactMap { index in
            let group = component[backSteps[index].from]
            return reportedStep[group] == index ? firstPage[group] : nil
        }, within: component)
        for (index, step) in backSteps.enumerated() {
            let group = component[step.from]
            let from = pages[step.from].id
            let to = pages[step.to].id
            let subject: String
            switch step.kind {
            case .rule(let id): subject = "Rule \(Format.quoted(id)) on page \(Format.quoted(from))"
            case .defaultNext: subject = "default_next of page \(Format.quoted(from))"
            }
            let movement = step.to == step.from
                ? "goes to its own page" : "goes back to earlier page \(Format.quoted(to))"
            guard component[step.to] == group else {
                report(
                    .cycle,
                    "\(subject) \(movement) (\(Format.shortened(from)) → \(Format.shortened(to))). No path leads from "
                        + "\(Format.shortened(to)) back to \(Format.shortened(from)), so it never loops, but the dashboard "
                        + "blocks any edge back to an earlier page, even in a branch never taken.",
                    about: context.page(step.from), at: step.node)
                continue
            }
            guard reportedStep[group] == index else { continue }
            // The shortest path from the first page to this step, which closes the loop.
            var path = [step.from]
            while let last = path.last, last != step.to, parents[last] >= 0 { path.append(parents[last]) }
            path.reverse()
            path.append(step.to)
            var message = "\(subject) \(movement), closing the loop \(Self.loopText(path, pages: pages)): a device taking it "
                + "can circle forever, and the dashboard blocks publishing a funnel with a cycle."
            if size[group] > path.count - 1 || loopSteps[group] > 1 {
                let names = named[group].map { Format.shortened(pages[$0].id) }.joined(separator: ", ")
                let more = size[group] > named[group].count ? " … and \(size[group] - named[group].count) more" : ""
                message += " \(size[group]) pages (\(names)\(more)) reach one another through "
                    + "\(loopSteps[group]) \(loopSteps[group] == 1 ? "step" : "steps") back to an earlier page or the same "
                    + "one; this finding stands for them all."
            }
            report(.cycle, message, about: context.page(step.from), at: step.node)
        }
    }

    /// How many pages a `cycle` message names before "… and N more".
    static let namedLoopPages = 5

    /// `p1 → p2 → p1`; past eight pages, the first six, "… and N more", the last two.
    static func loopText(_ path: [Int], pages: [Page]) -> String {
        let ids: [String]
        if path.count > 8 {
            ids = path.prefix(6).map { Format.shortened(pages[$0].id) } + ["… and \(path.count - 8) more"]
                + path.suffix(2).map { Format.shortened(pages[$0].id) }
        } else {
            ids = path.map { Format.shortened(pages[$0].id) }
        }
        return ids.joined(separator: " → ")
    }

    private mutating func reportUnreachable(graph: FunnelGraph, context: FunnelContext) {
        let pages = context.pages
        let reached = graph.pagesReachedFromFirstPage()
        let reachedCount = reached.count { $0 }
        guard reachedCount < pages.count else { return }
        for index in pages.indices where !reached[index] {
            report(
                .pageUnreachable,
                "Page \(Format.quoted(pages[index].id)) (#\(index + 1)) of funnel \(Format.quoted(context.funnel.id)) "
                    + "cannot be reached from the first page \(Format.quoted(pages[0].id)): no rule, default_next or "
                    + "next-in-order step leads to it, so a device never shows it.",
                about: context.page(index), at: pages[index].source.node)
        }
    }

    // MARK: Clauses

    private mutating func checkClauses(_ context: FunnelContext) {
        let pages = context.pages
        var lookups = ClauseLookups()
        for index in pages.indices {
            guard let rules = pages[index].nextRules else { continue }
            for rule in rules.indices {
                let clauses = rules[rule].condition.clauses
                for clause in clauses.indices {
                    checkClause(clauses[clause], rule: rules[rule], pageIndex: index, context: context, lookups: &lookups)
                }
            }
        }
    }

    private mutating func checkClause(
        _ clause: Clause, rule: NextRule, pageIndex: Int, context: FunnelContext, lookups: inout ClauseLookups
    ) {
        let pages = context.pages
        var subject: String { "Rule \(Format.quoted(rule.id)) on page \(Format.quoted(pages[pageIndex].id))" }
        let question = clause.questionId
        var op: String { clause.op.rawValue }
        let asked = context.questionPage(of: question)
        if let asked {
            if asked > pageIndex {
                report(
                    .questionNotYetAsked,
                    "\(subject) (#\(pageIndex + 1)) reads question \(Format.quoted(question)), first asked on page "
                        + "\(Format.quoted(pages[asked].id)) (#\(asked + 1)), after it: when the rule runs the answer is "
                        + "missing, so `\(op)` is always \(Self.matchesMissingAnswer(clause.op)).",
                    about: context.page(pageIndex), at: node(of: .questionId, in: clause))
            }
        } else {
            report(
                .questionUnknown,
                "\(subject) reads question \(Format.quoted(question)), which no page of funnel "
                    + "\(Format.quoted(context.funnel.id)) asks\(Format.didYouMean(question, among: lookups.questionIds(of: context))): "
                    + "the answer is always missing, so `\(op)` is always \(Self.matchesMissingAnswer(clause.op)). The "
                    + "dashboard blocks publishing it.",
                about: context.page(pageIndex), at: node(of: .questionId, in: clause))
        }
        if let problem = Self.valueProblem(clause) {
            report(
                .clauseValueInvalid, "\(subject): the clause on \(Format.quoted(question)) \(problem).",
                about: context.page(pageIndex), at: node(of: .value, in: clause))
            return
        }
        guard let asked, let options = pages[asked].options, !options.isEmpty, let value = clause.value else { return }
        switch clause.op {
        case .eq, .neq, .contains:
            guard !lookups.isOptionValue(value, ofPage: asked, in: context) else { return }
            reportUnknownOption([value], clause: clause, subject: subject, options: options, page: pages[asked],
                about: context.page(pageIndex))
        case .in, .notIn:
            guard value.kind == .array else { return }
            let unknown = value.elements.filter { !lookups.isOptionValue($0, ofPage: asked, in: context) }
            guard !unknown.isEmpty else { return }
            reportUnknownOption(unknown, clause: clause, subject: subject, options: options, page: pages[asked],
                about: context.page(pageIndex))
        default:
            return
        }
    }

    private mutating func reportUnknownOption(
        _ unknown: [JSONDocument.Value], clause: Clause, subject: String, options: [PageOption], page: Page,
        about findingSubject: FindingSubject
    ) {
        // Not copied out: a finding reads at most the first 12 values, and searches them for a
        // suggestion only when there are few (`Format.suggestionCandidateLimit`).
        let values = options.lazy.map(\.value)
        var hint = ""
        if unknown.count == 1, let text = unknown[0].string, let close = Format.suggestion(for: text, among: values) {
            hint = "; did you mean \(Format.quoted(close))?"
        }
        let listed = Format.quotedList(values.prefix(12)) + (values.count > 12 ? ", …" : "")
        report(
            .clauseOptionUnknown,
            "\(subject): `\(clause.op.rawValue)` compares question \(Format.quoted(clause.questionId)) with "
                + "\(unknown.map { Format.json($0.owned) }.joined(separator: ", ")), which is not the value of any option "
                + "of page \(Format.quoted(page.id)) (values: \(listed)\(hint)): an answer never equals it, so the branch "
                + "does not behave as intended.",
            about: findingSubject, at: node(of: .value, in: clause))
    }

    /// What a clause evaluates to when its question has no answer.
    static func matchesMissingAnswer(_ op: Clause.Operator) -> String {
        switch op {
        case .neq, .notIn, .isNotAnswered: "true"
        default: "false"
        }
    }

    /// Why a clause's value does not fit its operator (§6's table), or nil when it does.
    static func valueProblem(_ clause: Clause) -> String? {
        var op: String { "`\(clause.op.rawValue)`" }
        let value = clause.value
        func found() -> String { value.map { "found \(describe($0.owned))" } ?? "found none (null counts as none)" }
        switch clause.op {
        case .isAnswered, .isNotAnswered:
            guard let value else { return nil }
            return "uses \(op) with a value (\(Format.json(value.owned))): \(op) takes none and ignores it; if a "
                + "comparison was meant, use `eq`"
        case .eq, .neq:
            return value == nil ? "uses \(op) without a value to compare with (\(found()))" : nil
        case .gt, .gte, .lt, .lte:
            if value?.kind == .number { return nil }
            return "uses \(op), which needs a number, \(found()): a comparison with a non-number never matches"
        case .between:
            guard let value, value.kind == .array, value.count == 2, case let bounds = value.elements,
                let low = bounds[0].number, let high = bounds[1].number
            else {
                return "uses \(op), which needs [min, max] (two numbers), \(found()): it never matches"
            }
            if low.doubleValue > high.doubleValue {
                return "uses \(op) with min \(low.text) above max \(high.text): no answer lies between, so it never matches"
            }
            return nil
        case .in, .notIn:
            if value?.kind == .array { return nil }
            return "uses \(op), which needs an array of values, \(found())"
        case .contains:
            if value?.kind == .string { return nil }
            return "uses \(op), which needs a string (the value to look for in a multiple-choice answer), \(found())"
        }
    }

    /// How a message names an owned value: `the string "40"`, `an array`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "the boolean \(flag)"
        case .number(let number): "the number \(number.text)"
        case .string(let text): "the string \(Format.quoted(text))"
        case .array: "the array \(Format.json(value))"
        case .object: "an object"
        }
    }

    // MARK: Copies

    /// Records the funnel or paywall at `node` with `id` in `copies` unless it is a copy of one
    /// recorded before (`CheckedCopies.insert`); false for a copy.
    ///
    /// The comparisons capture only the document: passing the methods themselves would copy the
    /// whole run into a context allocated for each call.
    func insert(id: String, node: Int, into copies: inout CheckedCopies) -> Bool {
        let document = document
        return copies.insert(
            id: id, node: node, fingerprint: { Self.textFingerprint($0, in: document) },
            same: { Self.sameJSON($0, $1, in: document) })
    }

    /// A hash of a value's JSON text, whitespace between tokens aside: equal for two values when
    /// `sameJSON` says they are the same (seeded per process, as Swift's hashing is).
    static func textFingerprint(_ node: Int, in document: JSONDocument) -> Int {
        let range = document.value(at: node).byteRange
        return document.bytes.withUnsafeBufferPointer { bytes in
            var tokens: [UInt8] = []
            tokens.reserveCapacity(range.count)
            var scan = JSONTextScan()
            for offset in range {
                let byte = bytes[offset]
                if !scan.isInString, JSONTextScan.isWhitespace(byte) { continue }
                scan.read(byte)
                tokens.append(byte)
            }
            var hasher = Hasher()
            tokens.withUnsafeBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }
    }

    /// True when two values have the same JSON text, whitespace between tokens aside.
    static func sameJSON(_ lhs: Int, _ rhs: Int, in document: JSONDocument) -> Bool {
        let left = document.value(at: lhs).byteRange
        let right = document.value(at: rhs).byteRange
        return document.bytes.withUnsafeBufferPointer { bytes in
            var i = left.lowerBound
            var j = right.lowerBound
            var scan = JSONTextScan()
            while true {
                if !scan.isInString {
                    while i < left.upperBound, JSONTextScan.isWhitespace(bytes[i]) { i += 1 }
                    while j < right.upperBound, JSONTextScan.isWhitespace(bytes[j]) { j += 1 }
                }
                let leftEnded = i >= left.upperBound
                let rightEnded = j >= right.upperBound
                if leftEnded || rightEnded { return leftEnded && rightEnded }
                let byte = bytes[i]
                guard byte == bytes[j] else { return false }
                scan.read(byte)
                i += 1
                j += 1
            }
        }
    }
}

/// What the clause checks of one funnel look up more than once, gathered on first need: gathered for
/// each clause, a funnel of N pages whose N clauses read unknown questions, or compare with values
/// none of a page's N options has, cost N² steps. Nothing is gathered for a funnel that needs none.
struct ClauseLookups {
    private var questions: [String]?
    private var optionValues: [Int: Set<ExactKey>] = [:]

    /// The question ids of `context`'s pages, in page order, for a message's suggestion: all of them,
    /// or, where there are more than `Format.suggestionCandidateLimit`, the first one more than that
    /// (too many to search, as `Format.suggestion` decides by their count).
    mutating func questionIds(of context: FunnelContext) -> [String] {
        if let questions { return questions }
        var gathered: [String] = []
        // Each page's field read in place: a copy of the whole page would retain all its texts.
        for index in context.pages.indices where gathered.count <= Format.suggestionCandidateLimit {
            if let question = context.pages[index].questionId { gathered.append(question) }
        }
        questions = gathered
        return gathered
    }

    /// True when `value` is a string that an option of the page at `index` of `context` has as its
    /// value: searched among up to `FunnelContext.searchedOptionLimit` options, else in a set of them.
    mutating func isOptionValue(_ value: JSONDocument.Value, ofPage index: Int, in context: FunnelContext) -> Bool {
        guard let text = value.string, let options = context.pages[index].options else { return false }
        guard options.count > FunnelContext.searchedOptionLimit else {
            return options.contains { ExactKey.same($0.value, text) }
        }
        if let known = optionValues[index] { return known.contains(ExactKey(text)) }
        let known = Set(options.lazy.map { ExactKey($0.value) })
        optionValues[index] = known
        return known.contains(ExactKey(text))
    }
}

/// What the funnel checks share: the funnel's graph, and question lookups.
struct FunnelContext {
    /// Funnels up to this many pages are searched; larger ones get dictionaries.
    static let searchedPageLimit = FunnelGraph.searchedPageLimit

    let funnel: Funnel
    /// The funnel as the placement serves it: what findings about it and its pages are about.
    let served: FindingSubject.ServedFunnel
    let pages: [Page]
    /// Where each step leads; page ids are compared by their bytes, as the SDK compares them (and
    /// as the site's drawing does, from the same graph).
    let graph: FunnelGraph
    /// Question id → index of the first page that asks it, for large funnels.
    private let questionPageMap: KeyPositions?
    /// In a large funnel, each page that asks a question an earlier page asks, with that first
    /// page: found while the index is built.
    private let repeatedQuestions: RepeatedKeys
    /// Pages with up to this many options are searched for a clause's value; larger ones get a set
    /// of their values (`ClauseLookups`).
    static let searchedOptionLimit = 16

    init(funnel: Funnel, served: FindingSubject.ServedFunnel) {
        self.funnel = funnel
        self.served = served
        pages = funnel.pages
        graph = FunnelGraph(funnel)
        if pages.count > Self.searchedPageLimit {
            let pages = funnel.pages
            var questionPage = KeyPositions(capacity: pages.count)
            var repeated = RepeatedKeys()
            for index in pages.indices {
                // Only pages that ask a question are held, so `questionId` is there for every position read.
                if let question = pages[index].questionId,
                    let first = questionPage.insert(question, at: index, key: { pages[$0].questionId ?? "" })
                {
                    repeated.append(index, first: first)
                }
            }
            questionPageMap = questionPage
            repeatedQuestions = repeated
        } else {
            questionPageMap = nil
            repeatedQuestions = RepeatedKeys()
        }
    }

    /// The subject of a finding about the page at `index`.
    func page(_ index: Int) -> FindingSubject {
        .page(of: served, index: index, id: ExactKey(pages[index].id))
    }

    /// The index of the first page that asks `question`.
    func questionPage(of question: String) -> Int? {
        if let questionPageMap { return questionPageMap.position(of: question) { pages[$0].questionId ?? "" } }
        // Each page's field read in place: a copy of the whole page would retain all its texts.
        return pages.indices.first { ExactKey.same(pages[$0].questionId, question) }
    }

    /// The index of the first page that asks the question page `index` asks, when that is an
    /// earlier page; nil when page `index` asks none or is the first to ask it.
    func earlierPage(askingQuestionOf index: Int) -> Int? {
        guard let question = pages[index].questionId else { return nil }
        guard questionPageMap != nil else {
            let first = questionPage(of: question)
            return first == index ? nil : first
        }
        return repeatedQuestions.firstPosition(ofKeyAt: index)
    }

    /// The target `name` that leads nowhere, and why (`FunnelGraph`'s `reason`), for a message.
    ///
    /// The suggestion reads each page's id in place: mapping the pages to their ids copied each
    /// whole page, retaining all its texts, for every unknown target (4 million copies for 20,000
    /// targets in a funnel of 200 pages).
    func unknownTargetText(_ name: String, _ reason: FunnelGraph.UnknownTarget) -> String {
        switch reason {
        case .noPaywallPage:
            return "\"paywall\", but funnel \(Format.quoted(funnel.id)) has no page of type paywall"
        case .noSuchPage:
            let pages = funnel.pages
            return "\(Format.quoted(name)), which is neither a page of funnel \(Format.quoted(funnel.id)) nor \"end\" or "
                + "\"paywall\"\(Format.didYouMean(name, among: pages.indices.lazy.map { pages[$0].id }))"
        }
    }
}
