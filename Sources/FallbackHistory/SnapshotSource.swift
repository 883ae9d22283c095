import FallbackAudit
import Foundation
import RovenueFallback

/// Where a series of snapshots comes from: files, a folder of exports, or a file's git history.
///
/// A source lists its snapshots cheaply and reads one at a time on demand, so a series of
/// hundreds never sits in memory at once.
public protocol SnapshotSource: Sendable {
    /// The snapshots in source order: the order given, file-name order, or commit order (oldest first).
    func references() throws -> [SnapshotReference]
    /// The bytes of one snapshot listed by `references()`.
    func bytes(of reference: SnapshotReference) throws -> [UInt8]
}

/// One snapshot of a source, not yet read.
public struct SnapshotReference: Sendable, Hashable {
    /// How reports name the snapshot: the file name, or `abc1234:path` for a commit.
    public let name: String
    /// Where the source reads it: a file path, or the path inside the repository at the commit.
    public let location: String
    /// The commit the snapshot was read from, for a git history.
    public let commit: Commit?
    /// The id of the git object that holds the snapshot's bytes, for a git history.
    public let object: String?

    public init(name: String, location: String, commit: Commit? = nil, object: String? = nil) {
        self.name = name
        self.location = location
        self.commit = commit
        self.object = object
    }
}

/// A commit that changed a snapshot file.
public struct Commit: Sendable, Hashable {
    /// The full hash.
    public let hash: String
    /// The author date in strict ISO 8601 (`git log --format=%aI`).
    public let authorDate: String
    /// The first line of the commit message.
    public let subject: String

    public init(hash: String, authorDate: String, subject: String) {
        self.hash = hash
        self.authorDate = authorDate
        self.subject = subject
    }

    /// The first seven digits of the hash.
    public var shortHash: String { String(hash.prefix(7)) }
}

/// Why a series could not be read.
public enum HistoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file or folder that cannot be read.
    case unreadable(path: String, reason: String)
    /// A folder with no `*.json` file in it.
    case noSnapshots(folder: String)
    /// A path that is not inside a git work tree.
    case notAGitRepository(path: String)
    /// A file git has no commit for.
    case neverCommitted(path: String, repository: String)
    /// A folder given where a file's git history was asked for.
    case folderNotFile(path: String)
    /// `git` failed or could not be started.
    case gitFailed(command: String, message: String)
    /// In commit `commit` (its short hash), `path` is a symbolic link or a submodule (`kind`), not a file.
    case committedAsNonFile(path: String, commit: String, kind: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .noSnapshots(let folder): "\(folder) holds no *.json file"
        case .notAGitRepository(let path): "\(path) is not in a git repository"
        case .neverCommitted(let path, let repository): "\(path) was never committed in the git repository at \(repository)"
        case .folderNotFile(let path): "--git-history takes a file; \(path) is a folder"
        case .gitFailed(let command, let message): "`\(command)` failed: \(message)"
        case .committedAsNonFile(let path, let commit, let kind):
            "--git-history reads a committed file, and in commit \(commit) \(path) is \(kind)"
        }
    }
}

/// Snapshot files in the order given.
public struct SnapshotFiles: SnapshotSource {
    public let paths: [String]

    public init(paths: [String]) {
        self.paths = paths
    }

    public func references() throws -> [SnapshotReference] {
        paths.map { SnapshotReference(name: ($0 as NSString).lastPathComponent, location: $0) }
    }

    public func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        try readSnapshotFile(reference.location)
    }
}

/// Every `*.json` file directly in a folder (not in subfolders), in ascending byte order of their names.
public struct SnapshotFolder: SnapshotSource {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func references() throws -> [SnapshotReference] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw HistoryError.unreadable(path: path, reason: "not a readable folder")
        }
        let snapshots = names.filter { name in
            // As the shell's `*.json` reads a folder: hidden names are left out (an editor's lock
            // file, `.#a.json`, is a symbolic link to nothing while the snapshot is open).
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return false }
            var isDirectory: ObjCBool = false
            let full = (path as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) { return !isDirectory.boolValue }
            // A symbolic link to nothing is listed, and reading it fails with its name: left out,
            // the series silently lost a release and another became the current snapshot.
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) != nil
        }
        guard !snapshots.isEmpty else { throw HistoryError.noSnapshots(folder: path) }
        return snapshots.sorted { ExactKey.precedes($0, $1) }.map {
            SnapshotReference(name: $0, location: (path as NSString).appendingPathComponent($0))
        }
    }

    public func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        try readSnapshotFile(reference.location)
    }
}

/// A snapshot file's bytes; only a regular file is read (`RegularFile`).
private func readSnapshotFile(_ path: String) throws(HistoryError) -> [UInt8] {
    do {
        return try RegularFile.read(path)
    } catch {
        throw .unreadable(path: error.path, reason: error.reason.description)
    }
}
