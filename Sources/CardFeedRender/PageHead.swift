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
struct SocialView: TemplateModel {
    let url: String
    /// The page's title, description, picture and `og:type` ("website" for a feed's pages,
    /// "article" for a card's), as the page's shell has them.
    let preview: PageShell.Preview
    let siteName: String

    static let names = ViewNames<Self>("social", [
        .text("url", "The page's address.") { $0.url },
        .text("title", "Its title.") { $0.preview.title },
        .text("description", "Its description.") { $0.preview.description },
        .text("image", "Its link preview picture, absolute.") { $0.preview.image },
        .text("siteName", "The site's title.") { $0.siteName },
        .text("type", "`og:type`: `website`, or `article` on a card's page.") { $0.preview.type },
        // A large picture when there is one to show.
        .text("twitterCard", "`summary_large_image` with a picture, else `summary`.") { $0.preview.image == nil ? "summary" : "summary_large_image" },
    ])
}

/// `{{favicon.href}}`, `{{favicon.type}}`.
struct FaviconView: TemplateModel {
    let favicon: PageHead.Favicon

    init(_ favicon: PageHead.Favicon) { self.favicon = favicon }

    static let names = ViewNames<Self>("favicon", [
        .text("href", "The icon's path from the site root.") { $0.favicon.href },
        .text("type", "Its media type.") { $0.favicon.type },
    ])
}
