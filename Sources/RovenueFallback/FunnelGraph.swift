/// A funnel's flow as the contract's §6 runs it, worked out once from the decoded funnel: where
/// every rule's `goto` and every `default_next` leads, the step to the next page in order, which
/// pages the first page reaches, which pages reach one another (strongly connected components),
/// which paywall pages can show their paywall offline, and how a rule's condition reads.
///
/// Checks, drawings, diffs and the site all ask this type, so they cannot disagree on a step.
/// Page ids and the special targets are compared by their UTF-8 bytes, as the SDK compares them:
/// `café` composed and `café` decomposed are two pages. A page is named by its position in
/// `Funnel.pages`. Building the graph and every search on it are linear in pages plus rules (no
/// recursion, so a funnel of 20,000 pages is as safe as one of 20).
public struct FunnelGraph: Sendable {
    /// Where a written target (a rule's `goto` or a page's `default_next`) or a step leads.
    public enum Target: Sendable, Hashable {
        /// The page at this position: the first page whose id has the target's exact bytes.
        case page(Int)
        /// `"paywall"`: the first page of type `paywall`, at this position.
        case paywall(Int)
        /// `"end"`, or past the last page: the funnel ends.
        case end
        /// Nowhere a device can go.
        case unknown(UnknownTarget)

        /// The position of the page the target leads to, if it leads to one.
        public var page: Int? {
            switch self {
            case .page(let index), .paywall(let index): index
            case .end, .unknown: nil
            }
        }
    }

    /// Why a written target leads nowhere.
    public enum UnknownTarget: Sendable, Hashable {
        /// Not a page id, `"end"` or `"paywall"`.
        case noSuchPage
        /// `"paywall"` in a funnel without a page of type `paywall`.
        case noPaywallPage
    }

    /// One way to leave a page, in the order §6 tries them: each rule, then `default_next`, or,
    /// without one, the next page in order (the end, past the last page).
    public struct Step: Sendable, Hashable {
        /// What the step is written as.
        public enum Kind: Sendable, Hashable {
            /// The rule at this position in the page's `next_rules`.
            case rule(Int)
            /// The page's `default_next`.
            case defaultNext
            /// No `default_next`: the next page in array order, or the end after the last page.
            case nextInOrder
        }

        /// The position of the page the step leaves.
        public let from: Int
        /// What the step is written as: a rule, `default_next`, or neither.
        public let kind: Kind
        /// Where the step leads.
        public let target: Target
    }

    /// Funnels up to this many pages are searched for an id; larger ones get an index (`KeyPositions`).
    public static let searchedPageLimit = 32

    /// The funnel the graph was built from.
    public let funnel: Funnel
    /// Every step, grouped by the page they leave, in page order.
    public let steps: [Step]
    /// Page `i`'s steps are `steps[stepStarts[i]..<stepStarts[i + 1]]`.
    private let stepStarts: [Int]
    /// Page id → position of the first page with it, for large funnels.
    private let pageIndexMap: KeyPositions?
    /// In a large funnel, each page whose id an earlier page has, with that first page: found while
    /// the index is built, so the duplicate-id check looks nothing up.
    private let repeatedIds: RepeatedKeys
    /// The position of the first page of type `paywall`: where `"paywall"` leads.
    public let firstPaywallPage: Int?

    /// Works out the flow of `funnel`.
    public init(_ funnel: Funnel) {
        self.funnel = funnel
        let pages = funnel.pages
        if pages.count > Self.searchedPageLimit {
            var map = KeyPositions(capacity: pages.count)
            var repeated = RepeatedKeys()
            map.insert(keysAt: pages.indices, key: { pages[$0].id }, repeated: { repeated.append($0, first: $1) })
            pageIndexMap = map
            repeatedIds = repeated
        } else {
            pageIndexMap = nil
            repeatedIds = RepeatedKeys()
        }
        firstPaywallPage = pages.firstIndex(where: Self.isPaywallPage)

        var steps: [Step] = []
        steps.reserveCapacity(pages.count + pages.count / 2)
        var starts: [Int] = []
        starts.reserveCapacity(pages.count + 1)
        for index in pages.indices {
            starts.append(steps.count)
            // Read the two fields in place: a copy of the whole page would retain all its texts.
            if let rules = pages[index].nextRules {
                for rule in rules.indices {
                    steps.append(Step(from: index, kind: .rule(rule), target: Self.target(rules[rule].goto, pageIndexMap, pages, firstPaywallPage)))
                }
            }
            if let defaultNext = pages[index].defaultNext {
                steps.append(Step(from: index, kind: .defaultNext, target: Self.target(defaultNext, pageIndexMap, pages, firstPaywallPage)))
            } else {
                steps.append(Step(from: index, kind: .nextInOrder, target: index + 1 < pages.count ? .page(index + 1) : .end))
            }
        }
        starts.append(steps.count)
        self.steps = steps
        stepStarts = starts
    }

    /// The number of pages.
    public var pageCount: Int { stepStarts.count - 1 }

    /// The steps that leave page `index`, in the order §6 tries them.
    public func steps(from index: Int) -> ArraySlice<Step> {
        steps[stepStarts[index]..<stepStarts[index + 1]]
    }

    /// The position of the first page whose id has exactly the bytes of `id`.
    public func pageIndex(of id: String) -> Int? {
        if let pageIndexMap { return pageIndexMap.position(of: id) { funnel.pages[$0].id } }
        return funnel.pages.firstIndex { ExactKey.same($0.id, id) }
    }

    /// The position of the first page whose id has exactly the bytes of page `index`'s id, when
    /// that is an earlier page; nil when page `index` is the first with its id. `index` is a page's
    /// position, as `steps(from:)` takes.
    public func earlierPage(withIdOf index: Int) -> Int? {
        let pages = funnel.pages
        precondition(pages.indices.contains(index), "a page's position")
        guard pageIndexMap != nil else {
            let first = pages.firstIndex { ExactKey.same($0.id, pages[index].id) }
            return first == index ? nil : first
        }
        return repeatedIds.firstPosition(ofKeyAt: index)
    }

    /// Where `name`, written as a `goto` or `default_next`, leads.
    public func target(_ name: String) -> Target {
        Self.target(name, pageIndexMap, funnel.pages, firstPaywallPage)
    }

    private static func target(_ name: String, _ map: KeyPositions?, _ pages: [Page], _ firstPaywallPage: Int?) -> Target {
        if ExactKey.same(name, "end") { return .end }
        if ExactKey.same(name, "paywall") { return firstPaywallPage.map(Target.paywall) ?? .unknown(.noPaywallPage) }
        let index = map.map { $0.position(of: name) { pages[$0].id } } ?? pages.firstIndex { ExactKey.same($0.id, name) }
        return index.map(Target.page) ?? .unknown(.noSuchPage)
    }

    /// The target as written in the snapshot: the rule's `goto` or the `default_next`; nil for a
    /// step to the next page in order.
    public func writtenTarget(of step: Step) -> String? {
        switch step.kind {
        case .rule(let rule): funnel.pages[step.from].nextRules?[rule].goto
        case .defaultNext: funnel.pages[step.from].defaultNext
        case .nextInOrder: nil
        }
    }

    /// The rule a step is written as, if it is one.
    public func rule(of step: Step) -> NextRule? {
        guard case .rule(let rule) = step.kind else { return nil }
        return funnel.pages[step.from].nextRules?[rule]
    }

    // MARK: Searches

    /// For each page, true when the first page reaches it through steps (breadth-first, linear).
    /// Empty for a funnel without pages.
    public func pagesReachedFromFirstPage() -> [Bool] {
        let count = pageCount
        guard count > 0 else { return [] }
        var reached = [Bool](repeating: false, count: count)
        breadthFirst(from: CollectionOfOne(0), reached: &reached, parents: nil) { _, _ in true }
        return reached
    }

    /// Each page's component number: two pages share one exactly when each reaches the other (a
    /// page on its own is a component too). Iterative Tarjan, linear in pages plus steps; numbers
    /// are given in the order components complete.
    public func stronglyConnectedComponents() -> [Int] {
        let count = pageCount
        var order = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var frames: [(node: Int, step: Int)] = []
        var counter = 0
        var components = 0
        func visit(_ page: Int) {
            order[page] = counter
            low[page] = counter
            counter += 1
            stack.append(page)
            onStack[page] = true
            frames.append((page, stepStarts[page]))
        }
        for root in 0..<count where order[root] < 0 {
            visit(root)
            while let (node, step) = frames.last {
                if step < stepStarts[node + 1] {
                    frames[frames.count - 1].step += 1
                    guard let next = steps[step].target.page else { continue }
                    if order[next] < 0 {
                        visit(next)
                    } else if onStack[next] {
                        low[node] = min(low[node], order[next])
                    }
                } else {
                    frames.removeLast()
                    if let parent = frames.last?.node { low[parent] = min(low[parent], low[node]) }
                    if low[node] == order[node] {
                        while let member = stack.popLast() {
                            onStack[member] = false
                            component[member] = components
                            if member == node { break }
                        }
                        components += 1
                    }
                }
            }
        }
        return component
    }

    /// Breadth-first trees from `starts`, each kept inside its own component (`component` as
    /// `stronglyConnectedComponents()` gives it): each reached page's parent, -1 for the starts and
    /// the pages not reached. With the starts in distinct components the trees never meet and the
    /// search is linear; following parents from a page gives a shortest path back to its start.
    public func parents(from starts: [Int], within component: [Int]) -> [Int] {
        let count = pageCount
        var parents = [Int](repeating: -1, count: count)
        var reached = [Bool](repeating: false, count: count)
        parents.withUnsafeMutableBufferPointer { parents in
            breadthFirst(from: starts, reached: &reached, parents: parents) { component[$0] == component[$1] }
        }
        return parents
    }

    /// The one breadth-first search: from `starts`, along the steps `follows(from, to)` allows, it
    /// marks each page it reaches in `reached` and, given `parents`, sets each reached page's
    /// parent there (the starts' entries are left as they are). Both hold a value per page.
    ///
    /// Every funnel's audit runs it for reachability, so it is lean: the queue is a temporary
    /// allocation (on the stack when small) and the steps are read in place. Inlined into each
    /// caller, a `follows` that is always true and absent `parents` cost nothing there.
    @inline(__always)
    private func breadthFirst(
        from starts: some Sequence<Int>, reached: inout [Bool], parents: UnsafeMutableBufferPointer<Int>?,
        follows: (Int, Int) -> Bool
    ) {
        // Each page is queued once at most, when first reached (a start named twice, once).
        withUnsafeTemporaryAllocation(of: Int.self, capacity: pageCount) { queue in
            steps.withUnsafeBufferPointer { steps in
                stepStarts.withUnsafeBufferPointer { stepStarts in
                    reached.withUnsafeMutableBufferPointer { reached in
                        var tail = 0
                        for start in starts where !reached[start] {
                            reached[start] = true
                            queue[tail] = start
                            tail += 1
                        }
                        var head = 0
                        while head < tail {
                            let current = queue[head]
                            head += 1
                            for step in stepStarts[current]..<stepStarts[current + 1] {
                                guard let next = steps[step].target.page, !reached[next], follows(current, next) else { continue }
                                reached[next] = true
                                if let parents { parents[next] = current }
                                queue[tail] = next
                                tail += 1
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Paywall pages

    /// True when `page` has type `paywall` (compared by its bytes).
    public static func isPaywallPage(_ page: Page) -> Bool {
        isPaywallType(page.type)
    }

    private static func isPaywallType(_ type: String) -> Bool {
        ExactKey.same(type, "paywall")
    }

    /// True when `page` is a paywall page that an offline device cannot show its paywall on: it
    /// names no paywall (`paywallId` missing or empty), or `funnel`'s `paywalls` map does not
    /// carry the one it names (keys compared by their bytes).
    public static func cannotShowPaywall(_ page: Page, in funnel: Funnel) -> Bool {
        cannotShowPaywall(type: page.type, paywallId: page.paywallId, in: funnel)
    }

    /// True when page `index` is a paywall page that cannot show its paywall offline.
    public func cannotShowPaywall(onPage index: Int) -> Bool {
        // The two fields read in place: a copy of the whole page would retain all its texts.
        Self.cannotShowPaywall(type: funnel.pages[index].type, paywallId: funnel.pages[index].paywallId, in: funnel)
    }

    /// `cannotShowPaywall(_:in:)` of a page with this `type` and `paywallId`.
    private static func cannotShowPaywall(type: String, paywallId: String?, in funnel: Funnel) -> Bool {
        guard isPaywallType(type) else { return false }
        guard let paywallId, !paywallId.isEmpty, let paywalls = funnel.paywalls else { return true }
        return paywalls[paywallId] == nil
    }

    // MARK: Condition text

    /// The most elements of an array value a condition text spells out.
    public static let conditionElementLimit = 12

    /// How `condition` reads: `goal = lose_weight ∧ age ≥ 40`; `always` and `never` for an `all`
    /// and an `any` without clauses.
    public static func text(of condition: Condition) -> String {
        if condition.clauses.isEmpty { return condition.op == .all ? "always" : "never" }
        return condition.clauses.map(text(of:)).joined(separator: condition.op == .all ? " ∧ " : " ∨ ")
    }

    /// How one clause reads: `age ≥ 40`, `goal ∈ {a, b}`, `email answered`.
    public static func text(of clause: Clause) -> String {
        let question = clause.questionId
        let value = clause.value?.owned
        switch clause.op {
        case .eq: return "\(question) = \(text(of: value))"
        case .neq: return "\(question) ≠ \(text(of: value))"
        case .gt: return "\(question) > \(text(of: value))"
        case .gte: return "\(question) ≥ \(text(of: value))"
        case .lt: return "\(question) < \(text(of: value))"
        case .lte: return "\(question) ≤ \(text(of: value))"
        case .between:
            if case .array(let bounds)? = value, bounds.count == 2 {
                return "\(question) ∈ [\(text(of: bounds[0])), \(text(of: bounds[1]))]"
            }
            return "\(question) between \(text(of: value))"
        case .in: return "\(question) ∈ \(setText(of: value))"
        case .notIn: return "\(question) ∉ \(setText(of: value))"
        case .contains: return "\(question) ∋ \(text(of: value))"
        case .isAnswered: return "\(question) answered"
        case .isNotAnswered: return "\(question) not answered"
        }
    }

    private static func setText(of value: JSONValue?) -> String {
        guard case .array(let elements)? = value else { return text(of: value) }
        let shown = elements.prefix(conditionElementLimit).map { text(of: $0) }
        return "{" + shown.joined(separator: ", ") + (elements.count > conditionElementLimit ? ", …" : "") + "}"
    }

    /// A clause value as a condition text shows it: compact JSON, with strings that read
    /// unambiguously left unquoted, and long arrays cut.
    static func text(of value: JSONValue?) -> String {
        guard let value else { return "(no value)" }
        switch value {
        case .string(let string): return isPlain(string) ? string : JSONValue.quoted(string)
        case .array(let elements) where elements.count > conditionElementLimit:
            return "[" + elements.prefix(conditionElementLimit).map { $0.jsonText() }.joined(separator: ",") + ",…]"
        default: return value.jsonText()
        }
    }

    /// A word that cannot be mistaken for a number, `true`, `false`, `null` or several values.
    static func isPlain(_ string: String) -> Bool {
        guard let first = string.unicodeScalars.first, first.properties.isAlphabetic || first == "_",
            !ExactKey.same(string, "true"), !ExactKey.same(string, "false"), !ExactKey.same(string, "null")
        else { return false }
        return string.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "."
        }
    }
}
