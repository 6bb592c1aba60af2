import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// Where each shown card sits: the page of every feed that shows it, and its permalink. Read once
/// a build from the feeds' pages as the selection made them: the one place that says on which
/// page of a feed a card is. A card's place is the archive page that holds it, whose address
/// lasts as long as the card that ends it, also when the front page shows that page too; only a
/// card newer than the feed's newest page end, which no archive page holds yet, is placed on the
/// front page. What it needs of the selection is taken out, so that asking for a card's places
/// copies no feed.
struct CardPlaces: Sendable {
    /// By feed, the file of each of its pages (`FeedSelection.pages`: 0 is the front page).
    private let files: [[String]]
    private let homes: CardHomes
    private let cardPages: Bool
    /// The language tree's folder, which holds its card pages.
    private let tree: String
    /// By display position, where the card's places begin in `feeds` and `pages`; the next
    /// position's, where they end. 32 bits: a million cards in four feeds each is 4 million places.
    private let starts: [Int32]
    /// Each place's feed (an index into `Selection.feeds`) and page (an index into `files`), a
    /// card's in the order of the feeds.
    private let feeds: [Int32]
    private let pages: [Int32]

    /// `cardPages`: each card has a page of its own, which is its permalink (`cards/<anchor>.html`).
    init(_ selection: Selection, cardPages: Bool) {
        files = selection.feeds.map { $0.pages.map(\.path) }
        homes = selection.homes
        self.cardPages = cardPages
        tree = selection.tree
        var starts = [Int32](repeating: 0, count: selection.cards.count + 1)
        for feed in selection.feeds {
            for position in feed.cards { starts[position + 1] += 1 }
        }
        for position in starts.indices.dropFirst() { starts[position] += starts[position - 1] }
        var next = starts
        var feeds = [Int32](repeating: 0, count: Int(starts[starts.count - 1]))
        var pages = feeds
        for (feed, selected) in selection.feeds.enumerated() {
            // By index into the feed's cards, the archive page that holds it; 0 (the front page)
            // for a card that none holds yet.
            var page = [Int32](repeating: 0, count: selected.cards.count)
            for (index, archived) in selected.archive.enumerated() {
                for card in archived.cards { page[card] = Int32(index + 1) }
            }
            // A card's places follow the order of the feeds: each feed fills the next free one.
            for (index, position) in selected.cards.enumerated() {
                let place = Int(next[position])
                next[position] += 1
                feeds[place] = Int32(feed)
                pages[place] = page[index]
            }
        }
        self.starts = starts
        self.feeds = feeds
        self.pages = pages
    }

    /// Every feed that shows the card at display position `position`, in order, with the page
    /// (an index into the feed's `pages`) that holds it.
    func places(of position: Int) -> some Collection<(feed: Int, page: Int)> {
        (Int(starts[position])..<Int(starts[position + 1])).lazy.map { (Int(feeds[$0]), Int(pages[$0])) }
    }

    /// The card with `anchor` on page `page` of feed `feed`: `news/page-summer-sale.html#card-x`.
    func href(feed: Int, page: Int, anchor: String) -> String {
        file(feed: feed, page: page) + "#" + anchor
    }

    /// Page `page` of feed `feed`: what `href` links to.
    func file(feed: Int, page: Int) -> String {
        files[feed][page]
    }

    /// The card on the page of its home feed (see `CardHomes`) that holds it.
    func home(position: Int, anchor: String) -> String {
        let feed = homes.place(of: position).feed
        let page = places(of: position).first { $0.feed == feed }?.page ?? 0
        return href(feed: feed, page: page, anchor: anchor)
    }

    /// Where the card's `#` link, its feed entries and the sitemap send a reader: its own page,
    /// or without card pages its place in its home feed.
    func permalink(position: Int, anchor: String) -> String {
        cardPages ? PagePaths.cardPage(anchor: anchor, tree: tree) : home(position: position, anchor: anchor)
    }
}
