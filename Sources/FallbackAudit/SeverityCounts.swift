/// Finding counts by severity.
public struct SeverityCounts: Sendable, Hashable, CustomStringConvertible {
    public var errors = 0
    public var warnings = 0
    public var infos = 0

    public init() {}

    public init<S: Sequence<Finding>>(_ findings: S) {
        for finding in findings { add(finding.severity) }
    }

    public mutating func add(_ severity: Severity, count: Int = 1) {
        switch severity {
        case .error: errors += count
        case .warning: warnings += count
        case .info: infos += count
        }
    }

    public subscript(severity: Severity) -> Int {
        switch severity {
        case .error: errors
        case .warning: warnings
        case .info: infos
        }
    }

    public var total: Int { errors + warnings + infos }

    /// `1 error, 2 warnings, 14 infos`, leaving out zeros; `no findings` when all are.
    public var description: String {
        let parts = Severity.allCases.sorted(by: >).compactMap { severity -> String? in
            let count = self[severity]
            return count == 0 ? nil : "\(count) \(severity.noun(count: count))"
        }
        return parts.isEmpty ? "no findings" : parts.joined(separator: ", ")
    }
}

extension Severity {
    /// `error`/`errors`, `warning`/`warnings`, `info`/`infos`.
    public func noun(count: Int) -> String {
        count == 1 ? rawValue : rawValue + "s"
    }
}
