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

extension PlacementSelection {
    /// Why the placement shows no card, in the words of its warning; nil when it shows one.
    /// Empty, it is three files of no card on every page that shows it: its feed has none, its
    /// extras filter matches none of them, or the rules keep out every card it matches.
    public func whyEmpty(in selection: Selection) -> String? {
        guard cards.isEmpty else { return nil }
        let feed = placement.feed
        guard let shown = selection.feeds.first(where: { $0.feed.slug == feed })?.cards, !shown.isEmpty else {
            return "its feed \(Diagnostic.quoted(feed)) has no card to show"
        }
        let total = "\(shown.count) card\(shown.count == 1 ? "" : "s")"
        let filter = FeedMatch(extras: placement.extras)
        let matched = shown.filter { filter.matches(extras: selection.cards[$0].extras) }.count
        guard matched > 0 else {
            let wanted = placement.extras.map { "\($0.key): \($0.values.sorted().joined(separator: " or "))" }.joined(separator: ", ")
            return "its extras filter (\(wanted)) matches none of the \(feed) feed's \(total)"
        }
        let cards = matched < shown.count ? "the \(matched) of the \(feed) feed's \(total) that its extras filter matches"
            : shown.count == 1 ? "the \(feed) feed's only card" : "all \(total) of the \(feed) feed"
        return "the rules' keep_out_of keep out \(cards)"
    }
}
