import Foundation

/// Every feed also as Atom 1.0 (`feed.xml`) and JSON Feed 1.1 (`feed.json`), and a sitemap of
/// every page, written when the site has a base URL (links in feeds must be absolute).
///
/// A feed file holds the cards of the feed's first page, in the page's order. Its `updated` time
/// is its newest card's, never the clock's, so the output stays byte-identical between builds.
struct Syndication {
    let baseURL: String
    let settings: RenderSettings

    static func atomFile(_ feed: Feed) -> String { (feed.folder.isEmpty ? "" : feed.folder + "/") + "feed.xml" }
    static func jsonFile(_ feed: Feed) -> String { (feed.folder.isEmpty ? "" : feed.folder + "/") + "feed.json" }

    func files(_ selection: Selection, descriptions: [String?]) -> [OutputFile] {
        let newestOverall = selection.cards.map(\.sortTime).max() ?? 0
        var files: [OutputFile] = []
        for feed in selection.feeds {
            let positions = Array(feed.cards[feed.pages.first ?? 0..<0])
            let updated = positions.map { selection.cards[$0].sortTime }.max() ?? newestOverall
            let entries = positions.map { Entry(card: selection.cards[$0], position: $0, anchor: selection.cards.anchor(at: $0), description: descriptions[$0], syndication: self) }
            files.append(OutputFile(path: Self.atomFile(feed.feed), content: .text(atom(feed.feed, entries, updated: updated))))
            files.append(OutputFile(path: Self.jsonFile(feed.feed), content: .data(json(feed.feed, entries))))
        }
        files.append(OutputFile(path: "sitemap.xml", content: .text(sitemap(selection))))
        return files
    }

    func absolute(_ path: String) -> String { baseURL + path }

    /// A description's HTML with its relative links and images (`assets/images/map.png`) made
    /// absolute, for feed readers, which know no `<base href>`. Only attribute values can hold
    /// `href="` or `src="`: in cmark's text a quote is always `&quot;`.
    func absoluteURLs(_ html: String) -> String {
        guard html.contains(" href=\"") || html.contains(" src=\"") else { return html }
        var out = ""
        var rest = Substring(html)
        while let range = rest.firstRange(of: #/ (href|src)="/#) {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let value = rest.prefix { $0 != "\"" }
            if URLCheck.scheme(of: String(value)) == nil && !value.hasPrefix("//") {
                out += absolute(value.hasPrefix("/") ? String(value.dropFirst()) : String(value))
                rest = rest[value.endIndex...]
            }
        }
        return out + rest
    }

    func title(_ feed: Feed) -> String { Self.title(feed, settings) }

    static func title(_ feed: Feed, _ settings: RenderSettings) -> String {
        feed == .all ? settings.siteTitle : "\(settings.strings.feedTitle(feed)) · \(settings.siteTitle)"
    }

    /// What a feed entry shows of a card.
    struct Entry {
        var id: String
        var title: String
        var pageURL: String
        var link: String?
        var image: String?
        var imageAlt: String
        var html: String
        /// Nil for a card without a date.
        var published: String?
        var updated: String
        var categories: [(term: String, label: String)]

        init(card: Card, position: Int, anchor: String, description: String?, syndication: Syndication) {
            let settings = syndication.settings
            pageURL = syndication.absolute(settings.permalink(position: position, anchor: anchor))
            // The card's anchor on the site's front page: stable for as long as the base URL is.
            id = syndication.absolute("#" + anchor)
            title = Self.title(of: card, description: description)
            link = card.url.flatMap { URLCheck.scheme(of: $0) == nil ? syndication.absolute($0.hasPrefix("/") ? String($0.dropFirst()) : $0) : $0 }
            let view = settings.images.cardImage(card)
            image = view.placeholder ? nil : (URLCheck.scheme(of: view.src) == nil ? syndication.absolute(view.src) : view.src)
            imageAlt = view.alt
            var html = description.map(syndication.absoluteURLs) ?? ""
            if let image { html = "<p><img src=\"\(XMLEscaping.escape(image))\" alt=\"\(XMLEscaping.escape(imageAlt))\"></p>\n" + html }
            self.html = html
            published = card.created.map(Formatting.iso)
            updated = Formatting.iso(card.sortTime)
            categories = card.categories.map { ($0.rawValue, settings.strings.feedTitle(.category($0))) }
        }

        /// The title, or for a card without one a sensible text from the card: the start of its
        /// description, its image's alt text, its link text.
        static func title(of card: Card, description: String?) -> String {
            if let title = card.title { return title }
            if let text = description.map(plainText), !text.isEmpty {
                return text.count > 80 ? String(text.prefix(79)).trimmingCharacters(in: .whitespaces) + "…" : text
            }
            return card.imageAlt ?? card.domain ?? card.caption ?? card.id
        }

        /// The text of cmark's HTML: tags and comments removed, entities decoded, space folded.
        static func plainText(_ html: String) -> String {
            let withoutTags = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)  // cmark ends blocks with a newline
            let decoded = withoutTags.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            return decoded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    // MARK: Atom 1.0 (RFC 4287)

    func atom(_ feed: Feed, _ entries: [Entry], updated: Int64) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(XMLEscaping.escape(settings.strings.locale))" xml:base="\(XMLEscaping.escape(baseURL))">
            <title>\(XMLEscaping.escape(title(feed)))</title>
            <id>\(XMLEscaping.escape(absolute(PagePaths.file(feed: feed, page: 1))))</id>
            <updated>\(Formatting.iso(updated))</updated>
            <link rel="self" type="application/atom+xml" href="\(XMLEscaping.escape(absolute(Self.atomFile(feed))))"/>
            <link rel="alternate" type="text/html" href="\(XMLEscaping.escape(absolute(PagePaths.file(feed: feed, page: 1))))"/>
            <author><name>\(XMLEscaping.escape(settings.siteTitle))</name></author>
            <generator version="\(CardFeedVersion.current)">CardFeed</generator>

            """
        for entry in entries {
            xml += "<entry>\n"
            xml += "<title>\(XMLEscaping.escape(entry.title))</title>\n"
            xml += "<id>\(XMLEscaping.escape(entry.id))</id>\n"
            xml += "<link rel=\"alternate\" type=\"text/html\" href=\"\(XMLEscaping.escape(entry.link ?? entry.pageURL))\"/>\n"
            if entry.link != nil { xml += "<link rel=\"via\" type=\"text/html\" href=\"\(XMLEscaping.escape(entry.pageURL))\"/>\n" }
            if let image = entry.image { xml += "<link rel=\"enclosure\" type=\"\(Self.imageType(image))\" href=\"\(XMLEscaping.escape(image))\"/>\n" }
            if let published = entry.published { xml += "<published>\(published)</published>\n" }
            xml += "<updated>\(entry.updated)</updated>\n"
            for category in entry.categories {
                xml += "<category term=\"\(XMLEscaping.escape(category.term))\" label=\"\(XMLEscaping.escape(category.label))\"/>\n"
            }
            xml += "<content type=\"html\">\(XMLEscaping.escape(entry.html))</content>\n"
            xml += "</entry>\n"
        }
        return xml + "</feed>\n"
    }

    static func imageType(_ url: String) -> String {
        let path = url.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
        if path.hasSuffix(".jpg") || path.hasSuffix(".jpeg") { return "image/jpeg" }
        if path.hasSuffix(".gif") { return "image/gif" }
        if path.hasSuffix(".webp") { return "image/webp" }
        if path.hasSuffix(".svg") { return "image/svg+xml" }
        if path.hasSuffix(".png") { return "image/png" }
        return "image/*"
    }

    // MARK: JSON Feed 1.1

    func json(_ feed: Feed, _ entries: [Entry]) -> Data {
        let items: [[String: Any]] = entries.map { entry in
            var item: [String: Any] = [
                "id": entry.id, "url": entry.pageURL, "title": entry.title, "content_html": entry.html,
                "date_modified": entry.updated,
            ]
            if let published = entry.published { item["date_published"] = published }
            if let link = entry.link { item["external_url"] = link }
            if let image = entry.image { item["image"] = image }
            if !entry.categories.isEmpty { item["tags"] = entry.categories.map(\.term) }
            return item
        }
        let object: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": title(feed),
            "home_page_url": absolute(PagePaths.file(feed: feed, page: 1)),
            "feed_url": absolute(Self.jsonFile(feed)),
            "language": settings.strings.locale,
            "authors": [["name": settings.siteTitle]],
            "items": items,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }

    // MARK: Sitemap

    func sitemap(_ selection: Selection) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for feed in selection.feeds {
            for (number, range) in feed.pages.enumerated() {
                xml += "<url><loc>\(XMLEscaping.escape(absolute(PagePaths.file(feed: feed.feed, page: number + 1))))</loc>"
                if let newest = feed.cards[range].map({ selection.cards[$0].sortTime }).max() {
                    xml += "<lastmod>\(Formatting.iso(newest))</lastmod>"
                }
                xml += "</url>\n"
            }
        }
        return xml + "</urlset>\n"
    }
}
