import CardFeedModel
import CardFeedLoad

/// One page of a feed: the cards it shows, in the order it shows them, and its file.
public struct FeedPage: Sendable, Hashable {
    /// Indices into the feed's `cards` (`FeedSelection.cards`).
    public var cards: [Int]
    /// The page's file, relative to the site root (see `PagePaths`).
    public var path: String
}

/// Which cards end a page. Pages are cut where the cards themselves say, rather than every
/// `pageSize` cards from the newest, so that a new card does not move every card one place
/// (changing every page file, and what every bookmarked page shows). As content-defined
/// chunking cuts a file (rsync, FastCDC), walked from the oldest card to the newest, a page
/// ends at, and includes:
/// - each card whose id's `hash` is a multiple of the page size (a page end), so pages hold
///   `pageSize` cards on average, and adding, expiring or removing a card changes its own page
///   only, but for a page end, whose page then splits or merges with the next newer one;
/// - where a page would hold more than `2 × pageSize` cards (one run in e² between page ends
///   for ordinary ids), its card of the smallest hash that leaves half a page on each side,
///   and within each side likewise. The cuts depend on the run's cards alone, so a card coming
///   or going elsewhere never moves them.
/// Ids whose page ends are far more or far fewer than chance gives, or that leave a run of 40
/// page sizes without one (ids chosen, or all alike), defeat the scheme: their feed is cut
/// every `pageSize` cards from the oldest instead, and the build warns
/// (`FeedSelection.pageEndsWhenPagedByCount`), since such pages move as cards come and go.
/// Where the page ends and those cuts make archive pages of more than `1.5 × pageSize` cards on
/// average (a small feed, whose page ends are too few for the statistics to tell chance from
/// choice), runs are cut wherever they pass `1.5 × pageSize` instead (a card coming or going
/// that moves the average across that line then moves the cuts of such a feed, whose pages are few).
/// No archive page holds more than `2 × pageSize` cards, and pages average close to `pageSize`
/// (0.83 times it for `card-0` … `card-99999`: 16.5 cards at 20, none over 40, where the page ends alone made pages of up to 197).
package enum PageEnds {
    /// Whether the card with this id is a page end (see above) in pages of `pageSize` cards.
    package static func endsPage(_ id: String, pageSize: Int) -> Bool {
        pageSize > 0 && hash(id) % UInt64(pageSize) == 0
    }

    /// The longest run without a page end that ordinary ids give: at 40 page sizes, one run in
    /// e^40.
    static let longestRun = 40

    /// The positions (oldest first) of the cards that end a page, of cards whose ids' hashes
    /// are `hashes`, oldest first; whether the ids defeat the scheme (pages then cut by count);
    /// and how many of the cards are page ends, for the warning that says so.
    package static func ends(_ hashes: [UInt64], pageSize: Int) -> (ends: [Int], byCount: Bool, pageEnds: Int) {
        guard pageSize > 0 else { return ([], false, 0) }
        let pageEnds = hashes.indices.filter { hashes[$0] % UInt64(pageSize) == 0 }
        // The cards from one page end to the next, that one included, and the newest ones after the last.
        let runs = zip([-1] + pageEnds, pageEnds.map { $0 + 1 } + [hashes.count]).map { $0 + 1..<$1 }
        if defeat(pageEnds: pageEnds.count, among: hashes.count, pageSize: pageSize) || runs.contains(where: { $0.count > longestRun * pageSize }) {
            return (Array(stride(from: pageSize - 1, to: hashes.count, by: pageSize)), true, pageEnds.count)
        }
        let ends = (pageEnds + runs.flatMap { cuts($0, hashes, pageSize: pageSize) }).sorted()
        // Too few page ends for the statistics above to tell (a small feed, by chance or by
        // choice) can still leave pages of one and a half page sizes on average: such a feed's
        // runs are cut wherever they pass that instead, so that no page does.
        guard let last = ends.last, 2 * (last + 1) > 3 * pageSize * ends.count else { return (ends, false, pageEnds.count) }
        return ((pageEnds + runs.flatMap { cuts($0, hashes, pageSize: pageSize, longest: 3 * pageSize / 2) }).sorted(), false, pageEnds.count)
    }

    /// Where a run of cards (whose last card may end a page, none of the others does) is cut, in
    /// order: nowhere when it fits on a page of `longest` cards (`2 × pageSize` unless said);
    /// else at its card of the smallest hash (the older of two equal) that leaves half a page on
    /// each side, and within each side likewise.
    static func cuts(_ run: Range<Int>, _ hashes: [UInt64], pageSize: Int, longest: Int? = nil) -> [Int] {
        let half = max(1, pageSize / 2)
        let longest = longest ?? 2 * pageSize
        var cuts: [Int] = []
        var parts = [run]
        while let part = parts.popLast() {
            guard part.count > longest else { continue }
            let cut = (part.lowerBound + half - 1...part.upperBound - half - 1).min { (hashes[$0], $0) < (hashes[$1], $1) }!
            cuts.append(cut)
            parts += [part.lowerBound..<cut + 1, cut + 1..<part.upperBound]
        }
        return cuts.sorted()
    }

    /// Whether `count` cards of which `pageEnds` are page ends (one in `pageSize` by chance) are
    /// too far from chance to be ids that nobody chose: more than five standard deviations and
    /// two cards off, which random ids are about once in three million feeds.
    static func defeat(pageEnds: Int, among count: Int, pageSize: Int) -> Bool {
        guard pageSize > 1 else { return false }
        let expected = Double(count) / Double(pageSize)
        let deviation = (expected * (1 - 1 / Double(pageSize))).squareRoot()
        return abs(Double(pageEnds) - expected) > 5 * deviation + 2
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
    /// By display position: the hash of the card's id (`PageEnds.hash`).
    let idHashes: [UInt64]
    /// Whether the card at the first display position is newer than the one at the second,
    /// pins aside (`DisplayOrder.isNewer`).
    let isNewer: (Int, Int) -> Bool

    /// `idHashes` by display position; see `idHashes(_:pageSize:)` to make it.
    init(pageSize: Int, shown: ShownCards, idHashes: [UInt64], isNewer: @escaping (Int, Int) -> Bool) {
        self.pageSize = pageSize
        self.shown = shown
        self.idHashes = idHashes
        self.isNewer = isNewer
    }

    /// The hash of each of `cards`' ids (as loaded). Read in the order the cards were loaded,
    /// which is the order of their memory: in display order, reading each card's id would miss
    /// the processor's cache.
    static func idHashes(_ cards: [Card], pageSize: Int) -> [UInt64] {
        // (Each id read in place: a closure given each card would copy it whole.)
        pageSize > 0 ? cards.indices.map { PageEnds.hash(cards[$0].id) } : []
    }

    /// The pages of `feed`, whose cards are the display positions `cards` (in display order),
    /// and, when they are cut by count (`PageEnds`), how many of the cards are page ends.
    func pages(of feed: Feed, cards: [Int]) -> (front: FeedPage, archive: [FeedPage], archiveOnFront: Int, byCount: Int?) {
        let frontPath = PagePaths.front(feed)
        guard pageSize > 0 else { return (FeedPage(cards: Array(cards.indices), path: frontPath), [], 0, nil) }
        // Pinned cards come first in display order; in the archive they stand where their date
        // puts them, as if they were not pinned: pinning is the front page's matter.
        let pinnedCount = cards.firstIndex { !shown[$0].pinned } ?? cards.count
        let byDate = pinnedCount == 0 ? Array(cards.indices) : merged(cards, pinnedCount: pinnedCount)
        let (ends, byCount, pageEnds) = PageEnds.ends(byDate.reversed().map { idHashes[cards[$0]] }, pageSize: pageSize)
        var archive: [FeedPage] = []
        var older = byDate.count
        for end in ends {
            let index = byDate.count - 1 - end
            let path = PagePaths.archive(folder: feed.folder, endingWith: shown.anchor(at: cards[byDate[index]]))
            archive.append(FeedPage(cards: Array(byDate[index..<older]), path: path))
            older = index
        }
        archive.reverse()
        // The front page: the pinned cards, the cards newer than the newest page end (`older`
        // of them), which no other page shows, and the newest archive pages until it shows at
        // least a page's worth, as long as it holds at most two pages' worth, pinned cards
        // counted: they are cards on the page like any other. Its unpinned cards are the newest,
        // so they follow the pinned ones in display order.
        var unpinned = byDate[..<older].count { $0 >= pinnedCount }
        var onFront = 0
        while pinnedCount + unpinned < pageSize, onFront < archive.count {
            let more = archive[onFront].cards.count { $0 >= pinnedCount }
            guard pinnedCount + unpinned + more <= 2 * pageSize else { break }
            unpinned += more
            onFront += 1
        }
        return (FeedPage(cards: Array(0..<pinnedCount + unpinned), path: frontPath), archive, onFront, byCount ? pageEnds : nil)
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
