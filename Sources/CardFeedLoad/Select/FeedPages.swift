import CardFeedModel

/// One page of a feed: the cards it shows, in the order it shows them, and its file.
public struct FeedPage: Sendable, Hashable {
    /// Indices into the feed's `cards` (`FeedSelection.cards`).
    public var cards: [Int]
    /// The page's file, relative to the site root (see `PagePaths`).
    public var path: String
}

/// Which cards end a page. Pages are cut where the cards themselves say, rather than every
/// `pageSize` cards from the newest, so that a new card does not move every card one place
/// (changing every page file, and what every bookmarked page shows): walked from the oldest
/// card to the newest, a page ends at, and includes, each card whose id's `hash` is a multiple
/// of the page size. A page holds `pageSize` cards on average (from one to about five times as
/// many), and adding, expiring or removing a card changes its own page only, but for a card
/// that ends a page, whose page then splits or merges with the next newer one.
package enum PageEnds {
    /// Whether the card with this id ends a page of pages of `pageSize` cards on average.
    package static func endsPage(_ id: String, pageSize: Int) -> Bool {
        pageSize > 0 && hash(id) % UInt64(pageSize) == 0
    }

    /// A hash of the id that every build, on every machine, computes the same (Swift's `Hasher`
    /// is seeded anew in each process): 64-bit FNV-1a of its UTF-8, whose low bits depend on
    /// the low bits of the bytes alone (bad for a remainder), mixed by MurmurHash3's finaliser.
    package static func hash(_ id: String) -> UInt64 {
        var id = id
        // The bytes in place: every id of a build is hashed, and `utf8`'s indices check each step.
        var hash: UInt64 = id.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}

/// Splits a feed's cards into its front page and its archive pages (see `FeedSelection`).
struct Paginator {
    /// Cards a page, on average; 0 puts each feed on its front page alone.
    let pageSize: Int
    /// The cards shown, in display order; a feed's `cards` are positions in it.
    let shown: ShownCards
    /// By display position: whether the card ends a page (`PageEnds`).
    let endsPage: [Bool]
    /// Whether the card at the first display position is newer than the one at the second,
    /// pins aside (`DisplayOrder.isNewer`).
    let isNewer: (Int, Int) -> Bool

    /// `endsPage` by display position; see `endsPage(_:pageSize:)` to make it.
    init(pageSize: Int, shown: ShownCards, endsPage: [Bool], isNewer: @escaping (Int, Int) -> Bool) {
        self.pageSize = pageSize
        self.shown = shown
        self.endsPage = endsPage
        self.isNewer = isNewer
    }

    /// Whether each of `cards` (as loaded) ends a page. Read in the order the cards were
    /// loaded, which is the order of their memory: in display order, reading each card's id
    /// would miss the processor's cache.
    static func endsPage(_ cards: [Card], pageSize: Int) -> [Bool] {
        pageSize > 0 ? cards.map { PageEnds.endsPage($0.id, pageSize: pageSize) } : []
    }

    /// The pages of `feed`, whose cards are the display positions `cards` (in display order).
    func pages(of feed: Feed, cards: [Int]) -> (front: FeedPage, archive: [FeedPage], archiveOnFront: Int) {
        let frontPath = PagePaths.front(feed)
        guard pageSize > 0 else { return (FeedPage(cards: Array(cards.indices), path: frontPath), [], 0) }
        // Pinned cards come first in display order; in the archive they stand where their date
        // puts them, as if they were not pinned: pinning is the front page's matter.
        let pinnedCount = cards.firstIndex { !shown[$0].pinned } ?? cards.count
        let byDate = pinnedCount == 0 ? Array(cards.indices) : merged(cards, pinnedCount: pinnedCount)
        var archive: [FeedPage] = []
        var older = byDate.count
        for index in byDate.indices.reversed() where endsPage[cards[byDate[index]]] {
            let path = PagePaths.archive(folder: feed.folder, endingWith: shown.anchor(at: cards[byDate[index]]))
            archive.append(FeedPage(cards: Array(byDate[index..<older]), path: path))
            older = index
        }
        archive.reverse()
        // The front page: the pinned cards, the cards newer than the newest page end (`older`
        // of them), which no other page shows, and the newest archive pages until it shows at
        // least a page's worth. Its unpinned cards are the newest, so they follow the pinned
        // ones in display order.
        var unpinned = byDate[..<older].count { $0 >= pinnedCount }
        var onFront = 0
        while pinnedCount + unpinned < pageSize, onFront < archive.count {
            unpinned += archive[onFront].cards.count { $0 >= pinnedCount }
            onFront += 1
        }
        return (FeedPage(cards: Array(0..<pinnedCount + unpinned), path: frontPath), archive, onFront)
    }

    /// The feed's cards, as indices into `cards`, newest first as if none were pinned: the
    /// pinned ones (the first `pinnedCount`) merged into the others, both already in that order.
    private func merged(_ cards: [Int], pinnedCount: Int) -> [Int] {
        var byDate: [Int] = []
        byDate.reserveCapacity(cards.count)
        var (pinned, unpinned) = (0, pinnedCount)
        while pinned < pinnedCount || unpinned < cards.count {
            if unpinned == cards.count || (pinned < pinnedCount && isNewer(cards[pinned], cards[unpinned])) {
                byDate.append(pinned)
                pinned += 1
            } else {
                byDate.append(unpinned)
                unpinned += 1
            }
        }
        return byDate
    }
}
