import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files: every command reads a snapshot, a baseline, a configuration or a template
/// through `RegularFile.read(_:)`.
///
/// Only a regular file (or a link to one) is read. Anything else is refused before it is opened:
/// opening a FIFO waits for a writer, a device may never end, and a folder is not a file.
public enum RegularFile {
    /// The whole file at `path`.
    public static func read(_ path: String) throws(FileReadError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileReadError(path: path, errno: errno) }
        if let kind = FileReadError.Kind(mode: status.st_mode) {
            throw FileReadError(path: path, reason: .notRegularFile(kind))
        }
        // The path may have been replaced since: `O_NONBLOCK` keeps a FIFO put there from blocking
        // the open, and the descriptor is checked again.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(path: path, errno: errno) }
        if let kind = FileReadError.Kind(mode: status.st_mode) {
            throw FileReadError(path: path, reason: .notRegularFile(kind))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, Int(status.st_size)) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, errno: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}

/// `read(2)`, named apart from the methods called `read`.
#if canImport(Glibc)
let systemRead = Glibc.read
#else
let systemRead = Darwin.read
#endif

/// A file that could not be read, and why, worded for a user.
public struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What a path that is not a regular file is instead.
    public enum Kind: String, Sendable, Hashable {
        case directory = "a directory"
        case fifo = "a FIFO"
        case socket = "a socket"
        case characterDevice = "a character device"
        case blockDevice = "a block device"
        case other = "not a file"

        /// The kind of a file of mode `mode`; nil for a regular file.
        init?(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: return nil
            case S_IFDIR: self = .directory
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            default: self = .other
            }
        }
    }

    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        case noSuchFile
        case permissionDenied
        case notRegularFile(Kind)
        /// Any other failure, as the system words it.
        case system(String)

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .permissionDenied: "permission denied"
            case .notRegularFile(let kind): "not a regular file (\(kind.rawValue))"
            case .system(let message): message
            }
        }
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self.init(path: path, reason: .noSuchFile)
        case EACCES, EPERM: self.init(path: path, reason: .permissionDenied)
        default: self.init(path: path, reason: .system(String(cString: strerror(code))))
        }
    }

    /// `cannot read PATH: REASON`.
    public var description: String { "cannot read \(path): \(reason)" }
}
