import FallbackAudit
import FallbackMarkdown
import Foundation
import RovenueFallback

// Issue 9 point 9: a page per rule, quoting `docs/rules.md`, and a permalink on every finding.

/// The rules' documentation as the binary carries it: `docs/rules.md`, embedded at build time with
/// the default theme (the `EmbedTheme` plugin), so it has one source.
enum RuleDocumentation {
    /// The text of `docs/rules.md`.
    static let text: String = String(decoding: DefaultTheme.files["docs/rules.md"] ?? [], as: UTF8.self)

    /// The markdown of each rule's section, below its `### \`id\`` heading, by rule id.
    static let sections: [Rule.ID: String] = sections(of: text)

    /// The sections of `markdown`: what follows each `### \`id\`` heading up to the next heading of
    /// level 2 or 3 (the first one of an id, should there be two).
    static func sections(of markdown: String) -> [Rule.ID: String] {
        var sections: [Rule.ID: String] = [:]
        var current: (id: Rule.ID, lines: [Substring])?
        func close() {
            guard let section = current, sections[section.id] == nil else { return }
            sections[section.id] = trimmed(section.lines.joined(separator: "\n"))
        }
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix("## ") || line.hasPrefix("### ") {
                close()
                current = nil
                if line.hasPrefix("### `"), line.hasSuffix("`") {
                    current = (Rule.ID(String(line.dropFirst(5).dropLast())), [])
                }
                continue
            }
            // The page states severity and category from the catalogue.
            if !line.hasPrefix("Default severity: ") { current?.lines.append(line) }
        }
        close()
        return sections
    }

    /// `text` without the whitespace at its ends, as `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// cuts it (Unicode's White_Space and U+200B ZERO WIDTH SPACE), read scalar by scalar: the
    /// Foundation call copied every section through UTF-16, 2 ms of every build that other
    /// threads waited on.
    static func trimmed(_ text: String) -> String {
        func isCut(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar.value == 0x200B }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isCut($0) }), let last = scalars.lastIndex(where: { !isCut($0) }) else { return "" }
        return String(scalars[start...last])
    }

    /// The section of `id` as HTML (cmark-gfm with raw HTML escaped, not passed through), or nil
    /// when `docs/rules.md` has none.
    static func html(for id: Rule.ID) -> String? {
        sections[id].map { Markdown.html(from: $0, options: []) }
    }
}

/// A finding's permalink: an id for its row, derived from what the finding is, so the same finding
/// gets the same id in every build and on every page that lists it.
enum FindingPermalink {
    /// `f-<rule>-<line>-<column>-<hash>`: the rule id reduced to `a-z`, `0-9` and `-` (at most 40
    /// characters), the position, and 10 hex digits of the SHA-256 of rule, placement key, pointer,
    /// position and message, so no snapshot text reaches the id.
    static func id(for finding: Finding) -> String {
        let rule = slug(finding.ruleId.rawValue)
        // The identity: each part's UTF-8 followed by a zero byte, then whether there is a
        // placement key, appended to one array of the right size.
        let parts = [finding.ruleId.rawValue, finding.placementKey ?? "", finding.pointer, "\(finding.line):\(finding.column)", finding.message]
        var identity: [UInt8] = []
        identity.reserveCapacity(parts.reduce(1) { $0 + $1.utf8.count + 1 })
        for part in parts {
            identity.append(contentsOf: part.utf8)
            identity.append(0)
        }
        identity.append(finding.placementKey == nil ? 0 : 1)
        let hash = SHA256Digest(of: identity).hexString.prefix(10)
        return "f-\(rule.isEmpty ? "rule" : rule)-\(finding.line)-\(finding.column)-\(hash)"
    }

    /// `text` lowercased and reduced to `a-z`, `0-9` and `-`, at most 40 characters: a rule id as
    /// part of an HTML id, whatever it is written with.
    static func slug(_ text: String) -> String {
        // ASCII text (every rule id the audit has) byte by byte: lowercasing ASCII gives ASCII,
        // one letter for one. Other text can lowercase to more scalars, some of them ASCII.
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return slowSlug(text) }
        var kept: [UInt8] = []
        for byte in text.utf8 where kept.count < 40 {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if (lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")) || (lowered >= UInt8(ascii: "0") && lowered <= UInt8(ascii: "9"))
                || lowered == UInt8(ascii: "-")
            {
                kept.append(lowered)
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// `slug(_:)` of any text, by Unicode scalars.
    static func slowSlug(_ text: String) -> String {
        String(
            text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }.prefix(40)
                .map(Character.init))
    }

    /// The ids of `findings` in order, unique within the list: a finding identical to an earlier one
    /// gets `-2`, `-3`, … after the id.
    static func ids(for findings: some Sequence<Finding>, memo: Memo? = nil) -> [String] {
        var seen: [String: Int] = [:]
        return findings.map { finding in
            let id = memo?.id(for: finding) ?? id(for: finding)
            let count = (seen[id] ?? 0) + 1
            seen[id] = count
            return count == 1 ? id : "\(id)-\(count)"
        }
    }

    /// The ids of the findings of a site, each made once: a finding is listed on the checks page,
    /// its placement's or funnel's page and its rule's page, and its id's SHA-256 cost about
    /// 25,000 instructions (160 M over the 4,171 ids of the 1k build). An id depends only on
    /// its finding, so equal findings share it. Safe from any thread; holds at most one id per
    /// finding of the site.
    final class Memo: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: [Finding: String] = [:]

        func id(for finding: Finding) -> String {
            if let id = lock.withLock({ ids[finding] }) { return id }
            let id = FindingPermalink.id(for: finding)
            lock.withLock { ids[finding] = id }
            return id
        }
    }
}

// MARK: - Rule page

struct RulePage: TemplateContext {
    var id: String
    var severity: String
    var category: String
    var summary: String
    /// The rule's section of `docs/rules.md`, as HTML.
    var documentation: TrustedHTML
    var count: Int
    var findingNoun: String
    var hasFindings: Bool
    var findings: [FindingRow]
    var moreFindings: Int

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("severity", \.severity), .init("category", \.category), .init("summary", \.summary),
        .init("documentation", \.documentation), .init("count", \.count), .init("findingNoun", \.findingNoun),
        .init("hasFindings", \.hasFindings),
        .init("findings", \.findings), .init("moreFindings", \.moreFindings),
    ]
}

extension SiteModel {
    /// The page of a rule below the output folder, for a rule of the catalogue.
    static func rulePath(_ id: Rule.ID) -> String? {
        Rule(id: id).map { "rules/\($0.id.rawValue).html" }
    }

    func rulePage(id: String, root: String, values: PageValues) -> RulePage? {
        guard let rule = Rule(id: Rule.ID(id)) else { return nil }
        let findings = snapshot.findings.filter { $0.ruleId == rule.id }
        return RulePage(
            id: rule.id.rawValue, severity: rule.severity.rawValue, category: rule.category.rawValue, summary: rule.summary,
            documentation: values.html(RuleDocumentation.html(for: rule.id) ?? "<p>\(MarkupEscaping.html(rule.summary))</p>"),
            count: findings.count, findingNoun: findings.count == 1 ? "finding" : "findings", hasFindings: !findings.isEmpty, findings: listedFindings(findings, root: root),
            moreFindings: moreFindings(findings))
    }
}
