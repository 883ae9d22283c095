import RovenueFallback

/// What makes a finding in one snapshot the same problem as a finding in another: the rule, what
/// the finding is about by its keys and ids alone, and where inside that thing the value at fault
/// sits (the JSON Pointer below the subject's own node), compared by their bytes.
///
/// Never a position that another edit can move: not the line, column or message, and not the
/// array index of a page, variant or funnel (a page inserted in front, or a funnel that moves from
/// a variant to the entry itself, leaves its pages' problems the same problems). Two copies of one
/// funnel in two variants therefore share an identity; `FindingComparison` matches such reports
/// one for one.
public struct FindingIdentity: Hashable, Sendable {
    public let ruleId: Rule.ID
    /// The subject's kind and its keys and ids, outermost first (placement key, experiment id,
    /// variant id, funnel id, page id, paywall id), without indices, and without the route by
    /// which a placement serves a funnel or paywall.
    public let subjectPath: [ExactKey]
    /// The finding's JSON Pointer below the subject's node: `/options/2/imageUrl` of a page's
    /// finding, the whole pointer for a finding about the file.
    public let pointer: ExactKey

    public init(_ finding: Finding) {
        ruleId = finding.ruleId
        let (path, anchor) = Self.path(of: finding.subject)
        subjectPath = path
        pointer = ExactKey(Self.pointer(finding.jsonPointer, below: anchor))
    }

    /// `pointer(_:below:)` of `pointer`, the tail searched first and the head apart
    /// (`Anchor.pointer(_:)`).
    static func pointer(_ pointer: JSONPointer, below anchor: [String]) -> String {
        Anchor(anchor).pointer(pointer)
    }

    /// The subject's kind and ids, and the pointer segments that end its node (searched from the end).
    static func path(of subject: FindingSubject) -> ([ExactKey], [String]) {
        // Not the route: a funnel or paywall that moves between a variant and the entry itself
        // carries the same problems.
        func served(_ funnel: FindingSubject.ServedFunnel) -> [ExactKey] { [funnel.placementKey, funnel.id] }
        switch subject {
        case .file:
            return ([ExactKey("file")], [])
        case .placement(let key):
            return ([ExactKey("placement"), key], ["placements", key.string])
        case .experiment(let key, let id):
            return ([ExactKey("experiment"), key, id], ["experiment"])
        case .variant(let key, let index, let id):
            return ([ExactKey("variant"), key, id], ["variants", String(index)])
        case .funnel(let funnel):
            return ([ExactKey("funnel")] + served(funnel), ["funnel"])
        case .page(let funnel, let index, let id):
            return ([ExactKey("page")] + served(funnel) + [id], ["pages", String(index)])
        case .paywall(.placement(let key, _), let id):
            return ([ExactKey("paywall"), key, id], ["paywall"])
        case .paywall(.funnel(let funnel), let id):
            return ([ExactKey("funnel-paywall")] + served(funnel) + [id], ["paywalls"])
        }
    }

    /// `pointer` below the last place its segments read `anchor` (for `paywalls`, the map's key
    /// too), segments compared by their bytes; the whole pointer when they never do.
    static func pointer(_ pointer: String, below anchor: [String]) -> String {
        Anchor(anchor).below(in: pointer) ?? pointer
    }

    /// The pointer segments that end a subject's node, escaped, as a finding's pointer spells them.
    struct Anchor {
        /// The segments, escaped (`paywalls` alone for a funnel's paywall).
        let expected: [String]
        /// How many segments the node's pointer ends with: one more than `expected` for `paywalls`,
        /// whose map key follows.
        let width: Int

        init(_ anchor: [String]) {
            expected = anchor.map(JSONDocument.escapePointerToken)
            // A funnel's paywall sits under `paywalls/<key>`: its node is one segment deeper.
            width = anchor == ["paywalls"] ? 2 : anchor.count
        }

        /// The segments of `text` (a pointer, or its tail or head) after the last place they read
        /// the anchor, each with its "/"; nil when they never do, or the anchor is empty.
        func below(in text: String) -> String? {
            guard width > 0 else { return nil }
            // Split at "/" bytes: a key may start with a combining mark, which joins the "/" before it
            // into one `Character` (and comparing that with "/" normalises all of it).
            let segments = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
                .map { String(Substring($0)) }
            guard segments.count >= width else { return nil }
            for start in stride(from: segments.count - width, through: 0, by: -1) {
                let matches = zip(segments[start...], expected).allSatisfy { ExactKey.same($0, $1) }
                if matches { return segments[(start + width)...].map { "/" + $0 }.joined() }
            }
            return nil
        }

        /// `below(in:)` of the whole pointer, or the whole pointer, reading the tail first: the
        /// last place the anchor reads is there when it is there at all. Else it is in the head,
        /// within one of its links: the anchor's segments are schema words and keys, and its first
        /// (`placements`, `pages`, …) is never long, so it cannot start at a link's end, the end of
        /// a long token. `headBelow` gives the head's part (`below(inHead:)`), which a caller with
        /// many findings under one head keeps; it is asked only when the tail has no match.
        func pointer(_ pointer: JSONPointer, headBelow: (JSONPointer.Head) -> String?) -> String {
            guard width > 0 else { return pointer.string }
            if let below = below(in: pointer.tail) { return below }
            guard let head = pointer.head else { return pointer.tail }
            return headBelow(head).map { $0 + pointer.tail } ?? pointer.string
        }

        /// `pointer(_:headBelow:)` with the head searched here.
        func pointer(_ pointer: JSONPointer) -> String {
            self.pointer(pointer) { below(inHead: $0) }
        }

        /// The head's bytes after the last place its segments read the anchor, or nil when they
        /// never do: searched link by link from the last, each link's bytes on their own.
        func below(inHead head: JSONPointer.Head) -> String? {
            var later: [String] = []
            var link: JSONPointer.Head? = head
            while let current = link {
                if let below = below(in: current.segment) { return below + later.reversed().joined() }
                later.append(current.segment)
                link = current.parent
            }
            return nil
        }

        /// True when `other` reads the same segments, compared by their bytes.
        func same(_ other: Anchor) -> Bool {
            width == other.width && expected.count == other.expected.count
                && zip(expected, other.expected).allSatisfy { ExactKey.same($0, $1) }
        }
    }

    /// Findings' identities made in a row (`FindingComparison`): each subject's keys and ids become
    /// small numbers, shared by all the findings given, so comparing and hashing identities reads
    /// no key. A key can be a megabyte with thousands of findings about it; those findings hold
    /// the one string of their entry, page or funnel, which `KeyNumbering` recognises without
    /// reading it, so a key is read once, not once a finding or a run.
    struct Table {
        /// A finding's identity, its subject's keys and ids numbered.
        struct Key: Hashable {
            let ruleId: Rule.ID
            let subjectPath: [Int]
            let pointer: ExactKey
        }

        private var numbers = KeyNumbering()
        private var lastSubject: (subject: FindingSubject, path: [Int], anchor: Anchor)?
        private var lastHead: (head: JSONPointer.Head, anchor: Anchor, below: String?)?

        /// The identity of `finding`, as `FindingIdentity(finding)` makes it.
        mutating func key(for finding: Finding) -> Key {
            let path: [Int]
            let anchor: Anchor
            if let last = lastSubject, last.subject == finding.subject {
                (path, anchor) = (last.path, last.anchor)
            } else {
                let (keys, segments) = FindingIdentity.path(of: finding.subject)
                // The subjects' keys are mostly the one string of their entry, page or funnel:
                // numbered without reading them (`KeyNumbering`).
                path = keys.map { numbers.number(for: $0) }
                anchor = Anchor(segments)
                lastSubject = (finding.subject, path, anchor)
            }
            let pointer = anchor.pointer(finding.jsonPointer) { head in
                if let last = lastHead, last.head === head, last.anchor.same(anchor) { return last.below }
                let below = anchor.below(inHead: head)
                lastHead = (head, anchor, below)
                return below
            }
            return Key(ruleId: finding.ruleId, subjectPath: path, pointer: ExactKey(pointer))
        }
    }
}

extension Finding {
    /// The finding's identity across snapshots.
    public var identity: FindingIdentity { FindingIdentity(self) }
}

/// Where a finding stands against the previous snapshot (as Allure marks results across runs).
public enum FindingStatus: String, Sendable, Hashable, CaseIterable {
    /// Not in the previous snapshot.
    case new
    /// In the previous snapshot too.
    case stillPresent = "still-present"
    /// In the previous snapshot and gone from this one.
    case fixed

    /// The badge's words: `new`, `still present`, `fixed`.
    public var label: String {
        switch self {
        case .new: "new"
        case .stillPresent: "still present"
        case .fixed: "fixed"
        }
    }
}

/// The findings of a snapshot against those of the snapshot before it: each current finding new or
/// still present, and the previous findings that are gone (fixed). Findings are matched by
/// `FindingIdentity` through a hash table, so the cost is linear in the findings of both; a
/// problem reported twice in one snapshot is matched once per report, in order: the current
/// reports take the first previous ones, and the last are the ones fixed.
public struct FindingComparison: Sendable {
    /// The status of each current finding, in the order given: `.new` or `.stillPresent` (the
    /// first `limit` only, for a comparison made `listing(first:)`).
    public private(set) var statuses: [FindingStatus]
    /// The previous findings with no match among the current ones, in the order given (the first
    /// `limit` only, for a comparison made `listing(first:)`).
    public private(set) var fixed: [Finding]
    /// How many current findings are new, and how many still present; how many previous ones are fixed.
    public let newCount: Int
    public let stillPresentCount: Int
    public let fixedCount: Int

    public init(previous: [Finding], current: [Finding]) {
        self.init(previous: previous, current: current) { _, _ in }
    }

    /// The comparison, telling `matched` each current finding that is still present with the
    /// position of the previous finding it is matched with.
    package init(previous: [Finding], current: [Finding], matched: (_ current: Int, _ previous: Int) -> Void) {
        var table = FindingIdentity.Table()
        // The previous findings of each identity as a chain in order: the first not yet matched,
        // and after each one the next of the same identity (-1 for none).
        var firstUnmatched: [FindingIdentity.Table.Key: Int] = [:]
        firstUnmatched.reserveCapacity(previous.count)
        var nextSame = [Int](repeating: -1, count: previous.count)
        var lastOfKey: [FindingIdentity.Table.Key: Int] = [:]
        lastOfKey.reserveCapacity(previous.count)
        for index in previous.indices {
            let key = table.key(for: previous[index])
            if let last = lastOfKey.updateValue(index, forKey: key) {
                nextSame[last] = index
            } else {
                firstUnmatched[key] = index
            }
        }
        var isMatched = [Bool](repeating: false, count: previous.count)
        var statuses: [FindingStatus] = []
        statuses.reserveCapacity(current.count)
        var stillPresent = 0
        for index in current.indices {
            let key = table.key(for: current[index])
            if let earlier = firstUnmatched[key], earlier >= 0 {
                firstUnmatched[key] = nextSame[earlier]
                isMatched[earlier] = true
                statuses.append(.stillPresent)
                stillPresent += 1
                matched(index, earlier)
            } else {
                statuses.append(.new)
            }
        }
        var fixed: [Finding] = []
        for index in previous.indices where !isMatched[index] { fixed.append(previous[index]) }
        self.statuses = statuses
        self.fixed = fixed
        newCount = current.count - stillPresent
        stillPresentCount = stillPresent
        fixedCount = fixed.count
    }

    /// This comparison with the statuses of the first `limit` current findings and the first
    /// `limit` fixed ones, and the counts of all: what a page that lists `limit` findings reads.
    /// A series keeps one comparison per snapshot, and a snapshot can have thousands of findings.
    public func listing(first limit: Int) -> FindingComparison {
        var listed = self
        if statuses.count > limit { listed.statuses = Array(statuses.prefix(limit)) }
        if fixed.count > limit { listed.fixed = Array(fixed.prefix(limit)) }
        return listed
    }
}
