import CardFeedModel
import CardFeedLoad
/// A feed of cardfeed.yml that no card matches, shown or not, is most likely a typo in its
/// category or extras: a warning names the feed and what it asks for, with the values the
/// cards have (and the one probably meant).
package struct FeedCheck {
    let cards: [Card]

    package init(cards: [Card]) { self.cards = cards }

    package func warnings(_ feeds: [ConfiguredFeed]) -> [Diagnostic] {
        feeds.enumerated().compactMap { number, configured in
            let match = configured.feed.match
            guard !match.matchesEveryCard, !cards.contains(where: match.matches) else { return nil }
            return Diagnostic(
                .warning, file: configured.file, line: configured.line, column: configured.column, field: "feeds[\(number + 1)]",
                message: "the feed \(Diagnostic.quoted(configured.feed.slug)) matches no card: \(reason(match)); its pages show the empty state")
        }
    }

    /// Which condition finds nothing, with what the cards have instead.
    func reason(_ match: FeedMatch) -> String {
        if match.hasCategoryCondition, !cards.contains(where: { match.matches(categories: $0.categories) }) {
            let wanted = match.categories.map(\.rawValue) + (match.uncategorized ? ["uncategorized"] : [])
            return "no card has the categor\(wanted.count == 1 ? "y" : "ies") \(wanted.joined(separator: ", "))"
        }
        for condition in match.extras where !cards.contains(where: { FeedMatch(extras: [condition]).matches(extras: $0.extras) }) {
            let values = Set(cards.flatMap { $0.extras.filter { $0.key == condition.key }.map(\.value) })
            // The first few: a feed may list thousands of values.
            let someWanted = condition.values.sorted().prefix(10)
            let wanted = someWanted.map { "\(condition.key): \($0)" }.joined(separator: " or ") + (condition.values.count > 10 ? " or …" : "")
            guard !values.isEmpty else {
                let keys = Set(cards.flatMap { $0.extras.map(\.key) })
                return "no card has the extra \(Diagnostic.quoted(condition.key))\(Diagnostic.suggestion(for: condition.key, among: keys))"
            }
            // Only values near in length can be near in spelling; a card's extra may be 2 KB long.
            let suggestion = someWanted.lazy.map { wanted in
                Diagnostic.suggestion(for: wanted, among: values.filter { abs($0.count - wanted.count) <= max(1, wanted.count / 3) })
            }.first { !$0.isEmpty } ?? ""
            let seen = values.sorted().prefix(10).map(Diagnostic.quoted).joined(separator: ", ") + (values.count > 10 ? ", …" : "")
            return "no card has \(wanted)\(suggestion); the cards' \(condition.key) extras are \(seen)"
        }
        return "no card meets all of its conditions at once"
    }
}
