import CardFeedMustache
import Foundation
import Testing

@testable import CardFeedCore

/// The linter's table of nested fields (`TemplateLinter.fields`) and the views templates read
/// must name the same fields: every field the linter accepts is answered by a real view, and a
/// name it would warn about is not.
@Suite struct TemplateLinterTests {
    static func settings() throws -> RenderSettings {
        var diagnostics = Diagnostics()
        let strings = try #require(StringTable.load(locale: "en", site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
        // A link preview picture, so that every field of `social` has a value.
        var head = PageHead()
        head.image = "https://x.test/share.png"
        return RenderSettings(RenderSettings.Values(
            builtinImages: BuiltinImages(assets: Set(BuiltinFiles.assetPaths), siteOverrides: []), strings: strings, links: LinkPolicy(),
            siteTitle: "T", stylesheets: ["assets/cardfeed.css"], pageSize: 2, baseURL: "https://x.test/", head: head))
    }

    /// A card with every field a template can read.
    static func card() -> Card {
        var card = Card(id: "c", type: .crossPromotionSmall, source: CardSource(file: "cards.json", index: 0, order: 0))
        card.created = 1_700_000_000
        card.updated = 1_700_000_100
        card.expiresAt = 1_900_000_000
        card.pinned = true
        // No image: the placeholder has every field of an image (a card's own has no srcset).
        card.url = "https://x.test/app"
        card.categories = [.news]
        card.extras = [Card.Extra(key: "campaign", value: "spring")]
        card.rating = 4.5
        card.reviews = 12
        card.price = 1.99
        return card
    }

    /// The value a name of `owner`'s table reaches: the object, or a list's first item.
    static func object(_ value: MustacheValue?) -> (MustacheObject)? {
        switch value {
        case .object(let object): object
        case .list(let items): object(items.first)
        default: nil
        }
    }

    @Test func everyNestedFieldOfTheLinterIsAnsweredByAView() throws {
        let settings = try Self.settings()
        let card = CardView(card: Self.card(), descriptionHTML: nil, settings: settings, permalink: "index.html#card-c")
        let feed = FeedSelection(feed: Feed.builtin[0], cards: [0, 1, 2, 3, 4], pages: [0..<2, 2..<4, 4..<5])
        let selection = Selection(cards: ShownCards([Self.card()], order: [0]), feeds: [feed], hidden: [:])
        let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
        let page = SiteRenderer(templates: templates, settings: settings)
            .pageViews(selection, feed)(2, 2)
        var owners: [String: MustacheObject] = [:]
        for name in TemplateLinter.fields.keys {
            owners[name] = Self.object(card.value(for: MustacheName(name))) ?? Self.object(page.value(for: MustacheName(name)))
        }
        // The feeds' views: an entry of a card with its own image, the sitemap's first page.
        let syndication = Syndication(baseURL: "https://x.test/", settings: settings, templates: templates)
        var pictured = Self.card()
        pictured.image = .remote("https://x.test/i.png")
        let entry = FeedEntry(card: pictured, permalink: "index.html#card-c", anchor: "card-c", description: "<p>d</p>\n", linkSchemes: [], syndication: syndication)
        owners["entries"] = FeedEntryView(entry, content: "<p>d</p>\n")
        let shown = Selection(cards: ShownCards([pictured], order: [0]), feeds: [FeedSelection(feed: Feed.builtin[0], cards: [0], pages: [0..<1])], hidden: [:])
        owners["urls"] = SitemapView(shown, syndication: syndication).urls.first
        owners["stars"] = Self.object(owners["rating"]?.value(for: MustacheName("stars")))
        owners["pages"] = Self.object(owners["pagination"]?.value(for: MustacheName("pages")))
        for (owner, fields) in TemplateLinter.fields {
            let object = try #require(owners[owner], "no view answers \(owner)")
            for field in fields {
                #expect(object.value(for: MustacheName(field)) != nil, "\(owner).\(field)")
            }
            #expect(object.value(for: MustacheName("nonexistent")) == nil, "\(owner)")
        }
    }
}

extension Diagnostics {
    /// Somewhere to put diagnostics a test does not read.
    nonisolated(unsafe) static var scratch = Diagnostics()
}
