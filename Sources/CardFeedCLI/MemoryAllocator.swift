import Foundation
#if canImport(CMimalloc)
import CMimalloc
#endif

/// The allocator behind malloc, which the package links on Linux (see docs/performance.md,
/// "Memory allocation").
enum MemoryAllocator {
    /// Asks mimalloc, where the package links it, for its memory in 2 MiB pages (where the
    /// kernel gives them: transparent huge pages set to `madvise` or `always`), unless the
    /// environment says otherwise (`MIMALLOC_LARGE_OS_PAGES`). A build of 100,000 cards touches
    /// some 400 MB, and a page fault a 4 KiB page took a tenth of a rebuild's CPU time; with 2 MiB
    /// pages a one-card rebuild takes 7% less time and a first build 4% less, for 7% to 12%
    /// more peak memory (docs/performance.md). Called first thing, before the build allocates.
    static func useLargePages() {
        #if canImport(CMimalloc)
        if ProcessInfo.processInfo.environment["MIMALLOC_LARGE_OS_PAGES"] == nil { mi_option_enable(mi_option_large_os_pages) }
        #endif
    }

    /// The allocator behind malloc: mimalloc where the package links it (Linux).
    static var name: String {
        #if canImport(CMimalloc)
        let version = Int(mi_version())  // 209 for 2.0.9
        return "mimalloc \(version / 100).\(version / 10 % 10).\(version % 10)"
        #else
        return "the system's"
        #endif
    }
}
