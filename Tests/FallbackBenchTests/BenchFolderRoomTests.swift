import Foundation
import Testing

@testable import fallback_bench

/// The `--large` build warns before it writes a site that may not fit where the benchmark's
/// folders are, and a child the kernel killed is reported as most likely out of memory, not as
/// stopped by the address-space cap.
@Suite struct BenchFolderRoomTests {
    /// 100 MB of input makes about 1.5 GB of pages.
    static let input = 100_000_000

    @Test func aMemoryFileSystemWarnsOfALargeSite() throws {
        let warning = try #require(FolderRoom(freeBytes: 20_000_000_000, isInMemory: true).warning(forSiteOf: Self.input))
        #expect(warning.contains("about 1.5 GB"))
        #expect(warning.contains("tmpfs"))
        #expect(warning.contains("TMPDIR"))
    }

    @Test func aMemoryFileSystemTakesASmallSite() {
        #expect(FolderRoom(freeBytes: 20_000_000_000, isInMemory: true).warning(forSiteOf: 10_000_000) == nil)
    }

    @Test func aDiskWithoutRoomWarns() throws {
        let warning = try #require(FolderRoom(freeBytes: 1_000_000_000, isInMemory: false).warning(forSiteOf: Self.input))
        #expect(warning.contains("1.0 GB free"))
        #expect(!warning.contains("tmpfs"))
    }

    @Test(arguments: [nil, 2_000_000_000] as [Int?]) func aDiskWithRoomOrUnknownRoomDoesNotWarn(freeBytes: Int?) {
        #expect(FolderRoom(freeBytes: freeBytes, isInMemory: false).warning(forSiteOf: Self.input) == nil)
    }

    /// The mount point that holds a path is the longest one above it: `/proc` under `/`.
    @Test func theFileSystemIsTheInnermostMount() throws {
        #if os(Linux)
            #expect(FolderRoom.fileSystemType(of: "/proc/self") == "proc")
            #expect(FolderRoom.fileSystemType(of: "/proc") == "proc")
        #else
            #expect(FolderRoom.fileSystemType(of: "/") == nil)
        #endif
    }

    @Test func sigkillIsExplainedAsOutOfMemory() {
        #expect(ChildCommand.explanation(ofSignal: SIGKILL).contains("out-of-memory killer"))
        #expect(ChildCommand.explanation(ofSignal: SIGSEGV).isEmpty)
    }
}
