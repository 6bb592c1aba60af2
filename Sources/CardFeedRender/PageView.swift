import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the page template sees: one page of one feed. Every name is a case of `Key` (see `CardView`).
/// A class, so that the context stack holds it by reference.
final class PageView: MustacheObject {
    enum Key: String, ViewKey {
        case lang, rtl, siteTitle, title, root, path, stylesheet, stylesheets, generator
        case feed, nav, cards, emptyMessage, pagination, strings, madeWith, alternates, csp
        case description, favicon, canonical, social

        var kind: FieldKind {
            switch self {
            case .lang, .siteTitle, .title, .root, .path, .stylesheet, .generator, .emptyMessage, .madeWith, .csp, .description, .canonical: .text
            case .stylesheets: .texts
            case .rtl: .flag
            case .feed: .view(FeedView.schema)
            case .nav: .list(NavItem.schema)
            case .cards: .cards
            case .pagination: .view(PaginationView.schema)
            case .strings: .open
            case .alternates: .list(AlternateView.schema)
            case .favicon: .view(FaviconView.schema)
            case .social: .view(SocialView.schema)
            }
        }
    }
    static let schema = ViewSchema("page", Key.self)

    let settings: RenderSettings
    let feed: FeedView
    /// `.objects` of the feeds' `NavItem`s, made once for all the pages of a feed.
    let nav: MustacheValue
    /// How many cards the page shows. `{{#cards}}` leaves a hole in the page where they go,
    /// which the page's writer fills (see `PageFrame`).
    let cardCount: Int
    let pagination: PaginationView?
    /// `.objects` of the feed's Atom and JSON Feed files (none without a base URL).
    let alternates: MustacheValue
    let root: String
    /// This page's file, relative to the root.
    let path: String

    init(
        settings: RenderSettings, feed: FeedView, nav: MustacheValue, cardCount: Int, pagination: PaginationView?,
        alternates: MustacheValue, root: String, path: String
    ) {
        self.settings = settings
        self.feed = feed
        self.nav = nav
        self.cardCount = cardCount
        self.pagination = pagination
        self.alternates = alternates
        self.root = root
        self.path = path
    }

    /// The page's `<title>`: the site's title on the front page, else the feed's (and the page's).
    var title: String {
        if feed.feed.isFrontPage && pagination == nil { return settings.siteTitle }
        let name = pagination.map { settings.strings.format("pageTitle", ["feed": feed.title, "page": String($0.current), "total": String($0.total)]) } ?? feed.title
        return "\(name) · \(settings.siteTitle)"
    }

    /// cardfeed.yml's description, else what the page shows: "Brewline · News · 12 cards".
    var description: String {
        settings.head.description ?? "\(settings.siteTitle) · \(feed.title) · \(feed.countText)"
    }

    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        guard let key = Self.fields[name] else { return nil }
        let strings = settings.strings
        switch key {
        case .lang: return .text(strings.locale)
        case .rtl: return .bool(settings.direction == .rtl)
        case .siteTitle: return .text(settings.siteTitle)
        case .title: return .text(title)
        case .root: return .text(root)
        case .path: return .text(path)
        case .stylesheet: return settings.stylesheets.first.mustache
        case .stylesheets: return settings.pageConstants.stylesheets
        case .generator: return .text(PageConstants.generator)
        case .feed: return .object(feed)
        case .nav: return nav
        case .cards: return .deferredList(count: cardCount)
        case .emptyMessage: return .text(strings["emptyFeed"])
        case .pagination: return pagination.map { .object($0) }
        case .strings: return .object(settings.stringsView)
        case .alternates: return alternates
        case .csp: return settings.contentSecurityPolicy.mustache
        case .description: return .text(description)
        case .favicon: return .object(FaviconView(settings.head.favicon))
        case .canonical: return settings.baseURL.map { .text($0 + PagePaths.served(path)) }
        case .social:
            guard let baseURL = settings.baseURL else { return nil }
            return .object(SocialView(url: baseURL + PagePaths.served(path), title: title, description: description, image: settings.head.image, siteName: settings.siteTitle))
        case .madeWith: return settings.pageConstants.madeWith
        }
    }
}

/// What every page shows the same, worked out once a build rather than on each of thousands
/// of pages.
struct PageConstants: Sendable {
    static let generator = "CardFeed \(CardFeedVersion.current)"
    let stylesheets: MustacheValue
    let madeWith: MustacheValue

    init(strings: StringTable, stylesheets: [String]) {
        self.stylesheets = .list(stylesheets.map(MustacheValue.text))
        madeWith = .text(strings.format("madeWith", ["generator": Self.generator]))
    }
}

final class FeedView: MustacheObject {
    let feed: Feed
    let slug: String
    let title: String
    let count: Int
    /// "1 card", "12 cards", with the page when there are several: "12 cards · page 2 of 3".
    let countText: String
    let href: String

    /// The feed as its first page shows it when it has only one; see `onPage`.
    init(_ selection: FeedSelection, strings: StringTable) {
        feed = selection.feed
        slug = selection.feed.slug
        title = strings.feedTitle(selection.feed)
        count = selection.cards.count
        countText = strings.cardCount(count)
        href = PagePaths.href(feed: selection.feed, page: 1)
    }

    private init(_ other: FeedView, countText: String) {
        feed = other.feed
        slug = other.slug
        title = other.title
        count = other.count
        self.countText = countText
        href = other.href
    }

    /// The feed as page `page` of `total` shows it: with several pages, the count says which.
    func onPage(_ page: Int, of total: Int, strings: StringTable) -> FeedView {
        guard total > 1 else { return self }
        return FeedView(self, countText: countText + " · " + strings.format("pageOfTotal", ["page": String(page), "total": String(total)]))
    }

    enum Key: String, ViewKey {
        case slug, title, count, countText, href

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("feed", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .slug: .text(slug)
        case .title: .text(title)
        case .count: .int(count)
        case .countText: .text(countText)
        case .href: .text(href)
        case nil: nil
        }
    }
}

final class AlternateView: MustacheObject {
    let atom: String
    let json: String
    let title: String

    enum Key: String, ViewKey {
        case atom, json, title

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("alternates", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .atom: .text(atom)
        case .json: .text(json)
        case .title: .text(title)
        case nil: nil
        }
    }

    init(feed: Feed, title: String) {
        atom = Syndication.atomFile(feed)
        json = Syndication.jsonFile(feed)
        self.title = title
    }
}

final class NavItem: MustacheObject {
    let slug: String
    let title: String
    let count: Int
    /// "card" or "cards" after the count, for screen readers, in the plural form `count` takes.
    let countNoun: String
    let href: String
    let current: Bool

    init(slug: String, title: String, count: Int, countNoun: String, href: String, current: Bool) {
        self.slug = slug
        self.title = title
        self.count = count
        self.countNoun = countNoun
        self.href = href
        self.current = current
    }

    enum Key: String, ViewKey {
        case slug, title, count, countNoun, href, current

        var kind: FieldKind {
            switch self {
            case .slug, .title, .count, .countNoun, .href: .text
            case .current: .flag
            }
        }
    }
    static let schema = ViewSchema("nav item", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .slug: .text(slug)
        case .title: .text(title)
        case .count: .int(count)
        case .countNoun: .text(countNoun)
        case .href: .text(href)
        case .current: .bool(current)
        case nil: nil
        }
    }
}

final class PaginationView: MustacheObject {
    final class PageLink: MustacheObject {
        init(number: Int, href: String, current: Bool, gap: Bool) {
            self.number = number
            self.href = href
            self.current = current
            self.gap = gap
        }

        let number: Int
        let href: String
        let current: Bool
        /// Pages were left out before this one ("…").
        let gap: Bool

        enum Key: String, ViewKey {
            case number, href, current, gap

            var kind: FieldKind {
                switch self {
                case .number, .href: .text
                case .current, .gap: .flag
                }
            }
        }
        static let schema = ViewSchema("page link", Key.self)
        static let fields = MustacheFields(Key.self)

        func value(for name: MustacheName) -> MustacheValue? {
            switch Self.fields[name] {
            case .number: .int(number)
            case .href: .text(href)
            case .current: .bool(current)
            case .gap: .bool(gap)
            case nil: nil
            }
        }
    }

    enum Key: String, ViewKey {
        case current, total, previous, next, pages

        var kind: FieldKind {
            switch self {
            case .current, .total, .previous, .next: .text
            case .pages: .list(PageLink.schema)
            }
        }
    }
    static let schema = ViewSchema("pagination", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .current: .int(current)
        case .total: .int(total)
        case .previous: previous.mustache
        case .next: next.mustache
        case .pages: .objects(pages)
        case nil: nil
        }
    }

    let current: Int
    let total: Int
    let previous: String?
    let next: String?
    let pages: [PageLink]

    init?(feed: Feed, page: Int, total: Int) {
        guard total > 1 else { return nil }
        current = page
        self.total = total
        previous = page > 1 ? PagePaths.href(feed: feed, page: page - 1) : nil
        next = page < total ? PagePaths.href(feed: feed, page: page + 1) : nil
        // First, last and two either side of the current page: a feed of thousands of pages
        // must not put thousands of links on every page.
        var shown: [Int] = []
        for number in [1] + Array(max(1, page - 2)...min(total, page + 2)) + [total] where number > (shown.last ?? 0) {
            shown.append(number)
        }
        pages = shown.enumerated().map { offset, number in
            PageLink(
                number: number, href: PagePaths.href(feed: feed, page: number), current: number == page,
                gap: offset > 0 && shown[offset - 1] != number - 1)
        }
    }
}
