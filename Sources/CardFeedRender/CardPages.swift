import CardFeedMustache
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem
import CardFeedWrite

/// Every shown card's own page, `cards/<anchor>.html`: the `card_page` template around the card's
/// HTML as its feeds show it, with the ways back to it in each feed, and a title, description
/// and link preview of its own. Each page is made and written on the rendering thread as soon as
/// its card is rendered (see `SiteRenderer.renderCards`): a page a card is as many files as
/// cards, and both cores create them.
///
/// With search, each page also has a search document, the `search_document` template over the
/// same view, written at the page's path into a target of its own that is not published: what
/// Pagefind reads in the page's place. It holds only what Pagefind reads of the page, and
/// Pagefind takes a fifth less time over it than over the whole page (docs/performance.md).
struct CardPages: Sendable {
    private let templates: TemplateSet
    private let settings: RenderSettings
    private let places: CardPlaces
    private let target: any OutputTarget
    private let searchDocuments: (any OutputTarget)?
    /// What every card page shows the same, made once: the navigation (no feed is current) and
    /// the front page's feed files.
    private let nav: MustacheValue
    private let alternates: MustacheValue
    /// By feed: its slug and title.
    private let feeds: [(slug: String, title: String)]
    /// With a cache: each card page's key, by display position (see `RenderKeys`).
    private let keys: [(path: String, key: Int)]?
    /// With a cache, by display position: whether the target holds the card's page as made from
    /// its key already, and the search documents' target its search document (`OutputTarget.holds`),
    /// asked once for every card before any renders (see `makesPage(position:)`).
    private let held: [(page: Bool, searchDocument: Bool)]?
    /// The language tree's folder, whose `cards/` holds the pages.
    private let tree: String
    /// On a site in several languages, the pages of the card's translations (`LanguageLinks`).
    private let languages: (links: LanguageLinks, tree: Int)?

    /// Card pages for `selection`'s cards, written into `target`, and their search documents
    /// into `searchDocuments`, which are given their folder.
    init(_ renderer: SiteRenderer, _ selection: Selection, places: CardPlaces, keys: RenderKeys?, into target: any OutputTarget, searchDocuments: (any OutputTarget)?) throws {
        templates = renderer.templates
        settings = renderer.settings
        self.places = places
        self.target = target
        self.searchDocuments = searchDocuments
        nav = .views(renderer.navItems(selection, current: nil))
        alternates = renderer.alternates(selection.feeds.first?.feed)
        let strings = renderer.settings.strings
        feeds = selection.feeds.map { ($0.feed.slug, strings.feedTitle($0.feed)) }
        self.keys = keys?.cardPages
        tree = selection.tree
        languages = renderer.languages
        if !selection.cards.isEmpty {
            // The tree's folder and its cards/ (a tree's feeds have made the first already).
            let folders = PagePaths.folders(containing: [PagePaths.cardPage(anchor: "card", tree: tree)])
            try target.createFolders(folders)
            try searchDocuments?.createFolders(folders)
        }
        // Asked once the folders are made: a target compares (and holds) a page only in a folder it has made.
        held = keys.map(\.cardPages).map { keys in
            return Parallel.map(count: keys.count, chunk: 512) { [target, searchDocuments] position in
                let (path, key) = keys[position]
                // Each target is asked, so that each remembers the key.
                return (page: target.holds(path, madeFrom: key), searchDocument: searchDocuments?.holds(path, madeFrom: key) ?? true)
            }
        }
    }

    /// Whether the card at display position `position` gets its page or its search document
    /// made: without a cache, always; with one, when a target does not hold it already.
    func makesPage(position: Int) -> Bool {
        held.map { !$0[position].page || !$0[position].searchDocument } ?? true
    }

    /// Makes and writes the page of the card at display position `position`, and its search
    /// document, from what it rendered as (`RenderedCard`); an output that holds a file as made
    /// from the same (serve's) keeps it. `scratch` is memory to render in, reused from card to card.
    func write(_ card: Card, position: Int, anchor: String, rendered: RenderedCard, using scratch: inout MustacheBytes) throws {
        let path = keys?[position].path ?? PagePaths.cardPage(anchor: anchor, tree: tree)
        var made: [(target: any OutputTarget, searchDocument: Bool)] = []
        if held?[position].page != true { made.append((target, false)) }
        if let searchDocuments, held?[position].searchDocument != true { made.append((searchDocuments, true)) }
        if made.isEmpty { return }
        let view = TemplateObject(view(card, path: path, rendered: rendered, feeds: placeViews(position: position, anchor: anchor)))
        for (target, searchDocument) in made {
            scratch.removeAll()
            try templates.render(view, card: card, searchDocument: searchDocument, onto: &scratch)
            if searchDocument, languages != nil { try checkLanguage(ofSearchDocument: scratch, for: path) }
            do {
                let bytes = scratch.array
                let sink = try target.open(path)
                try sink.write(bytes)
                try target.close(sink, path: path)
            } catch let error as OutputError {
                // Named by its path in the output, as the writer's errors are, rather than in the
                // folder being built.
                throw OutputError(path: path, code: error.code)
            }
        }
    }

    /// On a site in several languages Pagefind puts each search document in the index of its
    /// `<html lang>`, and each tree's box searches its pages' language: a document in another
    /// (a site's own `search_document` without `lang="{{lang}}"`) would be found by no box, or
    /// answer that language's searches. Found here, `check` says so too, as the build does.
    private func checkLanguage(ofSearchDocument document: borrowing MustacheBytes, for path: String) throws(TemplateFailure) {
        let expected = settings.strings.locale
        let found = Self.htmlLanguage(String(decoding: document.array.prefix(1024), as: UTF8.self))
        guard found?.lowercased() != expected.lowercased() else { return }
        throw TemplateFailure(
            card: nil, message: "the search document of \(path) is in \(found.map(Diagnostic.quoted) ?? "no language") (its <html lang>), where its language's pages are in \(Diagnostic.quoted(expected)); keep <html lang=\"{{lang}}\">, which puts each card in the index of its language's search box",
            templateFile: templates.searchDocumentFile)
    }

    /// The `lang` of the `<html>` tag that begins `text`, if it has one.
    static func htmlLanguage(_ text: String) -> String? {
        guard let start = text.range(of: "<html", options: .caseInsensitive), let end = text[start.upperBound...].firstIndex(of: ">") else { return nil }
        var tag = text[start.upperBound..<end]
        while let found = tag.range(of: "lang", options: .caseInsensitive) {
            let before = tag[..<found.lowerBound].last
            tag = tag[found.upperBound...].drop { $0 == " " }
            guard before?.isWhitespace == true, tag.first == "=" else { continue }
            tag = tag.dropFirst().drop { $0 == " " }
            if let quote = tag.first, quote == "\"" || quote == "'" {
                return String(tag.dropFirst().prefix { $0 != quote })
            }
            return String(tag.prefix { !$0.isWhitespace && $0 != ">" })
        }
        return nil
    }

    /// `feeds`: the card's places in its feeds (`placeViews`).
    private func view(_ card: Card, path: String, rendered: RenderedCard, feeds: [CardPlaceView]) -> CardPageView {
        let heading = CardText.title(of: card, words: rendered.words)
        let title = "\(heading) · \(settings.siteTitle)"
        // The card's words, else cardfeed.yml's description, else its heading.
        let description = rendered.words.flatMap { $0.isEmpty ? nil : CardText.shortened($0, to: Self.descriptionLimit) } ?? settings.head.description ?? heading
        // Its own picture in a link preview, else the site's.
        let image = settings.baseURL.flatMap { settings.images.ownImage(card, baseURL: $0)?.src } ?? settings.head.image
        let shell = TemplateObject(PageShell(
            settings: settings, path: path, title: title, description: description, nav: nav, alternates: alternates,
            preview: PageShell.Preview(title: heading, description: description, image: image, type: "article"),
            languages: languages.map { $0.links.cardPage(tree: $0.tree, id: card.id) }))
        return CardPageView(shell: shell, card: String(decoding: rendered.html, as: UTF8.self), heading: heading, feeds: feeds, shown: card)
    }

    /// The characters of a card's words its page's description keeps: about what a search
    /// engine shows of a description.
    static let descriptionLimit = 160

    private func placeViews(position: Int, anchor: String) -> [CardPlaceView] {
        places.places(of: position).map { place in
            CardPlaceView(slug: feeds[place.feed].slug, title: feeds[place.feed].title, href: places.href(feed: place.feed, page: place.page, anchor: anchor))
        }
    }
}
