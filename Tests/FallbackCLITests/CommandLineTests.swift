import Foundation
import RovenueFallback
import Testing

@Suite("Argument parsing, help and usage errors")
struct ArgumentTests {
    @Test(arguments: [["--help"], ["-h"], ["help"], ["help", "check"], ["check", "--help"], ["resolve", "-h"], ["sample", "--help"]])
    func helpExitsZero(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: fallback-site"))
        #expect(result.error.isEmpty)
    }

    @Test func commandHelpListsEveryOption() {
        let help = run(["check", "--help"]).output
        for expected in ["<file> ...", "--format <format>", "--fail-on <severity>", "(default: the configuration's `failOn`, else error)", "values: text, json, markdown, github, junit, sarif", "-h, --help"] {
            #expect(help.contains(expected), "missing \(expected)")
        }
    }

    @Test func versionPrintsTheVersion() {
        let result = run(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "0.1.0\n")
    }

    @Test(arguments: [
        (["frobnicate"], "Unknown subcommand 'frobnicate'"),
        ([], "SUBCOMMANDS:"),
        (["check"], "Missing expected argument '<file> ...'"),
        (["check", "a.json", "--format", "xml"], "The value 'xml' is invalid for '--format <format>'. Please provide one of 'text', 'json', 'markdown', 'github', 'junit' and 'sarif'."),
        (["check", "a.json", "--format"], "Missing value for '--format <format>'"),
        (["check", "a.json", "--colour"], "Unknown option '--colour'"),
        (["resolve", "a.json"], "Missing expected argument '<placement>'"),
        (["resolve", "a.json", "x", "y"], "Unexpected argument 'y'"),
        (["sample", "--out", "x.json"], "Missing expected argument '--placements <n>'"),
        (["sample", "--placements", "ten", "--out", "x.json"], "The value 'ten' is invalid for '--placements <n>'"),
        (["sample", "--placements", "3", "--seed", "-1", "--out", "x.json"], "The value '-1' is invalid for '--seed <s>'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "stderr was: \(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func usageErrorsPointToHelp() {
        let result = run(["check", "--format", "xml", "a.json"])
        #expect(result.error.contains("Usage: fallback-site check"))
        #expect(result.error.contains("See 'fallback-site check --help' for more information."))
    }

    /// An argument is an option when its first byte is a dash, as by the bytes `getopt` reads; not
    /// by `String.hasPrefix`, which sees a dash and the combining mark after it as one character
    /// (and normalised the whole argument for each comparison: quadratic in a run of marks).
    @Test(arguments: ["-\u{301}x", "--\u{301}format", "--form\u{301}at=json"])
    func aDashAndACombiningMarkStartAnOption(argument: String) {
        let result = run(["check", paywallEraPath, argument])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: Unknown option '"), "stderr was: \(result.error)")
    }

    /// `--` followed by a combining mark is an option name, not the end of the options.
    @Test func onlyTheTwoDashesEndTheOptions() {
        let result = run(["check", "--\u{301}", paywallEraPath])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: Unknown option '"))
    }

    @Test func optionsAcceptAnEqualsSign() {
        let result = run(["check", "--format=json", paywallEraPath])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("{"))
    }
}

@Suite("fallback-site check")
struct CheckCommandTests {
    @Test func funnelEraFixtureLoadsFiveOfSix() {
        let result = run(["check", funnelEraPath, "--verbose"])
        #expect(result.status == 1)
        #expect(result.output.contains("funnel-era-fallback.json: the SDK loads 5 of 6 entries; 1 skipped"))
        for rule in ["entry-skipped", "goto-unknown", "paywall-unavailable-offline", "translation-missing", "remote-media"] {
            #expect(result.output.contains(": [\(rule)] "), "no \(rule) finding")
        }
    }

    @Test func findingsReadLikeACompiler() throws {
        let line = try #require(run(["check", funnelEraPath]).output.split(separator: "\n").first { $0.contains("[entry-skipped]") })
        // path:line:column: severity: [rule] message — trial_reminder's revision sits at line 1000-odd of the pretty fixture.
        let pattern = /^.*funnel-era-fallback\.json:(\d+):(\d+): error: \[entry-skipped\] .*trial_reminder.*/
        let match = try #require(line.wholeMatch(of: pattern))
        let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: funnelEraPath))))
        let record = try #require(file.entries.first { $0.key == "trial_reminder" })
        let location = file.location(of: try #require(record.failure).source)
        #expect(Int(match.1) == location.line)
        #expect(Int(match.2) == location.column)
    }

    @Test func paywallEraFixtureLoadsSixOfSix() {
        let result = run(["check", paywallEraPath])
        #expect(result.output.contains("the SDK loads 6 of 6 entries"))
        #expect(!result.output.contains("skipped"))
    }

    @Test(arguments: [("error", Int32(1)), ("warning", 1), ("info", 1), ("never", 0)])
    func failOnSetsTheExitStatus(level: String, status: Int32) {
        #expect(run(["check", "--fail-on", level, funnelEraPath]).status == status)
    }

    @Test func warningsAloneFailOnlyAtWarning() {
        // One placement serving nothing: a warning, no error.
        let text = #"{"formatVersion":1,"generatedAt":1760000000000,"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1}}}}"#
        #expect(run(["check", "a.json"], files: ["a.json": text]).status == 0)
        #expect(run(["check", "--fail-on", "warning", "a.json"], files: ["a.json": text]).status == 1)
    }

    @Test func rejectedFileAlwaysFails() throws {
        let result = run(["check", "--fail-on", "never", "bad.json"], files: ["bad.json": #"{"formatVersion":2}"#])
        #expect(result.status == 1)
        #expect(result.output.contains("bad.json: the SDK rejects this file"))
        #expect(result.output.contains("unsupported fallback placements formatVersion 2 (expected 1)"))
    }

    @Test func unreadablePathExitsTwo() {
        let result = run(["check", paywallEraPath, "/nonexistent/rovenue-fallback.json"])
        #expect(result.status == 2)
        // The text report names it once, as a file-unreadable error; standard error does not repeat it.
        #expect(result.output.contains("/nonexistent/rovenue-fallback.json: error: [file-unreadable] cannot read /nonexistent/rovenue-fallback.json"))
        #expect(!result.error.contains("cannot read"))
        #expect(result.output.contains("the SDK loads 6 of 6 entries"), "the readable file is still reported")
    }

    @Test func jsonReportHasTheContractShape() throws {
        let result = run(["check", "--format", "json", funnelEraPath, "bad.json"], files: ["bad.json": "{\n  \"formatVersion\": 1,,\n}"])
        #expect(result.status == 1)
        let report = try jsonObject(result.output)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.count == 2)

        let good = files[0]
        #expect(good["path"] as? String == funnelEraPath)
        #expect(good["fatal"] is NSNull)
        #expect(good["loaded"] as? [String] == ["onboarding", "onboarding_short", "paywall_upsell", "settings_banner", "winback"])
        let skipped = try #require(good["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1)
        #expect(skipped[0]["key"] as? String == "trial_reminder")
        #expect(skipped[0]["pointer"] as? String == "/placements/trial_reminder/placement/revision")
        #expect(skipped[0]["reason"] as? String == #"/placements/trial_reminder/placement/revision: expected an integer, found the string "5""#)
        #expect(skipped[0]["line"] is Int && skipped[0]["column"] is Int)
        let findings = try #require(good["findings"] as? [[String: Any]])
        for finding in findings {
            #expect(Set(finding.keys).isSuperset(of: ["rule", "severity", "message", "placement", "pointer", "line", "column"]))
        }

        let bad = files[1]
        let fatal = try #require(bad["fatal"] as? [String: Any])
        #expect(fatal["line"] as? Int == 2)
        #expect(fatal["column"] as? Int == 22)
        #expect((fatal["message"] as? String)?.hasPrefix("fallback placements file is not valid JSON: ") == true)

        let summary = try #require(report["summary"] as? [String: Int])
        let all = files.flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        #expect(summary["errors"] == all.count { $0["severity"] as? String == "error" })
        #expect(summary["warnings"] == all.count { $0["severity"] as? String == "warning" })
        #expect(summary["infos"] == all.count { $0["severity"] as? String == "info" })
    }
}

@Suite("fallback-site resolve")
struct ResolveCommandTests {
    @Test func paywallEraOnboardingDrawsVariantC() throws {
        let result = run(["resolve", paywallEraPath, "onboarding", "--subscriber", "ckvt3m8qc0000356mekq0v1x2", "--format", "json"])
        #expect(result.status == 0)
        let report = try jsonObject(result.output)
        #expect(report["placement"] as? String == "onboarding")
        #expect(report["subscriber"] as? String == "ckvt3m8qc0000356mekq0v1x2")
        #expect(report["servedFromFallback"] as? Bool == true)
        #expect(report["served"] as? String == "paywall")
        #expect(report["funnel"] is NSNull)
        let paywall = try #require(report["paywall"] as? [String: Any])
        #expect(paywall["id"] as? String == "pw_c")
        let experiment = try #require(report["experiment"] as? [String: Any])
        #expect(experiment["key"] as? String == "onboarding-price-test")
        #expect(experiment["bucket"] as? Int == 7655)
        #expect(experiment["variantId"] as? String == "c")
    }

    @Test func textNamesTheDrawnVariant() {
        let result = run(["resolve", paywallEraPath, "onboarding", "--subscriber", "ckvt3m8qc0000356mekq0v1x2"])
        #expect(result.status == 0)
        #expect(result.output.contains("bucket 7655 draws variant c"))
        #expect(result.output.contains("servedFromFallback = true"))
    }

    @Test func directFunnel() throws {
        let report = try jsonObject(run(["resolve", funnelEraPath, "onboarding_short", "--format", "json"]).output)
        #expect(report["served"] as? String == "funnel")
        #expect((report["funnel"] as? [String: Any])?["slug"] as? String == "short-onboarding")
        #expect(report["experiment"] is NSNull)
    }

    @Test func servesNothingIsNotAFailure() throws {
        let result = run(["resolve", funnelEraPath, "settings_banner", "--format", "json"])
        #expect(result.status == 0)
        let report = try jsonObject(result.output)
        #expect(report["served"] as? String == "nothing")
        #expect(report["servedFromFallback"] as? Bool == false)
    }

    @Test(arguments: ["missing_placement", "trial_reminder", "Onboarding"])
    func keyNotLoadedExitsOne(key: String) {
        let result = run(["resolve", funnelEraPath, key])
        #expect(result.status == 1)
        #expect(result.error.contains("the SDK returns the original network error"))
    }

    @Test func rejectedFileExitsOne() {
        let result = run(["resolve", "x.json", "a"], files: ["x.json": "[1, {}, 3]"])
        #expect(result.status == 1)
        #expect(result.error.contains("the SDK rejects x.json"))
    }
}

@Suite("fallback-site sample")
struct SampleCommandTests {
    @Test func sameSeedSameBytes() throws {
        let first = run(["sample", "--placements", "40", "--seed", "7", "--out", "a.json"])
        let second = run(["sample", "--placements", "40", "--seed", "7", "--out", "a.json"])
        #expect(first.status == 0)
        let bytes = try #require(first.written["a.json"])
        #expect(bytes == second.written["a.json"])
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection == nil)
        #expect(file.entries.count == 40)
        #expect(file.loadedCount >= 38)
    }

    @Test func sampleChecksLikeAnExport() {
        let result = run(["sample", "--placements", "25", "--out", "-"])
        #expect(result.status == 0)
        let check = run(["check", "s.json", "--fail-on", "never"], files: ["s.json": result.output])
        #expect(check.status == 0)
        #expect(check.output.contains("the SDK loads"))
    }
}
