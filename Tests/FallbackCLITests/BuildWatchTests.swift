@testable import FallbackCLI
import Foundation
import Testing

/// A watch driven without real time: the n-th wait runs the n-th step (a file edit, or nothing);
/// a wait that finds no step left asks the watch to stop.
final class WatchScript: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [() -> Void]
    private var waits = 0
    private var stopped = false

    init(_ steps: [() -> Void]) {
        self.steps = steps
    }

    var control: WatchControl {
        WatchControl(
            sleep: { _ in
                let step: (() -> Void)? = self.lock.withLock {
                    self.waits += 1
                    if self.steps.isEmpty { self.stopped = true }
                    return self.steps.isEmpty ? nil : self.steps.removeFirst()
                }
                step?()
            },
            start: { { self.lock.withLock { self.stopped } } })
    }

    var waitCount: Int { lock.withLock { waits } }
}

@Suite("build --watch")
struct BuildWatchTests {
    static let examples = repositoryPath("Examples")

    /// Runs `build` with `script` as the watch's time, a clock moving 1.5 s per reading, and
    /// standard error not a terminal.
    func watch(_ arguments: [String], _ script: WatchScript) -> Run {
        runOnTerminal(["build", "--watch"] + arguments, terminal: false, clockStep: 1.5) { $0.watch = script.control }
    }

    func write(_ text: String, to path: String) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "could not write \(path)")
    }

    func copyExample(_ name: String, to folder: String) {
        try? FileManager.default.copyItem(atPath: Self.examples + "/" + name, toPath: folder + "/" + name)
    }

    func pageCount(_ site: String) throws -> Int {
        try FileManager.default.subpathsOfDirectory(atPath: site).count { $0.hasSuffix(".html") }
    }

    /// A watch does not exit between builds: it leaves nothing for the exit to free, even in a
    /// process whose keeper keeps (`build` alone keeps its builder), so no rebuild pays for
    /// freeing the one before.
    @Test func aWatchKeepsNothingForTheExit() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshots = root + "/snapshots"
        try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
        copyExample("2026-03-03-release-3.0.json", to: snapshots)
        let keeper = ExitKeeper(keeps: true)
        nonisolated(unsafe) var keptDuringWatch: [Int] = []
        let script = WatchScript([
            {
                keptDuringWatch.append(keeper.count)
                self.copyExample("2026-04-14-release-3.1.json", to: snapshots)
            },
            {},
            { keptDuringWatch.append(keeper.count) },
        ])
        let result = runOnTerminal(["build", "--watch", snapshots, "--out", root + "/site"], terminal: false, clockStep: 1.5) {
            $0.watch = script.control
            $0.exitKeeper = keeper
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("rebuilt"), "\(result.error)")
        #expect(keptDuringWatch == [0, 0] && keeper.count == 0)
        let once = runOnTerminal(["build", snapshots, "--out", root + "/once"], terminal: false, clockStep: 1.5) { $0.exitKeeper = keeper }
        #expect(once.status == 0 && keeper.count == 1)
    }

    /// Build, add a snapshot, see the site rebuilt; break a template, see the error and the
    /// previous site kept; stop: exit 0, and nothing left beside the site.
    @Test func rebuildsOnChangeAndKeepsTheSiteOnError() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshots = root + "/snapshots"
        let templates = root + "/templates"
        let site = root + "/site"
        for folder in [snapshots, templates] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        copyExample("2026-03-03-release-3.0.json", to: snapshots)
        copyExample("2026-04-14-release-3.1.json", to: snapshots)
        let index = site + "/index.html"
        nonisolated(unsafe) var firstIndex: String?
        nonisolated(unsafe) var rebuiltIndex: String?
        let script = WatchScript([
            {
                firstIndex = text(at: index)
                self.copyExample("2026-05-19-release-3.2.json", to: snapshots)
            },
            {},  // the burst has settled: rebuild
            {
                rebuiltIndex = text(at: index)
                self.write("<html>{{#snapshot}}\n  {{/nothing}}</html>", to: templates + "/layout.html")
            },
            {},
        ])
        let result = watch([snapshots, "--templates", templates, "--out", site], script)
        #expect(result.status == 0)
        let pages = try pageCount(site)
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Release 3.2 brings one funnel page more, and its own snapshot page and its pair's changes page.
        #expect(lines.first == "wrote \(BuildCommand.grouped(pages - 3)) pages to \(site); open \(index)")
        #expect(lines.contains("watching \(snapshots), .fallback-site.json, \(templates) for changes (Ctrl-C to stop)"))
        #expect(lines.contains("changed: \(snapshots)/2026-05-19-release-3.2.json → rebuilt \(BuildCommand.grouped(pages)) pages in 1.5 s"))
        // The template error, with its file and position, then the summary; the site is the one before.
        let failure = try #require(lines.firstIndex { $0.hasPrefix("error: ") })
        #expect(lines[failure].contains("layout.html:2:"), "\(lines[failure])")
        #expect(lines.contains("changed: \(templates)/layout.html → build failed; kept the previous site"))
        #expect(lines.suffix(2) == ["stopped watching", ""], "\(result.error)")
        #expect(firstIndex != nil)
        #expect(rebuiltIndex != firstIndex)
        #expect(rebuiltIndex?.contains("3.2") == true)
        #expect(text(at: index) == rebuiltIndex)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["site", "snapshots", "templates"])
        #expect(script.waitCount == 5)
    }

    /// Saves over several polls build once, naming every file changed; a configuration that no
    /// longer parses fails the rebuild, and fixing it builds again.
    @Test func aBurstBuildsOnceAndAFixedConfigurationRebuilds() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        copyExample("2026-03-03-release-3.0.json", to: root)
        let snapshot = root + "/2026-03-03-release-3.0.json"
        let configuration = root + "/config.json"
        write("{}", to: configuration)
        let site = root + "/site"
        let script = WatchScript([
            { self.write("{\"staleAfterDays\": 30}", to: configuration) },
            { self.copyExample("2026-04-14-release-3.1.json", to: root) },  // not watched: no effect
            { try? FileManager.default.removeItem(atPath: snapshot); self.copyExample("2026-03-03-release-3.0.json", to: root) },
            {},
            { self.write("{\"staleAfterDays\": ", to: configuration) },
            {},
            { self.write("{}", to: configuration) },
            {},
        ])
        let result = watch([snapshot, "--config", configuration, "--out", site, "--quiet"], script)
        #expect(result.status == 0)
        let lines = result.error.split(separator: "\n").map(String.init)
        // --quiet: the error alone, no summaries.
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.first?.contains(configuration) == true)

        let loud = WatchScript([
            { self.write("{\"staleAfterDays\": 31}", to: configuration) },
            { try? FileManager.default.removeItem(atPath: snapshot); self.copyExample("2026-03-03-release-3.0.json", to: root) },
            {},
        ])
        let burst = watch([snapshot, "--config", configuration, "--out", site], loud)
        let summaries = burst.error.split(separator: "\n").filter { $0.hasPrefix("changed: ") }
        #expect(summaries.count == 1, "\(burst.error)")
        #expect(summaries.first?.hasPrefix("changed: \(snapshot), \(configuration) → rebuilt ") == true, "\(summaries)")
    }

    @Test(arguments: [
        (["x.json", "--out", "-"], "--watch writes a site folder; it cannot write to standard output ('--out -')"),
        (["-", "--out", "site"], "--watch cannot watch standard input; give the snapshot's path"),
        (["--git-history", "x.json", "--out", "site"], "--watch has nothing to watch"),
    ])
    func refusesWhatItCannotWatch(arguments: [String], message: String) {
        let result = run(["build", "--watch"] + arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("Error: " + message))
        #expect(result.error.contains("Usage: fallback-site build"))
        #expect(result.written.isEmpty)
    }

    @Test func isInTheHelp() {
        let help = run(["help", "build"]).output
        #expect(help.contains("--watch"))
        #expect(help.contains("Ctrl-C stops"))
    }

    // MARK: What changed

    func fingerprint(size: Int64, inode: UInt64 = 1, folder: Bool = false) -> FileWatcher.Fingerprint {
        .init(isFolder: folder, size: size, modifiedSeconds: 1, modifiedNanoseconds: 0, inode: inode, device: 1)
    }

    @Test func changesAreAddedRemovedAndChangedFilesNotTheirFolders() {
        let old: FileWatcher.State = [
            "a": fingerprint(size: 1), "b": fingerprint(size: 2), "d": fingerprint(size: 9, folder: true), "d/x": fingerprint(size: 3),
        ]
        var new = old
        #expect(FileWatcher.changes(from: old, to: new).isEmpty)
        new["b"] = fingerprint(size: 2, inode: 7)  // replaced by a rename: same size, new inode
        new["d"] = fingerprint(size: 10, folder: true)
        new["d/y"] = fingerprint(size: 1)
        new["a"] = nil
        #expect(FileWatcher.changes(from: old, to: new) == ["a", "b", "d/y"])
        #expect(FileWatcher.changes(from: [:], to: ["d": fingerprint(size: 1, folder: true)]) == ["d"])
    }

    @Test func aStateSeesFilesBelowFoldersAndMissingPaths() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/t/partials", withIntermediateDirectories: true)
        write("a", to: root + "/t/partials/p.html")
        write("b", to: root + "/s.json")
        write("swap", to: root + "/t/.layout.html.swp")
        write("backup", to: root + "/t/layout.html~")
        let watcher = FileWatcher(paths: [root + "/t", root + "/s.json", root + "/missing.json"])
        let before = watcher.state()
        #expect(Set(before.keys) == [root + "/t", root + "/t/partials", root + "/t/partials/p.html", root + "/s.json"])
        write("bb", to: root + "/s.json")
        write("x", to: root + "/missing.json")
        #expect(FileWatcher.changes(from: before, to: watcher.state()) == [root + "/missing.json", root + "/s.json"])
    }

    @Test func summariesNameThreeFilesThenCount() {
        #expect(BuildWatch.summary(of: ["a"], result: "r") == "changed: a → r")
        #expect(BuildWatch.summary(of: ["a", "b", "c", "d", "e"], result: "r") == "changed: a, b, c and 2 more → r")
        #expect([0, 999, 1000, 2019, 1_234_567].map(BuildCommand.grouped) == ["0", "999", "1,000", "2,019", "1,234,567"])
    }
}

/// Ctrl-C on the real process: the watch ends with exit status 0 and leaves the site whole, with
/// nothing beside it.
@Suite(
    "build --watch interrupted",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct BuildWatchInterruptTests {
    @Test func controlCEndsTheWatchCleanly() throws {
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshot = root + "/rovenue-fallback.json"
        try FileManager.default.copyItem(atPath: repositoryPath("Examples/2026-03-03-release-3.0.json"), toPath: snapshot)
        let errorPath = root + "/stderr.txt"
        #expect(FileManager.default.createFile(atPath: errorPath, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["build", "--watch", snapshot, "--out", root + "/site"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
        // Waits for the watch to start (after the first build), however slow the machine: no timing is asserted.
        while process.isRunning, !(text(at: errorPath) ?? "").contains("(Ctrl-C to stop)") {
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGINT)
        // A watch that ignores the signal would never end: after a minute it is killed, and fails.
        for _ in 0..<6000 where process.isRunning { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the watch did not stop on SIGINT")
        }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(text(at: errorPath)?.hasSuffix("stopped watching\n") == true, "\(text(at: errorPath) ?? "")")
        #expect(FileManager.default.fileExists(atPath: root + "/site/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["rovenue-fallback.json", "site", "stderr.txt"])
    }
}
