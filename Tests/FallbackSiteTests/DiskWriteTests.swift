import Foundation
import Testing
@testable import FallbackSite

/// `FileIO.disk` writes a new file with one `open`, `write` and `close` (issue 10: a build writes
/// thousands of pages into a fresh temporary folder, and Foundation's atomic write added a
/// temporary name, a rename and an `fsync` to each). The file must be what Foundation's write
/// makes: same bytes, same mode; a file already there is still replaced whole.
@Suite("Disk writes")
struct DiskWriteTests {
    /// A temporary folder for one test, removed after it.
    static func withFolder(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-disk-write-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test(arguments: [[], Array("<!doctype html>\n<p>é</p>\n".utf8), Array(repeating: UInt8(0x61), count: 3 << 20)])
    func aNewFileHasTheBytesAndModeFoundationGives(bytes: [UInt8]) throws {
        try Self.withFolder { folder in
            try FileIO.disk.writeFile(folder + "/page.html", bytes)
            #expect(FileManager.default.createFile(atPath: folder + "/foundation.html", contents: Data(bytes)))
            #expect(FileManager.default.contents(atPath: folder + "/page.html") == Data(bytes))
            let modes = (try Self.mode(folder + "/page.html"), try Self.mode(folder + "/foundation.html"))
            #expect(modes.0 == modes.1)
        }
    }

    @Test func aFileAlreadyThereIsReplacedWhole() throws {
        try Self.withFolder { folder in
            let path = folder + "/page.html"
            try FileIO.disk.writeFile(path, Array(String(repeating: "old ", count: 1000).utf8))
            try FileIO.disk.writeFile(path, Array("new".utf8))
            #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names == ["page.html"])
        }
    }

    @Test func aFileInAMissingFolderIsRefusedAndNothingIsMade() throws {
        try Self.withFolder { folder in
            let path = folder + "/missing/page.html"
            #expect(throws: SiteWriterError.cannotWrite(path)) { try FileIO.createNewFile(atPath: path, Array("x".utf8)) }
            #expect(throws: (any Error).self) { try FileIO.disk.writeFile(path, Array("x".utf8)) }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names.isEmpty)
        }
    }

    @Test func aFolderAtThePathIsNeverReplaced() throws {
        try Self.withFolder { folder in
            let path = folder + "/page.html"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let created = try FileIO.createNewFile(atPath: path, Array("x".utf8))
            #expect(!created)
            #expect(throws: (any Error).self) { try FileIO.disk.writeFile(path, Array("x".utf8)) }
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
        }
    }
}
