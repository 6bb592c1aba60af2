import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the `card_page` template sees: one card on a page of its own, in the shell every page of
/// the site has (`PageShell`, whose names it has too).
struct CardPageView: TemplateModel {
    static let names = ViewNames<Self>("card page", shared: PageShell.self, { $0.shell.value(for: $1) }, [
        .html("card", "The card's HTML, as its feeds show it: `{{{card}}}`.") { $0.card },
        .text("heading", "The card's title, or for a card without one what its feed entry's title would be.") { $0.heading },
        .list("feeds", CardPlaceView.self, "Each feed that shows the card, in order.") { $0.feeds },
        // The card's own picture, not the placeholder that stands in for a missing one.
        .text("image", "For the search index: the card's own image, `assets/…` or a remote URL; none when it shows the placeholder.") { $0.image },
        .view("created", MomentView.self, "For the search index: when the card was made, as a card's.") { $0.created },
        // A banner's only words are its image's alt text, which an index of text does not read:
        // the heading stands for them.
        .flag("imageOnly", "For the search index: true for a card that shows only its image, a banner.") { $0.shown.showsOnlyItsImage },
    ])

    /// Held by reference: the page's names of the shell reach it on every lookup, where a copy
    /// of its dozen values would be made each time.
    let shell: TemplateObject<PageShell>
    /// The card's HTML, as its feeds show it.
    let card: String
    /// The card's title, or the words that stand for it (see `CardText.title`).
    let heading: String
    /// `.views` of the card's `CardPlaceView`s.
    let feeds: MustacheValue
    /// The card itself, for `image`, `created` and `imageOnly`, which only a search index reads
    /// (see `card_page`'s Pagefind attributes): made when a template asks for them, not on every page.
    let shown: Card

    /// The lookup is a switch, the shell's names passed to the shell's own (see `PageShell`): every
    /// card's page reads them all.
    static func value(of page: CardPageView, for name: MustacheName) -> MustacheValue? {
        switch keys[name] {
        case .card?: .text(page.card)
        case .heading?: .text(page.heading)
        case .feeds?: page.feeds
        case .image?: page.image.map(MustacheValue.text)
        case .created?: page.created
        case .imageOnly?: .bool(page.shown.showsOnlyItsImage)
        case nil: page.shell.value(for: name)
        }
    }

    /// Its own names, as the switch knows them.
    enum Key: String, CaseIterable {
        case card, heading, feeds, image, created, imageOnly
    }

    /// Made from the declared names, so a name the switch lacks stops every build at once.
    static let keys = MustacheFields<Key>(names.schema.names.filter { PageShell.keys[MustacheName($0)] == nil }.map { ($0, Key(rawValue: $0)!) })

    // Read by both the switch and `names`.
    private var image: String? {
        let image = shell.model.settings.images.cardImage(shown)
        return image.placeholder ? nil : image.src
    }
    private var created: MustacheValue? { shown.created.map { .view(shell.model.settings.moment($0)) } }

    init(shell: TemplateObject<PageShell>, card: String, heading: String, feeds: [CardPlaceView], shown: Card) {
        self.shell = shell
        self.card = card
        self.heading = heading
        self.feeds = .views(feeds)
        self.shown = shown
    }
}

/// One feed that shows a card, on its card's page: the way back to the card in that feed.
struct CardPlaceView: TemplateModel {
    let slug, title: String
    /// The feed's page that shows the card, and the card's anchor: `news/page-summer-sale.html#card-x`.
    let href: String

    static let names = ViewNames<Self>("card place", [
        .text("slug", "The feed's slug.") { $0.slug },
        .text("title", "Its title.") { $0.title },
        .text("href", "The feed's page that holds the card, and its anchor: `news/page-summer-sale.html#card-x`.") { $0.href },
    ])
}
