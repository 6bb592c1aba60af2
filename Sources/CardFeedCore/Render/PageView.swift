import Mustache

/// What the page template sees: one page of one feed. Every name is a case of `Key` (see `CardView`).
struct PageView: MustacheParent {
    enum Key: String, CaseIterable {
        case lang, siteTitle, title, root, path, stylesheet, generator
        case feed, nav, cards, emptyMessage, pagination
    }

    var siteTitle: String
    var feed: FeedView
    var nav: [NavItem]
    /// The page's cards, already rendered.
    var cards: [String]
    var pagination: PaginationView?
    var root: String
    /// This page's file, relative to the root.
    var path: String

    func child(named name: String) -> Any? {
        guard let key = Key(rawValue: name) else { return nil }
        switch key {
        case .lang: return "en"
        case .siteTitle: return siteTitle
        case .title:
            let page = pagination.map { ", page \($0.current) of \($0.total)" } ?? ""
            return feed.feed == .all && pagination == nil ? siteTitle : "\(feed.title)\(page) · \(siteTitle)"
        case .root: return root
        case .path: return path
        case .stylesheet: return "assets/cardfeed.css"
        case .generator: return "CardFeed \(CardFeedVersion.current)"
        case .feed: return feed
        case .nav: return nav
        case .cards: return cards
        case .emptyMessage: return "We have no updates. Please check again later."
        case .pagination: return pagination
        }
    }
}

struct FeedView {
    var feed: Feed
    var slug: String
    var title: String
    var count: Int
    /// "1 card", "12 cards".
    var countText: String
    var href: String

    init(_ selection: FeedSelection) {
        feed = selection.feed
        slug = selection.feed.slug
        title = selection.feed.title
        count = selection.cards.count
        countText = count == 1 ? "1 card" : "\(count) cards"
        href = PagePaths.href(feed: selection.feed, page: 1)
    }
}

struct NavItem {
    var slug: String
    var title: String
    var count: Int
    var href: String
    var current: Bool
}

struct PaginationView {
    struct PageLink {
        var number: Int
        var href: String
        var current: Bool
        /// Pages were left out before this one ("…").
        var gap: Bool
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
        let shown = Set([1, total] + Array(max(1, page - 2)...min(total, page + 2))).sorted()
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
