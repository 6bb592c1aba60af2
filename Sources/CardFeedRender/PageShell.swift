import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What every page of the site has around what it shows: the head (`partials/head`: title,
/// description, canonical address and link previews, favicon, stylesheets, feed files, the
/// Content Security Policy), the header with the feeds' navigation (`partials/header`) and the
/// footer (`partials/footer`). A feed's pages (`PageView`) and a card's page (`CardPageView`)
/// each hold one, so that the same partials write both and a card's page looks like the site.
struct PageShell: TemplateModel {
    static let names = ViewNames<Self>("page shell", [
        .text("lang", "The page's language tag.") { $0.settings.strings.locale },
        .flag("rtl", "True for a right-to-left locale.") { $0.settings.direction == .rtl },
        .text("siteTitle", "The site's title.") { $0.settings.siteTitle },
        .text("title", "The page's `<title>`.") { $0.title },
        .text("description", "Its meta description.") { $0.description },
        .text("root", "The site root, relative to the page: `../`, or empty.") { PagePaths.root(of: $0.path) },
        .text("path", "The page's file, from the root.") { $0.path },
        .text("stylesheet", "The first of `stylesheets`.") { $0.settings.stylesheets.first },
        .value("stylesheets", .texts, "The stylesheets every page links, in order.") { $0.settings.pageConstants.stylesheets },
        .text("generator", "CardFeed and its version.") { _ in PageConstants.generator },
        .list("nav", NavItem.self, """
            Every feed of the site, in order, but the empty ones `hide_empty_feeds` leaves out; none is current on a \
            card's page.
            """) { $0.nav },
        .value("strings", .open, "The string table.") { .object($0.settings.stringsView) },
        .value("madeWith", .text, "The footer's line naming CardFeed.") { $0.settings.pageConstants.madeWith },
        .list("alternates", AlternateView.self, """
            The feed's files that `partials/head` links, with a base URL; on a card's page, the front page's.
            """) { $0.alternates },
        .text("csp", "The Content-Security-Policy, when there is one.") { $0.settings.contentSecurityPolicy },
        .view("favicon", FaviconView.self, "The site's icon.") { $0.favicon },
        .text("canonical", "The page's address, with a base URL.") { $0.canonical },
        .view("social", SocialView.self, "The page's Open Graph and Twitter card values, with a base URL.") { $0.social },
        .flag("search", """
            True on a site with [search](search.md): the partials load `assets/cardfeed-search.js` and show its search box.
            """) { $0.settings.search },
        .text("home", """
            The front page of the page's language: `index.html`, or `de/index.html` on a \
            [site in several languages](customising.md#one-site-in-several-languages).
            """) { $0.home },
        .view("languages", LanguagesView.self, "Only on a [site in several languages](customising.md#one-site-in-several-languages).") {
            $0.languages.map(MustacheValue.view)
        },
    ])

    /// The lookup is a switch, as the card view's (see `CardView.value(of:for:)`): every page reads
    /// these names, a card's page too (100,000 of them on a large site). `names` stays the list
    /// of them; `CardViewLookupTests` holds the switch to it.
    static func value(of page: PageShell, for name: MustacheName) -> MustacheValue? {
        switch keys[name] {
        case .lang?: .text(page.settings.strings.locale)
        case .rtl?: .bool(page.settings.direction == .rtl)
        case .siteTitle?: .text(page.settings.siteTitle)
        case .title?: .text(page.title)
        case .description?: .text(page.description)
        case .root?: .text(PagePaths.root(of: page.path))
        case .path?: .text(page.path)
        case .stylesheet?: page.settings.stylesheets.first.map(MustacheValue.text)
        case .stylesheets?: page.settings.pageConstants.stylesheets
        case .generator?: .text(PageConstants.generator)
        case .nav?: page.nav
        case .strings?: .object(page.settings.stringsView)
        case .madeWith?: page.settings.pageConstants.madeWith
        case .alternates?: page.alternates
        case .csp?: page.settings.contentSecurityPolicy.map(MustacheValue.text)
        case .favicon?: page.favicon
        case .canonical?: page.canonical.map(MustacheValue.text)
        case .social?: page.social
        case .search?: .bool(page.settings.search)
        case .home?: .text(page.home)
        case .languages?: page.languages.map(MustacheValue.view)
        case nil: nil
        }
    }

    /// The names, as the switch knows them.
    enum Key: String, CaseIterable {
        case lang, rtl, siteTitle, title, description, root, path, stylesheet, stylesheets, generator, nav, strings, madeWith
        case alternates, csp, favicon, canonical, social, search, home, languages
    }

    /// Made from the declared names, so a name the switch lacks stops every build at once.
    static let keys = MustacheFields<Key>(names.schema.names.map { ($0, Key(rawValue: $0)!) })

    // The values of more than a setting, read by both the switch and `names`.
    private var favicon: MustacheValue { .view(FaviconView(settings.head.favicon)) }
    private var canonical: String? { settings.baseURL.map { $0 + PagePaths.served(path) } }
    private var social: MustacheValue? {
        settings.baseURL.map { .view(SocialView(url: $0 + PagePaths.served(path), preview: preview, siteName: settings.siteTitle)) }
    }
    private var home: String { PagePaths.front(folder: settings.tree) }

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
