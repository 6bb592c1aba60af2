import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What a card template sees. Every name a template may use is a `Key`: the card's fields that
/// `CardField` gives a template name, shown as they are, and the names of this view's own, so the
/// list of names (for checking templates) and the values can never disagree. Text is given raw
/// and escaped by Mustache's `{{name}}`; only `description` is HTML (from cmark, or the escaped
/// text of a plain-text card) for `{{{description}}}`.
/// A class, so that the context stack holds it by reference: a card's template looks up some
/// forty names.
final class CardView: MustacheObject {
    /// The names the card view works out itself: views of their own (dates, images, links),
    /// values made from several fields, and the site's settings.
    enum Own: String, CaseIterable, Sendable {
        case id, anchor, type, unread, useWebView
        case description, plainText, link
        case image, pinnedIcon
        case created, updated, expires
        case categories, extras, extrasList
        case rating, reviews, price
        case newTab, strings, permalink
        case dir

        var kind: FieldKind {
            switch self {
            case .id, .anchor, .type, .permalink, .dir: .text
            case .unread, .useWebView, .newTab, .plainText: .flag
            case .description: .html
            case .link: .view(LinkView.schema)
            case .image, .pinnedIcon: .view(ImageView.schema)
            case .created, .updated, .expires: .view(MomentView.schema)
            case .categories: .list(CategoryView.schema)
            case .extras, .strings: .open
            case .extrasList: .list(ExtraView.schema)
            case .rating: .view(RatingView.schema)
            case .reviews: .view(ReviewsView.schema)
            case .price: .view(PriceView.schema)
            }
        }
    }

    enum Key: ViewKey {
        case own(Own)
        /// A card field with a template name, shown as it is.
        case field(CardField)

        static let allCases: [Key] = Own.allCases.map(Key.own) + shownAsTheyAre.map(Key.field)

        /// The fields with a template name whose value is text, a link, a flag or a whole number.
        static let shownAsTheyAre = CardField.allCases.filter { field in
            guard field.declaration.template != nil else { return false }
            switch field.declaration.value {
            case .text, .link, .flag, .integer: return true
            case .image, .positiveNumber, .time, .format, .ownCode: return false
            }
        }

        var rawValue: String {
            switch self {
            case .own(let own): own.rawValue
            case .field(let field): field.declaration.template!
            }
        }

        var kind: FieldKind {
            switch self {
            case .own(let own): own.kind
            case .field(let field):
                switch field.declaration.value {
                case .flag: .flag
                default: .text
                }
            }
        }
    }
    static let schema = ViewSchema("card", Key.self)

    let card: Card
    let descriptionHTML: String?
    let settings: RenderSettings
    /// The card's own page (`cards/card-x.html`), or without card pages its place in its home
    /// feed (`page-summer-sale.html#card-x`): see `CardPlaces.permalink`.
    let permalink: String

    /// Every card's template reads `created` twice (`iso` and `text`) and `newTab` three times:
    /// worked out once.
    private let created: MomentView?
    private let newTab: Bool
    /// The card's direction where it is not the page's: an Arabic card in an English feed.
    private let direction: TextDirection?

    init(card: Card, anchor: String? = nil, descriptionHTML: String?, settings: RenderSettings, permalink: String) {
        self.card = card
        self.anchor = anchor ?? Formatting.anchor(for: card.id)
        self.descriptionHTML = descriptionHTML
        self.settings = settings
        self.permalink = permalink
        // Called directly: a method passed to `map` copies the table or policy into a closure,
        // retaining what they hold, which every card on both rendering threads shares.
        if let seconds = card.created { created = settings.moment(seconds) } else { created = nil }
        if let url = card.url { newTab = settings.links.opensInNewTab(url) } else { newTab = false }
        let direction = Self.direction(of: card)
        self.direction = direction == settings.direction ? nil : direction
    }

    /// The way a card's text runs: its `language`'s, else its first letter's (in the title,
    /// description, caption or link text, as `dir="auto"` would read the card); nil when the
    /// card has no letter, which then follows the page.
    static func direction(of card: Card) -> TextDirection? {
        if let language = card.language, let direction = TextDirection.of(languageTag: language) { return direction }
        if let title = card.title, let direction = TextDirection.of(text: title) { return direction }
        if let description = card.description, let direction = TextDirection.of(text: description) { return direction }
        if let caption = card.caption, let direction = TextDirection.of(text: caption) { return direction }
        if let domain = card.domain { return TextDirection.of(text: domain) }
        return nil
    }
    /// The card's HTML id (see `Formatting.anchor`).
    let anchor: String

    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        guard let key = Self.fields[name] else { return nil }
        switch key {
        case .field(let field): return value(of: field)
        case .own(let own): return value(of: own)
        }
    }

    /// A field as it is: text, a flag, a whole number as text.
    private func value(of field: CardField) -> MustacheValue? {
        switch card[field] {
        case .text(let text): text.mustache
        case .flag(let flag): .bool(flag)
        case .integer(let number): number.map { .text(String($0)) }
        case .image, .number, .format, nil: nil  // not `Key.shownAsTheyAre`
        }
    }

    private func value(of own: Own) -> MustacheValue? {
        switch own {
        case .id: return .text(card.id)
        case .anchor: return .text(anchor)
        case .type: return .text(card.type.rawValue)
        case .unread: return .bool(!card.viewed)
        case .useWebView: return .bool(card.useWebView && card.url != nil)
        case .description: return descriptionHTML.mustache
        case .plainText: return .bool(card.descriptionFormat == .text)
        case .link: return card.url.map { .object(LinkView(href: $0, text: card.domain ?? URLCheck.words(for: $0) ?? $0)) }
        case .image: return .object(settings.images.cardImage(card))
        case .pinnedIcon: return .object(settings.images.pinnedIcon(alt: settings.strings["pinned"]))
        case .created: return created.map { .object($0) }
        case .updated: return card.updated > card.created ?? 0 ? .object(settings.moment(card.updated)) : nil
        case .expires: return card.expiresAt.map { .object(settings.moment($0)) }
        case .categories: return .objects(card.categories.compactMap { settings.categoryChips[$0] })
        case .extras: return card.extras.isEmpty ? nil : .object(ExtrasView(pairs: card.extras))
        case .extrasList: return .objects(card.extras.map { ExtraView(key: $0.key, value: $0.value) })
        case .rating: return card.rating.map { .object(RatingView($0, strings: settings.strings)) }
        case .reviews: return card.reviews.map { .object(ReviewsView(count: $0, text: settings.strings.reviews($0))) }
        case .price: return PriceView(card, strings: settings.strings).map { .object($0) }
        case .newTab: return .bool(newTab)
        case .strings: return .object(settings.stringsView)
        case .permalink: return .text(permalink)
        case .dir: return direction.map { .text($0.rawValue) }
        }
    }
}

final class LinkView: MustacheObject {
    let href: String
    let text: String

    init(href: String, text: String) {
        self.href = href
        self.text = text
    }

    enum Key: String, ViewKey {
        case href, text

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("link", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .href: .text(href)
        case .text: .text(text)
        case nil: nil
        }
    }
}

/// A card's category: its name, and the title and first page of the category's own feed.
final class CategoryView: MustacheObject {
    let name: String
    let title: String
    /// Nil for a category that has no feed of its own (in feed entries, which name every category).
    let href: String?

    enum Key: String, ViewKey {
        case name, title, href

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("category", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .name: .text(self.name)
        case .title: .text(title)
        case .href: href.mustache
        case nil: nil
        }
    }

    init(_ category: FeedCategory, feed: Feed?, strings: StringTable) {
        name = category.rawValue
        title = feed.map(strings.feedTitle) ?? strings[category.titleKey]
        href = feed.map(PagePaths.front)
    }
}

/// `{{extras.campaign}}`: one extra by key.
final class ExtrasView: MustacheObject {
    init(pairs: [Card.Extra]) {
        self.pairs = pairs
    }

    let pairs: [Card.Extra]
    func value(for name: MustacheName) -> MustacheValue? { pairs.first { $0.key == name.string }.map { .text($0.value) } }
}

final class ExtraView: MustacheObject {
    let key: String
    let value: String

    init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    enum Key: String, ViewKey {
        case key, value

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("extra", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .key: .text(key)
        case .value: .text(value)
        case nil: nil
        }
    }
}

/// A 0-5 rating as five stars (full, half or empty) and as a sentence for screen readers.
final class RatingView: MustacheObject {
    final class Star: MustacheObject {
        init(kind: String) { self.kind = kind }

        let kind: String
        enum Key: String, ViewKey {
            case kind

            var kind: FieldKind { .text }
        }
        static let schema = ViewSchema("star", Key.self)
        static let fields = MustacheFields(Key.self)
        func value(for name: MustacheName) -> MustacheValue? { Self.fields[name] == .kind ? .text(kind) : nil }
    }

    let value: String
    let text: String
    let stars: [Star]

    enum Key: String, ViewKey {
        case value, text, stars

        var kind: FieldKind {
            switch self {
            case .value, .text: .text
            case .stars: .list(Star.schema)
            }
        }
    }
    static let schema = ViewSchema("rating", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .value: .text(value)
        case .text: .text(text)
        case .stars: .objects(stars)
        case nil: nil
        }
    }

    init(_ rating: Double, strings: StringTable) {
        value = strings.decimal(rating, places: 1)
        text = strings.format("rating", ["rating": value])
        let halves = Int((rating * 2).rounded())
        stars = (0..<5).map { index in
            Star(kind: halves >= 2 * index + 2 ? "full" : halves == 2 * index + 1 ? "half" : "empty")
        }
    }
}

final class ReviewsView: MustacheObject {
    let count: Int
    let text: String

    init(count: Int, text: String) {
        self.count = count
        self.text = text
    }

    enum Key: String, ViewKey {
        case count, text

        var kind: FieldKind {
            switch self {
            case .count, .text: .text
            }
        }
    }
    static let schema = ViewSchema("reviews", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .count: .int(count)
        case .text: .text(text)
        case nil: nil
        }
    }
}

/// The call-to-action label of a cross promotion: the server's `display_price`, else "Free"
/// for a price of 0, else the price in dollars (the App Store's default storefront), written
/// for the locale (`StringTable.price`).
final class PriceView: MustacheObject {
    let text: String
    let free: Bool

    enum Key: String, ViewKey {
        case text, free

        var kind: FieldKind {
            switch self {
            case .text: .text
            case .free: .flag
            }
        }
    }
    static let schema = ViewSchema("price", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .text: .text(text)
        case .free: .bool(free)
        case nil: nil
        }
    }

    init?(_ card: Card, strings: StringTable) {
        free = card.price == 0 && card.displayPrice == nil
        if let display = card.displayPrice {
            text = display
        } else if let price = card.price {
            text = price == 0 ? strings["free"] : strings.price(price)
        } else {
            return nil
        }
    }
}

/// What every view needs to know besides its own values. A class: every view holds it. The
/// settings themselves are `values`, read as `settings.strings`, `settings.siteTitle`...; the
/// rest is made from them (and the site's image files) once a build.
@dynamicMemberLookup
package final class RenderSettings: Sendable {
    /// Every setting a template can read. `Hashable` as the compiler writes it, from every
    /// setting: `serve` reuses cards and pages under keys made from it (see `RenderContextKey`),
    /// so a setting added here counts with no other edit. (`Decodable`, also written by the
    /// compiler, lets the tests make a copy with any one setting changed: see `ReuseKeyTests`.)
    package struct Values: Sendable, Hashable, Decodable {
        var builtinImages: BuiltinImages
        var strings: StringTable
        var links: LinkPolicy
        var siteTitle: String
        /// Stylesheets every page links, in order.
        var stylesheets: [String]
        /// Cards a page (0: one page a feed), which decides the pages a card is on.
        var pageSize: Int
        /// With a base URL, the feeds also have Atom and JSON Feed files that pages link.
        var baseURL: String?
        /// The policy of the pages' `<meta http-equiv="Content-Security-Policy">`; nil for none.
        var contentSecurityPolicy: String? = nil

        /// The favicon, description and link preview picture of every page.
        var head = PageHead()
        /// The clocks of the dates cards show.
        var timeZone = SiteTimeZone.utc
        /// The site's feeds, in order (a card's categories link to theirs).
        var feeds = Feed.builtin
        /// Each card has a page of its own, which its permalink names (cardfeed.yml's `card_pages`).
        var cardPages = false
        /// Pages carry a search box over the site's search index (`search: true`).
        var search = false
        /// The folder of the language tree the pages are in ("" for the root's): `{{home}}` is
        /// its front page.
        var tree = ""

        package init(
            builtinImages: BuiltinImages, strings: StringTable, links: LinkPolicy, siteTitle: String, stylesheets: [String],
            pageSize: Int, baseURL: String?, contentSecurityPolicy: String? = nil, head: PageHead = PageHead(), timeZone: SiteTimeZone = .utc,
            feeds: [Feed] = Feed.builtin, cardPages: Bool = false, search: Bool = false, tree: String = ""
        ) {
            self.builtinImages = builtinImages
            self.strings = strings
            self.links = links
            self.siteTitle = siteTitle
            self.stylesheets = stylesheets
            self.pageSize = pageSize
            self.baseURL = baseURL
            self.contentSecurityPolicy = contentSecurityPolicy
            self.head = head
            self.timeZone = timeZone
            self.feeds = feeds
            self.cardPages = cardPages
            self.search = search
            self.tree = tree
        }
    }

    let values: Values
    /// Card images and the built-in images, with the sizes of the site's image files (which
    /// count in each card's key: see `CardRenderKey`).
    let images: ImageURLs
    /// `{{strings.name}}`.
    let stringsView: StringsView
    let pageConstants: PageConstants
    /// The pages' direction, from their language.
    let direction: TextDirection
    /// A card's `categories`: each category that has a feed of its own (the first feed that
    /// shows that category alone), linked to it. Made once: every card shows them.
    let categoryChips: [FeedCategory: CategoryView]
    /// What feed entries name a card's categories by: every category, linked where it has a feed.
    let categoryTags: [FeedCategory: CategoryView]

    /// `imageSizes` reads SITE/assets/ (none: the files' sizes are not known).
    package init(_ values: Values, imageSizes: ImageSizes = ImageSizes(folder: nil)) {
        self.values = values
        images = ImageURLs(values.builtinImages, sizes: imageSizes)
        stringsView = StringsView(table: values.strings)
        pageConstants = PageConstants(strings: values.strings, stylesheets: values.stylesheets)
        direction = TextDirection.of(languageTag: values.strings.locale) ?? .ltr
        var chips: [FeedCategory: CategoryView] = [:]
        var tags: [FeedCategory: CategoryView] = [:]
        for category in FeedCategory.allCases {
            let feed = values.feeds.first { $0.match == FeedMatch(categories: [category]) }
            let view = CategoryView(category, feed: feed, strings: values.strings)
            if feed != nil { chips[category] = view }
            tags[category] = view
        }
        categoryChips = chips
        categoryTags = tags
    }

    package subscript<Value>(dynamicMember setting: KeyPath<Values, Value>) -> Value {
        values[keyPath: setting]
    }

    /// A moment as a card shows it: in the page's language and on the site's clocks.
    func moment(_ seconds: Int64) -> MomentView { MomentView(values.strings.moment(seconds, in: values.timeZone)) }
}
