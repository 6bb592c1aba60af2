import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// What the templates of a feed's files (`feed.atom`, `feed.rss`) see: one feed, its entries the
/// cards of its front page, and the address of each of its files (`atomURL`, `rssURL`...). Every
/// address is absolute; times are ISO 8601, and RFC 822 where a name says so.
struct FeedDocumentView: TemplateModel {
    static let names = ViewNames<Self>("feed document", [
        .text("lang", "The site's language tag.") { $0.syndication.settings.strings.locale },
        .text("baseURL", "The site's base URL.") { $0.syndication.baseURL },
        .text("title", "The feed's title.") { $0.syndication.title($0.feed) },
        .text("description", "cardfeed.yml's `description`, else the title.") { $0.syndication.settings.head.description ?? $0.syndication.title($0.feed) },
        // The feed's Atom id: the address its first page had when feeds began, kept as it was
        // (readers know a feed by its id), while `url` names the page as the site serves it.
        .text("id", "Its Atom id.") { $0.syndication.absolute(PagePaths.front($0.feed)) },
        .text("url", "Its front page.") { $0.syndication.pageURL(PagePaths.front($0.feed)) },
        .text("updated", "Its newest card's time.") { Formatting.iso($0.updated) },
        .text("updatedRFC822", "The same, as RSS writes dates.") { Formatting.rfc822($0.updated) },
        .text("siteTitle", "The site's title.") { $0.syndication.settings.siteTitle },
        .text("version", "CardFeed's version.") { _ in CardFeedVersion.current },
        .list("entries", FeedEntryView.self, "The cards of its front page.") { .views($0.entries) },
    ] + OutputFormat.alternates.enumerated().map { number, format in
        .numbered(format.alternate! + "URL", .text, "The address of its \(format.name) file.", number) { view, number in
            .text(view.syndication.absolute(OutputFormat.alternates[number].path(for: view.feed)))
        }
    })

    let feed: Feed
    let entries: [FeedEntryView]
    /// The newest entry's time, or without entries the newest card's, in Unix seconds.
    let updated: Int64
    let syndication: Syndication
}

/// What `feed_entry` (the entry's HTML) and each of `feed.atom`'s `entries` see of a card.
struct FeedEntryView: TemplateModel {
    static let names = ViewNames<Self>("feed entry", [
        .text("id", "The entry's id.") { $0.entry.id },
        .text("title", "The card's title; for a card without one, the start of its description's text, else its image's alt text, link text or id.") {
            $0.entry.title
        },
        .text("url", "The card on its page.") { $0.entry.url },
        .text("link", "The card's own link.") { $0.entry.link },
        .view("image", ImageView.self, "The card's own image (`src`, `alt`), not the placeholder.") { $0.entry.image.map(MustacheValue.view) },
        .text("imageType", "Its media type.") { $0.entry.image.map { FeedEntry.imageType($0.src) } },
        .html("description", "In `feed_entry`: the description's HTML, `{{{description}}}`.") { $0.entry.description },
        .text("published", "When the card was made; empty for a card without a date.") { $0.entry.published.map(Formatting.iso) },
        .text("publishedRFC822", "The same, as RSS writes dates.") { $0.entry.published.map(Formatting.rfc822) },
        .text("updated", "When it last changed.") { $0.entry.updated },
        .list("categories", CategoryView.self, "Every category of the card, `href` empty for one without a feed.") { .list($0.entry.categories.map(MustacheValue.object)) },
        .html("content", "In `feed.atom` and `feed.rss`: what `feed_entry` rendered.") { $0.content },
        .text("language", "The card's language tag.") { $0.entry.language },
    ])

    let entry: FeedEntry
    /// What `feed_entry` rendered for the card; nil while it renders.
    let content: String?

    init(_ entry: FeedEntry, content: String?) {
        self.entry = entry
        self.content = content
    }
}

/// What the formats of the whole site see (`OutputFormat.View.site`): `sitemap.xml` every page
/// of every feed the navigation lists, then every card's own page, in display order; `llms.txt`
/// the site's title and description and each listed feed with its newest cards.
struct SitemapView: TemplateModel {
    struct PageURL: TemplateModel {
        static let names = ViewNames<Self>("sitemap URL", [
            .text("loc", "The page's address.") { $0.loc },
            .text("lastmod", "The page's newest card's time; empty for a page without cards.") { $0.lastmod },
            .list("alternates", LanguagesView.Alternate.self, """
                On a site in several languages, the page in each language that has it, itself included, and `x-default`.
                """) { .views($0.alternates) },
        ])

        /// The page's address.
        let loc: String
        /// Its newest card's time; nil for a page without cards.
        let lastmod: String?
        /// On a site in several languages, the page in each language that has it (`LanguageLinks`).
        var alternates: [LanguagesView.Alternate] = []
    }

    /// A feed the navigation lists, as `llms.txt` names it: its title, front page, Atom file and
    /// newest cards.
    struct SiteFeed: TemplateModel {
        static let names = ViewNames<Self>("site feed", [
            .text("title", "The feed's title.") { $0.title },
            .text("url", "Its front page.") { $0.url },
            .text("atomURL", "Its Atom file.") { $0.atomURL },
            .text("language", "Its tree's language, on a site in several languages; else empty.") { $0.language },
            .list("cards", SiteCard.self, "Its front page's first 10 cards.") { .views($0.cards) },
            .flag("hasCards", "True for a feed with cards.") { !$0.cards.isEmpty },
        ])

        let title, url, atomURL: String
        /// The tree's language on a site in several languages; nil on a site in one.
        let language: String?
        let cards: [SiteCard]
    }

    /// A card as `llms.txt` lists it: its title (or the words of a card without one) and permalink.
    struct SiteCard: TemplateModel {
        static let names = ViewNames<Self>("site card", [
            .text("title", "The card's title, or the words that stand for it.") { $0.title },
            .text("url", "Its permalink.") { $0.url },
        ])

        let title, url: String
    }

    static let names = ViewNames<Self>("sitemap", [
        .list("urls", PageURL.self, "Every page of every feed the navigation lists, then every card's own page.") { .views($0.urls) },
        .flag("languages", "True on a site in several languages.") { $0.languages },
        .text("title", "The site's title (`llms.txt`).") { $0.syndication.settings.siteTitle },
        .text("description", "cardfeed.yml's `description`; empty without one.") { $0.syndication.settings.head.description },
        .list("feeds", SiteFeed.self, "Each feed the navigation lists, every language's in turn (`llms.txt`).") { .views($0.feeds) },
    ])

    /// The newest cards of a feed that `feeds` lists: its front page's first, in the page's order.
    static let cardsPerFeed = 10

    let urls: [PageURL]
    /// A site in several languages: its URLs have `xhtml:link` alternates.
    let languages: Bool
    let feeds: [SiteFeed]
    let syndication: Syndication

    /// `selections`: each language's tree, in the order of `languages` (one without it), and
    /// `trees` the settings each renders with (its strings name its feeds).
    init(_ selections: [Selection], trees: [RenderSettings], syndication: Syndication, languages: LanguageLinks? = nil) {
        var urls: [PageURL] = []
        for (tree, selection) in selections.enumerated() { urls += Self.urls(selection, syndication: syndication, languages: languages.map { ($0, tree) }) }
        self.urls = urls
        self.languages = languages != nil
        feeds = zip(selections, trees).flatMap { selection, settings in
            Self.feeds(selection, settings: settings, syndication: syndication, language: languages != nil ? settings.strings.locale : nil)
        }
        self.syndication = syndication
    }

    /// The pages of one language's tree.
    private static func urls(_ selection: Selection, syndication: Syndication, languages: (links: LanguageLinks, tree: Int)?) -> [PageURL] {
        var urls: [PageURL] = []
        for feed in selection.feeds where feed.listed {
            for (index, page) in feed.pages.enumerated() {
                let newest = page.cards.map { selection.cards[feed.cards[$0]].sortTime }.max()
                let alternates = index == 0 ? languages.map { $0.links.alternates(tree: $0.tree, feed: feed.feed.slug) } ?? [] : []
                urls.append(PageURL(loc: syndication.pageURL(page.path), lastmod: newest.map(Formatting.iso), alternates: alternates))
            }
        }
        if syndication.settings.cardPages {
            for position in selection.cards.indices {
                let page = PagePaths.cardPage(anchor: selection.cards.anchor(at: position), tree: selection.tree)
                let alternates = languages.map { $0.links.alternates(tree: $0.tree, card: selection.cards[position].id) } ?? []
                urls.append(PageURL(loc: syndication.pageURL(page), lastmod: Formatting.iso(selection.cards[position].sortTime), alternates: alternates))
            }
        }
        return urls
    }

    /// The listed feeds of one language's tree, each with its newest cards.
    private static func feeds(_ selection: Selection, settings: RenderSettings, syndication: Syndication, language: String?) -> [SiteFeed] {
        let places = CardPlaces(selection, cardPages: settings.cardPages)
        let linkSchemes = settings.links.linkSchemes
        return selection.feeds.filter(\.listed).map { feed in
            let cards = feed.front.cards.prefix(cardsPerFeed).map { index in
                let position = feed.cards[index]
                let card = selection.cards[position]
                let title = CardText.title(of: card, words: card.title == nil ? CardText.words(of: card, linkSchemes: linkSchemes) : nil)
                let permalink = places.permalink(position: position, anchor: selection.cards.anchor(at: position))
                return SiteCard(title: title, url: syndication.pageURL(permalink))
            }
            return SiteFeed(
                title: settings.strings.feedTitle(feed.feed), url: syndication.pageURL(PagePaths.front(feed.feed)),
                atomURL: syndication.absolute(OutputFormat.atom.path(for: feed.feed)), language: language, cards: cards)
        }
    }
}
