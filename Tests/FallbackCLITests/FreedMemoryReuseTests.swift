import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

#if os(Linux) && canImport(Glibc)
    import Glibc

    /// `fallback-site` keeps the memory a parse frees for the next parse (`MemoryPages.keepFreedMemoryWarm()`,
    /// called on its main thread before any work), so checking three copies of a file faults in
    /// about the pages of one: the second and third node blocks reuse the first one's pages.
    ///
    /// Measured on the built executable, whose main thread allocates from glibc's main arena as in
    /// real use. In the test process itself the outcome would depend on other tests: a worker
    /// thread's arena is made of heaps of at most 64 MiB, and a heap that a free leaves empty is
    /// unmapped whatever the trim threshold, so an in-process version of this test failed once in
    /// CI, when another test had left about 30 MiB in its thread's arena.
    @Suite(
        "fallback-site reuses the memory a parse freed",
        .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
    struct FreedMemoryReuseTests {
        /// The page faults `fallback-site arguments…` took, its own alone (`wait4`), and its wait status.
        static func pageFaults(_ arguments: [String]) throws -> (faults: Int, status: Int32) {
            let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid = pid_t()
            let spawned = posix_spawn(&pid, tool, &actions, nil, argv, environ)
            try #require(spawned == 0, "posix_spawn failed: \(spawned)")
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) == -1 {
                try #require(errno == EINTR, "wait4 failed: \(errno)")
            }
            return (usage.ru_minflt, status)
        }

        @Test func checkingThreeCopiesFaultsInAboutTheMemoryOfOne() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("freed-memory-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // 2,500 placements: about 12 MB of text and a node block of about 20 MB. Without the
            // policy glibc maps a block that large on its own and unmaps it when freed, so each
            // parse faults every page of its node block in again.
            let text = SampleExport(placementCount: 2500, seed: 11).jsonText()
            let paths = ["a", "b", "c"].map { folder.appendingPathComponent("\($0).json").path }
            for path in paths { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
            let nodeBlockPages = JSONDocument(text: text).storage.nodes.count * MemoryLayout<JSONDocument.PackedNode>.stride / 4096

            let one = try Self.pageFaults(["check", paths[0]])
            let three = try Self.pageFaults(["check"] + paths)
            #expect(one.status == three.status)
            let perExtraCopy = (three.faults - one.faults) / 2
            // Measured: about 1,300 with the policy, 7,700 without (node block: about 5,000 pages).
            #expect(
                perExtraCopy < nodeBlockPages / 2,
                "each copy after the first took \(perExtraCopy) page faults; its node block has \(nodeBlockPages) pages (one copy: \(one.faults), three: \(three.faults))")
        }
    }
#endif
