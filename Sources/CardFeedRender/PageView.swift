import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// What the page template sees: one page of one feed, in the shell every page of the site has
/// (`PageShell`, whose names it has too).
struct PageView: TemplateModel {
    static let names = ViewNames<Self>("page", shared: PageShell.self, { $0.shell.value(for: $1) }, [
        .view("feed", FeedView.self, "The feed the page is of.") { .view($0.feed) },
        .value("cards", .cards, "The page's cards, each as its card template renders it: `{{#cards}}{{{.}}}{{/cards}}`.") { .deferredList(count: $0.cardCount) },
        .text("emptyMessage", "What a feed without cards says.") { $0.shell.model.settings.strings["emptyFeed"] },
        .view("pagination", PaginationView.self, "The way to the feed's other pages; none on a page with none of them.") { $0.pagination.map(MustacheValue.view) },
        .view("dates", DatesView.self, """
            The days of the page's cards, but the pinned ones on a front page; none for a page whose cards have no date.
            """) { $0.dates.map(MustacheValue.view) },
    ])

    /// Held by reference: the page's names of the shell reach it on every lookup, where a copy
    /// of its dozen values would be made each time.
    let shell: TemplateObject<PageShell>
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
        shell = TemplateObject(PageShell(
            settings: settings, path: path, title: title, description: description, nav: nav, alternates: alternates,
            preview: PageShell.Preview(title: title, description: description, image: settings.head.image, type: "website"), languages: languages))
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
struct FeedView: TemplateModel {
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

    static let names = ViewNames<Self>("feed", [
        .text("slug", "The feed's slug.") { $0.slug },
        .text("title", "Its title.") { $0.title },
        .text("href", "Its front page.") { $0.href },
    ])
}

/// A feed's files that its pages link with `rel="alternate"` (`OutputFormat.alternates`): each
/// by its format's name (`{{atom}}`), and all of them as `links`, each with its media type.
struct AlternateView: TemplateModel {
    let feed: Feed
    let title: String

    static let names = ViewNames<Self>("alternates", [
        .text("title", "The feed's title, as its files name it.") { $0.title },
        .list("links", AlternateLink.self, "Every feed file in turn, as the built-in `partials/head` links them.") { view in
            .views(OutputFormat.alternates.map { AlternateLink(href: $0.path(for: view.feed), type: $0.mediaType) })
        },
    ] + OutputFormat.alternates.enumerated().map { number, format in
        .numbered(format.alternate!, .text, "The address of the feed's \(format.name) file.", number) { .text(OutputFormat.alternates[$1].path(for: $0.feed)) }
    })
}

/// One of a feed's files that its pages link: its address and media type.
struct AlternateLink: TemplateModel {
    let href, type: String

    static let names = ViewNames<Self>("alternate link", [
        .text("href", "The file's address.") { $0.href },
        .text("type", "Its media type.") { $0.type },
    ])
}

/// A feed in the navigation: its title and link, without its card count, which would change
/// every page of the site with every card.
struct NavItem: TemplateModel {
    let slug, title, href: String
    let current: Bool

    static let names = ViewNames<Self>("nav item", [
        .text("slug", "The feed's slug.") { $0.slug },
        .text("title", "Its title.") { $0.title },
        .text("href", "Its front page.") { $0.href },
        .flag("current", "True for the page's own feed.") { $0.current },
    ])

    /// A switch, as the card view's (see `CardView.value(of:for:)`): every page, a card's too,
    /// reads each feed's item.
    static func value(of item: NavItem, for name: MustacheName) -> MustacheValue? {
        switch keys[name] {
        case .slug?: .text(item.slug)
        case .title?: .text(item.title)
        case .href?: .text(item.href)
        case .current?: .bool(item.current)
        case nil: nil
        }
    }

    enum Key: String, CaseIterable {
        case slug, title, href, current
    }

    /// Made from the declared names, so a name the switch lacks stops every build at once.
    static let keys = MustacheFields<Key>(names.schema.names.map { ($0, Key(rawValue: $0)!) })
}

/// The way from a page to the feed's newer and older pages, and back to its front page. No
/// list of numbered pages: every page would change with every card.
struct PaginationView: TemplateModel {
    static let names = ViewNames<Self>("pagination", [
        .text("newer", "The next newer page (from the newest archive page, the front page).") { $0.newer },
        .text("older", "The next older page.") { $0.older },
        .text("latest", "The front page, on an archive page whose newer page is not the front page.") { $0.latest },
    ])

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
struct DatesView: TemplateModel {
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

    static let names = ViewNames<Self>("dates", [
        .text("text", "The days: `Feb 11 – Mar 2, 2026`.") { $0.text },
        .view("oldest", MomentView.self, "The oldest card's time.") { .view($0.oldest) },
        .view("newest", MomentView.self, "The newest card's time.") { .view($0.newest) },
    ])
}
