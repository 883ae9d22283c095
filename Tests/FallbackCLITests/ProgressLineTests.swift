@testable import FallbackCLI
import Foundation
import Testing

/// A clock for tests: each reading is `step` seconds after the one before, so a run "lasts" as
/// long as it reads the clock, without any real time passing.
final class SteppingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double
    let step: Double

    init(step: Double, start: Double = 100) {
        self.step = step
        seconds = start
    }

    func read() -> Double {
        lock.withLock {
            defer { seconds += step }
            return seconds
        }
    }
}

/// Runs the tool with standard error a terminal (or not), a clock moving `clockStep` per reading,
/// and whatever else `configure` sets.
func runOnTerminal(
    _ arguments: [String], terminal: Bool = true, clockStep: Double, configure: (inout CommandEnvironment) -> Void = { _ in }
) -> Run {
    let capture = Capture()
    let clock = SteppingClock(step: clockStep)
    var environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
        readFile: { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }, writeFile: { capture.write($0, $1) },
        now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: [:], isErrorTerminal: terminal)
    environment.clock = { clock.read() }
    configure(&environment)
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, written) = capture.snapshot
    return Run(status: status, output: output, error: error, written: written)
}

/// The progress line every long command draws on a terminal (`ProgressLine`), alone and in
/// `build`, `history` and `diff`.
@Suite("Progress on a terminal")
struct ProgressLineTests {
    static let clear = "\r\u{1B}[K"

    /// A line whose draws are collected; `step` is how far the clock moves per reading.
    func line(step: Double, enabled: Bool = true) -> (ProgressLine, Capture) {
        let capture = Capture()
        let clock = SteppingClock(step: step)
        return (ProgressLine(write: { capture.appendError($0) }, clock: { clock.read() }, isEnabled: enabled), capture)
    }

    @Test func quickWorkShowsNothing() {
        let (progress, capture) = line(step: 1.0 / 64)
        for done in 1...50 { progress.update("Reading snapshots", done, of: 50) }
        progress.clear()
        #expect(capture.snapshot.1 == "")
    }

    @Test func longWorkDrawsInPlaceAtMostEveryInterval() {
        let (progress, capture) = line(step: 1.0 / 16)
        // Readings 1/16 s apart: the first draw once a second has passed, then every other reading.
        for done in 1...40 { progress.update("Reading snapshots", done, of: 40) }
        progress.clear()
        let error = capture.snapshot.1
        let draws = error.components(separatedBy: "\r").filter { !$0.isEmpty }
        #expect(draws.first == "Reading snapshots: 16/40\u{1B}[K")
        #expect(draws.dropLast().allSatisfy { $0.hasPrefix("Reading snapshots: ") && $0.hasSuffix("\u{1B}[K") })
        #expect(draws.count - 1 == 13)  // 16, 18, …, 40
        #expect(error.hasSuffix(Self.clear))
        #expect(!error.contains("\n"))
    }

    @Test func clearingTwiceOrBeforeAnyDrawWritesNothing() {
        let (progress, capture) = line(step: 2)
        progress.clear()
        #expect(capture.snapshot.1.isEmpty)
        progress.update("Rendering pages", 1, of: 2)
        progress.clear()
        progress.clear()
        #expect(capture.snapshot.1 == "\rRendering pages: 1/2\u{1B}[K" + Self.clear)
    }

    /// `build --watch` restarts the line for each rebuild: a quick rebuild shows nothing either.
    @Test func restartingWaitsAgain() {
        let (progress, capture) = line(step: 0.5)
        progress.update("Rendering pages", 1, of: 9)  // 0.5 s
        progress.update("Rendering pages", 2, of: 9)  // 1 s: drawn
        progress.restart()
        progress.update("Rendering pages", 1, of: 9)
        progress.update("Rendering pages", 2, of: 9)
        #expect(capture.snapshot.1 == "\rRendering pages: 2/9\u{1B}[K" + Self.clear + "\rRendering pages: 2/9\u{1B}[K")
    }

    @Test func disabledDrawsNothing() {
        let (progress, capture) = line(step: 5, enabled: false)
        progress.update("Reading snapshots", 1, of: 2)
        progress.clear()
        #expect(capture.snapshot.1.isEmpty)
    }

    /// A file name is untrusted: its controls are spelled out, so it can neither move the cursor nor
    /// break the line; a long one is cut to one row.
    @Test func namesAreEscapedAndCut() {
        let (progress, capture) = line(step: 2)
        progress.update("Checking snapshots", 1, of: 2, item: "evil\u{1B}[2J\nname.json")
        let drawn = capture.snapshot.1
        #expect(drawn.hasPrefix("\rChecking snapshots: 1/2 (evil"))
        #expect(drawn.filter { $0 == "\u{1B}" }.count == 1)
        #expect(!drawn.contains("\n"))
        let long = ProgressLine.fitted(String(repeating: "x", count: 200), width: 72)
        #expect(long.count == 72)
        #expect(long.hasSuffix("…"))
    }

    // MARK: Commands

    func run(_ arguments: [String], terminal: Bool = true, step: Double) -> Run {
        runOnTerminal(arguments, terminal: terminal, clockStep: step)
    }

    static let examples = repositoryPath("Examples")

    /// The Examples come in time order: each is checked as it is read, in one pass.
    @Test func historyChecksSnapshotsAsTheyAreRead() {
        let slow = run(["history", Self.examples], step: 2)
        #expect(slow.error.contains("\rChecking snapshots: 1/5 (2026-03-03-release-3.0.json)\u{1B}[K"))
        #expect(slow.error.contains("\rChecking snapshots: 5/5 (2026-07-21-release-3.4.json)\u{1B}[K"))
        #expect(!slow.error.contains("Reading snapshots"))
        // The line is gone before the report (which may share the terminal) and nothing else is left.
        #expect(slow.error.hasSuffix(Self.clear))
        #expect(!slow.error.contains("\n"))
        let quick = run(["history", Self.examples], step: 0)
        #expect(quick.error.isEmpty)
        #expect(quick.output == slow.output)
        #expect(run(["history", Self.examples], terminal: false, step: 2).error.isEmpty)
    }

    /// A snapshot older than the one before it in name order: the rest are read for their times,
    /// then every snapshot is checked again in timeline order.
    @Test func historyReadsThenChecksAgainAfterASnapshotOutOfOrder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: Self.examples + "/2026-04-14-release-3.1.json", toPath: folder + "/a.json")
        try FileManager.default.copyItem(atPath: Self.examples + "/2026-03-03-release-3.0.json", toPath: folder + "/b.json")
        let slow = run(["history", folder], step: 2)
        let draws = slow.error.components(separatedBy: "\r").map { $0.replacingOccurrences(of: ProgressLine.clearToEnd, with: "") }
            .filter { !$0.isEmpty }
        #expect(draws == ["Checking snapshots: 1/2 (a.json)", "Reading snapshots: 2/2", "Checking snapshots: 1/2 (b.json)", "Checking snapshots: 2/2 (a.json)"])
        #expect(slow.output == run(["history", folder], step: 0).output)
    }

    @Test func gitHistoryCountsCommits() throws {
        let repository = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: repository) }
        try runGit(["init", "-q"], in: repository)
        for name in ["2026-03-03-release-3.0.json", "2026-04-14-release-3.1.json"] {
            try? FileManager.default.removeItem(atPath: repository + "/rovenue-fallback.json")
            try FileManager.default.copyItem(atPath: Self.examples + "/" + name, toPath: repository + "/rovenue-fallback.json")
            try runGit(["add", "."], in: repository)
            try runGit(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", name], in: repository)
        }
        let result = run(["history", "--git-history", repository + "/rovenue-fallback.json"], step: 2)
        #expect(result.error.contains("\rChecking commits: 1/2 ("))
        #expect(result.error.contains("\rChecking commits: 2/2 ("))
        #expect(result.error.hasSuffix(Self.clear))
    }

    @Test func diffShowsItsStagesThenClears() {
        let old = Self.examples + "/2026-03-03-release-3.0.json"
        let new = Self.examples + "/2026-04-14-release-3.1.json"
        let slow = run(["diff", old, new], step: 2)
        for stage in ["Reading", "Parsing", "Comparing"] {
            #expect(slow.error.contains("\r\(stage) "), "\(stage)")
        }
        #expect(slow.error.hasSuffix(Self.clear))
        #expect(run(["diff", old, new], step: 0).error.isEmpty)
        #expect(run(["diff", old, new], terminal: false, step: 2).error.isEmpty)
    }

    /// An error after the line is drawn starts on a line of its own.
    @Test func anErrorClearsTheLineFirst() {
        let missing = Self.examples + "/no-such.json"
        // github also says it on standard error (text names it only in the report).
        let result = run(["diff", Self.examples + "/2026-03-03-release-3.0.json", missing, "--format", "github"], step: 2)
        #expect(result.status == 2)
        #expect(result.error.contains(Self.clear + "error: cannot read \(missing)"))
        // In text the report names it on standard output, after the line is cleared.
        let text = run(["diff", Self.examples + "/2026-03-03-release-3.0.json", missing], step: 2)
        #expect(text.status == 2)
        #expect(text.error.hasSuffix(Self.clear))
    }

    @Test func buildFromASeriesShowsEachStep() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/site"
        let result = run(["build", Self.examples, "--out", out], step: 2)
        #expect(result.status == 0)
        let pages = try FileManager.default.subpathsOfDirectory(atPath: out).count { $0.hasSuffix(".html") }
        for step in ["Checking history: 1/5", "Checking history: 5/5", "Rendering pages: ", "Writing \(pages) pages"] {
            #expect(result.error.contains("\r" + step), "\(step)")
        }
        // The Examples come in time order: each is checked as it is read, in one pass.
        #expect(!result.error.contains("Reading snapshots"))
        #expect(result.error.hasSuffix(Self.clear + "wrote \(pages) pages to \(out); open \(out)/index.html\n"))
        #expect(run(["build", Self.examples, "--out", out, "--quiet"], step: 2).error.isEmpty)
        #expect(run(["build", Self.examples, "--out", out], step: 0).error == "wrote \(pages) pages to \(out); open \(out)/index.html\n")
    }

    /// A series out of order in name order: `build` reads the rest for their times, then checks
    /// every snapshot again in timeline order, as `history` does.
    @Test func buildReadsThenChecksAgainAfterASnapshotOutOfOrder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/series"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.examples + "/2026-04-14-release-3.1.json", toPath: folder + "/a.json")
        try FileManager.default.copyItem(atPath: Self.examples + "/2026-03-03-release-3.0.json", toPath: folder + "/b.json")
        let result = run(["build", folder, "--out", root + "/site"], step: 2)
        #expect(result.status == 0)
        let draws = result.error.components(separatedBy: "\r").map { $0.replacingOccurrences(of: ProgressLine.clearToEnd, with: "") }
            .filter { !$0.isEmpty && !$0.hasPrefix("Rendering") && !$0.hasPrefix("Writing") && !$0.hasPrefix("wrote") }
        #expect(draws == ["Checking history: 1/2", "Reading snapshots: 2/2", "Checking history: 1/2", "Checking history: 2/2"])
    }
}
