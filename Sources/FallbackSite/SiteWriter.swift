import Foundation

/// The file operations the site writer needs, as closures so generation runs in tests without a disk.
public struct FileIO: Sendable {
    public var createDirectory: @Sendable (_ path: String) throws -> Void
    public var writeFile: @Sendable (_ path: String, _ bytes: [UInt8]) throws -> Void
    /// The names in a directory, nil when there is no directory at `path`.
    public var listDirectory: @Sendable (_ path: String) -> [String]?
    public var fileExists: @Sendable (_ path: String) -> Bool
    public var move: @Sendable (_ from: String, _ to: String) throws -> Void
    public var remove: @Sendable (_ path: String) throws -> Void

    public init(
        createDirectory: @escaping @Sendable (String) throws -> Void, writeFile: @escaping @Sendable (String, [UInt8]) throws -> Void,
        listDirectory: @escaping @Sendable (String) -> [String]?, fileExists: @escaping @Sendable (String) -> Bool,
        move: @escaping @Sendable (String, String) throws -> Void, remove: @escaping @Sendable (String) throws -> Void
    ) {
        self.createDirectory = createDirectory
        self.writeFile = writeFile
        self.listDirectory = listDirectory
        self.fileExists = fileExists
        self.move = move
        self.remove = remove
    }

    /// The real file system.
    public static let disk = FileIO(
        createDirectory: { try FileManager.default.createDirectory(atPath: $0, withIntermediateDirectories: true) },
        writeFile: { path, bytes in
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw SiteWriterError.cannotWrite(path)
            }
        },
        listDirectory: { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            return try? FileManager.default.contentsOfDirectory(atPath: path)
        },
        fileExists: { FileManager.default.fileExists(atPath: $0) },
        move: { try FileManager.default.moveItem(atPath: $0, toPath: $1) },
        remove: { try FileManager.default.removeItem(atPath: $0) })
}

public enum SiteWriterError: Error, Equatable, CustomStringConvertible {
    /// The output folder holds files that no build of this tool wrote.
    case notAPreviousOutput(String)
    /// A page's relative path would leave the output folder or is not a plain relative path.
    case unsafePath(String)
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .notAPreviousOutput(let path):
            "\(path) is not empty and was not written by fallback-site (no \(SiteWriter.markerName) in it); "
                + "choose another --out or pass --force to replace it"
        case .unsafePath(let path): "refusing to write \(path): it is not a plain path inside the output folder"
        case .cannotWrite(let path): "cannot write \(path)"
        }
    }
}

/// Writes a whole site at once: into a temporary folder beside the output, then swapped in, so a
/// failed or interrupted build leaves the previous site as it was.
public struct SiteWriter: Sendable {
    /// The marker that identifies a folder as this tool's output.
    public static let markerName = ".fallback-site"

    public let outputPath: String
    public let io: FileIO
    /// Replace a non-empty folder that is not a previous output.
    public var force = false

    public init(outputPath: String, io: FileIO = .disk, force: Bool = false) {
        var path = outputPath
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.outputPath = path
        self.io = io
        self.force = force
    }

    /// True when `relativePath` stays inside the output folder: relative, no `..` or `.` component,
    /// no empty component, no backslash or NUL.
    public static func isSafe(_ relativePath: String) -> Bool {
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"), !relativePath.contains("\\"), !relativePath.contains("\0")
        else { return false }
        return relativePath.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { component in
            !component.isEmpty && component != "." && component != ".."
        }
    }

    /// Writes `files` (relative path → bytes) as the new content of the output folder.
    public func write(_ files: [String: [UInt8]]) throws {
        for path in files.keys where !SiteWriter.isSafe(path) {
            throw SiteWriterError.unsafePath(path)
        }
        if let existing = io.listDirectory(outputPath), !existing.isEmpty, !existing.contains(SiteWriter.markerName), !force {
            throw SiteWriterError.notAPreviousOutput(outputPath)
        }
        let parent = (outputPath as NSString).deletingLastPathComponent
        let base = (outputPath as NSString).lastPathComponent
        let staging = (parent.isEmpty ? "" : parent + "/") + ".\(base).building-\(ProcessInfo.processInfo.processIdentifier)"
        let retired = (parent.isEmpty ? "" : parent + "/") + ".\(base).previous-\(ProcessInfo.processInfo.processIdentifier)"
        removeStale(in: parent.isEmpty ? "." : parent, prefix: ".\(base).")

        try io.createDirectory(staging)
        do {
            var directories: Set<String> = [staging]
            for path in files.keys.sorted() {
                let target = staging + "/" + path
                let directory = (target as NSString).deletingLastPathComponent
                if directories.insert(directory).inserted { try io.createDirectory(directory) }
                try io.writeFile(target, files[path]!)
            }
            try io.writeFile(staging + "/" + SiteWriter.markerName, Array("This folder is written by fallback-site; a build replaces it whole.\n".utf8))
            if io.fileExists(outputPath) {
                try io.move(outputPath, retired)
                do {
                    try io.move(staging, outputPath)
                } catch {
                    try? io.move(retired, outputPath)
                    throw error
                }
                try? io.remove(retired)
            } else {
                try io.move(staging, outputPath)
            }
        } catch {
            try? io.remove(staging)
            throw error
        }
    }

    /// Cleans up after an interrupted build of the same output: a site retired but never replaced
    /// is put back, and half-written folders are removed.
    private func removeStale(in parent: String, prefix: String) {
        let leftovers = (io.listDirectory(parent) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
        if !io.fileExists(outputPath), let retired = leftovers.first(where: { $0.dropFirst(prefix.count).hasPrefix("previous-") }) {
            try? io.move(parent + "/" + retired, outputPath)
        }
        for name in leftovers {
            let suffix = name.dropFirst(prefix.count)
            if suffix.hasPrefix("building-") || suffix.hasPrefix("previous-") {
                try? io.remove(parent + "/" + name)
            }
        }
    }
}
