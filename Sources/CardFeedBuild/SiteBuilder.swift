import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// A build as a short pipeline of named steps over typed values:
/// configure (cardfeed.yml, strings, templates) -> load (files -> cards) -> rules -> select
/// (filter, sort, group, paginate) -> render (cmark, Mustache; pages streamed into the output)
/// -> write (the other files, then the output committed as a whole).
public struct SiteBuilder: Sendable {
    public let options: BuildOptions
    public let destination: BuildDestination
    /// What the previous build decoded and rendered, reused where nothing it depends on changed.
    let reuse: ReuseCaches?
    let logger: Logger

    public init(options: BuildOptions, destination: BuildDestination, reusing reuse: ReuseCaches? = nil, logger: Logger = Logger(label: "cardfeed")) {
        self.options = options
        self.destination = destination
        self.reuse = reuse
        self.logger = logger
    }

    public func run() throws(BuildFailure) -> BuildReport {
        var report = BuildReport()
        reuse?.beginBuild()
        let configuration = try configure(&report)
        let loaded = load(configuration, &report)
        let ruled = applyRules(loaded, configuration, &report)
        defer { options.whenDoneWithCards?(loaded.cards, ruled.cards) }
        let setup = try checkpoint(configuration, &report)
        let selections = select(ruled, setup, &report)
        let output = try openOutput(&report)
        // The search documents and Pagefind's index, beside the output, are gone once it is written.
        defer { if let scratch = (output as? OutputTransaction)?.scratchFolder { try? FileManager.default.removeItem(atPath: scratch) } }
        var site = try render(selections, setup, into: output, &report)
        try index(site.search, into: &site, output, &report)
        try write(site, into: output, &report)
        reuse?.endBuild()
        return report
    }

    /// cardfeed.yml, strings and templates as read; the strings and templates are nil when
    /// they have errors, which stop the build once the cards are loaded (one run reports both).
    struct Configuration {
        /// Every setting, the command line's applied.
        var config: SiteConfig
        /// cardfeed.yml has errors: `config` holds only what could be read of it, perhaps nothing.
        var configFailed = false
        /// The default language's strings (the only language's, without `languages:`).
        var strings: StringTable?
        /// With `languages:`, the other languages' strings, in their order; nil after an error.
        var otherStrings: [StringTable]?
        var templates: TemplateSet?
        /// With search, the Pagefind found; nil without search, or when it was not found (an error).
        var pagefind: Pagefind?
    }

    /// What the cards are shown with, once everything read is known to be good.
    struct Setup {
        var config: SiteConfig
        var strings: StringTable
        /// Each language's tree with its strings, the default language's first (`languageTrees`).
        var trees: [(tree: LanguageTree, strings: StringTable)]
        var templates: TemplateSet
        /// The Pagefind that indexes the cards, with search; nil without.
        var pagefind: Pagefind?
    }

    /// What the render step made besides the pages it streamed into the output.
    struct RenderedSite {
        /// Feeds and the sitemap, assets, and the files of `static/`.
        var files: [OutputFile]
        var pageCount: Int
        /// With search, the cards to index.
        var search: SearchIndex?
    }

    /// A build that keeps nothing (`cardfeed check`) has no write step.
    private var writes: Bool {
        if case .discarded = destination { false } else { true }
    }

    /// The steps a build reports as it goes ("[2/4] Select cards: ..."), in order; configuring
    /// and the checkpoint print no line of their own. Their numbers and count come from
    /// `steps(search:)`.
    enum Step: CaseIterable {
        case load, select, render, index, write

        func title(_ builder: SiteBuilder) -> String {
            switch self {
            case .load: "Load cards"
            case .select: "Select cards"
            case .render: "Render pages"
            case .index: "Index for search"
            case .write: "Write \(builder.destination.folder.map(SiteFolder.display) ?? "memory")"
            }
        }
    }

    /// The steps this build runs: all but the search index (made in the build only into a
    /// folder) and the write step (none for `check`).
    func steps(search: Bool) -> [Step] {
        Step.allCases.filter { step in
            switch step {
            case .load, .select, .render: return true
            case .index:
                guard case .folder = destination else { return false }
                return search
            case .write: return writes
            }
        }
    }

    /// Step 0: cardfeed.yml, the strings and the templates.
    func configure(_ report: inout BuildReport) throws(BuildFailure) -> Configuration {
        let site = options.site
        guard site.exists else {
            throw fail(&report, Diagnostic(.error, file: site.display(site.root), message: "no such site folder (create one with `cardfeed init \(site.display(site.root))`)"))
        }
        for (path, message) in site.foldersLinkedOut() {
            report.diagnostics.append(Diagnostic(.error, file: path, message: message))
        }
        let errorsBefore = report.diagnostics.errors.count
        let config = ConfigLoader(site: site).load(overriding: options.overrides, into: &report.diagnostics)
        let configFailed = report.diagnostics.errors.count > errorsBefore
        let strings = StringTable.load(locale: config.locale, site: site, feeds: config.siteFeeds, diagnostics: &report.diagnostics)
        let otherStrings = otherLanguagesStrings(config, &report.diagnostics)
        let templates = TemplateSet.load(site: site, diagnostics: &report.diagnostics)
        let search = config.search != nil
        let pagefind = search ? locatePagefind(config, &report.diagnostics) : nil
        report.steps = steps(search: search)
        for (path, reason, isError) in site.skippedEntries() {
            report.diagnostics.append(Diagnostic(isError ? .error : .warning, file: path, message: reason))
        }
        return Configuration(config: config, configFailed: configFailed, strings: strings, otherStrings: otherStrings, templates: templates, pagefind: pagefind)
    }

    /// Step 1: every card file read and decoded; with `following`, what became of that id's
    /// entries is kept (`LoadedCards.history`).
    func load(_ configuration: Configuration, _ report: inout BuildReport, following: String? = nil) -> LoadedCards {
        var loader = cardLoader(configuration.config)
        loader.following = following
        let loaded = step(.load, &report) { (progress: ProgressReport?) -> LoadedCards in
            if let progress { loader.progress = { entries, fraction in progress(entries, nil, "entries", fraction) } }
            return loader.load(reusing: reuse?.entries)
        } detail: {
            "\($0.entriesRead) \($0.entriesRead == 1 ? "entry" : "entries") from \($0.files.count) file\($0.files.count == 1 ? "" : "s")"
        }
        report.filesRead = loaded.files
        report.entriesRead = loaded.entriesRead
        report.skipped = loaded.skipped
        report.skippedIDs = loaded.skippedIDs
        if configuration.configFailed, !loaded.diagnostics.warnings.isEmpty {
            // Card warnings depend on cardfeed.yml's settings (its links' app schemes, for one),
            // which could not be read: shown now, they would send the user to the wrong place.
            report.diagnostics.append(contentsOf: Diagnostics(loaded.diagnostics.errors))
            let count = loaded.diagnostics.warnings.count
            report.diagnostics.append(Diagnostic(
                .warning, file: options.site.display(options.site.root.appendingPathComponent("cardfeed.yml")),
                message: "\(count) card warning\(count == 1 ? " is" : "s are") held back until this file reads without errors (card warnings depend on its settings)"))
        } else {
            report.diagnostics.append(contentsOf: loaded.diagnostics)
        }
        return loaded
    }

    /// The site's rules (cardfeed.yml's `rules`), and the checks of the cards as the rules left
    /// them; every diagnostic so far located in its file, and with `--strict` made an error.
    func applyRules(_ loaded: LoadedCards, _ configuration: Configuration, _ report: inout BuildReport) -> RuleEngine.RuledCards {
        let decoder = cardLoader(configuration.config).decoder()
        let ruled = RuleEngine(rules: configuration.config.rules, decoder: decoder).apply(to: loaded.cards, cardsComplete: !loaded.diagnostics.hasErrors)
        ruled.diagnostics.forEach { report.diagnostics.append($0) }
        if configuration.config.future == .show {
            warnAboutFutureCards(ruled.cards, selector(configuration.config), &report.diagnostics)
        }
        report.rules = ruled.matches.map { ($0.rule.name, $0.rule.location, $0.ids) }
        if ruled.hidden > 0 {
            report.skipped[.hiddenByRule] = ruled.hidden
            for match in ruled.matches where match.rule.hide { match.ids.forEach { report.skippedIDs.add($0, .hiddenByRule) } }
        }
        if let templates = configuration.templates { checkCardTemplates(ruled.cards, templates, &report.diagnostics) }
        checkBannerDescriptions(ruled.cards, &report.diagnostics)
        checkBlankLinks(ruled.cards, &report.diagnostics)
        if let feeds = configuration.config.feeds, !ruled.cards.isEmpty, !loaded.diagnostics.hasErrors {
            FeedCheck(cards: ruled.cards).warnings(feeds).forEach { report.diagnostics.append($0) }
        }
        if let languages = configuration.config.languages {
            let selector = selector(configuration.config)
            LanguageTrees(languages).warnings(ruled.cards) { selector.hiddenReason($0) != nil }.forEach { report.diagnostics.append($0) }
        }

        report.diagnostics.locateCards()
        report.diagnostics = report.diagnostics.escalated(strict: configuration.config.strict)
        return ruled
    }

    /// Every warning and error so far is reported, in order; any error (or warning, `--strict`)
    /// ends the build here.
    private func checkpoint(_ configuration: Configuration, _ report: inout BuildReport) throws(BuildFailure) -> Setup {
        if let folder = destination.folder {
            do { try SiteWriter(output: folder).checkOutput(site: options.site) } catch {
                report.diagnostics.append(Diagnostic(.error, file: SiteFolder.display(folder), message: error.description))
            }
        }
        emit(report.diagnostics.all)
        guard let templates = configuration.templates, let strings = configuration.strings, let otherStrings = configuration.otherStrings, !report.diagnostics.hasErrors else {
            throw BuildFailure(report: report)
        }
        let trees = Array(zip(languageTrees(configuration.config), [strings] + otherStrings))
        return Setup(config: configuration.config, strings: strings, trees: trees, templates: templates, pagefind: configuration.pagefind)
    }

    /// Step 2: which cards each feed shows, in which order, on which page; in each language's
    /// tree, the default language's first.
    private func select(_ ruled: RuleEngine.RuledCards, _ setup: Setup, _ report: inout BuildReport) -> [Selection] {
        let selector = selector(setup.config)
        let selections = step(.select, &report) { _ in
            var selections = self.selections(ruled.cards, setup.config)
            // Every language's tree has the site's placements, over its own cards.
            if let placements = setup.config.placements {
                for index in selections.indices {
                    selections[index].placements = PlacementSelector.select(placements, in: selections[index], keptOut: ruled.keptOutOfPlacements)
                }
            }
            return selections
        } detail: { (selections: [Selection]) -> String in
            let hidden = selections.reduce(0) { $0 + $1.hidden.values.reduce(0, +) } + ruled.hidden
            let shown = selections.reduce(0) { $0 + $1.cards.count }
            let feeds = selections.reduce(0) { $0 + $1.feeds.count }
            // The site's placements, which each language's tree has.
            let placements = selections.first?.placements.count ?? 0
            let languages = setup.config.languages == nil ? "" : " (\(Self.languageCounts(selections, setup.config)))"
            let eachLanguage = selections.count > 1 ? " in each language" : ""
            return "\(shown) shown in \(feeds) feeds" + languages + (placements == 0 ? "" : " and \(placements) placement\(placements == 1 ? "" : "s")\(eachLanguage)")
                + (hidden > 0 ? ", \(hidden) hidden" : "")
        }
        for rule in report.rules where !rule.ids.isEmpty {
            logger.info("      \(rule.name) (\(rule.location)): \(rule.ids.count) card\(rule.ids.count == 1 ? "" : "s"): \(rule.ids.prefix(5).joined(separator: ", "))\(rule.ids.count > 5 ? ", …" : "")")
        }
        for selection in selections { warnAboutPages(selection, ruled, setup, &report) }
        if let waiting = selections.reduce(nil, { (sum: Int?, selection) in selection.hidden[.future].map { (sum ?? 0) + $0 } ?? sum }) {
            let ids = ruled.cards.filter { selector.hiddenReason($0) == .future }.sorted { ($0.created ?? 0, $0.id) < ($1.created ?? 0, $1.id) }
                .prefix(5).map { "\($0.id) (\(Formatting.iso($0.created ?? 0)))" }
            logger.info("      future: hide (cardfeed.yml): \(waiting == 1 ? "1 card waits for its date" : "\(waiting) cards wait for their date"): \(ids.joined(separator: ", "))\(waiting > 5 ? ", …" : "")")
        }
        // Entries, each once: with `untagged_cards: every` a card without a language is in every tree.
        report.cardsShown = selections.count == 1 ? selections[0].cards.count : Set(selections.flatMap { $0.cards.map(\.source.order) }).count
        for selection in selections {
            report.skipped.merge(selection.hidden, uniquingKeysWith: +)
            report.skippedIDs.merge(selection.hiddenIDs)
        }
        report.feeds = selections.flatMap { $0.feeds.map { ($0.feed, $0.cards.count, $0.pages.count) } }
        if setup.config.placements != nil {
            report.placementTrees = setup.trees.map { PlacementTree(language: $0.tree.tag, languageName: $0.strings["languageName"], folder: $0.tree.folder) }
        }
        return selections
    }

    /// The warnings about one tree's pages: anchors alike, pages that cannot be cut where the cards say.
    private func warnAboutPages(_ selection: Selection, _ ruled: RuleEngine.RuledCards, _ setup: Setup, _ report: inout BuildReport) {
        for (earlier, later, anchor) in selection.cards.anchorCollisions {
            let (first, second) = (selection.cards[earlier], selection.cards[later])
            // With card pages, anchors that differ only in case collide too: they name files.
            let butForCase = Formatting.anchor(for: first.id) != Formatting.anchor(for: second.id)
            var warning = Diagnostic(
                .warning, file: second.source.file, cardIndex: second.source.index, cardID: second.id, field: "id",
                message: "its anchor would be the same as that of card \(Diagnostic.quoted(first.id)) (\(first.source.file), shown first)"
                    + (butForCase ? " but for case, and so would its page's file on file systems that ignore case (macOS, Windows)" : "")
                    + "; this card's anchor is \(anchor)")
            warning.cardOffset = second.source.offset
            record([located(warning)], in: &report)
        }
        for feed in selection.feeds {
            guard let pageEnds = feed.pageEndsWhenPagedByCount else { continue }
            let pageSize = setup.config.pageSize
            record([Diagnostic(
                .warning, file: options.site.display(options.site.root),
                message: "the \(feed.feed.slug)\(feed.feed.tree.isEmpty ? "" : " (\(feed.feed.tree)/)") feed's card ids defeat pages cut where the cards say (ids chosen, or all alike): \(pageEnds) of its \(feed.cards.count) cards are page ends where chance gives about \(feed.cards.count / pageSize), or many cards in a row are none; its pages are cut every \(pageSize) cards from the oldest instead, so a card coming or going may change every page of the feed")], in: &report)
        }
    }

    private func cardLoader(_ config: SiteConfig) -> CardLoader {
        var loader = CardLoader(site: options.site, linkSchemes: config.links.linkSchemes)
        loader.timeZone = config.timeZone
        loader.descriptions = config.descriptions
        return loader
    }

    func selector(_ config: SiteConfig) -> FeedSelector {
        FeedSelector(now: config.now, pageSize: config.pageSize, future: config.future, feeds: config.siteFeeds, hideEmptyFeeds: config.hideEmptyFeeds, cardPages: config.cardPages)
    }

    /// A warning for each card that would be shown although it is dated after the build's
    /// time: it sorts at the top, as if published already; a terminal shows them once a file
    /// (`Diagnostic.summary`). (With `future: hide` such a card waits instead, and the select
    /// step names it.)
    private func warnAboutFutureCards(_ cards: [Card], _ selector: FeedSelector, _ diagnostics: inout Diagnostics) {
        for card in cards where selector.isFuture(card) && selector.hiddenReason(card) == nil {
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "created",
                message: "dated \(Formatting.iso(card.created ?? 0)), after the build's time (\(Formatting.iso(selector.now)), --now); shown at the top as if published. To keep such cards until their date, set future: hide in cardfeed.yml")
            diagnostic.summary = "dated after the build's time (\(Formatting.iso(selector.now)), --now); shown at the top as if published. To keep such cards until their date, set future: hide in cardfeed.yml"
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// The destination's output, which the render step streams the pages into and the write
    /// step commits.
    private func openOutput(_ report: inout BuildReport) throws(BuildFailure) -> any OutputTarget {
        switch destination {
        case .folder(let folder):
            do {
                return try OutputTransaction(output: folder, staticFolder: options.site.staticFolder)
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

    /// Step 3: every card rendered once, into every page that shows it as the pages stream into
    /// `output`; the feed files, assets and `static/` as files for the write step.
    private func render(_ selections: [Selection], _ setup: Setup, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) -> RenderedSite {
        let cardCount = selections.reduce(0) { $0 + $1.cards.count }
        // A site with no card to show has nothing to search: no index, and no search box; nor
        // has a language's tree without cards (see `SearchIndex.trees`).
        let search = setup.pagefind != nil && cardCount > 0
        let assets = siteAssets(selections, setup, search: search)
        let copiedStatic = try staticFiles(besides: assets, selections, setup, search: search, output, &report)
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
        let searchDocuments = search ? try self.searchDocuments(output, &report) : nil
        let pageCount = selections.reduce(0) { $0 + $1.feeds.reduce(0) { $0 + $1.pages.count } }
        var syndicationFiles = 0
        var framesLoadingTheRootsFiles: [String] = []
        var stylesheetWarnings: [Diagnostic] = []
        do {
            let syndication = try step(.render, &report) { (progress: ProgressReport?) -> [OutputFile] in
                var files: [OutputFile] = []
                var embeds: [OutputFile] = []
                var rendered = 0
                for (index, var renderer) in renderers.enumerated() {
                    let selection = selections[index]
                    if let progress { renderer.progress = { [rendered] cards in progress(rendered + cards, cardCount, "cards", Double(rendered + cards) / Double(max(cardCount, 1))) } }
                    let feedCards = setup.config.baseURL == nil ? [] : Set(selection.feeds.flatMap { feed in feed.front.cards.map { feed.cards[$0] } })
                    let descriptions = try renderer.renderPages(selection, into: output, searchDocuments: searchDocuments, keepDescriptions: feedCards, reusing: reuse?.cards)
                    rendered += selection.cards.count
                    if setup.config.placements != nil {
                        var warnings: [Diagnostic] = []
                        let made = try PlacementFiles(renderer: renderer).files(selection, stylesheets: cardStylesheets(assets), warnings: &warnings)
                        // Each language's tree rewrites the same stylesheets: their warnings once.
                        if index == 0 { stylesheetWarnings = warnings }
                        framesLoadingTheRootsFiles += PlacementFiles.framesLoadingTheRootsFiles(made, tree: selection.tree)
                        embeds += made
                    }
                    guard let baseURL = setup.config.baseURL else { continue }
                    files += try Syndication(baseURL: baseURL, settings: settings[index], templates: setup.templates).files(selection, descriptions: descriptions)
                }
                guard let baseURL = setup.config.baseURL else { return embeds }
                files += try Syndication(baseURL: baseURL, settings: settings[0], templates: setup.templates).siteFiles(selections, languages: languages)
                syndicationFiles = files.count
                return files + embeds
            } detail: { (_: [OutputFile]) in
                let (cards, pages) = (cardCount, pageCount)
                return "\(cards) card\(cards == 1 ? "" : "s"), \(pages) page\(pages == 1 ? "" : "s")"
                    + (setup.config.cardPages ? " and \(cards) card page\(cards == 1 ? "" : "s")" : "")
                    + (syndicationFiles == 0 ? "" : ", \(syndicationFiles) feed and sitemap files")
            }
            report.pagesRendered = pageCount
            report.syndicatedFor = setup.config.baseURL
            record(stylesheetWarnings, in: &report)
            if let first = framesLoadingTheRootsFiles.first { record([frameWarning(first, others: framesLoadingTheRootsFiles.count - 1)], in: &report) }
            let toIndex = setup.pagefind.flatMap { pagefind in
                Self.folder(of: searchDocuments).map { searchIndex(pagefind, documents: $0, selections, setup) }
            }
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
    private func siteAssets(_ selections: [Selection], _ setup: Setup, search: Bool) -> [Asset] {
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
    private func cardStylesheets(_ assets: [Asset]) -> [EmbedStylesheet.Source] {
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
    private func staticFiles(
        besides assets: [Asset], _ selections: [Selection], _ setup: Setup, search: Bool, _ output: any OutputTarget, _ report: inout BuildReport
    ) throws(BuildFailure) -> [OutputFile] {
        let staticFiles = options.site.staticFiles()
        var problems = unportableNames(assets: assets.filter(\.fromSite).map(\.path), static: staticFiles)
        if !staticFiles.isEmpty {
            let hidden = (output as? OutputTransaction)?.hiddenFiles ?? .none
            problems += staticCollisions(staticFiles, selections: selections, assets: assets.map(\.file.path), syndication: setup.config.baseURL != nil, search: search, hidden: hidden)
        }
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
    private func renderSettings(_ setup: Setup, _ assets: [Asset], search: Bool, tree: LanguageTree, strings: StringTable) -> RenderSettings {
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

    /// Step 4: the files that are not pages go into the output, which is then committed.
    private func write(_ site: RenderedSite, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) {
        guard writes else { return }
        let shownAs = destination.folder.map(SiteFolder.display) ?? "memory"
        // The writer needs a folder only to check one (see `applyRules`); memory has none.
        var writer = SiteWriter(output: destination.folder ?? options.site.defaultOutput)
        do {
            let counts = try step(.write, &report) { (progress: ProgressReport?) -> OutputCounts in
                let total = site.files.count
                if let progress { writer.progress = { done in progress(done, total, "files", Double(done) / Double(total)) } }
                do {
                    try writer.write(site.files, to: output)
                    let counts = try output.commit()
                    if case .inPlace(_, let searchDocuments?) = destination, site.search != nil { _ = try searchDocuments.commit() }
                    return counts
                } catch {
                    output.abandon()
                    throw error
                }
            } detail: { (counts: OutputCounts) in
                "\(counts.written) files written" + (counts.unchanged > 0 ? ", \(counts.unchanged) unchanged" : "")
                    + (counts.removed.isEmpty ? "" : ", \(counts.removed.count) removed")
            }
            report.filesWritten = counts.written
            report.filesUnchanged = counts.unchanged
            report.comparedWithPrevious = counts.comparedWithPrevious
            report.filesRemoved = counts.removed
            report.output = destination.folder.map(\.standardizedFileURL)
        } catch {
            throw fail(&report, Diagnostic(.error, file: shownAs, message: "\(error)"))
        }
    }

    /// A card whose `template` extra names a template the site does not have is rendered with
    /// its type's template, with a warning.
    private func checkCardTemplates(_ cards: [Card], _ templates: TemplateSet, _ diagnostics: inout Diagnostics) {
        for card in cards {
            guard let name = card.templateName, !templates.hasCardTemplate(name) else { continue }
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "extras.template",
                message: "no template templates/cards/\(name).mustache in the site; the card's \(card.type.rawValue) template is used")
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// A banner's image is all it shows (and so is that of a card with neither title nor
    /// description), so a screen reader needs words for it: a warning for each such card without
    /// `image_alt` (after the rules, which may set it), which a terminal shows once a file
    /// (`Diagnostic.summary`), since Braze's own banners seldom carry it.
    private func checkBannerDescriptions(_ cards: [Card], _ diagnostics: inout Diagnostics) {
        for card in cards where card.showsOnlyItsImage && card.image != nil && card.imageAlt == nil {
            let why = card.type == .bannerImage
                ? "a banner's image is all it shows, so screen readers read "
                : "with neither title nor description, the image is all the card shows, so screen readers read "
            let instead = card.wordsForItsImage.map { "the card's title, domain or link's host or address instead (\(Diagnostic.quoted($0)))" } ?? "nothing for it"
            let advice = "; add image_alt to say what the image shows"
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: "image_alt",
                message: "missing: " + why + instead + advice)
            diagnostic.summary = "missing: " + why + "the card's title, domain or link's host or address instead, if it has one" + advice
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// A card whose file gave its link as spaces only has no link (`CardSource.blankLinkKey`),
    /// so its domain, the link's words, which its writer meant to be seen, shows nowhere: a
    /// warning for each such card that still has a domain and no link after the rules (which
    /// may set either), which a terminal shows once a file.
    private func checkBlankLinks(_ cards: [Card], _ diagnostics: inout Diagnostics) {
        for card in cards where card.url == nil {
            guard let key = card.source.blankLinkKey, let domain = card.domain else { continue }
            let advice = "give the card a url, or leave out domain"
            var diagnostic = Diagnostic(
                .warning, file: card.source.file, cardIndex: card.source.index, cardID: card.id, field: key,
                message: "blank, so the card has no link, and its domain (\(Diagnostic.quoted(domain))), the link's words, is not shown either; " + advice)
            diagnostic.summary = "blank, so the card has no link, and its domain, the link's words, is not shown either; " + advice
            diagnostic.cardOffset = card.source.offset
            diagnostics.append(diagnostic)
        }
    }

    /// Errors for the files the build copies under their own names, of `SITE/assets/` and
    /// `static/`, whose path holds a name Windows keeps for a device (`PortableName`).
    private func unportableNames(assets: [String], static staticFiles: [String]) -> [Diagnostic] {
        let copied = assets.map { (options.site.assetsFolder, $0, "assets/" + $0) } + staticFiles.map { (options.site.staticFolder, $0, $0) }
        return copied.compactMap { folder, path, outputPath in
            guard let (name, device) = PortableName.windowsDevice(alongPath: path) else { return nil }
            return Diagnostic(.error, file: options.site.display(folder.appendingPathComponent(path)), message: "would be copied to \(outputPath), but \(Diagnostic.quoted(name)) is a name Windows keeps for a device (\(device)), which a site copied, checked out or unzipped there loses; rename it")
        }
    }

    /// Errors for files of `static/` that would land where the build writes a file (or a folder
    /// of files), in a `.git`, or on or inside a hidden path of the output that the build keeps,
    /// each naming both.
    private func staticCollisions(_ files: [String], selections: [Selection], assets: [String], syndication: Bool, search: Bool, hidden: OutputHiddenFiles) -> [Diagnostic] {
        var generated: [String: String] = [SiteWriter.markerName: "the marker of cardfeed's output folder"]
        for feed in selections.flatMap(\.feeds) {
            generated[feed.front.path] = "the front page of the \(feed.feed.slug) feed"
            for page in feed.archive { generated[page.path] = "a page of the \(feed.feed.slug) feed" }
            for (format, _) in OutputFormat.perFeed where syndication {
                generated[format.path(for: feed.feed)] = "the \(feed.feed.slug) feed's \(format.name) file"
            }
        }
        for (format, _) in OutputFormat.perSite where syndication { generated[format.path(for: nil)] = "the \(format.name)" }
        for selection in selections where !selection.placements.isEmpty {
            for placement in selection.placements {
                for path in PlacementFiles.paths(of: placement.placement.name, tree: selection.tree) { generated[path] = "a file of the placement \(placement.placement.name)" }
            }
            generated[PlacementFiles.script(tree: selection.tree)] = "the placements' script"
            generated[PlacementFiles.stylesheet(tree: selection.tree)] = "the placements' stylesheet"
        }
        for path in assets { generated[path] = path.hasPrefix("assets/") ? "an asset (from SITE/assets/ or built in)" : "a generated file" }
        let folders = Set(generated.keys.flatMap { path in
            var prefixes: [String] = []
            var folder = PagePaths.folder(path)
            while !folder.isEmpty { prefixes.append(folder); folder = PagePaths.folder(folder) }
            return prefixes
        })
        var problems: [Diagnostic] = []
        for path in files {
            let file = options.site.display(options.site.staticFolder.appendingPathComponent(path))
            let cardPagesFolders = selections.map { PagePaths.cardPagesFolder(tree: $0.tree) }
            if let cardPages = cardPagesFolders.first(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied \(path == cardPages ? "to" : "into") \(cardPages)\(path == cardPages ? "" : "/"), the folder of the cards' own pages, which is the build's alone (even with card_pages: false); move it"))
            } else if OutputHiddenFiles.isInsideGit(path) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), inside the output's .git, which is git's own (a deployment branch's repository and its config), never a file of the site; remove it from static/"))
            } else if let kept = hidden.keptPath(touchedBy: path) {
                // Only a folder replaced as a whole keeps hidden paths of its own (`OutputTransaction`).
                let output = destination.folder.map { SiteFolder.display($0.appendingPathComponent(kept)) } ?? kept
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), \(kept == path ? "over" : path.hasPrefix(kept + "/") ? "inside" : "in place of the folder holding") \(output), a hidden path of the output that every build keeps and none wrote; remove one of them (or move the output's into static/, so that the build writes it)"))
            } else if search, path == Pagefind.folder || path.hasPrefix(Pagefind.folder + "/") {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), in \(Pagefind.folder)/, where the build writes the search index (search: true); rename or remove it"))
            } else if let what = generated[path] {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), where the build writes \(what); rename or remove one of them"))
            } else if folders.contains(path) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied to \(path), where the build writes the folder \(path)/; rename or remove it"))
            } else if let clash = generated.keys.sorted().first(where: { path.hasPrefix($0 + "/") }) {
                problems.append(Diagnostic(.error, file: file, message: "would be copied into \(clash)/, but the build writes \(clash) as a file (\(generated[clash]!)); move it"))
            }
        }
        return problems
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

    /// A diagnostic about a card found after the others were located (`applyRules`), with its
    /// line and column.
    private func located(_ diagnostic: Diagnostic) -> Diagnostic {
        var diagnostics = Diagnostics([diagnostic])
        diagnostics.locateCards()
        return diagnostics.all[0]
    }

    /// Reports `diagnostic` and ends the build with it.
    func fail(_ report: inout BuildReport, _ diagnostic: Diagnostic) -> BuildFailure {
        record([diagnostic], in: &report)
        return BuildFailure(report: report)
    }

    /// Reports `diagnostics` found after the checkpoint and keeps them in the report.
    private func record(_ diagnostics: [Diagnostic], in report: inout BuildReport) {
        emit(diagnostics)
        diagnostics.forEach { report.diagnostics.append($0) }
    }

    /// Warnings and errors, to the handler the options name, else to the logger.
    private func emit(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        if let handler = options.diagnosticHandler { return handler(diagnostics) }
        logger.report(diagnostics)
    }

    /// Reports a step's progress: things done, of how many if known, what they are, the share done.
    typealias ProgressReport = @Sendable (_ done: Int, _ total: Int?, _ unit: String, _ fraction: Double) -> Void

    /// Runs one step, records its time and logs `[n/total] Title: detail`. The body is handed a
    /// way to report its progress when the build has a progress observer.
    func step<T>(
        _ step: Step, _ report: inout BuildReport,
        _ body: (ProgressReport?) throws -> T, detail: (T) -> String
    ) rethrows -> T {
        if report.steps.isEmpty { report.steps = steps(search: false) }  // `explain`, which does not configure through `run`
        let title = step.title(self)
        let number = (report.steps.firstIndex(of: step) ?? report.steps.count) + 1
        let total = report.steps.count
        let start = DispatchTime.now().uptimeNanoseconds
        var progress: ProgressReport?
        if let observer = options.progress {
            progress = { done, of, unit, fraction in
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                observer.progress(StepProgress(step: number, steps: total, title: title, done: done, total: of, unit: unit, fraction: fraction, seconds: seconds))
            }
        }
        let result: T
        do {
            defer { options.progress?.stepEnded() }
            result = try body(progress)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        report.stepSeconds.append((title, seconds))
        logger.info("[\(number)/\(total)] \(title): \(detail(result))")
        return result
    }
}

extension Logger {
    /// Warnings and errors as a terminal reads them: those that repeat card after card once a
    /// file (`Diagnostics.summarisedLines`).
    package func report(_ diagnostics: [Diagnostic]) {
        for (severity, text) in Diagnostics.summarisedLines(diagnostics) {
            if severity == .error { error("\(text)") } else { warning("\(text)") }
        }
    }
}
