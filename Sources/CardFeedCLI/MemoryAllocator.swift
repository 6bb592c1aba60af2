import Foundation
#if canImport(CMimalloc)
import CMimalloc
#endif

/// The allocator behind malloc, which the package links on Linux (see docs/performance.md,
/// "Memory allocation").
enum MemoryAllocator {
    /// Asks mimalloc, where the package links it, for its memory in 2 MiB pages, unless the
    /// environment says otherwise (`MIMALLOC_LARGE_OS_PAGES`). A build of 100,000 cards touches
    /// some 400 MB, and a page fault a 4 KiB page took a tenth of a rebuild's CPU time; with 2 MiB
    /// pages a one-card rebuild takes 4-7% less time and a first build 4% less, for 7% to 12%
    /// more peak memory (docs/performance.md).
    ///
    /// Only where the kernel keeps no pool of explicit huge pages (`/proc/sys/vm/nr_hugepages`
    /// and `nr_overcommit_hugepages` both 0, Debian's default): mimalloc asks for those first
    /// (`MAP_HUGETLB`), memory that is pinned, and in a container whose cgroup limits them a
    /// process given them can die of SIGBUS (microsoft/mimalloc#682, #1110). Without a pool
    /// that request fails at once, and mimalloc takes ordinary memory that the kernel backs with
    /// transparent huge pages (`madvise`; when they are off, as before). Called for every command
    /// but `serve`, before it allocates: `serve` would keep its peak memory as long as it runs
    /// (mimalloc does not give such pages back).
    static func useLargePages() {
        #if canImport(CMimalloc)
        let environment = ProcessInfo.processInfo.environment
        guard environment["MIMALLOC_LARGE_OS_PAGES"] == nil, kernelHasNoHugePagePool else { return }
        mi_option_enable(mi_option_large_os_pages)
        #endif
    }

    private static var kernelHasNoHugePagePool: Bool {
        ["nr_hugepages", "nr_overcommit_hugepages"].allSatisfy { name in
            let value = try? String(contentsOfFile: "/proc/sys/vm/" + name, encoding: .utf8)
            return value?.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
        }
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
