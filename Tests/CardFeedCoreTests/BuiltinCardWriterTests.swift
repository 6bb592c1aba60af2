import Foundation
import Testing

@testable import CardFeedCore

/// `BuiltinCardWriter` must write exactly what the built-in Mustache templates render, for
/// every shape of card: the Mustache files are the definition.
@Suite struct BuiltinCardWriterTests {
    /// A renderer for the default site, in the given language, with or without links opening
    /// in a new tab.
    static func renderer(locale: String = "en", newTab: [String] = []) throws -> SiteRenderer {
        var diagnostics = Diagnostics()
        let site = SiteFolder("/nonexistent-site")
        let templates = try #require(TemplateSet.load(site: site, diagnostics: &diagnostics))
        let strings = try #require(StringTable.load(locale: locale, site: site, diagnostics: &diagnostics))
        let assets = Set(BuiltinFiles.assetPaths)
        var links = LinkPolicy()
        links.newTab = newTab
        let settings = RenderSettings(
            images: ImageURLs(assets: assets, siteOverrides: []), strings: strings, links: links, siteTitle: "T",
            stylesheets: ["assets/cardfeed.css"], pageSize: 7, baseURL: nil)
        return SiteRenderer(templates: templates, settings: settings)
    }

    static func compare(_ cards: [Card], renderer: SiteRenderer) {
        var mustache = renderer
        mustache.useBuiltinWriter = false
        for (position, card) in cards.enumerated() {
            let description = card.description.map(Markdown.html)
            #expect(renderer.templates.usesBuiltinTemplates(card))
            let fast = renderer.renderCard(card, description: description, position: position)
            let reference = mustache.renderCard(card, description: description, position: position)
            #expect(fast == reference, "card \(card.id) of type \(card.type.rawValue)")
            if fast != reference { return }
        }
    }

    /// Cards of every type with every optional part present or absent, chosen by a seeded
    /// generator so that the test is the same on every run.
    static func generatedCards(count: Int) -> [Card] {
        var rng = SeededGenerator(seed: 42)
        let texts = ["Plain", "Quotes \" and ' and <tags> & ampersands", "Ünïcödé ☕️", " spaced "]
        return (0..<count).map { index in
            let type = CardType.renderable[index % CardType.renderable.count]
            var card = Card(id: index % 7 == 0 ? "id with spaces \(index) <&>" : "card-\(index)", type: type, source: CardSource(file: "f", index: index, order: index))
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &rng) ? value : nil }
            card.viewed = .random(using: &rng)
            card.pinned = .random(using: &rng)
            card.dismissible = .random(using: &rng)
            card.useWebView = .random(using: &rng)
            card.created = maybe(Int64.random(in: 0...2_000_000_000, using: &rng))
            card.updated = (card.created ?? 0) + Int64.random(in: 0...1000, using: &rng)
            card.categories = FeedCategory.allCases.filter { _ in Bool.random(using: &rng) }
            card.title = maybe(texts.randomElement(using: &rng)!)
            card.description = maybe("Some **markdown** with a [link](https://x.test/?a=1&b=2) and `code`.\n\n- one\n- two")
            card.url = maybe(["https://x.test/a?b=1&c=2", "https://partner.test/p", "mailto:a@x.test", "/relative"].randomElement(using: &rng)!)
            card.domain = maybe("x.test <b>")
            card.image = maybe(Bool.random(using: &rng) ? .remote("https://img.test/a b.png") : .asset("images/local.png"))
            card.imageAlt = maybe("Alt \"text\"")
            card.aspectRatio = maybe(Double.random(in: 0.5...6, using: &rng))
            card.subtitle = maybe("Subtitle & more")
            card.caption = maybe("Recommended")
            card.rating = maybe(Double(Int.random(in: 0...10, using: &rng)) / 2)
            card.reviews = maybe(Int.random(in: 0...50_000, using: &rng))
            card.price = maybe([0, 0.99, 12.5].randomElement(using: &rng)!)
            card.displayPrice = maybe("£3.33")
            return card
        }
    }

    @Test func generatedCardsOfEveryShape() throws {
        Self.compare(Self.generatedCards(count: 3000), renderer: try Self.renderer())
    }

    @Test func otherLanguagesAndNewTabLinks() throws {
        let cards = Self.generatedCards(count: 600)
        Self.compare(cards, renderer: try Self.renderer(locale: "de", newTab: ["x.test"]))
        Self.compare(cards, renderer: try Self.renderer(locale: "fr", newTab: ["*"]))
    }

    @Test func theExampleSiteAndTheBrazeFixtures() throws {
        var cards = CardLoader(site: SiteFolder(Paths.tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("site").path)).load().cards
        let fixtures = try TempSite()
        defer { fixtures.remove() }
        for file in try FileManager.default.contentsOfDirectory(atPath: Paths.braze.path) where file.hasSuffix(".json") {
            try fixtures.write("cards/\(file)", try String(contentsOf: Paths.braze.appendingPathComponent(file), encoding: .utf8))
        }
        cards += fixtures.load().cards
        cards.removeAll { $0.type == .control }  // never shown, so never rendered
        #expect(cards.count > 30)
        Self.compare(cards, renderer: try Self.renderer())
    }

    @Test func aSiteThatOverridesATemplateIsRenderedByMustache() throws {
        let site = try TempSite(["templates/cards/short_news.mustache": "{{<builtin.cards.short_news}}{{/builtin.cards.short_news}}"])
        defer { site.remove() }
        var diagnostics = Diagnostics()
        let templates = try #require(TemplateSet.load(site: site.site, diagnostics: &diagnostics))
        var card = Card(id: "a", type: .shortNews, source: CardSource(file: "f", index: 0, order: 0))
        #expect(!templates.usesBuiltinTemplates(card))
        card.type = .textAnnouncement
        #expect(templates.usesBuiltinTemplates(card))
        card.templateName = "promo"
        #expect(templates.usesBuiltinTemplates(card), "no site template promo: the type's template is used")
    }
}

/// SplitMix64: a tiny deterministic generator for test data.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
