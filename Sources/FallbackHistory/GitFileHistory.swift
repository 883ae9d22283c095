import Dispatch
import FallbackAudit
import Foundation

/// Every committed version of one file in a git repository, oldest first, read with the `git`
/// command line: one `git log --follow` lists the commits, one `git cat-file --batch` reads every
/// version.
///
/// The commits are HEAD's first-parent line, what the branch itself went through: a merge is one
/// version, the file as the merge left it (compared with its first parent), and the commits of a
/// merged branch are not versions of their own. Listed with every merged branch, their commits came
/// in date order among the branch's own (a placement raised on one branch and then on the other
/// read as a revision going down), and the merge, which git lists without changes unless asked,
/// was left out, so HEAD's own version was missing.
///
/// Renames are followed: each version is read under the name it had in its commit. A commit that
/// deletes the file has no version and is left out. The history is untrusted input: the path is a
/// literal name (never a glob or pathspec magic), git's output is read NUL-separated with fixed
/// fields, and only full object ids ever reach git again, so no commit message or file name can
/// add, drop or change a version, or become an option.
public struct GitFileHistory: SnapshotSource {
    /// A folder inside the repository's work tree; `git` runs there.
    public let repository: String
    /// The file, relative to `repository`.
    public let path: String
    /// The `git` processes, shared by copies of this value.
    private let git: GitProcesses

    /// The file as the user named it, for messages.
    private let shownPath: String

    public init(repository: String, path: String) {
        self.init(repository: repository, path: path, shownPath: path)
    }

    /// The history of the file at `filePath`, read in the folder that holds it.
    public init(file filePath: String) {
        let url = URL(fileURLWithPath: filePath)
        self.init(repository: url.deletingLastPathComponent().path, path: url.lastPathComponent, shownPath: filePath)
    }

    private init(repository: String, path: String, shownPath: String) {
        self.repository = repository
        self.path = path
        self.shownPath = shownPath
        git = GitProcesses(repository: repository)
    }

    /// How many `git` processes this history (and its copies) started so far.
    var processesStarted: Int { git.processesStarted }

    public func references() throws -> [SnapshotReference] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repository, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HistoryError.notAGitRepository(path: repository)
        }
        // git accepts a folder as the path, and would list every file under it.
        let onDisk = (repository as NSString).appendingPathComponent(path)
        if FileManager.default.fileExists(atPath: onDisk, isDirectory: &isDirectory), isDirectory.boolValue {
            throw HistoryError.folderNotFile(path: shownPath)
        }
        let followed = try pathFromTopLevel()
        guard try git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD"]).status == 0 else {
            throw HistoryError.neverCommitted(path: path, repository: repository)
        }
        // `-z`: every field ends in NUL, paths are written as they are; `%s` cannot hold a NUL.
        // `--first-parent -m`: the branch's own line, each merge with its change against its first
        // parent (git before 2.31 shows a merge's changes only with `-m`).
        let log = try git.output([
            "log", "--follow", "--first-parent", "-m", "-z", "--raw", "--no-abbrev", "--no-color", "--no-show-signature",
            "--format=%H %aI %s",
            "--end-of-options", "HEAD", "--", path,
        ])
        let references = try Self.parseLog(log, following: followed)
        guard !references.isEmpty else { throw HistoryError.neverCommitted(path: path, repository: repository) }
        return references
    }

    public func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        guard let object = reference.object else {
            throw HistoryError.gitFailed(command: GitObjectReader.command, message: "\(reference.name) names no git object")
        }
        return try git.blob(object)
    }

    /// `path` relative to the repository's top level, as `git log` writes it: the work tree's
    /// prefix (raw bytes, from `git rev-parse`), then `path` with `.` and `..` resolved.
    private func pathFromTopLevel() throws -> [UInt8] {
        let result = try git.run(["rev-parse", "--is-inside-work-tree", "--show-prefix"])
        // "true", a line break, the prefix ("" or ending in "/"), a line break.
        let answer = result.output.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
        guard result.status == 0, answer.count == 2, answer[0].elementsEqual("true".utf8), answer[1].last == 0x0A else {
            throw HistoryError.notAGitRepository(path: repository)
        }
        var components: [ArraySlice<UInt8>] = []
        for component in (answer[1].dropLast() + Array(path.utf8)).split(separator: UInt8(ascii: "/")) {
            if component.elementsEqual(".".utf8) { continue }
            if component.elementsEqual("..".utf8) {
                guard components.popLast() != nil else {
                    throw HistoryError.gitFailed(command: "git log", message: "\(shownPath) is outside the repository")
                }
                continue
            }
            components.append(component)
        }
        return Array(components.joined(separator: [UInt8(ascii: "/")]))
    }

    /// Commits oldest first, each with the file's path (relative to the top level) in that commit,
    /// from `git log -z --raw --no-abbrev --format='%H %aI %s'` of the file at `followed`
    /// (relative to the top level).
    ///
    /// Each commit is a header field `HASH DATE SUBJECT`, then its changes: a field
    /// `:MODE MODE OBJECT OBJECT STATUS` and the path (two paths, old and new, for a rename or a
    /// copy). Walking newest to oldest, a change counts only if its (new) path is the followed
    /// one; a rename or a copy makes its old path the one followed in older commits. Anything
    /// else is an error: a version is never silently dropped, and another file never read.
    static func parseLog(_ output: [UInt8], following followed: [UInt8]) throws -> [SnapshotReference] {
        var fields = output.split(separator: 0, omittingEmptySubsequences: false)[...]
        if fields.last?.isEmpty == true { fields.removeLast() }
        func malformed(_ field: ArraySlice<UInt8>, _ expected: String) -> HistoryError {
            let shown = String(decoding: field.prefix(80), as: UTF8.self).debugDescription
            return .gitFailed(command: "git log", message: "unexpected output: \(expected), found \(shown)")
        }
        var references: [SnapshotReference] = []
        var expected = followed[...]
        while let header = fields.popFirst() {
            let parts = header.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
            let hash = String(decoding: parts[0], as: UTF8.self)
            guard parts.count == 3, GitObjectID.isValid(hash), !parts[1].isEmpty else {
                throw malformed(header, "a commit header")
            }
            let commit = Commit(
                hash: hash, authorDate: String(decoding: parts[1], as: UTF8.self), subject: String(decoding: parts[2], as: UTF8.self))
            var version: (status: UInt8, mode: ArraySlice<UInt8>, object: String, path: String)?
            var previousPath = expected
            var other: ArraySlice<UInt8>?
            while let field = fields.first, field.first == UInt8(ascii: ":") || field.starts(with: [0x0A, UInt8(ascii: ":")]) {
                fields.removeFirst()
                let change = field.drop(while: { $0 == 0x0A }).dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
                let object = change.count == 5 ? String(decoding: change[3], as: UTF8.self) : ""
                guard change.count == 5, GitObjectID.isValid(object), let status = change[4].first else {
                    throw malformed(field, "a change")
                }
                let pathCount = status == UInt8(ascii: "R") || status == UInt8(ascii: "C") ? 2 : 1
                var paths: [ArraySlice<UInt8>] = []
                for _ in 0..<pathCount {
                    guard let next = fields.popFirst(), !next.isEmpty else { throw malformed(field, "a path after the change") }
                    paths.append(next)
                }
                // Only a change to the followed file counts; a merge shown against each parent
                // lists several: the first is kept.
                guard version == nil, paths[paths.count - 1].elementsEqual(expected) else {
                    other = other ?? paths[paths.count - 1]
                    continue
                }
                version = (status, change[1], object, String(decoding: expected, as: UTF8.self))
                previousPath = paths[0]
            }
            if version == nil, let other {
                throw malformed(other, "a change to \(String(decoding: expected, as: UTF8.self).debugDescription)")
            }
            expected = previousPath
            guard let version, version.status != UInt8(ascii: "D") else { continue }
            // A symbolic link's blob is the path it points to, and a submodule's object is a commit
            // of another repository: neither is a version of the file.
            let kind: String? =
                version.mode.elementsEqual("120000".utf8) ? "a symbolic link" : version.mode.elementsEqual("160000".utf8) ? "a submodule" : nil
            if let kind { throw HistoryError.committedAsNonFile(path: version.path, commit: commit.shortHash, kind: kind) }
            references.append(
                SnapshotReference(
                    name: "\(commit.shortHash):\(version.path)", location: version.path, commit: commit, object: version.object))
        }
        return references.reversed()
    }
}

/// A full git object id: 40 (SHA-1) or 64 (SHA-256) lowercase hexadecimal digits.
enum GitObjectID {
    static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        return (utf8.count == 40 || utf8.count == 64)
            && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}

/// The `git` processes of one repository: one-shot commands, and one `git cat-file --batch` kept
/// running for every object read.
private final class GitProcesses: @unchecked Sendable {
    let repository: String
    private let lock = NSLock()
    private var started = 0
    private var objectReader: GitObjectReader?

    init(repository: String) {
        self.repository = repository
    }

    var processesStarted: Int { lock.withLock { started } }

    /// Runs `git -C repository --literal-pathspecs arguments`.
    func run(_ arguments: [String]) throws -> GitRun {
        lock.withLock { started += 1 }
        do {
            return try GitRun(arguments: GitRun.prefix(repository) + arguments)
        } catch {
            throw HistoryError.gitFailed(command: (["git"] + arguments).joined(separator: " "), message: "cannot run git: \(error)")
        }
    }

    /// Runs `git arguments` and returns its standard output without trailing line breaks; a failure throws.
    func output(_ arguments: [String], notARepository: Bool = false) throws -> [UInt8] {
        let result = try run(arguments)
        guard result.status == 0 else {
            let message = result.error.trimmingCharacters(in: .whitespacesAndNewlines)
            if notARepository || message.contains("not a git repository") {
                throw HistoryError.notAGitRepository(path: repository)
            }
            let command = (["git"] + arguments).joined(separator: " ")
            throw HistoryError.gitFailed(command: command, message: message.isEmpty ? "exit status \(result.status)" : message)
        }
        var output = result.output[...]
        while let last = output.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { output.removeLast() }
        return Array(output)
    }

    /// The bytes of the blob `object`, read by the one `git cat-file --batch`.
    func blob(_ object: String) throws -> [UInt8] {
        try lock.withLock {
            if objectReader == nil {
                objectReader = try GitObjectReader(repository: repository)
                started += 1
            }
            return try objectReader!.blob(object)
        }
    }
}

/// One finished `git` process: its exit status and both streams.
private struct GitRun {
    let status: Int32
    let output: [UInt8]
    let error: String

    /// `-C repository --literal-pathspecs`: paths are names, never globs or pathspec magic.
    static func prefix(_ repository: String) -> [String] {
        ["-C", repository, "--literal-pathspecs"]
    }

    init(arguments: [String]) throws {
        let process = Process.git(arguments)
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained while git runs, so a large output cannot fill one and stall it.
        let errorBytes = StreamBuffer()
        errorBytes.drain(error.fileHandleForReading)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = [UInt8](outputData)
        self.error = errorBytes.text
    }
}

/// Reads git objects by id through one `git cat-file --batch` process, one request at a time.
///
/// Each request is an object id and a line break; each response is `ID TYPE SIZE`, a line break,
/// SIZE bytes and a line break, or `ID missing`. A response is read whole before the next request
/// is written, so however big a blob is, neither side waits on the other.
final class GitObjectReader {
    static let command = "git cat-file --batch"

    private let process: Process
    private let requests: FileHandle
    private let responses: Int32
    private let errors = StreamBuffer()
    /// Bytes read from `responses` and not used yet.
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    /// Set when the process ended or a response could not be read: later reads fail at once.
    private var failure: HistoryError?

    init(repository: String) throws {
        process = Process.git(GitRun.prefix(repository) + ["cat-file", "--batch"])
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            throw HistoryError.gitFailed(command: Self.command, message: "cannot run git: \(error)")
        }
        requests = input.fileHandleForWriting
        responses = output.fileHandleForReading.fileDescriptor
        errors.drain(error.fileHandleForReading)
        #if canImport(Darwin)
        _ = fcntl(requests.fileDescriptor, F_SETNOSIGPIPE, 1)
        #endif
    }

    /// The `git cat-file` process, while it runs.
    var processIdentifier: Int32? { process.isRunning ? process.processIdentifier : nil }

    deinit {
        // End of input: git finishes and exits.
        try? requests.close()
        process.waitUntilExit()
    }

    /// The bytes of the blob `object`, a full object id.
    func blob(_ object: String) throws -> [UInt8] {
        guard GitObjectID.isValid(object) else {
            throw HistoryError.gitFailed(command: Self.command, message: "\(object.debugDescription) is not an object id")
        }
        if let failure { throw failure }
        try writeRequest(Array((object + "\n").utf8))
        let header = try readLine()
        // The header is `<object> <type> <size>`, or `<object> missing`.
        let words = header.split(separator: " ", omittingEmptySubsequences: false)
        if words.count == 2, words[0] == object, words[1] == "missing" {
            throw HistoryError.gitFailed(command: Self.command, message: "no object \(object) in the repository")
        }
        guard words.count == 3, words[0] == object, let size = Int(words[2]), size >= 0 else {
            throw fail("unexpected response \(header.debugDescription) to \(object)")
        }
        let content = try readBytes(size)
        guard try readBytes(1) == [0x0A] else { throw fail("a response to \(object) does not end in a line break") }
        guard words[1] == "blob" else {
            throw HistoryError.gitFailed(command: Self.command, message: "\(object) is a \(words[1]), not a file")
        }
        return content
    }

    /// Records that the stream can no longer be trusted, and returns the error to throw.
    private func fail(_ message: String) -> HistoryError {
        let error = HistoryError.gitFailed(command: Self.command, message: message)
        failure = error
        return error
    }

    /// The error for a process that stopped answering.
    private func ended() -> HistoryError {
        requests.closeFile()
        process.waitUntilExit()
        let reason = errors.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return fail(reason.isEmpty ? "git stopped answering (exit status \(process.terminationStatus))" : reason)
    }

    private func writeRequest(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { writeIgnoringBrokenPipe(requests.fileDescriptor, $0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ended()
            }
            written += count
        }
    }

    /// Moves more bytes into `buffer`, dropping those used; false at the end of the stream.
    private func fill() throws -> Bool {
        if bufferStart > 0 {
            buffer.removeSubrange(0..<bufferStart)
            bufferStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(responses, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// A header line, without its line break; at most 1 KiB.
    private func readLine() throws -> String {
        var searched = 0
        while true {
            if let end = buffer[(bufferStart + searched)...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[bufferStart..<end], as: UTF8.self)
                bufferStart = end + 1
                return line
            }
            searched = buffer.count - bufferStart
            guard searched < 1024 else { throw fail("a response header is longer than 1 KiB") }
            guard try fill() else { throw ended() }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            if bufferStart == buffer.count {
                guard try fill() else { throw ended() }
            }
            let take = min(count - bytes.count, buffer.count - bufferStart)
            bytes.append(contentsOf: buffer[bufferStart..<(bufferStart + take)])
            bufferStart += take
        }
        return bytes
    }
}

/// Writes to a pipe whose reader may have exited: the write fails with `EPIPE` instead of the
/// process being killed by `SIGPIPE` (on Linux, the signal is blocked on this thread for the write
/// and a pending one discarded; on Darwin the descriptor has `F_SETNOSIGPIPE`).
private func writeIgnoringBrokenPipe(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    let count = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
    let writeError = errno
    if count < 0, writeError == EPIPE, !wasPending {
        var noWait = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&pipeSignal, nil, &noWait) == -1, errno == EINTR {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    errno = writeError
    return count
    #else
    return Darwin.write(descriptor, bytes.baseAddress, bytes.count)
    #endif
}

extension Process {
    /// `git arguments`, found on the `PATH`, never prompting and never paging.
    fileprivate static func git(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_PAGER"] = "cat"
        environment["LC_ALL"] = "C"
        process.environment = environment
        return process
    }
}

/// A stream read to its end on another thread.
private final class StreamBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let group = DispatchGroup()

    func drain(_ handle: FileHandle) {
        DispatchQueue.global().async(group: group) {
            let bytes = handle.readDataToEndOfFile()
            self.lock.withLock { self.data = bytes }
        }
    }

    /// Everything read, once the stream has ended.
    var text: String {
        group.wait()
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}
