@testable import FallbackCLI
import Foundation
import Testing

/// Where each finding of a `check --format json` run is: `path:line:column`, severity and rule.
private func locatedFindings(_ jsonText: String) throws -> [(location: String, severity: String, rule: String)] {
    let files = try #require(try jsonObject(jsonText)["files"] as? [[String: Any]])
    return try files.flatMap { file in
        let path = try #require(file["path"] as? String)
        return try #require(file["findings"] as? [[String: Any]]).map { finding in
            ("\(path):\(finding["line"] as? Int ?? 0):\(finding["column"] as? Int ?? 0)", finding["severity"] as? String ?? "",
             finding["rule"] as? String ?? "")
        }
    }
}

/// A snapshot whose entries serve nothing: one `serves-nothing` warning per key.
private func servingNothing(_ keys: [String]) -> String {
    let entries = keys.map { key in
        let quoted = String(decoding: try! JSONSerialization.data(withJSONObject: key, options: .fragmentsAllowed), as: UTF8.self)
        return #"\#(quoted):{"placement":{"identifier":\#(quoted),"revision":1}}"#
    }
    return #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{\#(entries.joined(separator: ","))}}"#
}

/// Removes the colour sequences (`ESC [ … m`) the text output adds.
private func withoutColor(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

private let funnelEra = ["funnel-era-fallback.json": (try? String(contentsOfFile: funnelEraPath, encoding: .utf8)) ?? ""]

@Suite("Text output: infos counted, repeats grouped, colour on a terminal")
struct TextOutputTests {
    // MARK: Infos

    @Test func infosAreCountedNotListedByDefault() throws {
        let result = run(["check", "funnel-era-fallback.json"], files: funnelEra)
        let all = try locatedFindings(run(["check", "--format", "json", "funnel-era-fallback.json"], files: funnelEra).output)
        #expect(all.count { $0.severity == "info" } == 4)
        #expect(!result.output.contains(": info:"), "\(result.output)")
        for finding in all where finding.severity != "info" {
            // A rule that repeats in the file (`text-not-localized`, 9 times) is listed under one heading.
            let alone = result.output.contains("\(finding.location): \(finding.severity): [\(finding.rule)] ")
            let grouped = result.output.contains(": \(finding.severity): [\(finding.rule)] 9 findings\n")
                && result.output.contains("\n  \(finding.location): ")
            #expect(alone || grouped, "\(finding.location)")
        }
        #expect(result.output.hasSuffix("(3 errors, 12 warnings; 4 infos not shown: --verbose lists them)\n"), "\(result.output)")
    }

    /// `--verbose` and `"showInfos": true` list every finding, each with its `path:line:column`.
    @Test(arguments: [["--verbose"], ["--config", "verbose.json"]])
    func verboseOrTheConfigurationListsEveryFinding(options: [String]) throws {
        var files = funnelEra
        files["verbose.json"] = #"{"showInfos": true}"#
        let result = run(["check", "funnel-era-fallback.json"] + options, files: files)
        let all = try locatedFindings(run(["check", "--format", "json", "funnel-era-fallback.json"], files: funnelEra).output)
        for finding in all { #expect(result.output.contains("\(finding.location): "), "\(finding.location)") }
        #expect(result.output.hasSuffix("(3 errors, 12 warnings, 4 infos)\n"), "\(result.output)")
        #expect(!result.output.contains("not shown"))
    }

    @Test func showInfosFalseKeepsThemCounted() {
        var files = funnelEra
        files["quiet.json"] = #"{"showInfos": false}"#
        let result = run(["check", "funnel-era-fallback.json", "--config", "quiet.json"], files: files)
        #expect(result.output.contains("4 infos not shown"))
    }

    /// A run never fails on a finding it does not show: at `--fail-on info`, from the command line
    /// or the configuration, every info is listed.
    @Test(arguments: [["--fail-on", "info"], ["--config", "info.json"]])
    func infosThatFailTheRunAreListed(options: [String]) throws {
        var files = funnelEra
        files["info.json"] = #"{"failOn": "info"}"#
        let result = run(["check", "funnel-era-fallback.json"] + options, files: files)
        #expect(result.status == 1)
        let all = try locatedFindings(run(["check", "--format", "json", "funnel-era-fallback.json"], files: funnelEra).output)
        for finding in all { #expect(result.output.contains("\(finding.location): "), "\(finding.location)") }
        #expect(!result.output.contains("not shown"))
    }

    /// Hidden is not ignored: whether infos are listed never changes the exit status.
    @Test(arguments: ["error", "warning", "info", "never"])
    func listingInfosNeverChangesTheExitStatus(failOn: String) {
        let infosOnly = ["infos.json": Self.remoteMediaOnly]
        for files in [funnelEra, infosOnly] {
            let path = files.keys.first!
            let quiet = run(["check", path, "--fail-on", failOn], files: files)
            let verbose = run(["check", path, "--fail-on", failOn, "--verbose"], files: files)
            let json = run(["check", path, "--fail-on", failOn, "--format", "json"], files: files)
            #expect(quiet.status == verbose.status)
            #expect(quiet.status == json.status)
        }
        #expect(run(["check", "infos.json", "--fail-on", failOn], files: infosOnly).status == (failOn == "info" ? 1 : 0))
    }

    /// A file whose only findings are infos: one `remote-media` on a paywall.
    static let remoteMediaOnly = #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"paywall":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":2,"builderConfig":{"root":{"type":"image","url":"https://cdn.example.com/a.png"}},"remoteConfig":null,"offering":null}}}}"#

    // MARK: Grouping

    @Test func aRuleRepeatedInAFileIsGroupedAndEveryFindingKeepsItsPlace() throws {
        let files = ["three.json": servingNothing(["a", "b", "c"]), "two.json": servingNothing(["a", "b"])]
        let result = run(["check", "three.json", "two.json"], files: files)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Three in one file: a heading, then each at its place.
        let heading = try #require(lines.firstIndex(of: "three.json: warning: [serves-nothing] 3 findings"), "\(result.output)")
        let all = try locatedFindings(run(["check", "--format", "json", "three.json", "two.json"], files: files).output)
        let grouped = all.filter { $0.location.hasPrefix("three.json:") }
        #expect(grouped.count == 3)
        for (offset, finding) in grouped.enumerated() {
            #expect(lines[heading + 1 + offset].hasPrefix("  \(finding.location): Placement "), "\(lines[heading + 1 + offset])")
        }
        // Two stay on compiler-style lines.
        for finding in all where finding.location.hasPrefix("two.json:") {
            #expect(lines.contains { $0.hasPrefix("\(finding.location): warning: [serves-nothing] Placement ") })
        }
        #expect(!result.output.contains("two.json: warning:"))
    }

    /// The grouped listing, byte for byte: `remote-media`'s four infos under one heading.
    @Test func verboseTextMatchesItsGoldenFile() throws {
        let result = run(["check", "funnel-era-fallback.json", "--verbose"], files: funnelEra)
        #expect(result.output == (try String(contentsOfFile: repositoryPath("Tests/Golden/check/funnel-era.verbose.txt"), encoding: .utf8)))
    }

    /// The Examples' `remote-media` infos, listed with `--verbose`, are grouped per file.
    @Test func verboseGroupsTheRepeatedInfos() throws {
        let path = repositoryPath("Examples/2026-03-03-release-3.0.json")
        let result = run(["check", path, "--verbose"])
        #expect(result.output.contains("\(path): info: [remote-media] 11 findings\n"), "\(result.output)")
        #expect(result.output.split(separator: "\n").count { $0.hasPrefix("  \(path):") } == 11)
    }

    // MARK: Colour

    /// `--color`, `NO_COLOR`, `TERM=dumb` and whether standard output is a terminal.
    @Test(arguments: [
        (option: nil, terminal: true, variables: [:], colored: true),
        (option: nil, terminal: false, variables: [:], colored: false),
        (option: nil, terminal: true, variables: ["NO_COLOR": "1"], colored: false),
        (option: nil, terminal: true, variables: ["NO_COLOR": ""], colored: true),
        (option: nil, terminal: true, variables: ["TERM": "dumb"], colored: false),
        (option: "auto", terminal: true, variables: [:], colored: true),
        (option: "always", terminal: false, variables: [:], colored: true),
        (option: "always", terminal: true, variables: ["NO_COLOR": "1"], colored: true),
        (option: "never", terminal: true, variables: [:], colored: false),
    ] as [(option: String?, terminal: Bool, variables: [String: String], colored: Bool)])
    func colourFollowsTheTerminalNoColorAndTheOption(
        _ option: String?, terminal: Bool, variables: [String: String], colored: Bool
    ) {
        for command in [["check", "funnel-era-fallback.json"], ["diff", "funnel-era-fallback.json", "changed.json"]] {
            var files = funnelEra
            files["changed.json"] = funnelEra.values.first!.replacingOccurrences(of: #""settings_banner""#, with: #""settings_banner2""#)
            let result = run(command + (option.map { ["--color", $0] } ?? []), files: files) { environment in
                environment.isOutputTerminal = terminal
                environment.variables = variables
            }
            #expect(result.output.contains("\u{1B}[") == colored, "\(command) \(result.output)")
            // Colour adds escape sequences and nothing else.
            #expect(withoutColor(result.output) == run(command, files: files).output)
        }
    }

    @Test func severityRuleAndLocationAreColoured() {
        let result = run(["check", "funnel-era-fallback.json", "--color", "always", "--verbose"], files: funnelEra)
        #expect(result.output.contains("\u{1B}[1mfunnel-era-fallback.json:1005:29\u{1B}[0m: \u{1B}[1;31merror\u{1B}[0m: \u{1B}[35m[goto-unknown]\u{1B}[0m default_next"))
        #expect(result.output.contains("\u{1B}[1;33mwarning\u{1B}[0m: \u{1B}[35m[serves-nothing]\u{1B}[0m"))
        #expect(result.output.contains("\u{1B}[1;36minfo\u{1B}[0m: \u{1B}[35m[remote-media]\u{1B}[0m 4 findings"))
    }

    /// Text from a snapshot or a path never carries an escape sequence of its own, colour or not:
    /// the only escape sequences in coloured output are the tool's, around text spelled out.
    @Test func escapeSequencesInKeysAndPathsStaySpelledOutWithColourOn() throws {
        let key = "evil\u{1B}[2J\u{1B}]0;title\u{07}\u{9B}31m"
        try withInputTestFolder { folder in
            let path = folder + "/bad\u{1B}[31mname.json"
            let plainPath = folder + "/plain.json"
            let newPath = folder + "/new.json"
            for (file, text) in [(path, servingNothing([key, "b", "c"])), (plainPath, servingNothing([key, "b", "c"])),
                                 (newPath, servingNothing(["b", "c"]))] {
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            }
            let commands = [
                ["check", path, "--verbose"], ["check", plainPath, newPath], ["diff", plainPath, newPath],
                ["diff", path, newPath], ["history", path, newPath, "--verbose"],
            ]
            for command in commands {
                let plain = run(command + ["--color", "never"]).output
                let colored = run(command + ["--color", "always"]).output
                #expect(!plain.isEmpty)
                #expect(!plain.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{07}" }, "\(command): \(plain)")
                #expect(colored.contains("\u{1B}[0m"), "\(command)")
                #expect(withoutColor(colored) == plain, "\(command)")
                #expect(!colored.unicodeScalars.contains { $0 == "\u{9B}" || $0 == "\u{07}" })
                // Every ESC left starts one of the tool's own colour sequences.
                let escapes = colored.components(separatedBy: "\u{1B}").dropFirst()
                #expect(escapes.allSatisfy { $0.range(of: #"^\[(0|1|35|1;3[136])m"#, options: .regularExpression) != nil }, "\(command)")
            }
            let check = run(["check", path, "--color", "always"]).output
            #expect(check.contains("bad<U+001B>[31mname.json"), "\(check)")
            let diff = run(["diff", plainPath, newPath, "--color", "always"]).output
            #expect(diff.contains(#"- "evil\u001b[2J\u001b]0;title\u0007<U+009B>31m" "#), "\(diff)")
        }
    }

    // MARK: Machine formats

    /// Every other format lists every finding, infos included, whatever `--verbose` or `--color` say.
    @Test(arguments: ["json", "markdown", "github", "junit", "sarif"])
    func machineFormatsStayComplete(format: String) throws {
        let base = ["check", "funnel-era-fallback.json", "--format", format]
        let output = run(base, files: funnelEra).output
        for options in [["--verbose"], ["--color", "always"], ["--config", "quiet.json"]] {
            var files = funnelEra
            files["quiet.json"] = #"{"showInfos": false}"#
            #expect(run(base + options, files: files).output == output, "\(options)")
        }
        switch format {
        case "json":
            #expect(try locatedFindings(output).count { $0.severity == "info" } == 4)
        case "markdown":
            #expect(output.contains("#### Infos (4)"), "\(output)")
        case "github":
            #expect(output.split(separator: "\n").count { $0.hasPrefix("::notice ") && $0.contains("title=remote-media") } == 4)
        case "junit":
            #expect(output.components(separatedBy: "[remote-media]").count - 1 == 4, "\(output)")
        default:
            let results = try #require((try jsonObject(output)["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
            #expect(results.count { $0["level"] as? String == "note" } == 4)
        }
    }

    // MARK: history and diff

    @Test func historyCountsItsInfosAndListsThemWhenAsked() {
        let folder = repositoryPath("Examples")
        let quiet = run(["history", folder])
        #expect(!quiet.output.contains("[content-changed-same-revision]"))
        #expect(quiet.output.hasSuffix("5 snapshots; 5 infos not shown: --verbose lists them\n"), "\(quiet.output)")
        let verbose = run(["history", folder, "--verbose"])
        #expect(verbose.output.components(separatedBy: "content-changed-same-revision").count - 1 == 5, "\(verbose.output)")
        #expect(verbose.output.hasSuffix("5 snapshots; 5 infos\n"), "\(verbose.output)")
        #expect(quiet.status == verbose.status)
    }

    @Test func diffCountsItsInfoChangesAndListsThemWhenAsked() {
        let old = repositoryPath("Examples/2026-03-03-release-3.0.json")
        let new = repositoryPath("Examples/2026-04-14-release-3.1.json")
        let quiet = run(["diff", old, new])
        #expect(!quiet.output.contains("\nInfo ("))
        #expect(quiet.output.contains("\nBreaking (1)\n"))
        #expect(quiet.output.hasSuffix("1 breaking, 2 notable, 5 info; 5 info changes not shown: --verbose lists them\n"), "\(quiet.output)")
        let verbose = run(["diff", old, new, "--verbose"])
        #expect(verbose.output.contains("\nInfo (5)\n"))
        #expect(verbose.output.hasSuffix("\n1 breaking, 2 notable, 5 info\n"))
        #expect(quiet.status == verbose.status)
    }

    @Test(arguments: ["check", "diff", "history"])
    func helpListsColorAndVerbose(command: String) {
        let help = run([command, "--help"]).output
        #expect(help.contains("--color <when>"))
        #expect(help.contains("(values: auto, always, never)"))
        #expect(help.contains("--verbose"))
        #expect(run([command, "--color", "sometimes"]).error.contains("Please provide one of 'auto', 'always' and 'never'"))
    }
}
