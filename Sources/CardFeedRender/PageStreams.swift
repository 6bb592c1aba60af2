import Dispatch
import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem
import CardFeedWrite

/// Where the renderer puts the cards it rendered, a batch at a time, in display order.
protocol RenderedCards: AnyObject, Sendable {
    /// Takes the HTML of the cards at display positions `positions`, which follow the last batch's.
    func append(_ html: [[UInt8]], at positions: Range<Int>) throws
}

/// Every page of every feed, written while the cards render: the one way a page is assembled.
///
/// A feed shows its cards in display order, the order they render in, so each feed puts a card
/// into its pages as soon as the card's batch is rendered: its front page, and its archive
/// page, each run of pages a page at a time. No card is kept once its batch is in its pages
/// (but a pinned card, which renders first and stands at its date in the archive), the feeds
/// are written on both cores while the next batch renders, and each feed has at most two files
/// open at a time. Where the target already holds a page made of the same (serve), the page is
/// skipped.
final class PageStreams: RenderedCards, Sendable {
    /// One feed's pages: which cards they show, and the text around their cards.
    struct FeedPages {
        /// Its cards, in display order (ascending positions), and its pages (`pages`: the front
        /// page, then the archive, newest first), each with its cards and its path.
        var feed: FeedSelection
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
    /// By feed and page (as `FeedSelection.pages`): whether the target holds the page as made
    /// from its key already (`OutputTarget.holds`), asked once for every page before any card
    /// arrives, so that the renderer knows which cards the pages it makes show (`cardsOnPagesMade`).
    let held: [[Bool]]

    /// A feed's writer behind its lock. The writer stays a class inside it: as a struct
    /// written in place, each card copied the page's frame (retaining its arrays).
    private final class Locked: Sendable {
        let writer: Mutex<FeedWriter>
        init(_ writer: sending FeedWriter) { self.writer = Mutex(writer) }
    }

    /// Pages written into `target`, which is given the folders they go in.
    init(_ feeds: [FeedPages], into target: any OutputTarget) throws {
        for feed in feeds {
            precondition(feed.keys.map { $0.count == feed.feed.archive.count + 1 } ?? true, "a key for each page")
            precondition(zip(feed.feed.cards, feed.feed.cards.dropFirst()).allSatisfy { $0 < $1 }, "a feed's cards in display order")
        }
        // The folders first: a target compares (and holds) a page only in a folder it has made.
        try target.createFolders(PagePaths.folders(containing: feeds.flatMap { $0.feed.pages.map(\.path) }))
        let held = Self.held(feeds, by: target)
        self.held = held
        self.feeds = zip(feeds, held).map { Locked(FeedWriter($0, held: $1, into: target)) }
    }

    /// Each page's `holds`, on both cores: at 100,000 cards a feed has thousands of pages.
    private static func held(_ feeds: [FeedPages], by target: any OutputTarget) -> [[Bool]] {
        feeds.map { feed in
            guard let keys = feed.keys else { return [Bool](repeating: false, count: feed.feed.archive.count + 1) }
            let paths = feed.feed.pages.map(\.path)
            return Parallel.map(count: keys.count, chunk: 256) { target.holds(paths[$0], madeFrom: keys[$0]) }
        }
    }

    /// By display position, of `count` cards: whether a page this stream makes (one the
    /// target does not hold) shows the card, its front page or its archive.
    func cardsOnPagesMade(count: Int) -> [Bool] {
        var shown = [Bool](repeating: false, count: count)
        for (feed, held) in zip(feeds, held) {
            let selection = feed.writer.withLock { $0.pages.feed }
            for (page, isHeld) in zip(selection.pages, held) where !isHeld {
                for card in page.cards { shown[selection.cards[card]] = true }
            }
        }
        return shown
    }

    func append(_ html: [[UInt8]], at positions: Range<Int>) throws {
        next.withLock { next in
            precondition(positions.lowerBound == next && positions.count == html.count, "cards must come in display order")
            next = positions.upperBound
        }
        let failures = ConcurrentResults<Error?>(count: feeds.count)
        Parallel.perform(iterations: feeds.count) { index in
            do {
                try feeds[index].writer.withLock { try $0.write(html, at: positions) }
                failures.set(index, nil)
            } catch {
                failures.set(index, error)
            }
        }
        if let failure = failures.values.lazy.compactMap({ $0 }).first { throw failure }
    }

    /// Ends every feed's last pages, and writes the pages that show no cards (an empty feed's
    /// front page). Every card must have been appended (each `append` returned).
    func finish() throws {
        for feed in feeds { try feed.writer.withLock { try $0.finish() } }
    }

    /// Pages written one after another, each as its cards arrive: a feed's front page, or its
    /// archive from the newest page.
    private final class Run {
        /// Indices into the feed's pages.
        let pages: [Int]
        /// The page being written, as an index into `pages` (-1 before the first), and the next
        /// of its cards.
        var page = -1
        var offset = 0
        /// The largest of the feed's card indices written so far: a card after it in the run
        /// that is smaller arrived before the run could take it, and waits (see `waiting`).
        var newest = -1
        var sink: OutputSink?
        var frame: PageFrame?
        /// The page's cards so far, kept only when its frame shows them more than once: the
        /// first hole is filled as they come, the others when the page ends.
        var kept: [[UInt8]] = []

        init(pages: [Int]) { self.pages = pages }

        /// The feed's page being written, as an index into the feed's pages.
        var current: Int { pages[page] }
        /// The feed's page after it, if any.
        var next: Int? { page + 1 < pages.count ? pages[page + 1] : nil }
    }

    private final class FeedWriter {
        let pages: FeedPages
        /// `pages.feed.pages`, made once.
        let feedPages: [FeedPage]
        let target: any OutputTarget
        let runs: [Run]
        /// The next of the feed's cards to arrive, as an index into `pages.feed.cards`.
        var arrived = 0
        /// The cards that arrive before a run takes them (a pinned card, which renders first,
        /// stands at its date in the archive), by index into the feed's cards: the HTML, and
        /// how many more times a run takes it.
        var waiting: [Int: (html: [UInt8], uses: Int)] = [:]
        /// How many times the runs take each such card, by index into the feed's cards.
        let uses: [Int: Int]
        /// By page: the target holds it already, and it is not made again.
        let held: [Bool]

        init(_ pages: FeedPages, held: [Bool], into target: any OutputTarget) {
            self.pages = pages
            self.held = held
            feedPages = pages.feed.pages
            self.target = target
            runs = [Run(pages: [0]), Run(pages: Array(feedPages.indices.dropFirst()))]
            var uses: [Int: Int] = [:]
            for run in runs {
                var newest = -1
                for page in run.pages {
                    for card in feedPages[page].cards {
                        if card < newest { uses[card, default: 0] += 1 } else { newest = card }
                    }
                }
            }
            self.uses = uses
        }

        func write(_ html: [[UInt8]], at positions: Range<Int>) throws {
            let cards = pages.feed.cards
            let first = arrived
            while arrived < cards.count, cards[arrived] < positions.upperBound {
                if let count = uses[arrived] { waiting[arrived] = (html[cards[arrived] - positions.lowerBound], count) }
                arrived += 1
            }
            guard arrived > first else { return }
            for run in runs {
                try advance(run) { index in html[cards[index] - positions.lowerBound] }
            }
        }

        func finish() throws {
            precondition(arrived == pages.feed.cards.count, "a feed is missing cards")
            for run in runs {
                try advance(run) { _ in preconditionFailure("every card is written when it arrives") }
                while run.next != nil { try beginNextPage(run) }
                try endPage(run)
            }
            precondition(waiting.isEmpty, "every waiting card is written")
        }

        /// Writes the run's cards that have arrived, beginning its pages as their first card
        /// arrives; `arrivedNow` gives the HTML of a card of the batch that just arrived.
        private func advance(_ run: Run, arrivedNow: (Int) -> [UInt8]) throws {
            while true {
                if run.page < 0 || run.offset == feedPages[run.current].cards.count {
                    guard let next = run.next, let first = feedPages[next].cards.first, first < arrived else { return }
                    try beginNextPage(run)
                }
                let card = feedPages[run.current].cards[run.offset]
                guard card < arrived else { return }
                let html: [UInt8]
                if card < run.newest {
                    let (kept, left) = waiting[card]!
                    html = kept
                    waiting[card] = left > 1 ? (kept, left - 1) : nil
                } else {
                    html = arrivedNow(card)
                    run.newest = card
                }
                if let frame = run.frame, let sink = run.sink, !frame.holes.isEmpty {
                    try naming(run) { try frame.writeCard(html, hole: 0, to: sink) }
                    if frame.holes.count > 1 { run.kept.append(html) }
                }
                run.offset += 1
            }
        }

        private func beginNextPage(_ run: Run) throws {
            try endPage(run)
            run.page += 1
            run.offset = 0
            guard !held[run.current] else { return }
            let path = feedPages[run.current].path
            let sink = try naming(run) { try target.open(path) }
            let frame = try pages.frame(run.current)
            try naming(run) { try frame.writeText(before: 0, to: sink) }
            run.frame = frame
            run.sink = sink
        }

        private func endPage(_ run: Run) throws {
            guard let sink = run.sink, let frame = run.frame else { return }
            try naming(run) {
                if !frame.holes.isEmpty {
                    for hole in 1..<frame.holes.count {
                        try frame.writeText(before: hole, to: sink)
                        for card in run.kept { try frame.writeCard(card, hole: hole, to: sink) }
                    }
                    try frame.writeText(before: frame.holes.count, to: sink)
                }
                try target.close(sink, path: feedPages[run.current].path)
            }
            run.sink = nil
            run.frame = nil
            run.kept = []
        }

        /// Runs `body`, whose failure names the run's page by its path in the output, as the
        /// writer's do, rather than by its path in the folder being built.
        private func naming<T>(_ run: Run, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as OutputError {
                throw OutputError(path: feedPages[run.current].path, code: error.code)
            }
        }
    }
}
