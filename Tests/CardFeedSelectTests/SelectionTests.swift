import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender


/// What is shown, in which order, in which feed (`PaginationTests`: on which page).
@Suite struct SelectionTests {
    func card(_ id: String, updated: Int64 = 100, pinned: Bool = false, categories: [FeedCategory] = [], _ change: (inout Card) -> Void = { _ in }) -> Card {
        var card = Card(id: id, type: .textAnnouncement, source: CardSource(file: "cards.json", index: 0, order: 0))
        card.created = updated
        card.updated = updated
        card.pinned = pinned
        card.categories = categories
        change(&card)
        return card
    }

    /// The cards as read in this order, one after the other (`card` reads every card first).
    func read(_ cards: [Card]) -> [Card] {
        cards.enumerated().map { index, card in
            var card = card
            card.source = CardSource(file: "cards.json", index: index, order: index)
            return card
        }
    }

    @Test func hiddenCards() {
        let selection = FeedSelector(now: 1000, pageSize: 0).select(read([
            card("shown"),
            card("dismissed") { $0.dismissed = true },
            card("removed") { $0.removed = true },
            card("control") { $0.type = .control },
            card("expired") { $0.expiresAt = 999 },
            card("expires-now") { $0.expiresAt = 1000 },
            card("expires-later") { $0.expiresAt = 1001 },
        ]))
        #expect(selection.cards.map(\.id) == ["shown", "expires-later"])
        #expect(selection.hidden == [.dismissed: 1, .removed: 1, .control: 1, .expired: 2])
    }

    @Test func futureCardsWaitForTheirDateOnlyWhenTheSiteSaysSo() {
        let cards = [
            card("past", updated: 999), card("now", updated: 1000), card("future", updated: 1001),
            card("future-expired", updated: 1001) { $0.expiresAt = 1000 },
            card("future-pinned", updated: 5000, pinned: true),
        ]
        let shown = FeedSelector(now: 1000, pageSize: 0).select(cards)
        #expect(shown.cards.map(\.id) == ["future-pinned", "future", "now", "past"])
        #expect(shown.hidden == [.expired: 1])
        let hidden = FeedSelector(now: 1000, pageSize: 0, future: .hide).select(cards)
        #expect(hidden.cards.map(\.id) == ["now", "past"])
        #expect(hidden.hidden == [.expired: 1, .future: 2])
    }

    @Test func pinnedFirstThenNewestThenReadOrder() {
        let selection = FeedSelector(now: 0, pageSize: 0).select(read([
            card("old", updated: 1), card("b", updated: 5), card("a", updated: 5),
            card("pinned-old", updated: 0, pinned: true), card("pinned-new", updated: 9, pinned: true), card("new", updated: 7),
            card("pinned-tie-z", updated: 9, pinned: true), card("pinned-tie-a", updated: 9, pinned: true),
        ]))
        #expect(selection.cards.map(\.id) == ["pinned-new", "pinned-tie-z", "pinned-tie-a", "pinned-old", "new", "b", "a", "old"])
    }

    @Test func feedsGroupCardsByCategory() {
        let selection = FeedSelector(now: 0, pageSize: 0).select([
            card("n", categories: [.news]), card("ns", categories: [.news, .social]), card("none"), card("ad", categories: [.advertising]),
        ])
        let ids = Dictionary(uniqueKeysWithValues: selection.feeds.map { feed in (feed.feed.slug, feed.cards.map { selection.cards[$0].id }) })
        #expect(selection.feeds.map(\.feed.slug) == ["all", "news", "advertising", "announcements", "social", "uncategorized"])
        #expect(ids["all"]?.count == 4)
        #expect(ids["news"] == ["n", "ns"])
        #expect(ids["social"] == ["ns"])
        #expect(ids["announcements"] == [])
        #expect(ids["uncategorized"] == ["none"])
    }

    /// Feeds a site defines: by extras (one value or any of several, every key), by categories
    /// (`uncategorized` too), both at once; a card in several feeds; without a feed of every
    /// card, a card in none is hidden and each card's home is the first feed that shows it.
    @Test func feedsASiteDefinesSelectByExtrasAndCategories() {
        func extras(_ pairs: [String: String]) -> (inout Card) -> Void {
            { card in card.extras = pairs.sorted { $0.key < $1.key }.map { Card.Extra(key: $0.key, value: $0.value) } }
        }
        let cards = [
            card("offer", updated: 9, extras(["feed": "offers"])),
            card("deal", updated: 8, extras(["feed": "deals", "audience": "vip"])),
            card("vip-news", updated: 7, categories: [.news], extras(["audience": "vip"])),
            card("plain", updated: 6),
            card("social", updated: 5, categories: [.social]),
        ]
        let feeds = [
            Feed(slug: "offers", folder: "", title: "Offers", match: FeedMatch(extras: [.init(key: "feed", values: ["offers"])])),
            Feed(slug: "deals", folder: "deals", title: "Deals", match: FeedMatch(extras: [.init(key: "feed", values: ["offers", "deals"])])),
            Feed(slug: "vip", folder: "vip", title: "VIP", match: FeedMatch(extras: [.init(key: "audience", values: ["vip"]), .init(key: "feed", values: ["deals"])])),
            Feed(slug: "news", folder: "news", title: "News", match: FeedMatch(categories: [.news], uncategorized: true, extras: [.init(key: "audience", values: ["vip"])])),
            Feed(slug: "empty", folder: "empty", title: "Empty", match: FeedMatch(categories: [.advertising])),
        ]
        let selection = FeedSelector(now: 0, pageSize: 1, feeds: feeds, hideEmptyFeeds: true).select(cards)
        let ids = selection.feeds.map { feed in feed.cards.map { selection.cards[$0].id } }
        #expect(ids == [["offer"], ["offer", "deal"], ["deal"], ["deal", "vip-news"], []], "deal has no category")
        #expect(selection.cards.map(\.id) == ["offer", "deal", "vip-news"], "plain and social are in no feed")
        #expect(selection.hidden == [.inNoFeed: 2])
        #expect(selection.feeds.map(\.listed) == [true, true, true, true, false])
        #expect((0..<3).map { selection.homes.place(of: $0).feed } == [0, 1, 3], "each card's first feed")
        #expect(selection.homes.place(of: 1).index == 1, "deal is the second card of deals")
        let places = CardPlaces(selection, cardPages: false)
        #expect(places.permalink(position: 1, anchor: "card-deal") == "deals/page-deal.html#card-deal", "with a page size of 1, each card ends its page")
        #expect(places.places(of: 1).map { [$0.feed, $0.page] } == [[1, 2], [2, 1], [3, 1]], "deal is on page 2 of deals, page 1 of vip and news")
        #expect(CardPlaces(selection, cardPages: true).permalink(position: 1, anchor: "card-deal") == "cards/card-deal.html")

        let withAll = FeedSelector(now: 0, pageSize: 0, feeds: feeds + [Feed(slug: "all", folder: "all")]).select(cards)
        #expect(withAll.cards.count == 5 && withAll.hidden.isEmpty, "a feed of every card shows them all")
        #expect(withAll.feeds.allSatisfy { $0.listed })
        #expect(CardPlaces(withAll, cardPages: false).permalink(position: 3, anchor: "card-plain") == "all/index.html#card-plain")
    }

    /// The digit-by-digit RFC 3339 writer agrees with Foundation's from the first whole Gregorian
    /// year (Foundation's calendar is Julian before 1582) to 9999, and `decimal` with
    /// `String(format:)`, rounding included.
    @Test func datesAndDecimalsAgreeWithFoundation() {
        let reference = ISO8601DateFormatter()
        reference.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        let earliest: Int64 = -12_212_553_600, latest: Int64 = 253_402_300_799  // 1583-01-01 ... 9999-12-31
        for seconds in [earliest, 0, 951_782_399, 951_782_400, 1_700_000_000, latest] + (0..<2000).map({ _ in Int64.random(in: earliest...latest, using: &generator) }) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(Formatting.iso(seconds) == reference.string(from: date), "\(seconds)")
        }
        for value in [0, 0.125, 0.285, 1.005, 2.675, 4.5, 1234.5, 1e15, -3.14159, 0.1 + 0.2] + (0..<2000).map({ _ in Double.random(in: -1e6...1e6, using: &generator) }) {
            for places in 0...3 {
                #expect(Formatting.decimal(value, places: places) == String(format: "%.\(places)f", value), "\(value) \(places)")
            }
        }
    }

    @Test func formatting() throws {
        #expect(Formatting.iso(0) == "1970-01-01T00:00:00Z")
        #expect(Formatting.iso(-62_167_219_200) == "0000-01-01T00:00:00Z")  // proleptic Gregorian, as RFC 3339 has it
        #expect(Formatting.iso(1_700_000_000) == "2023-11-14T22:13:20Z")
        var diagnostics = Diagnostics()
        let english = try #require(StringTable.load(locale: "en", site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
        #expect(english.moment(1_700_000_000, in: .utc).text == "Nov 14, 2023")
        #expect(english.moment(1_700_000_000, in: .utc).iso == "2023-11-14T22:13:20Z")
        #expect(english.moment(951_782_400, in: .utc).text == "Feb 29, 2000")
        // On a site in New York, a card of 02:13Z shows the day before; `datetime` stays in UTC.
        let newYork = try #require(SiteTimeZone(identifier: "America/New_York"))
        #expect(english.moment(1_795_140_780, in: .utc).text == "Nov 20, 2026")
        #expect(english.moment(1_795_140_780, in: newYork).text == "Nov 19, 2026")
        #expect(english.moment(1_795_140_780, in: newYork).iso == "2026-11-20T02:13:00Z")
        #expect(Formatting.grouped(10000) == "10,000")
        #expect(Formatting.grouped(999) == "999")
        #expect(Formatting.anchor(for: "plain-id_1") == "card-plain-id_1")
        #expect(Formatting.anchor(for: "a b") != Formatting.anchor(for: "a-b"))
        #expect(Formatting.anchor(for: "<x>").hasPrefix("card--x--"))
    }
}
