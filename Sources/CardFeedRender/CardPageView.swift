import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the `card_page` template sees: one card on a page of its own, in the shell every page of
/// the site has (`PageShell`, whose names it has too). Every name is a case of a `Key` (see
/// `CardView`).
final class CardPageView: MustacheObject {
    enum Key: String, ViewKey {
        case card, heading, feeds, image, created, imageOnly

        var kind: FieldKind {
            switch self {
            case .card: .html
            case .heading, .image: .text
            case .feeds: .list(CardPlaceView.schema)
            case .created: .view(MomentView.schema)
            case .imageOnly: .flag
            }
        }
    }
    static let schema = ViewSchema("card page", PageShell.Key.self, Key.self)
    static let fields = MustacheFields(Key.self)

    let shell: PageShell
    /// The card's HTML, as its feeds show it.
    let card: String
    /// The card's title, or the words that stand for it (see `CardText.title`).
    let heading: String
    /// `.objects` of the card's `CardPlaceView`s.
    let feeds: MustacheValue
    /// The card itself, for `image`, `created` and `imageOnly`, which only a search index reads
    /// (see `card_page`'s Pagefind attributes): made when a template asks for them, not on every page.
    let shown: Card

    init(shell: PageShell, card: String, heading: String, feeds: [CardPlaceView], shown: Card) {
        self.shell = shell
        self.card = card
        self.heading = heading
        self.feeds = .objects(feeds)
        self.shown = shown
    }

    func value(for name: MustacheName) -> MustacheValue? {
        if let key = PageShell.fields[name] { return shell.value(for: key) }
        switch Self.fields[name] {
        case .card: return .text(card)
        case .heading: return .text(heading)
        case .feeds: return feeds
        case .image:
            // The card's own picture, not the placeholder that stands in for a missing one.
            let image = shell.settings.images.cardImage(shown)
            return image.placeholder ? nil : .text(image.src)
        case .created: return shown.created.map { .object(shell.settings.moment($0)) }
        // A banner's only words are its image's alt text, which an index of text does not read:
        // the heading stands for them.
        case .imageOnly: return .bool(shown.showsOnlyItsImage)
        case nil: return nil
        }
    }
}

/// One feed that shows a card, on its card's page: the way back to the card in that feed.
final class CardPlaceView: MustacheObject {
    let slug: String
    let title: String
    /// The feed's page that shows the card, and the card's anchor: `news/page-summer-sale.html#card-x`.
    let href: String

    init(slug: String, title: String, href: String) {
        self.slug = slug
        self.title = title
        self.href = href
    }

    enum Key: String, ViewKey {
        case slug, title, href

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("card place", Key.self)
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
