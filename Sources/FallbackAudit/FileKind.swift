import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names on disk, worded the same in every message: a regular file, a folder, a
/// symbolic link, a FIFO, a socket, a device; or a path the system cannot examine, with its reason.
public enum FileKind: Sendable, Hashable, CustomStringConvertible {
    case regularFile, directory, symbolicLink, fifo, socket, characterDevice, blockDevice
    /// A file type this tool does not know.
    case other
    /// `lstat` failed for a reason other than "nothing there" (a name too long, a folder on the way
    /// that cannot be searched, too many links): the system's words for it.
    case unexaminable(reason: String)

    /// The kind of a file of mode `mode` (`st_mode`).
    public init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .other
        }
    }

    /// What is at `path`, not following a final symbolic link (`lstat`); nil when nothing is there
    /// (`ENOENT`, or `ENOTDIR`: a path below a file).
    public static func at(_ path: String) -> FileKind? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? nil : .unexaminable(reason: String(cString: strerror(code)))
        }
        return FileKind(mode: status.st_mode)
    }

    /// `a FIFO`, `a folder`, …
    public var description: String {
        switch self {
        case .regularFile: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .other: "a file of an unknown kind"
        case .unexaminable(let reason): "a path that cannot be examined (\(reason))"
        }
    }
}
