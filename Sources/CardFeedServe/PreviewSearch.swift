import Foundation
import Logging
import Synchronization
import CardFeedBuild
import CardFeedWrite
import CardFeedSystem

/// `serve`'s search index: made in the background after each good build has been served, so
/// that an edit reaches the screen as fast as without search. Builds that follow each other
/// closely (saves while typing) are indexed once, after the last; builds that changed no card
/// page are not indexed again. A build that starts while Pagefind runs stops it, and the index
/// is made again after that build: an index of 10,000 cards keeps both cores busy for seconds,
/// and even at the lowest CPU priority it slowed an edit that came meanwhile.
///
/// Pagefind reads the card pages' search documents (see `CardPages`) in the folder the builds
/// update; a build that commits while it reads replaces each file by a rename, so Pagefind reads
/// a document whole, old or new. The index lives in a folder of its own (`folder/pagefind/`),
/// which the handler serves at `/pagefind/`: the builds update the site's folder in place, and
/// would remove files they did not make.
/// Files are added and replaced, never removed, so that a page still searching the previous
/// index finds its chunks until it loads the new one (`onIndexed` tells the pages).
///
/// When serve stops, `close` stops the run under way (its whole process group) and waits for
/// it: Pagefind runs in a process group of its own, which a terminal's Ctrl-C does not reach,
/// and a Pagefind that outlived serve would index a folder being removed, and leave its files.
final class PreviewSearch: Sendable {
    /// Holds `pagefind/`.
    let folder: URL
    /// Where each run of Pagefind writes its index, whose files are then moved into `folder`:
    /// in serve's work folder, on the same file system, and removed with it.
    private let runFolder: URL
    private let logger: Logger
    private let onIndexed: @Sendable () -> Void
    private let queue = DispatchQueue(label: "cardfeed.serve.search")

    /// The index to make next, if any; whether a page it reads changed since the last index;
    /// a count of the builds started and ended, so that a scheduled index knows whether it is
    /// still the latest; and the run under way, which the next build stops.
    private struct Pending {
        var index: SearchIndex?
        var changed = false
        var events = 0
        var running: ChildProcesses?
        /// serve is stopping: no index starts any more.
        var closed = false
    }
    private let pending = Mutex(Pending())
    private let indexed = Mutex<SearchIndex?>(nil)

    /// How long after a build the index waits for another one: saves a second apart (an
    /// editor's autosave, a reader fixing a typo) start no index in between.
    static let settle = DispatchTimeInterval.seconds(1)

    init(folder: URL, runFolder: URL, logger: Logger, onIndexed: @escaping @Sendable () -> Void) {
        self.folder = folder
        self.runFolder = runFolder
        self.logger = logger
        self.onIndexed = onIndexed
    }

    /// A build starts: no index starts until it ends, and a run under way is stopped (and made
    /// again after the build).
    func buildStarting() {
        let running = pending.withLock { pending in
            pending.events += 1
            return pending.running
        }
        running?.stop()
    }

    /// A good build's index, to make once no later build comes for a moment. `changed` is the
    /// build's changed and removed files.
    func handOver(_ index: SearchIndex, changed: [String]) {
        let touched = changed.contains(where: index.reads)
        let number = pending.withLock { pending in
            pending.index = index
            pending.changed = pending.changed || touched
            pending.events += 1
            return pending.events
        }
        schedule(number)
    }

    /// A build failed, which changed no page: the index it stopped, if any, is made after all.
    func buildFailed() {
        schedule(pending.withLock { pending in
            pending.events += 1
            return pending.events
        })
    }

    /// serve is stopping: no index starts from now on, and the run under way is stopped. Returns
    /// once that run has ended and its files are removed.
    func close() {
        let running = pending.withLock { pending in
            pending.closed = true
            return pending.running
        }
        running?.stop()
        queue.sync {}
    }

    private func schedule(_ number: Int) {
        queue.asyncAfter(deadline: .now() + Self.settle) { self.indexIfLast(number) }
    }

    private func indexIfLast(_ number: Int) {
        let runs = ChildProcesses()
        // Checked and claimed at once, so that a build starting now finds the run to stop.
        let claimed = pending.withLock { pending -> SearchIndex? in
            guard !pending.closed, pending.events == number, let index = pending.index, pending.changed || indexed.withLock({ $0 != index }) else { return nil }
            pending.running = runs
            pending.changed = false
            return index
        }
        guard let index = claimed else { return }
        defer { pending.withLock { $0.running = nil } }
        let start = ContinuousClock.now
        let bundle = runFolder
        try? FileManager.default.removeItem(at: bundle)
        defer { try? FileManager.default.removeItem(at: bundle) }
        do {
            let made = try index.make(into: bundle, background: true, runs: runs)
            try moveIn(made.files, from: bundle)
            indexed.withLock { $0 = index }
            let seconds = ContinuousClock.now - start
            logger.info("Indexed \(Console.plural(made.pages ?? index.count, "card")) for search in \(PreviewServer.format(seconds)).")
            onIndexed()
        } catch {
            // Made again after the next build, whatever that changes.
            pending.withLock { $0.changed = true }
            if let failure = error as? Pagefind.Failure, failure.wasStopped {
                logger.debug("Indexing for search stopped (a build started, or serve is stopping).")
            } else {
                logger.error("the search index was not made: \(error)")
            }
        }
    }

    /// Puts a run's files in the index folder. The run's folder is in serve's work folder, on the
    /// same file system, so each file is renamed into place: the previous one is replaced in one
    /// step (a page loading it meanwhile gets one or the other whole), and nothing is copied.
    private func moveIn(_ files: [String], from bundle: URL) throws {
        let index = folder.appendingPathComponent(Pagefind.folder, isDirectory: true)
        for subfolder in Set(files.map { ($0 as NSString).deletingLastPathComponent }).sorted() {
            try FileManager.default.createDirectory(at: index.appendingPathComponent(subfolder, isDirectory: true), withIntermediateDirectories: true)
        }
        for file in files {
            let (from, to) = (bundle.appendingPathComponent(file).path, index.appendingPathComponent(file).path)
            guard rename(from, to) == 0 else {
                let code = errno
                throw OutputError(path: Pagefind.folder + "/" + file, code: code)
            }
        }
    }
}
