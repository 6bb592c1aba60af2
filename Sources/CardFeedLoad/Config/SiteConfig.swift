import CardFeedModel
/// The settings of `SITE/cardfeed.yml`, with the command line's applied (`SettingOverrides`).
/// Every field has a default, so a site needs no file.
public struct SiteConfig: Sendable {
    public var title = "CardFeed"
    /// The pages' meta description and link previews' text.
    public var description: String?
    /// The picture of link previews (Open Graph, Twitter cards): a path under SITE/assets/ or
    /// an http(s) URL.
    public var image: String?
    /// The address the site is published at, e.g. "https://example.com/news/", ending in "/".
    public var baseURL: String?
    /// Cards a page, on average (see `PageEnds`); 0 puts each feed on one page.
    public var pageSize = SiteConfig.defaultPageSize
    /// The language of the pages: the only one, or with `languages:` the default's.
    public var locale = StringTable.defaultLocale
    /// `languages:`: a tree of pages per language; nil for a site in one language (`locale`).
    public var languages: SiteLanguages?
    /// The build's time in Unix seconds (`--now`, else the time the file was read): cards that
    /// expire at or before it are hidden, cards created after it are future cards.
    public var now: Int64 = 0
    /// Warnings count as errors (`--strict`).
    public var strict = false
    /// The clocks of the dates pages show, and of a card's time written without an offset.
    public var timeZone = SiteTimeZone.utc
    /// What a card dated after the build's time (`--now`) does.
    public var future = FutureCards.show
    /// How cards' titles and descriptions are shown, unless a card's extras say otherwise.
    public var descriptions = DescriptionFormat.markdown
    public var theme = Theme()
    public var rules: [CardRule] = []
    public var links = LinkPolicy()
    /// The Content Security Policy the pages carry as a `<meta>` tag: `csp: true` for the
    /// built-in policy, or the policy's text; nil for none.
    public var contentSecurityPolicy: String?
    /// The feeds `feeds:` defines, in order; nil for the built-in ones (`Feed.builtin`).
    public var feeds: [ConfiguredFeed]?
    /// Feeds without cards are left out of the navigation (their pages are still written).
    public var hideEmptyFeeds = false
    /// Each shown card has a page of its own (`cards/<anchor>.html`), which its permalink, the
    /// feed files and the sitemap name.
    public var cardPages = true
    /// `search: true`: the pages get a search box over an index of every shown card's own page,
    /// made by Pagefind; nil without it.
    public var search: SearchSetting?
    /// `placements:`: the slots of other sites' pages that show the site's cards, in the file's
    /// order (`embed/`); nil without the key, and then no `embed/` folder is written.
    public var placements: [Placement]?
    /// `cache_dir:` or `--cache-dir`: where the build cache is kept; nil for the default,
    /// `SITE/.cardfeed-cache` (`defaultCacheDir`).
    public var cacheDir: CacheDirSetting?
    /// `--no-cache`: the build neither reads a cache nor keeps one.
    public var noCache = false

    /// Where each setting given in the file or on the command line came from, by `Setting.name`.
    public var sources: [String: SettingSource] = [:]

    public init() {}

    /// Where the value of `setting` the build uses came from.
    public func source(of setting: Setting) -> SettingSource { sources[setting.name] ?? .fallback }

    public static let defaultPageSize = 20
    /// The build cache's folder when nothing else is given, in the site folder (hidden, beside
    /// cards/, and in the `.gitignore` that `init` writes).
    public static let defaultCacheDir = ".cardfeed-cache"

    /// The site's feeds, as the build shows them.
    public var siteFeeds: [Feed] { feeds?.map(\.feed) ?? Feed.builtin }

    public static let fileName = "cardfeed.yml"
}

/// A feed as cardfeed.yml defines it, with where: its warnings point at it.
public struct ConfiguredFeed: Sendable {
    public var feed: Feed
    public var file: String
    public var line: Int?
    public var column: Int?

    /// For reports: "cardfeed.yml:12:5".
    public var location: String { [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":") }
}

/// `search: true` in cardfeed.yml or `--search`, and where it stands: an error about search
/// (Pagefind not found) points at it.
public struct SearchSetting: Sendable {
    public var fromCommandLine = false
    public var line: Int?
    public var column: Int?

    public init(fromCommandLine: Bool = false, line: Int? = nil, column: Int? = nil) {
        self.fromCommandLine = fromCommandLine
        self.line = line
        self.column = column
    }
}

/// `cache_dir:` in cardfeed.yml (relative to the site folder) or `--cache-dir` (relative to the
/// working folder), as written, and where: an error about the folder points at it.
public struct CacheDirSetting: Sendable, Equatable {
    public var path: String
    public var fromCommandLine = false
    public var line: Int?
    public var column: Int?

    public init(path: String, fromCommandLine: Bool = false, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.fromCommandLine = fromCommandLine
        self.line = line
        self.column = column
    }
}

/// What a card whose `created` is after the build's time does: Hugo's `buildFuture`, turned
/// round so that a site that sets nothing shows every card, as Braze's feeds do.
public enum FutureCards: String, Sendable, CaseIterable {
    /// Shown, where its date sorts it (at the top), with a warning naming it.
    case show
    /// Not shown until a build at or after its date.
    case hide
}

/// The Content Security Policy that `csp: true` and `--csp` put in every page.
public enum ContentSecurityPolicy {
    /// Everything the pages load comes from the site itself, except card images, which are
    /// remote http(s) URLs (or `data:` images in Markdown). No inline script or style exists in
    /// the pages, so none is allowed; plugins, a foreign `<base>` and foreign form targets neither.
    public static let builtin = "default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"
    /// The built-in policy of a site with search: Pagefind's search runs in WebAssembly, which
    /// a page may compile only with 'wasm-unsafe-eval' (it allows no `eval` of text); its script,
    /// index and worker are files of the site, which 'self' already allows.
    public static let builtinWithSearch = "default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'; form-action 'self'"
}

/// CSS custom properties set by `theme:` in cardfeed.yml, for the light and the dark scheme.
public struct Theme: Sendable, Equatable {
    /// Sorted by name.
    public var light: [CSSProperty] = []
    public var dark: [CSSProperty] = []

    public var isEmpty: Bool { light.isEmpty && dark.isEmpty }

    public init() {}
}

/// What a click on a card's link does: which hosts open in a new tab, which app schemes are
/// allowed as deep links.
public struct LinkPolicy: Sendable, Hashable, Decodable {
    /// Host patterns ("partner.example", "*.example.com", or "*" for every web link).
    public var newTab: [String] = []
    /// Lower-cased schemes allowed besides http, https, mailto and tel ("myapp").
    public var appSchemes: [String] = []

    public init() {}

    public var linkSchemes: Set<String> { URLCheck.linkSchemes.union(appSchemes) }

    /// True when a link to `url` should open in a new tab: the host a browser reaches through it
    /// (a scheme-relative `//host/x` included, however many slashes or backslashes it is written
    /// with) matches one of the patterns.
    public func opensInNewTab(_ url: String) -> Bool {
        guard !newTab.isEmpty, case .success(let url) = URLCheck.read(url), let host = url.webHost?.lowercased() else { return false }
        // Browsers decode a host's percent-escapes: "//evil%2Eexample" reaches evil.example.
        let decoded = host.removingPercentEncoding ?? host
        let bareHost = decoded.split(separator: ":").first.map(String.init) ?? decoded
        return newTab.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern == "*" { return true }
            if pattern.hasPrefix("*.") { return bareHost.hasSuffix(pattern.dropFirst(1)) || bareHost == pattern.dropFirst(2) }
            return bareHost == pattern
        }
    }
}
