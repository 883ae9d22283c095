import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// Every example in `docs/rules.md` shows its rule alone: checked as the tool checks it, it gives
/// that rule's findings and no other rule's.
@Suite("docs/rules.md: each example reports exactly its rule")
struct RuleExampleTests {
    /// One rule's section: its id and its example, as the document writes them.
    struct Example: CustomTestStringConvertible, Sendable {
        let rule: String
        let text: String
        var testDescription: String { rule }
    }

    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8)) ?? ""
    }()

    /// Each `### \`rule\`` section's first ```json block.
    static let examples: [Example] = document.components(separatedBy: "\n### `").dropFirst().compactMap { section in
        let rule = String(section.prefix { $0 != "`" })
        guard let block = section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "\n```").first else {
            return nil
        }
        return Example(rule: rule, text: block)
    }

    /// The file the document says to wrap entry examples in: the backticked text with `{…}`.
    static let wrapper: String? = {
        guard let start = document.range(of: "wrap them in\n`")?.upperBound ?? document.range(of: "wrap them in `")?.upperBound,
            let end = document[start...].firstIndex(of: "`")
        else { return nil }
        return String(document[start..<end])
    }()

    /// The rules an example may report beside its own, and why; empty when every example shows
    /// its rule alone.
    static let exceptions: [String: Set<String>] = [:]

    @Test func theDocumentHasAnExampleForEveryRuleAndSaysHowToWrapEntries() throws {
        #expect(Set(Self.examples.map(\.rule)) == Set(Rule.all.map(\.id.rawValue)))
        let wrapper = try #require(Self.wrapper)
        #expect(wrapper.contains("{…}"))
    }

    @Test(arguments: examples)
    func theExampleReportsExactlyItsRule(example: Example) throws {
        let rule = try #require(Rule(id: Rule.ID(rawValue: example.rule)))
        let reported: [Finding]
        if rule.category == .history {
            reported = try historyFindings(example.text)
            // Each snapshot of a series is checked on its own too, as history and build do.
            let document = JSONDocument(text: example.text)
            for element in document.root.elements {
                let snapshot = String(decoding: document.bytes[element.byteRange], as: UTF8.self)
                #expect(findings(snapshot).map(\.ruleId.rawValue) == [], "a snapshot of \(example.rule)'s example")
            }
        } else {
            let wrapper = try #require(Self.wrapper)
            let text = example.text.hasPrefix("{") || example.text.hasPrefix("[") ? example.text : wrapper.replacingOccurrences(of: "{…}", with: "{\(example.text)}")
            reported = findings(text)
        }
        let allowed = Self.exceptions[example.rule, default: []].union([example.rule])
        let ids = reported.map(\.ruleId.rawValue)
        #expect(ids.contains(example.rule), "the example of \(example.rule) does not report it")
        #expect(Set(ids).subtracting(allowed).isEmpty, "the example of \(example.rule) also reports \(Set(ids).subtracting(allowed).sorted())")
    }
}
