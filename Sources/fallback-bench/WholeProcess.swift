// Whole-process rows: `fallback-site check` beside a process that only runs `JSONDecoder`, and
// `fallback-site build` at 1,000, 10,000 (and, with --large, 100,000) placements. They run the
// release binary as a user does, so they measure what ships and survive changes to internal APIs.
import FallbackAudit
import Foundation

/// A folder of the benchmark's own under the temporary folder, removed when the benchmark ends
/// (`FileSystemSettling`: nothing is deleted while the benchmark measures).
struct BenchFolder {
    let path: String

    init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        FileSystemSettling.removeAtEnd(path)
    }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let target = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }
}

/// Keeps one run's deletes from taxing the next run. On ext4 without a journal (this machine's `/`),
/// creating a file skips every inode deleted in the last 60 seconds (`RECENTCY_MIN`), or the last
/// 5 minutes while its inode table block is dirty, and starts that scan again for each file. By
/// hand, 1,000-placement builds: just after the previous site was deleted, 0.9–3.2 s of system
/// time; after the delete, `sync` and 65 s, still 0.9–1.2 s (the build's own new inodes dirty the
/// blocks again, which brings back the 5-minute window); into a fresh folder with the previous site
/// kept, 0.07–0.58 s. So the benchmark deletes nothing while it measures: each timed run writes
/// into a folder of its own, and the folders go when the benchmark ends (or when a section fails).
/// Before each timed run, `settle()` writes back the dirty blocks (`sync`), so that no run is timed
/// while the previous one's output is being written. The same for `fallback-site` and for Hugo.
enum FileSystemSettling {
    /// The folders to remove when the benchmark ends.
    nonisolated(unsafe) private static var spent: [String] = []

    /// Queues `path` for removal when the benchmark ends.
    static func removeAtEnd(_ path: String) { spent.append(path) }

    /// Removes every queued folder, then writes the deletes back, and leaves `deletionMarker` behind:
    /// its modification time tells the next benchmark when these deletes happened.
    static func removeSpent() {
        let removed = spent.filter { FileManager.default.fileExists(atPath: $0) }
        for path in spent { try? FileManager.default.removeItem(atPath: path) }
        spent = []
        sync()
        if !removed.isEmpty {
            _ = FileManager.default.createFile(atPath: deletionMarker, contents: Data("\(removed.count) folders\n".utf8))
        }
    }

    /// The file a benchmark touches after deleting its folders, in the temporary folder.
    static var deletionMarker: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("fallback-bench-deleted").path
    }

    /// How long new files keep paying for deletes: ext4 skips an inode deleted in the last 5 minutes
    /// (`RECENTCY_DIRTY`) while its inode table block is dirty, 60 seconds otherwise.
    static let deleteMemory: TimeInterval = 300

    /// How long to wait before a timed build when an earlier benchmark deleted its folders
    /// `age` seconds ago: what is left of `deleteMemory`, nothing once it has passed (or for a marker
    /// dated in the future, which a changed clock leaves; waiting on it could last forever).
    static func remainingWait(afterDeletesAged age: TimeInterval) -> TimeInterval {
        guard age >= 0, age < deleteMemory else { return 0 }
        return deleteMemory - age
    }

    /// Before the first timed build: when an earlier benchmark deleted its sites less than
    /// `deleteMemory` ago, says so and waits out the rest (or, with `wait` false, only warns), so its
    /// deletes do not show up as this run's system time. Runs that follow each other are otherwise
    /// not comparable by wall time: measured here, a 1,000-placement build paid 1.7 s of system time
    /// (0.3 s settled) and a 10,000-placement build 18 s.
    static func waitForEarlierDeletes(wait: Bool) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: deletionMarker),
              let deleted = attributes[.modificationDate] as? Date
        else { return }
        let remaining = remainingWait(afterDeletesAged: Date().timeIntervalSince(deleted))
        guard remaining > 0 else { return }
        let seconds = Int(remaining.rounded(.up))
        let reason = "an earlier fallback-bench deleted its sites \(Int(deleteMemory) - seconds) s ago; on ext4 without a journal, "
            + "files created in the next \(Int(deleteMemory)) s pay for those deletes in system time"
        guard wait else {
            print("note: \(reason): build times may be inflated (run without --no-settle-wait to wait instead)")
            return
        }
        print("waiting \(seconds) s: \(reason) (--no-settle-wait skips the wait)")
        Thread.sleep(forTimeInterval: remaining)
        sync()
    }

    /// Before a timed run (untimed): writes back dirty blocks, the previous run's output among them.
    static func settle() { sync() }
}

/// Runs one section of the benchmark; when it fails, says why, removes the benchmark's folders and exits 1.
func section<T>(_ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        FileHandle.standardError.write(Data("fallback-bench: \(error)\n".utf8))
        FileSystemSettling.removeSpent()
        exit(1)
    }
}

/// The `fallback-site` command lines the benchmark runs, with settings that make them reproducible:
/// a fixed `--now`, every finding listed but none failing the run, and output thrown away.
struct SiteCommands {
    let executable: String
    /// The time every run takes as now, so the time-dependent checks do the same work each run.
    static let now = "2026-12-02T00:00:00Z"

    /// `check FILES --format json`, exit 0 whatever it finds.
    func check(_ files: [String]) -> ChildCommand {
        ChildCommand(executable, ["check"] + files + ["--format", "json", "--fail-on", "never", "--now", Self.now])
    }

    /// `build INPUTS --out OUT --quiet`.
    func build(_ inputs: [String], out: String) -> ChildCommand {
        ChildCommand(executable, ["build"] + inputs + ["--out", out, "--quiet", "--now", Self.now])
    }

    /// `history INPUTS --format json`, or `history --git-history PATH` when `gitHistory` is given.
    func history(_ inputs: [String] = [], gitHistory: String? = nil) -> ChildCommand {
        let source = gitHistory.map { ["--git-history", $0] } ?? inputs
        return ChildCommand(executable, ["history"] + source + ["--format", "json", "--fail-on", "never", "--now", Self.now])
    }

    /// `diff OLD NEW --format json`, exit 0 whatever changes.
    func diff(old: String, new: String) -> ChildCommand {
        ChildCommand(executable, ["diff", old, new, "--format", "json", "--fail-on", "never"])
    }

    /// Writes the `placements`-placement sample of `seed` to `path` (untimed).
    func writeSample(placements: Int, seed: Int, to path: String) throws {
        _ = try ChildCommand(executable, ["sample", "--placements", String(placements), "--seed", String(seed), "--out", path]).run()
    }
}

/// Times `runs` runs of `command(run)` (run 0, 1, …), each after the file system has settled
/// (`FileSystemSettling`, untimed). A command that writes files is given a fresh output path per run.
func measureChild(runs: Int, _ command: (Int) throws -> ChildCommand) throws -> ChildRuns {
    var measured: [ChildRun] = []
    for run in 0..<max(runs, 1) {
        let command = try command(run)
        FileSystemSettling.settle()
        measured.append(try command.run())
    }
    return ChildRuns(measured)
}

/// Times `command`, which writes no files, `runs` times.
func measureChild(_ command: ChildCommand, runs: Int) throws -> ChildRuns {
    try measureChild(runs: runs) { _ in command }
}

/// Times `commands` (none writes files) in `runs` rounds, each round running every command once in
/// turn, each after the file system has settled: a figure and its anchor then share whatever the
/// machine was doing in each round. Timed one after the other instead, a busy spell during one
/// command's runs (on a shared virtual machine the same binary varied by ±30% within minutes)
/// moved their ratio by as much. The runs of each command, in order; `run` runs one (tests pass
/// their own).
func measureAlternated(
    _ commands: [ChildCommand], runs: Int, run: (ChildCommand) throws -> ChildRun = { try $0.run() }
) throws -> [ChildRuns] {
    try measureAlternated(runs: runs, commands: { _ in commands }, run: run)
}

/// `measureAlternated(_:runs:run:)` for commands that write files: round `i` runs `commands(i)`
/// (0, 1, …), which gives each run a fresh output path; every round has the same number of
/// commands, in the same order.
func measureAlternated(
    runs: Int, commands: (Int) throws -> [ChildCommand], run: (ChildCommand) throws -> ChildRun = { try $0.run() }
) throws -> [ChildRuns] {
    var measured: [[ChildRun]] = []
    for round in 0..<max(runs, 1) {
        let roundCommands = try commands(round)
        if measured.isEmpty { measured = Array(repeating: [], count: roundCommands.count) }
        precondition(roundCommands.count == measured.count, "every round runs the same commands")
        for (index, command) in roundCommands.enumerated() {
            FileSystemSettling.settle()
            measured[index].append(try run(command))
        }
    }
    return measured.map(ChildRuns.init)
}

/// What the CPU time `ours` spends bounds, for a wall-time speed-up over `anchor`: shared perfectly
/// over this machine's cores, its best CPU time (user and system) takes at least that time over the
/// cores count; so the speed-up is at most `anchor`'s best wall time over that, and a speed-up of
/// `goal` needs at most `goal`-th of it times the cores. Says whether the goal is out of reach
/// whatever the parallelism, or how much of it is left to the scheduling.
func cpuCeiling(of ours: ChildRuns, against anchor: ChildRuns, goal: Double) -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let cpu = ours.best.userSeconds + ours.best.systemSeconds
    let ceiling = ratio(anchor.best.seconds, cpu / Double(cores))
    let allowed = anchor.best.seconds / goal * Double(cores)
    let reach = ceiling >= goal
        ? "the goal is within reach by parallelism alone"
        : "the goal needs less CPU time, at most \(decimal(allowed, places: 3)) s"
    return "  ceiling on \(cores) cores: \(decimal(cpu, places: 3)) s of CPU time shared perfectly takes "
        + "\(decimal(cpu / Double(cores), places: 3)) s, at most \(decimal(ceiling, places: 2))× by wall time; \(reach)"
}

/// What `ours` can be at best once its start and its read of the file are counted whole: `start`,
/// a process that starts and reads the file as `check` does and exits, takes its best wall time
/// however many cores there are (the read is already spread over them, as far as the kernel lets
/// it), and only the rest of `ours`' CPU time is shared over the cores.
func startAndReadCeiling(of ours: ChildRuns, start: ChildRuns, against anchor: ChildRuns, goal: Double) -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let cpu = ours.best.userSeconds + ours.best.systemSeconds
    let startCPU = start.best.userSeconds + start.best.systemSeconds
    let rest = max(cpu - startCPU, 0)
    let floor = start.best.seconds + rest / Double(cores)
    let ceiling = ratio(anchor.best.seconds, floor)
    let allowed = max(anchor.best.seconds / goal - start.best.seconds, 0) * Double(cores)
    let reach = ceiling >= goal
        ? "the goal is within reach by parallelism alone"
        : "the goal needs the rest at most \(decimal(allowed, places: 3)) s of CPU time"
    return "  start and read (a process that only reads the file as check does): best \(decimal(start.best.seconds, places: 3)) s wall, "
        + "\(decimal(startCPU, places: 3)) s CPU; with the rest of check's CPU time (\(decimal(rest, places: 3)) s) shared perfectly, "
        + "at least \(decimal(floor, places: 3)) s, at most \(decimal(ceiling, places: 2))× by wall time; \(reach)"
}

/// The child mode of this binary that stands for what `check` does before it parses: starts, reads
/// the file with `RegularFile.read` (in pieces on the cores, as `check` does) and exits; exits 1 if it cannot.
func runReadChild(path: String) -> Never {
    do {
        let bytes = try RegularFile.read(path)
        exit(bytes.isEmpty ? 1 : 0)
    } catch {
        FileHandle.standardError.write(Data("read child: \(error)\n".utf8))
        exit(1)
    }
}

/// The argument that runs this binary as the read-only child.
let readChildFlag = "--read-child"

/// The child mode of this binary that the whole-process `check` is compared with: reads the file and
/// decodes it with `JSONDecoder` into `MinimalFile`, as a team's own small tool would; exits 1 if it cannot.
func runDecodeChild(path: String) -> Never {
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let file = try JSONDecoder().decode(MinimalFile.self, from: data)
        exit(file.placements.isEmpty && data.count > 64 ? 1 : 0)
    } catch {
        FileHandle.standardError.write(Data("decode child: \(error)\n".utf8))
        exit(1)
    }
}

/// The argument that runs this binary as the `JSONDecoder` child.
let decodeChildFlag = "--decode-child"

/// 10,000 as "10k", 1,500 as "1,500".
func shortCount(_ count: Int) -> String {
    count >= 1000 && count % 1000 == 0 ? "\(decimal(Double(count / 1000), places: 0))k" : decimal(Double(count), places: 0)
}

/// Whole-process `check FILE --format json` beside a whole-process `JSONDecoder` of the same file;
/// with `idleSeconds`, also each as a first run: `runs` times, alternated, each after that long idle.
func measureWholeProcessCheck(bytes: [UInt8], placements: Int, runs: Int, idleSeconds: Int = 0, site: SiteCommands) throws -> [Goal] {
    let folder = try BenchFolder("check")
    let path = folder.file("sample.json")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let measured = try measureAlternated([site.check([path]), ChildCommand(BenchBinaries.bench, [decodeChildFlag, path])], runs: runs)
    let (check, decode) = (measured[0], measured[1])
    // After the pair, so each of the pair still follows the other.
    let read = try measureAlternated([ChildCommand(BenchBinaries.bench, [readChildFlag, path])], runs: runs)[0]
    let speedUp = RunComparison(check, decode, speed: true, alternated: true)
    print("")
    print("whole processes, \(runs) rounds of one run each, alternated (wall time from spawn to exit, user and system CPU time; "
        + "peak = the child's maximum resident set):")
    print("fallback-site check --format json      \(check.summary)")
    print("JSONDecoder process (MinimalFile)      \(decode.summary)")
    print("whole-process check vs JSONDecoder, speed-up: \(speedUp.summary) (goal ≥ 3×)")
    print(cpuCeiling(of: check, against: decode, goal: 3))
    print(startAndReadCeiling(of: check, start: read, against: decode, goal: 3))
    if idleSeconds > 0 {
        try measureFirstRuns(check: site.check([path]), decode: ChildCommand(BenchBinaries.bench, [decodeChildFlag, path]), runs: runs, idleSeconds: idleSeconds)
    }
    return [Goal(name: "whole-process check vs JSONDecoder (\(decimal(Double(placements), places: 0)) placements)", bound: .atLeast(3), unit: .times,
        figure: speedUp.wall, cpuFigure: speedUp.cpu, userFigure: speedUp.user,
        anchor: "check \(secondsText(check.best.seconds)) vs JSONDecoder \(secondsText(decode.best.seconds))")]
}

/// `check` and the `JSONDecoder` process as a CI job runs them, once after a quiet spell: each of
/// `runs` rounds sleeps `idleSeconds` before each of the two. Back-to-back runs reuse memory the
/// previous run just freed; a first run does not, and on a virtual machine that reports freed memory
/// to its host (virtio-balloon free page reporting, as on this machine) its pages must be faulted in
/// again by the host, which shows as system time.
func measureFirstRuns(check: ChildCommand, decode: ChildCommand, runs: Int, idleSeconds: Int) throws {
    func afterIdle(_ command: ChildCommand) throws -> ChildRun {
        FileSystemSettling.settle()
        Thread.sleep(forTimeInterval: TimeInterval(idleSeconds))
        return try command.run()
    }
    var checkRuns: [ChildRun] = []
    var decodeRuns: [ChildRun] = []
    for _ in 0..<max(runs, 1) {
        checkRuns.append(try afterIdle(check))
        decodeRuns.append(try afterIdle(decode))
    }
    let first = (check: ChildRuns(checkRuns), decode: ChildRuns(decodeRuns))
    print("first runs, each after \(idleSeconds) s idle, \(runs) rounds alternated:")
    print("fallback-site check --format json      \(first.check.summary)")
    print("JSONDecoder process (MinimalFile)      \(first.decode.summary)")
    print("first-run check vs JSONDecoder, speed-up: \(RunComparison(first.check, first.decode, speed: true).summary) (no goal)")
}

/// What a built site's pages weigh: page count, HTML bytes, and the text a reader sees.
struct SiteOutput {
    var pages = 0
    var htmlBytes = 0
    var textBytes = 0

    /// Reads every `.html` file under `folder`.
    init(folder: String) {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return }
        for case let name as String in walker where name.hasSuffix(".html") {
            guard let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(name)) else { continue }
            pages += 1
            htmlBytes += data.count
            textBytes += visibleTextBytes(Array(data))
        }
    }

    var averageHTMLBytes: Int { htmlBytes / max(pages, 1) }
    var averageTextBytes: Int { textBytes / max(pages, 1) }
}

/// The bytes of text a reader sees in `html`: outside tags, scripts and styles, runs of white space
/// counted as one. (Entities count as written; a close enough measure of "the same amount of text".)
func visibleTextBytes(_ html: [UInt8]) -> Int {
    var count = 0
    var index = 0
    var lastWasSpace = true
    func starts(_ word: String, at position: Int) -> Bool {
        let word = Array(word.utf8)
        guard position + word.count <= html.count else { return false }
        for offset in 0..<word.count where html[position + offset] | 0x20 != word[offset] { return false }
        return true
    }
    while index < html.count {
        let byte = html[index]
        if byte == UInt8(ascii: "<") {
            // Skip a script or style element whole, else just the tag.
            let skipped = ["script", "style"].first { starts("<" + $0, at: index) }
            var end = index + 1
            if let skipped {
                while end < html.count && !starts("</" + skipped, at: end) { end += 1 }
            }
            while end < html.count && html[end] != UInt8(ascii: ">") { end += 1 }
            index = end + 1
            continue
        }
        let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
        if !isSpace || !lastWasSpace { count += 1 }
        lastWasSpace = isSpace
        index += 1
    }
    return count
}

/// The site builds as whole processes at 1,000 and 10,000 placements (seed 2), and Hugo on as many
/// pages of plain prose of the same text size and of table pages of the same HTML size, all four
/// in alternated rounds (`measureAlternated`): the 10k-to-1k growth and Hugo's comparisons then
/// share whatever the machine was doing. An untimed first build of the smaller sample gives the
/// page count and sizes that Hugo's pages are made to.
func measureSiteBuilds(small: Int, runs: Int, site: SiteCommands) throws -> [Goal] {
    // Every run's site stays until the benchmark ends, so no run (ours or Hugo's) pays for an earlier run's deletes.
    let folder = try BenchFolder("site-builds")
    let large = small * 10
    var inputs: [String] = []
    for placements in [small, large] {
        try FileManager.default.createDirectory(atPath: folder.file("in-\(placements)"), withIntermediateDirectories: true)
        let input = folder.file("in-\(placements)/sample.json")
        try site.writeSample(placements: placements, seed: 2, to: input)
        inputs.append(input)
    }
    func out(_ placements: Int, _ run: String) -> String { folder.file("site-\(placements)-\(run)") }
    _ = try site.build([inputs[0]], out: out(small, "first")).run()
    let smallOutput = SiteOutput(folder: out(small, "first"))
    let hugoSites = try HugoSite.comparisons(for: smallOutput)
    print("")
    print("site build, whole processes (fallback-site build --quiet), \(runs) rounds of one run each of both sizes"
        + (hugoSites.isEmpty ? "" : " and Hugo's two sites") + ", alternated, each into a fresh folder:")
    let measured = try measureAlternated(runs: runs) { round in
        [site.build([inputs[0]], out: out(small, "\(round)")), site.build([inputs[1]], out: out(large, "\(round)"))]
            + hugoSites.map { $0.build(run: round) }
    }
    let (smallRuns, largeRuns) = (measured[0], measured[1])
    for (placements, timed, output) in [(small, smallRuns, smallOutput), (large, largeRuns, SiteOutput(folder: out(large, "0")))] {
        print(
            "\(decimal(Double(placements), places: 0).padded(to: 7)) placements: \(decimal(Double(output.pages), places: 0)) pages, "
                + "\(decimal(Double(output.pages) / timed.best.seconds, places: 0)) pages/s (best wall time); average page "
                + "\(decimal(Double(output.averageHTMLBytes) / 1024, places: 1)) KB of HTML, \(decimal(Double(output.averageTextBytes) / 1024, places: 1)) KB of text")
        print("                     \(timed.summary)")
    }
    let growth = RunComparison(largeRuns, smallRuns, alternated: true)
    let peak = megabytes(largeRuns.best.peakBytes)
    print("\(shortCount(large)) vs \(shortCount(small)), time: \(growth.summary) (goal < 10×); peak \(decimal(peak, places: 0)) MB (goal < 400 MB)")
    var goals = [
        Goal(name: "build: \(decimal(Double(large), places: 0)) vs \(decimal(Double(small), places: 0)) placements, time", bound: .below(10), unit: .times,
             figure: growth.wall, cpuFigure: growth.cpu, userFigure: growth.user,
             anchor: "\(secondsText(largeRuns.best.seconds)) vs \(secondsText(smallRuns.best.seconds))"),
        Goal(name: "build: \(decimal(Double(large), places: 0)) placements, peak memory", bound: .below(400), unit: .megabytes, figure: peak),
        // In kilobytes of 1,000 bytes, as every megabyte here is: the stricter reading of "25 KB".
        Goal(name: "build: average page of the \(decimal(Double(small), places: 0))-placement sample", bound: .below(25), unit: .kilobytes,
             figure: Double(smallOutput.averageHTMLBytes) / 1000,
             anchor: "\(decimal(Double(smallOutput.averageHTMLBytes), places: 0)) bytes, \(decimal(Double(smallOutput.averageHTMLBytes) / 1024, places: 1)) KiB"),
    ]
    goals += measureHugo(ours: smallRuns, output: smallOutput, placements: small, sites: hugoSites, hugo: Array(measured.dropFirst(2)))
    return goals
}

/// The room in the file system that holds a folder: its free bytes, and whether it lives in memory.
struct FolderRoom {
    /// Bytes free to write, when the file system says.
    let freeBytes: Int?
    /// True for a memory file system (Linux's tmpfs, such as `/dev/shm`): its files take memory.
    let isInMemory: Bool

    /// A site's pages over its input's bytes: the 100,000-placement site is 7.7 GB of files for a
    /// 528 MB input (14.6×).
    static let siteBytesPerInputByte = 15

    init(freeBytes: Int?, isInMemory: Bool) {
        self.freeBytes = freeBytes
        self.isInMemory = isInMemory
    }

    init(path: String) {
        freeBytes = ((try? FileManager.default.attributesOfFileSystem(forPath: path))?[.systemFreeSize] as? NSNumber)?.intValue
        isInMemory = Self.fileSystemType(of: path) == "tmpfs"
    }

    /// The type of the file system mounted where `path` is, from Linux's `/proc/self/mounts`; nil
    /// elsewhere.
    static func fileSystemType(of path: String) -> String? {
        guard let table = mountTable() else { return nil }
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return fileSystemType(of: Array(resolved.utf8), inMountTable: table)
    }

    /// The type of the file system of the mount point in `table` (lines of `/proc/self/mounts`:
    /// source, mount point, type, …) that is the longest one above `path`, compared as bytes.
    static func fileSystemType(of path: [UInt8], inMountTable table: [UInt8]) -> String? {
        let slash = UInt8(ascii: "/")
        var best: (length: Int, type: String)?
        for line in table.split(separator: UInt8(ascii: "\n")) {
            let columns = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard columns.count >= 3 else { continue }
            let point = unescaped(columns[1])
            let contains =
                point == [slash] || path == point || (path.count > point.count && path.starts(with: point) && path[point.count] == slash)
            // Equal lengths: the later line is the later mount.
            if contains, point.count >= (best?.length ?? 0) { best = (point.count, String(decoding: columns[2], as: UTF8.self)) }
        }
        return best?.type
    }

    /// A mount point as the kernel writes it, with a space, tab, newline or backslash as `\ooo`.
    private static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = field.startIndex
        while index < field.endIndex {
            let digits = field[(index + 1)..<min(index + 4, field.endIndex)]
            if field[index] == UInt8(ascii: "\\"), digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }) {
                bytes.append(digits.reduce(0) { $0 &* 8 &+ ($1 - UInt8(ascii: "0")) })
                index += 4
            } else {
                bytes.append(field[index])
                index += 1
            }
        }
        return bytes
    }

    /// The whole of `/proc/self/mounts`, read until its end: the kernel hands it out a few whole
    /// lines per read, so one short read is not the end. Nil where there is none.
    private static func mountTable() -> [UInt8]? {
        let descriptor = open("/proc/self/mounts", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var table: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return table }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            table.append(contentsOf: chunk[..<count])
        }
    }

    /// A warning, before a build of an input of `inputBytes`, when its pages may not fit: the file
    /// system has too little room, or lives in memory and the pages come to a gigabyte or more,
    /// which counts against the memory the build itself needs; nil otherwise.
    func warning(forSiteOf inputBytes: Int) -> String? {
        let expected = inputBytes * Self.siteBytesPerInputByte
        let sizeText = "about \(decimal(Double(expected) / 1e9, places: 1)) GB"
        if isInMemory, expected >= 1_000_000_000 {
            return "large: warning: the build writes \(sizeText) of pages into a memory file system (tmpfs): they take memory beside the build's own, "
                + "and the kernel may kill the build (SIGKILL) when the machine runs short. Set TMPDIR to a folder on disk."
        }
        if let freeBytes, freeBytes < expected {
            return "large: warning: the build writes \(sizeText) of pages, and the temporary folder's file system has \(decimal(Double(freeBytes) / 1e9, places: 1)) GB free. "
                + "Give the benchmark a temporary folder with room (on Linux, TMPDIR)."
        }
        return nil
    }
}

/// With --large: `check` and `build` of a 100,000-placement sample, each under an address-space cap
/// (so a run that would need far more memory fails on its own instead of starving the machine).
func measureLargeRuns(placements: Int, site: SiteCommands) throws -> [Goal] {
    let folder = try BenchFolder("large")
    print("")
    print("large: writing a \(decimal(Double(placements), places: 0))-placement sample (seed 1)…")
    try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
    let input = folder.file("in/sample.json")
    try site.writeSample(placements: placements, seed: 1, to: input)
    let size = byteCount(of: input)
    print("large: sample of \(decimal(megabytes(size), places: 0)) MB; one run each")
    let name = decimal(Double(placements), places: 0)

    var check = site.check([input])
    check.addressSpaceLimit = 6_000_000_000
    var build = site.build([input], out: folder.file("site"))
    build.addressSpaceLimit = 12_000_000_000
    var goals: [Goal] = []
    for (label, command, limitText) in [("check", check, "6 GB"), ("build", build, "12 GB")] {
        do {
            if label == "build", let warning = FolderRoom(path: folder.path).warning(forSiteOf: size) { print(warning) }
            FileSystemSettling.settle()
            let run = try command.run()
            print("\(label) of \(name) placements: \(ChildRuns([run]).summary)")
            if label == "check" {
                goals.append(Goal(name: "check: \(name) placements, time", bound: .below(10), unit: .seconds, figure: run.seconds, cpuFigure: run.cpuSeconds))
                goals.append(Goal(name: "check: \(name) placements, peak memory", bound: .below(2000), unit: .megabytes, figure: megabytes(run.peakBytes)))
            } else {
                goals.append(Goal(name: "build: \(name) placements completes, peak memory", bound: .below(4000), unit: .megabytes, figure: megabytes(run.peakBytes)))
            }
        } catch {
            let killed = (error as? ChildProcessError)?.signal == SIGKILL
            print("\(label) of \(name) placements did not complete\(killed ? "" : " under a \(limitText) address-space cap"): \(error)")
            let note = killed ? "killed by SIGKILL, most likely out of memory" : "did not complete under a \(limitText) cap"
            if label == "check" {
                goals.append(Goal(name: "check: \(name) placements, time", bound: .below(10), unit: .seconds, figure: .infinity, note: note))
            } else {
                goals.append(Goal(name: "build: \(name) placements completes, peak memory", bound: .below(4000), unit: .megabytes, figure: .infinity, note: note))
            }
        }
    }
    return goals
}
