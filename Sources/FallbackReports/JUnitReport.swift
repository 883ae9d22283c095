import FallbackAudit
import RovenueFallback

/// A report as JUnit XML: one `<testsuite>` per file, one `<testcase>` per rule per placement.
///
/// A case's `classname` is the file's path and its `name` is `placement/rule`, or the rule id
/// alone for the rules about the file as a whole. A case fails (`<failure>`, listing every finding)
/// when one of its findings reaches the fail threshold; it passes otherwise, with findings below the
/// threshold in `<system-out>`. A rejected file fails `file-rejected`, and its other file rules are
/// `<skipped/>` (nothing in it was checked); an unreadable file is a suite with one case,
/// `file-unreadable`, in `<error>`. Findings whose case is not among the rules that ran get a case
/// of their own, so none is lost.
public enum JUnitReport {
    public static func render(_ report: CheckReport) -> String {
        let sink = ReportSink.collecting()
        write(report, to: sink)
        return sink.text()
    }

    /// The document, handed to `sink` a chunk at a time as its cases are written.
    public static func write(_ report: CheckReport, to sink: ReportSink) {
        // Every suite's cases are gathered first: the root element carries the totals.
        let suites = report.files.map { Suite($0, report: report) }
        var totals = Tally()
        for suite in suites { totals.add(suite.tally) }
        let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(MarkupEscaping.xmlAttribute(report.title))\"\(totals.attributes)>\n"
        // 10,000 placements make hundreds of thousands of cases. Gathered whole, the buffer is
        // reserved past the estimate: capacity never written costs no memory, and a buffer that
        // has to grow holds its text twice while it is copied. Handed on in chunks, it holds one.
        var output = ""
        let estimate = header.utf8.count + suites.reduce(0) { $0 + $1.estimatedSize } * 3 / 2 + 16
        output.reserveCapacity(sink.isGathering ? estimate : min(estimate, sink.chunkSize + 4096))
        output += header
        for suite in suites { suite.write(to: &output, handingOnTo: sink) }
        output += "</testsuites>\n"
        sink.write(output)
    }

    struct Tally {
        var tests = 0
        var failures = 0
        var errors = 0
        var skipped = 0

        mutating func add(_ other: Tally) {
            tests += other.tests
            failures += other.failures
            errors += other.errors
            skipped += other.skipped
        }

        var attributes: String {
            " tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"0\""
        }
    }

    /// A case's identity: the placement (nil for the file) and the rule. Placement keys are compared
    /// by their bytes (`ExactKey`), as the SDK's map compares them: two keys that `String` would call
    /// equal are two placements, and hashing a key never normalises it.
    private struct CaseKey: Hashable {
        let placement: ExactKey?
        let rule: Rule.ID
    }

    /// One file's `<testsuite>`: its cases in order, each with its findings, and their tally.
    ///
    /// The cases are every file rule, then every placement rule for each placement key in file
    /// order, then, in the order of their first finding, the cases of findings that fit none of
    /// those. Only cases with findings are stored: the rest pass, or are skipped in a rejected file.
    struct Suite {
        typealias Item = (finding: Finding, location: CheckReport.Location?)

        let file: CheckReport.File
        let failOn: FailureThreshold
        let fileRules: [Rule.ID]
        let placementRules: [Rule.ID]
        /// The findings of each placement's placement-rule cases, by rule.
        private var placementFindings: [ExactKey: [Rule.ID: [Item]]] = [:]
        /// The findings of the file-rule cases, by rule.
        private var fileFindings: [Rule.ID: [Item]] = [:]
        /// The cases of findings outside the cases above, in the order of their first finding.
        private var extraCases: [CaseKey] = []
        private var extraFindings: [CaseKey: [Item]] = [:]
        private(set) var tally = Tally()

        init(_ file: CheckReport.File, report: CheckReport) {
            self.file = file
            failOn = report.failOn
            fileRules = report.rules.filter { $0.scope == .file }.map(\.id)
            placementRules = report.rules.filter { $0.scope == .placement }.map(\.id)
            if case .unreadable = file.status {
                tally.tests = 1
                tally.errors = 1
                return
            }
            let fileRuleSet = Set(fileRules)
            let placementRuleSet = Set(placementRules)
            let placementKeySet = Set(file.placementKeys.map(ExactKey.init))
            // `report.rule(_:)` searches the rules: once per rule id, not once per finding.
            var scopes: [Rule.ID: ReportRule.Scope?] = [:]
            // A placement's findings follow one another: its key is looked up and filed once a run
            // (hashing a key reads all of it, and a key can be a megabyte with thousands of findings).
            var placementRuns = RunGrouping<ExactKey, Item>()
            var lastPlacement: (key: ExactKey, isListed: Bool)?
            // The same for the other cases, in runs of one case: a diff's changes come sorted by
            // placement and kind, each a finding of an unlisted placement, and hashing a megabyte
            // key for each of 20,000 changes took 13 s.
            var extraRuns = RunGrouping<CaseKey, Item>()
            var extraSeen: Set<CaseKey> = []
            var lastExtra: CaseKey?
            for index in file.findings.indices {
                let finding = file.findings[index]
                if scopes[finding.ruleId] == nil { scopes[finding.ruleId] = .some(report.rule(finding.ruleId)?.scope) }
                let scope = scopes[finding.ruleId] ?? nil
                let key = CaseKey(placement: scope == .file ? nil : finding.placementKey.map(ExactKey.init), rule: finding.ruleId)
                let item = (finding, file.location(ofFindingAt: index))
                if let placement = key.placement {
                    let isListed: Bool
                    if let last = lastPlacement, last.key == placement {
                        isListed = last.isListed
                    } else {
                        isListed = placementKeySet.contains(placement)
                        lastPlacement = (placement, isListed)
                    }
                    if isListed, placementRuleSet.contains(key.rule) {
                        placementRuns.append(item, under: placement)
                        continue
                    }
                } else if fileRuleSet.contains(key.rule) {
                    fileFindings[key.rule, default: []].append(item)
                    continue
                }
                if lastExtra != key {
                    if extraSeen.insert(key).inserted { extraCases.append(key) }
                    lastExtra = key
                }
                extraRuns.append(item, under: key)
            }
            extraFindings = extraRuns.groups
            placementFindings = placementRuns.groups.mapValues { items in Dictionary(grouping: items, by: { $0.finding.ruleId }) }
            var counted = Tally()
            forEachCase { placement, _, findings in
                counted.tests += 1
                if findings.contains(where: { file.isFailure($0.finding, at: failOn) }) {
                    counted.failures += 1
                } else if findings.isEmpty, file.isRejected, placement == nil {
                    counted.skipped += 1
                }
            }
            tally = counted
        }

        /// Calls `body` with each case in order: its placement (nil for the file), rule and findings.
        private func forEachCase(_ body: (String?, Rule.ID, [Item]) -> Void) {
            for rule in fileRules { body(nil, rule, fileFindings[rule] ?? []) }
            for key in file.placementKeys {
                let found = placementFindings[ExactKey(key)]
                for rule in placementRules { body(key, rule, found?[rule] ?? []) }
            }
            for key in extraCases { body(key.placement?.string, key.rule, extraFindings[key] ?? []) }
        }

        /// A rough size of the suite's text, to reserve the output once.
        var estimatedSize: Int {
            let cases = fileRules.count + file.placementKeys.count * placementRules.count + extraCases.count
            return cases * (file.path.utf8.count + 80) + file.findings.count * 256 + 512
        }

        /// Appends the suite to `output`, handing `output` on to `sink` after each case once it
        /// has reached a chunk.
        func write(to output: inout String, handingOnTo sink: ReportSink) {
            output += "  <testsuite name=\"\(XMLEscaping.attribute(file.path))\"\(tally.attributes)>\n"
            output += "    <properties>\n      <property name=\"verdict\" value=\"\(XMLEscaping.attribute(file.verdict))\"/>\n    </properties>\n"
            // `<testcase classname="PATH" name="`, escaped once for every case of the file.
            let opening = "    <testcase classname=\"\(XMLEscaping.attribute(file.path))\" name=\""
            if case .unreadable(let reason) = file.status {
                output += opening + XMLEscaping.attribute(ReportRule.fileUnreadable.id.rawValue) + "\" time=\"0\">\n"
                    + "      <error type=\"\(ReportRule.fileUnreadable.id)\" message=\"\(XMLEscaping.attribute(file.verdict))\">"
                    + "\(XMLEscaping.text(reason))</error>\n    </testcase>\n"
                output += "  </testsuite>\n"
                return
            }
            // Escaping works character by character, so `PLACEMENT/RULE` escapes as its parts do.
            let escapedRules = Dictionary(
                (fileRules + placementRules).map { ($0, XMLEscaping.attribute($0.rawValue)) }, uniquingKeysWith: { first, _ in first })
            var escapedPlacement: (key: String, text: String)?
            forEachCase { placement, rule, findings in
                output += opening
                if let placement {
                    if escapedPlacement?.key != placement {
                        escapedPlacement = (placement, XMLEscaping.attribute(placement) + "/")
                    }
                    output += escapedPlacement!.text
                }
                output += escapedRules[rule] ?? XMLEscaping.attribute(rule.rawValue)
                guard !findings.isEmpty || (file.isRejected && placement == nil) else {
                    output += "\" time=\"0\"/>\n"
                    sink.handOn(ifFull: &output)
                    return
                }
                output += "\" time=\"0\""
                let lines = { findings.map { JUnitReport.line($0.finding, at: $0.location) }.joined(separator: "\n") }
                if let first = findings.first(where: { file.isFailure($0.finding, at: failOn) })?.finding {
                    output += ">\n      <failure type=\"\(first.severity.rawValue)\" message=\"\(XMLEscaping.attribute(first.message))\">"
                    output += XMLEscaping.text(lines())
                    output += "</failure>\n    </testcase>\n"
                } else if !findings.isEmpty {
                    output += ">\n      <system-out>"
                    output += XMLEscaping.text(lines())
                    output += "</system-out>\n    </testcase>\n"
                } else {
                    output += ">\n      <skipped message=\"not checked: the SDK rejects this file\"/>\n    </testcase>\n"
                }
                sink.handOn(ifFull: &output)
            }
            output += "  </testsuite>\n"
        }
    }

    /// `path:line:column: severity: [rule] message`, as the text report writes a finding; without
    /// the location when it has none.
    static func line(_ finding: Finding, at location: CheckReport.Location?) -> String {
        (location.map { "\($0.text): " } ?? "") + "\(finding.severity.rawValue): [\(finding.ruleId)] \(finding.message)"
    }
}
