import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender
@testable import CardFeedWrite
import CardFeedSystem


/// `serve` reuses decoded and rendered cards and leaves pages as they are under keys whose
/// `Hashable` the compiler writes (see `RenderKey.swift`, `CardDecoder`). For every field of a
/// card, every setting a template can read and every setting of the decoder, found from the
/// types themselves (`ModelEdits`), an edit changes the key; and a rebuild under serve after an
/// edit of a card or a setting gives the pages and descriptions a fresh build gives.
@Suite struct ReuseKeyTests {
    static let now: Int64 = 1_800_000_000

    /// A shown card with every field set: an edit needs a value to change (`ModelEdits` reports
    /// a field left nil or empty here).
    static func sampleCard() -> Card.Fields {
        var card = Card.Fields(id: "sample", type: .captionedImage, source: CardSource(file: "cards.json", index: 0, order: 0, offset: 1))
        card.created = 1_700_000_000
        card.updated = 1_700_000_100
        card.expiresAt = 1_900_000_000
        card.categories = [.news, .social]
        card.extras = [Card.Extra(key: "campaign", value: "spring"), Card.Extra(key: "template", value: "promo")]
        card.image = .remote("https://x.test/picture.png")
        card.imageAlt = "A picture"
        card.language = "en"
        card.title = "Sample"
        card.description = "Text with **bold** and [a link](myapp://open)"
        card.url = "https://x.test/sample"
        card.domain = "x.test"
        card.aspectRatio = 1.5
        card.useWebView = true
        card.dismissible = true
        card.subtitle = "Subtitle"
        card.caption = "Caption"
        card.rating = 4.5
        card.reviews = 12
        card.price = 1.99
        card.displayPrice = "$1.99"
        card.mediaType = "ItunesSoftware"
        card.itunesID = 123
        card.universal = true
        card.styles = [CSSProperty(name: "surface", value: "#fff8e1")]
        card.templateName = "promo"
        return card
    }

    /// Cards around the sample, so that a rebuild has cards and pages to reuse.
    static func otherCards() -> [Card] {
        (1...5).map { number in
            var card = Card.Fields(id: "c\(number)", type: .shortNews, source: CardSource(file: "cards.json", index: number, order: number))
            card.created = 1_700_000_000 + Int64(number) * 1000
            card.updated = card.created ?? 0
            card.title = "Card \(number)"
            card.description = "Text of card \(number)"
            card.categories = number.isMultiple(of: 2) ? [.news] : []
            return Card(card)
        }
    }

    /// Settings with every value set.
    static func sampleSettings() throws -> RenderSettings.Values {
        var diagnostics = Diagnostics()
        let strings = try #require(StringTable.load(locale: "en", site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
        var links = LinkPolicy()
        links.newTab = ["x.test"]
        links.appSchemes = ["myapp"]
        var head = PageHead()
        head.description = "A site"
        head.image = "https://x.test/share.png"
        return RenderSettings.Values(
            builtinImages: BuiltinImages(assets: Set(BuiltinFiles.assetPaths), siteOverrides: []), strings: strings, links: links,
            siteTitle: "Site", stylesheets: ["assets/cardfeed.css", "assets/custom.css"], pageSize: 2, baseURL: "https://x.test/",
            contentSecurityPolicy: ContentSecurityPolicy.builtin, head: head, timeZone: try #require(SiteTimeZone(identifier: "America/New_York")),
            feeds: sampleFeeds, cardPages: true)
    }

    /// Feeds a site defines, with every field of a feed set: the front page shows every card,
    /// a feed by extras, a feed by categories.
    static var sampleFeeds: [Feed] {
        [
            Feed(slug: "all", folder: "", title: "Everything"),
            Feed(
                slug: "offers", folder: "offers", title: "Offers",
                match: FeedMatch(categories: [.news], uncategorized: true, extras: [.init(key: "campaign", values: ["spring", "summer"])])),
            Feed(slug: "news", folder: "news", title: "Latest", match: FeedMatch(categories: [.news, .social], uncategorized: true)),
        ]
    }

    static func templates() throws -> TemplateSet {
        var diagnostics = Diagnostics()
        return try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
    }

    static func isExempt(_ value: Any) -> Bool { "\(type(of: value))".hasPrefix("KeyExempt<") }

    /// What a build shows: every page, and every shown card's description as HTML (the feed
    /// files' text).
    struct Rendered: Equatable {
        var pages: [String: [UInt8]]
        var descriptions: [String?]
    }

    /// Renders `cards` as a build's render step does: into serve's output, with its caches, or
    /// without them into memory, as a fresh build.
    static func render(_ cards: [Card], _ settings: RenderSettings, _ templates: TemplateSet, caches: ServeState?) throws -> Rendered {
        let selection = FeedSelector(now: now, pageSize: settings.pageSize, feeds: settings.feeds, cardPages: settings.cardPages).select(cards)
        let renderer = SiteRenderer(templates: templates, settings: settings)
        let everyCard = Set(selection.cards.indices)
        guard let caches else {
            let output = MemoryOutput()
            let descriptions = try renderer.renderPages(selection, into: output, keepDescriptions: everyCard)
            return Rendered(pages: output.files, descriptions: descriptions)
        }
        caches.beginBuild()
        let descriptions = try renderer.renderPages(selection, into: caches.output, keepDescriptions: everyCard, reusing: caches.cards)
        _ = try caches.output.commit()
        caches.endBuild()
        var pages = try OutputSafetyTests.tree(caches.output.folder).mapValues { [UInt8]($0) }
        pages[SiteWriter.markerName] = nil
        return Rendered(pages: pages, descriptions: descriptions)
    }

    /// Renders under serve, after a build of `before`, and freshly; expects the same.
    static func expectServeGivesAFreshBuild(_ cards: [Card], _ settings: RenderSettings, after before: (cards: [Card], settings: RenderSettings), _ templates: TemplateSet, caches: ServeState, _ edit: String) throws {
        _ = try render(before.cards, before.settings, templates, caches: caches)
        let served = try render(cards, settings, templates, caches: caches)
        let fresh = try render(cards, settings, templates, caches: nil)
        #expect(served.pages.keys.sorted() == fresh.pages.keys.sorted(), "\(edit): the same pages")
        for (path, bytes) in fresh.pages where served.pages[path] != bytes {
            Issue.record("\(edit): \(path) differs from a fresh build's")
        }
        #expect(served.descriptions == fresh.descriptions, "\(edit): the same descriptions")
    }

    @Test func everyFieldOfACardCountsInItsKey() throws {
        let edits = try ModelEdits(Self.sampleCard(), isExempt: Self.isExempt)
        #expect(edits.problems.isEmpty, "\(edits.problems)")
        #expect(edits.exempt == ["source"], "a field left out of the key must be meant to be")
        #expect(edits.edits.count > 30)
        let renderer = SiteRenderer(templates: try Self.templates(), settings: RenderSettings(try Self.sampleSettings()))
        let sampleKey = renderer.renderKey(Card(Self.sampleCard()), anchor: "sample", permalink: "index.html#sample", settings: 0)
        for edit in edits.edits {
            let key = renderer.renderKey(Card(edit.value), anchor: "sample", permalink: "index.html#sample", settings: 0)
            #expect(key != sampleKey, "\(edit.path) is not in the card's key: serve would show the card as it was before the edit")
        }
    }

    @Test func everyEditOfACardUnderServeGivesWhatAFreshBuildGives() throws {
        let templates = try Self.templates()
        let settings = RenderSettings(try Self.sampleSettings())
        let others = Self.otherCards()
        let sample = [Card(Self.sampleCard())] + others
        let site = try TempSite()
        defer { site.remove() }
        let caches = ServeState(output: site.output)
        var made = 0
        let edits = try ModelEdits(Self.sampleCard(), isExempt: Self.isExempt)
        for edit in edits.edits {
            try Self.expectServeGivesAFreshBuild([Card(edit.value)] + others, settings, after: (sample, settings), templates, caches: caches, edit.path)
            made += caches.cards.madeByLastBuild
        }
        #expect(made < edits.edits.count * sample.count / 2, "serve reused most cards")
    }

    @Test func everySettingCountsInTheKeys() throws {
        let templates = try Self.templates()
        let edits = try ModelEdits(try Self.sampleSettings(), isExempt: Self.isExempt)
        #expect(edits.problems.isEmpty, "\(edits.problems)")
        #expect(edits.exempt.isEmpty, "a setting left out of the key must be meant to be")
        #expect(edits.edits.count > 15)
        let selection = FeedSelector(now: Self.now, pageSize: 2).select([Card(Self.sampleCard())] + Self.otherCards())
        func keys(_ settings: RenderSettings.Values) throws -> RenderKeys {
            let renderer = SiteRenderer(templates: templates, settings: RenderSettings(settings))
            return renderer.renderKeys(selection)
        }
        let sampleKeys = try keys(try Self.sampleSettings())
        for edit in edits.edits {
            let editedKeys = try keys(edit.value)
            #expect(editedKeys.context != sampleKeys.context, "\(edit.path) is not in the pages' keys")
            #expect(editedKeys.cards[0] != sampleKeys.cards[0], "\(edit.path) is not in the cards' keys")
        }
    }

    @Test func everyEditOfASettingUnderServeGivesWhatAFreshBuildGives() throws {
        let templates = try Self.templates()
        let sample = RenderSettings(try Self.sampleSettings())
        let cards = [Card(Self.sampleCard())] + Self.otherCards()
        let site = try TempSite()
        defer { site.remove() }
        let caches = ServeState(output: site.output)
        for edit in try ModelEdits(try Self.sampleSettings(), isExempt: Self.isExempt).edits {
            try Self.expectServeGivesAFreshBuild(cards, RenderSettings(edit.value), after: (cards, sample), templates, caches: caches, edit.path)
        }
    }

    /// An edit of any part of a feed's definition (its slug, folder, title, or which cards it
    /// shows) re-renders what it changes: serve gives what a fresh build gives.
    @Test func everyEditOfAFeedUnderServeGivesWhatAFreshBuildGives() throws {
        let templates = try Self.templates()
        let sample = try Self.sampleSettings()
        let cards = [Card(Self.sampleCard())] + Self.otherCards()
        let site = try TempSite()
        defer { site.remove() }
        let caches = ServeState(output: site.output)
        let edits = try ModelEdits(Self.sampleFeeds[1], isExempt: Self.isExempt)
        #expect(edits.problems.isEmpty, "\(edits.problems)")
        #expect(edits.edits.count >= 7)
        for edit in edits.edits {
            var edited = sample
            edited.feeds[1] = edit.value
            try Self.expectServeGivesAFreshBuild(cards, RenderSettings(edited), after: (cards, RenderSettings(sample)), templates, caches: caches, "feeds[1].\(edit.path)")
        }
    }

    @Test func everySettingOfTheDecoderCountsInItsKey() throws {
        let sample = CardDecoder(assets: .listed(["images/a.png"]), linkSchemes: URLCheck.linkSchemes)
        let edits = try ModelEdits(sample, isExempt: Self.isExempt)
        #expect(edits.problems.isEmpty, "\(edits.problems)")
        #expect(edits.exempt.isEmpty, "a setting left out of the key must be meant to be")
        #expect(!edits.edits.isEmpty)
        // The key is the decoder's hash through its mirror (`StableHash.reflecting`), the same in
        // every process, which the build cache on disk keeps entries under.
        for edit in edits.edits {
            #expect(StableHash.reflecting(edit.value) != StableHash.reflecting(sample), "\(edit.path) is not in the key of decoded cards: a rebuild would keep cards decoded before the edit")
        }
    }
}
