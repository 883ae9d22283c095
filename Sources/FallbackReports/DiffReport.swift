import FallbackAudit
import FallbackDiff
import RovenueFallback

/// The lowest class of change that fails a `diff`, or `never`.
public enum ChangeThreshold: String, Sendable, Hashable, CaseIterable {
    case breaking, notable, never

    /// The lowest failing class; nil for `never`.
    public var changeClass: ChangeClass? { ChangeClass(rawValue: rawValue) }

    /// The same threshold over the severities reports give changes (`ChangeClass.severity`).
    public var failureThreshold: FailureThreshold {
        changeClass.map { FailureThreshold(rawValue: $0.severity.rawValue)! } ?? .never
    }
}

extension ChangeClass {
    /// The severity reports give a change: breaking is an error, notable a warning, info an info.
    public var severity: Severity {
        switch self {
        case .breaking: .error
        case .notable: .warning
        case .info: .info
        }
    }
}

extension ReportRule {
    /// A change kind as reports describe it: the class's severity, the class as category, and file
    /// scope for the kinds about a snapshot as a whole. `docs/diff.md` documents the kinds in one
    /// table, so they have no anchor.
    public init(_ kind: ChangeKind) {
        let fileKinds: Set<ChangeKind> = [.fileRejected, .projectChanged, .generatedEarlier]
        self.init(
            id: Rule.ID(kind.id), severity: kind.changeClass.severity, summary: kind.summary, scope: fileKinds.contains(kind) ? .file : .placement,
            category: kind.changeClass.rawValue, anchor: nil)
    }

    /// Every change kind, in `ChangeKind` order.
    public static let changeKinds = ChangeKind.allCases.map(ReportRule.init)
}

extension CheckReport {
    /// A diff as the CI writers read it: one subject named `OLD → NEW`, with a finding per change.
    ///
    /// A finding's rule is the change's kind and its severity the class's; it sits at the change's
    /// place in the new snapshot when it has one, else in the old snapshot, else nowhere. Values
    /// follow the message on a line of their own, `old → new`. The subject is rejected when either
    /// snapshot is, so it fails at every threshold.
    public init(diff: SnapshotDiff, oldPath: String, newPath: String, failOn: ChangeThreshold, title: String, tool: ReportTool) {
        precondition(!diff.isListed, "a diff report lists every change: give it the whole diff, not a listing")
        var findings: [Finding] = []
        var locations: [Location?] = []
        for change in diff.changes {
            let place = change.newLocation.map { (path: newPath, location: $0) } ?? change.oldLocation.map { (path: oldPath, location: $0) }
            var message = change.message
            if change.oldValue != nil || change.newValue != nil {
                message += "\n\(change.oldValue ?? "(none)") → \(change.newValue ?? "(none)")"
            }
            findings.append(
                Finding(
                    ruleId: Rule.ID(change.kind.id), severity: change.changeClass.severity, message: message, placementKey: change.placementKey,
                    pointer: place?.location.jsonPointer ?? JSONPointer(""), line: place?.location.line ?? 0, column: place?.location.column ?? 0))
            locations.append(place.map { Location(path: $0.path, line: $0.location.line, column: $0.location.column) })
        }
        let sides = [("old", diff.old), ("new", diff.new)].map { label, snapshot in
            "\(label): " + (snapshot.rejection.map { "\(snapshot.verdict): \($0)" } ?? snapshot.verdict)
        }
        let counts = ChangeClass.allCases.map { "\(diff.count($0)) \($0.rawValue)" }.joined(separator: ", ")
        let verdict = (sides + [counts]).joined(separator: "; ")
        let subject = File(
            path: "\(oldPath) → \(newPath)", status: diff.hasRejectedSnapshot ? .rejected(verdict: verdict) : .loaded(verdict: verdict),
            findings: findings, locations: locations, placementKeys: [])
        self.init(title: title, tool: tool, files: [subject], rules: ReportRule.changeKinds, failOn: failOn.failureThreshold)
    }

    /// A diff that could not run: each path that could not be read, with why.
    public init(unreadable: [(path: String, reason: String)], failOn: ChangeThreshold, title: String, tool: ReportTool) {
        self.init(
            title: title, tool: tool, files: unreadable.map { File(path: $0.path, unreadable: $0.reason) }, rules: ReportRule.changeKinds,
            failOn: failOn.failureThreshold)
    }
}
