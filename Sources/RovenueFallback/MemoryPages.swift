#if os(Linux)
    import Glibc
#endif

/// Pages of memory handed back to the system early.
///
/// There is deliberately no huge-page hint (`MADV_HUGEPAGE`) for the parser's large blocks: it
/// saved about 0.05 s of system time on a 10,000-placement `check` run right after another, but a
/// first run pays for it. A virtual machine that reports freed memory to its host (virtio-balloon
/// free page reporting, as on Firecracker) hands back whole 2 MiB blocks, exactly what a huge page
/// needs, so after a quiet spell every huge page was faulted in again by the host: 0.35-0.47 s of
/// system time instead of 0.09 s for that `check`, and at 100,000 placements 1.6-1.9 s instead of
/// 0.9-1.0 s even back to back. `fallback-bench --idle-seconds` measures a first run.
public enum MemoryPages {
    /// How many bytes of freed memory a process that called `keepFreedMemoryWarm()` keeps for reuse.
    public static let warmByteLimit = 256 << 20

    /// Keeps the memory that large blocks leave when they are freed, up to `warmByteLimit` bytes, for
    /// the next ones (glibc only; elsewhere it does nothing). For the executables, called once before
    /// any work: a library parsing once leaves the allocator alone.
    ///
    /// glibc maps every block over its threshold (32 MiB at most) on its own and unmaps it when freed,
    /// so a second parse of a 10,000-placement text (a 139 MB node block, a 52 MB text) faulted every
    /// page in again: about 33,000 page faults, which put the in-process strict parse of
    /// `fallback-bench` at 717 MB/s. Here the main thread's blocks come from its heap instead
    /// (`M_MMAP_MAX` 0), and a freed block at the heap's top stays mapped up to the limit
    /// (`M_TRIM_THRESHOLD`), so repeated parses (the benchmark's rows, `history` over a folder, a
    /// series `build`) reuse pages already faulted in. A first run faults the same pages either way.
    /// Other threads' arenas still map a block larger than their 64 MiB heaps on its own.
    ///
    /// It also turns glibc's fast bins off (`M_MXFAST` 0). A small block freed past the thread's
    /// cache went to a fast bin unmerged, and the next free of a block of 64 KiB or more (a node
    /// block, a records array) merged every fast-bin block of that arena at once, on the thread that
    /// happened to free it (`malloc_consolidate`): letting a 10,000-placement file go spent about a
    /// third of its time there, on one core, while the other waited. Without fast bins each block
    /// is merged as it is freed, on the thread freeing it. Whole-file validation of that sample
    /// took 7.5% less (the median of 16 alternated pairs); `check`, which frees each chunk as it
    /// goes, and `JSONDecoder` in the same process took the same time either way.
    public static func keepFreedMemoryWarm() {
        #if os(Linux) && canImport(Glibc)
            // <malloc.h>'s M_MMAP_MAX, M_TRIM_THRESHOLD and M_MXFAST; Swift's Glibc module does not import that header.
            _ = glibcMallopt(-4, 0)
            _ = glibcMallopt(-1, Int32(warmByteLimit))
            _ = glibcMallopt(1, 0)
        #endif
    }

    /// Gives the whole 4 KiB pages inside `byteCount` bytes from `start` back to the system
    /// (`MADV_DONTNEED`, Linux only): for a region that is read for the last time and freed later,
    /// so that copying it out a piece at a time does not hold both copies at once. Reading the
    /// pages afterwards would see zeros.
    public static func discard(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
            let page = 4096
            guard let start, byteCount >= page else { return }
            let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
            let end = (Int(bitPattern: start) + byteCount) & ~(page - 1)
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(aligned, end - first, MADV_DONTNEED)
        #endif
    }
}

#if os(Linux) && canImport(Glibc)
    /// glibc's `int mallopt(int param, int value)`.
    @_silgen_name("mallopt")
    private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
