import CardFeedModel

/// A kind of file the build makes besides its pages, declared once: where it goes, what view it
/// renders over, what makes it, how `{{name}}` escapes in its template, whether it needs the
/// site's address, and how pages link it. Writing them (`Syndication`), the template escaping,
/// the templates' linter, a missing template's error, the files `static/` may not take, serve's
/// Content-Type, the command's summary and help, `cardfeed config --json` (which the tests read)
/// and the fuzzer's well-formedness check all read this table, so a format is added here and in
/// the template that writes it (docs/architecture.md, "Adding an output format").
package struct OutputFormat: Sendable, Equatable {
    /// How messages name it: "Atom", "RSS 2.0".
    package let name: String
    /// The file's name, in each feed's folder or at the site's root (`view`).
    package let fileName: String
    package let view: View
    package let maker: Maker
    /// What `{{name}}` escapes for in its template and the partials it includes, and the check
    /// the fuzzer makes of the file. No default: a format says what it is written in.
    package let escaping: Escaping
    /// Serve's Content-Type for the file.
    package let mediaType: String
    /// Written only when the site has a base URL (`base_url`, `--base-url`): its links must be
    /// absolute.
    package let needsBaseURL: Bool
    /// The name a page's `alternates` gives its address (`{{#alternates}}{{rss}}{{/alternates}}`),
    /// when pages link it with `rel="alternate"`.
    package let alternate: String?

    /// What its template renders over, and so how many files it makes.
    package enum View: String, Sendable, Equatable {
        /// One file for each feed, over the cards of its front page (`FeedDocumentView`).
        case feed
        /// One file for the site, over every tree's feeds and pages (`SitemapView`).
        case site
    }

    package enum Maker: Sendable, Equatable {
        /// A template, which a site may override. A template that is missing is an error when
        /// the templates load, never an empty file.
        case template(String)
        /// JSON's encoder (`Syndication.json`): JSON Feed is data, which a template could
        /// write invalid.
        case jsonFeed
    }

    /// The language a file is written in.
    package enum Escaping: String, Sendable, Equatable, CaseIterable {
        /// `&`, `<`, `>`, `"` and `'` as character references (`HTMLEscaping`).
        case html
        /// The same for XML 1.0, and the characters XML cannot hold dropped (`XMLEscaping`).
        case xml
        /// Inside a JSON string: `"`, `\` and control characters escaped (`JSONEscaping`).
        case json
        /// As typed: plain text and Markdown, where an `&amp;` would be shown as it is written.
        case text
    }

    package static let atom = OutputFormat(
        name: "Atom", fileName: "feed.xml", view: .feed, maker: .template("feed.atom"), escaping: .xml,
        mediaType: "application/atom+xml", needsBaseURL: true, alternate: "atom")
    package static let rss = OutputFormat(
        name: "RSS 2.0", fileName: "rss.xml", view: .feed, maker: .template("feed.rss"), escaping: .xml,
        mediaType: "application/rss+xml", needsBaseURL: true, alternate: "rss")
    package static let jsonFeed = OutputFormat(
        name: "JSON Feed", fileName: "feed.json", view: .feed, maker: .jsonFeed, escaping: .json,
        mediaType: "application/feed+json", needsBaseURL: true, alternate: "json")
    package static let sitemap = OutputFormat(
        name: "sitemap", fileName: "sitemap.xml", view: .site, maker: .template("sitemap.xml"), escaping: .xml,
        mediaType: "application/xml", needsBaseURL: true, alternate: nil)
    /// llmstxt.org's index for language models: Markdown, so written as typed.
    package static let llmsText = OutputFormat(
        name: "llms.txt", fileName: "llms.txt", view: .site, maker: .template("llms.txt"), escaping: .text,
        mediaType: "text/plain; charset=utf-8", needsBaseURL: true, alternate: nil)

    /// In the order pages link them and summaries name them.
    package static let all: [OutputFormat] = [atom, rss, jsonFeed, sitemap, llmsText]

    /// The formats a build writes: those that need no base URL, and with one every format.
    package static func written(withBaseURL: Bool) -> [OutputFormat] {
        all.filter { withBaseURL || !$0.needsBaseURL }
    }

    /// The formats pages link with `rel="alternate"`.
    package static let alternates = all.filter { $0.alternate != nil }

    /// The file's path in the output: in `feed`'s folder for a format of each feed.
    package func path(for feed: Feed?) -> String {
        guard view == .feed, let feed, !feed.folder.isEmpty else { return fileName }
        return feed.folder + "/" + fileName
    }

    /// The template that writes it, unless JSON's encoder does.
    package var template: String? {
        switch maker {
        case .template(let name): name
        case .jsonFeed: nil
        }
    }

    /// The format whose template is `name`, if any.
    package static func made(byTemplate name: String) -> OutputFormat? { all.first { $0.template == name } }

    /// The format whose files are named `fileName`, if any.
    package static func named(_ fileName: String) -> OutputFormat? { all.first { $0.fileName == fileName } }

    /// "Atom (feed.xml), RSS 2.0 (rss.xml) and JSON Feed (feed.json) for every feed, and
    /// sitemap.xml and llms.txt", for the command's summary and help.
    package static var summary: String {
        list(all.filter { $0.view == .feed }.map { "\($0.name) (\($0.fileName))" }) + " for every feed, and " + list(all.filter { $0.view == .site }.map(\.fileName))
    }

    /// "No Atom, RSS 2.0 or JSON Feed files, sitemap.xml or llms.txt": what a build without a
    /// base URL leaves out.
    package static var withoutBaseURL: String {
        let missing = all.filter(\.needsBaseURL)
        let feeds = list(missing.filter { $0.view == .feed }.map(\.name), "or")
        return "No " + list([feeds + " files"] + missing.filter { $0.view == .site }.map(\.fileName), "or")
    }

    /// `names` as a sentence lists them: "Atom, RSS 2.0 and JSON Feed".
    package static func list(_ names: [String], _ conjunction: String = "and") -> String {
        names.count > 1 ? names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last! : names.joined()
    }
}
