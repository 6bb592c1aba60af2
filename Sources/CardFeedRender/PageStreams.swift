import Dispatch
import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedWrite

/// Where the renderer puts the cards it rendered, a batch at a time, in display order.
protocol RenderedCards: AnyObject, Sendable {
    /// Takes the HTML of the cards at display positions `positions`, which follow the last batch's.
    func append(_ html: [[UInt8]], at positions: Range<Int>) throws
}

/// Every page of every feed, written while the cards render: the one way a page is assembled.
///
/// A feed shows its cards in display order, the order they render in, so each feed puts a card
/// into its current page as soon as the card's batch is rendered, and begins its next page when
/// that one is full. No card is kept once its batch is in its pages, the feeds are written on
/// both cores while the next batch renders, and each feed has one file open at a time. Where the
/// target already holds a page made of the same (serve), the page is skipped.
final class PageStreams: RenderedCards, Sendable {
    /// One feed's pages: which cards they show, where they go, and the text around their cards.
    struct FeedPages {
        /// Its cards, in display order (ascending positions), and its pages' slices of them.
        var feed: FeedSelection
        /// Where each of `feed.pages` goes, relative to the output.
        var paths: [String]
        /// For each page, a hash of everything it is made of; a page whose key the target says
        /// it holds already is not made again (see `OutputTarget.holds`).
        var keys: [Int]? = nil
        /// Page `index`'s frame, asked for when the page is begun.
        var frame: @Sendable (_ index: Int) throws -> PageFrame
    }

    /// Written by one thread at a time: batches come one after another, and in a batch each
    /// feed is written by one worker (so their locks are never contended).
    private let feeds: [Locked]
    /// The display position the next batch begins at.
    private let next = Mutex(0)

    /// A feed's writer behind its lock. The writer stays a class inside it: as a struct
    /// written in place, each card copied the page's frame (retaining its arrays).
    private final class Locked: Sendable {
        let writer: Mutex<FeedWriter>
        init(_ writer: sending FeedWriter) { self.writer = Mutex(writer) }
    }

    /// Pages written into `target`, which is given the folders they go in.
    init(_ feeds: [FeedPages], into target: any OutputTarget) throws {
        for feed in feeds {
            precondition(feed.paths.count == feed.feed.pages.count, "a path for each page")
            precondition(zip(feed.feed.cards, feed.feed.cards.dropFirst()).allSatisfy { $0 < $1 }, "a feed's cards in display order")
        }
        try target.createFolders(PagePaths.folders(containing: feeds.flatMap(\.paths)))
        self.feeds = feeds.map { Locked(FeedWriter($0, into: target)) }
    }

    func append(_ html: [[UInt8]], at positions: Range<Int>) throws {
        next.withLock { next in
            precondition(positions.lowerBound == next && positions.count == html.count, "cards must come in display order")
            next = positions.upperBound
        }
        let failures = ConcurrentResults<Error?>(count: feeds.count)
        DispatchQueue.concurrentPerform(iterations: feeds.count) { index in
            do {
                try feeds[index].writer.withLock { try $0.write(html, at: positions) }
                failures.set(index, nil)
            } catch {
                failures.set(index, error)
            }
        }
        if let failure = failures.values.lazy.compactMap({ $0 }).first { throw failure }
    }

    /// Ends every feed's last page, and writes the pages that show no cards (an empty feed's
    /// one page). Every card must have been appended (each `append` returned).
    func finish() throws {
        for feed in feeds { try feed.writer.withLock { try $0.finish() } }
    }

    private final class FeedWriter {
        let pages: FeedPages
        let target: any OutputTarget
        /// The next of the feed's cards to write, as an index into `pages.feed.cards`.
        var next = 0
        /// The page being written (-1 before the first), its file and its frame.
        var page = -1
        var sink: OutputSink?
        var frame: PageFrame?
        /// The page's cards so far, kept only when its frame shows them more than once: the
        /// first hole is filled as they come, the others when the page ends.
        var kept: [[UInt8]] = []

        init(_ pages: FeedPages, into target: any OutputTarget) {
            self.pages = pages
            self.target = target
        }

        func write(_ html: [[UInt8]], at positions: Range<Int>) throws {
            let cards = pages.feed.cards
            while next < cards.count, cards[next] < positions.upperBound {
                if page < 0 || next == pages.feed.pages[page].upperBound { try beginNextPage() }
                let card = html[cards[next] - positions.lowerBound]
                if let frame, !frame.holes.isEmpty {
                    try naming { try frame.writeCard(card, hole: 0, to: sink!) }
                    if frame.holes.count > 1 { kept.append(card) }
                }
                next += 1
            }
        }

        func finish() throws {
            precondition(next == pages.feed.cards.count, "a feed is missing cards")
            while page + 1 < pages.paths.count { try beginNextPage() }
            try endPage()
        }

        private func beginNextPage() throws {
            try endPage()
            page += 1
            if let key = pages.keys?[page], target.holds(pages.paths[page], madeFrom: key) { return }
            let sink = try naming { try target.open(pages.paths[page]) }
            let frame = try pages.frame(page)
            try naming { try frame.writeText(before: 0, to: sink) }
            self.frame = frame
            self.sink = sink
        }

        private func endPage() throws {
            guard let sink, let frame else { return }
            try naming {
                if !frame.holes.isEmpty {
                    for hole in 1..<frame.holes.count {
                        try frame.writeText(before: hole, to: sink)
                        for card in kept { try frame.writeCard(card, hole: hole, to: sink) }
                    }
                    try frame.writeText(before: frame.holes.count, to: sink)
                }
                try target.close(sink, path: pages.paths[page])
            }
            self.sink = nil
            self.frame = nil
            kept = []
        }

        /// Runs `body`, whose failure names the page by its path in the output, as the writer's
        /// do, rather than by its path in the folder being built.
        private func naming<T>(_ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as OutputError {
                throw OutputError(path: pages.paths[page], code: error.code)
            }
        }
    }
}
