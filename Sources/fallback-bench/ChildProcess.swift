// Whole-process measurements: a child's wall time and its own peak resident memory, from `wait4`.
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one child process took: wall time, peak resident memory and how it ended.
struct ChildRun: Sendable {
    /// Wall time from spawn to reaping, in seconds.
    var seconds: Double
    /// User CPU time, in seconds: the steadiest figure on a busy machine (and above wall time for a
    /// program that uses several cores).
    var userSeconds: Double = 0
    /// System CPU time, in seconds: the kernel's work for the child, which swings with the state of
    /// the file system (on ext4 without a journal, creating files soon after many deletes costs more).
    var systemSeconds: Double = 0
    /// The child's peak resident set size in bytes (its `ru_maxrss`, which includes the
    /// descendants it waited for, such as `git`).
    var peakBytes: Int
    /// The exit status, or nil when a signal ended it.
    var exitStatus: Int32?
    /// The signal that ended it, if one did.
    var signal: Int32?
}

extension ChildRun {
    /// User and system time together, in seconds.
    var cpuSeconds: Double { userSeconds + systemSeconds }

    /// A run from a raw `wait` status: the exit status when the child exited, the signal when one ended it.
    init(seconds: Double, userSeconds: Double, systemSeconds: Double, peakBytes: Int, waitStatus status: Int32) {
        let signal = status & 0x7f
        self.init(
            seconds: seconds, userSeconds: userSeconds, systemSeconds: systemSeconds, peakBytes: peakBytes,
            exitStatus: signal == 0 ? (status >> 8) & 0xff : nil, signal: signal == 0 ? nil : signal)
    }

    /// The line the measuring process writes: "seconds user-seconds system-seconds peak-bytes wait-status".
    var resultLine: String {
        let status = signal ?? ((exitStatus ?? 0) << 8)
        return "\(seconds) \(userSeconds) \(systemSeconds) \(peakBytes) \(status)"
    }

    /// A run read back from `resultLine`; nil when the line is not one.
    init?(resultLine: String) {
        let columns = resultLine.split(separator: " ")
        guard columns.count == 5, let seconds = Double(columns[0]), let user = Double(columns[1]), let system = Double(columns[2]),
            let peak = Int(columns[3]), let status = Int32(columns[4])
        else { return nil }
        self.init(seconds: seconds, userSeconds: user, systemSeconds: system, peakBytes: peak, waitStatus: status)
    }
}

/// A failed measurement: what ran and why it does not count.
struct ChildProcessError: Error, CustomStringConvertible {
    var command: [String]
    var reason: String
    /// The signal that ended the child, when one did.
    var signal: Int32? = nil

    var description: String {
        "fallback-bench: `\(command.map(ChildProcessError.quoted).joined(separator: " "))` \(reason)"
    }

    private static func quoted(_ argument: String) -> String {
        argument.contains(" ") || argument.isEmpty ? "'\(argument)'" : argument
    }
}

/// A command line to run as a child of the benchmark, with its standard streams redirected to
/// files (`/dev/null` by default), so that only the child's own work is timed.
struct ChildCommand: Sendable {
    var executable: String
    var arguments: [String]
    /// Where standard input comes from.
    var standardInput = "/dev/null"
    /// Where standard output goes.
    var standardOutput = "/dev/null"
    /// Where standard error goes; nil keeps the benchmark's, so a child's error is seen.
    var standardError: String? = "/dev/null"
    /// The exit statuses that count as success.
    var acceptedStatuses: Set<Int32> = [0]
    /// A cap on the child's address space (`RLIMIT_AS`), for runs that might need more memory than
    /// the machine has: past it, an allocation fails and the child stops instead of starving the machine.
    var addressSpaceLimit: Int?

    init(_ executable: String, _ arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Runs the command once; throws when it cannot start, a signal ends it, or its status is not accepted.
    ///
    /// The command runs under a small measuring process (this binary, `--measure-child`), which
    /// spawns it, times it and reads its peak memory with `wait4`. Linux counts the memory of the
    /// image a process replaced with `exec` in its peak, and a child spawned from this benchmark
    /// starts as a view of the benchmark's own (large) memory; spawned from the small measuring
    /// process, its figure is its own (never below that process's few megabytes).
    func run() throws -> ChildRun {
        let command = [executable] + arguments
        let resultPath = FileManager.default.temporaryDirectory.appendingPathComponent("bench-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: resultPath) }
        var actions = Self.makeFileActions()
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let standardError {
            posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        // The children inherit this process's limits: lower ours for the spawn, then restore them.
        fflush(nil)  // what this process printed comes before what the child prints
        let savedLimit = addressSpaceLimit.flatMap(Self.lowerAddressSpaceLimit)
        let measurer = Self.spawnAndWait([BenchBinaries.bench, measureChildFlag, resultPath, "--"] + command, actions: &actions)
        if var savedLimit { _ = setrlimit(Self.addressSpace, &savedLimit) }
        guard case .success(let measured) = measurer, measured.exitStatus == 0 else {
            throw ChildProcessError(command: command, reason: "could not be measured (\(BenchBinaries.bench) \(measureChildFlag) failed)")
        }
        guard let run = ChildRun(resultLine: (try? String(contentsOfFile: resultPath, encoding: .utf8)) ?? "") else {
            throw ChildProcessError(command: command, reason: "could not start")
        }
        if let exitStatus = run.exitStatus, !acceptedStatuses.contains(exitStatus) {
            throw ChildProcessError(command: command, reason: "exited with status \(exitStatus)")
        }
        if let signal = run.signal {
            throw ChildProcessError(command: command, reason: "was killed by signal \(signal)" + Self.explanation(ofSignal: signal), signal: signal)
        }
        return run
    }

    /// What a signal that ended a child most likely says, for the reader of its error; empty for most.
    ///
    /// An address-space cap makes an allocation fail, which ends a Swift program with a trap
    /// (SIGILL or SIGTRAP), not SIGKILL: a SIGKILL nobody sent is the kernel's out-of-memory killer,
    /// which picks the largest process when the whole machine runs short, counting the files of a
    /// memory file system (tmpfs, such as `/dev/shm`) that the benchmark's folders may be in.
    static func explanation(ofSignal signal: Int32) -> String {
        signal == SIGKILL
            ? " (SIGKILL: most likely the kernel's out-of-memory killer, the machine short of memory, not the address-space cap; a temporary folder in memory, such as TMPDIR=/dev/shm, counts its files against memory)"
            : ""
    }

    /// Spawns `command` (its first element is the executable's path) and waits for it; an `errno` when it cannot.
    #if canImport(Darwin)
        typealias FileActions = posix_spawn_file_actions_t?
    #else
        typealias FileActions = posix_spawn_file_actions_t
    #endif
    static func spawnAndWait(_ command: [String], actions: UnsafeMutablePointer<FileActions>?) -> Result<ChildRun, POSIXError> {
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, command[0], actions, nil, argv, environ)
        guard spawned == 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD)) }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #if canImport(Darwin)
            let peak = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
            let peak = Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
        #endif
        func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return .success(ChildRun(
            seconds: seconds, userSeconds: inSeconds(usage.ru_utime), systemSeconds: inSeconds(usage.ru_stime), peakBytes: peak,
            waitStatus: status))
    }

    #if os(Linux)
        private static let addressSpace = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
        private static let addressSpace = RLIMIT_AS
    #endif

    /// Sets the soft address-space limit to `bytes` (at most the hard limit); returns the limits before.
    private static func lowerAddressSpaceLimit(_ bytes: Int) -> rlimit? {
        var saved = rlimit()
        guard getrlimit(addressSpace, &saved) == 0 else { return nil }
        var lowered = saved
        lowered.rlim_cur = min(rlim_t(bytes), saved.rlim_max)
        return setrlimit(addressSpace, &lowered) == 0 ? saved : nil
    }

    #if canImport(Darwin)
        private static func makeFileActions() -> posix_spawn_file_actions_t? {
            var actions: posix_spawn_file_actions_t?
            posix_spawn_file_actions_init(&actions)
            return actions
        }
    #else
        private static func makeFileActions() -> posix_spawn_file_actions_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            return actions
        }
    #endif
}

/// The argument that runs this binary as the measuring process: `--measure-child RESULT -- COMMAND…`.
let measureChildFlag = "--measure-child"

/// The measuring process: runs the command after `--` with this process's standard streams and
/// limits, and writes its `resultLine` to RESULT; exits 1 when it cannot run it.
func runMeasureChild(_ arguments: [String]) -> Never {
    guard arguments.count >= 3, arguments[1] == "--" else { exit(2) }
    switch ChildCommand.spawnAndWait(Array(arguments[2...]), actions: nil) {
    case .success(let run):
        exit(FileManager.default.createFile(atPath: arguments[0], contents: Data(run.resultLine.utf8)) ? 0 : 1)
    case .failure(let error):
        FileHandle.standardError.write(Data("fallback-bench: cannot run \(arguments[2]): \(error)\n".utf8))
        exit(1)
    }
}

/// The binaries the whole-process rows run: this benchmark and `fallback-site`, built beside it.
enum BenchBinaries {
    /// This benchmark's own executable.
    static var bench: String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// `fallback-site` in the same folder as this benchmark, or nil (with a message on how to build it).
    static func fallbackSite() -> String? {
        let folder = URL(fileURLWithPath: bench).deletingLastPathComponent()
        let path = folder.appendingPathComponent("fallback-site").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            print("""
                fallback-site is not built in \(folder.path): the whole-process rows are skipped.
                  Build both in release: swift build -c release --product fallback-site && swift build -c release --product fallback-bench
                  (or `swift build -c release`, or `make bench`, which does this)
                """)
            return nil
        }
        // `swift build --product fallback-bench` recompiles the libraries the benchmark uses but does
        // not relink fallback-site: say so when a library was compiled after fallback-site was linked.
        if let stale = newerModule(than: path, in: folder.path) {
            print("""
                warning: \(path) is older than its module \(stale), rebuilt since: the whole-process rows would measure
                  the old code. Rebuild it first: swift build -c release --product fallback-site (make bench does)
                """)
        }
        return path
    }

    /// A module of the build folder (not the benchmark's, not a test's) with an object file newer than `binary`.
    private static func newerModule(than binary: String, in folder: String) -> String? {
        let files = FileManager.default
        func modified(_ path: String) -> Date? { (try? files.attributesOfItem(atPath: path)[.modificationDate]) as? Date }
        guard let linked = modified(binary), let entries = try? files.contentsOfDirectory(atPath: folder) else { return nil }
        let modules = entries.filter { $0.hasSuffix(".build") && $0 != "fallback_bench.build" && !$0.contains("Test") }
        for module in modules.sorted() {
            let moduleFolder = (folder as NSString).appendingPathComponent(module)
            let objects = (try? files.contentsOfDirectory(atPath: moduleFolder))?.filter { $0.hasSuffix(".o") } ?? []
            if objects.contains(where: { modified((moduleFolder as NSString).appendingPathComponent($0)).map { $0 > linked } ?? false }) {
                return String(module.dropLast(".build".count))
            }
        }
        return nil
    }
}
