import Foundation
import Logging
import Synchronization
import CardFeedBuild
import CardFeedWrite

/// `serve`'s search index: made in the background after each good build has been served, so
/// that an edit reaches the screen as fast as without search. Builds that follow each other
/// closely (saves while typing) are indexed once, after the last; builds that changed no card
/// page are not indexed again.
///
/// Pagefind reads the card pages in the folder the builds update; a build that commits while it
/// reads replaces each file by a rename, so Pagefind reads a page whole, old or new, and that
/// build's own indexing follows. The index lives in a folder of its own (`folder/pagefind/`),
/// which the handler serves at `/pagefind/`: the builds update the site's folder in place, and
/// would remove files they did not make. Files are added and replaced, never removed, so that
/// a page still searching the previous index finds its chunks until it loads the new one
/// (`onIndexed` tells the pages).
final class PreviewSearch: Sendable {
    /// Holds `pagefind/`.
    let folder: URL
    private let logger: Logger
    private let onIndexed: @Sendable () -> Void
    private let queue = DispatchQueue(label: "cardfeed.serve.search")
    /// The index to make next; whether a build since the last index changed a page it reads;
    /// a count of the builds handed over (to know the last).
    private let pending = Mutex<(index: SearchIndex?, changed: Bool, handedOver: Int)>((nil, false, 0))
    private let indexed = Mutex<SearchIndex?>(nil)

    /// How long a build waits for a later one before it is indexed.
    static let settle = DispatchTimeInterval.milliseconds(300)

    init(folder: URL, logger: Logger, onIndexed: @escaping @Sendable () -> Void) {
        self.folder = folder
        self.logger = logger
        self.onIndexed = onIndexed
    }

    /// A good build's index, to make once no later build comes for a moment. `changed` is the
    /// build's changed and removed files.
    func handOver(_ index: SearchIndex, changed: [String]) {
        let touched = changed.contains(where: SearchIndex.reads)
        let number = pending.withLock { pending in
            pending = (index, pending.changed || touched, pending.handedOver + 1)
            return pending.handedOver
        }
        queue.asyncAfter(deadline: .now() + Self.settle) { self.indexIfLast(number) }
    }

    private func indexIfLast(_ number: Int) {
        guard let (index, changed) = pending.withLock({ $0.handedOver == number ? ($0.index, $0.changed) : nil }), let index else { return }
        guard changed || indexed.withLock({ $0 != index }) else { return }
        pending.withLock { $0.changed = false }
        let start = ContinuousClock.now
        let bundle = SearchIndex.temporaryBundle()
        defer { try? FileManager.default.removeItem(at: bundle) }
        do {
            let made = try index.make(into: bundle, background: true)
            for file in made.files { try copy(file, from: bundle) }
            indexed.withLock { $0 = index }
            let seconds = ContinuousClock.now - start
            logger.info("Indexed \(Console.plural(made.pages ?? index.count, "card")) for search in \(PreviewServer.format(seconds)).")
            onIndexed()
        } catch {
            // The next build indexes again, whatever it changed.
            pending.withLock { $0.changed = true }
            logger.error("the search index was not made: \(error)")
        }
    }

    private func copy(_ file: String, from bundle: URL) throws {
        let target = folder.appendingPathComponent(Pagefind.folder, isDirectory: true).appendingPathComponent(file, isDirectory: false)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contentsOf: bundle.appendingPathComponent(file)).write(to: target, options: .atomic)
    }
}
