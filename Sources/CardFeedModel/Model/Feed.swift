import Foundation

/// One of the site's feeds: a folder of pages showing the cards its `match` selects. Without
/// `feeds:` in cardfeed.yml a site has `Feed.builtin`; with it, the feeds it lists, in order.
/// A setting (see `RenderSettings.Values`): `Hashable` as the compiler writes it.
public struct Feed: Sendable, Hashable, Decodable {
    /// The name used in templates and CSS classes, and the key of its title in the strings
    /// tables (see `titleKey`): "all", "news", "offers".
    public var slug: String
    /// The feed's folder in the output: its slug, or "" for the site's front page (the first feed);
    /// in a language's tree, under the tree's folder ("de/news", "de").
    public var folder: String
    /// The folder of the language tree the feed is in ("" for the root's, `in(tree:)`).
    public var tree = ""
    /// The title cardfeed.yml gives; the site's strings file's `titleKey` wins over it, and
    /// without it the built-in tables' is used (see `StringTable.feedTitle`).
    public var title: String?
    public var match: FeedMatch

    public init(slug: String, folder: String, title: String? = nil, match: FeedMatch = FeedMatch()) {
        self.slug = slug
        self.folder = folder
        self.title = title
        self.match = match
    }

    private enum CodingKeys: String, CodingKey { case slug, folder, title, match }

    /// The same feed in the language tree whose folder is `tree` ("de"): its pages under it.
    public func `in`(tree: String) -> Feed {
        guard !tree.isEmpty else { return self }
        var feed = self
        feed.tree = tree
        feed.folder = folder.isEmpty ? tree : tree + "/" + folder
        return feed
    }

    /// The feeds of a site that defines none: every card on the front page, then one feed for
    /// each News Feed category, then the cards without one.
    public static let builtin: [Feed] =
        [Feed(slug: "all", folder: "")]
        + FeedCategory.allCases.map { Feed(slug: $0.rawValue, folder: $0.rawValue, match: FeedMatch(categories: [$0])) }
        + [Feed(slug: "uncategorized", folder: "uncategorized", match: FeedMatch(uncategorized: true))]

    /// Slugs whose title the built-in strings tables hold.
    public static var builtinSlugs: [String] { builtin.map(\.slug) }

    /// The front page is the first feed's first page (of its language's tree): the site's title
    /// is its title.
    public var isFrontPage: Bool { folder == tree }

    /// The key of the feed's title in the strings tables: "feed" and the slug's words
    /// capitalised, so that the built-in feeds' keys follow too ("feedNews", "feedSummerDeals").
    public var titleKey: String { Self.titleKey(slug) }

    public static func titleKey(_ slug: String) -> String {
        "feed" + slug.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Which cards a feed shows. Every condition given must hold; none given: every card.
public struct FeedMatch: Sendable, Hashable, Decodable {
    /// The card has one of these categories (or, with `uncategorized`, none).
    public var categories: [FeedCategory]
    /// Cards without a category.
    public var uncategorized: Bool
    /// Each key the card's extras must have, with one of its values.
    public var extras: [ExtraValues]

    public struct ExtraValues: Sendable, Hashable, Decodable {
        public var key: String
        /// A set: a feed may list thousands of values (campaign ids), and every card is looked up.
        public var values: Set<String>

        public init(key: String, values: Set<String>) {
            self.key = key
            self.values = values
        }
    }

    public init(categories: [FeedCategory] = [], uncategorized: Bool = false, extras: [ExtraValues] = []) {
        self.categories = categories
        self.uncategorized = uncategorized
        self.extras = extras
    }

    public var matchesEveryCard: Bool { !hasCategoryCondition && extras.isEmpty }
    package var hasCategoryCondition: Bool { uncategorized || !categories.isEmpty }

    public func matches(_ card: Card) -> Bool {
        matches(categories: card.categories) && matches(extras: card.extras)
    }

    /// The category condition alone, which the built-in feeds have.
    package func matches(categories cardCategories: [FeedCategory]) -> Bool {
        guard hasCategoryCondition else { return true }
        if cardCategories.isEmpty { return uncategorized }
        return categories.contains(where: cardCategories.contains)
    }

    package func matches(extras cardExtras: [Card.Extra]) -> Bool {
        extras.allSatisfy { wanted in cardExtras.contains { $0.key == wanted.key && wanted.values.contains($0.value) } }
    }
}
