import RovenueFallback

/// One problem the audit found, at one place in the snapshot, about one subject.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The id of the rule that found it (see `Rule`), or of a diff's change kind.
    public let ruleId: Rule.ID
    /// The rule's severity, or the configuration's override of it.
    public let severity: Severity
    /// What is wrong, naming the ids and values involved, and what it does on a device.
    public let message: String
    /// What the finding is about: a placement, funnel, page, paywall, experiment or variant, or the file.
    public let subject: FindingSubject
    /// The key of the placement the finding is about (its subject's); nil for the file as a whole.
    public let placementKey: String?
    /// The RFC 6901 JSON Pointer of the value at fault (`""` for the top level), as held: the
    /// findings under one long placement key share its bytes (`JSONPointer`).
    public let jsonPointer: JSONPointer
    /// 1-based line of the value at fault.
    public let line: Int
    /// 1-based column of the value at fault, in Unicode scalars.
    public let column: Int

    public init(
        ruleId: Rule.ID, severity: Severity, message: String, subject: FindingSubject, pointer: JSONPointer, line: Int,
        column: Int
    ) {
        self.ruleId = ruleId
        self.severity = severity
        self.message = message
        self.subject = subject
        placementKey = subject.placementKey?.string
        jsonPointer = pointer
        self.line = line
        self.column = column
    }

    public init(
        ruleId: Rule.ID, severity: Severity, message: String, subject: FindingSubject, pointer: String, line: Int, column: Int
    ) {
        self.init(
            ruleId: ruleId, severity: severity, message: message, subject: subject, pointer: JSONPointer(pointer), line: line,
            column: column)
    }

    /// The RFC 6901 JSON Pointer of the value at fault (`""` for the top level), spelled out: a
    /// new string each time, as long as the pointer (`jsonPointer` holds it).
    public var pointer: String { jsonPointer.string }

    /// A finding about the placement under `placementKey`, or about the file when it is nil: what
    /// history and diff findings are about.
    public init(
        ruleId: Rule.ID, severity: Severity, message: String, placementKey: String?, pointer: JSONPointer, line: Int, column: Int
    ) {
        self.init(
            ruleId: ruleId, severity: severity, message: message, subject: FindingSubject(placementKey: placementKey),
            pointer: pointer, line: line, column: column)
    }

    public init(
        ruleId: Rule.ID, severity: Severity, message: String, placementKey: String?, pointer: String, line: Int, column: Int
    ) {
        self.init(
            ruleId: ruleId, severity: severity, message: message, subject: FindingSubject(placementKey: placementKey),
            pointer: pointer, line: line, column: column)
    }

    /// The rule that found it.
    public var rule: Rule? { Rule(id: ruleId) }

    /// The same finding: texts compared by their bytes (`ExactKey`), as ids are, not by `String`'s
    /// canonical equivalence, whose hashing normalises the text first: a message quoting a run of
    /// N combining marks out of order cost N² steps to hash (the site's memos hash findings).
    public static func == (lhs: Finding, rhs: Finding) -> Bool {
        lhs.ruleId == rhs.ruleId && lhs.severity == rhs.severity && lhs.line == rhs.line && lhs.column == rhs.column
            && lhs.subject == rhs.subject && lhs.jsonPointer == rhs.jsonPointer
            && ExactKey.same(lhs.placementKey, rhs.placementKey) && ExactKey.same(lhs.message, rhs.message)
    }

    /// Not the subject or the placement key, which `==` compares: findings at one place with one
    /// message are nearly always about one thing, and hashing a key reads all of it, where a
    /// megabyte key can have thousands of findings (the pointer's head keeps its hash).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ruleId)
        hasher.combine(severity)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(jsonPointer)
        hasher.combine(ExactKey(message))
    }

    /// This finding, holding `earlier`'s storage for its message, subject (with the placement key)
    /// and pointer wherever those are the same bytes: equal to this finding (`==`), but what a
    /// series keeps of a problem reported in snapshot after snapshot is its text once, not once
    /// per snapshot (`SeriesWalk`).
    ///
    /// A text longer than `sharedTextLimit` bytes is kept as it is, not compared: a megabyte key
    /// in thousands of findings would make the comparing cost its length times their number.
    package func sharingText(with earlier: Finding) -> Finding {
        let limit = Self.sharedTextLimit
        let sameMessage = message.utf8.count <= limit && ExactKey.same(message, earlier.message)
        let sameSubject = subject.keyByteCount <= limit && subject == earlier.subject
        let samePointer = jsonPointer.utf8Count <= limit && jsonPointer == earlier.jsonPointer
        return Finding(
            ruleId: ruleId, severity: severity, message: sameMessage ? earlier.message : message,
            subject: sameSubject ? earlier.subject : subject, pointer: samePointer ? earlier.jsonPointer : jsonPointer,
            line: line, column: column)
    }

    /// The longest text `sharingText(with:)` compares, in bytes.
    package static let sharedTextLimit = 4096

    /// `line:column severity rule-id [key] pointer: message`.
    public var description: String {
        let key = placementKey.map { " [\($0)]" } ?? ""
        let location = jsonPointer.isEmpty ? "" : " \(jsonPointer)"
        return "\(line):\(column) \(severity.rawValue) \(ruleId)\(key)\(location): \(message)"
    }
}

/// Changes to the rules' default severities: report a rule at another severity, or not at all.
public struct AuditConfiguration: Sendable, Hashable {
    /// What to do with one rule's findings.
    public enum Override: Sendable, Hashable {
        /// Do not report the rule.
        case off
        /// Report the rule at this severity.
        case severity(Severity)

        /// Reads `off`, `error`, `warning` or `info`.
        public init?(_ text: String) {
            if text == "off" {
                self = .off
            } else if let severity = Severity(rawValue: text) {
                self = .severity(severity)
            } else {
                return nil
            }
        }
    }

    /// Rule id → override; rules not listed keep their default severity.
    public var overrides: [Rule.ID: Override]

    public init(overrides: [Rule.ID: Override] = [:]) {
        self.overrides = overrides
    }

    /// The severity `rule` is reported at, or nil when it is off.
    public func severity(of rule: Rule) -> Severity? {
        switch overrides[rule.id] {
        case nil: rule.severity
        case .off: nil
        case .severity(let severity): severity
        }
    }

    /// Overridden ids that name no rule, sorted.
    public var unknownRuleIds: [Rule.ID] {
        overrides.keys.filter { Rule(id: $0) == nil }.sorted()
    }
}
