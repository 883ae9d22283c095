import FallbackAudit
@testable import FallbackCLI
@testable import FallbackReports
import Foundation
@testable import RovenueFallback
import Testing

/// What a whole-process `check` spends outside the loader and the audit (issue 10): reading a file
/// straight into its array, and leaving the last file and the report for the process's exit to
/// discard rather than freeing them one allocation at a time.
@Suite("check: reading and the cost of the exit")
struct CheckExitCostTests {
    static let rejectedText = #"[{"formatVersion":1}]"#

    /// Bytes that are not all alike, so a lost or repeated chunk shows.
    static func bytes(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
    }

    @Test("RegularFile.read returns every byte, at sizes around its 64 KiB chunk", arguments: [0, 1, 65_535, 65_536, 65_537, 300_001])
    func readReturnsEveryByte(count: Int) throws {
        try withInputTestFolder { folder in
            let path = (folder as NSString).appendingPathComponent("file-\(count)")
            let expected = Self.bytes(count: count)
            try Data(expected).write(to: URL(fileURLWithPath: path))
            let read = try RegularFile.read(path)
            #expect(read.count == count)
            #expect(read == expected)
        }
    }

    /// Records, when each path is read, how many values the keeper holds.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var held: [String: Int] = [:]
        func record(_ path: String, keeping count: Int) { lock.withLock { held[path] = count } }
        var all: [String: Int] { lock.withLock { held } }
    }

    static func runCheck(_ paths: [String], format: ReportFormat, keeper: ExitKeeper, reads: Reads = Reads()) -> Run {
        run(["check"] + paths + ["--format", format.rawValue], files: ["rejected.json": rejectedText]) { environment in
            environment.exitKeeper = keeper
            let read = environment.readFile
            environment.readFile = { path in
                reads.record(path, keeping: keeper.count)
                return try read(path)
            }
        }
    }

    @Test("the real process keeps the last file and the report for its exit, and holds nothing while it reads the next file")
    func keepsTheLastFileForTheExit() throws {
        let keeper = ExitKeeper(keeps: true)
        let reads = Reads()
        let paths = [funnelEraPath, "rejected.json", paywallEraPath]
        let result = Self.runCheck(paths, format: .json, keeper: keeper, reads: reads)
        #expect(result.status == 1)
        // Each earlier file was let go before the next was read: one file in memory at a time.
        #expect(paths.map { reads.all[$0] } == [0, 0, 0])
        let kept = keeper.values
        #expect(kept.count == 2)
        let file = try #require(kept.first as? FallbackTopLevel)
        #expect(file.document.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: paywallEraPath))))
        #expect((kept.last as? CheckedFilesReport)?.inputs.map(\.path) == paths)
        // Released, nothing else holds them.
        weak let storage = file.document.storage
        _ = consume file
        _ = consume kept
        keeper.releaseAll()
        #expect(keeper.count == 0)
        #expect(storage == nil)
    }

    @Test("an environment made for tests keeps nothing")
    func testEnvironmentsKeepNothing() {
        let keeper = ExitKeeper.none
        let result = Self.runCheck([funnelEraPath], format: .text, keeper: keeper)
        #expect(result.status == 1)
        #expect(keeper.count == 0)
        #expect(CommandEnvironment.live.exitKeeper === ExitKeeper.process)
        #expect(CommandEnvironment(writeOutput: { _ in }, writeError: { _ in }, readFile: { _ in [] }, writeFile: { _, _ in }, now: { Date() }, variables: [:]).exitKeeper !== ExitKeeper.process)
    }

    @Test("keeping changes no byte of any format", arguments: ReportFormat.allCases)
    func keepingChangesNoOutput(format: ReportFormat) {
        let paths = [funnelEraPath, "/nonexistent-exitcost/missing.json", "rejected.json", paywallEraPath]
        let kept = Self.runCheck(paths, format: format, keeper: ExitKeeper(keeps: true))
        let freed = Self.runCheck(paths, format: format, keeper: .none)
        #expect(kept.status == 2)
        #expect(kept.status == freed.status)
        #expect(kept.output == freed.output)
        #expect(kept.error == freed.error)
        #expect(!kept.output.isEmpty)
    }
}
