import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What the `placement` template sees: one placement's cards, each as its card template
/// rendered it. Its output is all three forms' cards (`embed/NAME.html`, the JSON's `html`, the
/// frame page's body), with every class and id prefixed (`EmbedHTML`).
final class PlacementView: MustacheObject {
    enum Key: String, ViewKey {
        case name, feed, feedTitle, cards, lang, rtl, strings

        var kind: FieldKind {
            switch self {
            case .name, .feed, .feedTitle, .lang: .text
            case .rtl: .flag
            case .cards: .list(PlacementCardView.schema)
            case .strings: .open
            }
        }
    }
    static let schema = ViewSchema("placement", Key.self)
    static let fields = MustacheFields(Key.self)

    let placement: Placement
    let feedTitle: String
    let cards: MustacheValue
    let settings: RenderSettings

    init(placement: Placement, feedTitle: String, cards: [PlacementCardView], settings: RenderSettings) {
        self.placement = placement
        self.feedTitle = feedTitle
        self.cards = .objects(cards)
        self.settings = settings
    }

    func value(for name: MustacheName) -> MustacheValue? {
        Self.fields[name].flatMap(value(for:))
    }

    func value(for key: Key) -> MustacheValue? {
        switch key {
        case .name: .text(placement.name)
        case .feed: .text(placement.feed)
        case .feedTitle: .text(feedTitle)
        case .cards: cards
        case .lang: .text(settings.strings.locale)
        case .rtl: .bool(settings.direction == .rtl)
        case .strings: .object(settings.stringsView)
        }
    }
}

/// One card of a placement: its HTML as the feeds show it.
final class PlacementCardView: MustacheObject {
    enum Key: String, ViewKey {
        case card, id

        var kind: FieldKind {
            switch self {
            case .card: .html
            case .id: .text
            }
        }
    }
    static let schema = ViewSchema("placement card", Key.self)
    static let fields = MustacheFields(Key.self)

    let card: String
    let id: String

    init(card: String, id: String) {
        self.card = card
        self.id = id
    }

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .card: .text(card)
        case .id: .text(id)
        case nil: nil
        }
    }
}

/// What the `placement_frame` template sees: the page `embed/NAME/` that an `<iframe>` shows,
/// with the placement's names (it includes `placement`) and the page's own.
final class PlacementFrameView: MustacheObject {
    enum Key: String, ViewKey {
        case placement, root, embed, title, csp

        var kind: FieldKind {
            switch self {
            case .placement: .html
            case .root, .embed, .title, .csp: .text
            }
        }
    }
    static let schema = ViewSchema("placement frame", PlacementView.Key.self, Key.self)
    static let fields = MustacheFields(Key.self)

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

    func value(for name: MustacheName) -> MustacheValue? {
        if let key = PlacementView.fields[name] { return inner.value(for: key) }
        switch Self.fields[name] {
        case .placement: return .text(html)
        case .root: return .text(root)
        case .embed: return .text(embed)
        case .title: return .text("\(inner.feedTitle) · \(inner.settings.siteTitle)")
        case .csp: return inner.settings.contentSecurityPolicy.mustache
        case nil: return nil
        }
    }
}
