import Foundation
import CardFeedModel

/// A feed's cards, split into pages.
public struct FeedSelection: Sendable, Hashable {
    public var feed: Feed
    /// Indices into `Selection.cards`, in display order.
    public var cards: [Int]
    /// Each page's slice of `cards`; a feed with no cards still has one (empty) page.
    public var pages: [Range<Int>]
}

/// Step 2 of a build: what is shown, in which order, on which page.
public struct Selection: Sendable {
    /// The cards shown in at least one feed, in `DisplayOrder`.
    public var cards: ShownCards
    public var feeds: [FeedSelection]
    public var hidden: [SkipReason: Int]
    public var hiddenIDs = SkippedExamples()
}

/// The cards shown, in display order: the loaded cards seen through the order they are shown
/// in, rather than a sorted copy of them (copying a million cards into order, when a copy still
/// retained each of a card's strings, took 1.3 s, and freeing the copy as long again).
public struct ShownCards: RandomAccessCollection, Sendable {
    private let loaded: [Card]
    /// Display position -> index in `loaded`.
    private let order: [Int]

    /// Display position -> anchor, for the cards whose anchor would repeat an earlier card's.
    private let renamedAnchors: [Int: String]
    /// Each renamed anchor: the earlier card's position, the later card's, and the new anchor.
    public let anchorCollisions: [(earlier: Int, later: Int, anchor: String)]

    init(_ loaded: [Card], order: [Int]) {
        self.loaded = loaded
        self.order = order
        (renamedAnchors, anchorCollisions) = Self.uniqueAnchors(loaded, order)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { order.count }

    public subscript(position: Int) -> Card {
        _read { yield loaded[order[position]] }
    }

    /// The card's HTML id, its permalink's fragment, its `card-styles.css` selector and its feed
    /// entries' id: `Formatting.anchor`, unique among the cards shown. The one definition for all.
    public func anchor(at position: Int) -> String {
        // Almost always none is renamed: then the dictionary is not hashed into for every card.
        (renamedAnchors.isEmpty ? nil : renamedAnchors[position]) ?? Formatting.anchor(for: self[position].id)
    }

    /// Anchors are unique by construction: ids are unique after loading, so a safe id's anchor
    /// ("card-" + id) repeats no other safe id's; only a hashed anchor (an id with other
    /// characters) can equal another card's, and every such anchor ends in "-" and hex digits.
    /// When two shown cards would share an anchor, the later one in display order gets "-2"
    /// (or "-3", …: the first not used by any card), so that no card that does not collide
    /// changes its anchor, and permalinks keep working.
    private static func uniqueAnchors(_ loaded: [Card], _ order: [Int]) -> ([Int: String], [(earlier: Int, later: Int, anchor: String)]) {
        var hashed = false
        for index in order where !Formatting.isPlainAnchorID(loaded[index].id) {
            hashed = true
            break
        }
        guard hashed else { return ([:], []) }
        // Only anchors that end in "-" and hex digits can collide, or be taken by a suffix.
        var candidates: [(position: Int, anchor: String)] = []
        for (position, index) in order.enumerated() {
            let anchor = Formatting.anchor(for: loaded[index].id)
            if Formatting.endsInDashAndHex(anchor) { candidates.append((position, anchor)) }
        }
        var taken = Set(candidates.map(\.anchor))
        var firstHolder: [String: Int] = [:]
        var renamed: [Int: String] = [:]
        var collisions: [(earlier: Int, later: Int, anchor: String)] = []
        for (position, anchor) in candidates {
            guard let earlier = firstHolder[anchor] else {
                firstHolder[anchor] = position
                continue
            }
            var suffix = 2
            while taken.contains(anchor + "-\(suffix)") { suffix += 1 }
            let unique = anchor + "-\(suffix)"
            taken.insert(unique)
            firstHolder[unique] = position
            renamed[position] = unique
            collisions.append((earlier, position, unique))
        }
        return (renamed, collisions)
    }
}

public struct FeedSelector: Sendable {
    /// Cards that expire at or before this time (Unix seconds) are hidden.
    public var now: Int64
    /// Cards a page; 0 puts each feed on one page.
    public var pageSize: Int
    /// Whether cards created after `now` are shown.
    public var future: FutureCards

    public init(now: Int64, pageSize: Int, future: FutureCards = .show) {
        self.now = now
        self.pageSize = pageSize
        self.future = future
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
        return Selection(cards: shown, feeds: feeds, hidden: hidden, hiddenIDs: hiddenIDs)
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

    func paginate(_ count: Int) -> [Range<Int>] {
        guard pageSize > 0, count > pageSize else { return [0..<count] }
        return stride(from: 0, to: count, by: pageSize).map { $0..<min($0 + pageSize, count) }
    }
}
