import FallbackCLI
import FallbackSite
import Foundation

/// Files and folders in memory, for running whole commands on fuzz input without a disk: every
/// path a command writes is recorded, so a target can check where writes went.
public final class MemoryFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: [UInt8]] = [:]
    private var folders: Set<String> = []
    /// Every path written or created, in order, normalised.
    public private(set) var written: [String] = []

    public init(_ files: [String: [UInt8]] = [:]) {
        self.files = files
    }

    public var paths: [String] { lock.withLock { files.keys.sorted() } }
    public var contents: [String: [UInt8]] { lock.withLock { files } }

    public func reset(_ files: [String: [UInt8]]) {
        lock.withLock {
            self.files = files
            folders = []
            written = []
        }
    }

    /// `path` with `.` and `..` resolved lexically, as the kernel would for folders that exist.
    public static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    static func missing(_ path: String) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(ENOENT), userInfo: [NSFilePathErrorKey: path])
    }

    public func read(_ path: String) throws -> [UInt8] {
        try lock.withLock {
            guard let bytes = files[MemoryFiles.normalised(path)] else { throw MemoryFiles.missing(path) }
            return bytes
        }
    }

    private func isFolder(_ path: String) -> Bool {
        folders.contains(path) || files.keys.contains { $0.hasPrefix(path + "/") }
    }

    /// The site writer's file operations.
    public var io: FileIO {
        FileIO(
            createDirectory: { [self] path in
                lock.withLock {
                    let path = MemoryFiles.normalised(path)
                    written.append(path)
                    folders.insert(path)
                }
            },
            writeFile: { [self] path, bytes in
                lock.withLock {
                    let path = MemoryFiles.normalised(path)
                    written.append(path)
                    files[path] = bytes
                }
            },
            listDirectory: { [self] path in
                lock.withLock {
                    let path = MemoryFiles.normalised(path)
                    guard isFolder(path) else { return nil }
                    let prefix = path == "/" ? "/" : path + "/"
                    let names = (Array(files.keys) + Array(folders)).filter { $0.hasPrefix(prefix) }
                        .map { String($0.dropFirst(prefix.count).prefix { $0 != "/" }) }
                    return Array(Set(names)).sorted()
                }
            },
            fileExists: { [self] path in
                lock.withLock {
                    let path = MemoryFiles.normalised(path)
                    return files[path] != nil || isFolder(path)
                }
            },
            move: { [self] from, to in
                try lock.withLock {
                    let (from, to) = (MemoryFiles.normalised(from), MemoryFiles.normalised(to))
                    guard files[from] != nil || isFolder(from) else { throw MemoryFiles.missing(from) }
                    written.append(to)
                    if let bytes = files.removeValue(forKey: from) { files[to] = bytes }
                    for key in files.keys where key.hasPrefix(from + "/") {
                        files[to + key.dropFirst(from.count)] = files.removeValue(forKey: key)
                    }
                    for folder in folders where folder == from || folder.hasPrefix(from + "/") {
                        folders.remove(folder)
                        folders.insert(to + folder.dropFirst(from.count))
                    }
                }
            },
            remove: { [self] path in
                lock.withLock {
                    let path = MemoryFiles.normalised(path)
                    files[path] = nil
                    for key in files.keys where key.hasPrefix(path + "/") { files[key] = nil }
                    folders = folders.filter { $0 != path && !$0.hasPrefix(path + "/") }
                }
            })
    }

    /// A command environment on these files: no terminal, output discarded, a fixed clock and
    /// `SOURCE_DATE_EPOCH`, and any read outside these files failing as a missing file.
    public func environment(variables: [String: String] = ["SOURCE_DATE_EPOCH": "1780000000"]) -> CommandEnvironment {
        CommandEnvironment(
            writeOutput: { _ in }, writeError: { _ in },
            readFile: { [self] path in try read(path) },
            writeFile: { [self] path, bytes in try io.writeFile(path, bytes) },
            now: { Date(timeIntervalSince1970: 1_780_000_000) }, variables: variables, fileIO: io, isErrorTerminal: false)
    }
}
