import CardFeedMustache
import Foundation
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedWrite

/// The files of cardfeed.yml's `placements:`, under `OUTPUT/embed/`: for each placement an HTML
/// fragment (`NAME.html`), the same cards as JSON for the web component (`NAME.json`) and a page
/// for an `<iframe>` (`NAME/index.html`); and once, the component's script and the stylesheet all
/// three use. Each form is the `placement` template's output over the placement's cards, which
/// their card templates render as everywhere else, with every class and id prefixed
/// (`EmbedHTML`). A site without placements has none of these files, nor the folder.
///
/// On a site in several languages each language's tree has its own `embed/` (`de/embed/…`), made
/// the same way from its cards, in its words: a host chooses the language by the address it
/// loads, and each tree's folder holds everything its placements need.
package struct PlacementFiles {
    static let template = "placement"
    static let frameTemplate = "placement_frame"

    /// The placements' folder of the language tree whose folder is `tree` ("" for the root's):
    /// "embed", "de/embed".
    package static func folder(tree: String = "") -> String { tree.isEmpty ? PagePaths.placementsFolder : tree + "/" + PagePaths.placementsFolder }

    /// The stylesheet every form of the tree's placements uses.
    package static func stylesheet(tree: String = "") -> String { folder(tree: tree) + "/cardfeed-embed.css" }

    /// The web component's and the frame page's script.
    package static func script(tree: String = "") -> String { folder(tree: tree) + "/cardfeed-embed.js" }

    /// The files of `name` in the tree whose folder is `tree`: the fragment, the JSON and the frame page.
    package static func paths(of name: String, tree: String = "") -> [String] {
        let folder = folder(tree: tree)
        return ["\(folder)/\(name).html", "\(folder)/\(name).json", "\(folder)/\(name)/index.html"]
    }

    /// The frame pages among `files`, a language tree's (`tree` not ""), that load the root's
    /// stylesheet or script (`"embed/cardfeed-embed.css"`) rather than their tree's: what a
    /// site's own `placement_frame` from before `embed` was a name writes. They then get another
    /// language's cards' rules, or nothing where the default language has a folder (no root
    /// `embed/`).
    package static func framesLoadingTheRootsFiles(_ files: [OutputFile], tree: String) -> [String] {
        guard !tree.isEmpty else { return [] }
        let folder = folder(tree: tree) + "/"
        let roots = [stylesheet(), script()].map { "\"\($0)\"" }
        return files.compactMap { file in
            guard file.path.hasPrefix(folder), file.path.hasSuffix("/index.html"), case .text(let page) = file.content,
                  roots.contains(where: page.contains) else { return nil }
            return file.path
        }
    }

    let renderer: SiteRenderer

    package init(renderer: SiteRenderer) {
        self.renderer = renderer
    }

    /// Every placement's files, then the script and the stylesheet, made of `stylesheets` (the
    /// site's cardfeed.css and theme.css, those it has, in their order) and the colours of the
    /// placements' cards; `warnings` gets one for each rule of theirs that could not be held
    /// inside a placement (`EmbedStylesheet`).
    package func files(_ selection: Selection, stylesheets: [EmbedStylesheet.Source], warnings: inout [Diagnostic]) throws(TemplateFailure) -> [OutputFile] {
        let settings = renderer.settings
        let places = settings.cardPages ? nil : CardPlaces(selection, cardPages: false)
        var scratch = MustacheBytes(capacity: 16384)
        var files: [OutputFile] = []
        var fragments: [String] = []
        for placed in selection.placements {
            var cards: [PlacementCardView] = []
            for position in placed.cards {
                let card = selection.cards[position]
                let anchor = selection.cards.anchor(at: position)
                let permalink = places?.permalink(position: position, anchor: anchor) ?? PagePaths.cardPage(anchor: anchor, tree: settings.tree)
                let html = try renderer.renderCard(card, description: descriptionHTML(card), anchor: anchor, permalink: permalink, using: &scratch)
                cards.append(PlacementCardView(card: String(decoding: html, as: UTF8.self), id: card.id))
            }
            let feed = settings.feeds.first { $0.slug == placed.placement.feed } ?? Feed(slug: placed.placement.feed, folder: placed.placement.feed)
            let view = PlacementView(placement: placed.placement, feedTitle: settings.strings.feedTitle(feed), cards: cards, settings: settings)
            var out = MustacheBytes(capacity: 16384)
            try renderer.templates.render(Self.template, view, onto: &out)
            // Addresses relative to the site's root, as on its pages.
            let html = EmbedHTML.prefixed(out.string, placement: placed.placement.name)
            fragments.append(html)
            let paths = Self.paths(of: placed.placement.name, tree: settings.tree)
            let fragment = settings.baseURL.map { EmbedHTML.absolute(html, baseURL: $0) } ?? html
            files.append(OutputFile(path: paths[0], content: .text(fragment)))
            files.append(OutputFile(path: paths[1], content: .data(json(placed.placement, ids: cards.map(\.id), html: html, settings: settings))))
            var page = MustacheBytes(capacity: 16384)
            let frame = PlacementFrameView(view, html: out.string, root: PagePaths.root(of: paths[2]), embed: Self.folder(tree: settings.tree) + "/")
            try renderer.templates.render(Self.frameTemplate, frame, onto: &page)
            // The page prefixed as a whole, the placement in it with it.
            files.append(OutputFile(path: paths[2], content: .text(EmbedHTML.prefixed(page.string, placement: placed.placement.name))))
        }
        let builtinCSS = BuiltinFiles.embedFile("cardfeed-embed.css").map { String(decoding: $0, as: UTF8.self) } ?? ""
        // The script minified (scripts/minify-embed.sh): embed/cardfeed-embed.js is its source.
        files.append(OutputFile(path: Self.script(tree: settings.tree), content: .data(BuiltinFiles.embedFile("cardfeed-embed.min.js") ?? Data())))
        let stylesheet = EmbedStylesheet.make(builtin: builtinCSS, sources: stylesheets, cardStyles: GeneratedStyles.placementCards(selection), html: fragments)
        warnings += stylesheet.warnings
        files.append(OutputFile(path: Self.stylesheet(tree: settings.tree), content: .text(stylesheet.css)))
        return files
    }

    /// The description as the card's pages show it.
    private func descriptionHTML(_ card: Card) -> String? {
        let links = renderer.settings.links
        return card.description.map { description in
            card.descriptionFormat == .text
                ? PlainText.html(description)
                : Markdown.html(description, linkSchemes: links.linkSchemes, opensInNewTab: links.newTab.isEmpty ? nil : { links.opensInNewTab($0) })
        }
    }

    /// `NAME.json`: what the web component shows. `html` is the placement's HTML with its
    /// addresses relative to the site's root; the JSON's are relative to the folder above its
    /// `embed/` (the root, or a language's tree: `de/`), which the component resolves them
    /// against from the JSON's own address, so the same file works wherever the site is.
    /// A language's tree names the placeholder of a broken image, which is the root's: the
    /// component finds it in the folder above `embed/` where the JSON says nothing.
    private func json(_ placement: Placement, ids: [String], html: String, settings: RenderSettings) -> Data {
        var object: [String: Any] = [
            "name": placement.name,
            "feed": placement.feed,
            "limit": placement.limit,
            "lang": settings.strings.locale,
            "dismiss": settings.strings["dismiss"],
            "cards": ids.map { ["id": $0] },
            "html": EmbedHTML.relative(html, toTree: settings.tree),
        ]
        if !settings.tree.isEmpty {
            object["placeholder"] = EmbedHTML.relative(address: settings.builtinImages.placeholder.src, toTree: settings.tree)
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }
}
