import Foundation
import FallbackMarkdown
import RovenueFallback
import Testing

private func example(_ release: String) -> String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples"))) ?? []
    return repositoryPath("Examples/" + (names.first { $0.hasSuffix("-release-\(release).json") } ?? release))
}

/// A snapshot with the given `placements` members.
private func snapshot(_ placements: String, projectId: String = "proj_1") -> String {
    #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"\#(projectId)","placements":{\#(placements)}}"#
}

private func paywall(_ id: String, name: String = "P") -> String {
    #"{"id":"\#(id)","identifier":"\#(id)","name":"\#(name)","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
}

private func entry(_ key: String, _ body: String) -> String {
    #""\#(key)":{"placement":{"identifier":"\#(key)","revision":1},\#(body)}"#
}

private func experiment(_ split: [(String, String)]) -> String {
    let variants = split.map { #"{"variantId":"\#($0.0)","weight":\#($0.1),"paywall":\#(paywall($0.0))}"# }
    return snapshot(entry("a", #""experiment":{"id":"exp","key":"k","variants":[\#(variants.joined(separator: ","))]}"#))
}

/// One pair of snapshots and the exit status expected for each `--fail-on` level.
struct ExitCase: Sendable, CustomTestStringConvertible {
    let label: String
    let old: String
    let new: String
    let breaking: Int32
    let notable: Int32
    let never: Int32
    var testDescription: String { label }
}

@Suite("fallback-site diff")
struct DiffCommandTests {
    static let base = snapshot(entry("a", #""paywall":\#(paywall("pw"))"#) + "," + entry("b", #""paywall":\#(paywall("pw"))"#))

    static let exitCases: [ExitCase] = [
        ExitCase(label: "no change", old: base, new: base, breaking: 0, notable: 0, never: 0),
        ExitCase(
            label: "info only", old: base,
            new: snapshot(entry("a", #""paywall":\#(paywall("pw", name: "Q"))"#) + "," + entry("b", #""paywall":\#(paywall("pw"))"#)),
            breaking: 0, notable: 0, never: 0),
        ExitCase(
            label: "notable", old: experiment([("x", "0.5"), ("y", "0.5")]), new: experiment([("x", "0.6"), ("y", "0.4")]), breaking: 0,
            notable: 1, never: 0),
        ExitCase(
            label: "breaking", old: base, new: snapshot(entry("a", #""paywall":\#(paywall("pw"))"#)), breaking: 1, notable: 1, never: 0),
        ExitCase(
            label: "new snapshot rejected", old: base, new: #"{"formatVersion":1,"placements":[]}"#, breaking: 1, notable: 1, never: 1),
        ExitCase(label: "old snapshot rejected", old: "", new: base, breaking: 1, notable: 1, never: 1),
    ]

    @Test(arguments: exitCases)
    func exitStatusFollowsFailOn(_ item: ExitCase) {
        let files = ["old.json": item.old, "new.json": item.new]
        #expect(run(["diff", "old.json", "new.json"], files: files).status == item.breaking, "default")
        for (level, status) in [("breaking", item.breaking), ("notable", item.notable), ("never", item.never)] {
            for format in ["text", "json", "markdown"] {
                let result = run(["diff", "old.json", "new.json", "--fail-on", level, "--format", format], files: files)
                #expect(result.status == status, "--fail-on \(level) --format \(format)")
                #expect(result.error.isEmpty)
            }
        }
    }

    @Test(arguments: [
        (["diff", "old.json"], "Missing expected argument '<new>'"),
        (["diff", "old.json", "new.json", "extra.json"], "Unexpected argument 'extra.json'"),
        (["diff", "old.json", "new.json", "--fail-on", "info"], "The value 'info' is invalid for '--fail-on <class>'"),
        (["diff", "old.json", "new.json", "--format", "html"], "The value 'html' is invalid for '--format <format>'"),
        (["diff", "-", "-"], "Only one snapshot can be read from standard input"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) {
        let result = run(arguments, files: ["old.json": Self.base, "new.json": Self.base])
        #expect(result.status == 2)
        #expect(result.error.contains(message), "stderr was: \(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test(arguments: ["breaking", "notable", "never"])
    func anUnreadablePathExitsTwo(failOn: String) throws {
        for arguments in [["missing.json", "new.json"], ["new.json", "missing.json"]] {
            let result = run(["diff"] + arguments + ["--fail-on", failOn, "--format", "json"], files: ["new.json": Self.base])
            #expect(result.status == 2)
            // Named in the JSON report, as check names it, not again on standard error.
            #expect(!result.error.contains("cannot read missing.json"))
            // The JSON says which side could not be read, and that the run failed.
            let report = try jsonObject(result.output)
            let side = arguments[0] == "missing.json" ? "old" : "new"
            #expect((report[side] as? [String: Any])?["readable"] as? Bool == false)
            #expect((report["summary"] as? [String: Any])?["failed"] as? Bool == true)
        }
    }

    @Test func helpDocumentsTheCommand() {
        let help = run(["diff", "--help"])
        #expect(help.status == 0)
        for expected in [
            "USAGE: fallback-site diff <old> <new> [--format <format>] [--fail-on <class>]", "values: text, json, markdown",
            "values: breaking, notable, never", "(default: the configuration's `diffFailOn`, else breaking)", "(default: text)",
        ] {
            #expect(help.output.contains(expected), "missing \(expected)")
        }
        #expect(run(["--help"]).output.contains("diff"))
    }

    @Test func textReadsLikeAChangelogGroupedByClass() throws {
        let result = run(["diff", example("3.1"), example("3.2"), "--verbose"])
        #expect(result.status == 1)
        let output = result.output
        let headings = ["Breaking (1)", "Notable (5)", "Info (3)", "Re-bucketing"].map { output.range(of: "\n\($0)\n")?.lowerBound }
        #expect(headings.allSatisfy { $0 != nil })
        #expect(headings.compactMap { $0 } == headings.compactMap { $0 }.sorted())
        #expect(output.contains("  - spring_sale [placement-removed] Placement \"spring_sale\" is removed"))
        #expect(output.contains("50/50 → 34/33/33 moves 49.0% of subscribers"))
        #expect(output.contains(#"      "control" → "short_quiz": 1600 buckets (3400–4999)"#))
        #expect(output.contains(#"      (none) → {"op":"lt","question_id":"sleep_hours","value":6}"#))
        #expect(output.hasSuffix("\n1 breaking, 5 notable, 3 info\n"))
        #expect(output.hasPrefix("old: \(example("3.1")): the SDK loads 7 of 7 entries (generated 2026-04-14T16:03:08Z)\n"))
    }

    @Test func identicalSnapshotsSayNoChanges() {
        let result = run(["diff", example("3.0"), example("3.0")])
        #expect(result.status == 0)
        #expect(result.output.contains("\nNo changes.\n"))
        #expect(result.output.hasSuffix("0 breaking, 0 notable, 0 info\n"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let result = run(["diff", example("3.1"), example("3.2"), "--format", "json", "--fail-on", "never"])
        #expect(result.status == 0)
        let json = try jsonObject(result.output)
        #expect(Set(json.keys) == ["old", "new", "changes", "rebucketing", "summary"])
        let old = try #require(json["old"] as? [String: Any])
        #expect(old["path"] as? String == example("3.1"))
        #expect(old["verdict"] as? String == "the SDK loads 7 of 7 entries")
        #expect((old["generatedAt"] as? NSNumber)?.int64Value == 1_776_182_588_000)
        #expect(old["rejected"] as? Bool == false)

        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.count == 9)
        let keys: Set<String> = [
            "class", "kind", "placement", "variant", "funnel", "page", "paywall", "field", "message", "old", "new", "pointer",
            "oldLocation", "newLocation", "copy",
        ]
        #expect(changes.allSatisfy { Set($0.keys) == keys })
        #expect(
            changes.map { $0["class"] as? String } == ["breaking"] + Array(repeating: "notable", count: 5)
                + Array(repeating: "info", count: 3))
        let rule = try #require(changes.first { $0["kind"] as? String == "rule-changed" })
        #expect(rule["placement"] as? String == "sleep_setup")
        #expect(rule["page"] as? String == "pg_trouble")
        #expect(rule["old"] is NSNull)
        #expect(rule["new"] as? String == #"{"op":"lt","question_id":"sleep_hours","value":6}"#)
        let location = try #require(rule["newLocation"] as? [String: Any])
        #expect((location["pointer"] as? String)?.hasPrefix("/placements/sleep_setup/funnel/pages/") == true)
        #expect(location["line"] as? Int == 1)

        let rebucketing = try #require(json["rebucketing"] as? [[String: Any]])
        #expect(rebucketing.count == 1)
        #expect(rebucketing[0]["placement"] as? String == "onboarding")
        #expect(rebucketing[0]["experiment"] as? String == "exp_onb_quiz_len")
        #expect(rebucketing[0]["movedBuckets"] as? Int == 4900)
        #expect(rebucketing[0]["movedShare"] as? Double == 0.49)
        #expect(rebucketing[0]["movedPercent"] as? String == "49.0%")
        #expect(rebucketing[0]["split"] as? String == "50/50 → 34/33/33")
        let moves = try #require(rebucketing[0]["moves"] as? [[String: Any]])
        #expect(moves.map { $0["ranges"] as? [[Int]] } == [[[3400, 4999]], [[6700, 9999]]])

        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["breaking"] as? Int == 1)
        #expect(summary["notable"] as? Int == 5)
        #expect(summary["info"] as? Int == 3)
        #expect(summary["failed"] as? Bool == false)
    }

    @Test func aRejectedSnapshotIsBreakingInEveryFormat() throws {
        let files = ["old.json": Self.base, "new.json": "{\"formatVersion\":1,\"placements\":{} trailing"]
        let json = try jsonObject(run(["diff", "old.json", "new.json", "--format", "json", "--fail-on", "never"], files: files).output)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.map { $0["kind"] as? String } == ["file-rejected"])
        #expect((json["new"] as? [String: Any])?["rejected"] as? Bool == true)
        #expect((json["summary"] as? [String: Any])?["failed"] as? Bool == true)
        let text = run(["diff", "old.json", "new.json"], files: files).output
        #expect(text.contains("Breaking (1)"))
        #expect(text.contains("the SDK rejects this file"))
        let markdown = run(["diff", "old.json", "new.json", "--format", "markdown"], files: files).output
        #expect(markdown.contains("### Breaking (1)"))
        #expect(markdown.contains("file-rejected"))
    }

    @Test func markdownRendersAsTablesWithCmarkGFM() throws {
        let result = run(["diff", example("3.1"), example("3.2"), "--format", "markdown"])
        #expect(result.status == 1)
        let html = Markdown.html(from: result.output)
        #expect(html.contains("<h2>Fallback snapshot diff</h2>"))
        #expect(html.contains("<h3>Breaking (1)</h3>"))
        #expect(html.contains("<summary>Info (3)</summary>"))
        #expect(html.components(separatedBy: "<table>").count - 1 == 5)
        #expect(html.contains("<td>spring_sale</td>"))
        #expect(html.contains("50/50 → 34/33/33"))
        #expect(html.contains("4900 of 10000 buckets (49.0% of subscribers)"))
        #expect(Self.rows(html) == [4, 4, 4] + Array(repeating: 5, count: 2 + 6 + 4 + 2))
    }

    /// The number of cells in each table row of rendered HTML.
    static func rows(_ html: String) -> [Int] {
        html.components(separatedBy: "<tr>").dropFirst().map { row in
            let body = row.components(separatedBy: "</tr>")[0]
            return body.components(separatedBy: "<td").count - 1 + body.components(separatedBy: "<th").count - 1
        }
    }

    /// Markup of every kind, in two parts each shorter than the 200 characters the Markdown shows
    /// of a placement key, and whole.
    static let hostileHead =
        "x|y <script>alert(1)</script> [link](javascript:alert(1)) ![i](https://e.example/x.png) *em* _u_ **b** "
        + "~~del~~ `code` <b>bold</b> &amp; &lt; \\|\\\\| "
    static let hostileTail = "www.evil.example https://evil.example/a <https://auto.example> mail@evil.example #1 "
        + "\n# heading\r\n| --- | --- |\n- item \u{7} end"
    static let hostile = hostileHead + hostileTail

    @Test func markdownEscapesEverySnapshotString() throws {
        // Each key within the 200 characters docs/diff.md says a row shows.
        #expect(Self.hostileHead.count < 200 && Self.hostileTail.count + 2 < 200)
        let key = JSONValue.quoted(Self.hostileHead)
        let alias = JSONValue.quoted(Self.hostileTail + " 2")
        let old = snapshot(#"\#(key):{"placement":{"identifier":\#(key),"revision":1},"paywall":\#(paywall("pw"))}"#)
        let new = snapshot(
            #"\#(key):{"placement":{"identifier":\#(key),"revision":2},"paywall":{"id":"pw","identifier":"pw","name":\#(key),"#
                + #""configFormatVersion":1,"remoteConfig":null,"offering":null}},"#
                + #"\#(alias):{"placement":{"identifier":"z","revision":1},"paywall":\#(paywall("pw"))}"#)
        let result = run(["diff", "old.json", "new.json", "--format", "markdown"], files: ["old.json": old, "new.json": new])
        #expect(result.status == 0)
        let markdown = result.output
        let html = Markdown.html(from: markdown)
        for forbidden in ["<script", "<a ", "<img", "<em>", "<strong>", "<del>", "<code>", "<b>", "<h1", "<li>", "<ul>"] {
            #expect(!html.contains(forbidden), "\(forbidden) in \(html)")
        }
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("[link](javascript:alert(1))"))
        #expect(html.contains("&amp;amp;"))
        #expect(html.contains("mail@\u{200B}evil.example"))
        let cells = Self.rows(html)
        #expect(cells == [4, 4, 4, 5, 5, 5, 5, 5], "\(html)")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("#") && !$0.hasPrefix("## ") && !$0.hasPrefix("### ") })
    }

    @Test func markdownShowsAtMost250RowsPerClassAndSaysWhatItCut() {
        let many = snapshot((0..<260).map { entry(String(format: "p%03d", $0), #""paywall":\#(paywall("pw"))"#) }.joined(separator: ","))
        let result = run(["diff", "old.json", "new.json", "--format", "markdown"], files: ["old.json": snapshot(""), "new.json": many])
        #expect(result.status == 0)
        #expect(result.output.contains("Notable: 260"))
        #expect(result.output.contains("| p249 | placement-added |"))
        #expect(!result.output.contains("| p250 |"))
        #expect(result.output.contains("10 more notable changes not shown; `--format json` lists them all."))
    }

    @Test func oneSnapshotCanComeFromStandardInput() {
        let result = run(
            ["diff", "-", "new.json"], files: ["-": Self.base, "new.json": snapshot(entry("a", #""paywall":\#(paywall("pw"))"#))])
        #expect(result.status == 1)
        #expect(result.output.contains("  - b [placement-removed]"))
    }

    @Test func jsonKeepsHostileStringsExact() throws {
        let quoted = JSONValue.quoted(Self.hostile)
        let old = snapshot("")
        let new = snapshot(#"\#(quoted):{"placement":{"identifier":\#(quoted),"revision":1},"paywall":\#(paywall("pw"))}"#)
        let json = try jsonObject(
            run(["diff", "old.json", "new.json", "--format", "json"], files: ["old.json": old, "new.json": new]).output)
        let changes = try #require(json["changes"] as? [[String: Any]])
        #expect(changes.first?["placement"] as? String == Self.hostile)
        let text = run(["diff", "old.json", "new.json"], files: ["old.json": old, "new.json": new]).output
        #expect(!text.contains("\u{7}"))
        // A person's text cuts a key past 80 characters, as messages cut ids.
        #expect(Self.hostile.count > 80)
        #expect(text.contains("  - \(JSONValue.quoted(String(Self.hostile.prefix(80))))… [placement-added]"))
    }
}
