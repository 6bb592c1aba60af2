import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender

/// A site in several languages (`languages:`) is a tree of pages per language: the same
/// selection and render as a site in one language, over that language's cards (`LanguageTrees`),
/// with its strings, and its pages under its folder. A site in one language is one tree at the root.
extension SiteBuilder {
    /// One language's tree: where its pages go and the feeds they show, under its folder.
    struct LanguageTree {
        /// Its language tag, with `languages:`; nil for a site in one language.
        var tag: String?
        /// "" for the tree at the root, else "de".
        var folder: String
        var feeds: [Feed]
    }

    /// The site's trees, the default language's first.
    func languageTrees(_ config: SiteConfig) -> [LanguageTree] {
        guard let languages = config.languages else { return [LanguageTree(tag: nil, folder: "", feeds: config.siteFeeds)] }
        return languages.tags.indices.map { index in
            let folder = languages.folder(index)
            return LanguageTree(tag: languages.tags[index], folder: folder, feeds: config.siteFeeds.map { $0.in(tree: folder) })
        }
    }

    /// The strings of every language but the default, whose are `StringTable.load`'s for
    /// `config.locale`; nil when one has errors (reported).
    func otherLanguagesStrings(_ config: SiteConfig, _ diagnostics: inout Diagnostics) -> [StringTable]? {
        guard let languages = config.languages else { return [] }
        var tables: [StringTable] = []
        var failed = false
        for tag in languages.tags.dropFirst() {
            if let table = StringTable.load(locale: tag, site: options.site, feeds: config.siteFeeds, diagnostics: &diagnostics) { tables.append(table) } else { failed = true }
        }
        return failed ? nil : tables
    }

    /// Each tree's selection, in the order of `languageTrees`: the cards of its language, in its feeds.
    func selections(_ cards: [Card], _ config: SiteConfig) -> [Selection] {
        let trees = languageTrees(config)
        let base = selector(config)
        guard let languages = config.languages else { return [base.select(cards)] }
        let split = LanguageTrees(languages).partition(cards) { base.hiddenReason($0) != nil }
        return zip(trees.indices, split).map { index, cards in
            var selector = base
            selector.feeds = trees[index].feeds
            selector.tree = trees[index].folder
            selector.countsUntaggedCardsInNoFeed = index == 0
            return selector.select(cards)
        }
    }

    /// On a site in several languages, which of its pages are the same page in another
    /// (`LanguageLinks`); nil for a site in one language.
    func languageLinks(_ selections: [Selection], _ setup: Setup) -> LanguageLinks? {
        guard setup.config.languages != nil else { return nil }
        let languages = setup.trees.map { tree, strings in
            LanguageLinks.Language(tag: tree.tag ?? strings.locale, name: strings["languageName"], front: PagePaths.front(folder: tree.folder))
        }
        return LanguageLinks(languages: languages, selections: selections, cardPages: setup.config.cardPages, baseURL: setup.config.baseURL)
    }

    /// The cards each language shows, for the select step's line: "en 120, de 80, ar 40".
    static func languageCounts(_ selections: [Selection], _ config: SiteConfig) -> String {
        guard let languages = config.languages else { return "" }
        return zip(languages.tags, selections).map { "\($0) \($1.cards.count)" }.joined(separator: ", ")
    }
}
