import Mustache

/// What the page template sees: one page of one feed. Every name is a case of `Key` (see `CardView`).
struct PageView: MustacheParent, Sendable {
    enum Key: String, CaseIterable {
        case lang, siteTitle, title, root, path, stylesheet, stylesheets, generator
        case feed, nav, cards, emptyMessage, pagination, strings, madeWith, alternates, csp
    }

    let settings: RenderSettings
    var feed: FeedView
    var nav: [NavItem]
    /// The page's cards, already rendered.
    var cards: [String]
    var pagination: PaginationView?
    /// The feed's Atom and JSON Feed files, when the site has a base URL.
    var alternates: [AlternateView]
    var root: String
    /// This page's file, relative to the root.
    var path: String

    /// The page's `<title>`: the site's title on the front page, else the feed's (and the page's).
    var title: String {
        if feed.feed == .all && pagination == nil { return settings.siteTitle }
        let name = pagination.map { settings.strings.format("pageTitle", ["feed": feed.title, "page": String($0.current), "total": String($0.total)]) } ?? feed.title
        return "\(name) · \(settings.siteTitle)"
    }

    private static let keys = Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.rawValue, $0) })

    func child(named name: String) -> Any? {
        guard let key = Self.keys[name] else { return nil }
        let strings = settings.strings
        switch key {
        case .lang: return Text(strings.locale)
        case .siteTitle: return Text(settings.siteTitle)
        case .title: return Text(title)
        case .root: return Text(root)
        case .path: return Text(path)
        case .stylesheet: return settings.stylesheets.first.text
        case .stylesheets: return settings.stylesheets.map(Text.init)
        case .generator: return Text("CardFeed \(CardFeedVersion.current)")
        case .feed: return feed
        case .nav: return nav
        case .cards: return cards.map(Text.init)
        case .emptyMessage: return Text(strings["emptyFeed"])
        case .pagination: return pagination
        case .strings: return StringsView(table: strings)
        case .alternates: return alternates
        case .csp: return settings.contentSecurityPolicy.text
        case .madeWith: return Text(strings.format("madeWith", ["generator": "CardFeed \(CardFeedVersion.current)"]))
        }
    }
}

struct FeedView: TemplateValue, Sendable {
    var feed: Feed
    var slug: String
    var title: String
    var count: Int
    /// "1 card", "12 cards", with the page when there are several: "12 cards · page 2 of 3".
    var countText: String
    var href: String

    /// The feed as its first page shows it when it has only one; see `onPage`.
    init(_ selection: FeedSelection, strings: StringTable) {
        feed = selection.feed
        slug = selection.feed.slug
        title = strings.feedTitle(selection.feed)
        count = selection.cards.count
        countText = strings.cardCount(count)
        href = PagePaths.href(feed: selection.feed, page: 1)
    }

    /// The feed as page `page` of `total` shows it: with several pages, the count says which.
    func onPage(_ page: Int, of total: Int, strings: StringTable) -> FeedView {
        guard total > 1 else { return self }
        var view = self
        view.countText += " · " + strings.format("pageOfTotal", ["page": String(page), "total": String(total)])
        return view
    }

    func child(named name: String) -> Any? {
        switch name {
        case "slug": Text(slug)
        case "title": Text(title)
        case "count": count
        case "countText": Text(countText)
        case "href": Text(href)
        default: nil
        }
    }
}

struct AlternateView: TemplateValue, Sendable {
    var atom: String
    var json: String
    var title: String

    func child(named name: String) -> Any? {
        switch name {
        case "atom": Text(atom)
        case "json": Text(json)
        case "title": Text(title)
        default: nil
        }
    }

    init(feed: Feed, title: String) {
        atom = Syndication.atomFile(feed)
        json = Syndication.jsonFile(feed)
        self.title = title
    }
}

struct NavItem: TemplateValue, Sendable {
    var slug: String
    var title: String
    var count: Int
    /// "card" or "cards" after the count, for screen readers, in the plural form `count` takes.
    var countNoun: String
    var href: String
    var current: Bool

    func child(named name: String) -> Any? {
        switch name {
        case "slug": Text(slug)
        case "title": Text(title)
        case "count": count
        case "countNoun": Text(countNoun)
        case "href": Text(href)
        case "current": current
        default: nil
        }
    }
}

struct PaginationView: TemplateValue, Sendable {
    struct PageLink: TemplateValue, Sendable {
        var number: Int
        var href: String
        var current: Bool
        /// Pages were left out before this one ("…").
        var gap: Bool

        func child(named name: String) -> Any? {
            switch name {
            case "number": number
            case "href": Text(href)
            case "current": current
            case "gap": gap
            default: nil
            }
        }
    }

    func child(named name: String) -> Any? {
        switch name {
        case "current": current
        case "total": total
        case "previous": previous.text
        case "next": next.text
        case "pages": pages
        default: nil
        }
    }

    var current: Int
    var total: Int
    var previous: String?
    var next: String?
    var pages: [PageLink]

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

public enum CardFeedVersion {
    public static let current = "0.1.0"
}
