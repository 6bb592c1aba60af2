import Foundation
import Synchronization
import CardFeedModel
import CardFeedSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices changes to a site's inputs: `cards.json`, `cards/`, `templates/`, `assets/`, `static/`,
/// `strings/` and `cardfeed.yml` (any of which may appear or vanish). On Linux the kernel says when
/// something in those folders changed (inotify), and only then are the files looked at; an idle
/// preview costs nothing. Elsewhere, or when inotify cannot watch them (its limit of watches
/// reached), the watcher polls, and `method` says so: every `interval`, or less often on a site
/// whose files take long to look at, so that polling takes at most `pollingShare` of a core (it
/// took more than one core on a site of 200,000 folders). Either way what changed is found by
/// comparing the modification time, size and inode of every watched file with the last look;
/// hidden files and editor backups are left out.
public final class SiteWatcher: Sendable {
    /// What a file looked like at one look.
    struct Stamp: Equatable {
        var modified: Int64
        var size: Int64
        var inode: UInt64
    }

    public let site: SiteFolder
    /// How often to look when polling, at most.
    public let interval: Duration
    /// The share of one core that looking at the files may take when polling: after a look that
    /// took `t` of CPU time, the next comes `t / pollingShare` after the start of the last.
    public static let pollingShare = 0.08
    /// After a change, the inputs must stay still this long before the change is reported, so
    /// that an editor's save (truncate, write, rename) or a `git checkout` is one change.
    public let settle: Duration

    private let state: Mutex<State>

    private struct State {
        /// Changed paths not taken yet.
        var pending: Set<String> = []
        var notifications: KernelNotifications?
        var how: String
    }

    public init(site: SiteFolder, interval: Duration = .milliseconds(25), settle: Duration = .milliseconds(20), polling: Bool = false) {
        self.site = site
        self.interval = interval
        self.settle = settle
        let how = Self.polling(interval)
        guard !polling else {
            state = Mutex(State(how: how + " (asked for by \(Self.pollingVariable))"))
            return
        }
        switch KernelNotifications.make() {
        case .success(let kernel):
            state = Mutex(State(notifications: kernel, how: "inotify"))
            watchNewFolders()
        case .failure(let reason):
            state = Mutex(State(how: how + " (\(reason))"))
        }
    }

    /// How changes are noticed, for the log: "inotify", or how often the watcher polls and why.
    public var method: String { state.withLock { $0.how } }

    /// Set (to anything) in the environment of `serve`, makes the watcher poll as it does when
    /// inotify has no watches left: a hook for tests, which cannot lower the system's limit.
    public static let pollingVariable = "CARDFEED_WATCH_BY_POLLING"

    private static func polling(_ interval: Duration) -> String {
        "polling every \(interval.components.attoseconds / 1_000_000_000_000_000) ms, or less often where looking at the files takes longer, to use at most \(Int(pollingShare * 100))% of a core"
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
            var started = ContinuousClock.now
            var cpu = Self.threadCPUTime()
            var previous = snapshot()
            var took = Self.threadCPUTime() - cpu
            while !Task.isCancelled {
                await nextHint(lastLook: started, took: took)
                started = ContinuousClock.now
                cpu = Self.threadCPUTime()
                var current = snapshot()
                took = Self.threadCPUTime() - cpu
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

    /// Returns when the inputs may have changed: when the kernel says something in the watched
    /// folders did, or, when polling, `interval` after the start of the last look, or later if
    /// that look (which `took` so much CPU time) would then take more than `pollingShare` of a
    /// core.
    private func nextHint(lastLook: ContinuousClock.Instant, took: Duration) async {
        guard let notifications = state.withLock({ $0.notifications }) else {
            try? await Task.sleep(until: lastLook + max(interval, took / Self.pollingShare), clock: .continuous)
            return
        }
        await withTaskCancellationHandler {
            await notifications.next()
        } onCancel: {
            notifications.wake()
        }
        // Folders that appeared since (cards/, a subfolder) are watched from now on.
        watchNewFolders()
    }

    /// The CPU time of the calling thread: a look runs on one thread without suspending, and its
    /// CPU time, unlike its wall time, does not grow when other programs share the cores.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }

    /// Watches every folder not watched yet; when the kernel refuses (its limit of watches
    /// reached), the watcher polls from then on.
    private func watchNewFolders() {
        guard let notifications = state.withLock({ $0.notifications }) else { return }
        if let failure = notifications.watch(folders: watchedFolders()) {
            let how = Self.polling(interval) + " (\(failure))"
            state.withLock { state in
                state.notifications = nil
                state.how = how
            }
        }
    }

    /// The site folder and every folder below the watched ones.
    func watchedFolders() -> [String] {
        var folders = [site.root.path]
        for url in watchedPaths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            folders.append(url.path)
            guard let walker = FileManager.default.enumerator(atPath: url.path) else { continue }
            while let relative = walker.nextObject() as? String {
                guard (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory else { continue }
                if (relative as NSString).lastPathComponent.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                folders.append(url.path + "/" + relative)
            }
        }
        return folders
    }

    /// The site-relative paths changed since the last call, sorted.
    public func takeChanges() -> [String] {
        state.withLock { state in
            let changed = state.pending.sorted()
            state.pending = []
            return changed
        }
    }

    private func record(_ paths: Set<String>) {
        state.withLock { $0.pending.formUnion(paths) }
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

    /// Every file below `folder` with its stamp, read with `readdir`, whose entries say which
    /// are folders: only files are stat'ed, and no folder is opened twice (FileManager's
    /// enumerator took seconds of CPU for a look at 200,000 folders).
    private func walk(_ folder: URL, rootPath: String, into stamps: inout [String: Stamp]) {
        var folders = [(path: folder.path, relative: String(folder.path.dropFirst(rootPath.count + 1)))]
        while let (path, relative) = folders.popLast() {
            guard let entries = SystemCalls.entries(of: path) else { continue }
            for entry in entries {
                let name = entry.text
                if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") { continue }  // ".", ".." and hidden files too
                let child = (path: path + "/" + name, relative: relative + "/" + name)
                if entry.isFolder {
                    folders.append(child)
                    continue
                }
                // A file, a link (to a file, or to a folder, which is not entered) or a file
                // system that does not say.
                guard let stamp = Self.stamp(child.path) else { continue }
                if stamp.isDirectory {
                    if entry.kindUnknown { folders.append(child) }
                    continue
                }
                stamps[child.relative] = stamp.stamp
            }
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

/// The kernel's notifications of changes in a set of folders (inotify), as a stream of hints:
/// each says that something changed, not what (the watcher compares stamps for that).
final class KernelNotifications: Sendable {
    #if os(Linux)
    private let descriptor: Int32
    /// Dispatch's sources are not `Sendable`: this one is touched under the lock only.
    private let source: Mutex<any DispatchSourceRead>
    private let state = Mutex(State())

    private struct State {
        var watched: Set<String> = []
        /// A call of `next` waiting for a notification.
        var waiting: CheckedContinuation<Void, Never>?
        /// A notification came while no one waited.
        var signalled = false
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        source = Mutex(DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "cardfeed.watch")))
        source.withLock { source in
            source.setEventHandler { [weak self] in self?.drain() }
            source.resume()
        }
    }

    static func make() -> Result<KernelNotifications, WatchError> {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return .failure(WatchError(description: "inotify: \(String(cString: strerror(errno)))")) }
        return .success(KernelNotifications(descriptor: descriptor))
    }

    deinit {
        source.withLock { $0.cancel() }
        close(descriptor)
    }

    /// Adds a watch for each folder not watched yet (a folder that went away loses its watch
    /// in the kernel; one that comes back is watched again). Returns why the kernel refused
    /// one for lack of watches, if it did.
    func watch(folders: [String]) -> String? {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        return state.withLock { state in
            state.watched.formIntersection(folders)
            for folder in folders where !state.watched.contains(folder) {
                if inotify_add_watch(descriptor, folder, mask) >= 0 {
                    state.watched.insert(folder)
                } else if errno == ENOSPC || errno == ENOMEM {
                    return "inotify has no watches left"
                }
                // Otherwise the folder went away meanwhile: the next look finds that.
            }
            return nil
        }
    }

    /// Returns at the next notification, or at once if one came since the last call.
    func next() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                if state.signalled {
                    state.signalled = false
                    continuation.resume()
                } else {
                    state.waiting = continuation
                }
            }
        }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while read(descriptor, &buffer, buffer.count) > 0 {}
        wake()
    }

    /// Ends the wait of `next`, or the next one.
    func wake() {
        state.withLock { state in
            if let waiting = state.waiting {
                state.waiting = nil
                waiting.resume()
            } else {
                state.signalled = true
            }
        }
    }
    #else
    static func make() -> Result<KernelNotifications, WatchError> {
        .failure(WatchError(description: "no file notifications on this system"))
    }

    func watch(folders: [String]) -> String? { nil }
    func next() async {}
    func wake() {}
    #endif

    struct WatchError: Error, CustomStringConvertible {
        var description: String
    }
}
