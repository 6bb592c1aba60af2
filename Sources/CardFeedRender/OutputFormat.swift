import CardFeedModel

/// A kind of file the build makes besides its pages, declared once: where it goes, what makes
/// it, what language it is written in, and how pages link it. Writing them (`Syndication`), the
/// template escaping, the templates' linter, the files `static/` may not take, the command's
/// summary and help, and the fuzzer's well-formedness check all read this table, so a format is
/// added here and in the template that writes it.
///
/// Every one is written only when the site has a base URL: links in feeds and sitemaps must be
/// absolute.
package struct OutputFormat: Sendable, Equatable {
    /// How messages name it: "Atom", "RSS 2.0".
    package let name: String
    /// The file's name, in each feed's folder or at the site's root (`scope`).
    package let fileName: String
    package let scope: Scope
    package let language: Language
    package let mediaType: String
    /// The name a page's `alternates` gives its address (`{{#alternates}}{{rss}}{{/alternates}}`),
    /// when pages link it with `rel="alternate"`.
    package let alternate: String?

    package enum Scope: Sendable, Equatable {
        /// One file for each feed, over the cards of its front page (`FeedDocumentView`).
        case feed(Maker)
        /// One file for the site, made by the template named, over `SitemapView`.
        case site(template: String)
    }

    package enum Maker: Sendable, Equatable {
        /// A template, which a site may override.
        case template(String)
        /// JSON's encoder (`Syndication.json`): JSON Feed is data, which a template could
        /// write invalid.
        case jsonFeed
    }

    /// What the file is written in: it decides what `{{name}}` escapes for in its template (and
    /// the partials it includes), and the check the fuzzer makes of it.
    package enum Language: Sendable, Equatable {
        case xml, json
    }

    package static let atom = OutputFormat(
        name: "Atom", fileName: "feed.xml", scope: .feed(.template("feed.atom")), language: .xml,
        mediaType: "application/atom+xml", alternate: "atom")
    package static let rss = OutputFormat(
        name: "RSS 2.0", fileName: "rss.xml", scope: .feed(.template("feed.rss")), language: .xml,
        mediaType: "application/rss+xml", alternate: "rss")
    package static let jsonFeed = OutputFormat(
        name: "JSON Feed", fileName: "feed.json", scope: .feed(.jsonFeed), language: .json,
        mediaType: "application/feed+json", alternate: "json")
    package static let sitemap = OutputFormat(
        name: "sitemap", fileName: "sitemap.xml", scope: .site(template: "sitemap.xml"), language: .xml,
        mediaType: "application/xml", alternate: nil)

    /// In the order pages link them and summaries name them.
    package static let all: [OutputFormat] = [atom, rss, jsonFeed, sitemap]

    /// The formats written once for each feed, with what makes each.
    package static let perFeed: [(format: OutputFormat, maker: Maker)] = all.compactMap { format in
        if case .feed(let maker) = format.scope { return (format, maker) }
        return nil
    }

    /// The formats written once for the site, with the template that makes each.
    package static let perSite: [(format: OutputFormat, template: String)] = all.compactMap { format in
        if case .site(let template) = format.scope { return (format, template) }
        return nil
    }

    /// The formats pages link with `rel="alternate"`.
    package static let alternates = all.filter { $0.alternate != nil }

    /// The file's path in the output: in `feed`'s folder for a format of each feed.
    package func path(for feed: Feed?) -> String {
        guard case .feed = scope, let feed, !feed.folder.isEmpty else { return fileName }
        return feed.folder + "/" + fileName
    }

    /// The template that writes it, unless JSON's encoder does.
    package var template: String? {
        switch scope {
        case .feed(.template(let name)), .site(let name): name
        case .feed(.jsonFeed): nil
        }
    }

    /// The format whose template is `name`, if any.
    package static func made(byTemplate name: String) -> OutputFormat? { all.first { $0.template == name } }

    /// The format whose files are named `fileName`, if any.
    package static func named(_ fileName: String) -> OutputFormat? { all.first { $0.fileName == fileName } }

    /// "Atom (feed.xml) and JSON Feed (feed.json) for every feed, and sitemap.xml", for the
    /// command's summary and help.
    package static var summary: String {
        list(perFeed.map { "\($0.format.name) (\($0.format.fileName))" }) + " for every feed, and " + list(perSite.map(\.format.fileName))
    }

    /// `names` as a sentence lists them: "Atom, RSS 2.0 and JSON Feed".
    package static func list(_ names: [String], _ conjunction: String = "and") -> String {
        names.count > 1 ? names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last! : names.joined()
    }
}
