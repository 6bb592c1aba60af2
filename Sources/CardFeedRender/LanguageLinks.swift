import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect

/// On a site in several languages, which pages are the same page in another language: a feed's
/// front page and the same feed's front page in every other tree; a card's page and the pages
/// of its translations, the cards linked by the extras key `translation_of` (a card names the id
/// of the card it translates; a card in every tree, `untagged_cards: every`, is its own
/// translation). From them come each page's `<link rel="alternate" hreflang>` (and `x-default`,
/// the default language's page), the sitemap's `xhtml:link`s and the language switcher. Every
/// page of a group lists every page of it, itself included, so each alternate is answered by
/// one pointing back. An archive page has none: each tree's archive pages hold other cards.
package struct LanguageLinks: Sendable, Hashable {
    /// One tree, in the order of `languages:`.
    package struct Language: Sendable, Hashable {
        /// As listed: "en", "de", "pt-BR".
        var tag: String
        /// Its name in its own words (its strings' `languageName`): "Deutsch".
        var name: String
        /// The tree's front page: "index.html", "de/index.html".
        var front: String

        package init(tag: String, name: String, front: String) {
            self.tag = tag
            self.name = name
            self.front = front
        }
    }

    /// The extras key that links a card to the card it translates.
    package static let translationKey = LanguageTrees.translationKey

    let languages: [Language]
    /// With a base URL, alternates are absolute (search engines ask for that); else as pages link.
    let baseURL: String?
    /// By feed slug, its front page in each tree.
    private let fronts: [String: [String]]
    /// By translation group (`group(of:)`), its card's page in each tree, where it has one.
    private let cardPages: [String: [String?]]
    /// By tree, each shown card's group, by id.
    private let groups: [[String: String]]

    /// `selections`: each tree's, in the order of `languages`.
    package init(languages: [Language], selections: [Selection], cardPages withCardPages: Bool, baseURL: String?) {
        self.languages = languages
        self.baseURL = baseURL
        var fronts: [String: [String]] = [:]
        for (tree, selection) in selections.enumerated() {
            for feed in selection.feeds {
                fronts[feed.feed.slug, default: Array(repeating: "", count: selections.count)][tree] = feed.front.path
            }
        }
        self.fronts = fronts
        // The card each id translates, over every tree: a chain (c translates b, b translates a) is one group.
        var translates: [String: String] = [:]
        for selection in selections {
            for card in selection.cards {
                if let original = card.extras.first(where: { $0.key == Self.translationKey })?.value, original != card.id { translates[card.id] = original }
            }
        }
        func group(_ id: String) -> String {
            var id = id
            var seen: Set<String> = [id]
            while let next = translates[id], seen.insert(next).inserted { id = next }
            return id
        }
        var pages: [String: [String?]] = [:]
        var groups = [[String: String]](repeating: [:], count: selections.count)
        if withCardPages {
            for (tree, selection) in selections.enumerated() {
                for position in selection.cards.indices {
                    let card = selection.cards[position]
                    let key = group(card.id)
                    groups[tree][card.id] = key
                    var row = pages[key] ?? Array(repeating: nil, count: selections.count)
                    // Two translations in one language: the first shown is the group's.
                    if row[tree] == nil { row[tree] = PagePaths.cardPage(anchor: selection.cards.anchor(at: position), tree: selection.tree) }
                    pages[key] = row
                }
            }
        }
        cardPages = pages
        self.groups = groups
    }

    /// The links of a feed's page in tree `tree`: the same feed's front page in every tree; on an
    /// archive page (`front` false), the switcher's alone.
    func feedPage(tree: Int, slug: String, front: Bool) -> LanguagesView {
        let pages = fronts[slug].map { $0.map(Optional.some) } ?? Array(repeating: nil, count: languages.count)
        return view(tree: tree, counterparts: pages, alternates: front)
    }

    /// The links of a card's page in tree `tree`.
    func cardPage(tree: Int, id: String) -> LanguagesView {
        let pages = groups[tree][id].flatMap { cardPages[$0] } ?? Array(repeating: nil, count: languages.count)
        return view(tree: tree, counterparts: pages, alternates: true)
    }

    /// `counterparts`: the page in each tree, where there is one.
    private func view(tree: Int, counterparts: [String?], alternates: Bool) -> LanguagesView {
        let switcher = languages.indices.map { index in
            LanguagesView.Link(lang: languages[index].tag, name: languages[index].name, href: counterparts[index] ?? languages[index].front, current: index == tree)
        }
        var links: [LanguagesView.Alternate] = []
        // A page alone in its language has no alternate: there is nothing to point back.
        if alternates, counterparts.compactMap({ $0 }).count > 1 {
            for index in languages.indices { if let page = counterparts[index] { links.append(.init(lang: languages[index].tag, href: address(page))) } }
            if let page = counterparts[0] { links.append(.init(lang: "x-default", href: address(page))) }
        }
        return LanguagesView(links: switcher, alternates: links)
    }

    /// The sitemap's alternates of the page at `path` of tree `tree` (absolute with the base URL).
    func alternates(tree: Int, feed slug: String) -> [LanguagesView.Alternate] { feedPage(tree: tree, slug: slug, front: true).alternates }
    func alternates(tree: Int, card id: String) -> [LanguagesView.Alternate] { cardPage(tree: tree, id: id).alternates }

    private func address(_ page: String) -> String { baseURL.map { $0 + PagePaths.served(page) } ?? page }
}

/// The language switcher's stylesheet, an asset only a site in several languages has.
package enum LanguageSwitch {
    package static let stylesheet = "cardfeed-languages.css"
}

/// A page's languages: the switcher's links (`links`: `lang`, `name`, `href`, `current`) and its
/// `hreflang` alternates (`alternates`: `lang`, `href`).
struct LanguagesView: TemplateModel {
    struct Link: TemplateModel {
        let lang, name, href: String
        let current: Bool

        static let names = ViewNames<Self>("language link", [
            .text("lang", "The language's tag.") { $0.lang },
            .text("name", "The language's own name, its strings' `languageName`.") { $0.name },
            .text("href", "This page in that language, else its front page.") { $0.href },
            .flag("current", "True for the page's own language.") { $0.current },
        ])
    }

    struct Alternate: TemplateModel {
        let lang, href: String

        static let names = ViewNames<Self>("language alternate", [
            .text("lang", "The language's tag, or `x-default`.") { $0.lang },
            .text("href", "The page in that language.") { $0.href },
        ])
    }

    let links: [Link]
    let alternates: [Alternate]

    static let names = ViewNames<Self>("languages", [
        .list("links", Link.self, "The language switcher's links, one a language.") { .views($0.links) },
        .list("alternates", Alternate.self, """
            What `partials/head` writes as `<link rel="alternate" hreflang>`: the page in every language that has it, \
            itself included, and `x-default`.
            """) { .views($0.alternates) },
    ])
}
