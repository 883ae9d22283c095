import FallbackAudit

/// How a report's `text` output looks: which findings it lists, and whether it is coloured.
///
/// By default the text lists errors and warnings and only counts infos, so the findings that
/// matter stay on one screen; an info that fails the run (`--fail-on info`) is always listed, since
/// a run must never fail on something it does not show. Every other format lists every finding.
public struct TextStyle: Sendable, Hashable {
    /// List infos too (`--verbose`, or `"showInfos": true` in the configuration).
    public var listsInfos: Bool
    /// Colour severities, rule ids and locations with ANSI escape sequences (SGR).
    public var usesColor: Bool

    public init(listsInfos: Bool = false, usesColor: Bool = false) {
        self.listsInfos = listsInfos
        self.usesColor = usesColor
    }

    /// True when the text lists `finding`: it is not an info, infos are listed, or it fails the run.
    public func lists(_ finding: Finding, failing: Bool) -> Bool {
        listsInfos || failing || finding.severity > .info
    }

    /// What a run of text is, for its colour.
    public enum Role: Sendable, Hashable, CaseIterable {
        case error, warning, info
        /// A rule id or a change's kind.
        case rule
        /// `path:line:column`, or a path.
        case location

        /// The role of a severity's name.
        public init(_ severity: Severity) {
            switch severity {
            case .error: self = .error
            case .warning: self = .warning
            case .info: self = .info
            }
        }

        /// The SGR parameters: bold red, bold yellow and bold cyan for the severities (as compilers
        /// colour them), magenta for a rule, bold for a location.
        var parameters: String {
            switch self {
            case .error: "1;31"
            case .warning: "1;33"
            case .info: "1;36"
            case .rule: "35"
            case .location: "1"
            }
        }
    }

    /// The sequence that ends every coloured run.
    static let reset = "\u{1B}[0m"

    /// `text` as a terminal must show it: its hidden characters spelled out (`VisibleText`), then,
    /// with colour on, wrapped in the colour of `role`. Colour only ever wraps text already
    /// spelled out, so no text from a snapshot or a path can carry an escape sequence of its own.
    public func paint(_ text: String, _ role: Role) -> String {
        let visible = VisibleText.forTerminal(text)
        guard usesColor, !visible.isEmpty else { return visible }
        return "\u{1B}[\(role.parameters)m\(visible)\(Self.reset)"
    }

    /// `severity` by name, coloured as it: `error`, `warning`, `info`.
    public func paint(_ severity: Severity) -> String {
        paint(severity.rawValue, Role(severity))
    }

    /// `2 errors, 1 warning`: how many findings of each severity, most severe first, each count
    /// coloured as its severity; empty for none. When `hiddenInfos` infos are not listed they are
    /// counted apart (`1 warning; 11 infos not shown`), and `hint` says how to list them.
    public func counts(_ counts: SeverityCounts, hiddenInfos: Int = 0, hint: Bool = false) -> String {
        func count(_ severity: Severity, _ number: Int) -> String {
            paint("\(number) \(severity.noun(count: number))", Role(severity))
        }
        let shown = Severity.allCases.sorted(by: >).compactMap { severity -> String? in
            let number = counts[severity] - (severity == .info ? hiddenInfos : 0)
            return number > 0 ? count(severity, number) : nil
        }
        var text = shown.joined(separator: ", ")
        if hiddenInfos > 0 {
            text += (text.isEmpty ? "" : "; ") + count(.info, hiddenInfos) + " not shown"
            if hint { text += ": \(Self.verboseHint)" }
        }
        return text
    }

    /// ` (2 errors, 1 warning)`: `counts(_:hiddenInfos:hint:)` in parentheses after a verdict; empty for none.
    public func tally(_ counts: SeverityCounts, hiddenInfos: Int = 0, hint: Bool = false) -> String {
        let text = self.counts(counts, hiddenInfos: hiddenInfos, hint: hint)
        return text.isEmpty ? "" : " (\(text))"
    }

    /// How a reader lists what the text leaves out.
    public static let verboseHint = "--verbose lists them"
}

/// When text output is coloured: `--color auto|always|never`.
public enum ColorChoice: String, Sendable, Hashable, CaseIterable {
    /// On a terminal, unless `NO_COLOR` is set to anything non-empty or `TERM` is `dumb`.
    case auto
    /// Always, even when `NO_COLOR` is set or the output is a file or a pipe.
    case always
    case never

    /// True when text written to standard output is coloured: `isTerminal` says whether it is a
    /// terminal, `variables` is the environment (`NO_COLOR`, see https://no-color.org; `TERM`).
    public func usesColor(isTerminal: Bool, variables: [String: String]) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isTerminal && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
        }
    }
}
