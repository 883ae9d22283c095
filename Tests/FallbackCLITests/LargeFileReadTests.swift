import FallbackAudit
import Foundation
import Testing

/// `RegularFile.read` reads a large file straight into an array sized by `fstat`: files around and
/// across the 2 MiB and 4 MiB sizes read back byte for byte.
@Suite("large files read whole")
struct LargeFileReadTests {
    @Test(
        "a large file reads back byte for byte",
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
