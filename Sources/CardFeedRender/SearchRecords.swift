import CardFeedLoad
import CardFeedModel

/// What the search index holds of one shown card (`search: true`): one result a card, made
/// from the card itself rather than from the feed pages that show it, since a card stands on
/// several pages (the "all" feed's and its categories') and a page shows many cards.
package struct SearchRecord: Sendable, Hashable {
    /// Where a result leads: the card's own URL, relative to the site's root (see `CardPlaces.permalink`).
    package var url: String
    /// The words a search finds the card by: its title, text, caption, subtitle and link text.
    package var content: String
    /// What a result shows: the card's title (or, without one, what its feed entries are
    /// called), its image (not the placeholder) and the date the card shows.
    package var title: String
    package var image: String?
    package var imageAlt: String?
    package var date: String?
    /// The slugs of the feeds that show it, a filter (`feed`) of the index.
    package var feeds: [String]
    /// Unix seconds, the index's sort key `date`: the time the feeds sort the card by.
    package var sortTime: Int64
}

extension SearchRecord {
    /// Every shown card's record, in display order.
    package static func records(_ selection: Selection, settings: RenderSettings) -> [SearchRecord] {
        var feeds = [[String]](repeating: [], count: selection.cards.count)
        for feed in selection.feeds {
            for position in feed.cards { feeds[position].append(feed.feed.slug) }
        }
        let places = CardPlaces(selection, cardPages: settings.cardPages)
        let linkSchemes = settings.links.linkSchemes
        return selection.cards.indices.map { position in
            let card = selection.cards[position]
            let image = card.image == nil ? nil : settings.images.cardImage(card)
            return SearchRecord(
                url: places.permalink(position: position, anchor: selection.cards.anchor(at: position)),
                content: words(of: card, linkSchemes: linkSchemes),
                title: CardText.title(of: card, words: card.title == nil ? CardText.words(of: card, linkSchemes: linkSchemes) : nil),
                image: image?.src, imageAlt: image?.alt,
                date: card.created.map { settings.moment($0).text },
                feeds: feeds[position], sortTime: card.sortTime)
        }
    }

    /// The card's text as a reader sees it: Markdown read as its words, plain text as typed.
    static func words(of card: Card, linkSchemes: Set<String>) -> String {
        let description = card.description.map { text in
            card.descriptionFormat == .markdown ? Markdown.text(text, linkSchemes: linkSchemes) : PlainText.lineEndsAsLF(text)
        }
        return [card.title, description, card.subtitle, card.caption, card.domain, card.imageAlt]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}
