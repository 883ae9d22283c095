import FallbackAudit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `RegularFile.read` reads a large file straight into an array sized by `fstat`, from
/// `RegularFile.parallelReadThreshold` up in pieces on several cores: files around and across the
/// 2 MiB and 4 MiB sizes and the threshold read back byte for byte, and a file that shrinks or grows
/// after `fstat` reads as reading it in order does.
@Suite("large files read whole")
struct LargeFileReadTests {
    @Test(
        "a large file reads back byte for byte",
        arguments: [
            0, 4 << 20 - 1, 4 << 20, 4 << 20 + 1, 9 << 20 + 12345, RegularFile.parallelReadThreshold - 1, RegularFile.parallelReadThreshold,
            RegularFile.parallelReadThreshold + 1,
        ])
    func readsEveryByte(size: Int) throws {
        try withFile(size: size) { path, bytes in
            let read = try RegularFile.read(path)
            #expect(read.count == size)
            #expect(read == bytes)
        }
    }

    /// Pieces of every length around a piece's end, a size no multiple of the piece count, and
    /// fewer bytes than pieces.
    @Test("a file read in pieces reads back byte for byte", arguments: [1, 2, 3, 5, 4095, 4096, 4097, 65536 * 3 + 7])
    func readsEveryByteInPieces(size: Int) throws {
        try withFile(size: size) { path, bytes in
            for pieces in [2, 3, 4, 7] {
                let read = try contents(of: path, claimedSize: size, pieces: pieces)
                #expect(read == bytes, "\(pieces) pieces")
            }
        }
    }

    /// `fstat` said more or fewer bytes than the file has when read: it shrank (a piece comes back
    /// short) or grew meanwhile. Every byte there is, once, in order, all the same.
    @Test("a file that shrinks or grows after fstat reads as a sequential read does", arguments: [-70_000, -4097, -1, 1, 4097, 70_000])
    func readsWhatIsThere(change: Int) throws {
        let size = 200_003
        try withFile(size: size) { path, bytes in
            for pieces in [2, 3] {
                let read = try contents(of: path, claimedSize: size + change, pieces: pieces)
                #expect(read == bytes, "\(pieces) pieces, claimed \(size + change) of \(size)")
            }
        }
    }

    /// `RegularFile.contents` of the file at `path` in `pieces` pieces whatever its size, as if
    /// `fstat` had said `claimedSize`.
    private func contents(of path: String, claimedSize: Int, pieces: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return try RegularFile.contents(of: descriptor, path: path, size: claimedSize, piecesFrom: 0, pieces: pieces)
    }

    /// `body` given the path of a new file of `size` bytes in a folder of its own, and its bytes.
    private func withFile(size: Int, _ body: (String, [UInt8]) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Bytes that differ from page to page and from run to run of a page: a page read twice,
        // skipped or zeroed would show.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { index in UInt8(truncatingIfNeeded: index &* 31 &+ index >> 12) ^ UInt8.random(in: 0...255, using: &generator) }
        let path = folder.appendingPathComponent("s.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(path, bytes)
    }
}
