import Foundation
import CardFeedModel
import CardFeedLoad
import CardFeedSystem

/// A feed's cards, split into pages: its front page, which shows the newest cards, and its
/// archive pages, which keep their cards and their addresses as newer cards arrive (see
/// `PageEnds`).
public struct FeedSelection: Sendable, Hashable {
    public var feed: Feed
    /// Display positions, in display order: indices into `Selection.cards`.
    public var cards: [Int]
    /// The front page (the feed's `index.html`): the pinned cards, then the cards newer than the
    /// newest page end, which no archive page shows yet, and the newest archive pages, as many
    /// as it takes to show at least a page's worth of cards without passing two pages' worth
    /// (every card with a page size of 0).
    /// A feed with no cards has it all the same, empty.
    public var front: FeedPage
    /// Every page that ended, newest first, also those the front page shows, so that no page
    /// comes or goes as the front page moves on.
    public var archive: [FeedPage] = []
    /// How many of the newest archive pages the front page shows; its "Older" link goes to the
    /// next one.
    public var archiveOnFront = 0
    /// Whether the navigation lists it: false for a feed without cards under `hide_empty_feeds`
    /// (its pages are written all the same).
    public var listed = true
    /// When its cards' ids defeat pages cut where the cards say (`PageEnds`), how many of its
    /// cards are page ends (for the warning): its pages are then cut every page size cards from
    /// the oldest, and move as cards come and go. Nil when they do not.
    public var pageEndsWhenPagedByCount: Int?

    /// Every page: the front page, then the archive, newest first.
    public var pages: [FeedPage] { [front] + archive }
}

/// Step 2 of a build: what is shown, in which order, on which page.
public struct Selection: Sendable {
    /// The cards shown in at least one feed, in `DisplayOrder`.
    public var cards: ShownCards
    public var feeds: [FeedSelection]
    /// Where each card's permalink points.
    public var homes = CardHomes.firstFeed
    public var hidden: [SkipReason: Int]
    public var hiddenIDs = SkippedExamples()
    /// What each placement of cardfeed.yml shows (`PlacementSelector`), set after the feeds'.
    public var placements: [PlacementSelection] = []
    /// The folder of the language tree the pages are in ("" for the root's; see `LanguageTrees`).
    public var tree = ""
}

/// Where each shown card has its permalink: its place in the first feed that shows every
/// card, or without such a feed, in the first feed that shows it.
public struct CardHomes: Sendable {
    /// The first feed that shows every card; there a card's place is its display position.
    public let everyCardFeed: Int?
    /// Without such a feed: each card's first feed and its index among that feed's cards, by
    /// display position.
    let places: [(feed: Int, index: Int)]

    /// Every card's home is the first feed, which shows every card (as the built-in "all" does).
    static let firstFeed = CardHomes(everyCardFeed: 0, places: [])

    /// The card's feed (an index into `Selection.feeds`) and its index among that feed's cards.
    public func place(of position: Int) -> (feed: Int, index: Int) {
        if let everyCardFeed { return (everyCardFeed, position) }
        return places[position]
    }
}

/// The cards shown, in display order: the loaded cards seen through the order they are shown
/// in, rather than a sorted copy of them, which would retain each string of each card and free
/// them all again.
public struct ShownCards: RandomAccessCollection, Sendable {
    private let loaded: [Card]
    /// Display position -> index in `loaded`.
    private let order: [Int]

    /// Display position -> anchor (`anchor(at:)`). Made once, on both cores: the keys, the
    /// pages, the feeds and the search each ask for every card's (at 100,000 cards, making them
    /// anew each time took a tenth of a rebuild from the cache).
    private let anchors: [String]
    /// Each anchor renamed: the earlier card's position, the later card's, and the new anchor.
    public let anchorCollisions: [(earlier: Int, later: Int, anchor: String)]

    /// With `anchorsIgnoringCase`, no two anchors differ only in case: each names a card's page,
    /// and macOS and Windows file systems do not tell `card-A.html` from `card-a.html`.
    init(_ loaded: [Card], order: [Int], anchorsIgnoringCase: Bool = false) {
        self.loaded = loaded
        self.order = order
        // With each chunk's anchors, whether a card's is hashed, or its id has a capital letter:
        // asked of every id, on one core after the anchors, it took longer than they did.
        let made = ConcurrentResults<String>(count: order.count)
        let kinds = Parallel.mapRanges(count: order.count, chunk: 4096) { range in
            var kinds = AnchorKinds()
            for position in range {
                let id = loaded[order[position]].id
                made.set(position, Formatting.anchor(for: id))
                if !kinds.hashed, !Formatting.isPlainAnchorID(id) { kinds.hashed = true }
                if anchorsIgnoringCase, !kinds.upperCase, Self.hasUpperCase(id) { kinds.upperCase = true }
            }
            return kinds
        }
        var anchors = made.values
        let found = AnchorKinds(hashed: kinds.contains { $0.hashed }, upperCase: kinds.contains { $0.upperCase })
        anchorCollisions = Self.makeUnique(&anchors, found, ignoringCase: anchorsIgnoringCase)
        self.anchors = anchors
    }

    /// What kinds of anchor some card has: a hashed one, or one with a capital letter.
    private struct AnchorKinds: Sendable {
        var hashed = false
        var upperCase = false
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    public subscript(position: Int) -> Card {
        loaded[order[position]]
    }

    /// The card's HTML id, its permalink's fragment, its `card-styles.css` selector and its feed
    /// entries' id: `Formatting.anchor`, unique among the cards shown. The one definition for all.
    public func anchor(at position: Int) -> String {
        anchors[position]
    }

    /// Renames in `anchors` (by display position) those that repeat an earlier card's; returns
    /// each renaming.
    ///
    /// Anchors are unique by construction: ids are unique after loading, so a safe id's anchor
    /// ("card-" + id) repeats no other safe id's; only a hashed anchor (an id with other
    /// characters) can equal another card's, and every such anchor ends in "-" and hex digits.
    /// When two shown cards would share an anchor, the later one in display order gets "-2"
    /// (or "-3", …: the first not used by any card), so that no card that does not collide
    /// changes its anchor, and permalinks keep working. `ignoringCase`, anchors that differ only
    /// in case count as the same; only an anchor with an upper-case letter can then collide
    /// with one that is not hashed.
    private static func makeUnique(_ anchors: inout [String], _ kinds: AnchorKinds, ignoringCase: Bool) -> [(earlier: Int, later: Int, anchor: String)] {
        let upperCase = kinds.upperCase
        guard kinds.hashed || upperCase else { return [] }
        // What makes two anchors the same.
        @Sendable func key(_ anchor: String) -> String { ignoringCase ? anchor.lowercased() : anchor }
        // Only anchors that end in "-" and hex digits can collide, or be taken by a suffix; and
        // ignoring case, when an anchor has an upper-case letter, any.
        let candidates = anchors.enumerated().filter { upperCase || Formatting.endsInDashAndHex($0.element) }.map { (position: $0.offset, anchor: $0.element) }
        // Each key made once, on both cores: lower-casing 100,000 anchors is most of the work.
        let keys = Parallel.map(count: candidates.count, chunk: 4096) { key(candidates[$0].anchor) }
        var taken = Set(keys)
        // Almost always no two are the same.
        guard taken.count < keys.count else { return [] }
        var firstHolder: [String: Int] = [:]
        var collisions: [(earlier: Int, later: Int, anchor: String)] = []
        for ((position, anchor), anchorKey) in zip(candidates, keys) {
            guard let earlier = firstHolder[anchorKey] else {
                firstHolder[anchorKey] = position
                continue
            }
            var suffix = 2
            while taken.contains(key(anchor + "-\(suffix)")) { suffix += 1 }
            let unique = anchor + "-\(suffix)"
            taken.insert(key(unique))
            firstHolder[key(unique)] = position
            anchors[position] = unique
            collisions.append((earlier, position, unique))
        }
        return collisions
    }

    /// Whether the id has an ASCII capital, read on its bytes in place: every id is asked.
    private static func hasUpperCase(_ id: String) -> Bool {
        func isCapital(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        return id.utf8.withContiguousStorageIfAvailable { $0.contains(where: isCapital) } ?? id.utf8.contains(where: isCapital)
    }
}

public struct FeedSelector: Sendable {
    /// Cards that expire at or before this time (Unix seconds) are hidden.
    public var now: Int64
    /// Cards a page, on average (see `PageEnds`); 0 puts each feed on one page.
    public var pageSize: Int
    /// Whether cards created after `now` are shown.
    public var future: FutureCards
    /// The site's feeds, in the navigation's order.
    public var feeds: [Feed]
    /// Feeds without cards are left out of the navigation.
    public var hideEmptyFeeds: Bool
    /// Each card has a page of its own, named by its anchor: anchors are then unique ignoring case.
    public var cardPages: Bool
    /// The folder of the language tree selected for ("" for the root's), whose feeds `feeds` are.
    public var tree = ""
    /// Whether a card without a language that no feed shows is counted as hidden here. Where such
    /// cards go to every language's tree (`untagged_cards: every`), the default language's tree
    /// counts them, and the others, whose feeds are the same, do not count them again.
    public var countsUntaggedCardsInNoFeed = true

    public init(now: Int64, pageSize: Int, future: FutureCards = .show, feeds: [Feed] = Feed.builtin, hideEmptyFeeds: Bool = false, cardPages: Bool = false) {
        self.now = now
        self.pageSize = pageSize
        self.future = future
        self.feeds = feeds
        self.hideEmptyFeeds = hideEmptyFeeds
        self.cardPages = cardPages
    }

    public func select(_ cards: [Card]) -> Selection {
        var hidden: [SkipReason: Int] = [:]
        var hiddenIDs = SkippedExamples()
        var shownIndices: [Int] = []
        shownIndices.reserveCapacity(cards.count)
        for index in cards.indices {
            if let reason = hiddenReason(cards[index]) {
                hidden[reason, default: 0] += 1
                hiddenIDs.add(cards[index].id, reason)
            } else {
                shownIndices.append(index)
            }
        }
        let order = DisplayOrder(cards)
        shownIndices.sort(by: order.showsBefore)
        // Read once for all the feeds that test them, as an array per card.
        let categories = feeds.contains { $0.match.hasCategoryCondition } ? shownIndices.map { cards[$0].categories } : []
        var members = feeds.map { cardsOf($0, categories: categories, among: shownIndices, in: cards) }
        let everyCardFeed = feeds.firstIndex { $0.match.matchesEveryCard }
        if everyCardFeed == nil {
            // A card that no feed shows is on no page: it is not rendered, and counted as hidden.
            var inSomeFeed = [Bool](repeating: false, count: shownIndices.count)
            for list in members { for position in list { inSomeFeed[position] = true } }
            if inSomeFeed.contains(false) {
                var newPosition = [Int](repeating: -1, count: shownIndices.count)
                var kept: [Int] = []
                for (position, index) in shownIndices.enumerated() {
                    if inSomeFeed[position] {
                        newPosition[position] = kept.count
                        kept.append(index)
                    } else if countsUntaggedCardsInNoFeed || cards[index].language != nil {
                        hidden[.inNoFeed, default: 0] += 1
                        hiddenIDs.add(cards[index].id, .inNoFeed)
                    }
                }
                shownIndices = kept
                members = members.map { $0.map { newPosition[$0] } }
            }
        }
        let shown = ShownCards(cards, order: shownIndices, anchorsIgnoringCase: cardPages)
        let hashes = Paginator.idHashes(cards, pageSize: pageSize)
        let paginator = Paginator(pageSize: pageSize, shown: shown, idHashes: hashes.isEmpty ? [] : shownIndices.map { hashes[$0] }) { [shownIndices] a, b in
            order.isNewer(shownIndices[a], shownIndices[b])
        }
        let selections = zip(feeds, members).map { feed, cards in
            let (front, archive, archiveOnFront, byCount) = paginator.pages(of: feed, cards: cards)
            return FeedSelection(feed: feed, cards: cards, front: front, archive: archive, archiveOnFront: archiveOnFront, listed: !hideEmptyFeeds || !cards.isEmpty, pageEndsWhenPagedByCount: byCount)
        }
        return Selection(cards: shown, feeds: selections, homes: homes(selections, everyCardFeed: everyCardFeed, count: shown.count), hidden: hidden, hiddenIDs: hiddenIDs, tree: tree)
    }

    /// The display positions of the cards `feed` shows, of the cards at `shownIndices` of
    /// `cards`, whose categories are `categories` (by display position).
    private func cardsOf(_ feed: Feed, categories: [[FeedCategory]], among shownIndices: [Int], in cards: [Card]) -> [Int] {
        let match = feed.match
        if match.matchesEveryCard { return Array(shownIndices.indices) }
        if match.extras.isEmpty {
            // The built-in feeds: one category, or none, is the common case, and the quickest test.
            if match.categories.isEmpty { return categories.indices.filter { categories[$0].isEmpty } }
            if !match.uncategorized, match.categories.count == 1 {
                let category = match.categories[0]
                return categories.indices.filter { categories[$0].contains(category) }
            }
            return categories.indices.filter { match.matches(categories: categories[$0]) }
        }
        return shownIndices.indices.filter { position in
            (!match.hasCategoryCondition || match.matches(categories: categories[position])) && match.matches(extras: cards[shownIndices[position]].extras)
        }
    }

    /// Each card's first feed, when no feed shows every card.
    private func homes(_ feeds: [FeedSelection], everyCardFeed: Int?, count: Int) -> CardHomes {
        guard everyCardFeed == nil else { return CardHomes(everyCardFeed: everyCardFeed, places: []) }
        var places = [(feed: Int, index: Int)](repeating: (-1, -1), count: count)
        for (feedIndex, feed) in feeds.enumerated() {
            for (index, position) in feed.cards.enumerated() where places[position].feed < 0 {
                places[position] = (feedIndex, index)
            }
        }
        return CardHomes(everyCardFeed: nil, places: places)
    }

    /// Braze's rules: removed, dismissed, expired and control cards are never shown. Android
    /// treats `expires_at == now` as expired, and so do we.
    package func hiddenReason(_ card: Card) -> SkipReason? {
        if card.removed { return .removed }
        if card.type == .control { return .control }
        if card.dismissed { return .dismissed }
        if let expiresAt = card.expiresAt, expiresAt <= now { return .expired }
        if future == .hide && isFuture(card) { return .future }
        return nil
    }

    /// Created after the build's time: a card written by hand for later (Braze never sends one).
    package func isFuture(_ card: Card) -> Bool { (card.created ?? 0) > now }
}
