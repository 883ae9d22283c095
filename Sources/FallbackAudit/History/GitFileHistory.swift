import Dispatch
import Foundation

/// Every committed version of one file in a git repository, oldest first, read with the `git`
/// command line (`git log --follow` and `git show COMMIT:PATH`).
///
/// Renames are followed: each version is read under the name it had in its commit. A commit that
/// deletes the file has no version and is left out.
public struct GitFileHistory: SnapshotSource {
    /// A folder inside the repository's work tree; `git` runs there.
    public let repository: String
    /// The file, relative to `repository`.
    public let path: String

    public init(repository: String, path: String) {
        self.repository = repository
        self.path = path
    }

    /// The history of the file at `filePath`, read in the folder that holds it.
    public init(file filePath: String) {
        let url = URL(fileURLWithPath: filePath)
        self.init(repository: url.deletingLastPathComponent().path, path: url.lastPathComponent)
    }

    public func references() throws -> [SnapshotReference] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: repository, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HistoryError.notAGitRepository(path: repository)
        }
        let topLevel = try git(["rev-parse", "--show-toplevel"], notARepository: true)
        guard !topLevel.isEmpty else { throw HistoryError.notAGitRepository(path: repository) }
        guard try run(["rev-parse", "--verify", "--quiet", "HEAD"]).status == 0 else {
            throw HistoryError.neverCommitted(path: path, repository: repository)
        }
        let log = try git([
            "-c", "core.quotePath=false", "log", "--follow", "--no-color", "--name-status", "--format=%x1e%H%x1f%aI%x1f%s",
            "--", path,
        ])
        let references = Self.parseLog(String(decoding: log, as: UTF8.self))
        guard !references.isEmpty else { throw HistoryError.neverCommitted(path: path, repository: repository) }
        return references
    }

    public func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        guard let commit = reference.commit else {
            throw HistoryError.gitFailed(command: "git show", message: "\(reference.name) names no commit")
        }
        return try git(["show", "--no-color", "--no-textconv", "\(commit.hash):\(reference.location)"], trimming: false)
    }

    /// Commits oldest first, each with the file's path (relative to the top level) in that commit.
    static func parseLog(_ text: String) -> [SnapshotReference] {
        var references: [SnapshotReference] = []
        for record in text.split(separator: "\u{1E}", omittingEmptySubsequences: true) {
            let lines = record.split(separator: "\n", omittingEmptySubsequences: true)
            guard let header = lines.first else { continue }
            let fields = header.split(separator: "\u{1F}", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            // `M\tpath`, `A\tpath`, `R100\told\tnew`: the last field is the path in this commit.
            guard let change = lines.dropFirst().first(where: { $0.contains("\t") }),
                let status = change.first, status != "D",
                let filePath = change.split(separator: "\t", omittingEmptySubsequences: false).last
            else { continue }
            let commit = Commit(hash: String(fields[0]), authorDate: String(fields[1]), subject: String(fields[2]))
            references.append(
                SnapshotReference(name: "\(commit.shortHash):\(filePath)", location: String(filePath), commit: commit))
        }
        return references.reversed()
    }

    /// Runs `git -C repository arguments`.
    private func run(_ arguments: [String]) throws -> GitRun {
        do {
            return try GitRun(arguments: ["-C", repository] + arguments)
        } catch {
            throw HistoryError.gitFailed(command: (["git"] + arguments).joined(separator: " "), message: "cannot run git: \(error)")
        }
    }

    /// Runs `git -C repository arguments` and returns its standard output; a failure throws.
    private func git(_ arguments: [String], notARepository: Bool = false, trimming: Bool = true) throws -> [UInt8] {
        let command = (["git"] + arguments).joined(separator: " ")
        let result = try run(arguments)
        guard result.status == 0 else {
            let message = result.error.trimmingCharacters(in: .whitespacesAndNewlines)
            if notARepository || message.contains("not a git repository") {
                throw HistoryError.notAGitRepository(path: repository)
            }
            throw HistoryError.gitFailed(command: command, message: message.isEmpty ? "exit status \(result.status)" : message)
        }
        guard trimming else { return result.output }
        var output = result.output[...]
        while let last = output.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { output.removeLast() }
        return Array(output)
    }
}

/// One finished `git` process: its exit status and both streams.
private struct GitRun {
    let status: Int32
    let output: [UInt8]
    let error: String

    init(arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_PAGER"] = "cat"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained while git runs, so a large blob cannot fill one and stall it.
        let errorBytes = ErrorBuffer()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errorBytes.data = error.fileHandleForReading.readDataToEndOfFile()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = [UInt8](outputData)
        self.error = String(decoding: errorBytes.data, as: UTF8.self)
    }
}

private final class ErrorBuffer: @unchecked Sendable {
    var data = Data()
}
