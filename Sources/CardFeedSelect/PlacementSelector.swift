import CardFeedModel
import CardFeedLoad

/// The cards one placement shows: display positions (indices into `Selection.cards`), in its
/// feed's order.
public struct PlacementSelection: Sendable {
    public var placement: Placement
    public var cards: [Int]
}

/// Which cards each placement shows: the first `limit` of its feed's cards, in the feed's order
/// (pinned first, then newest), that match its extras filter and that no rule keeps out of it.
/// A placement reads a feed's cards only until it has its `limit`, so ten placements cost a
/// few dozen look-ups, whatever the number of cards.
public enum PlacementSelector {
    public static func select(_ placements: [Placement], in selection: Selection, keptOut: [String: Set<String>]) -> [PlacementSelection] {
        placements.map { placement in
            guard let feed = selection.feeds.first(where: { $0.feed.slug == placement.feed }) else {
                return PlacementSelection(placement: placement, cards: [])
            }
            let filter = FeedMatch(extras: placement.extras)
            let excluded = keptOut[placement.name] ?? []
            var cards: [Int] = []
            for position in feed.cards {
                let card = selection.cards[position]
                guard filter.matches(extras: card.extras), !excluded.contains(card.id) else { continue }
                cards.append(position)
                if cards.count == placement.limit { break }
            }
            return PlacementSelection(placement: placement, cards: cards)
        }
    }
}
