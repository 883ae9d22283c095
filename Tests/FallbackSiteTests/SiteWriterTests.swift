import Foundation
import Testing
@testable import FallbackSite

/// Every folder these tests make lives here; the folder is removed when the test process exits.
let siteWriterTestRoot: String = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-site-writer-tests-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: siteWriterTestRoot) }
    return path
}()

@Suite("Writing the site atomically")
struct SiteWriterTests {
    /// A fresh folder inside the process's `siteWriterTestRoot`, which is removed at exit.
    func temporaryFolder() throws -> String {
        let path = siteWriterTestRoot + "/site-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesFilesAndTheMarker() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(["index.html": Array("home".utf8), "funnels/a.html": Array("a".utf8)])
        #expect(read(out + "/index.html") == "home")
        #expect(read(out + "/funnels/a.html") == "a")
        #expect(FileManager.default.fileExists(atPath: out + "/" + SiteWriter.markerName))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    @Test func replacesAPreviousOutputWhole() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(["old.html": Array("old".utf8)])
        try SiteWriter(outputPath: out).write(["new.html": Array("new".utf8)])
        #expect(read(out + "/new.html") == "new")
        #expect(read(out + "/old.html") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    @Test func refusesAFolderItDidNotWrite() throws {
        let root = try temporaryFolder()
        let out = root + "/mine"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: out + "/thesis.tex", contents: Data("precious".utf8)))
        #expect(throws: SiteWriterError.notAPreviousOutput(out)) {
            try SiteWriter(outputPath: out).write(["index.html": []])
        }
        #expect(read(out + "/thesis.tex") == "precious")
        try SiteWriter(outputPath: out, force: true).write(["index.html": []])
        #expect(read(out + "/thesis.tex") == nil)
    }

    /// The last five go up or start at the root as the file system reads them, though their `/`
    /// is part of a larger `Character` (before a combining mark, after a prepended character).
    @Test(arguments: [
        "../escape.html", "/etc/passwd", "a/../../b", "./a", "a//b", "a\\b", "", "../\u{338}escape.html", "/\u{338}etc/passwd",
        "a/..\u{600}/../../escape.html", "a\u{600}/../../escape.html", "a\\\u{301}b", "a\0\u{301}b",
    ])
    func refusesPathsThatLeaveTheOutput(path: String) throws {
        let root = try temporaryFolder()
        #expect(throws: SiteWriterError.unsafePath(path)) {
            try SiteWriter(outputPath: root + "/site").write([path: []])
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/site"))
        #expect(!FileManager.default.fileExists(atPath: root + "/escape.html"))
    }

    @Test func aFailedWriteLeavesThePreviousSite() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(["index.html": Array("v1".utf8)])
        var io = FileIO.disk
        io.writeFile = { path, bytes in
            if path.hasSuffix("boom.html") { throw SiteWriterError.cannotWrite(path) }
            try FileIO.disk.writeFile(path, bytes)
        }
        #expect(throws: SiteWriterError.self) {
            try SiteWriter(outputPath: out, io: io).write(["index.html": Array("v2".utf8), "boom.html": []])
        }
        #expect(read(out + "/index.html") == "v1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    @Test func anInterruptedSwapIsRepairedByTheNextBuild() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(["index.html": Array("v1".utf8)])
        // Killed between retiring the old site and moving the new one in.
        try FileManager.default.moveItem(atPath: out, toPath: root + "/.site.previous-1")
        try FileManager.default.createDirectory(atPath: root + "/.site.building-1", withIntermediateDirectories: true)
        var io = FileIO.disk
        io.writeFile = { path, _ in throw SiteWriterError.cannotWrite(path) }
        #expect(throws: SiteWriterError.self) { try SiteWriter(outputPath: out, io: io).write(["index.html": []]) }
        #expect(read(out + "/index.html") == "v1")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    /// A temporary folder that another build holds its lock on is that build's work in progress,
    /// not a leftover: a build beside it leaves it alone, and removes it once the lock is gone.
    @Test func aLiveBuildsTemporaryFolderIsLeftAlone() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        let live = root + "/.site.building-999999"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        try Array("half".utf8).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: live + "/index.html")) }
        let held = try #require(FolderLock.acquired(FolderLock.attempt(on: live, waiting: false)))

        try SiteWriter(outputPath: out).write(["index.html": Array("v1".utf8)])
        #expect(read(out + "/index.html") == "v1")
        #expect(read(live + "/index.html") == "half")
        if case .heldElsewhere = FolderLock.attempt(on: live, waiting: false) {} else {
            Issue.record("a second open of the folder got its lock while it was held")
        }

        held.release()
        try SiteWriter(outputPath: out).write(["index.html": Array("v2".utf8)])
        #expect(read(out + "/index.html") == "v2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    /// The swap waits its turn: while another build holds the lock on the folder that holds the
    /// output, a finished build does not move its site in; it does as soon as the lock is given up.
    @Test func theSwapWaitsWhileAnotherBuildHoldsTheOutputsFolder() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        try SiteWriter(outputPath: out).write(["index.html": Array("v1".utf8)])
        var staging = try SiteWriter(outputPath: out).begin()
        try staging.write("index.html", Array("v2".utf8))
        let turn = try #require(FolderLock.acquired(FolderLock.attempt(on: root, waiting: false)))
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let finishing = staging
        DispatchQueue.global().async {
            try? finishing.finish()
            finished.signal()
        }
        let early = finished.wait(timeout: .now() + 0.5)
        #expect(early == .timedOut, "the swap did not wait for the lock")
        #expect(read(out + "/index.html") == "v1")
        turn.release()
        if early == .timedOut { finished.wait() }
        #expect(read(out + "/index.html") == "v2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }
}
