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

    /// Lines as `/proc/self/mounts` writes them, `/` after `/dev/shm` as on this machine.
    static let table = Array(
        """
        tmpfs /dev/shm tmpfs rw,nosuid,nodev 0 0
        /dev/vda / ext4 rw,relatime 0 0
        tmpfs /run/user/1000 tmpfs rw 0 0
        /dev/vdb /dev/shm2 xfs rw 0 0
        /dev/vdc /mnt/with\\040space btrfs rw 0 0
        /dev/vdd /mnt/back\\134slash ext2 rw 0 0
        tmpfs /mnt/a tmpfs rw 0 0
        /dev/vde /mnt/a ext4 rw 0 0

        """.utf8)

    @Test(arguments: [
        ("/dev/shm", "tmpfs"), ("/dev/shm/bench-large/site", "tmpfs"), ("/dev/shm2/x", "xfs"), ("/dev/sh", "ext4"),
        ("/tmp/bench", "ext4"), ("/", "ext4"), ("/run/user/1000/t", "tmpfs"), ("/mnt/with space/x", "btrfs"),
        ("/mnt/with\\040space/x", "ext4"), ("/mnt/back\\slash", "ext2"), ("/mnt/a/x", "ext4"),
    ])
    func theFileSystemOfAPathIsItsInnermostMount(path: String, type: String) {
        #expect(FolderRoom.fileSystemType(of: Array(path.utf8), inMountTable: Self.table) == type)
    }

    /// A table longer than one read of ours (16 KB), as on a host with many container mounts: the
    /// mount that holds the path is its last line.
    @Test func aMountAtTheEndOfALongTableIsFound() {
        let filler = (0..<400).map { "overlay /var/lib/docker/overlay2/\($0)/merged overlay rw,lowerdir=/a:/b 0 0\n" }.joined()
        let table = Array((filler + "tmpfs /scratch tmpfs rw 0 0\n").utf8)
        #expect(table.count > 16_384)
        #expect(FolderRoom.fileSystemType(of: Array("/scratch/bench".utf8), inMountTable: table) == "tmpfs")
        #expect(FolderRoom.fileSystemType(of: Array("/scratch/bench".utf8), inMountTable: Array(filler.utf8)) == nil)
    }

    @Test func sigkillIsExplainedAsOutOfMemory() {
        #expect(ChildCommand.explanation(ofSignal: SIGKILL).contains("out-of-memory killer"))
        #expect(ChildCommand.explanation(ofSignal: SIGSEGV).isEmpty)
    }
}
