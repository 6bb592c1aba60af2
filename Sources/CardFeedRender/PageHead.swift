import CardFeedMustache
import CardFeedLoad
import CardFeedModel

/// What a page's `<head>` tells browsers and link previews besides its title: the favicon,
/// the description, and with a base URL the canonical address and the Open Graph and Twitter
/// card tags, which need absolute URLs. A setting (see `RenderSettings.Values`).
package struct PageHead: Sendable, Hashable, Decodable {
    /// A favicon's path from the site root and its MIME type.
    struct Favicon: Sendable, Hashable, Decodable {
        var href: String
        var type: String
    }

    var favicon = Favicon(href: "assets/favicon.svg", type: "image/svg+xml")
    /// cardfeed.yml's `description`; without one, each page describes itself (see `PageView`).
    var description: String?
    /// cardfeed.yml's `image`, absolute (needs the base URL for a path under assets/).
    var image: String?

    static let builtinFavicon = "favicon.svg"

    init() {}

    /// `assets` lists the output's asset files, `siteAssets` those the site brought: a site's
    /// own `favicon.svg` replaces the built-in one, as a same-named file does; a `favicon.png`
    /// or `favicon.ico` of the site's is used instead of the built-in SVG.
    package init(config: SiteConfig, baseURL: String?, assets: Set<String>, siteAssets: Set<String>) {
        if !siteAssets.contains(Self.builtinFavicon) {
            if siteAssets.contains("favicon.png") {
                favicon = Favicon(href: "assets/favicon.png", type: "image/png")
            } else if siteAssets.contains("favicon.ico") {
                favicon = Favicon(href: "assets/favicon.ico", type: "image/x-icon")
            }
        }
        description = config.description
        if let image = config.image {
            if URLCheck.scheme(of: image) != nil {
                self.image = image
            } else if let baseURL {
                self.image = baseURL + "assets/" + Formatting.attributeURL(image)
            }
        }
    }
}

/// `{{#social}}`: the page's Open Graph and Twitter card values, on sites with a base URL.
final class SocialView: MustacheObject {
    let url: String
    let title: String
    let description: String
    let image: String?
    let siteName: String
    /// `og:type`: "website" for a feed's pages, "article" for a card's.
    let type: String

    init(url: String, title: String, description: String, image: String?, siteName: String, type: String) {
        self.url = url
        self.title = title
        self.description = description
        self.image = image
        self.siteName = siteName
        self.type = type
    }

    enum Key: String, ViewKey {
        case url, title, description, image, siteName, type, twitterCard

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("social", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .url: .text(url)
        case .title: .text(title)
        case .description: .text(description)
        case .image: image.mustache
        case .siteName: .text(siteName)
        case .type: .text(type)
        // A large picture when there is one to show.
        case .twitterCard: .text(image == nil ? "summary" : "summary_large_image")
        case nil: nil
        }
    }
}

/// `{{favicon.href}}`, `{{favicon.type}}`.
final class FaviconView: MustacheObject {
    let href: String
    let type: String

    init(_ favicon: PageHead.Favicon) {
        href = favicon.href
        type = favicon.type
    }

    enum Key: String, ViewKey {
        case href, type

        var kind: FieldKind { .text }
    }
    static let schema = ViewSchema("favicon", Key.self)
    static let fields = MustacheFields(Key.self)

    func value(for name: MustacheName) -> MustacheValue? {
        switch Self.fields[name] {
        case .href: .text(href)
        case .type: .text(type)
        case nil: nil
        }
    }
}
