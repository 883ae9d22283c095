import FallbackAudit
import Foundation
import Testing

/// `RegularFile.read` asks for huge pages for a large file's buffer (issue 10: a quarter of a
/// 100,000-placement `check`'s page faults were the read). The hint never changes what is read:
/// files around and across the 2 MiB page size read back byte for byte.
@Suite("large files read whole")
struct LargeFileReadTests {
    @Test(
        "a file read into a huge-page buffer reads back byte for byte",
        arguments: [4 << 20 - 1, 4 << 20, 4 << 20 + 1, 9 << 20 + 12345])
    func readsEveryByte(size: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Bytes that differ from page to page and from run to run of a page: a page read twice,
        // skipped or zeroed would show.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { index in UInt8(truncatingIfNeeded: index &* 31 &+ index >> 12) ^ UInt8.random(in: 0...255, using: &generator) }
        let path = folder.appendingPathComponent("s.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let read = try RegularFile.read(path)
        #expect(read.count == size)
        #expect(read == bytes)
    }
}
