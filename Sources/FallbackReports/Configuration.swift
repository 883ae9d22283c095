import FallbackAudit
import FallbackDiff
import RovenueFallback

/// A project's settings for `fallback-site`, from `.fallback-site.json` or a file named with `--config`:
///
/// ```json
/// {"rules": {"remote-media": "off", "single-variant": "info"}, "failOn": "warning", "diffFailOn": "notable", "staleAfterDays": 30,
///  "showInfos": true}
/// ```
///
/// The file is read strictly: unknown keys, unknown rule ids, duplicate keys and values of the wrong
/// kind are errors that name the file, line and column.
public struct Configuration: Sendable, Hashable {
    /// The file read from the current directory when no `--config` is given.
    public static let fileName = ".fallback-site.json"

    /// Per-rule severities (`off` included).
    public var audit: AuditConfiguration
    /// The lowest severity that fails a run, when the file sets it.
    public var failOn: FailureThreshold?
    /// The lowest class of change that fails a `diff`, when the file sets it.
    public var diffFailOn: ChangeThreshold?
    /// How many days after `generatedAt` a snapshot counts as stale, when the file sets it.
    public var staleAfterDays: Int?
    /// The address of `docs/rules.md`, for rule links in reports.
    public var rulesURL: String?
    /// Whether text output lists infos as `--verbose` does, when the file says.
    public var showInfos: Bool?

    public init(
        audit: AuditConfiguration = AuditConfiguration(), failOn: FailureThreshold? = nil, diffFailOn: ChangeThreshold? = nil,
        staleAfterDays: Int? = nil, rulesURL: String? = nil, showInfos: Bool? = nil
    ) {
        self.audit = audit
        self.failOn = failOn
        self.diffFailOn = diffFailOn
        self.staleAfterDays = staleAfterDays
        self.rulesURL = rulesURL
        self.showInfos = showInfos
    }

    static let keys = ["rules", "failOn", "diffFailOn", "staleAfterDays", "rulesUrl", "showInfos"]

    /// Reads a configuration file's bytes; `path` names the file in errors.
    public init(bytes: [UInt8], path: String) throws(ConfigurationError) {
        let document = JSONDocument(bytes: bytes)
        func error(_ message: String, at position: JSONDocument.Position) -> ConfigurationError {
            ConfigurationError(path: path, line: position.line, column: position.column, message: message)
        }
        if let syntaxError = document.syntaxError {
            throw error("not valid JSON: \(syntaxError.message)", at: document.position(ofOffset: syntaxError.offset))
        }
        let root = document.root
        guard root.kind == .object else {
            throw error("expected an object with \(Self.list(Self.keys)), found \(root.kind.article)", at: root.position)
        }
        self.init()
        for member in try Self.uniqueMembers(of: root, error: error) {
            switch member.key {
            case "rules":
                audit = try Self.rules(member.value, error: error)
            case "failOn":
                guard let text = member.value.string, let threshold = FailureThreshold(rawValue: text) else {
                    throw error(
                        "failOn must be \(Self.list(FailureThreshold.allCases.map(\.rawValue))), found \(Self.describe(member.value))",
                        at: member.value.position)
                }
                failOn = threshold
            case "diffFailOn":
                guard let text = member.value.string, let threshold = ChangeThreshold(rawValue: text) else {
                    throw error(
                        "diffFailOn must be \(Self.list(ChangeThreshold.allCases.map(\.rawValue))), found \(Self.describe(member.value))",
                        at: member.value.position)
                }
                diffFailOn = threshold
            case "staleAfterDays":
                guard let days = member.value.number?.int64Value, days >= 1, days <= Int64(Int32.max)
                else {
                    throw error(
                        "staleAfterDays must be a whole number of days, at least 1, found \(Self.describe(member.value))",
                        at: member.value.position)
                }
                staleAfterDays = Int(days)
            case "rulesUrl":
                guard let text = member.value.string, WebAddress.isWebURL(text) else {
                    throw error(
                        "rulesUrl must be an http or https URL without spaces, found \(Self.describe(member.value))",
                        at: member.value.position)
                }
                rulesURL = text
            case "showInfos":
                guard let flag = member.value.bool else {
                    throw error("showInfos must be true or false, found \(Self.describe(member.value))", at: member.value.position)
                }
                showInfos = flag
            default:
                throw error(
                    "unknown key \(JSONValue.quoted(member.key))\(Self.didYouMean(member.key, among: Self.keys)); "
                        + "expected \(Self.list(Self.keys))",
                    at: member.keyValue.position)
            }
        }
    }

    private static func rules(
        _ value: JSONDocument.Value, error: (String, JSONDocument.Position) -> ConfigurationError
    ) throws(ConfigurationError) -> AuditConfiguration {
        guard value.kind == .object else {
            throw error("rules must be an object of rule id to \"off\", \"error\", \"warning\" or \"info\", found \(describe(value))", value.position)
        }
        var configuration = AuditConfiguration()
        for member in try uniqueMembers(of: value, error: error) {
            guard let rule = Rule(id: Rule.ID(member.key)) else {
                throw error(
                    "unknown rule id \(JSONValue.quoted(member.key))\(didYouMean(member.key, among: Rule.all.map(\.id.rawValue))) "
                        + "(docs/rules.md lists every rule)",
                    member.keyValue.position)
            }
            guard let text = member.value.string, let override = AuditConfiguration.Override(text) else {
                throw error(
                    "the severity of \(rule.id) must be \"off\", \"error\", \"warning\" or \"info\", found \(describe(member.value))",
                    member.value.position)
            }
            if rule == .fileRejected, override != .severity(.error) {
                throw error("file-rejected cannot be changed: a file the SDK rejects always fails", member.value.position)
            }
            configuration.overrides[rule.id] = override
        }
        return configuration
    }

    /// An object's members, refusing a key written twice.
    private static func uniqueMembers(
        of object: JSONDocument.Value, error: (String, JSONDocument.Position) -> ConfigurationError
    ) throws(ConfigurationError) -> [JSONDocument.Value.Member] {
        let members = object.members
        var seen = Set<[UInt8]>()
        for member in members where !seen.insert(Array(member.key.utf8)).inserted {
            throw error("duplicate key \(JSONValue.quoted(member.key))", member.keyValue.position)
        }
        return members
    }

    static func describe(_ value: JSONDocument.Value) -> String {
        switch value.kind {
        case .string: "the string \(Format.quoted(value.string ?? ""))"
        case .number: "the number \(value.number?.text ?? "")"
        default: value.kind.article
        }
    }

    static func didYouMean(_ text: String, among candidates: [String]) -> String {
        Format.didYouMean(text, among: candidates)
    }

    static func list(_ items: [String]) -> String {
        let quoted = items.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}

/// A configuration file that cannot be used: where and why.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `path:line:column: message`.
    public var description: String { "\(path):\(line):\(column): \(message)" }
}
