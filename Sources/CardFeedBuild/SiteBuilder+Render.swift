import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem
import CardFeedRender
import CardFeedWrite

/// The render step: every card rendered once into the pages that show it, and the files that are not pages.
extension SiteBuilder {
    /// A folder's output transaction, opened on a thread of its own: at 117,000 pages, reading
    /// the output's hidden files and, with a cache, the stamp of every page the last build left
    /// there take a fifth of a second, which the rules, checks and selection leave a core free
    /// for. Only for an output folder that is there and passes its checks (see `checkpoint`):
    /// nil otherwise, or for another destination (then the render step opens it, if the build
    /// gets there).
    func openingOutput() -> Background<Result<OutputTransaction, SiteWriter.Refusal>>? {
        var isFolder: ObjCBool = false
        guard case .folder(let folder) = destination, FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
              isFolder.boolValue, check(outputFolder: folder).isEmpty else { return nil }
        return Background { [self] in Result { () throws(SiteWriter.Refusal) in try transaction(into: folder) } }
    }

    /// The output transaction into `folder`, with what the cache knows of its pages and twin.
    private func transaction(into folder: URL) throws(SiteWriter.Refusal) -> OutputTransaction {
        try OutputTransaction(output: folder, staticFolder: options.site.staticFolder, previous: cache?.pages(of: folder), twin: twin)
    }

    /// The destination's output, which the render step streams the pages into and the write
    /// step commits (a folder's as `openingOutput` opened it).
    func openOutput(_ opening: Background<Result<OutputTransaction, SiteWriter.Refusal>>?, _ report: inout BuildReport) throws(BuildFailure) -> any OutputTarget {
        switch destination {
        case .folder(let folder):
            do throws(SiteWriter.Refusal) {
                if let opening { return try opening.value.get() }
                return try transaction(into: folder)
            } catch {
                throw fail(&report, Diagnostic(.error, file: SiteFolder.display(folder), message: error.description))
            }
        case .inPlace(let output, _): return output
        case .memory(let output): return output
        case .discarded: return DiscardedOutput()
        }
    }

    /// A file of the site's assets: built in unless the site has its own, or generated.
    typealias Asset = (path: String, fromSite: Bool, file: OutputFile)

    /// What the render step works out before it needs the output: the site's assets, each
    /// language tree's settings and renderer, and with a cache each tree's keys. Worked out while
    /// the output may still be opening (`openingOutput`): at 100,000 cards the keys take a tenth
    /// of a second of both cores, and the opening outlasted the rules and the selection by half
    /// that.
    struct RenderPlan {
        var selections: [Selection]
        var cardCount: Int
        var search: Bool
        var assets: [Asset]
        var settings: [RenderSettings]
        var languages: LanguageLinks?
        var renderers: [SiteRenderer]
        var keys: [RenderKeys?]
    }

    func renderPlan(_ selections: [Selection], _ setup: Setup) -> RenderPlan {
        let cardCount = selections.reduce(0) { $0 + $1.cards.count }
        // A site with no card to show has nothing to search: no index, and no search box; nor
        // has a language's tree without cards (see `SearchIndex.trees`).
        let search = setup.pagefind != nil && cardCount > 0
        let assets = siteAssets(selections, setup, search: search)
        // Each language's tree renders as a site in one language does, with its strings and folder.
        let settings = zip(setup.trees, selections).map { tree, selection in
            renderSettings(setup, assets, search: search && !selection.cards.isEmpty, tree: tree.tree, strings: tree.strings)
        }
        let languages = languageLinks(selections, setup)
        let renderers = settings.indices.map { index in
            var renderer = SiteRenderer(templates: setup.templates, settings: settings[index])
            renderer.batchSize = options.renderBatchSize
            renderer.languages = languages.map { ($0, index) }
            return renderer
        }
        // With a cache, each tree's keys, before any renders: the search index's parts are keyed by its card pages'.
        let keys = renderers.indices.map { reuse?.cards == nil ? nil : renderers[$0].renderKeys(selections[$0]) }
        return RenderPlan(
            selections: selections, cardCount: cardCount, search: search, assets: assets, settings: settings, languages: languages, renderers: renderers, keys: keys)
    }

    /// Step 3: every card rendered once, into every page that shows it as the pages stream into
    /// `output`; the feed files, assets and `static/` as files for the write step.
    func render(_ plan: RenderPlan, _ setup: Setup, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) -> RenderedSite {
        let (selections, cardCount, search, assets, settings, languages, renderers, keys) =
            (plan.selections, plan.cardCount, plan.search, plan.assets, plan.settings, plan.languages, plan.renderers, plan.keys)
        let copiedStatic = try staticFiles(besides: assets, selections, setup, search: search, output, &report)
        let searchPlan = search ? self.searchPlan(selections, keys: keys, setup, output) : nil
        let searchDocuments = try searchPlan.map { plan throws(BuildFailure) in try self.searchDocuments(output, unneeded: plan.unneededDocuments, &report) }
        let pageCount = selections.reduce(0) { $0 + $1.feeds.reduce(0) { $0 + $1.pages.count } }
        output.expect(files: pageCount + (setup.config.cardPages ? cardCount : 0))
        var syndicationFiles = 0
        var framesLoadingTheRootsFiles: [String] = []
        var stylesheetWarnings: [Diagnostic] = []
        do {
            let syndication = try step(.render, &report) { (progress: ProgressReport?) -> [OutputFile] in
                // Feed and site files first, then the placements', as the write step has had them.
                var files: [OutputFile] = []
                var embeds: [OutputFile] = []
                var rendered = 0
                for (index, var renderer) in renderers.enumerated() {
                    let selection = selections[index]
                    if let progress { renderer.progress = { [rendered] cards in progress(rendered + cards, cardCount, "cards", Double(rendered + cards) / Double(max(cardCount, 1))) } }
                    var tree = TreeRendering(
                        selection: selection, renderer: renderer, keys: keys[index], settings: settings[index], setup: setup, assets: assets, output: output, searchDocuments: searchDocuments)
                    for producer in Self.producers {
                        guard case .eachTree(let produce) = producer.scope else { continue }
                        let made = try produce(self, &tree)
                        if producer.syndication { files += made } else { embeds += made }
                    }
                    rendered += selection.cards.count
                    framesLoadingTheRootsFiles += tree.framesLoadingTheRootsFiles
                    // Each language's tree rewrites the same stylesheets: their warnings once.
                    if index == 0 { stylesheetWarnings = tree.stylesheetWarnings }
                }
                let site = SiteRendering(selections: selections, settings: settings[0], trees: settings, setup: setup, languages: languages)
                for producer in Self.producers {
                    guard case .site(let produce) = producer.scope else { continue }
                    let made = try produce(self, site)
                    if producer.syndication { files += made } else { embeds += made }
                }
                syndicationFiles = files.count
                return files + embeds
            } detail: { (_: [OutputFile]) in
                let (cards, pages) = (cardCount, pageCount)
                return "\(cards) card\(cards == 1 ? "" : "s"), \(pages) page\(pages == 1 ? "" : "s")"
                    + (setup.config.cardPages ? " and \(cards) card page\(cards == 1 ? "" : "s")" : "")
                    + (syndicationFiles == 0 ? "" : ", \(syndicationFiles) feed and site files")
            }
            report.pagesRendered = pageCount
            report.syndicatedFor = setup.config.baseURL
            record(stylesheetWarnings, in: &report)
            record(check(SiteCheck.RenderedTrees(framesLoadingTheRootsFiles: framesLoadingTheRootsFiles)), in: &report)
            let toIndex = searchPlan.flatMap { plan in Self.folder(of: searchDocuments).map { plan.index(documentsIn: $0) } }
            return RenderedSite(files: syndication + assets.sorted { $0.path < $1.path }.map(\.file) + copiedStatic, pageCount: pageCount, search: toIndex)
        } catch {
            output.abandon()
            let diagnostic = (error as? TemplateFailure).map { failure in
                // A card's failure is shown at the card (its data chose the way through the
                // templates), naming the template and the tag; a page's, at the tag.
                let message = failure.card == nil ? failure.message : failure.templatePlace.map { "in \($0): \(failure.message)" } ?? failure.message
                var diagnostic = Diagnostic(
                    .error, file: failure.card?.source.file ?? failure.templateFile ?? "templates",
                    line: failure.card == nil ? failure.line : nil, column: failure.card == nil ? failure.column : nil,
                    cardIndex: failure.card?.source.index, cardID: failure.card?.id, message: message)
                diagnostic.cardOffset = failure.card?.source.offset
                return located(diagnostic)
            } ?? Diagnostic(.error, file: destination.folder.map(SiteFolder.display) ?? "output", message: "\(error)")
            throw fail(&report, diagnostic)
        }
    }

    /// The site's assets, the built-in ones it does not replace, and the stylesheets generated
    /// from cardfeed.yml's theme and the cards' style extras; without search, not its script
    /// and stylesheet.
    func siteAssets(_ selections: [Selection], _ setup: Setup, search: Bool) -> [Asset] {
        var assets = assetFiles()
        if !search { assets.removeAll { [SearchBox.script, SearchBox.stylesheet].contains($0.path) && !$0.fromSite } }
        if setup.config.languages == nil { assets.removeAll { $0.path == LanguageSwitch.stylesheet && !$0.fromSite } }
        for (path, css) in [(GeneratedStyles.themeFile, GeneratedStyles.theme(setup.config.theme)), (GeneratedStyles.cardStylesFile, GeneratedStyles.cards(selections.map(\.cards)))] {
            guard let css else { continue }
            assets.removeAll { "assets/" + $0.path == path }
            assets.append((String(path.dropFirst("assets/".count)), false, OutputFile(path: path, content: .text(css))))
        }
        return assets
    }

    /// The text of the stylesheets the cards' look comes from, in their order (the built-in or
    /// the site's cardfeed.css, the theme's): what placements rewrite into
    /// `embed/cardfeed-embed.css` (the cards' own colours are written for the placements'
    /// cards alone, by their ids there).
    /// Each is named as its warnings name it: the site's own file, else the built-in's or the
    /// theme's name in the output.
    func cardStylesheets(_ assets: [Asset]) -> [EmbedStylesheet.Source] {
        ["cardfeed.css", "theme.css"].compactMap { name in
            guard let asset = assets.first(where: { $0.path == name }) else { return nil }
            var file = asset.file.path
            let css: String?
            switch asset.file.content {
            case .text(let text): css = text
            case .data(let data): css = String(decoding: data, as: UTF8.self)
            case .copy(let url), .scratchFile(let url):
                css = (try? InputFile.read(url)).map { String(decoding: $0, as: UTF8.self) }
                if asset.fromSite { file = SiteFolder.display(url) }
            case .stream: css = nil
            }
            return css.map { EmbedStylesheet.Source(file: file, css: $0) }
        }
    }

    /// SITE/static/, copied as it is to the output's root, where no generated file may be: a
    /// file that would land on one ends the build, naming both.
    func staticFiles(
        besides assets: [Asset], _ selections: [Selection], _ setup: Setup, search: Bool, _ output: any OutputTarget, _ report: inout BuildReport
    ) throws(BuildFailure) -> [OutputFile] {
        let staticFiles = options.site.staticFiles()
        let problems = check(SiteCheck.CopiedFiles(
            siteAssets: assets.filter(\.fromSite).map(\.path), staticFiles: staticFiles, selections: selections, assetPaths: assets.map(\.file.path),
            syndication: setup.config.baseURL != nil, search: search, hidden: (output as? OutputTransaction)?.hiddenFiles ?? .none))
        if !problems.isEmpty {
            output.abandon()
            record(problems, in: &report)
            throw BuildFailure(report: report)
        }
        return staticFiles.map { OutputFile(path: $0, content: .copy(options.site.staticFolder.appendingPathComponent($0).resolvingSymlinksInPath())) }
    }

    /// The stylesheets every page links, in the order they cascade: the built-in, search's, the
    /// language switcher's (a site in several languages), the theme's, the cards' own, the site's `custom.css`; those the site has.
    static let stylesheetOrder = ["cardfeed.css", SearchBox.stylesheet, LanguageSwitch.stylesheet, "theme.css", "card-styles.css", "custom.css"]

    /// What every page and card is rendered with.
    func renderSettings(_ setup: Setup, _ assets: [Asset], search: Bool, tree: LanguageTree, strings: StringTable) -> RenderSettings {
        let assetPaths = Set(assets.map(\.path))
        let siteAssets = Set(assets.filter(\.fromSite).map(\.path))
        return RenderSettings(
            RenderSettings.Values(
                builtinImages: BuiltinImages(assets: assetPaths, siteOverrides: siteAssets),
                strings: strings, links: setup.config.links, siteTitle: setup.config.title,
                stylesheets: Self.stylesheetOrder.filter(assetPaths.contains).map { "assets/" + $0 },
                pageSize: setup.config.pageSize, baseURL: setup.config.baseURL,
                contentSecurityPolicy: contentSecurityPolicy(setup),
                head: PageHead(config: setup.config, baseURL: setup.config.baseURL, assets: assetPaths, siteAssets: siteAssets),
                timeZone: setup.config.timeZone, feeds: tree.feeds, cardPages: setup.config.cardPages, search: search, tree: tree.folder),
            imageSizes: ImageSizes(folder: options.site.assetsFolder))
    }

    /// The built-in assets, each replaced by the site's file of the same path, plus every other
    /// file of `SITE/assets/`.
    func assetFiles() -> [Asset] {
        let siteFiles = Set(options.site.assetFiles())
        var files: [Asset] = []
        for path in BuiltinFiles.assetPaths where !siteFiles.contains(path) {
            files.append((path, false, OutputFile(path: "assets/" + path, content: .data(BuiltinFiles.asset(path) ?? Data()))))
        }
        for path in siteFiles.sorted() {
            // A link inside assets/ is copied as the file it points to.
            let source = options.site.assetsFolder.appendingPathComponent(path).resolvingSymlinksInPath()
            files.append((path, true, OutputFile(path: "assets/" + path, content: .copy(source))))
        }
        return files.sorted { $0.path < $1.path }
    }
}
