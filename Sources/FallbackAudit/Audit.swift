import Foundation
import RovenueFallback

/// The checks beyond decoding: what a fallback file does on an offline first launch that the
/// loader alone does not say.
///
/// ```swift
/// let findings = Audit(now: Date()).findings(in: FallbackFile(bytes: bytes))
/// ```
public struct Audit: Sendable {
    /// The time `generated-at-future` compares `generatedAt` with; nil skips that rule.
    public var now: Date?
    public var configuration: AuditConfiguration

    public init(now: Date? = nil, configuration: AuditConfiguration = AuditConfiguration()) {
        self.now = now
        self.configuration = configuration
    }

    /// Every finding in `file`, ordered by line, column, then rule id.
    ///
    /// A file the SDK rejects gets `file-rejected` and, for the array quirk, `array-top-level`:
    /// nothing in it loads, so nothing else applies.
    public func findings(in file: FallbackFile) -> [Finding] {
        var run = AuditRun(file: file, configuration: configuration, now: now)
        run.checkFile()
        if file.rejection == nil {
            for record in file.entries {
                run.checkEntry(record)
            }
        }
        return run.finish()
    }
}

extension FallbackFile {
    /// The audit's findings for this file; see `Audit`.
    public func audit(now: Date? = nil, configuration: AuditConfiguration = AuditConfiguration()) -> [Finding] {
        Audit(now: now, configuration: configuration).findings(in: self)
    }
}

/// One pass of the audit over one file: collects findings, locates them at the end.
struct AuditRun {
    /// Where a finding points.
    enum Anchor {
        /// A value: its pointer and its first byte.
        case value(Int)
        /// An object member's key node: the pointer of its value, the position of the key.
        case key(Int)
        /// A place computed elsewhere (the loader's rejection).
        case fixed(pointer: String, position: JSONDocument.Position)
    }

    struct Pending {
        let rule: Rule
        let severity: Severity
        let message: String
        let placementKey: String?
        let anchor: Anchor
        let sequence: Int
    }

    let file: FallbackFile
    let document: JSONDocument
    let configuration: AuditConfiguration
    let now: Date?
    private var pending: [Pending] = []
    private var entryKeys: Set<String>?
    /// Reused for every page, theme and paywall of the run.
    var media: MediaScan

    init(file: FallbackFile, configuration: AuditConfiguration, now: Date?) {
        self.file = file
        self.document = file.document
        self.configuration = configuration
        self.now = now
        media = MediaScan(document: file.document)
    }

    func isEnabled(_ rule: Rule) -> Bool {
        configuration.overrides.isEmpty || configuration.severity(of: rule) != nil
    }

    mutating func report(_ rule: Rule, _ message: String, key: String?, at anchor: Anchor) {
        guard let severity = configuration.overrides.isEmpty ? rule.severity : configuration.severity(of: rule) else { return }
        pending.append(
            Pending(rule: rule, severity: severity, message: message, placementKey: key, anchor: anchor, sequence: pending.count))
    }

    mutating func report(_ rule: Rule, _ message: String, key: String?, at node: Int) {
        report(rule, message, key: key, at: .value(node))
    }

    /// The node of `field` in a decoded value when it is written, else the value's own node.
    func node<T: SourceBacked>(of field: String, in value: T) -> Int {
        file.fieldRef(field, in: value)?.node ?? value.source.node
    }

    /// True when `placements` has an entry under `key`.
    mutating func hasEntry(forKey key: String) -> Bool {
        if entryKeys == nil { entryKeys = Set(file.entries.map(\.key)) }
        return entryKeys!.contains(key)
    }

    /// The line and column of a node's first byte.
    func position(ofNode node: Int) -> JSONDocument.Position {
        document.value(at: node).position
    }

    func finish() -> [Finding] {
        var located: [(finding: Finding, sequence: Int)] = []
        located.reserveCapacity(pending.count)
        for item in pending {
            let pointer: String
            let position: JSONDocument.Position
            switch item.anchor {
            case .value(let node):
                pointer = document.value(at: node).pointer
                position = self.position(ofNode: node)
            case .key(let node):
                pointer = document.value(at: node + 1).pointer
                position = self.position(ofNode: node)
            case .fixed(let fixedPointer, let fixedPosition):
                pointer = fixedPointer
                position = fixedPosition
            }
            let finding = Finding(
                ruleId: item.rule.id, severity: item.severity, message: item.message, placementKey: item.placementKey,
                pointer: pointer, line: position.line, column: position.column)
            located.append((finding, item.sequence))
        }
        located.sort { lhs, rhs in
            let left = lhs.finding
            let right = rhs.finding
            if left.line != right.line { return left.line < right.line }
            if left.column != right.column { return left.column < right.column }
            if left.ruleId != right.ruleId { return left.ruleId < right.ruleId }
            return lhs.sequence < rhs.sequence
        }
        return located.map(\.finding)
    }
}
