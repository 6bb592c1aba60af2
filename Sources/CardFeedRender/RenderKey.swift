import Foundation
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem

// `serve` and a build with a cache (`BuildCache`) reuse a rendered card, and leave a page as it
// is, when what it is made of did not change. What it is made of is written down below as values,
// hashed the same from process to process so that a cache on disk can keep the hashes: those a
// build hashes once (the settings, the feeds' selections) read whole through their mirror
// (`StableHash.reflecting`), so that nothing is left out when a field is added; those hashed once
// a card or page fed field by field (`StableHasher`, ten times as fast), each list held to its
// type by `ReuseKeyTests`. A build without a cache makes none of these.

/// What every card and page of a build is made of: the templates and the settings.
struct RenderContextKey: Hashable {
    /// A hash of the templates' names and texts (`TemplateSet.fingerprint`).
    var templates: Int
    var settings: RenderSettings.Values
}

/// What a card's HTML is made of.
struct CardRenderKey {
    /// The hash of the card's fields (`Card.fieldsHash`).
    var card: Int
    /// Its HTML id; the permalink names its page (see `CardPlaces.permalink`).
    var anchor: String
    var permalink: String
    /// The size of the card's image file, which goes into the page (an image replaced under its
    /// name changes it).
    var imageSize: ImageSize?
    /// The hash of the templates the card renders through (`TemplateSet.fingerprint(for:)`):
    /// another card type's template changed leaves it as it was.
    var templates: Int
    /// The hash of the build's settings (`RenderSettings.Values`).
    var settings: Int

    var stableHash: Int {
        StableHasher.hash { hasher in
            hasher.combine(card)
            hasher.combine(anchor)
            hasher.combine(permalink)
            hasher.combine(imageSize?.width)
            hasher.combine(imageSize?.height)
            hasher.combine(templates)
            hasher.combine(settings)
        }
    }
}

/// What every page, a feed's or a card's, shows the same besides its place and its cards: the
/// templates and settings, the feeds the navigation lists, and on a site in several languages
/// the pages that link each other. Not the feeds' cards: a page shows no count of them (see
/// `FeedView`), so a card that comes or goes changes only the pages that show it, and those
/// whose links to the pages either side change.
struct PageFrameKey: Hashable {
    /// The hash of the build's `RenderContextKey`.
    var context: Int
    /// By feed: whether the navigation lists it.
    var listed: [Bool]
    /// On a site in several languages, the pages that link each other.
    var languages: LanguageLinks?
}

/// What a page is made of, a feed's or a card's: the frame every page shares, its place, its
/// links to its feed's other pages, and its cards. A card's page has its card, and for its
/// place its links back to its place in each feed that shows it, not the whole selection: a
/// card that moves to another page of a feed changes only its own page.
struct PageKey {
    /// The hash of the build's `PageFrameKey`.
    var frame: Int
    /// A feed page's path; for a card page, the paths of the feed pages it links back to (the
    /// links are these with the card's anchor, which is in its card's key).
    var places: [String]
    /// A feed page's links to its feed's newer, older and latest pages (`PaginationView`); none
    /// for a card page.
    var pagination: [String?] = []
    /// The hashes of its cards' `CardRenderKey`s, in order.
    var cards: [Int]

    var stableHash: Int {
        StableHasher.hash { hasher in
            hasher.combine(frame)
            hasher.combine(places)
            hasher.combine(pagination)
            hasher.combine(cards)
        }
    }
}

/// The keys of one tree's build: what a cache looks its cards and pages up by.
package struct RenderKeys: Sendable {
    /// The hash of the build's `RenderContextKey`.
    var context: Int
    /// The hash of the tree's `PageFrameKey`, which every page's key has.
    var pageFrame: Int
    /// Each shown card's `CardRenderKey` hash, by display position.
    var cards: [Int]
    /// With card pages, each card's page: its path and its key (the hash of its `PageKey`), by
    /// display position. Its search document is made of the same (the templates are in the
    /// context), so the search index's parts are keyed by these too.
    package var cardPages: [(path: String, key: Int)]
    /// Where each card is shown, worked out once for the keys and the rendering.
    let places: CardPlaces
}

extension SiteRenderer {
    /// Every card's key and every card page's, computed once for the cards and for the pages
    /// that show them (only when there is a cache to look them up in: `cardfeed build
    /// --no-cache` makes none), before the tree renders.
    package func renderKeys(_ selection: Selection) -> RenderKeys {
        let cards = selection.cards
        let places = CardPlaces(selection, cardPages: settings.cardPages)
        let context = StableHash.reflecting(RenderContextKey(templates: templates.fingerprint, settings: settings.values))
        let settingsKey = StableHash.reflecting(settings.values)
        let pageFrame = StableHash.reflecting(PageFrameKey(context: context, listed: selection.feeds.map(\.listed), languages: languages?.links))
        let keys = ConcurrentResults<Int>(count: cards.count)
        let pages = ConcurrentResults<(path: String, key: Int)>(count: settings.cardPages ? cards.count : 0)
        Parallel.perform(count: cards.count, chunk: 512) { range in
            for position in range {
                let anchor = cards.anchor(at: position)
                // With card pages, the permalink is the card's page's path.
                let permalink = places.permalink(position: position, anchor: anchor)
                let key = renderKey(cards[position], anchor: anchor, permalink: permalink, settings: settingsKey)
                keys.set(position, key)
                guard settings.cardPages else { continue }
                // Its links back are these pages' paths with the card's anchor, which its key has.
                let feedPages = places.places(of: position).map { places.file(feed: $0.feed, page: $0.page) }
                pages.set(position, (permalink, PageKey(frame: pageFrame, places: feedPages, cards: [key]).stableHash))
            }
        }
        return RenderKeys(context: context, pageFrame: pageFrame, cards: keys.values, cardPages: pages.values, places: places)
    }

    /// The hash of the card's `CardRenderKey`; `settings` is the hash of the build's settings.
    func renderKey(_ card: Card, anchor: String, permalink: String, settings settingsKey: Int) -> Int {
        var imageSize: ImageSize?
        if case .asset(let path) = card.image { imageSize = settings.images.sizes.size(of: path) }
        return CardRenderKey(
            card: card.fieldsHash, anchor: anchor, permalink: permalink,
            imageSize: imageSize, templates: templates.fingerprint(for: card), settings: settingsKey
        ).stableHash
    }

    /// Each page's key (the hash of its `PageKey`), by feed and page (as `FeedSelection.pages`).
    func pageKeys(_ selection: Selection, _ keys: RenderKeys) -> [[Int]] {
        selection.feeds.map { feed in
            feed.pages.enumerated().map { index, page in
                let links = PaginationView(feed, page: index)
                return PageKey(
                    frame: keys.pageFrame, places: [page.path], pagination: [links?.newer, links?.older, links?.latest],
                    cards: page.cards.map { keys.cards[feed.cards[$0]] }
                ).stableHash
            }
        }
    }
}
