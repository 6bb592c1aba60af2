import CardFeedMustache
import Foundation
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedWrite

/// The files of `OutputFormat`: every feed also as a feed for readers (Atom 1.0, JSON Feed 1.1...),
/// and a sitemap of every page, written when the site has a base URL (links in feeds must be
/// absolute). The HTML of a feed entry is a template too (`feed_entry`), which every feed
/// carries.
///
/// A feed file holds the cards of the feed's front page, in the page's order. Its `updated` time
/// is its newest card's, never the clock's, so the output stays byte-identical between builds.
package struct Syndication {
    let baseURL: String
    let settings: RenderSettings
    let templates: TemplateSet

    package init(baseURL: String, settings: RenderSettings, templates: TemplateSet) {
        self.baseURL = baseURL
        self.settings = settings
        self.templates = templates
    }

    /// The formats of each feed (`OutputFormat.View.feed`), in the table's order.
    static let feedFormats = OutputFormat.all.filter { $0.view == .feed }

    /// Each feed's files (`feedFormats`) of one language's tree; the site's are `siteFiles`.
    package func files(_ selection: Selection, descriptions: [String?]) throws(TemplateFailure) -> [OutputFile] {
        guard !Self.feedFormats.isEmpty else { return [] }
        let newestOverall = selection.cards.map(\.sortTime).max() ?? 0
        let linkSchemes = settings.links.linkSchemes
        var scratch = MustacheBytes(capacity: 4096)
        // A card is in several feeds (the "all" feed and its categories'): its entry is made once.
        var entries: [Int: FeedEntryView] = [:]
        let places = CardPlaces(selection, cardPages: settings.cardPages)
        var files: [OutputFile] = []
        for feed in selection.feeds {
            let positions = feed.front.cards.map { feed.cards[$0] }
            var feedEntries: [FeedEntryView] = []
            feedEntries.reserveCapacity(positions.count)
            for position in positions {
                if let made = entries[position] {
                    feedEntries.append(made)
                    continue
                }
                let card = selection.cards[position]
                var entry = FeedEntry(
                    card: card, permalink: places.permalink(position: position, anchor: selection.cards.anchor(at: position)),
                    anchor: selection.cards.anchor(at: position), description: descriptions[position], linkSchemes: linkSchemes, syndication: self)
                scratch.removeAll()
                try templates.render(TemplateSet.feedEntryTemplate, FeedEntryView(entry, content: nil), onto: &scratch)
                // The feeds carry what feed_entry made of the description, not the description
                // too: one copy of a one-page feed's 100,000 descriptions is enough.
                entry.description = nil
                let view = FeedEntryView(entry, content: scratch.string)
                entries[position] = view
                feedEntries.append(view)
            }
            let updated = positions.map { selection.cards[$0].sortTime }.max() ?? newestOverall
            let document = FeedDocumentView(feed: feed.feed, entries: feedEntries, updated: updated, syndication: self)
            for format in Self.feedFormats {
                let content: Data
                switch format.maker {
                case .template(let template):
                    // Room for the whole feed from the start, so that it is not copied as it
                    // grows: pages of memory are resident only once written.
                    var bytes = MustacheBytes(capacity: 4096 + positions.count * 4096)
                    try templates.render(template, document, onto: &bytes)
                    content = bytes.data()
                case .jsonFeed: content = json(feed.feed, feedEntries)
                }
                files.append(OutputFile(path: format.path(for: feed.feed), content: .data(content)))
            }
        }
        return files
    }

    /// The files of the whole site (`OutputFormat.View.site`: the sitemap, llms.txt), over every
    /// language's tree (`selections`, the default language's first, with `trees` the settings
    /// each renders with), or the one tree of a site in one language.
    package func siteFiles(_ selections: [Selection], trees: [RenderSettings]? = nil, languages: LanguageLinks? = nil) throws(TemplateFailure) -> [OutputFile] {
        let site = SitemapView(selections, trees: trees ?? [settings], syndication: self, languages: languages)
        var files: [OutputFile] = []
        for format in OutputFormat.all where format.view == .site {
            var bytes = MustacheBytes(capacity: 4096)
            switch format.maker {
            case .template(let template): try templates.render(template, site, onto: &bytes)
            case .jsonFeed: throw TemplateFailure(message: "\(format.name) is made by JSON Feed's encoder, which writes a feed, not the site")
            }
            files.append(OutputFile(path: format.path(for: nil), content: .data(bytes.data())))
        }
        return files
    }

    /// The absolute URL of a page's link, image or file, as the page's browser makes it.
    func absolute(_ path: String) -> String { URLCheck.resolve(path, against: baseURL) }

    /// The absolute URL of one of the site's pages (a path from `PagePaths`, perhaps with a
    /// fragment), a folder's index named by the folder (see `PagePaths.served`).
    func pageURL(_ path: String) -> String { baseURL + PagePaths.served(path) }

    /// A description's HTML with its links and images (`assets/images/map.png`, `/about.html`,
    /// `//cdn.example/x`) made absolute as on the site's pages, for feed readers, which know no
    /// `<base href>`.
    func absoluteURLs(_ html: String) -> String {
        HTMLAttributes.rewrite(html, ["href", "src"]) { _, value in absolute(value) }
    }

    func title(_ feed: Feed) -> String { Self.title(feed, settings) }

    static func title(_ feed: Feed, _ settings: RenderSettings) -> String {
        feed.isFrontPage ? settings.siteTitle : "\(settings.strings.feedTitle(feed)) · \(settings.siteTitle)"
    }

    // MARK: JSON Feed 1.1

    func json(_ feed: Feed, _ entries: [FeedEntryView]) -> Data {
        let items: [[String: Any]] = entries.map { view in
            let entry = view.entry
            var item: [String: Any] = [
                "id": entry.id, "url": entry.url, "title": entry.title, "content_html": view.content ?? "",
                "date_modified": entry.updated,
            ]
            if let text = entry.text { item["content_text"] = text }
            if let language = entry.language { item["language"] = language }
            if let published = entry.published { item["date_published"] = Formatting.iso(published) }
            if let link = entry.link { item["external_url"] = link }
            if let image = entry.image { item["image"] = image.src }
            if !entry.categories.isEmpty { item["tags"] = entry.categories.map(\.model.name) }
            return item
        }
        let object: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": title(feed),
            "home_page_url": pageURL(PagePaths.front(feed)),
            "feed_url": absolute(OutputFormat.jsonFeed.path(for: feed)),
            "language": settings.strings.locale,
            "authors": [["name": settings.siteTitle]],
            "items": items,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }
}

/// What a feed entry shows of a card, worked out once for every feed the card is in.
struct FeedEntry {
    /// The card's anchor on the site's front page: stable for as long as the base URL is.
    var id: String
    var title: String
    /// The card on the site: its permalink (see `CardPlaces.permalink`).
    var url: String
    /// The card's own link, absolute.
    var link: String?
    /// The card's own image (not the placeholder), its address absolute.
    var image: ImageView?
    /// The description's HTML, its links absolute.
    var description: String?
    /// A plain-text card's description as typed (line ends as LF), for JSON Feed's `content_text`.
    var text: String?
    /// The card's language tag, when it has one.
    var language: String?
    /// Unix seconds; nil for a card without a date.
    var published: Int64?
    var updated: String
    var categories: [TemplateObject<CategoryView>]

    init(card: Card, permalink: String, anchor: String, description: String?, linkSchemes: Set<String>, syndication: Syndication) {
        let settings = syndication.settings
        url = syndication.pageURL(permalink)
        id = syndication.absolute("#" + anchor)
        // A description's words are needed only for a card without a title.
        title = CardText.title(of: card, words: card.title == nil ? CardText.words(of: card, linkSchemes: linkSchemes) : nil)
        link = card.url.map(syndication.absolute)
        image = settings.images.ownImage(card, baseURL: syndication.baseURL)
        if card.descriptionFormat == .text {
            text = card.description.map(PlainText.lineEndsAsLF)
            self.description = card.description.map(PlainText.feedHTML)
        } else {
            self.description = description.map(syndication.absoluteURLs)
        }
        published = card.created
        language = card.language
        updated = Formatting.iso(card.sortTime)
        categories = card.categories.compactMap { settings.categoryTags[$0] }
    }

    /// The image's media type, from its file name, for Atom's enclosure link.
    static func imageType(_ url: String) -> String {
        let path = url.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
        if path.hasSuffix(".jpg") || path.hasSuffix(".jpeg") { return "image/jpeg" }
        if path.hasSuffix(".gif") { return "image/gif" }
        if path.hasSuffix(".webp") { return "image/webp" }
        if path.hasSuffix(".svg") { return "image/svg+xml" }
        if path.hasSuffix(".png") { return "image/png" }
        return "image/*"
    }
}
