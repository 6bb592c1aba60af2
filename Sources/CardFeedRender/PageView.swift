import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the page template sees: one page of one feed, in the shell every page of the site has
/// (`PageShell`, whose names it has too). Every name is a case of a `Key` (see `CardView`).
/// A class, so that the context stack holds it by reference.
final class PageView: MustacheObject {
    enum Key: String, ViewKey {
        case feed, cards, emptyMessage, pagination

        var kind: FieldKind {
            switch self {
            case .emptyMessage: .text
            case .feed: .view(FeedView.schema)
            case .cards: .cards
            case .pagination: .view(PaginationView.schema)
            }
        }
    }
    static let schema = ViewSchema("page", PageShell.Key.self, Key.self)

    let shell: PageShell
    let feed: FeedView
    /// How many cards the page shows. `{{#cards}}` leaves a hole in the page where they go,
    /// which the page's writer fills (see `PageFrame`).
    let cardCount: Int
    let pagination: PaginationView?

    /// `nav` and `alternates` are the shell's (see `PageShell`); `path` is the page's file,
    /// relative to the root.
    init(settings: RenderSettings, feed: FeedView, nav: MustacheValue, cardCount: Int, pagination: PaginationView?, alternates: MustacheValue, path: String) {
        self.feed = feed
        self.cardCount = cardCount
        self.pagination = pagination
        // The site's title on the front page, else the feed's (and the page's).
        var title = settings.siteTitle
        if !feed.feed.isFrontPage || pagination != nil {
            let name = pagination.map { settings.strings.format("pageTitle", ["feed": feed.title, "page": String($0.current), "total": String($0.total)]) } ?? feed.title
            title = "\(name) · \(settings.siteTitle)"
        }
        // cardfeed.yml's description, else what the page shows: "Brewline · News · 12 cards".
        let description = settings.head.description ?? "\(settings.siteTitle) · \(feed.title) · \(feed.countText)"
        shell = PageShell(
            settings: settings, path: path, title: title, description: description, nav: nav, alternates: alternates,
            preview: PageShell.Preview(title: title, description: description, image: settings.head.image, type: "website"))
    }

    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        if let key = PageShell.fields[name] { return shell.value(for: key) }
        switch Self.fields[name] {
        case .feed: return .object(feed)
        case .cards: return .deferredList(count: cardCount)
        case .emptyMessage: return .text(shell.settings.strings["emptyFeed"])
        case .pagination: return pagination.map { .object($0) }
        case nil: return nil
        }
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
