import FallbackAudit
import RovenueFallback

/// The lowest severity that fails a run, or `never`.
public enum FailureThreshold: String, Sendable, Hashable, CaseIterable {
    case error, warning, info, never

    /// The lowest failing severity; nil for `never`.
    public var severity: Severity? { Severity(rawValue: rawValue) }

    /// True when a finding of `severity` fails the run.
    public func fails(_ severity: Severity) -> Bool {
        self.severity.map { severity >= $0 } ?? false
    }
}

/// A rule as reports describe it: the audit's rules, and any a command adds (`file-unreadable`).
public struct ReportRule: Sendable, Hashable, Identifiable {
    /// Whether the rule is about a file as a whole or about one placement of it.
    public enum Scope: Sendable, Hashable {
        case file
        case placement
    }

    public let id: Rule.ID
    /// The severity findings get unless a configuration overrides it.
    public let severity: Severity
    public let summary: String
    public let scope: Scope
    /// A tag grouping related rules (the audit's category).
    public let category: String
    /// The rule's heading in the rules' documentation (`ReportTool.rulesURL`), if it has one.
    public let anchor: String?

    public init(id: Rule.ID, severity: Severity, summary: String, scope: Scope, category: String, anchor: String?) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.scope = scope
        self.category = category
        self.anchor = anchor
    }

    public init(_ rule: Rule) {
        self.init(
            id: rule.id, severity: rule.severity, summary: rule.summary, scope: rule.isAboutAPlacement ? .placement : .file,
            category: rule.category.rawValue, anchor: rule.id.rawValue)
    }

    /// A file that could not be read: nothing in it was checked.
    public static let fileUnreadable = ReportRule(
        id: "file-unreadable", severity: .error, summary: "The file could not be read; nothing in it was checked.", scope: .file,
        category: Rule.Category.file.rawValue, anchor: nil)
}

/// The program behind a report, as SARIF's `tool.driver` and the headings name it.
public struct ReportTool: Sendable, Hashable {
    public var name: String
    public var version: String
    /// The tool's home page (an absolute URI).
    public var informationURI: String?
    /// The rules' documentation (`docs/rules.md`, an absolute URI).
    public var rulesURL: String?

    public init(name: String, version: String, informationURI: String? = nil, rulesURL: String? = nil) {
        self.name = name
        self.version = version
        self.informationURI = informationURI
        self.rulesURL = rulesURL
    }

    /// Where `rule` is documented, when it is and the documentation's address is known.
    public func helpURL(for rule: ReportRule?) -> String? {
        guard let rulesURL, let anchor = rule?.anchor else { return nil }
        return "\(rulesURL)#\(anchor)"
    }
}

/// The outcome of checking files, as every report format reads it.
///
/// A report is plain data: the writers (`MarkdownReport`, `GitHubAnnotations`, `JUnitReport`,
/// `SARIFReport`) are pure functions of it. `check` reports one file per input; `diff` reports the
/// comparison as one subject whose findings sit in either snapshot (`File.locations`).
public struct CheckReport: Sendable {
    /// Where a finding is shown: a file, and a line and column in it when known.
    public struct Location: Sendable, Hashable {
        public var path: String
        public var line: Int?
        public var column: Int?

        public init(path: String, line: Int?, column: Int?) {
            self.path = path
            self.line = line
            self.column = column
        }

        /// `path:line:column`, or the path alone without a position.
        public var text: String {
            guard let line, let column else { return path }
            return "\(path):\(line):\(column)"
        }
    }

    /// One input file's outcome, or a diff's comparison of two.
    public struct File: Sendable {
        public enum Status: Sendable, Hashable {
            /// The SDK loads the file; the verdict says how much of it.
            case loaded(verdict: String)
            /// The SDK throws on the file: nothing in it loads.
            case rejected(verdict: String)
            /// The file could not be read: nothing in it was checked.
            case unreadable(reason: String)
        }

        /// The file checked, or what names the subject (`OLD → NEW` for a diff).
        public var path: String
        public var status: Status
        /// Ordered by position.
        public var findings: [Finding]
        /// Where each finding is, in the order of `findings`, when not at its line and column in
        /// `path`: a diff's changes sit in the new snapshot, the old one, or neither (nil). Nil when
        /// every finding is in `path`.
        public var locations: [Location?]?
        /// The placement keys checked, in file order.
        public var placementKeys: [String]

        public init(path: String, status: Status, findings: [Finding], locations: [Location?]? = nil, placementKeys: [String]) {
            precondition(locations == nil || locations?.count == findings.count, "one location per finding")
            self.path = path
            self.status = status
            self.findings = findings
            self.locations = locations
            self.placementKeys = placementKeys
        }

        /// Where `findings[index]` is shown.
        public func location(ofFindingAt index: Int) -> Location? {
            guard let locations else {
                return Location(path: path, line: findings[index].line, column: findings[index].column)
            }
            return locations.indices.contains(index) ? locations[index] : nil
        }

        /// A file as the loader read it, with the audit's findings.
        ///
        /// A rejected file always carries `file-rejected` at `error`, whatever `findings` holds, so
        /// it can never read as clean.
        public init(path: String, file: FallbackFile, findings: [Finding]) {
            self.init(path: path, topLevel: file.topLevel, verdict: CheckedFilesReport.verdict(file), findings: findings)
        }

        /// A file as the loader read it, by its top level and its verdict line
        /// (`CheckedFilesReport.verdict`), with the audit's findings; see `init(path:file:findings:)`.
        init(path: String, topLevel: FallbackTopLevel, verdict: String, findings: [Finding]) {
            guard topLevel.rejection != nil else {
                self.init(path: path, status: .loaded(verdict: verdict), findings: findings, placementKeys: topLevel.entryHeads.map(\.key))
                return
            }
            var kept = findings.filter { $0.ruleId != Rule.fileRejected.id }
            kept += Audit.rejectionFindings(in: topLevel)
            self.init(path: path, status: .rejected(verdict: verdict), findings: Audit.sorted(kept), placementKeys: [])
        }

        /// A file that could not be read.
        public init(path: String, unreadable reason: String) {
            self.init(path: path, status: .unreadable(reason: reason), findings: [], placementKeys: [])
        }

        /// The verdict line: what the loader does with the file, or why it could not be read.
        public var verdict: String {
            switch status {
            case .loaded(let verdict), .rejected(let verdict): verdict
            case .unreadable(let reason): "cannot read \(path): \(reason)"
            }
        }

        public var isRejected: Bool {
            if case .rejected = status { return true }
            return false
        }

        public var isUnreadable: Bool {
            if case .unreadable = status { return true }
            return false
        }

        /// True when the file fails a run at `threshold`: rejected, unreadable, or a finding fails it.
        ///
        /// Reads each finding's severity and rule in place (as `counts` does): `contains` hands
        /// each finding out as a copy, which retains and releases every string it holds, and with
        /// `--fail-on never` it went through every finding, on one thread at the end of the run.
        public func fails(at threshold: FailureThreshold) -> Bool {
            if isRejected || isUnreadable { return true }
            for index in findings.indices
            where threshold.fails(findings[index].severity) || findings[index].ruleId == Rule.fileRejected.id {
                return true
            }
            return false
        }

        /// True when a finding fails the run: it reaches `threshold`, or it is the file's rejection.
        public func isFailure(_ finding: Finding, at threshold: FailureThreshold) -> Bool {
            threshold.fails(finding.severity) || finding.ruleId == Rule.fileRejected.id
        }
    }

    /// What produced the report, e.g. `fallback-site check`.
    public var title: String
    public var tool: ReportTool
    public var files: [File]
    /// The rules that ran (turned-off rules excluded), in catalogue order.
    public var rules: [ReportRule]
    public var failOn: FailureThreshold
    /// What the one subject is when it is not a file (`history`): the Markdown headline then says
    /// whether it passes ("The history fails") instead of counting files.
    public var subjectNoun: String?

    public init(title: String, tool: ReportTool, files: [File], rules: [ReportRule], failOn: FailureThreshold) {
        self.title = title
        self.tool = tool
        self.files = files
        self.rules = rules
        self.failOn = failOn
    }

    /// The rules a single-file audit runs that `configuration` leaves on (history rules need a series).
    public static func rules(enabledBy configuration: AuditConfiguration) -> [ReportRule] {
        Rule.all.filter { $0.category != .history && configuration.severity(of: $0) != nil }.map(ReportRule.init)
    }

    /// True when some file fails the run.
    public var fails: Bool { files.contains { $0.fails(at: failOn) } }

    /// How many findings of each severity the files have, with each unreadable file's
    /// `file-unreadable` counted as an error.
    ///
    /// Reads each finding's severity in place: a finding copied out of its array (as a flattened
    /// sequence of findings gives them) retains and releases every string it holds.
    public var counts: SeverityCounts {
        var counts = SeverityCounts()
        for file in files.indices {
            let findings = files[file].findings
            for index in findings.indices { counts.add(findings[index].severity) }
            if files[file].isUnreadable { counts.add(ReportRule.fileUnreadable.severity) }
        }
        return counts
    }

    /// The rule `id` names, from `rules` or the rules reports add themselves.
    public func rule(_ id: Rule.ID) -> ReportRule? {
        rules.first { $0.id == id } ?? (id == ReportRule.fileUnreadable.id ? .fileUnreadable : Rule(id: id).map(ReportRule.init))
    }
}
