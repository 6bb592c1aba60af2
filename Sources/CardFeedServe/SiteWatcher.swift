import CardFeedCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices changes to a site's inputs by polling: the modification time, size and inode of
/// every file of `cards.json`, `cards/`, `templates/`, `assets/`, `static/`, `strings/` and `cardfeed.yml`
/// (any of which may appear or vanish). Polling is portable and cheap at this scale (a few
/// thousand `stat` calls a second for a large site); hidden files and editor backups are left out.
public final class SiteWatcher: @unchecked Sendable {
    /// What a file looked like at one poll.
    struct Stamp: Equatable {
        var modified: Int64
        var size: Int64
        var inode: UInt64
    }

    public let site: SiteFolder
    /// How often to look.
    public let interval: Duration
    /// After a change, the inputs must stay still this long before the change is reported, so
    /// that an editor's save (truncate, write, rename) or a `git checkout` is one change.
    public let settle: Duration

    private let lock = NSLock()
    private var pending: Set<String> = []

    public init(site: SiteFolder, interval: Duration = .milliseconds(25), settle: Duration = .milliseconds(20)) {
        self.site = site
        self.interval = interval
        self.settle = settle
    }

    /// The files and folders that are watched, whether or not they exist yet.
    public var watchedPaths: [URL] {
        [site.cardsFile, site.cardsFolder, site.templatesFolder, site.assetsFolder, site.staticFolder,
         site.root.appendingPathComponent("strings", isDirectory: true),
         site.root.appendingPathComponent("cardfeed.yml"), site.root.appendingPathComponent("cardfeed.yaml")]
    }

    /// Yields once for each settled change. Changes that arrive while the consumer is busy (a
    /// rebuild) are merged into one element; `takeChanges()` names the files.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task { [self] in
            var previous = snapshot()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                var current = snapshot()
                guard current != previous else { continue }
                // Wait until the inputs hold still.
                let deadline = ContinuousClock.now + .seconds(2)
                while ContinuousClock.now < deadline, !Task.isCancelled {
                    try? await Task.sleep(for: settle)
                    let next = snapshot()
                    if next == current { break }
                    current = next
                }
                record(Self.difference(previous, current))
                previous = current
                continuation.yield()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The site-relative paths changed since the last call, sorted.
    public func takeChanges() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let changed = pending.sorted()
        pending = []
        return changed
    }

    private func record(_ paths: Set<String>) {
        lock.lock()
        pending.formUnion(paths)
        lock.unlock()
    }

    static func difference(_ old: [String: Stamp], _ new: [String: Stamp]) -> Set<String> {
        var changed = Set<String>()
        for (path, stamp) in new where old[path] != stamp { changed.insert(path) }
        for path in old.keys where new[path] == nil { changed.insert(path) }
        return changed
    }

    /// Site-relative path -> stamp of every watched file.
    func snapshot() -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        let rootPath = site.root.path
        for url in watchedPaths {
            guard let stamp = Self.stamp(url.path) else { continue }
            if stamp.isDirectory {
                walk(url, rootPath: rootPath, into: &stamps)
            } else {
                stamps[String(url.path.dropFirst(rootPath.count + 1))] = stamp.stamp
            }
        }
        return stamps
    }

    private func walk(_ folder: URL, rootPath: String, into stamps: inout [String: Stamp]) {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return }
        let prefix = String(folder.path.dropFirst(rootPath.count + 1))
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") {
                walker.skipDescendants()
                continue
            }
            guard let stamp = Self.stamp(folder.path + "/" + relative), !stamp.isDirectory else { continue }
            stamps[prefix + "/" + relative] = stamp.stamp
        }
    }

    private static func stamp(_ path: String) -> (stamp: Stamp, isDirectory: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        return (Stamp(modified: modified, size: Int64(info.st_size), inode: UInt64(info.st_ino)), isDirectory)
    }
}
