import FallbackAudit
import Foundation

/// The file operations the site writer needs, as closures so generation runs in tests without a disk.
public struct FileIO: Sendable {
    public var createDirectory: @Sendable (_ path: String) throws -> Void
    public var writeFile: @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void
    /// The names in a folder; nil when there is no folder at `path` or it cannot be listed
    /// (`itemKind` tells which).
    public var listDirectory: @Sendable (_ path: String) -> [String]?
    public var fileExists: @Sendable (_ path: String) -> Bool
    public var move: @Sendable (_ from: String, _ to: String) throws -> Void
    /// Removes a file, a folder with its content, or a symbolic link (never its target).
    public var remove: @Sendable (_ path: String) throws -> Void
    /// What is at `path`, not following a final symbolic link; nil when nothing is there.
    public var itemKind: @Sendable (_ path: String) -> FileKind?
    /// `path` with every symbolic link, `.` and `..` resolved (`realpath`); nil when it does not exist.
    public var resolvedPath: @Sendable (_ path: String) -> String?
    /// The folder a relative path starts from.
    public var currentDirectory: @Sendable () -> String
    /// Locks a folder (`FolderLock`): builds into the same output take turns with it, and tell a
    /// live build's temporary folder from a leftover.
    public var lockFolder: @Sendable (_ path: String, _ waiting: Bool) -> FolderLock.Attempt

    public init(
        createDirectory: @escaping @Sendable (String) throws -> Void, writeFile: @escaping @Sendable (String, [UInt8]) throws -> Void,
        listDirectory: @escaping @Sendable (String) -> [String]?, fileExists: @escaping @Sendable (String) -> Bool,
        move: @escaping @Sendable (String, String) throws -> Void, remove: @escaping @Sendable (String) throws -> Void,
        itemKind: @escaping @Sendable (String) -> FileKind? = FileKind.at,
        resolvedPath: @escaping @Sendable (String) -> String? = FileIO.diskResolvedPath,
        currentDirectory: @escaping @Sendable () -> String = { FileManager.default.currentDirectoryPath },
        lockFolder: @escaping @Sendable (String, Bool) -> FolderLock.Attempt = FolderLock.attempt
    ) {
        self.createDirectory = createDirectory
        self.writeFile = writeFile
        self.listDirectory = listDirectory
        self.fileExists = fileExists
        self.move = move
        self.remove = remove
        self.itemKind = itemKind
        self.resolvedPath = resolvedPath
        self.currentDirectory = currentDirectory
        self.lockFolder = lockFolder
    }

    /// The real file system.
    public static let disk = FileIO(
        createDirectory: { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: true) },
        writeFile: { path, bytes in
            // A build writes thousands of new files into its temporary folder: one `open`, `write`
            // and `close` each. Replacing a file that is there goes through Foundation's atomic
            // write, so what was there stays whole if the write fails.
            if try FileIO.createNewFile(atPath: path, bytes) { return }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw SiteWriterError.cannotWrite(path)
            }
        },
        listDirectory: { path in
            guard FileKind.at(path) == .directory else { return nil }
            return try? FileManager.default.contentsOfDirectory(atPath: path)
        },
        fileExists: { FileManager.default.fileExists(atPath: $0) },
        move: { try FileManager.default.moveItem(atPath: $0, toPath: $1) },
        remove: { try FileManager.default.removeItem(atPath: $0) })

    /// Writes `bytes` as a file at `path` that must not exist yet (`O_EXCL`), with the mode a
    /// new file gets (`0o666` less the umask) and no `fsync`: nothing was at `path` to lose.
    /// False, having touched nothing, when something is already there; a failed write removes
    /// the file it made.
    static func createNewFile(atPath path: String, _ bytes: [UInt8]) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw SiteWriterError.cannotWrite(path)
        }
        var written = 0
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard complete, closed else {
            unlink(path)
            throw SiteWriterError.cannotWrite(path)
        }
        return true
    }

    /// `realpath` of `path` on disk.
    @Sendable public static func diskResolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Where a site's files go as they are made: the temporary folder of a build (`SiteWriter.Staging`,
/// which takes pages from several threads at once) or, for tests and commands that look at pages, a
/// dictionary of them by path (one at a time).
public protocol SiteSink {
    /// Takes `bytes` as the content of the file at `path` below the output folder.
    mutating func write(_ path: String, _ bytes: [UInt8]) throws

    /// Readies the sink to take the files at `paths` from several threads at once, and returns
    /// what takes each of them (`SiteFileWrite`); nil, the default, when files come only through
    /// `write`, one at a time. A file taken either way counts as written alike. Fails as `write`
    /// would for a path it refuses, before any of them is taken.
    mutating func concurrentWrites(of paths: [String]) throws -> SiteFileWrite?
}

/// Takes the file at a path below the output folder, from any thread: what a sink that can be
/// written concurrently hands out (`SiteSink.concurrentWrites(of:)`).
public typealias SiteFileWrite = @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void

extension SiteSink {
    public mutating func concurrentWrites(of paths: [String]) throws -> SiteFileWrite? { nil }
}

/// The site in memory: each file's bytes by its path below the output folder.
extension Dictionary: SiteSink where Key == String, Value == [UInt8] {
    public mutating func write(_ path: String, _ bytes: [UInt8]) throws {
        self[path] = bytes
    }
}

public enum SiteWriterError: Error, Equatable, CustomStringConvertible {
    /// The output folder holds files that no build of this tool wrote.
    case notAPreviousOutput(String)
    /// A page's relative path would leave the output folder or is not a plain relative path.
    case unsafePath(String)
    case cannotWrite(String)
    /// `--out` is the empty string.
    case emptyOutputPath
    /// `--out` (or the folder it would be made in) exists and is not a folder: never replaced.
    case notAFolder(String, FileKind)
    /// `--out` is a folder whose names cannot be read, so nobody can tell what replacing it would lose.
    case cannotList(String)
    /// `--out` is a symbolic link, replaced (the link, never its target) only with `--force`.
    case symbolicLink(String)
    /// `--out` is, contains or lies inside an input of the build.
    case overlapsInput(String, input: String)
    /// `--out` is the working folder or a folder above it (`/` included).
    case containsWorkingDirectory(String)

    /// True for the `--out` rules (a usage problem, found before anything is written), false
    /// for a failure while writing.
    public var refusesTheOutput: Bool {
        switch self {
        case .unsafePath, .cannotWrite: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .notAPreviousOutput(let path):
            "\(path) is not empty and was not written by fallback-site (no \(SiteWriter.markerName) in it); "
                + "choose another --out or pass --force to replace it"
        case .unsafePath(let path): "refusing to write \(path): it is not a plain path inside the output folder"
        case .cannotWrite(let path): "cannot write \(path)"
        case .emptyOutputPath: "--out is empty; name the folder to write the site to"
        case .notAFolder(let path, .unexaminable(let reason)):
            "cannot examine \(path): \(reason); choose another --out"
        case .notAFolder(let path, let kind):
            "\(path) is \(kind), not a folder; --out must be a folder or a path that does not exist yet (--force replaces only folders)"
        case .cannotList(let path): "\(path) is a folder that cannot be listed, so replacing it could lose files; choose another --out"
        case .symbolicLink(let path):
            "\(path) is a symbolic link; give the folder's own path, or pass --force to replace the link itself (its target is left as it is)"
        case .overlapsInput(let path, let input):
            "--out \(path) is, contains or lies inside the input \(input); choose an output folder apart from the inputs"
        case .containsWorkingDirectory(let path):
            "--out \(path) is the working folder or a folder above it, which a build would replace whole; choose a folder below or beside it"
        }
    }
}

/// Writes a whole site: into a temporary folder beside the output, file by file as the pages are
/// made (`begin()`) or all at once (`write(_:)`), then swapped in, so a failed or interrupted build
/// leaves the previous site as it was.
///
/// The output follows the rules of `OutputFolder`, checked before anything is written and again
/// right before the swap.
public struct SiteWriter: Sendable {
    /// The marker that identifies a folder as this tool's output.
    public static let markerName = ".fallback-site"

    /// The output as given (`--out`).
    public let outputPath: String
    public let io: FileIO
    /// Replace a non-empty folder that is not a previous output, or a symbolic link (the link itself).
    public var force = false
    /// The build's inputs (files and folders): the output may not be, contain or lie inside any of them.
    public var inputs: [String] = []

    public init(outputPath: String, io: FileIO = .disk, force: Bool = false, inputs: [String] = []) {
        self.outputPath = outputPath
        self.io = io
        self.force = force
        self.inputs = inputs
    }

    /// The output resolved and checked against every rule; touches nothing.
    @discardableResult
    public func checkedOutput() throws(SiteWriterError) -> OutputFolder {
        let output = try OutputFolder(outputPath, io: io)
        try output.checkPlace(inputs: inputs, io: io)
        try output.checkExisting(force: force, io: io)
        return output
    }

    /// True when `relativePath` stays inside the output folder: relative, no `..` or `.` component,
    /// no empty component, no backslash or NUL. Components are split as the file system splits
    /// them (`FileSystemPath`): `"../\u{338}x"` goes up a folder.
    public static func isSafe(_ relativePath: String) -> Bool {
        guard !relativePath.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == 0 }) else { return false }
        return !FileSystemPath.components(of: relativePath, omittingEmpty: false).contains { component in
            component.isEmpty || FileSystemPath.isDotOrDotDot(component)
        }
    }

    /// Writes `files` (relative path → bytes) as the new content of the output folder.
    public func write(_ files: [String: [UInt8]]) throws {
        for path in files.keys where !SiteWriter.isSafe(path) {
            throw SiteWriterError.unsafePath(path)
        }
        var staging = try begin()
        do {
            for path in files.keys.sorted() { try staging.write(path, files[path]!) }
            try staging.finish()
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Checks the output and opens its temporary folder, for a site written file by file as it is
    /// made (`SiteBuilder.write(to:)`): `Staging.finish()` swaps it in, `Staging.discard()` removes
    /// it, and until then the output is as it was.
    ///
    /// Another build into the same output may run at the same time (two CI jobs, a watch and a
    /// manual build): the cleanup of leftovers, the making of the temporary folder and the swap
    /// each happen under a lock on the folder that holds the output, and each build's temporary
    /// folder stays locked while it is written, so no build removes another's work. The last build
    /// to finish is the site that stays.
    public func begin() throws -> Staging {
        let output = try OutputFolder(outputPath, io: io)
        try output.checkPlace(inputs: inputs, io: io)
        let process = ProcessInfo.processInfo.processIdentifier
        if io.itemKind(output.parent) == nil { try io.createDirectory(output.parent) }
        let turn = FolderLock.acquired(io.lockFolder(output.parent, true))
        defer { turn?.release() }
        removeStale(beside: output)
        try output.checkExisting(force: force, io: io)
        let folder = output.sibling(.building, process: process)
        try io.createDirectory(folder)
        return Staging(
            writer: self, output: output, folder: folder, retired: output.sibling(.previous, process: process),
            ownership: FolderLock.acquired(io.lockFolder(folder, false)))
    }

    /// A site being written into the temporary folder beside the output (`.NAME.building-PID`).
    public struct Staging: SiteSink {
        let writer: SiteWriter
        let output: OutputFolder
        /// The temporary folder.
        let folder: String
        /// Where the previous site waits while the new one is moved in (`.NAME.previous-PID`).
        let retired: String
        /// The lock on `folder` that marks it as a live build's (nil where the file system does not lock).
        let ownership: FolderLock?
        private var directories: Set<String> = []
        /// The folders, relative to `folder`, of the files written so far ("" for `folder` itself),
        /// each found once: `NSString.deletingLastPathComponent` spent about 40,000 instructions
        /// on a staging path (120 M for the 3,000 files of a 1k build), and a site has a handful
        /// of folders.
        private var relativeDirectories: Set<Substring> = []
        /// How many `.html` files `write` has written so far.
        private var pagesWritten = 0
        /// How many `.html` files the writes of `concurrentWrites(of:)` have written so far.
        private let pagesWrittenConcurrently = PageTally()

        /// How many `.html` files are written so far.
        public var pageCount: Int { pagesWritten + pagesWrittenConcurrently.count }

        init(writer: SiteWriter, output: OutputFolder, folder: String, retired: String, ownership: FolderLock?) {
            self.writer = writer
            self.output = output
            self.folder = folder
            self.retired = retired
            self.ownership = ownership
            directories = [folder]
        }

        /// Writes one file, at a plain relative path (`SiteWriter.isSafe`), into the temporary folder.
        public mutating func write(_ path: String, _ bytes: [UInt8]) throws {
            try writer.io.writeFile(try prepare(path), bytes)
            if path.hasSuffix(".html") { pagesWritten += 1 }
        }

        /// Checks every path (`SiteWriter.isSafe`), then makes the folders they are in and returns
        /// a write of one of them into the temporary folder that any thread may call: a build's
        /// pages, each written by the thread that rendered it. A path given twice would be written
        /// by two threads at once, the survivor left to chance: then nil, and the files come one
        /// at a time through `write`, the later over the earlier, as they always did. The write
        /// refuses any path it was not given (`unsafePath`).
        public mutating func concurrentWrites(of paths: [String]) throws -> SiteFileWrite? {
            // Every path is checked before any folder is made.
            if let unsafe = paths.first(where: { !SiteWriter.isSafe($0) }) { throw SiteWriterError.unsafePath(unsafe) }
            let given = Set(paths)
            guard given.count == paths.count else { return nil }
            for path in paths { _ = try prepare(path) }
            let (io, folder, tally) = (writer.io, folder, pagesWrittenConcurrently)
            return { path, bytes in
                guard given.contains(path) else { throw SiteWriterError.unsafePath(path) }
                try io.writeFile(folder + "/" + path, bytes)
                if path.hasSuffix(".html") { tally.add() }
            }
        }

        /// The place of `path` in the temporary folder, once it is known to be a plain relative
        /// path and its folder exists.
        private mutating func prepare(_ path: String) throws -> String {
            guard SiteWriter.isSafe(path) else { throw SiteWriterError.unsafePath(path) }
            let target = folder + "/" + path
            // A safe path's last component is not empty and holds no `/`, so the folder `target`
            // is in depends only on the part of `path` before its last `/`.
            let relativeDirectory = path[..<(path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex)]
            if !relativeDirectories.contains(relativeDirectory) {
                let directory = (target as NSString).deletingLastPathComponent
                if !directories.contains(directory) {
                    try writer.io.createDirectory(directory)
                    directories.insert(directory)
                }
                relativeDirectories.insert(relativeDirectory)
            }
            return target
        }

        /// Marks the folder as this tool's output and swaps it in for the output, after checking
        /// again what is there (a build may take long); on failure the previous site stays and the
        /// temporary folder is removed.
        public func finish() throws {
            let io = writer.io
            let turn = FolderLock.acquired(io.lockFolder(output.parent, true))
            defer {
                turn?.release()
                ownership?.release()
            }
            do {
                try io.writeFile(folder + "/" + SiteWriter.markerName, Array("This folder is written by fallback-site; a build replaces it whole.\n".utf8))
                try output.checkExisting(force: writer.force, io: io)
                if io.itemKind(output.path) != nil {
                    try io.move(output.path, retired)
                    do {
                        try io.move(folder, output.path)
                    } catch {
                        try? io.move(retired, output.path)
                        throw error
                    }
                    try? io.remove(retired)
                } else {
                    try io.move(folder, output.path)
                }
            } catch {
                discard()
                throw error
            }
        }

        /// Removes the temporary folder and whatever was written into it; the output is untouched.
        public func discard() {
            try? writer.io.remove(folder)
            ownership?.release()
        }
    }

    /// Cleans up after an interrupted build of the same output: a site retired but never replaced
    /// is put back, and half-written folders are removed. Only folders named exactly as this
    /// writer names them (`.NAME.building-PID`, `.NAME.previous-PID`) count, never one that holds an input,
    /// and never the temporary folder of a build still running (it holds a lock on it). A retired site
    /// is always a leftover: swaps happen under the lock the caller holds.
    private func removeStale(beside output: OutputFolder) {
        let leftovers = (io.listDirectory(output.parent) ?? []).sorted().compactMap { name -> (OutputFolder.Sibling, String)? in
            guard let sibling = output.sibling(named: name) else { return nil }
            let path = OutputFolder.join(output.parent, name)
            guard io.itemKind(path) == .directory, !OutputFolder.overlaps(path, anyOf: inputs, io: io) else { return nil }
            if sibling == .building {
                switch io.lockFolder(path, false) {
                case .heldElsewhere: return nil
                case .acquired(let lock): lock.release()
                case .unavailable: break
                }
            }
            return (sibling, path)
        }
        if io.itemKind(output.path) == nil, let retired = leftovers.first(where: { $0.0 == .previous }) {
            try? io.move(retired.1, output.path)
        }
        for (_, path) in leftovers where io.itemKind(path) != nil {
            try? io.remove(path)
        }
    }
}

/// A count that writes on several threads add to (`SiteWriter.Staging`'s concurrent pages).
final class PageTally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func add() { lock.withLock { value += 1 } }

    var count: Int { lock.withLock { value } }
}
