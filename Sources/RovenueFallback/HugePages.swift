#if os(Linux)
    import Glibc
#endif

/// A hint that a large region about to be filled from its start should be backed by huge pages:
/// with Linux's transparent huge pages in `madvise` mode (a common default), filling it then takes
/// one page fault per 2 MiB instead of one per 4 KiB, which for the parser's node array was as much
/// time as the parse itself. Only whole 2 MiB pages inside the region are advised; elsewhere, and for
/// regions under 4 MiB, nothing is done. Contents and results never depend on it.
public enum HugePages {
    /// A huge page: 2 MiB.
    public static let size = 2 << 20

    /// Advises the whole huge pages inside `byteCount` bytes from `start` (Linux only; nothing
    /// elsewhere or for fewer than two pages' worth).
    public static func advise(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
            guard let start, byteCount >= 2 * size else { return }
            let first = (Int(bitPattern: start) + size - 1) & ~(size - 1)
            let end = (Int(bitPattern: start) + byteCount) & ~(size - 1)
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(aligned, end - first, MADV_HUGEPAGE)
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
