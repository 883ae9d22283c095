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
        pointer = ExactKey(Self.pointer(finding.pointer, below: anchor))
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
        guard !anchor.isEmpty else { return pointer }
        // Split at "/" bytes: a key may start with a combining mark, which joins the "/" before it
        // into one `Character` (and comparing that with "/" normalises all of it).
        let segments = pointer.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
            .map { String(Substring($0)) }
        let expected = anchor.map(JSONDocument.escapePointerToken)
        // A funnel's paywall sits under `paywalls/<key>`: its node is one segment deeper.
        let width = anchor == ["paywalls"] ? 2 : anchor.count
        guard segments.count >= width else { return pointer }
        for start in stride(from: segments.count - width, through: 0, by: -1) {
            let matches = zip(segments[start...], expected).allSatisfy { ExactKey.same($0, $1) }
            if matches { return segments[(start + width)...].map { "/" + $0 }.joined() }
        }
        return pointer
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
/// problem reported twice in one snapshot is matched once per report, in order.
public struct FindingComparison: Sendable {
    /// The status of each current finding, in the order given: `.new` or `.stillPresent`.
    public let statuses: [FindingStatus]
    /// The previous findings with no match among the current ones, in the order given.
    public let fixed: [Finding]

    public init(previous: [Finding], current: [Finding]) {
        var remaining: [FindingIdentity: Int] = [:]
        remaining.reserveCapacity(previous.count)
        for finding in previous { remaining[finding.identity, default: 0] += 1 }
        var statuses: [FindingStatus] = []
        statuses.reserveCapacity(current.count)
        for finding in current {
            let identity = finding.identity
            if let count = remaining[identity], count > 0 {
                remaining[identity] = count - 1
                statuses.append(.stillPresent)
            } else {
                statuses.append(.new)
            }
        }
        // The last reports of an identity are the ones left over, as the current ones took the first.
        var fixed: [Finding] = []
        var unmatched = remaining
        for finding in previous.reversed() {
            let identity = finding.identity
            guard let count = unmatched[identity], count > 0 else { continue }
            unmatched[identity] = count - 1
            fixed.append(finding)
        }
        self.statuses = statuses
        self.fixed = fixed.reversed()
    }

    /// How many current findings are new, and how many still present.
    public var newCount: Int { statuses.count { $0 == .new } }
    public var stillPresentCount: Int { statuses.count { $0 == .stillPresent } }
}
