import CardFeedModel
import CardFeedLoad

/// Which language's tree of pages each card goes to on a site with `languages:` (see
/// `SiteLanguages`): the language its `language` names, matched by the first part of the tag
/// (`de-AT` goes to `de`); a card without one to the default language, or with
/// `untagged_cards: every` to every language; a card in a language the site does not list to
/// the default, with a warning. The build and `cardfeed explain` both ask here.
public struct LanguageTrees: Sendable {
    public let languages: SiteLanguages
    /// The index of each listed language, by its primary subtag.
    private let indices: [String: Int]

    public init(_ languages: SiteLanguages) {
        self.languages = languages
        indices = Dictionary(languages.tags.enumerated().map { (SiteLanguages.primary($1), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Why a card went where it went.
    public enum Reason: Sendable, Equatable {
        /// Its `language` (as written) is one of the site's.
        case itsLanguage(String)
        /// It has no `language`: the default language's, or every language's (`every`).
        case untagged(every: Bool)
        /// Its `language` (as written) is none of the site's: the default's, with a warning.
        case unlisted(String)
    }

    /// The trees (indices into `languages.tags`) the card goes to, and why.
    public func assignment(_ card: Card) -> (trees: [Int], reason: Reason) {
        guard let language = card.language else {
            return languages.untagged == .every ? (Array(languages.tags.indices), .untagged(every: true)) : ([0], .untagged(every: false))
        }
        if let index = indices[SiteLanguages.primary(language)] { return ([index], .itsLanguage(language)) }
        return ([0], .unlisted(language))
    }

    /// `cards` split by tree, each in the order given. A card hidden anyway (`hidden`) goes to
    /// the default language's alone, so that it is counted once.
    public func partition(_ cards: [Card], hidden: (Card) -> Bool) -> [[Card]] {
        var trees = [[Card]](repeating: [], count: languages.tags.count)
        for card in cards {
            if hidden(card) {
                trees[0].append(card)
                continue
            }
            for tree in assignment(card).trees { trees[tree].append(card) }
        }
        return trees
    }

    /// In words, for `cardfeed explain`: "in de (its language, de-AT)".
    public func explanation(_ card: Card) -> String {
        let (trees, reason) = assignment(card)
        let names = trees.map { languages.tags[$0] }.joined(separator: ", ")
        switch reason {
        case .itsLanguage(let tag): return "in the \(names) pages (its language, \(tag))"
        case .untagged(let every):
            return every ? "in the pages of every language, \(names) (it has no language, and untagged_cards: every)" : "in the \(names) pages (it has no language: the default language's)"
        case .unlisted(let tag): return "in the \(names) pages (the default language's: its language, \(tag), is not one of the site's languages)"
        }
    }

    /// The extras key that links a card to the card it translates (`LanguageLinks`).
    public static let translationKey = "translation_of"

    /// A warning for each shown card whose language the site does not list, and for each whose
    /// `translation_of` names no card of the site (its page then links no translation).
    public func warnings(_ cards: [Card], hidden: (Card) -> Bool) -> [Diagnostic] {
        languageWarnings(cards, hidden: hidden) + translationWarnings(cards, hidden: hidden)
    }

    private func translationWarnings(_ cards: [Card], hidden: (Card) -> Bool) -> [Diagnostic] {
        let ids = Set(cards.map(\.id))
        return cards.compactMap { card in
            guard !hidden(card), let original = card.extras.first(where: { $0.key == Self.translationKey })?.value, !ids.contains(original) else { return nil }
            return Diagnostic(
                .warning, card: card, field: "extras." + Self.translationKey,
                message: "names no card of the site, \(Diagnostic.quoted(original))\(Diagnostic.suggestion(for: original, among: ids)); the card's page links no translation")
        }
    }

    private func languageWarnings(_ cards: [Card], hidden: (Card) -> Bool) -> [Diagnostic] {
        let listed = languages.tags.joined(separator: ", ")
        return cards.compactMap { card in
            guard !hidden(card), case .unlisted(let tag) = assignment(card).reason else { return nil }
            let advice = "add it to languages: in \(languages.location) (\(listed)) to give it pages of its own"
            return Diagnostic(
                .warning, card: card, field: "language",
                message: "\(Diagnostic.quoted(tag)) is not one of the site's languages; the card is shown in the default language's pages (\(languages.defaultTag)); " + advice,
                summary: "not one of the site's languages; shown in the default language's pages (\(languages.defaultTag)); " + advice)
        }
    }
}
