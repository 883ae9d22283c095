@testable import FallbackCLI
import FallbackSite
import Foundation
import Testing

/// A whole-process `build` leaves its model and the builder's memos for the process's exit to
/// discard (`ExitKeeper`), as `check` leaves its last file: freeing a 1,000-placement build's
/// millions of allocations one by one took its last few milliseconds on one core.
@Suite("build: leaving the model for the exit")
struct BuildExitCostTests {
    /// Records how many values the keeper holds each time a snapshot is read.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [Int] = []
        func record(_ count: Int) { lock.withLock { counts.append(count) } }
        var all: [Int] { lock.withLock { counts } }
    }

    @Test func theRealProcessKeepsOneBuildsLeftoversAtATime() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let keeper = ExitKeeper(keeps: true)
        let reads = Reads()
        var outputs: [[String: Data]] = []
        // Two builds into one folder with one keeper: the second lets the first's leftovers go
        // before it reads its snapshot.
        for _ in 0..<2 {
            let result = run(["build", funnelEraPath, "--out", root + "/site", "--quiet"]) { environment in
                environment.exitKeeper = keeper
                let read = environment.readFile
                environment.readFile = { path in
                    if path == funnelEraPath { reads.record(keeper.count) }
                    return try read(path)
                }
            }
            #expect(result.status == 0, "\(result.error)")
            #expect(keeper.count == 1)
            let builder = try #require(keeper.values.first as? SiteBuilder)
            #expect(builder.model.snapshot.name == funnelEraPath)
            outputs.append(try Self.files(in: root + "/site"))
        }
        #expect(reads.all == [0, 0])
        // Keeping changes nothing written.
        let freed = run(["build", funnelEraPath, "--out", root + "/freed", "--quiet"])
        #expect(freed.status == 0)
        #expect(try Self.files(in: root + "/freed") == outputs[0])
        #expect(outputs[0] == outputs[1])
        keeper.releaseAll()
        #expect(keeper.count == 0)
    }

    static func files(in folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = FileManager.default.contents(atPath: folder + "/" + path)
        }
        return files
    }
}
