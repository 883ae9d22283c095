import FallbackAudit
import FallbackDiff
@testable import FallbackReports
import FallbackTestSupport
import Foundation
@testable import RovenueFallback
import Testing

/// A diff whose changes all sit under one long placement key: each change's locations share the
/// key's bytes, point at the values they name, the JSON report is written as it is made and is
/// still `jsonValue`'s text, and the text report cuts the key as messages cut ids.
@Suite struct LongKeyDiffReportTests {
    static let key = String(repeating: "k", count: 3 * JSONPointer.longToken)

    /// One placement keyed `key` whose funnel's first page has `rules` rules to `target<i>`.
    static func snapshot(key: String = key, rules: Int, target: String, generatedAt: Int = 1_764_400_000_000) -> String {
        let ruleList = (0..<rules).map { #"{"id":"r\#($0)","condition":{"op":"all","clauses":[]},"goto":"\#(target)\#($0)"}"# }
            .joined(separator: ",")
        let funnel = #"{"id":"f","slug":"f","paywalls":{"pw":\#(Snap.paywall())},"pages":["#
            + #"{"id":"p1","type":"welcome","next_rules":[\#(ruleList)]},{"id":"p3","type":"paywall","paywallId":"pw"}]}"#
        return #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"p","placements":{"#
            + #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},"funnel":\#(funnel)},"#
            + #""short":{"placement":{"identifier":"short","revision":1},"funnel":\#(funnel)}}}"#
    }

    static func report(_ old: String, _ new: String) -> DiffReport {
        DiffReport(
            diff: SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)), oldPath: "old.json", newPath: "new.json",
            failOn: .breaking, title: "t", tool: ReportTool(name: "t", version: "0"))
    }

    static let pairs: [(String, String)] = [
        (snapshot(rules: 40, target: "q"), snapshot(rules: 40, target: "z", generatedAt: 1_764_500_000_000)),
        (snapshot(rules: 40, target: "q"), snapshot(rules: 10, target: "q")),
        (snapshot(rules: 5, target: "q"), snapshot(key: key + "x", rules: 5, target: "q")),
    ]

    /// The value a JSON Pointer names, its tokens unescaped (`~1` → `/`, `~0` → `~`) and looked up
    /// member by member (the last of a repeated name) or element by element.
    static func resolve(_ pointer: String, in document: JSONDocument) -> JSONDocument.Value? {
        guard !pointer.isEmpty else { return document.root }
        var value = document.root
        for token in pointer.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            let name = String(Substring(token)).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if value.kind == .array, let index = Int(name), index < value.elements.count {
                value = value.elements[index]
            } else if let member = value.members.last(where: { ExactKey.same($0.key, name) }) {
                value = member.value
            } else {
                return nil
            }
        }
        return value
    }

    /// Every location names the value at its line and column, and the locations under the long
    /// key, found one after another, hold its bytes once.
    @Test(arguments: 0..<pairs.count) func locationsPointAtTheirValuesAndShareTheKey(_ which: Int) throws {
        let (oldText, newText) = Self.pairs[which]
        let old = FallbackFile(text: oldText)
        let new = FallbackFile(text: newText)
        let diff = SnapshotDiff(old: old, new: new)
        #expect(!diff.changes.isEmpty)
        for change in diff.changes {
            for (location, file) in [(change.oldLocation, old), (change.newLocation, new)] {
                guard let location else { continue }
                let value = try #require(Self.resolve(location.pointer, in: file.document), "\(location.pointer.suffix(40))")
                #expect(value.position.line == location.line && value.position.column == location.column)
                #expect(location.jsonPointer == JSONPointer(location.pointer))
            }
        }
        // Each side's speller: one head for the key's changes on that side.
        for heads in [diff.changes.compactMap { $0.oldLocation?.jsonPointer.head }, diff.changes.compactMap { $0.newLocation?.jsonPointer.head }] {
            #expect(heads.allSatisfy { $0 === heads[0] })
        }
        if which == 0 {
            #expect(diff.changes.count(where: { $0.newLocation?.jsonPointer.head != nil }) == 40)
        }
    }

    /// Written a chunk at a time, the JSON report is `jsonValue`'s pretty text byte for byte.
    @Test(arguments: 0..<pairs.count) func theStreamedJSONIsTheValuesText(_ which: Int) throws {
        let (old, new) = Self.pairs[which]
        let report = Self.report(old, new)
        let expected = report.jsonValue.jsonText([.prettyPrinted]) + "\n"
        #expect(report.rendered(as: .json) == expected)
        final class Received: @unchecked Sendable { var text = "" }
        let received = Received()
        let sink = ReportSink(chunkSize: 100) { received.text += $0 }
        report.write(as: .json, style: TextStyle(), to: sink)
        sink.finish()
        #expect(received.text == expected)
    }

    /// The same for the Examples' releases, one after another.
    @Test func theStreamedJSONOfTheExamplesIsTheValuesText() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 2)
        for (old, new) in zip(files, files.dropFirst()) {
            let read = { (name: String) in String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self) }
            let report = Self.report(try read(old), try read(new))
            #expect(report.rendered(as: .json) == report.jsonValue.jsonText([.prettyPrinted]) + "\n", "\(old) → \(new)")
        }
    }

    /// One placement keyed `key` whose funnel, between the two snapshots, loses the paywall its
    /// `count` paywall pages show (breaking), gains `count` pages (notable) and changes every old
    /// page's title to `title` (info): three classes of `count` changes under one key.
    static func threeClasses(key: String, count: Int, title: @escaping (Int) -> String) -> (String, String) {
        let side = { (isNew: Bool) -> String in
            var pages = (0..<count).map { index in
                let text = isNew ? title(index) : "Old \(index)"
                return #"{"id":"p\#(index)","type":"paywall","paywallId":"a","title":"\#(text)"}"#
            }
            if isNew { pages += (0..<count).map { #"{"id":"n\#($0)","type":"welcome"}"# } }
            let paywalls = isNew ? "" : #","paywalls":{"a":\#(Snap.paywall("a"))}"#
            return #"{"formatVersion":1,"projectId":"p","placements":{"\#(key)":{"placement":{"identifier":"home","revision":1},"#
                + #""funnel":{"id":"f","slug":"f","pages":[\#(pages.joined(separator: ","))]\#(paywalls)}}}}"#
        }
        return (side(false), side(true))
    }

    /// The Markdown names a long key by its first 199 characters and `…` in every row, and stays
    /// within the check's Markdown limit (under GitHub's 1 MiB) however long the key: a 100 kB key
    /// over 750 rows once made 75 MB.
    @Test func theMarkdownCutsALongKeyAndStaysUnderItsLimit() throws {
        let key = String(repeating: "k", count: 100_000)
        let (old, new) = Self.threeClasses(key: key, count: 300) { "New \($0)" }
        let diff = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))
        #expect([ChangeClass.breaking, .notable].map { diff.count($0) } == [300, 300] && diff.count(.info) >= 300)
        let markdown = Self.report(old, new).markdown()
        #expect(markdown.utf8.count <= MarkdownReport.defaultByteLimit)
        #expect(!markdown.contains(String(repeating: "k", count: MarkdownReport.keyLimit)))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| " + String(repeating: "k", count: MarkdownReport.keyLimit - 1) + "… |") }
        #expect(rows.count == 3 * DiffReport.markdownRowLimit)
        #expect(markdown.contains("50 more breaking changes not shown; `--format json` lists them all."))
    }

    /// Rows that do not fit the limit are counted with the rest, breaking ones kept first: here
    /// each info row holds two texts of 20 kB.
    @Test func rowsPastTheMarkdownLimitAreCountedBreakingFirst() throws {
        let long = String(repeating: "word ", count: 4_000)
        let (old, new) = Self.threeClasses(key: "home", count: 100) { "\(long)\($0)" }
        let report = Self.report(old, new)
        let markdown = report.markdown()
        #expect(markdown.utf8.count <= MarkdownReport.defaultByteLimit)
        #expect(!markdown.contains("more breaking changes not shown") && !markdown.contains("more notable changes not shown"))
        let infoSection = try #require(markdown.components(separatedBy: "<summary>Info").last)
        let shownInfo = infoSection.split(separator: "\n").count { $0.hasPrefix("| home |") }
        let copyRows = infoSection.components(separatedBy: "| home | copy-changed |").count - 1
        #expect(copyRows > 0 && copyRows < 100)
        #expect(markdown.contains("\(report.diff.count(.info) - shownInfo) more info changes not shown; `--format json` lists them all."))
    }

    /// The text report names a long key by its first 80 characters and `…`, on every change's line.
    @Test func theTextCutsALongKey() {
        let (old, new) = Self.pairs[0]
        let text = Self.report(old, new).text(TextStyle(listsInfos: true))
        #expect(text.contains(String(repeating: "k", count: 80) + "…"))
        #expect(!text.contains(String(repeating: "k", count: 81)))
        #expect(text.contains("short"), "the short key's changes are listed under it")
        #expect(DiffReport.display("plain") == "plain")
        #expect(DiffReport.display("a b") == #""a b""#)
        #expect(DiffReport.display(String(repeating: "é", count: 90)) == String(repeating: "é", count: 80) + "…")
        #expect(DiffReport.display(nil) == "(file)")
    }
}
