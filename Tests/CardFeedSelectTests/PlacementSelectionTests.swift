import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect

/// What a placement shows: the first `limit` cards of its feed, in the feed's order, that its
/// extras filter matches and no rule keeps out.
@Suite struct PlacementSelectionTests {
    static func card(_ id: String, updated: Int64, pinned: Bool = false, extras: [String: String] = [:], order: Int) -> Card {
        var card = Card(id: id, type: .textAnnouncement, source: CardSource(file: "cards.json", index: order, order: order))
        card.created = updated
        card.updated = updated
        card.pinned = pinned
        card.categories = [.news]
        card.extras = extras.sorted { $0.key < $1.key }.map { Card.Extra(key: $0.key, value: $0.value) }
        return card
    }

    static func placement(_ name: String, feed: String = "all", extras: [String: [String]] = [:], limit: Int) -> Placement {
        Placement(name: name, feed: feed, extras: extras.map { FeedMatch.ExtraValues(key: $0.key, values: Set($0.value)) }, limit: limit, file: "cardfeed.yml")
    }

    let cards: [Card]
    let selection: Selection

    init() {
        cards = [
            Self.card("old", updated: 100, extras: ["feed": "offers"], order: 0),
            Self.card("new", updated: 300, order: 1),
            Self.card("pinned-old", updated: 50, pinned: true, extras: ["feed": "offers"], order: 2),
            Self.card("middle", updated: 200, extras: ["feed": "deals"], order: 3),
        ]
        selection = FeedSelector(now: 1000, pageSize: 0).select(cards)
    }

    func ids(_ placed: PlacementSelection) -> [String] { placed.cards.map { selection.cards[$0].id } }

    @Test func theFirstCardsOfTheFeedPinnedFirstThenNewest() {
        let placed = PlacementSelector.select([Self.placement("hero", limit: 2), Self.placement("all-of-them", limit: 50)], in: selection, keptOut: [:])
        #expect(ids(placed[0]) == ["pinned-old", "new"])
        #expect(ids(placed[1]) == ["pinned-old", "new", "middle", "old"])
    }

    @Test func anExtrasFilterOnTopOfTheFeed() {
        let placed = PlacementSelector.select([
            Self.placement("offers", extras: ["feed": ["offers"]], limit: 5),
            Self.placement("either", extras: ["feed": ["offers", "deals"]], limit: 2),
            Self.placement("news", feed: "news", extras: ["feed": ["deals"]], limit: 5),
        ], in: selection, keptOut: [:])
        #expect(ids(placed[0]) == ["pinned-old", "old"])
        #expect(ids(placed[1]) == ["pinned-old", "middle"])
        #expect(ids(placed[2]) == ["middle"])
    }

    /// Why a placement shows no card, which the build's warning says; nothing for one that shows one.
    @Test func whyAPlacementIsEmpty() {
        let placements = [
            Self.placement("shown", limit: 1),
            Self.placement("social", feed: "social", limit: 1),
            Self.placement("nowhere", extras: ["feed": ["nowhere"]], limit: 1),
            Self.placement("offers", extras: ["feed": ["offers"]], limit: 1),
            Self.placement("hero", limit: 1),
        ]
        let keptOut: [String: Set<String>] = ["offers": ["old", "pinned-old"], "hero": Set(cards.map(\.id))]
        let why = PlacementSelector.select(placements, in: selection, keptOut: keptOut).map { $0.whyEmpty(in: selection) }
        #expect(why == [
            nil,
            "its feed \"social\" has no card to show",
            "its extras filter (feed: nowhere) matches none of the all feed's 4 cards",
            "the rules' keep_out_of keep out the 2 of the all feed's 4 cards that its extras filter matches",
            "the rules' keep_out_of keep out all 4 cards of the all feed",
        ])
    }

    /// A card a rule keeps out leaves room for the next, in that placement only.
    @Test func aCardKeptOutByARuleGivesItsPlaceToTheNext() {
        let placed = PlacementSelector.select([Self.placement("hero", limit: 2), Self.placement("side", limit: 2)], in: selection, keptOut: ["hero": ["pinned-old"]])
        #expect(ids(placed[0]) == ["new", "middle"])
        #expect(ids(placed[1]) == ["pinned-old", "new"])
    }

    @Test func ruleKeepOutOfIsRecordedByPlacement() {
        var rule = CardRule(name: "rule 1", file: "cardfeed.yml")
        rule.extras = [("feed", "offers")]
        rule.keepOutOf = ["hero"]
        let ruled = RuleEngine(rules: [rule], decoder: CardLoader(site: SiteFolder("/nonexistent")).decoder()).apply(to: cards)
        #expect(ruled.keptOutOfPlacements == ["hero": ["old", "pinned-old"]])
        #expect(ruled.cards.count == cards.count)
        #expect(rule.changes == "keeps it out of the placement hero")
    }
}
