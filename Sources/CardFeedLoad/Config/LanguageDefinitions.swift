import Yams
import CardFeedModel

/// `languages:` of cardfeed.yml and the two keys that go with it, `untagged_cards` and
/// `default_language_folder`; checked once the whole file is read, since they depend on each
/// other, on `locale` (which `languages:` replaces) and on the feeds' folders.
extension YAMLReader {
    /// The keys read here, and where each stood (nil when not given).
    struct LanguageKeys {
        var languages: (key: Node, value: Node)?
        var locale: (key: Node, value: Node)?
        var untagged: (key: Node, value: Node)?
        var defaultFolder: (key: Node, value: Node)?
    }

    /// Reads them into `config`: the languages, and `locale` set to the default one.
    mutating func languages(_ keys: LanguageKeys, into config: inout SiteConfig) {
        guard let (languagesKey, node) = keys.languages else {
            for (key, _) in [keys.untagged, keys.defaultFolder].compactMap({ $0 }) {
                error(key, key.string ?? "", "applies only to a site with languages: (a list such as [en, de, ar]); add that, or remove this key")
            }
            return
        }
        if let (localeKey, _) = keys.locale {
            error(localeKey, "locale", "is given together with languages: (line \(languagesKey.mark?.line ?? 0)), which replaces it; keep languages: and put the locale first in its list (the default language), or keep locale: for a site in one language")
            return
        }
        let items: [Node]
        switch node {
        case .sequence(let sequence): items = Array(sequence)
        case .scalar: items = [node]
        default:
            error(node, "languages", "expected a list of language tags such as [en, de, ar], the first the default")
            return
        }
        guard !items.isEmpty else {
            error(node, "languages", "lists no language; give at least one, such as [en], or leave the key out")
            return
        }
        var tags: [String] = []
        var primaries: [String: String] = [:]
        let problemsBefore = diagnostics.count
        for item in items {
            guard let tag = string(item, key: "languages") else { continue }
            guard StringTable.isLanguageTag(tag) else {
                error(item, "languages", StringTable.notALanguageTag(tag))
                continue
            }
            // Whether or not its pages go in a folder now: default_language_folder may move
            // them there, and the tag names its strings file too.
            if let problem = PortableName.deviceProblem(tag) {
                error(item, "languages", "\(problem): its folder \(tag.lowercased())/ cannot be created, checked out or unzipped there, so CardFeed cannot write this language's pages; list languages whose tags every system can hold as folders")
                continue
            }
            let primary = SiteLanguages.primary(tag)
            if let earlier = primaries[primary] {
                error(item, "languages", "\(Diagnostic.quoted(tag)) is the same language as \(Diagnostic.quoted(earlier)), listed before it (cards go to a language by its first part, \(Diagnostic.quoted(primary))); list each language once")
                continue
            }
            primaries[primary] = tag
            tags.append(StringTable.canonical(tag))
        }
        guard diagnostics.count == problemsBefore else { return }
        var languages = SiteLanguages(tags: tags, file: file, line: node.mark?.line, column: node.mark?.column)
        if let (_, value) = keys.untagged, let text = string(value, key: "untagged_cards") {
            if let untagged = UntaggedCards(rawValue: text) { languages.untagged = untagged } else {
                let suggestion = Diagnostic.suggestion(for: text, among: Set(UntaggedCards.allCases.map(\.rawValue)))
                error(value, "untagged_cards", "must be default (a card without a language is shown in the first language) or every (in every language); found \(Diagnostic.quoted(text))\(suggestion)")
            }
        }
        if let (_, value) = keys.defaultFolder, let flag = bool(value, key: "default_language_folder") { languages.defaultInFolder = flag }
        // A tree's folder must not be a feed's folder of the root tree, nor one the build fills.
        let feedFolders = Dictionary((config.siteFeeds).map { ($0.folder, $0.slug) }, uniquingKeysWith: { first, _ in first })
        for index in languages.tags.indices {
            let folder = languages.folder(index)
            guard !folder.isEmpty else { continue }
            if let slug = feedFolders[folder], !(languages.defaultInFolder) {
                error(items[index], "languages", "\(Diagnostic.quoted(languages.tags[index]))'s pages go in the folder \(folder)/, which is the folder of the feed \(Diagnostic.quoted(slug)); give that feed another slug")
            } else if let what = Self.reservedSlugs[folder] {
                error(items[index], "languages", "\(Diagnostic.quoted(languages.tags[index]))'s pages would go in the folder \(folder)/, \(what)")
            }
        }
        config.locale = languages.defaultTag
        config.languages = languages
    }
}
