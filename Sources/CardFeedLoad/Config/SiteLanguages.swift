import CardFeedModel

/// `languages:` in cardfeed.yml: the site's languages, the first the default, each with a tree
/// of pages of its own (see `LanguageTrees`). It takes the place of `locale:`, which names the
/// one language of a site without it.
public struct SiteLanguages: Sendable {
    /// The languages as listed, each a language tag ("en", "de", "pt-BR"); never empty.
    public var tags: [String]
    /// Where a card without a `language` goes (`untagged_cards`).
    public var untagged = UntaggedCards.defaultLanguage
    /// `default_language_folder: true`: the default language's tree is under its own folder
    /// ("en/") like the others, rather than at the root.
    public var defaultInFolder = false
    /// Where `languages:` stands in cardfeed.yml, which warnings about it name.
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(tags: [String], file: String, line: Int? = nil, column: Int? = nil) {
        self.tags = tags
        self.file = file
        self.line = line
        self.column = column
    }

    /// The default language: the first listed.
    public var defaultTag: String { tags[0] }

    /// The folder of the tree of the language at `index`: the tag in lower case, "" for the
    /// default's at the root.
    public func folder(_ index: Int) -> String {
        index == 0 && !defaultInFolder ? "" : tags[index].lowercased()
    }

    /// A tag's primary subtag in lower case ("de-AT" -> "de"), by which cards and languages match.
    public static func primary(_ tag: String) -> String {
        String(tag.split(separator: "-", maxSplits: 1).first ?? Substring(tag)).lowercased()
    }

    /// "cardfeed.yml:3:12".
    public var location: String { [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":") }
}

/// Where a card without a `language` goes on a site with `languages:`.
public enum UntaggedCards: String, Sendable, CaseIterable {
    /// To the default language's tree.
    case defaultLanguage = "default"
    /// To every language's tree (a card all languages share, such as a picture without words).
    case every
}
