import RovenueFallback

/// What makes a finding in one snapshot the same problem as a finding in another: the rule, the
/// subject (`FindingSubject`) and the JSON Pointer of the value at fault, compared by their bytes.
/// Never the line, column or message: an edit above a value moves its line, and a message may
/// count things that change, without the problem being another one.
public struct FindingIdentity: Hashable, Sendable {
    public let ruleId: Rule.ID
    public let subject: FindingSubject
    public let pointer: ExactKey

    public init(_ finding: Finding) {
        ruleId = finding.ruleId
        subject = finding.subject
        pointer = ExactKey(finding.pointer)
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
