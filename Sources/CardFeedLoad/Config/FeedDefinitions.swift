import Yams
import CardFeedModel

/// `feeds:` of cardfeed.yml: the site's feeds in the navigation's order, each a slug (its
/// folder), a title and the cards it shows (by category, by extras, or every card).
extension YAMLReader {
    static let feedKeys = ["slug", "title", "category", "extras"]
    /// Slugs that would name a folder the build fills itself, kept whether or not the site
    /// has what fills it, so that turning a setting on never takes a feed's address.
    static let reservedSlugs: [String: String] = [
        "assets": "the output's folder of stylesheets, scripts and images",
        PagePaths.cardPagesFolder: "the output's folder of the cards' own pages (kept for them even with card_pages: false)",
        PagePaths.searchIndexFolder: "the output's folder of the search index (kept for it even without search: true)",
        PagePaths.placementsFolder: "the output's folder of the placements (kept for them even without placements:)",
    ]
    /// The longest slug: a folder name, and part of every address of the feed.
    static let slugLimit = 64
    /// The most feeds a site may define. Every page lists every feed, so the pages grow with the
    /// square of their number: 10,000 feeds (a 300 KB file) would write some 20 GB of navigation.
    /// 200 is far more than a navigation can show.
    static let feedLimit = 200

    mutating func feeds(_ node: Node) -> [ConfiguredFeed]? {
        guard case .sequence(let sequence) = node else {
            error(node, "feeds", "expected a list of feeds (lines starting with \"- \"), each with a slug, a title and the cards it shows")
            return nil
        }
        guard counts(
            sequence.count, upTo: Self.feedLimit, node, "feeds",
            none: "lists no feed; leave the key out for the built-in feeds (all, news, advertising, announcements, social, uncategorized)",
            tooMany: "lists \(sequence.count) feeds, more than the \(Self.feedLimit) a site may have (every page links every feed)")
        else { return nil }
        let problemsBefore = diagnostics.count
        var feeds: [ConfiguredFeed] = []
        // Where each slug and each title's strings key was first given: a second is an error.
        var slugs: [String: (path: String, line: Int?)] = [:]
        var titleKeys: [String: (path: String, slug: String)] = [:]
        for (index, item) in sequence.enumerated() {
            let path = "feeds[\(index + 1)]"
            let (feed, slug) = self.feed(item, path: path, isFrontPage: index == 0)
            // A slug is checked against the others even when its feed has other errors.
            if let (slug, slugNode) = slug {
                let titleKey = Feed.titleKey(slug)
                if let first = slugs[slug] {
                    error(slugNode, "\(path).slug", "\(Diagnostic.quoted(slug)) is also the slug of \(first.path)\(first.line.map { " (line \($0))" } ?? ""): each feed needs a folder of its own")
                    continue
                }
                slugs[slug] = (path, slugNode.mark?.line)
                if let first = titleKeys[titleKey] {
                    error(slugNode, "\(path).slug", "\(Diagnostic.quoted(slug)) and \(first.path)'s \(Diagnostic.quoted(first.slug)) would share the strings key \(titleKey) of their titles; rename one")
                    continue
                }
                titleKeys[titleKey] = (path, slug)
            }
            if let feed { feeds.append(ConfiguredFeed(feed: feed, file: file, line: item.mark?.line, column: item.mark?.column)) }
        }
        return diagnostics.count == problemsBefore ? feeds : nil
    }

    /// One feed of the list (nil when it has errors), and its slug with the slug's node (for
    /// errors about it) when it has a valid one.
    mutating func feed(_ node: Node, path: String, isFrontPage: Bool) -> (Feed?, (String, Node)?) {
        if node.scalar != nil {
            error(node, path, "expected a feed's keys (\(Self.feedKeys.joined(separator: ", "))), found \(noun(node)); write it as \"- slug: \(node.scalar?.string ?? "offers")\" with a title on the next line")
            return (nil, nil)
        }
        guard let mapping = keyValues(node, key: path) else { return (nil, nil) }
        let problemsBefore = diagnostics.count
        var slug: (String, Node)?
        var title: String?
        var match = FeedMatch()
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            switch key {
            case "slug": slug = self.slug(value, key: "\(path).slug").map { ($0, value) }
            case "title":
                guard let text = string(value, key: "\(path).title") else { continue }
                if text.trimmingCharacters(in: .whitespaces).isEmpty { error(value, "\(path).title", "is empty: give the text the navigation and the feed's page show") } else { title = text }
            case "category": readCategories(value, key: "\(path).category", into: &match)
            case "extras": readExtras(value, key: "\(path).extras", into: &match)
            default: unknownKey(keyNode, "\(path).\(key)", among: Self.feedKeys)
            }
        }
        guard let (slug, slugNode) = slug else {
            if diagnostics.count == problemsBefore { error(node, path, "has no slug: give the name of its folder, such as slug: offers") }
            return (nil, nil)
        }
        if title == nil && !Feed.builtinSlugs.contains(slug) {
            error(node, path, "has no title: give the text the navigation shows, such as title: Offers (only the built-in feeds' slugs, \(Feed.builtinSlugs.joined(separator: ", ")), have one of their own)")
        }
        guard diagnostics.count == problemsBefore else { return (nil, (slug, slugNode)) }
        // `- slug: news` alone is the built-in News feed; any other feed without a condition
        // shows every card.
        if match.matchesEveryCard, let builtin = Feed.builtin.first(where: { $0.slug == slug }) { match = builtin.match }
        return (Feed(slug: slug, folder: isFrontPage ? "" : slug, title: title, match: match), (slug, slugNode))
    }

    /// A slug is a folder of the output and part of its addresses: lower-case ASCII letters and
    /// digits in words joined by single hyphens (so it is the same folder on every file system,
    /// and its strings key is made of its words).
    mutating func slug(_ node: Node, key: String) -> String? {
        guard let text = string(node, key: key) else { return nil }
        if let reason = Self.reservedSlugs[text] {
            error(node, key, "\(Diagnostic.quoted(text)) is taken: \(text)/ is \(reason); choose another slug")
            return nil
        }
        if let problem = PortableName.deviceProblem(text) {
            error(node, key, "\(problem): a folder of that name cannot be created, checked out or unzipped there; choose another slug, such as \(Self.slugSuggestion(text).isEmpty ? "offers" : Self.slugSuggestion(text) + "-feed")")
            return nil
        }
        guard text.utf8.count <= Self.slugLimit, text.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*$"#, options: .regularExpression) != nil else {
            let suggested = Self.slugSuggestion(text)
            let hint = suggested.isEmpty || suggested == text || Self.reservedSlugs[suggested] != nil || PortableName.windowsDevice(suggested) != nil ? "" : " (did you mean \(Diagnostic.quoted(suggested))?)"
            error(node, key, "\(Diagnostic.quoted(text)) is not a slug\(hint): a slug names the feed's folder, in lower-case letters a to z, digits and single hyphens between words, at most \(Self.slugLimit) characters, such as offers or summer-deals")
            return nil
        }
        return text
    }

    /// What a slug for `text` would be: lower case, every run of other characters one hyphen.
    static func slugSuggestion(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(slugLimit))
    }

    /// `category: news`, or a list: the cards with any of them; `uncategorized`: those without one.
    mutating func readCategories(_ node: Node, key: String, into match: inout FeedMatch) {
        let names = stringList(node, key: key)
        if names.isEmpty, case .sequence = node { error(node, key, "lists no category") }
        for name in names {
            if name.trimmingCharacters(in: .whitespaces).lowercased() == "uncategorized" {
                match.uncategorized = true
            } else if let category = FeedCategory(wireName: name) {
                if !match.categories.contains(category) { match.categories.append(category) }
            } else {
                error(node, key, "\(FeedCategory.unknown(name, uncategorized: true)) (Content Cards have none: choose them by extras)")
            }
        }
    }

    /// `extras: {feed: offers}`, a list of values (`{feed: [offers, deals]}`: any of them), and
    /// several keys (every one must hold).
    mutating func readExtras(_ node: Node, key: String, into match: inout FeedMatch) {
        guard let mapping = keyValues(node, key: key) else { return }
        if mapping.isEmpty { error(node, key, "names no extra: give a key and its value, such as extras: {feed: offers}") }
        for (extraKey, value) in mapping {
            guard let name = scalarText(extraKey, key: key) else { continue }
            let path = "\(key).\(name)"
            guard !name.isEmpty else {
                error(extraKey, key, "an extra's key is empty")
                continue
            }
            let items: [Node] = if case .sequence(let sequence) = value { Array(sequence) } else { [value] }
            if items.isEmpty { error(value, path, "lists no value: give one, such as \(name): offers, or a list, such as \(name): [offers, deals]") }
            let values = items.compactMap { item -> String? in
                guard item.null == nil || item.tag.rawValue == Tag.Name.str.rawValue else {
                    error(item, path, "is empty: give the value the cards' extra has, such as \(name): offers")
                    return nil
                }
                return scalarText(item, key: path)
            }
            match.extras.append(FeedMatch.ExtraValues(key: name, values: Set(values)))
        }
    }
}
