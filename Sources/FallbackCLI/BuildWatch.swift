import FallbackReports
import FallbackSite
import Foundation
import RovenueFallback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `build --watch` waits and learns that it should stop; tests give their own, so a watch
/// runs without real time.
public struct WatchControl: Sendable {
    /// Waits about this many seconds between two polls (it may return early, on Ctrl-C).
    public var sleep: @Sendable (Double) -> Void
    /// Starts listening for the request to stop, once per watch, and returns what tells whether it came.
    public var start: @Sendable () -> @Sendable () -> Bool

    public init(sleep: @escaping @Sendable (Double) -> Void, start: @escaping @Sendable () -> @Sendable () -> Bool) {
        self.sleep = sleep
        self.start = start
    }

    /// Real time, and Ctrl-C (SIGINT) or SIGTERM as the request to stop: the build under way ends
    /// (or fails) whole first, so no half-written site is left. A second signal ends the process
    /// at once; the next build removes what that leaves beside the output.
    public static let live = WatchControl(
        sleep: { seconds in _ = usleep(useconds_t(max(0, seconds) * 1_000_000)) },
        start: {
            var signals = sigset_t()
            sigemptyset(&signals)
            for signalNumber in [SIGINT, SIGTERM] {
                _ = signal(signalNumber) { received in
                    stopRequested = 1
                    _ = signal(received, SIG_DFL)
                }
                sigaddset(&signals, signalNumber)
            }
            // A process may start with them blocked (a parent's mask is inherited): Ctrl-C must reach the watch.
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            return { stopRequested != 0 }
        })
}

/// Set by the signal handler of `WatchControl.live`; read between polls.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// The files `build --watch` looks at, and what changed between two looks.
///
/// A state maps each file to a fingerprint (kind, size, modification time, inode): a path that is
/// a folder stands for every file below it but hidden ones and backups, so files that appear, go
/// or change are all seen. No file is read, so a look costs a `stat` per file.
struct FileWatcher: Sendable {
    struct Fingerprint: Hashable, Sendable {
        var isFolder: Bool
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        var inode: UInt64
        var device: UInt64
    }

    typealias State = [String: Fingerprint]

    /// The deepest folder level looked into, so that a deep or looping tree costs a bounded look.
    static let depthLimit = 8

    /// The watched paths, as given: files or folders, there or not (yet).
    let paths: [String]

    /// Every watched file and folder now; a missing path has no entry.
    func state() -> State {
        var state: State = [:]
        for path in paths { add(path, depth: 0, to: &state) }
        return state
    }

    private func add(_ path: String, depth: Int, to state: inout State) {
        guard let fingerprint = Self.fingerprint(of: path) else { return }
        state[path] = fingerprint
        guard fingerprint.isFolder, depth < Self.depthLimit, !Self.isSymbolicLink(path),
            let names = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return }
        for name in names where !Self.isIgnored(name) { add(path + "/" + name, depth: depth + 1, to: &state) }
    }

    /// Hidden files and editors' backups inside a watched folder (`.page.html.swp`, `page.html~`):
    /// saving a file must not count twice, and they are no input.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~")
    }

    /// The paths added, removed or changed from `old` to `new`, in byte order; a folder only when
    /// it appears or goes (its files say what changed inside it).
    static func changes(from old: State, to new: State) -> [String] {
        var changed: [String] = []
        for (path, fingerprint) in new {
            guard let before = old[path] else {
                changed.append(path)
                continue
            }
            if fingerprint.isFolder && before.isFolder { continue }
            if before != fingerprint { changed.append(path) }
        }
        changed += old.keys.filter { new[$0] == nil }
        return changed.sorted { ExactKey.precedes($0, $1) }
    }

    /// The file at `path` (through a symbolic link), or nil when there is none.
    static func fingerprint(of path: String) -> Fingerprint? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return Fingerprint(
            isFolder: status.st_mode & S_IFMT == S_IFDIR, size: Int64(status.st_size), modifiedSeconds: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec), inode: UInt64(status.st_ino), device: UInt64(status.st_dev))
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}

/// `build --watch`: the first build, then a rebuild for each settled change, until asked to stop.
enum BuildWatch {
    /// Seconds between two looks at the watched files.
    static let pollInterval = 0.5
    /// The most looks a burst of saves may keep a rebuild waiting, so that a file rewritten
    /// without end still gets built.
    static let settleLimit = 10
    /// The most changed paths a summary names; the rest are counted.
    static let namedChanges = 3

    /// Refuses what cannot be watched: `--out -`, a snapshot read from standard input, and nothing to watch.
    static func checkWatchable(_ options: BuildCommand.Options) throws(UsageError) {
        if options.output == "-" { throw UsageError(message: "--watch writes a site folder; it cannot write to standard output ('--out -')") }
        if options.snapshots.contains("-") { throw UsageError(message: "--watch cannot watch standard input; give the snapshot's path") }
        let watchable = options.snapshots + [options.baseline, options.configuration.path, options.templates, options.assets].compactMap { $0 }
        if watchable.isEmpty {
            throw UsageError(
                message: "--watch has nothing to watch: --git-history is read from commits, which it does not follow; "
                    + "add --config, --templates or --assets, or build from snapshot files")
        }
    }

    /// The paths a watch looks at: the inputs, and `.fallback-site.json` when `--config` is not
    /// given, there or not (creating it changes the build).
    static func watchedPaths(_ options: BuildCommand.Options) -> [String] {
        let configuration = options.configuration.path ?? Configuration.fileName
        return options.snapshots + [options.baseline, configuration, options.templates, options.assets].compactMap { $0 }
    }

    static func run(_ options: BuildCommand.Options, in environment: CommandEnvironment) -> Int32 {
        var environment = environment
        let progress = ProgressLine.attach(to: &environment, quiet: options.quiet)
        let isStopped = environment.watch.start()
        let watcher = FileWatcher(paths: watchedPaths(options))
        // Looked at before the build, so that a save during it is seen by the next look.
        var state = watcher.state()
        let say: (String) -> Void = { if !options.quiet { environment.writeError($0 + "\n") } }
        switch BuildCommand.build(options, in: environment, progress: progress) {
        case .refused(let status):
            return status
        case .built(let site):
            say(BuildCommand.wrote(site))
        case .failed:
            say("build failed")
        }
        say("watching \(watcher.paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
        while !isStopped() {
            environment.watch.sleep(pollInterval)
            guard !isStopped() else { break }
            var current = watcher.state()
            guard current != state else { continue }
            // A burst of saves builds once: wait for a look that sees no further change.
            for _ in 0..<settleLimit {
                environment.watch.sleep(pollInterval)
                guard !isStopped() else { break }
                let next = watcher.state()
                if next == current { break }
                current = next
            }
            guard !isStopped() else { break }
            let changed = FileWatcher.changes(from: state, to: current)
            state = current
            progress.restart()
            let started = environment.clock()
            let outcome = BuildCommand.build(options, in: environment, progress: progress)
            let seconds = environment.clock() - started
            switch outcome {
            case .built(let site):
                say(summary(of: changed, result: "rebuilt \(BuildCommand.grouped(site.pageCount)) pages in \(String(format: "%.1f", seconds)) s"))
            case .failed:
                say(summary(of: changed, result: "build failed; kept the previous site"))
            case .refused(let status):
                return status
            }
        }
        progress.clear()
        say("stopped watching")
        return ExitStatus.success
    }

    /// `changed: a, b, c and 2 more → result`.
    static func summary(of changed: [String], result: String) -> String {
        var names = changed.prefix(namedChanges).joined(separator: ", ")
        if changed.count > namedChanges { names += " and \(changed.count - namedChanges) more" }
        return "changed: \(names) → \(result)"
    }
}
