import FallbackAudit

/// Findings as the text reports list them, in the order given.
///
/// A finding is one compiler-style line, `path:line:column: severity: [rule] message`, so an editor
/// or a terminal jumps to it. When one rule reports `groupMinimum` or more findings of one severity
/// in one file, they are listed together under one heading at the place of the first,
/// `path: severity: [rule] N findings`, each on an indented line that keeps its `path:line:column`.
/// Infos the `TextStyle` does not list are left out and counted.
struct FindingListText {
    /// One finding, where it is, and whether it fails the run (then it is listed whatever the style).
    struct Item {
        var path: String
        var finding: Finding
        var fails: Bool
    }

    /// How many findings of one rule in one file are grouped under a heading.
    static let groupMinimum = 3

    /// The lines, each ending in a line break.
    let text: String
    /// How many infos are not listed.
    let hiddenInfos: Int

    init(_ items: [Item], style: TextStyle) {
        struct GroupKey: Hashable {
            let path: String
            let rule: Rule.ID
            let severity: Severity
        }
        func key(_ item: Item) -> GroupKey { GroupKey(path: item.path, rule: item.finding.ruleId, severity: item.finding.severity) }

        let listed = items.filter { style.lists($0.finding, failing: $0.fails) }
        hiddenInfos = items.count - listed.count
        var groups: [GroupKey: [Item]] = [:]
        for item in listed { groups[key(item), default: []].append(item) }

        var text = ""
        var written = Set<GroupKey>()
        for item in listed {
            let key = key(item)
            let members = groups[key] ?? []
            guard members.count >= Self.groupMinimum else {
                text += Self.line(item, style: style)
                continue
            }
            guard written.insert(key).inserted else { continue }
            text += "\(style.paint(item.path, .location)): \(Self.label(item.finding, style: style)) \(members.count) findings\n"
            for member in members {
                text += "  \(Self.location(member, style: style)): \(VisibleText.forTerminal(member.finding.message))\n"
            }
        }
        self.text = text
    }

    /// `path:line:column: severity: [rule] message`.
    static func line(_ item: Item, style: TextStyle) -> String {
        "\(location(item, style: style)): \(label(item.finding, style: style)) \(VisibleText.forTerminal(item.finding.message))\n"
    }

    /// `path:line:column`, coloured as a location.
    static func location(_ item: Item, style: TextStyle) -> String {
        style.paint("\(item.path):\(item.finding.line):\(item.finding.column)", .location)
    }

    /// `severity: [rule]`, each coloured.
    static func label(_ finding: Finding, style: TextStyle) -> String {
        "\(style.paint(finding.severity)): \(style.paint("[\(finding.ruleId)]", .rule))"
    }
}
