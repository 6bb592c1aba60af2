import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What a card template sees: the card's fields that `CardField` gives a template name, shown as
/// they are, and the names this view works out itself (views of their own for dates, images and
/// links, values made from several fields, the site's settings), so the list of names (for
/// checking templates and the docs) and the values can never disagree. Text is given raw and
/// escaped by Mustache's `{{name}}`; only `description` is HTML (from cmark, or the escaped text
/// of a plain-text card) for `{{{description}}}`.
struct CardView: TemplateModel {
    let card: Card
    /// The card's HTML id (see `Formatting.anchor`).
    let anchor: String
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

    static let names = ViewNames<Self>("card", own + shownAsTheyAre.map(name(of:)))

    private static let own: [ViewName<Self>] = [
        .text("id", "The card's id.") { $0.card.id },
        .text("anchor", "Its HTML id, `card-` and its id made safe for an id.") { $0.anchor },
        .text("type", "Its type: `classic`, `captioned_image`, `banner_image`, `short_news`, `text_announcement`, `cross_promotion_small`...") { $0.card.type.rawValue },
        .flag("unread", "True for a card not yet viewed.") { !$0.card.viewed },
        .flag("useWebView", "True when its link opens in the app's web view (a link it has).") { $0.useWebView },
        .html("description", "Its description as HTML: use `{{{description}}}`.") { $0.descriptionHTML },
        .flag("plainText", "True for a card in [text mode](cards.md#text-mode): its `description` is then its text, escaped, and its title and description need `white-space: pre-wrap`.") {
            $0.card.descriptionFormat == .text
        },
        .view("link", LinkView.self, "Its link, when it has one.") { $0.link },
        .view("image", ImageView.self, "Its image, else the placeholder.") { $0.image },
        .view("pinnedIcon", ImageView.self, "The pin shown on a pinned card.") { $0.pinnedIcon },
        .view("created", MomentView.self, "When it was made; empty for a card without a date, so wrap it in `{{#created}}…{{/created}}`.") { $0.created.map(MustacheValue.view) },
        .view("updated", MomentView.self, "When it was last changed, where that is after `created`.") { $0.updated },
        .view("expires", MomentView.self, "When it expires, if it does.") { $0.expires },
        .list("categories", CategoryView.self, "Each of its categories that has a feed of its own, linked to it; see [Feeds](customising.md#feeds).") { $0.categories },
        .value("extras", .open, "Its extras by key: `{{extras.campaign}}`.") { $0.extras },
        .list("extrasList", Card.Extra.self, "Its extras in order.") { $0.extrasList },
        .view("rating", RatingView.self, "A cross promotion's rating.") { $0.rating },
        .view("reviews", ReviewsView.self, "A cross promotion's reviews.") { $0.reviews },
        .view("price", PriceView.self, "A cross promotion's price, as its button shows it.") { $0.price },
        .flag("newTab", "True when its link opens in a new tab (`links` in cardfeed.yml).") { $0.newTab },
        .value("strings", .open, "The string table.") { .object($0.settings.stringsView) },
        .text("permalink", """
            The card's own page, `cards/card-x.html`; with `card_pages: false`, the card on the archive page of its home \
            feed, the "all" feed by default, that shows it: `page-summer-sale.html#card-x`, an address that lasts; the \
            front page for a card newer than the feed's newest archive page: see [Pages](cards.md#pages).
            """) { $0.permalink },
        .text("dir", "`rtl` or `ltr`, only where the card's direction is not the page's; see [Language and direction](cards.md#language-and-direction).") {
            $0.direction?.rawValue
        },
    ]

    /// The lookup itself is the switch below, not `names`' table of closures: a card's template
    /// reads some sixty names, and an indirect call and a closure's call for each cost the
    /// 100,000-card build 3% of its time. `names` stays the one list of the names (the linter's,
    /// the docs'); `CardViewLookupTests` holds the switch to it, value for value, on real cards.
    static func value(of view: CardView, for name: MustacheName) -> MustacheValue? {
        switch lookup[name] {
        case .own(let own)?: view.value(of: own)
        case .field(let field)?: value(of: view.card, field)
        case nil: nil
        }
    }

    /// A name of `names`, as the switch knows it.
    enum Name: Equatable {
        case own(Own)
        case field(CardField)
    }

    /// The names the card view works out itself, as `own` declares them.
    enum Own: String, CaseIterable {
        case id, anchor, type, unread, useWebView, description, plainText, link, image, pinnedIcon
        case created, updated, expires, categories, extras, extrasList, rating, reviews, price
        case newTab, strings, permalink, dir
    }

    /// Made from the declared names, so a name the switch lacks stops every build at once.
    static let lookup = MustacheFields<Name>(
        own.map { ($0.name, .own(Own(rawValue: $0.name)!)) } + shownAsTheyAre.map { ($0.declaration.template!, .field($0)) })

    private func value(of own: Own) -> MustacheValue? {
        switch own {
        case .id: .text(card.id)
        case .anchor: .text(anchor)
        case .type: .text(card.type.rawValue)
        case .unread: .bool(!card.viewed)
        case .useWebView: .bool(useWebView)
        case .description: descriptionHTML.map(MustacheValue.text)
        case .plainText: .bool(card.descriptionFormat == .text)
        case .link: link
        case .image: image
        case .pinnedIcon: pinnedIcon
        case .created: created.map(MustacheValue.view)
        case .updated: updated
        case .expires: expires
        case .categories: categories
        case .extras: extras
        case .extrasList: extrasList
        case .rating: rating
        case .reviews: reviews
        case .price: price
        case .newTab: .bool(newTab)
        case .strings: .object(settings.stringsView)
        case .permalink: .text(permalink)
        case .dir: direction.map { .text($0.rawValue) }
        }
    }

    // The values of more than a field, read by both the switch and `names`.
    private var useWebView: Bool { card.useWebView && card.url != nil }
    private var link: MustacheValue? { card.url.map { .view(LinkView(href: $0, text: card.domain ?? URLCheck.words(for: $0) ?? $0)) } }
    private var image: MustacheValue { .view(settings.images.cardImage(card)) }
    private var pinnedIcon: MustacheValue { .view(settings.images.pinnedIcon(alt: settings.strings["pinned"])) }
    private var updated: MustacheValue? { card.updated > card.created ?? 0 ? .view(settings.moment(card.updated)) : nil }
    private var expires: MustacheValue? { card.expiresAt.map { .view(settings.moment($0)) } }
    private var categories: MustacheValue { .list(card.categories.compactMap { settings.categoryChips[$0].map(MustacheValue.object) }) }
    private var extras: MustacheValue? { card.extras.isEmpty ? nil : .object(ExtrasView(pairs: card.extras)) }
    private var extrasList: MustacheValue { .views(card.extras) }
    private var rating: MustacheValue? { card.rating.map { .view(RatingView($0, strings: settings.strings)) } }
    private var reviews: MustacheValue? { card.reviews.map { .view(ReviewsView(count: $0, text: settings.strings.reviews($0))) } }
    private var price: MustacheValue? { PriceView(card, strings: settings.strings).map(MustacheValue.view) }

    /// The fields with a template name whose value is text, a link, a flag or a whole number.
    static let shownAsTheyAre = CardField.allCases.filter { field in
        guard field.declaration.template != nil else { return false }
        switch field.declaration.value {
        case .text, .link, .flag, .integer: return true
        case .image, .positiveNumber, .time, .format, .ownCode: return false
        }
    }

    /// A field shown as it is: text, a flag, a whole number as text.
    private static func name(of field: CardField) -> ViewName<Self> {
        let kind: FieldKind = field.declaration.value == .flag ? .flag : .text
        return .numbered(field.declaration.template!, kind, field.declaration.help ?? "", field.rawValue) { view, number in
            value(of: view.card, CardField(rawValue: number)!)
        }
    }

    private static func value(of card: Card, _ field: CardField) -> MustacheValue? {
        switch card[field] {
        case .text(let text): text.mustache
        case .flag(let flag): .bool(flag)
        case .integer(let number): number.map { .text(String($0)) }
        case .image, .number, .format, nil: nil  // not `shownAsTheyAre`
        }
    }
}

struct LinkView: TemplateModel {
    let href, text: String

    static let names = ViewNames<Self>("link", [
        .text("href", "The address.") { $0.href },
        .text("text", "The words shown for it: the card's `domain`, else the address's host.") { $0.text },
    ])
}

/// A card's category: its name, and the title and first page of the category's own feed.
struct CategoryView: TemplateModel {
    let name: String
    let title: String
    /// Nil for a category that has no feed of its own (in feed entries, which name every category).
    let href: String?

    static let names = ViewNames<Self>("category", [
        .text("name", "The category: `news`, `advertising`, `announcements`, `social`, `no_category`.") { $0.name },
        .text("title", "Its feed's title, else the string table's name of it.") { $0.title },
        .text("href", "Its feed's first page; empty for a category without a feed.") { $0.href },
    ])

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

/// An extra as `extrasList` shows it: the card's own pair.
extension Card.Extra: TemplateModel {
    static let names = ViewNames<Self>("extra", [
        .text("key", "The extra's key.") { $0.key },
        .text("value", "Its value.") { $0.value },
    ])
}

/// A 0-5 rating as five stars (full, half or empty) and as a sentence for screen readers.
struct RatingView: TemplateModel {
    struct Star: TemplateModel {
        let kind: String

        static let names = ViewNames<Self>("star", [.text("kind", "`full`, `half` or `empty`.") { $0.kind }])
    }

    let value: String
    let text: String
    let stars: [Star]

    static let names = ViewNames<Self>("rating", [
        .text("value", "The rating, 0 to 5, with one decimal: `4.5`.") { $0.value },
        .text("text", "The rating as a sentence, for screen readers.") { $0.text },
        .list("stars", Star.self, "Five stars.") { .views($0.stars) },
    ])

    init(_ rating: Double, strings: StringTable) {
        value = strings.decimal(rating, places: 1)
        text = strings.format("rating", ["rating": value])
        let halves = Int((rating * 2).rounded())
        stars = (0..<5).map { index in
            Star(kind: halves >= 2 * index + 2 ? "full" : halves == 2 * index + 1 ? "half" : "empty")
        }
    }
}

struct ReviewsView: TemplateModel {
    let count: Int
    let text: String

    static let names = ViewNames<Self>("reviews", [
        .number("count", "How many.") { $0.count },
        .text("text", "The count in words: `12 reviews`.") { $0.text },
    ])
}

/// The call-to-action label of a cross promotion: the server's `display_price`, else "Free"
/// for a price of 0, else the price in dollars (the App Store's default storefront), written
/// for the locale (`StringTable.price`).
struct PriceView: TemplateModel {
    let text: String
    let free: Bool

    static let names = ViewNames<Self>("price", [
        .text("text", "The label: the card's `display_price`, else Free for a price of 0, else the price.") { $0.text },
        .flag("free", "True for a price of 0 without a `display_price`.") { $0.free },
    ])

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
    let categoryChips: [FeedCategory: TemplateObject<CategoryView>]
    /// What feed entries name a card's categories by: every category, linked where it has a feed.
    let categoryTags: [FeedCategory: TemplateObject<CategoryView>]

    /// `imageSizes` reads SITE/assets/ (none: the files' sizes are not known).
    package init(_ values: Values, imageSizes: ImageSizes = ImageSizes(folder: nil)) {
        self.values = values
        images = ImageURLs(values.builtinImages, sizes: imageSizes)
        stringsView = StringsView(table: values.strings)
        pageConstants = PageConstants(strings: values.strings, stylesheets: values.stylesheets)
        direction = TextDirection.of(languageTag: values.strings.locale) ?? .ltr
        var chips: [FeedCategory: TemplateObject<CategoryView>] = [:]
        var tags: [FeedCategory: TemplateObject<CategoryView>] = [:]
        for category in FeedCategory.allCases {
            let feed = values.feeds.first { $0.match == FeedMatch(categories: [category]) }
            let view = TemplateObject(CategoryView(category, feed: feed, strings: values.strings))
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
