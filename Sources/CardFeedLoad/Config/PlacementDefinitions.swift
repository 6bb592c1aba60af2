import Yams
import CardFeedModel

/// A placement of cardfeed.yml's `placements:`: a named slot of another site's page that shows
/// the newest cards of one of the site's feeds (`embed/NAME.html`, `.json` and `NAME/`).
public struct Placement: Sendable, Hashable {
    /// A slug ("home-hero"): it names the files under `embed/`.
    public var name: String
    /// The slug of the feed whose cards it shows, in that feed's order (pinned first, then newest).
    public var feed: String
    /// An extras filter on top of the feed's own: every key must hold, with one of its values.
    public var extras: [FeedMatch.ExtraValues]
    /// How many cards it shows at most.
    public var limit: Int
    /// Where `placements:` gives it: its name's key.
    public var file: String
    public var line: Int?
    public var column: Int?

    public static let defaultLimit = 1
    /// A placement is a slot on a page, not a feed: past 50 cards a host wants the feed itself.
    public static let limitCeiling = 50

    public var location: String { [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":") }
}

extension YAMLReader {
    static let placementKeys = ["feed", "extras", "limit"]
    /// The most placements a site may define: each is three files and a look-up in one feed.
    static let placementLimit = 200

    /// `placements:`: a set of `name: {feed, extras, limit}`. Their feeds are checked once every
    /// key is read (`checkPlacements`), since `feeds:` may come after.
    mutating func placements(_ node: Node) -> [Placement]? {
        guard let mapping = keyValues(node, key: "placements") else { return nil }
        guard counts(
            mapping.count, upTo: Self.placementLimit, node, "placements",
            none: "names no placement: give one, such as home-hero: {feed: offers, limit: 1}, or leave the key out",
            tooMany: "names \(mapping.count) placements, more than the \(Self.placementLimit) a site may have")
        else { return nil }
        var placements: [Placement] = []
        for (nameNode, value) in mapping {
            guard let name = placementName(nameNode) else { continue }
            let path = "placements.\(name)"
            guard let keys = keyValues(value, key: path) else { continue }
            var placement = Placement(name: name, feed: "", extras: [], limit: Placement.defaultLimit, file: file, line: nameNode.mark?.line, column: nameNode.mark?.column)
            var feedNode: Node?
            for (keyNode, keyValue) in keys {
                let key = keyNode.string ?? ""
                switch key {
                case "feed":
                    if let slug = string(keyValue, key: "\(path).feed") { placement.feed = slug; feedNode = keyValue }
                case "extras":
                    var match = FeedMatch()
                    readExtras(keyValue, key: "\(path).extras", into: &match)
                    placement.extras = match.extras
                case "limit":
                    guard let number = integer(keyValue, key: "\(path).limit") else { continue }
                    if (1...Placement.limitCeiling).contains(number) { placement.limit = number } else {
                        error(keyValue, "\(path).limit", "must be from 1 to \(Placement.limitCeiling): the most cards the placement shows (a host that wants more links the feed itself)")
                    }
                default: unknownKey(keyNode, "\(path).\(key)", among: Self.placementKeys)
                }
            }
            if let feedNode { placementFeeds.append((placement.name, placement.feed, feedNode)) } else {
                error(value, path, "has no feed: give the slug of the feed whose cards it shows, such as feed: all")
                continue
            }
            placements.append(placement)
        }
        return placements
    }

    /// A placement's name names its files (`embed/home-hero.html`): a slug, as a feed's is.
    mutating func placementName(_ node: Node) -> String? {
        guard let text = scalarText(node, key: "placements") else { return nil }
        let key = "placements.\(text)"
        if let problem = PortableName.deviceProblem(text) {
            error(node, key, "\(problem): its files could not be created there; choose another name")
            return nil
        }
        guard text.utf8.count <= Self.slugLimit, text.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*$"#, options: .regularExpression) != nil else {
            let suggested = Self.slugSuggestion(text)
            let hint = suggested.isEmpty || suggested == text ? "" : " (did you mean \(Diagnostic.quoted(suggested))?)"
            error(node, key, "\(Diagnostic.quoted(text)) is not a placement name\(hint): it names the files embed/NAME.html, embed/NAME.json and embed/NAME/, in lower-case letters a to z, digits and single hyphens between words, at most \(Self.slugLimit) characters, such as home-hero")
            return nil
        }
        return text
    }

    /// Once every key is read: each placement's feed is one of the site's, and each rule's
    /// `keep_out_of` names placements the site has.
    mutating func checkPlacements(_ config: inout SiteConfig) {
        let slugs = config.siteFeeds.map(\.slug)
        var failed: Set<String> = []
        // A `feeds:` with errors is no list to check against: its errors say what to fix first.
        let feedsFailed = diagnostics.contains { $0.field == "feeds" || $0.field?.hasPrefix("feeds[") == true }
        for (name, slug, node) in placementFeeds where !feedsFailed && !slugs.contains(slug) {
            error(node, "placements.\(name).feed", "no feed \(Diagnostic.quoted(slug)) in the site\(Diagnostic.suggestion(for: slug, among: Set(slugs))); its feeds are \(slugs.joined(separator: ", "))")
            failed.insert(name)
        }
        config.placements?.removeAll { failed.contains($0.name) }
        let names = Set((config.placements ?? []).map(\.name) + failed)
        for (rule, name, node) in ruleKeepOutOf where !names.contains(name) {
            let known = names.isEmpty ? "the site has no placements: (add them to cardfeed.yml)" : "its placements are \(names.sorted().joined(separator: ", "))"
            error(node, "\(rule).keep_out_of", "no placement \(Diagnostic.quoted(name))\(Diagnostic.suggestion(for: name, among: names)); \(known)")
        }
    }
}
