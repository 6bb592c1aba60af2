import Foundation
import Synchronization
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender
@testable import CardFeedWrite

/// Under serve, a card's own page is made again only when what it shows changed: its card, the
/// feeds the navigation lists, or its place in a feed. (That it then equals a fresh build's is
/// `IncrementalBuildTests`'.)
@Suite struct CardPageReuseTests {
    /// serve's output, telling which files a build opened to make them.
    final class OpenedFiles: OutputTarget {
        let output: InPlaceOutput
        private let paths = Mutex<[String]>([])

        init(_ output: InPlaceOutput) { self.output = output }

        /// The card pages opened since the last call.
        func takeCardPages() -> [String] { paths.withLock { paths in defer { paths = [] }; return paths.filter { $0.hasPrefix("cards/") }.sorted() } }
        /// Every page opened since the last call.
        func takePages() -> [String] { paths.withLock { paths in defer { paths = [] }; return paths.filter { $0.hasSuffix(".html") }.sorted() } }

        func createFolders(_ folders: Set<String>) throws { output.createFolders(folders) }
        func open(_ path: String) throws -> OutputSink {
            paths.withLock { $0.append(path) }
            return output.open(path)
        }
        func close(_ sink: OutputSink, path: String) throws { try output.close(sink, path: path) }
        func holds(_ path: String, madeFrom key: Int) -> Bool { output.holds(path, madeFrom: key) }
        func commit() throws -> OutputCounts { try output.commit() }
        func abandon() { output.abandon() }
    }

    static func card(_ number: Int, title: String? = nil, category: FeedCategory = .news) -> Card {
        var card = Card.Fields(id: "c\(number)", type: .shortNews, source: CardSource(file: "cards.json", index: number, order: number))
        card.created = 1_700_000_000 + Int64(number) * 1000
        card.updated = card.created ?? 0
        card.title = title ?? "Card \(number)"
        card.description = "Text of card \(number)"
        card.categories = [category]
        return Card(card)
    }

    /// Builds as serve does, into `site`'s output with a cache of rendered cards, and tells which
    /// files each build opened to make them.
    final class Rebuilds {
        let output: OpenedFiles
        let cache = ReuseCache<RenderedCard>()
        let templates: TemplateSet
        /// The settings the tests start from: the built-in feeds, two cards a page.
        let values: RenderSettings.Values

        init(_ site: TempSite) throws {
            output = OpenedFiles(InPlaceOutput(folder: site.output))
            templates = try ReuseKeyTests.templates()
            var values = try ReuseKeyTests.sampleSettings()
            values.feeds = Feed.builtin
            values.pageSize = 2
            self.values = values
        }

        /// The pages of `cards` with `values` (the output tells which files were opened).
        func build(_ cards: [Card], _ values: RenderSettings.Values) throws {
            let selection = FeedSelector(now: ReuseKeyTests.now, pageSize: values.pageSize, feeds: values.feeds, cardPages: values.cardPages).select(cards)
            let renderer = SiteRenderer(templates: templates, settings: RenderSettings(values))
            cache.beginBuild()
            _ = try renderer.renderPages(selection, into: output, keepDescriptions: [], reusing: cache)
            _ = try output.commit()
            cache.endBuild()
        }
    }

    @Test func aCardPageIsMadeAgainOnlyWhenWhatItShowsChanged() throws {
        let site = try TempSite()
        defer { site.remove() }
        let rebuilds = try Rebuilds(site)
        var values = rebuilds.values
        func build(_ cards: [Card], _ values: RenderSettings.Values) throws -> [String] {
            try rebuilds.build(cards, values)
            return rebuilds.output.takeCardPages()
        }
        var cards = (1...6).map { Self.card($0) }
        #expect(try build(cards, values) == (1...6).map { "cards/card-c\($0).html" })
        #expect(try build(cards, values) == [], "nothing changed")

        cards[2] = Self.card(3, title: "A new title")
        #expect(try build(cards, values) == ["cards/card-c3.html"], "its card")

        // A newer card: the card pages made again are its own and those of the cards whose place
        // in a feed moved (from the front page to an archive page that now ends), no other.
        let placesBefore = try (1...6).map { try Self.places(site, $0) }
        let moved = try build(cards + [Self.card(7, category: .social)], values)
        let placesMoved = try (1...6).filter { try Self.places(site, $0) != placesBefore[$0 - 1] }
        #expect(moved == (placesMoved + [7]).map { "cards/card-c\($0).html" })
        #expect(moved.count < 7, "not every card's page")
        #expect(try build(cards + [Self.card(7, category: .social)], values) == [])

        // On one page a feed, settings that change make every card page again; a card that moves
        // to another feed makes its own page again only: no page shows a count.
        values.pageSize = 0
        #expect(try build(cards + [Self.card(7, category: .social)], values).count == 7, "every card page of a site whose settings changed")
        #expect(try build(cards + [Self.card(7, category: .news)], values) == ["cards/card-c7.html"], "the card's feeds changed")
        // A card dated anew stays on the one page of each feed: only its own page changes.
        var older = cards + [Self.card(7, category: .news)]
        var redated = older[5].fields
        redated.created = 1_600_000_000
        older[5] = Card(redated)
        #expect(try build(older, values) == ["cards/card-c6.html"], "a card that moves within its feeds' one page")
    }

    /// A feed's page is made again only when what it shows changed: a card that comes makes
    /// again the pages it goes on and those whose links to the pages either side change, not
    /// every page of every feed (no page shows a count of its feed's cards).
    @Test func aFeedPageIsMadeAgainOnlyWhenWhatItShowsChanged() throws {
        let site = try TempSite()
        defer { site.remove() }
        let rebuilds = try Rebuilds(site)
        var values = rebuilds.values
        values.cardPages = false
        func build(_ cards: [Card]) throws -> [String] {
            try rebuilds.build(cards, values)
            return rebuilds.output.takePages()
        }
        func pages() throws -> [String: Data] {
            try OutputSafetyTests.tree(site.output).filter { $0.key.hasSuffix(".html") }
        }
        let cards = (1...40).map { Self.card($0, category: $0 % 2 == 0 ? .news : .social) }
        let all = try build(cards)
        #expect(try build(cards) == [], "nothing changed")
        let before = try pages()
        let made = try build(cards + [Self.card(41, category: .social)])
        let after = try pages()
        let changed = after.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(made == changed, "the pages made are those that changed")
        #expect(!made.isEmpty && made.count * 3 < all.count, "\(made.count) of \(all.count) pages made again")
    }

    /// The links of card `number`'s page to its places in its feeds.
    static func places(_ site: TempSite, _ number: Int) throws -> [String] {
        let page = try String(contentsOf: site.output.appendingPathComponent("cards/card-c\(number).html"), encoding: .utf8)
        return page.components(separatedBy: "class=\"card-places__link\" href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }.filter { $0.contains("#") }
    }
}
