import CardFeedMustache
import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender


/// The views' schemas (what the linter checks templates against, and what docs/templates.md
/// lists) and the views themselves must agree: every name a schema declares is answered by a
/// real view, with a value of its kind, and a name it does not declare is not.
@Suite struct TemplateLinterTests {
    /// The repository's root, found from this file (Tests/CardFeedRenderTests/) so that the test
    /// runs from any working directory.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
        card.title = "Title"
        card.subtitle = "Subtitle"
        card.caption = "Caption"
        card.domain = "x.test"
        card.mediaType = "ItunesAlbum"
        card.itunesID = 1
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

    @Test func everyNameOfEverySchemaIsAnsweredByItsView() throws {
        let settings = try Self.settings()
        let card = CardView(card: Self.card(), descriptionHTML: "<p>d</p>", settings: settings, permalink: "index.html#card-c")
        // An archive page with a newer, an older and the front page to link, and dates.
        let selection = FeedSelector(now: 100, pageSize: 4).select(PaginationTests.cards(1...10))
        let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
        let page = SiteRenderer(templates: templates, settings: settings).pageViews(selection, selection.feeds[0])(4)
        // The feeds' views: an entry of a card with its own image, the sitemap of one page.
        let syndication = Syndication(baseURL: "https://x.test/", settings: settings, templates: templates)
        var pictured = Self.card()
        pictured.image = .remote("https://x.test/i.png")
        pictured.language = "en"
        let entry = FeedEntry(card: pictured, permalink: "index.html#card-c", anchor: "card-c", description: "<p>d</p>\n", linkSchemes: [], syndication: syndication)
        let shown = Selection(cards: ShownCards([pictured], order: [0]), feeds: [FeedSelection(feed: Feed.builtin[0], cards: [0], front: FeedPage(cards: [0], path: "index.html"))], hidden: [:])
        let document = FeedDocumentView(feed: Feed.builtin[0], entries: [FeedEntryView(entry, content: "<p>d</p>\n")], updated: 1_767_225_600, syndication: syndication)
        // The page's `cards` are holes the renderer fills: the card view stands for them.
        let cardPage = CardPageView(shell: page.shell, card: "<article></article>\n", heading: "d", feeds: [CardPlaceView(slug: "all", title: "All", href: "page-2.html#card-c")], shown: pictured)
        // A site in two languages, the same cards in each: a feed's front page and its counterpart.
        let languages = LanguageLinks(
            languages: [.init(tag: "en", name: "English", front: "index.html"), .init(tag: "de", name: "Deutsch", front: "de/index.html")],
            selections: [shown, shown], cardPages: true, baseURL: "https://x.test/")
        let placement = PlacementView(
            placement: Placement(name: "hero", feed: "all", extras: [], limit: 1, file: "cardfeed.yml"), feedTitle: "All",
            cards: [PlacementCardView(card: "<article></article>\n", id: "c")], settings: settings)
        let views: [(ViewSchema, MustacheObject)] = [
            (LanguagesView.schema, languages.feedPage(tree: 1, slug: "all", front: true)),
            (SitemapView.schema, SitemapView([shown, shown], trees: [settings, settings], syndication: syndication, languages: languages)),
            (CardView.schema, card), (PageView.schema, page), (CardPageView.schema, cardPage), (FeedEntryView.schema, FeedEntryView(entry, content: "<p>d</p>\n")),
            (FeedDocumentView.schema, document),
            (PlacementView.schema, placement), (PlacementFrameView.schema, PlacementFrameView(placement, html: "<div></div>", root: "../../", embed: "embed/")),
        ]
        for (schema, view) in views {
            try Self.expectAnswers(schema, view, path: schema.name, cards: card)
        }
    }

    /// docs/templates.md's "What templates see" names every name of every view (the schemas are
    /// the list; the page is its prose).
    @Test func theTemplatesPageNamesEveryNameOfEveryView() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/templates.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## What templates see")).upperBound
        let section = text[start...].prefix { _ in true }.components(separatedBy: "\n## ").first ?? ""
        var seen = Set<String>()
        func names(_ schema: ViewSchema) {
            guard seen.insert(schema.name).inserted else { return }
            for (name, kind) in schema.fields {
                #expect(section.contains("`\(name)`"), "docs/templates.md does not name `\(name)` of the \(schema.name)")
                kind.schema.map(names)
            }
        }
        TemplateLinter.anyRoot.compactMap { $0.scopes.first ?? nil }.forEach(names)
    }

    /// Every name of `schema` has a value in `view` of the kind the schema says, down through
    /// the views it holds; an undeclared name has none.
    static func expectAnswers(_ schema: ViewSchema, _ view: MustacheObject, path: String, cards: CardView) throws {
        #expect(view.value(for: MustacheName("nonexistent")) == nil, "\(path)")
        for (name, kind) in schema.fields {
            // Names come from the view's own `Key`, so a view knows each one; an empty value
            // (a card without a subtitle) says nothing of its kind.
            guard let value = view.value(for: MustacheName(name)) else { continue }
            let where_ = "\(path).\(name)"
            switch kind {
            case .text, .html:
                switch value {
                case .text, .int: break
                default: Issue.record("\(where_): not text")
                }
            case .flag:
                guard case .bool = value else { Issue.record("\(where_): not a flag"); continue }
            case .texts:
                guard case .list = value else { Issue.record("\(where_): not a list"); continue }
            case .open:
                guard case .object = value else { Issue.record("\(where_): not a view"); continue }
            case .cards:
                guard case .deferredList = value else { Issue.record("\(where_): not the page's cards"); continue }
            case .view(let inner):
                guard case .object(let object) = value else { Issue.record("\(where_): not one view"); continue }
                try expectAnswers(inner, object, path: where_, cards: cards)
            case .list(let inner):
                guard case .list = value else { Issue.record("\(where_): not a list"); continue }
                let object = try #require(Self.object(value), "\(where_): no view in the list")
                try expectAnswers(inner, object, path: where_, cards: cards)
            }
        }
    }
}

extension Diagnostics {
    /// Somewhere to put diagnostics a test does not read.
    nonisolated(unsafe) static var scratch = Diagnostics()
}
