import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What every page of the site has around what it shows: the head (`partials/head`: title,
/// description, canonical address and link previews, favicon, stylesheets, feed files, the
/// Content Security Policy), the header with the feeds' navigation (`partials/header`) and the
/// footer (`partials/footer`). A feed's pages (`PageView`) and a card's page (`CardPageView`)
/// each hold one, so that the same partials write both and a card's page looks like the site.
struct PageShell {
    enum Key: String, ViewKey {
        case lang, rtl, siteTitle, title, description, root, path, stylesheet, stylesheets, generator
        case nav, strings, madeWith, alternates, csp, favicon, canonical, social, search, home, languages

        var kind: FieldKind {
            switch self {
            case .lang, .siteTitle, .title, .description, .root, .path, .stylesheet, .generator, .madeWith, .csp, .canonical, .home: .text
            case .stylesheets: .texts
            case .rtl, .search: .flag
            case .nav: .list(NavItem.schema)
            case .strings: .open
            case .alternates: .list(AlternateView.schema)
            case .favicon: .view(FaviconView.schema)
            case .social: .view(SocialView.schema)
            case .languages: .view(LanguagesView.schema)
            }
        }
    }
    static let fields = MustacheFields(Key.self)

    /// What a link to the page shows in a preview (Open Graph, Twitter cards), besides its address.
    struct Preview {
        var title: String
        var description: String
        /// An absolute URL.
        var image: String?
        /// Open Graph's `og:type`.
        var type: String
    }

    let settings: RenderSettings
    /// The page's file, relative to the root.
    let path: String
    /// The page's `<title>`.
    let title: String
    /// Its meta description.
    let description: String
    /// `.objects` of the feeds' `NavItem`s, made once for all the pages that show them.
    let nav: MustacheValue
    /// `.objects` of `AlternateView`s: the feed files the page links (none without a base URL).
    let alternates: MustacheValue
    let preview: Preview
    /// On a site in several languages, the page in the others (`LanguageLinks`); nil otherwise.
    var languages: LanguagesView? = nil

    func value(for key: Key) -> MustacheValue? {
        switch key {
        case .lang: .text(settings.strings.locale)
        case .rtl: .bool(settings.direction == .rtl)
        case .siteTitle: .text(settings.siteTitle)
        case .title: .text(title)
        case .description: .text(description)
        case .root: .text(PagePaths.root(of: path))
        case .path: .text(path)
        case .stylesheet: settings.stylesheets.first.mustache
        case .stylesheets: settings.pageConstants.stylesheets
        case .generator: .text(PageConstants.generator)
        case .nav: nav
        case .strings: .object(settings.stringsView)
        case .madeWith: settings.pageConstants.madeWith
        case .alternates: alternates
        case .csp: settings.contentSecurityPolicy.mustache
        case .favicon: .object(FaviconView(settings.head.favicon))
        case .canonical: settings.baseURL.map { .text($0 + PagePaths.served(path)) }
        case .social:
            settings.baseURL.map { baseURL in
                .object(SocialView(
                    url: baseURL + PagePaths.served(path), title: preview.title, description: preview.description, image: preview.image,
                    siteName: settings.siteTitle, type: preview.type))
            }
        case .search: .bool(settings.search)
        case .home: .text(PagePaths.front(folder: settings.tree))
        case .languages: languages.map { .object($0) }
        }
    }
}

/// What every page shows the same, worked out once a build rather than on each of thousands
/// of pages.
struct PageConstants: Sendable {
    static let generator = "CardFeed \(CardFeedVersion.current)"
    let stylesheets: MustacheValue
    let madeWith: MustacheValue

    init(strings: StringTable, stylesheets: [String]) {
        self.stylesheets = .list(stylesheets.map(MustacheValue.text))
        madeWith = .text(strings.format("madeWith", ["generator": Self.generator]))
    }
}
