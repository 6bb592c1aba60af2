import CardFeedLoad
import CardFeedModel

/// A card's words as plain text, for where no HTML goes: a feed entry's title, and a card page's
/// `<title>`, heading and meta description.
enum CardText {
    /// The words of the card's description as its page shows them, without markup, space
    /// folded; nil for a card without a description.
    static func words(of card: Card, linkSchemes: Set<String>) -> String? {
        guard let description = card.description else { return nil }
        return card.descriptionFormat == .markdown ? Markdown.text(description, linkSchemes: linkSchemes) : HTMLText.words(description)
    }

    /// The card's title, or for a card without one a sensible text from it: the start of its
    /// description's `words` (see `words(of:linkSchemes:)`), its image's alt text, its link text,
    /// its caption, its id.
    static func title(of card: Card, words: String?) -> String {
        if let title = card.title { return title }
        if let words, !words.isEmpty { return shortened(words, to: 80) }
        return card.imageAlt ?? card.domain ?? card.caption ?? card.id
    }

    /// `words` (white space folded, as `HTMLText.words` leaves them), cut to at most `limit`
    /// characters with "…" at its end when they are longer.
    static func shortened(_ words: String, to limit: Int) -> String {
        // A text no longer than the limit in bytes is short enough; an ASCII one (the usual card)
        // is cut at a byte, without counting characters.
        let bytes = words.utf8.count
        guard bytes > limit else { return words }
        let ascii = words.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? false
        let end = ascii ? words.utf8.index(words.startIndex, offsetBy: limit) : words.index(words.startIndex, offsetBy: limit, limitedBy: words.endIndex)
        guard let end, end < words.endIndex else { return words }
        var cut = words[..<words.index(before: end)]
        // Folded, the words can end in one space only where they are cut.
        while cut.last?.isWhitespace == true { cut.removeLast() }
        return String(cut) + "…"  // a Substring's `+` would count its characters first
    }
}
