import Foundation
import Logging
import Synchronization
import CardFeedBuild
import CardFeedWrite

/// `serve`'s search index: made in the background after each good build has been served, so
/// that an edit reaches the screen as fast as without search. Builds that follow each other
/// closely (saves while typing) are indexed once, after the last; a build whose cards index
/// the same as the last indexed is not indexed again.
///
/// The index lives in a folder of its own (`folder/pagefind/`), which the handler serves at
/// `/pagefind/`: the builds update the site's folder in place, and would remove files they did
/// not make. Files are added and replaced, never removed, so that a page still searching the
/// previous index finds its chunks until it loads the new one (`onIndexed` tells the pages).
final class PreviewSearch: Sendable {
    /// Holds `pagefind/`.
    let folder: URL
    private let logger: Logger
    private let onIndexed: @Sendable () -> Void
    private let queue = DispatchQueue(label: "cardfeed.serve.search")
    /// The cards to index next, and a count of the builds handed over (to know the last).
    private let pending = Mutex<(index: SearchIndex?, handedOver: Int)>((nil, 0))
    private let indexed = Mutex<SearchIndex?>(nil)

    /// How long a build waits for a later one before it is indexed.
    static let settle = DispatchTimeInterval.milliseconds(300)

    init(folder: URL, logger: Logger, onIndexed: @escaping @Sendable () -> Void) {
        self.folder = folder
        self.logger = logger
        self.onIndexed = onIndexed
    }

    /// The cards of a good build, to index once no later build comes for a moment.
    func handOver(_ index: SearchIndex) {
        let number = pending.withLock { pending in
            pending = (index, pending.handedOver + 1)
            return pending.handedOver
        }
        queue.asyncAfter(deadline: .now() + Self.settle) { self.indexIfLast(number) }
    }

    private func indexIfLast(_ number: Int) {
        guard let index = pending.withLock({ $0.handedOver == number ? $0.index : nil }) else { return }
        guard indexed.withLock({ $0 != index }) else { return }
        let start = ContinuousClock.now
        do {
            let files = try index.files()
            for file in files { try write(file) }
            indexed.withLock { $0 = index }
            let seconds = ContinuousClock.now - start
            logger.info("Indexed \(Console.plural(index.count, "card")) for search in \(PreviewServer.format(seconds)).")
            onIndexed()
        } catch {
            logger.error("the search index was not made: \(error)")
        }
    }

    private func write(_ file: OutputFile) throws {
        guard case .data(let bytes) = file.content else { preconditionFailure("Pagefind.index gives its files as bytes") }
        let target = folder.appendingPathComponent(file.path, isDirectory: false)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try bytes.write(to: target, options: .atomic)
    }
}
