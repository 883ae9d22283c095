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
        var suites: [String] = []
        var totals = Tally()
        for file in report.files {
            let (suite, tally) = self.suite(file, report: report)
            suites.append(suite)
            totals.add(tally)
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(MarkupEscaping.xmlAttribute(report.title))\"\(totals.attributes)>\n"
            + suites.joined()
            + "</testsuites>\n"
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

    /// A case's identity: the placement (nil for the file) and the rule.
    private struct CaseKey: Hashable {
        let placement: String?
        let rule: Rule.ID
    }

    static func suite(_ file: CheckReport.File, report: CheckReport) -> (String, Tally) {
        let classname = MarkupEscaping.xmlAttribute(file.path)
        var tally = Tally()
        var cases = ""

        func open(_ name: String) -> String {
            "    <testcase classname=\"\(classname)\" name=\"\(MarkupEscaping.xmlAttribute(name))\" time=\"0\""
        }

        if case .unreadable(let reason) = file.status {
            tally.tests = 1
            tally.errors = 1
            cases = open(ReportRule.fileUnreadable.id.rawValue) + ">\n"
                + "      <error type=\"\(ReportRule.fileUnreadable.id)\" message=\"\(MarkupEscaping.xmlAttribute(file.verdict))\">"
                + "\(MarkupEscaping.xmlText(reason))</error>\n    </testcase>\n"
            return (suiteElement(file, tally: tally, cases: cases), tally)
        }

        var findingsByCase: [CaseKey: [(finding: Finding, location: CheckReport.Location?)]] = [:]
        var order: [CaseKey] = []
        let fileRules = report.rules.filter { $0.scope == .file }.map(\.id)
        let placementRules = report.rules.filter { $0.scope == .placement }.map(\.id)
        order += fileRules.map { CaseKey(placement: nil, rule: $0) }
        for key in file.placementKeys {
            order += placementRules.map { CaseKey(placement: key, rule: $0) }
        }
        var known = Set(order)
        for (index, finding) in file.findings.enumerated() {
            let key = CaseKey(placement: report.rule(finding.ruleId)?.scope == .file ? nil : finding.placementKey, rule: finding.ruleId)
            if known.insert(key).inserted { order.append(key) }
            findingsByCase[key, default: []].append((finding, file.location(ofFindingAt: index)))
        }

        for key in order {
            let name = key.placement.map { "\($0)/\(key.rule)" } ?? key.rule.rawValue
            let findings = findingsByCase[key] ?? []
            tally.tests += 1
            let failing = findings.filter { file.isFailure($0.finding, at: report.failOn) }
            let lines = findings.map { line($0.finding, at: $0.location) }.joined(separator: "\n")
            if let first = failing.first?.finding {
                tally.failures += 1
                cases += open(name) + ">\n"
                    + "      <failure type=\"\(first.severity.rawValue)\" message=\"\(MarkupEscaping.xmlAttribute(first.message))\">"
                    + MarkupEscaping.xmlText(lines) + "</failure>\n    </testcase>\n"
            } else if !findings.isEmpty {
                cases += open(name) + ">\n      <system-out>" + MarkupEscaping.xmlText(lines) + "</system-out>\n    </testcase>\n"
            } else if file.isRejected, key.placement == nil {
                tally.skipped += 1
                cases += open(name) + ">\n      <skipped message=\"not checked: the SDK rejects this file\"/>\n    </testcase>\n"
            } else {
                cases += open(name) + "/>\n"
            }
        }
        return (suiteElement(file, tally: tally, cases: cases), tally)
    }

    static func suiteElement(_ file: CheckReport.File, tally: Tally, cases: String) -> String {
        "  <testsuite name=\"\(MarkupEscaping.xmlAttribute(file.path))\"\(tally.attributes)>\n"
            + "    <properties>\n      <property name=\"verdict\" value=\"\(MarkupEscaping.xmlAttribute(file.verdict))\"/>\n    </properties>\n"
            + cases
            + "  </testsuite>\n"
    }

    /// `path:line:column: severity: [rule] message`, as the text report writes a finding; without
    /// the location when it has none.
    static func line(_ finding: Finding, at location: CheckReport.Location?) -> String {
        (location.map { "\($0.text): " } ?? "") + "\(finding.severity.rawValue): [\(finding.ruleId)] \(finding.message)"
    }
}
