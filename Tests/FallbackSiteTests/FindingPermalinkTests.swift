import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A finding's permalink is fed to the hash part by part, and rule ids are reduced byte by byte
/// when ASCII; the ids must be those of the former whole-array hash and scalar-by-scalar slug,
/// kept here as the reference.
@Suite struct FindingPermalinkTests {
    static func referenceId(for finding: Finding) -> String {
        let rule = FindingPermalink.slowSlug(finding.ruleId.rawValue)
        var identity: [UInt8] = []
        for part in [finding.ruleId.rawValue, finding.placementKey ?? "", finding.pointer, "\(finding.line):\(finding.column)", finding.message] {
            identity += Array(part.utf8) + [0]
        }
        identity.append(finding.placementKey == nil ? 0 : 1)
        let hash = SHA256Digest(of: identity).hexString.prefix(10)
        return "f-\(rule.isEmpty ? "rule" : rule)-\(finding.line)-\(finding.column)-\(hash)"
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every finding of every Example, and findings with hostile rule ids, keys, pointers and messages.
    @Test func idsMatchTheReference() throws {
        var findings: [Finding] = []
        let examples = Self.repository.appendingPathComponent("Examples")
        for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) where name.hasSuffix(".json") {
            let bytes = Array(try Data(contentsOf: examples.appendingPathComponent(name)))
            findings += Audit().findings(in: FallbackFile(bytes: bytes))
        }
        #expect(findings.count > 20)
        let texts = ["", "a", "placement.unknown-target", "Funnel.Cycle", "ümlaut", "İstanbul", "ﬁx", "a b\u{0}c", "\u{202E}rtl", "x/y~z",
                     String(repeating: "Rule-", count: 30), "ĸ", "\u{FEFF}", "e\u{301}", "KELVIN \u{212A}", "😀-1"]
        for (index, text) in texts.enumerated() {
            findings.append(Finding(
                ruleId: Rule.ID(text), severity: .warning, message: String(repeating: text, count: index * 7), placementKey: index % 2 == 0 ? nil : text,
                pointer: "/placements/\(text)", line: index, column: index * 3))
        }
        for finding in findings {
            #expect(FindingPermalink.id(for: finding) == Self.referenceId(for: finding), "\(finding.ruleId.rawValue.debugDescription)")
        }
    }

    /// Every ASCII byte, in both cases and past 40 kept characters, reduces as the scalar path does.
    @Test func asciiSlugsMatchTheScalarPath() {
        let everyByte = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in [everyByte, everyByte.uppercased(), String(repeating: "Ab-9_", count: 20), "", "---", "RULE.ID"] {
            #expect(FindingPermalink.slug(text) == FindingPermalink.slowSlug(text), "\(text.debugDescription)")
        }
    }

    /// A site makes each finding's id once (`FindingPermalink.Memo`): lists through the memo,
    /// asked in any order and again, give the ids made without it, repeated findings' `-2`
    /// suffixes included.
    @Test func idsThroughTheMemoAreTheIdsWithoutIt() {
        let findings = (0..<12).map { index in
            Finding(
                ruleId: Rule.ID(index % 3 == 0 ? "funnel.cycle" : "copy.missing"), severity: .warning, message: "message \(index % 5)",
                placementKey: index % 4 == 0 ? nil : "key\(index % 2)", pointer: "/placements/p\(index % 6)", line: index % 7, column: 3)
        }
        let memo = FindingPermalink.Memo()
        for list in [findings, findings.reversed(), findings + findings, Array(findings.prefix(5)), findings] {
            #expect(FindingPermalink.ids(for: list, memo: memo) == FindingPermalink.ids(for: list), "\(list.count)")
        }
        #expect(Set(FindingPermalink.ids(for: findings, memo: memo)).count == findings.count)
    }
}
