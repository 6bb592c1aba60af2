import CardFeedModel
import CardFeedRender
import CardFeedSelect
import CardFeedWrite

/// One kind of output the render step makes (`SiteBuilder.producers`): once for each language's
/// tree, over its selection, or once for the site after every tree. A new kind of output is one
/// entry of the list.
struct RenderProducer: Sendable {
    enum Scope: Sendable {
        /// For each tree in turn, the default language's first; the producers of a tree run in
        /// the list's order, and each may read what those before it left (`TreeRendering`).
        case eachTree(@Sendable (SiteBuilder, inout TreeRendering) throws -> [OutputFile])
        /// Once, after every tree.
        case site(@Sendable (SiteBuilder, SiteRendering) throws -> [OutputFile])
    }

    /// What it makes, for the reader of the list.
    let name: String
    /// Its files are feeds or the sitemap, counted as such in the step's line.
    var syndication = false
    let scope: Scope
}

/// One tree as the render step goes through it: what its producers read, and what one leaves
/// for those after it.
struct TreeRendering {
    var selection: Selection
    var renderer: SiteRenderer
    /// With a cache, the tree's keys (`SiteRenderer.renderKeys`).
    var keys: RenderKeys?
    var settings: RenderSettings
    var setup: SiteBuilder.Setup
    var assets: [SiteBuilder.Asset]
    var output: any OutputTarget
    var searchDocuments: (any OutputTarget)?
    /// Left by the pages: the descriptions of the cards the feed files show.
    var descriptions: [String?] = []
    /// Left by the placements: those of their frame pages that load the root tree's files.
    var framesLoadingTheRootsFiles: [String] = []
    /// Left by the placements: a warning for each rule of the site's stylesheets that could not
    /// be held inside a placement.
    var stylesheetWarnings: [Diagnostic] = []
}

/// The whole site, for the producers that run once.
struct SiteRendering {
    var selections: [Selection]
    /// The default language's tree's.
    var settings: RenderSettings
    /// Every tree's, the default language's first.
    var trees: [RenderSettings]
    var setup: SiteBuilder.Setup
    var languages: LanguageLinks?
}

extension SiteBuilder {
    /// What the render step makes, in order.
    static let producers: [RenderProducer] = [
        // Feed pages, card pages and the cards' search documents, streamed together into the
        // output as each batch of cards renders, so each card is rendered once.
        RenderProducer(name: "pages", scope: .eachTree { builder, tree in
            let feedCards = tree.setup.config.baseURL == nil ? [] : Set(tree.selection.feeds.flatMap { feed in feed.front.cards.map { feed.cards[$0] } })
            tree.descriptions = try tree.renderer.renderPages(
                tree.selection, into: tree.output, searchDocuments: tree.searchDocuments, keepDescriptions: feedCards, reusing: builder.reuse?.cards, keys: tree.keys)
            return []
        }),
        RenderProducer(name: "placements", scope: .eachTree { builder, tree in
            guard tree.setup.config.placements != nil else { return [] }
            let made = try PlacementFiles(renderer: tree.renderer).files(tree.selection, stylesheets: builder.cardStylesheets(tree.assets), warnings: &tree.stylesheetWarnings)
            tree.framesLoadingTheRootsFiles += PlacementFiles.framesLoadingTheRootsFiles(made, tree: tree.selection.tree)
            return made
        }),
        RenderProducer(name: "each feed's files (Atom, JSON Feed, RSS)", syndication: true, scope: .eachTree { _, tree in
            guard let baseURL = tree.setup.config.baseURL else { return [] }
            return try Syndication(baseURL: baseURL, settings: tree.settings, templates: tree.setup.templates).files(tree.selection, descriptions: tree.descriptions)
        }),
        RenderProducer(name: "the site's files (the sitemap, llms.txt)", syndication: true, scope: .site { _, site in
            guard let baseURL = site.setup.config.baseURL else { return [] }
            return try Syndication(baseURL: baseURL, settings: site.settings, templates: site.setup.templates).siteFiles(site.selections, trees: site.trees, languages: site.languages)
        }),
    ]
}
