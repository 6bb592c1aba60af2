import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// What the templates of a feed's files (`feed.atom`, `feed.rss`) see: one feed, its entries the
/// cards of its front page, and the address of each of its files (`atomURL`, `rssURL`...). Every
/// address is absolute; times are ISO 8601, and RFC 822 where a name says so.
final class FeedDocumentView: MustacheObject {
    enum Own: String, CaseIterable, Sendable {
        case lang, baseURL, title, description, id, url, updated, updatedRFC822, siteTitle, version, entries
    }

    enum Key: ViewKey {
        case own(Own)
        /// The address of the feed's file of that format: `atomURL`.
        case file(OutputFormat)

        static let allCases: [Key] = Own.allCases.map(Key.own) + OutputFormat.alternates.map(Key.file)

        var rawValue: String {
            switch self {
            case .own(let own): own.rawValue
            case .file(let format): format.alternate! + "URL"
            }
        }

        var kind: FieldKind {
            switch self {
            case .own(.entries): .list(FeedEntryView.schema)
            case .own, .file: .text
            }
        }
    }
    static let schema = ViewSchema("feed document", Key.self)
    static let fields = MustacheFields(Key.self)

    let feed: Feed
    let entries: [FeedEntryView]
    /// The newest entry's time, or without entries the newest card's, in Unix seconds.
    let updated: Int64
    let syndication: Syndication

    init(feed: Feed, entries: [FeedEntryView], updated: Int64, syndication: Syndication) {
        self.feed = feed
        self.entries = entries
        self.updated = updated
        self.syndication = syndication
    }

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .own(let own): value(of: own)
        case .file(let format): .text(syndication.absolute(format.path(for: feed)))
        case nil: nil
        }
    }

    private func value(of own: Own) -> MustacheValue {
        switch own {
        case .lang: .text(syndication.settings.strings.locale)
        case .baseURL: .text(syndication.baseURL)
        case .title: .text(syndication.title(feed))
        case .description: .text(syndication.settings.head.description ?? syndication.title(feed))
        // The feed's Atom id: the address its first page had when feeds began, kept as it was
        // (readers know a feed by its id), while `url` names the page as the site serves it.
        case .id: .text(syndication.absolute(PagePaths.front(feed)))
        case .url: .text(syndication.pageURL(PagePaths.front(feed)))
        case .updated: .text(Formatting.iso(updated))
        case .updatedRFC822: .text(Formatting.rfc822(updated))
        case .siteTitle: .text(syndication.settings.siteTitle)
        case .version: .text(CardFeedVersion.current)
        case .entries: .objects(entries)
        }
    }
}

/// What `feed_entry` (the entry's HTML) and each of `feed.atom`'s `entries` see of a card.
final class FeedEntryView: MustacheObject {
    enum Key: String, ViewKey {
        case id, title, url, link, image, imageType, description, published, publishedRFC822, updated, categories, content, language

        var kind: FieldKind {
            switch self {
            case .id, .title, .url, .link, .imageType, .published, .publishedRFC822, .updated, .language: .text
            case .image: .view(ImageView.schema)
            case .description, .content: .html
            case .categories: .list(CategoryView.schema)
            }
        }
    }
    static let schema = ViewSchema("feed entry", Key.self)
    static let fields = MustacheFields(Key.self)

    let entry: FeedEntry
    /// What `feed_entry` rendered for the card; nil while it renders.
    let content: String?

    init(_ entry: FeedEntry, content: String?) {
        self.entry = entry
        self.content = content
    }

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .id: .text(entry.id)
        case .title: .text(entry.title)
        case .url: .text(entry.url)
        case .link: entry.link.mustache
        case .image: entry.image.map { .object($0) }
        case .imageType: entry.image.map { .text(FeedEntry.imageType($0.src)) }
        case .description: entry.description.mustache
        case .published: entry.published.map { .text(Formatting.iso($0)) }
        case .publishedRFC822: entry.published.map { .text(Formatting.rfc822($0)) }
        case .updated: .text(entry.updated)
        case .categories: .objects(entry.categories)
        case .content: content.mustache
        case .language: entry.language.mustache
        case nil: nil
        }
    }
}

/// What the formats of the whole site see (`OutputFormat.View.site`): `sitemap.xml` every page
/// of every feed the navigation lists, then every card's own page, in display order; `llms.txt`
/// the site's title and description and each listed feed with its newest cards.
final class SitemapView: MustacheObject {
    final class PageURL: MustacheObject {
        enum Key: String, ViewKey {
            case loc, lastmod, alternates

            var kind: FieldKind { self == .alternates ? .list(LanguagesView.Alternate.schema) : .text }
        }
        static let schema = ViewSchema("sitemap URL", Key.self)
        static let fields = MustacheFields(Key.self)

        /// The page's address.
        let loc: String
        /// Its newest card's time; nil for a page without cards.
        let lastmod: String?
        /// On a site in several languages, the page in each language that has it (`LanguageLinks`).
        let alternates: [LanguagesView.Alternate]

        init(loc: String, lastmod: String?, alternates: [LanguagesView.Alternate] = []) {
            self.loc = loc
            self.lastmod = lastmod
            self.alternates = alternates
        }

        func value(for name: MustacheName) -> MustacheValue? {
            switch Self.fields[name] {
            case .loc: .text(loc)
            case .lastmod: lastmod.mustache
            case .alternates: .objects(alternates)
            case nil: nil
            }
        }
    }

    /// A feed the navigation lists, as `llms.txt` names it: its title, front page, Atom file and
    /// newest cards.
    final class SiteFeed: MustacheObject {
        enum Key: String, ViewKey {
            case title, url, atomURL, language, cards, hasCards

            var kind: FieldKind {
                switch self {
                case .cards: .list(SiteCard.schema)
                case .hasCards: .flag
                case .title, .url, .atomURL, .language: .text
                }
            }
        }
        static let schema = ViewSchema("site feed", Key.self)
        static let fields = MustacheFields(Key.self)

        let title: String
        let url: String
        let atomURL: String
        /// The tree's language on a site in several languages; nil on a site in one.
        let language: String?
        let cards: [SiteCard]

        init(title: String, url: String, atomURL: String, language: String?, cards: [SiteCard]) {
            self.title = title
            self.url = url
            self.atomURL = atomURL
            self.language = language
            self.cards = cards
        }

        func value(for name: MustacheName) -> MustacheValue? {
            switch Self.fields[name] {
            case .title: .text(title)
            case .url: .text(url)
            case .atomURL: .text(atomURL)
            case .language: language.mustache
            case .cards: .objects(cards)
            case .hasCards: .bool(!cards.isEmpty)
            case nil: nil
            }
        }
    }

    /// A card as `llms.txt` lists it: its title (or the words of a card without one) and permalink.
    final class SiteCard: MustacheObject {
        enum Key: String, ViewKey {
            case title, url
            var kind: FieldKind { .text }
        }
        static let schema = ViewSchema("site card", Key.self)
        static let fields = MustacheFields(Key.self)

        let title: String
        let url: String

        init(title: String, url: String) {
            self.title = title
            self.url = url
        }

        func value(for name: MustacheName) -> MustacheValue? {
            switch Self.fields[name] {
            case .title: .text(title)
            case .url: .text(url)
            case nil: nil
            }
        }
    }

    enum Key: String, ViewKey {
        case urls, languages, title, description, feeds

        var kind: FieldKind {
            switch self {
            case .urls: .list(PageURL.schema)
            case .languages: .flag
            case .title, .description: .text
            case .feeds: .list(SiteFeed.schema)
            }
        }
    }
    static let schema = ViewSchema("sitemap", Key.self)
    static let fields = MustacheFields(Key.self)

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

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .urls: .objects(urls)
        case .languages: .bool(languages)
        case .title: .text(syndication.settings.siteTitle)
        case .description: syndication.settings.head.description.mustache
        case .feeds: .objects(feeds)
        case nil: nil
        }
    }
}
