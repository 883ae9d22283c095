import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

#if os(Linux) && canImport(Glibc)
    import Glibc

    /// `fallback-site` keeps the memory a parse frees for the next parse (`MemoryPages.keepFreedMemoryWarm()`,
    /// called on its main thread before any work), so when `check` reads three copies of a file, the
    /// second and third node blocks reuse the first one's pages instead of faulting in their own.
    ///
    /// Measured on the built executable, whose main thread allocates from glibc's main arena as in
    /// real use, allowed on one CPU so that all its work stays on that thread. In the test process
    /// itself the outcome would depend on other tests: a worker thread's arena is made of heaps of
    /// at most 64 MiB, and a heap that a free leaves empty is unmapped whatever the trim threshold,
    /// so an in-process version of this test failed once in CI, when another test had left about
    /// 30 MiB in its thread's arena. On two CPUs the child's worker threads made the count vary
    /// with the machine's load, and that version failed a loaded run too.
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

        /// Runs `body` with this thread allowed on one CPU only (the lowest it may use now), so that a
        /// process it spawns inherits that mask: a `fallback-site` that sees one CPU parses and audits
        /// on its main thread alone, so its page faults do not depend on how busy the machine is.
        static func onOneCPU<Result>(_ body: () throws -> Result) throws -> Result {
            let size = MemoryLayout<cpu_set_t>.size
            var saved = cpu_set_t()
            try #require(threadAffinity(get: true, 0, size, &saved) == 0, "sched_getaffinity failed: \(errno)")
            var one = cpu_set_t()
            withUnsafeBytes(of: saved) { allowed in
                withUnsafeMutableBytes(of: &one) { chosen in
                    guard let index = allowed.firstIndex(where: { $0 != 0 }) else { return }
                    chosen[index] = allowed[index] & (0 &- allowed[index])  // its lowest set bit
                }
            }
            try #require(threadAffinity(get: false, 0, size, &one) == 0, "sched_setaffinity failed: \(errno)")
            defer { _ = threadAffinity(get: false, 0, size, &saved) }
            return try body()
        }

        @Test func checkingThreeCopiesFaultsInAboutTheMemoryOfOne() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("freed-memory-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // 1,000 placements: about 5 MB of text and a node block of about 8 MB. Without the
            // policy glibc maps a block that large on its own and unmaps it when freed, so each
            // parse faults every page of its node block in again.
            let text = SampleExport(placementCount: 1000, seed: 11).jsonText()
            let paths = ["a", "b", "c"].map { folder.appendingPathComponent("\($0).json").path }
            for path in paths { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
            let nodeBlockPages = JSONDocument(text: text).storage.nodes.count * MemoryLayout<JSONDocument.PackedNode>.stride / 4096

            let (one, three) = try Self.onOneCPU {
                (try Self.pageFaults(["check", paths[0]]), try Self.pageFaults(["check"] + paths))
            }
            #expect(one.status == three.status)
            let perExtraCopy = (three.faults - one.faults) / 2
            // Measured on one CPU, the same in every run, idle machine or loaded: about 0.42 times the
            // node block's pages with the policy and 1.58 times without (840 and 3,130 of 1,979 here;
            // 2,113 and 7,870 of 4,974 at 2,500 placements).
            #expect(
                perExtraCopy < nodeBlockPages,
                "each copy after the first took \(perExtraCopy) page faults; its node block has \(nodeBlockPages) pages (one copy: \(one.faults), three: \(three.faults))")
        }
    }

    /// glibc's `sched_getaffinity` and `sched_setaffinity`, which Swift's Glibc module does not import.
    @_silgen_name("sched_getaffinity")
    private func schedGetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32
    @_silgen_name("sched_setaffinity")
    private func schedSetAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeRawPointer) -> Int32

    private func threadAffinity(get: Bool, _ pid: pid_t, _ size: Int, _ mask: inout cpu_set_t) -> Int32 {
        withUnsafeMutableBytes(of: &mask) { get ? schedGetAffinity(pid, size, $0.baseAddress!) : schedSetAffinity(pid, size, $0.baseAddress!) }
    }
#endif
