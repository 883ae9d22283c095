import FallbackAudit

/// Findings, or a diff's changes, as the text reports list them, in the order given.
///
/// A finding is one compiler-style line, `path:line:column: severity: [rule] message`, so an editor
/// or a terminal jumps to it. When one rule reports `groupMinimum` or more findings of one severity
/// in one file, they are listed together under one heading at the place of the first,
/// `path: severity: [rule] N findings`, each on an indented line that keeps its `path:line:column`.
/// Infos the `TextStyle` does not list are left out and counted.
///
/// A diff's changes (`Layout.changelog`) are grouped the same way under their class's heading:
/// one change is `  - placement [kind] message`; `groupMinimum` or more of one kind are
/// `  [kind] N changes`, each then on an indented `    - placement message` line.
struct FindingListText {
    /// One finding, where it is, and whether it fails the run (then it is listed whatever the style).
    struct Item {
        var path: String
        var finding: Finding
        var fails: Bool
    }

    /// One line of the list as the grouping sees it: a finding or a change.
    struct Entry {
        /// What a group shares besides its rule and severity: the file (a diff's class: nothing).
        var scope: String
        /// Where it is: `path:line:column`, or a change's placement.
        var location: String
        var rule: String
        var severity: Severity
        var message: String
        /// A second line under it: a change's `old → new`.
        var detail: String?
    }

    /// How the lines are written: a compiler's, or a changelog's under a class heading.
    enum Layout {
        case compiler
        case changelog
    }

    /// How many findings of one rule in one file are grouped under a heading.
    static let groupMinimum = 3

    /// The lines, each ending in a line break.
    let text: String
    /// How many infos are not listed.
    let hiddenInfos: Int

    init(_ items: [Item], style: TextStyle) {
        let listed = items.filter { style.lists($0.finding, failing: $0.fails) }
        hiddenInfos = items.count - listed.count
        let entries = listed.map { item in
            Entry(
                scope: item.path, location: "\(item.path):\(item.finding.line):\(item.finding.column)", rule: item.finding.ruleId.rawValue,
                severity: item.finding.severity, message: item.finding.message)
        }
        text = Self.text(entries, layout: .compiler, style: style)
    }

    /// Every entry listed, grouped as `layout` writes a group.
    init(_ entries: [Entry], layout: Layout, style: TextStyle) {
        hiddenInfos = 0
        text = Self.text(entries, layout: layout, style: style)
    }

    private static func text(_ entries: [Entry], layout: Layout, style: TextStyle) -> String {
        struct GroupKey: Hashable {
            let scope: String
            let rule: String
            let severity: Severity
        }
        func key(_ entry: Entry) -> GroupKey { GroupKey(scope: entry.scope, rule: entry.rule, severity: entry.severity) }

        var groups: [GroupKey: [Entry]] = [:]
        for entry in entries { groups[key(entry), default: []].append(entry) }

        var text = ""
        var written = Set<GroupKey>()
        for entry in entries {
            let key = key(entry)
            let members = groups[key] ?? []
            guard members.count >= groupMinimum else {
                text += line(entry, layout: layout, style: style)
                continue
            }
            guard written.insert(key).inserted else { continue }
            text += heading(entry, count: members.count, layout: layout, style: style)
            for member in members { text += memberLine(member, layout: layout, style: style) }
        }
        return text
    }

    /// `path:line:column: severity: [rule] message`, or `  - placement [kind] message`.
    private static func line(_ entry: Entry, layout: Layout, style: TextStyle) -> String {
        switch layout {
        case .compiler:
            "\(style.paint(entry.location, .location)): \(label(entry, style: style)) \(VisibleText.forTerminal(entry.message))\n"
        case .changelog:
            "  - \(VisibleText.forTerminal(entry.location)) \(style.paint("[\(entry.rule)]", .rule)) \(VisibleText.forTerminal(entry.message))\n"
                + detail(entry, indent: "      ")
        }
    }

    /// `path: severity: [rule] N findings`, or `  [kind] N changes`.
    private static func heading(_ entry: Entry, count: Int, layout: Layout, style: TextStyle) -> String {
        switch layout {
        case .compiler: "\(style.paint(entry.scope, .location)): \(label(entry, style: style)) \(count) findings\n"
        case .changelog: "  \(style.paint("[\(entry.rule)]", .rule)) \(count) changes\n"
        }
    }

    /// A group's member, indented under its heading, keeping where it is.
    private static func memberLine(_ entry: Entry, layout: Layout, style: TextStyle) -> String {
        switch layout {
        case .compiler: "  \(style.paint(entry.location, .location)): \(VisibleText.forTerminal(entry.message))\n"
        case .changelog:
            "    - \(VisibleText.forTerminal(entry.location)) \(VisibleText.forTerminal(entry.message))\n" + detail(entry, indent: "        ")
        }
    }

    /// The detail under an entry, each of its lines indented.
    private static func detail(_ entry: Entry, indent: String) -> String {
        guard let detail = entry.detail else { return "" }
        return lines(of: detail).map { VisibleText.forTerminal(indent + $0) + "\n" }.joined()
    }

    /// `text`'s lines: what `text.split(separator: "\n", omittingEmptySubsequences: false)` gives.
    ///
    /// A line ends at each "\n" that is a character of its own, the ones not after a "\r" (a line
    /// feed always ends a character, and joins only a carriage return before it), found in the
    /// bytes: splitting at the `Character` "\n" compared each character with it, which normalises
    /// a character of many combining marks in time quadratic in their number.
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var lineStart = text.utf8.startIndex
        var previous: UInt8 = 0
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: "\n"), previous != UInt8(ascii: "\r") {
                lines.append(Substring(text.utf8[lineStart..<index]))
                lineStart = text.utf8.index(after: index)
            }
            previous = byte
        }
        lines.append(Substring(text.utf8[lineStart...]))
        return lines
    }

    /// `severity: [rule]`, each coloured.
    private static func label(_ entry: Entry, style: TextStyle) -> String {
        "\(style.paint(entry.severity)): \(style.paint("[\(entry.rule)]", .rule))"
    }
}
