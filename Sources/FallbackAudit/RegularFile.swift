import Foundation
import RovenueFallback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads input files and writes the files a user names: every command reads a snapshot, a
/// baseline, a configuration, a template, a partial or an asset through `RegularFile.read(_:)`, and
/// writes a file the user names (`sample --out`, `$GITHUB_STEP_SUMMARY`) through
/// `RegularFile.write(_:to:)` or `RegularFile.append(_:to:)`.
///
/// Only a regular file (or, to read or append, a link to one) is read or written. Anything else is
/// refused before it is opened: opening a FIFO waits for the other end, a device may never end or
/// is the system's, and a folder is not a file.
public enum RegularFile {
    /// The whole file at `path`.
    public static func read(_ path: String) throws(FileReadError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileReadError(path: path, errno: errno) }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regularFile else { throw FileReadError(path: path, reason: .notRegularFile(kind)) }
        // The path may have been replaced since: `O_NONBLOCK` keeps a FIFO put there from blocking
        // the open, and the descriptor is checked again.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(path: path, errno: errno) }
        let openedKind = FileKind(mode: status.st_mode)
        guard openedKind == .regularFile else { throw FileReadError(path: path, reason: .notRegularFile(openedKind)) }
        return try contents(of: descriptor, path: path, size: max(0, Int(status.st_size)))
    }

    /// Files from this size up are read in pieces on several cores (`contents(of:path:size:piecesFrom:pieces:)`):
    /// below it, starting the threads costs about what the pieces save.
    package static let parallelReadThreshold = 8 << 20

    /// The whole of the regular file open at `descriptor`, positioned at its start, whose `fstat`
    /// gave `size`: read straight into the array (one byte more, to see the end without a second
    /// call); a file that grows meanwhile goes on in chunks.
    ///
    /// From `threshold` bytes up, the first `size` bytes are read first in `pieces` pieces at
    /// once (`pread`, which leaves the file position alone; copying into the array and faulting in
    /// its pages is most of a large read, and it spreads over the cores). A piece that comes back
    /// short (the file shrank meanwhile) or fails starts the read again from the start, one piece
    /// at a time: the result is always what reading in order gives.
    package static func contents(
        of descriptor: Int32, path: String, size: Int, piecesFrom threshold: Int = parallelReadThreshold,
        pieces: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(FileReadError) -> [UInt8] {
        var failure: Int32?
        var ended = false
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            count = 0
            if size >= threshold, pieces > 1, let base = buffer.baseAddress,
                readPieces(descriptor, into: base, size: size, pieces: pieces)
            {
                // On from the end of the pieces; where the position cannot be set, again from the start.
                if lseek(descriptor, off_t(size), SEEK_SET) == off_t(size) {
                    count = size
                } else if lseek(descriptor, 0, SEEK_SET) != 0 {
                    failure = errno
                    return
                }
            }
            while count < buffer.count, let base = buffer.baseAddress {
                let read = systemRead(descriptor, base + count, buffer.count - count)
                if read < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if read == 0 {
                    ended = true
                    return
                }
                count += read
            }
        }
        if let failure { throw FileReadError(path: path, errno: failure) }
        if ended { return bytes }
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

    /// Reads bytes `0..<size` of `descriptor` to `base` in `pieces` pieces at once; false when a
    /// piece came back short or failed (what was read is then to be read again).
    private static func readPieces(_ descriptor: Int32, into base: UnsafeMutablePointer<UInt8>, size: Int, pieces: Int) -> Bool {
        let destination = PieceDestination(base: base)
        return ParallelChunks(count: size, chunks: pieces).map { range in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let read = pread(descriptor, destination.base + offset, range.upperBound - offset, off_t(offset))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { return false }
                offset += read
            }
            return true
        }.allSatisfy { $0 }
    }

    /// The array `readPieces` fills; each piece writes only its own range of it.
    private struct PieceDestination: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
    }
}

extension RegularFile {
    /// Writes `bytes` as the whole file at `path`: into a temporary file beside it, then renamed
    /// over it, so a reader sees the old file or the new one, never half of one.
    ///
    /// What is at `path` is examined first without following a link: nothing, or a regular file
    /// (whose permissions the new file keeps), is written; a symbolic link, a folder, a FIFO, a
    /// device or a socket is refused and left as it is.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        var status = stat()
        var permissions: mode_t?
        if lstat(path, &status) == 0 {
            let kind = FileKind(mode: status.st_mode)
            guard kind == .regularFile else { throw FileWriteError(path: path, reason: .notRegularFile(kind)) }
            permissions = status.st_mode & 0o777
        } else if errno != ENOENT {
            throw FileWriteError(path: path, errno: errno)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[...$0] } ?? ""
        let temporary = "\(folder).fallback-site-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileWriteError(path: path, errno: errno) }
        var failure: Int32?
        if let permissions, fchmod(descriptor, permissions) != 0 { failure = errno }
        if failure == nil { failure = writeAll(bytes, to: descriptor) }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw FileWriteError(path: path, errno: failure)
        }
    }

    /// Appends `bytes` to the regular file at `path` (or the one a link there points to), creating
    /// it when nothing is there. A folder, a FIFO, a device or a socket is refused before it is
    /// opened, so nothing waits for a reader.
    public static func append(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        var status = stat()
        let exists = lstat(path, &status) == 0
        if !exists, errno != ENOENT { throw FileWriteError(path: path, errno: errno) }
        if exists {
            guard stat(path, &status) == 0 else { throw FileWriteError(path: path, errno: errno) }
            let kind = FileKind(mode: status.st_mode)
            guard kind == .regularFile else { throw FileWriteError(path: path, reason: .notRegularFile(kind)) }
        }
        // Created only where nothing is (`O_EXCL` never follows a link); `O_NONBLOCK` keeps a FIFO
        // put there since from blocking the open, and the descriptor is checked again.
        let creation = exists ? 0 : O_CREAT | O_EXCL
        let descriptor = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | creation, 0o666)
        guard descriptor >= 0 else { throw FileWriteError(path: path, errno: errno) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw FileWriteError(path: path, errno: errno) }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regularFile else { throw FileWriteError(path: path, reason: .notRegularFile(kind)) }
        if let failure = writeAll(bytes, to: descriptor) { throw FileWriteError(path: path, errno: failure) }
    }

    /// Writes every byte to `descriptor`; the `errno` of a failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return nil
    }
}

/// `read(2)` and `write(2)`, named apart from the methods called `read` and `write`.
#if canImport(Glibc)
package let systemRead = Glibc.read
let systemWrite = Glibc.write
#else
package let systemRead = Darwin.read
let systemWrite = Darwin.write
#endif

/// A file that could not be read, and why, worded for a user.
public struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        case noSuchFile
        case permissionDenied
        /// The path is something else; a writer, which never follows a final link, also says
        /// `.symbolicLink` here.
        case notRegularFile(FileKind)
        /// Any other failure, as the system words it.
        case system(String)

        public var description: String {
            switch self {
            case .noSuchFile: "no such file"
            case .permissionDenied: "permission denied"
            case .notRegularFile(let kind): "it is \(kind), not a regular file"
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

/// A file that could not be written, and why, worded for a user.
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let reason: FileReadError.Reason

    public init(path: String, reason: FileReadError.Reason) {
        self.path = path
        self.reason = reason
    }

    /// A failed system call's `errno`, in the system's words (`File name too long`, `Not a directory`, …).
    init(path: String, errno code: Int32) {
        switch code {
        case EACCES, EPERM: self.init(path: path, reason: .permissionDenied)
        default: self.init(path: path, reason: .system(String(cString: strerror(code))))
        }
    }

    /// `cannot write PATH: REASON`.
    public var description: String { "cannot write \(path): \(reason)" }
}
