import FallbackCLI
import Foundation
import Testing

/// Runs `fallback-site` reading the disk as the real tool does, with `variables` as the process
/// environment and `clock` as the wall clock.
func runAt(_ arguments: [String], clock: Date, variables: [String: String] = [:]) -> Run {
    let capture = Capture()
    let environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
        readFile: CommandEnvironment.live.readFile, writeFile: { path, bytes in capture.write(path, bytes) },
        now: { clock }, variables: variables)
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, written) = capture.snapshot
    return Run(status: status, output: output, error: error, written: written)
}

/// `check`, `history` and `build` take `--now`, else `SOURCE_DATE_EPOCH`, else (check and history)
/// the clock as now, so the same files give the same result whenever CI runs them.
@Suite("--now and SOURCE_DATE_EPOCH set the time every check reads")
struct ReferenceTimeTests {
    /// Generated 2026-06-23T11:30:19Z.
    static let snapshot = repositoryPath("Examples/2026-06-23-release-3.3.json")
    /// Before the snapshot was generated: `generated-at-future` by the clock.
    static let early = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    /// Long after it: `snapshot-stale` by the clock.
    static let late = Date(timeIntervalSince1970: 1_811_808_000)  // 2027-06-01
    /// 2026-07-01T00:00:00Z: neither in the future nor stale.
    static let epoch = "1782864000"

    static let commands: [[String]] = [
        ["check", snapshot, "--format", "json"], ["history", snapshot, "--format", "json"], ["check", snapshot], ["history", snapshot],
    ]

    @Test(arguments: commands)
    func theClockChangesTheResultWithoutAnyTimeGiven(arguments: [String]) {
        // What the next test guards against: without SOURCE_DATE_EPOCH, the clock decides.
        let early = runAt(arguments, clock: Self.early)
        let late = runAt(arguments, clock: Self.late)
        #expect(early.output != late.output)
    }

    @Test(arguments: commands)
    func sourceDateEpochGivesTheSameOutputWhateverTheClock(arguments: [String]) {
        let variables = ["SOURCE_DATE_EPOCH": Self.epoch]
        let early = runAt(arguments, clock: Self.early, variables: variables)
        let late = runAt(arguments, clock: Self.late, variables: variables)
        #expect(early.status == late.status)
        #expect(early.output == late.output)
        #expect(!early.output.contains("generated-at-future"))
        #expect(!early.output.contains("snapshot-stale"))
    }

    @Test(arguments: ["2027-06-01T00:00:00Z", "2027-06-01T02:00:00+02:00", "1811808000"])
    func nowWinsOverSourceDateEpochAndTheClock(now: String) {
        let variables = ["SOURCE_DATE_EPOCH": Self.epoch]
        let given = runAt(["history", Self.snapshot, "--now", now], clock: Self.early, variables: variables)
        let byClock = runAt(["history", Self.snapshot], clock: Self.late)
        #expect(given.status == 0)
        #expect(given.output.contains("[snapshot-stale]"))
        #expect(given.output == byClock.output)
        let check = runAt(["check", Self.snapshot, "--now", "2026-01-01T00:00:00Z", "--format", "json"], clock: Self.late, variables: variables)
        #expect(check.output.contains("generated-at-future"))
    }

    @Test(arguments: ["check", "history", "build"])
    func anInvalidSourceDateEpochIsAUsageError(command: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var arguments = [command, Self.snapshot]
        if command == "build" { arguments += ["--out", folder + "/site"] }
        let result = runAt(arguments, clock: Self.early, variables: ["SOURCE_DATE_EPOCH": "2026-07-01"])
        #expect(result.status == 2)
        #expect(result.error.contains("SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC"))
        #expect(result.error.contains(#"found "2026-07-01""#))
        #expect(!FileManager.default.fileExists(atPath: folder + "/site"))
    }

    @Test(arguments: ["yesterday", "2026-07-01", "2026-07-01T00:00:00", "1.5", "99999999999999999999"])
    func anInvalidNowIsAUsageErrorThatSaysWhatItTakes(now: String) {
        let result = runAt(["check", Self.snapshot, "--now", now], clock: Self.early)
        #expect(result.status == 2)
        #expect(result.error.contains("expected an ISO 8601 date-time with a zone (2026-12-01T09:30:00Z) or whole seconds since 1970-01-01 UTC"))
    }

    @Test(arguments: ["check", "history", "build", "context"])
    func helpSaysWhichTimesNowTakes(command: String) {
        let help = runAt([command, "--help"], clock: Self.early).output
        #expect(help.contains("--now <time>"))
        #expect(help.contains("ISO 8601 date-time with a zone"))
        #expect(help.contains("whole seconds since 1970-01-01 UTC"))
    }

    /// `build` never reads the clock; `--now` is the same time as `SOURCE_DATE_EPOCH`.
    @Test func buildTakesNowAsItTakesSourceDateEpoch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let byVariable = runAt(
            ["build", Self.snapshot, "--out", folder + "/a", "--quiet"], clock: Self.early, variables: ["SOURCE_DATE_EPOCH": "1811808000"])
        let byOption = runAt(
            ["build", Self.snapshot, "--out", folder + "/b", "--quiet", "--now", "2027-06-01T00:00:00Z"], clock: Self.late,
            variables: ["SOURCE_DATE_EPOCH": Self.epoch])
        let neither = runAt(["build", Self.snapshot, "--out", folder + "/c", "--quiet"], clock: Self.late)
        #expect(byVariable.status == 0 && byOption.status == 0 && neither.status == 0)
        let a = try #require(text(at: folder + "/a/index.html"))
        #expect(a == text(at: folder + "/b/index.html"))
        #expect(a != text(at: folder + "/c/index.html"), "the time shows as the snapshot's age")
    }
}
