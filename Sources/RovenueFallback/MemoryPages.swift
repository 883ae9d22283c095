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
