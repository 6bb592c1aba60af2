import Foundation

/// A feed's cards, split into pages.
public struct FeedSelection: Sendable {
    public var feed: Feed
    /// Indices into `Selection.cards`, in display order.
    public var cards: [Int]
    /// Each page's slice of `cards`; a feed with no cards still has one (empty) page.
    public var pages: [Range<Int>]
}

/// Step 2 of a build: what is shown, in which order, on which page.
public struct Selection: Sendable {
    /// The cards shown in at least one feed, sorted: pinned first, then newest first, then by id.
    public var cards: ShownCards
    public var feeds: [FeedSelection]
    public var hidden: [SkipReason: Int]
}

/// The cards shown, in display order: the loaded cards seen through the order they are shown
/// in, rather than a sorted copy of them (copying a million cards into order, when a copy still
/// retained each of a card's strings, took 1.3 s, and freeing the copy as long again).
public struct ShownCards: RandomAccessCollection, Sendable {
    private let loaded: [Card]
    /// Display position -> index in `loaded`.
    private let order: [Int]

    init(_ loaded: [Card], order: [Int]) {
        self.loaded = loaded
        self.order = order
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    public subscript(position: Int) -> Card {
        _read { yield loaded[order[position]] }
    }
}

public struct FeedSelector: Sendable {
    /// Cards that expire at or before this time (Unix seconds) are hidden.
    public var now: Int64
    /// Cards a page; 0 puts each feed on one page.
    public var pageSize: Int

    public init(now: Int64, pageSize: Int) {
        self.now = now
        self.pageSize = pageSize
    }

    public func select(_ cards: [Card]) -> Selection {
        var hidden: [SkipReason: Int] = [:]
        var shownIndices: [Int] = []
        shownIndices.reserveCapacity(cards.count)
        for index in cards.indices {
            if let reason = hiddenReason(cards[index]) {
                hidden[reason, default: 0] += 1
            } else {
                shownIndices.append(index)
            }
        }
        // Sort positions by precomputed keys, read once per card rather than once per comparison.
        let pinned = cards.indices.map { cards[$0].pinned }
        let times = cards.indices.map { cards[$0].sortTime }
        shownIndices.sort { a, b in
            if pinned[a] != pinned[b] { return pinned[a] }
            if times[a] != times[b] { return times[a] > times[b] }
            if cards[a].id != cards[b].id { return cards[a].id < cards[b].id }
            return cards[a].source.order < cards[b].source.order
        }
        let shown = ShownCards(cards, order: shownIndices)
        let categories = shownIndices.map { cards[$0].categories }
        let feeds = Feed.allCases.map { feed in
            let members: [Int]
            switch feed {
            case .all: members = Array(shown.indices)
            case .category(let category): members = categories.indices.filter { categories[$0].contains(category) }
            case .uncategorized: members = categories.indices.filter { categories[$0].isEmpty }
            }
            return FeedSelection(feed: feed, cards: members, pages: paginate(members.count))
        }
        return Selection(cards: shown, feeds: feeds, hidden: hidden)
    }

    /// Braze's rules: removed, dismissed, expired and control cards are never shown. Android
    /// treats `expires_at == now` as expired, and so do we.
    func hiddenReason(_ card: Card) -> SkipReason? {
        if card.removed { return .removed }
        if card.type == .control { return .control }
        if card.dismissed { return .dismissed }
        if let expiresAt = card.expiresAt, expiresAt <= now { return .expired }
        return nil
    }

    func paginate(_ count: Int) -> [Range<Int>] {
        guard pageSize > 0, count > pageSize else { return [0..<count] }
        return stride(from: 0, to: count, by: pageSize).map { $0..<min($0 + pageSize, count) }
    }
}
