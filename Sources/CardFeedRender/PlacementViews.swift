import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the `placement` template sees: one placement's cards, each as its card template
/// rendered it. Its output is all three forms' cards (`embed/NAME.html`, the JSON's `html`, the
/// frame page's body), with every class and id prefixed (`EmbedHTML`).
struct PlacementView: TemplateModel {
    static let names = ViewNames<Self>("placement", [
        .text("name", "The placement's name.") { $0.placement.name },
        .text("feed", "Its feed's slug.") { $0.placement.feed },
        .text("feedTitle", "Its feed's title.") { $0.feedTitle },
        .list("cards", PlacementCardView.self, "Its cards.") { $0.cards },
        .text("lang", "The language tag of its tree.") { $0.settings.strings.locale },
        .flag("rtl", "True for a right-to-left locale.") { $0.settings.direction == .rtl },
        .value("strings", .open, "The string table.") { .object($0.settings.stringsView) },
    ])

    let placement: Placement
    let feedTitle: String
    let cards: MustacheValue
    let settings: RenderSettings

    init(placement: Placement, feedTitle: String, cards: [PlacementCardView], settings: RenderSettings) {
        self.placement = placement
        self.feedTitle = feedTitle
        self.cards = .views(cards)
        self.settings = settings
    }
}

/// One card of a placement: its HTML as the feeds show it.
struct PlacementCardView: TemplateModel {
    static let names = ViewNames<Self>("placement card", [
        .html("card", "The card's HTML: `{{{card}}}`.") { $0.card },
        .text("id", "The card's id.") { $0.id },
    ])

    let card, id: String
}

/// What the `placement_frame` template sees: the page `embed/NAME/` that an `<iframe>` shows,
/// with the placement's names (it includes `placement`) and the page's own.
struct PlacementFrameView: TemplateModel {
    static let names = ViewNames<Self>("placement frame", shared: PlacementView.self, { PlacementView.value(of: $0.inner, for: $1) }, [
        .html("placement", "What `placement` rendered: `{{{placement}}}`.") { $0.html },
        .text("root", "The site root, relative: its `<base>`.") { $0.root },
        .text("embed", """
            The folder of the placements' files below the root, where the page's stylesheet and script are: `embed/`, \
            or on a [site in several languages](embedding.md#in-several-languages) its language's, `de/embed/`.
            """) { $0.embed },
        .text("title", "The page's title: the feed's and the site's.") { "\($0.inner.feedTitle) · \($0.inner.settings.siteTitle)" },
        .text("csp", "The Content-Security-Policy, when there is one.") { $0.inner.settings.contentSecurityPolicy },
    ])

    let inner: PlacementView
    /// The placement's HTML as `placement` rendered it: what `{{{placement}}}` writes (the page
    /// is prefixed as a whole, after).
    let html: String
    let root: String
    /// The folder of the placement's files, relative to the site root ("embed/", "de/embed/"),
    /// where the page's stylesheet and script are: its language's tree's own.
    let embed: String

    init(_ inner: PlacementView, html: String, root: String, embed: String) {
        self.inner = inner
        self.html = html
        self.root = root
        self.embed = embed
    }
}
