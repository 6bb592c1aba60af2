import Mustache

/// What a card template sees. Every name a template may use is a case of `Key`, so the list of
/// names (for checking templates) and the values can never disagree. Text is given raw and
/// escaped by Mustache's `{{name}}`; only `description` is HTML (from cmark) for `{{{description}}}`.
struct CardView: MustacheParent {
    enum Key: String, CaseIterable {
        case id, anchor, type, unread, viewed, pinned, dismissible, useWebView
        case title, description, url, domain, link
        case image, pinnedIcon
        case created, updated, expires
        case categories, extras, extrasList
        case subtitle, caption, rating, reviews, price, mediaType, itunesID, universal
        case newTab, strings, permalink
    }

    let card: Card
    let descriptionHTML: String?
    let settings: RenderSettings
    /// Where the card stands in the "all" feed: `page-3.html#card-x`. The anchor is stable;
    /// the page can change when newer cards arrive.
    let permalink: String
    /// The card's HTML id (see `Formatting.anchor`).
    var anchor: String { Formatting.anchor(for: card.id) }

    /// A hash lookup instead of `Key(rawValue:)`, which compares the name with every case in turn.
    private static let keys = Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.rawValue, $0) })

    func child(named name: String) -> Any? {
        guard let key = Self.keys[name] else { return nil }
        switch key {
        case .id: return Text(card.id)
        case .anchor: return Text(anchor)
        case .type: return Text(card.type.rawValue)
        case .unread: return !card.viewed
        case .viewed: return card.viewed
        case .pinned: return card.pinned
        case .dismissible: return card.dismissible
        case .useWebView: return card.useWebView && card.url != nil
        case .title: return card.title.text
        case .description: return descriptionHTML.text
        case .url: return card.url.text
        case .domain: return card.domain.text
        case .link: return card.url.map { LinkView(href: $0, text: card.domain ?? Self.host(of: $0) ?? $0) }
        case .image: return settings.images.cardImage(card)
        case .pinnedIcon: return settings.images.pinnedIcon(alt: settings.strings["pinned"])
        case .created: return card.created.map(settings.strings.moment)
        case .updated: return card.updated > card.created ?? 0 ? settings.strings.moment(card.updated) : nil
        case .expires: return card.expiresAt.map(settings.strings.moment)
        case .categories: return card.categories.map { CategoryView(Feed.category($0), strings: settings.strings) }
        case .extras: return card.extras.isEmpty ? nil : ExtrasView(pairs: card.extras)
        case .extrasList: return card.extras.map { ExtraView(key: $0.key, value: $0.value) }
        case .subtitle: return card.subtitle.text
        case .caption: return card.caption.text
        case .rating: return card.rating.map { RatingView($0, strings: settings.strings) }
        case .reviews: return card.reviews.map { ReviewsView(count: $0, text: settings.strings.reviews($0)) }
        case .price: return PriceView(card, strings: settings.strings)
        case .mediaType: return card.mediaType.text
        case .itunesID: return card.itunesID.map { Text(String($0)) }
        case .universal: return card.universal
        case .newTab: return card.url.map(settings.links.opensInNewTab) ?? false
        case .strings: return StringsView(table: settings.strings)
        case .permalink: return Text(permalink)
        }
    }

    /// "https://www.example.com/x" -> "www.example.com".
    static func host(of url: String) -> String? {
        guard let range = url.range(of: "://") else { return nil }
        let rest = url[range.upperBound...]
        let host = rest.prefix { !"/?#".contains($0) }
        return host.isEmpty ? nil : String(host.split(separator: "@").last ?? host)
    }
}

struct LinkView: TemplateValue {
    var href: String
    var text: String

    func child(named name: String) -> Any? {
        switch name {
        case "href": Text(href)
        case "text": Text(text)
        default: nil
        }
    }
}

struct CategoryView: TemplateValue {
    var name: String
    var title: String
    var href: String

    func child(named key: String) -> Any? {
        switch key {
        case "name": Text(name)
        case "title": Text(title)
        case "href": Text(href)
        default: nil
        }
    }

    init(_ feed: Feed, strings: StringTable) {
        name = feed.slug
        title = strings.feedTitle(feed)
        href = PagePaths.href(feed: feed, page: 1)
    }
}

/// `{{extras.campaign}}`: one extra by key.
struct ExtrasView: MustacheParent {
    let pairs: [(key: String, value: String)]
    func child(named name: String) -> Any? { pairs.first { $0.key == name }.map { Text($0.value) } }
}

struct ExtraView: TemplateValue {
    var key: String
    var value: String

    func child(named name: String) -> Any? {
        switch name {
        case "key": Text(key)
        case "value": Text(value)
        default: nil
        }
    }
}

/// A 0-5 rating as five stars (full, half or empty) and as a sentence for screen readers.
struct RatingView: TemplateValue {
    struct Star: TemplateValue {
        var kind: String
        func child(named name: String) -> Any? { name == "kind" ? Text(kind) : nil }
    }

    var value: String
    var text: String
    var stars: [Star]

    func child(named name: String) -> Any? {
        switch name {
        case "value": Text(value)
        case "text": Text(text)
        case "stars": stars
        default: nil
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

struct ReviewsView: TemplateValue {
    var count: Int
    var text: String

    func child(named name: String) -> Any? {
        switch name {
        case "count": count
        case "text": Text(text)
        default: nil
        }
    }
}

/// The call-to-action label of a cross promotion: the server's `display_price`, else "Free"
/// for a price of 0, else the price in dollars (the App Store's default storefront), written
/// for the locale (`StringTable.price`).
struct PriceView: TemplateValue {
    var text: String
    var free: Bool

    func child(named name: String) -> Any? {
        switch name {
        case "text": Text(text)
        case "free": free
        default: nil
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

/// What every view needs to know besides its own values.
struct RenderSettings: Sendable {
    let images: ImageURLs
    let strings: StringTable
    let links: LinkPolicy
    let siteTitle: String
    /// Stylesheets every page links, in order.
    let stylesheets: [String]
    /// Cards a page (0: one page a feed), to place a card in the "all" feed.
    let pageSize: Int
    /// With a base URL, the feeds also have Atom and JSON Feed files that pages link.
    let baseURL: String?
    /// The policy of the pages' `<meta http-equiv="Content-Security-Policy">`; nil for none.
    let contentSecurityPolicy: String?

    /// A hash of everything here, computed once per build (see `IncrementalState`).
    let fingerprint: Int

    init(
        images: ImageURLs, strings: StringTable, links: LinkPolicy, siteTitle: String, stylesheets: [String], pageSize: Int,
        baseURL: String?, contentSecurityPolicy: String? = nil
    ) {
        self.contentSecurityPolicy = contentSecurityPolicy
        self.images = images
        self.strings = strings
        self.links = links
        self.siteTitle = siteTitle
        self.stylesheets = stylesheets
        self.pageSize = pageSize
        self.baseURL = baseURL
        var hasher = Hasher()
        hasher.combine(strings.locale)
        for (key, value) in strings.values.sorted(by: { $0.key < $1.key }) { hasher.combine(key); hasher.combine(value) }
        hasher.combine(links.newTab)
        hasher.combine(links.appSchemes)
        hasher.combine(images.placeholder.srcset)
        hasher.combine(images.pinnedIcon(alt: "").srcset)
        hasher.combine(siteTitle)
        hasher.combine(stylesheets)
        hasher.combine(pageSize)
        hasher.combine(baseURL)
        hasher.combine(contentSecurityPolicy)
        fingerprint = hasher.finalize()
    }

    /// The page of the "all" feed that shows the card at `position` in display order.
    func allFeedPage(_ position: Int) -> Int { pageSize > 0 ? position / pageSize + 1 : 1 }

    func permalink(position: Int, card: Card) -> String {
        PagePaths.file(feed: .all, page: allFeedPage(position)) + "#" + Formatting.anchor(for: card.id)
    }
}
