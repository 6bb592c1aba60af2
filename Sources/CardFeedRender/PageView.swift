import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// What the page template sees: one page of one feed, in the shell every page of the site has
/// (`PageShell`, whose names it has too). Every name is a case of a `Key` (see `CardView`).
/// A class, so that the context stack holds it by reference.
final class PageView: MustacheObject {
    enum Key: String, ViewKey {
        case feed, cards, emptyMessage, pagination, dates

        var kind: FieldKind {
            switch self {
            case .emptyMessage: .text
            case .feed: .view(FeedView.schema)
            case .cards: .cards
            case .pagination: .view(PaginationView.schema)
            case .dates: .view(DatesView.schema)
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
    /// The days the page's cards are from; nil for a page of cards without a date.
    let dates: DatesView?

    /// `nav` and `alternates` are the shell's (see `PageShell`); `path` is the page's file,
    /// relative to the root.
    init(
        settings: RenderSettings, feed: FeedView, nav: MustacheValue, cardCount: Int, pagination: PaginationView?, dates: DatesView?,
        alternates: MustacheValue, path: String, languages: LanguagesView? = nil
    ) {
        self.feed = feed
        self.cardCount = cardCount
        self.pagination = pagination
        self.dates = dates
        // The site's title on the site's front page, else the feed's, and on an archive page
        // its days: "News, Feb 11 – Mar 2, 2026 · Brewline".
        let isFrontPage = path == feed.href
        var title = settings.siteTitle
        if !(feed.feed.isFrontPage && isFrontPage) {
            let name = (isFrontPage ? nil : dates).map { settings.strings.format("archiveTitle", ["feed": feed.title, "dates": $0.text]) } ?? feed.title
            title = "\(name) · \(settings.siteTitle)"
        }
        // cardfeed.yml's description, else what the page shows: "Brewline · News · Feb 11 – Mar 2, 2026".
        let description = settings.head.description ?? ([settings.siteTitle, feed.title] + [dates?.text].compactMap { $0 }).joined(separator: " · ")
        shell = PageShell(
            settings: settings, path: path, title: title, description: description, nav: nav, alternates: alternates,
            preview: PageShell.Preview(title: title, description: description, image: settings.head.image, type: "website"), languages: languages)
    }

    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        if let key = PageShell.fields[name] { return shell.value(for: key) }
        switch Self.fields[name] {
        case .feed: return .object(feed)
        case .cards: return .deferredList(count: cardCount)
        case .emptyMessage: return .text(shell.settings.strings["emptyFeed"])
        case .pagination: return pagination.map { .object($0) }
        case .dates: return dates.map { .object($0) }
        case nil: return nil
        }
    }
}

/// The search box of a site with search (`search: true`): its script, which finds its words in
/// the string table and the index in `pagefind/`, and its stylesheet, assets that only such a
/// site has, so that a site without search is written as if search did not exist.
package enum SearchBox {
    package static let script = "cardfeed-search.js"
    package static let stylesheet = "cardfeed-search.css"
}

/// The feed a page belongs to. No card count: it would change the feed's pages with every card
/// that comes or goes (the navigation's would change every page of the site).
final class FeedView: MustacheObject {
    let feed: Feed
    let slug: String
    let title: String
    let href: String

    init(_ feed: Feed, strings: StringTable) {
        self.feed = feed
        slug = feed.slug
        title = strings.feedTitle(feed)
        href = PagePaths.front(feed)
    }

    enum Key: String, ViewKey {
        case slug, title, href

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("feed", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .slug: .text(slug)
        case .title: .text(title)
        case .href: .text(href)
        case nil: nil
        }
    }
}

/// A feed's files that its pages link with `rel="alternate"` (`OutputFormat.alternates`): each
/// by its format's name (`{{atom}}`), and all of them as `links`, each with its media type.
final class AlternateView: MustacheObject {
    let feed: Feed
    let title: String

    enum Key: ViewKey {
        case title, links
        case format(OutputFormat)

        static let allCases: [Key] = [.title, .links] + OutputFormat.alternates.map(Key.format)

        var rawValue: String {
            switch self {
            case .title: "title"
            case .links: "links"
            case .format(let format): format.alternate!
            }
        }

        var kind: FieldKind {
            switch self {
            case .title, .format: .text
            case .links: .list(AlternateLink.schema)
            }
        }
    }
    static let schema = ViewSchema("alternates", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .title: .text(title)
        case .links: .objects(OutputFormat.alternates.map { AlternateLink(href: $0.path(for: feed), type: $0.mediaType) })
        case .format(let format): .text(format.path(for: feed))
        case nil: nil
        }
    }

    init(feed: Feed, title: String) {
        self.feed = feed
        self.title = title
    }
}

/// One of a feed's files that its pages link: its address and media type.
final class AlternateLink: MustacheObject {
    let href: String
    let type: String

    init(href: String, type: String) {
        self.href = href
        self.type = type
    }

    enum Key: String, ViewKey {
        case href, type

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("alternate link", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .href: .text(href)
        case .type: .text(type)
        case nil: nil
        }
    }
}

/// A feed in the navigation: its title and link, without its card count, which would change
/// every page of the site with every card.
final class NavItem: MustacheObject {
    let slug: String
    let title: String
    let href: String
    let current: Bool

    init(slug: String, title: String, href: String, current: Bool) {
        self.slug = slug
        self.title = title
        self.href = href
        self.current = current
    }

    enum Key: String, ViewKey {
        case slug, title, href, current

        var kind: FieldKind {
            switch self {
            case .slug, .title, .href: .text
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
        case .href: .text(href)
        case .current: .bool(current)
        case nil: nil
        }
    }
}

/// The way from a page to the feed's newer and older pages, and back to its front page. No
/// list of numbered pages: every page would change with every card.
final class PaginationView: MustacheObject {
    enum Key: String, ViewKey {
        case newer, older, latest

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("pagination", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .newer: newer.mustache
        case .older: older.mustache
        case .latest: latest.mustache
        case nil: nil
        }
    }

    /// The next newer page (from the newest archive page, the front page), the next older one,
    /// and the front page, from an archive page that does not link it as its newer one.
    let newer: String?
    let older: String?
    let latest: String?

    /// The links of page `index` of the feed's `pages` (0: the front page); nil for a page
    /// with none, the front page of a feed it shows whole.
    init?(_ feed: FeedSelection, page index: Int) {
        let archive = feed.archive
        if index == 0 {
            guard feed.archiveOnFront < archive.count else { return nil }
            (newer, older, latest) = (nil, archive[feed.archiveOnFront].path, nil)
        } else {
            let page = index - 1
            newer = page == 0 ? feed.front.path : archive[page - 1].path
            older = page + 1 < archive.count ? archive[page + 1].path : nil
            latest = page == 0 ? nil : feed.front.path
        }
    }
}

/// The days a page's cards are from, oldest to newest, on the site's clocks.
final class DatesView: MustacheObject {
    /// "Feb 11 – Mar 2, 2026", "Mar 2, 2026" for cards of one day.
    let text: String
    let oldest: MomentView
    let newest: MomentView

    /// The days of cards at `times` (`Card.sortTime`); nil without any.
    init?(times: some Sequence<Int64>, settings: RenderSettings) {
        var range: (oldest: Int64, newest: Int64)?
        for time in times { range = range.map { (min($0.oldest, time), max($0.newest, time)) } ?? (time, time) }
        guard let range else { return nil }
        text = settings.strings.dateRange(range.oldest, range.newest, in: settings.timeZone)
        oldest = settings.moment(range.oldest)
        newest = settings.moment(range.newest)
    }

    enum Key: String, ViewKey {
        case text, oldest, newest

        var kind: FieldKind {
            switch self {
            case .text: .text
            case .oldest, .newest: .view(MomentView.schema)
            }
        }
    }
    static let schema = ViewSchema("dates", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .text: .text(text)
        case .oldest: .object(oldest)
        case .newest: .object(newest)
        case nil: nil
        }
    }
}
