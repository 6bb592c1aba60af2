import Foundation
import Logging

/// A build as a short pipeline of named steps over typed values:
/// configure (cardfeed.yml, strings, templates) -> load (files -> cards) -> rules -> select
/// (filter, sort, group, paginate) -> render (cmark, Mustache; pages streamed into the output)
/// -> write (the other files, then the output committed as a whole).
public struct SiteBuilder: Sendable {
    public let options: BuildOptions
    let logger: Logger

    public init(options: BuildOptions, logger: Logger = Logger(label: "cardfeed")) {
        self.options = options
        self.logger = logger
    }

    public func run() throws(BuildFailure) -> BuildReport {
        var report = BuildReport()
        options.caches?.beginBuild()
        let configuration = try configure(&report)
        let loaded = load(configuration, &report)
        defer { if options.processEndsAfterBuild { LeftToExit.keep(loaded.cards) } }
        let (setup, ruled) = try applyRules(loaded, configuration, &report)
        defer { if options.processEndsAfterBuild { LeftToExit.keep(ruled.cards) } }  // a new array when the site has rules
        let selection = select(ruled, setup, &report)
        let output = try openOutput(&report)
        let site = try render(selection, setup, into: output, &report)
        try write(site, into: output, &report)
        options.caches?.endBuild()
        return report
    }

    /// cardfeed.yml, strings and templates as read; the strings and templates are nil when
    /// they have errors, which stop the build once the cards are loaded (one run reports both).
    struct Configuration {
        var config: SiteConfig
        /// `--base-url` or `base_url`, ending in "/"; nil without one.
        var baseURL: String?
        var strings: StringTable?
        var templates: TemplateSet?
    }

    /// What the cards are shown with, once everything read is known to be good.
    struct Setup {
        var config: SiteConfig
        var baseURL: String?
        var strings: StringTable
        var templates: TemplateSet
    }

    /// What the render step made besides the pages it streamed into the output.
    struct RenderedSite {
        /// Feeds and the sitemap, assets, and the files of `static/`.
        var files: [OutputFile]
        var pageCount: Int
    }

    private var stepCount: Int { options.write ? 4 : 3 }

    /// Step 0: cardfeed.yml, the strings and the templates.
    private func configure(_ report: inout BuildReport) throws(BuildFailure) -> Configuration {
        let site = options.site
        guard site.exists else {
            throw fail(&report, Diagnostic(.error, file: site.display(site.root), message: "no such site folder (create one with `cardfeed init \(site.display(site.root))`)"))
        }
        for (path, message) in site.foldersLinkedOut() {
            report.diagnostics.append(Diagnostic(.error, file: path, message: message))
        }
        let config = ConfigLoader(site: site).load(into: &report.diagnostics)
        let baseURL = checkedBaseURL(config, &report.diagnostics)
        let locale = options.locale ?? config.locale ?? StringTable.defaultLocale
        let strings = StringTable.load(locale: locale, site: site, diagnostics: &report.diagnostics)
        let templates = TemplateSet.load(site: site, diagnostics: &report.diagnostics)
        for (path, reason) in site.skippedEntries() {
            report.diagnostics.append(Diagnostic(.warning, file: path, message: reason))
        }
        return Configuration(config: config, baseURL: baseURL, strings: strings, templates: templates)
    }

    /// Step 1: every card file read and decoded.
    private func load(_ configuration: Configuration, _ report: inout BuildReport) -> LoadedCards {
        var loader = CardLoader(site: options.site, linkSchemes: configuration.config.links.linkSchemes)
        loader.cache = options.caches?.entries
        let loaded = step("Load cards", 1, &report) { (progress: ProgressReport?) -> LoadedCards in
            if let progress { loader.progress = { entries, fraction in progress(entries, nil, "entries", fraction) } }
            return loader.load()
        } detail: {
            "\($0.entriesRead) \($0.entriesRead == 1 ? "entry" : "entries") from \($0.files.count) file\($0.files.count == 1 ? "" : "s")"
        }
        report.filesRead = loaded.files
        report.entriesRead = loaded.entriesRead
        report.skipped = loaded.skipped
        report.diagnostics.append(contentsOf: loaded.diagnostics)
        return loaded
    }

    /// The site's rules (cardfeed.yml's `rules`), then every warning and error so far is
    /// reported, in order; any error (or warning, `--strict`) ends the build here.
    private func applyRules(_ loaded: LoadedCards, _ configuration: Configuration, _ report: inout BuildReport) throws(BuildFailure) -> (Setup, RuleEngine.RuledCards) {
        let decoder = CardLoader(site: options.site, linkSchemes: configuration.config.links.linkSchemes).decoder()
        let ruled = RuleEngine(rules: configuration.config.rules, decoder: decoder).apply(to: loaded.cards, cardsComplete: !loaded.diagnostics.hasErrors)
        ruled.diagnostics.forEach { report.diagnostics.append($0) }
        report.rules = ruled.matches.map { ($0.rule.name, $0.rule.location, $0.ids) }
        if ruled.hidden > 0 { report.skipped[.hiddenByRule] = ruled.hidden }
        if let templates = configuration.templates { checkCardTemplates(ruled.cards, templates, &report.diagnostics) }

        report.diagnostics.locateCards()
        report.diagnostics = report.diagnostics.escalated(strict: options.strict)
        if options.write {
            do { try SiteWriter(output: options.outputFolder).checkOutput(site: options.site) } catch {
                report.diagnostics.append(Diagnostic(.error, file: SiteFolder.display(options.outputFolder), message: error.description))
            }
        }
        report.diagnostics.all.forEach(emit)
        guard let templates = configuration.templates, let strings = configuration.strings, !report.diagnostics.hasErrors else { throw BuildFailure(report: report) }
        return (Setup(config: configuration.config, baseURL: configuration.baseURL, strings: strings, templates: templates), ruled)
    }

    /// Step 2: which cards each feed shows, in which order, on which page.
    private func select(_ ruled: RuleEngine.RuledCards, _ setup: Setup, _ report: inout BuildReport) -> Selection {
        let selector = FeedSelector(now: options.now, pageSize: pageSize(setup))
        let selection = step("Select cards", 2, &report) { _ in
            selector.select(ruled.cards)
        } detail: {
            let hidden = $0.hidden.values.reduce(0, +) + ruled.hidden
            return "\($0.cards.count) shown in \($0.feeds.count) feeds" + (hidden > 0 ? ", \(hidden) hidden" : "")
        }
        for rule in report.rules where !rule.ids.isEmpty {
            logger.info("      \(rule.name) (\(rule.location)): \(rule.ids.count) card\(rule.ids.count == 1 ? "" : "s"): \(rule.ids.prefix(5).joined(separator: ", "))\(rule.ids.count > 5 ? ", …" : "")")
        }
        for (earlier, later, anchor) in selection.cards.anchorCollisions {
            let (first, second) = (selection.cards[earlier], selection.cards[later])
            let warning = Diagnostic(
                .warning, file: second.source.file, cardIndex: second.source.index, cardID: second.id, field: "id",
                message: "its anchor would be the same as that of card \(Diagnostic.quoted(first.id)) (\(first.source.file), shown first); this card's anchor is \(anchor)")
            emit(warning)
            report.diagnostics.append(warning)
        }
        report.cardsShown = selection.cards.count
        report.skipped.merge(selection.hidden, uniquingKeysWith: +)
        report.feeds = selection.feeds.map { ($0.feed, $0.cards.count, $0.pages.count) }
        return selection
    }

    private func pageSize(_ setup: Setup) -> Int { options.pageSize ?? setup.config.pageSize ?? BuildOptions.defaultPageSize }

    /// The write step's output, which the render step streams the pages into: a transaction
    /// (`cardfeed build`), serve's folder updated in place, or one that keeps nothing
    /// (`cardfeed check`, which renders every page all the same, to meet every error a build would).
    private func openOutput(_ report: inout BuildReport) throws(BuildFailure) -> any OutputTarget {
        guard options.write else { return DiscardedOutput() }
        if let caches = options.caches { return caches.output }
        do {
            return try OutputTransaction(output: options.outputFolder)
        } catch {
            throw fail(&report, Diagnostic(.error, file: SiteFolder.display(options.outputFolder), message: error.description))
        }
    }

    /// Step 3: every card rendered once, into every page that shows it as the pages stream into
    /// `output`; the feed files, assets and `static/` as files for the write step.
    private func render(_ selection: Selection, _ setup: Setup, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) -> RenderedSite {
        var assets = assetFiles()
        for (path, css) in [(GeneratedStyles.themeFile, GeneratedStyles.theme(setup.config.theme)), (GeneratedStyles.cardStylesFile, GeneratedStyles.cards(selection.cards))] {
            guard let css else { continue }
            assets.removeAll { "assets/" + $0.path == path }
            assets.append((String(path.dropFirst("assets/".count)), false, OutputFile(path: path, content: .text(css))))
        }
        // SITE/static/: copied as they are to the output's root, where no generated file may be.
        let staticFiles = options.site.staticFiles()
        if !staticFiles.isEmpty {
            let collisions = staticCollisions(staticFiles, selection: selection, assets: assets.map(\.file.path), syndication: setup.baseURL != nil)
            if !collisions.isEmpty {
                output.abandon()
                collisions.forEach { emit($0); report.diagnostics.append($0) }
                throw BuildFailure(report: report)
            }
        }
        let copiedStatic = staticFiles.map { OutputFile(path: $0, content: .copy(options.site.staticFolder.appendingPathComponent($0).resolvingSymlinksInPath())) }
        let assetPaths = Set(assets.map(\.path))
        let stylesheets = ["cardfeed.css", "theme.css", "card-styles.css", "custom.css"].filter(assetPaths.contains).map { "assets/" + $0 }
        let settings = RenderSettings(
            RenderSettings.Values(
                builtinImages: BuiltinImages(assets: assetPaths, siteOverrides: Set(assets.filter(\.fromSite).map(\.path))),
                strings: setup.strings, links: setup.config.links, siteTitle: setup.config.title, stylesheets: stylesheets,
                pageSize: pageSize(setup), baseURL: setup.baseURL,
                contentSecurityPolicy: options.contentSecurityPolicy == true ? setup.config.contentSecurityPolicy ?? ContentSecurityPolicy.builtin : setup.config.contentSecurityPolicy,
                head: PageHead(config: setup.config, baseURL: setup.baseURL, assets: assetPaths, siteAssets: Set(assets.filter(\.fromSite).map(\.path)))),
            imageSizes: ImageSizes(folder: options.site.assetsFolder))
        var renderer = SiteRenderer(templates: setup.templates, settings: settings)
        renderer.cache = options.caches?.cards
        renderer.batchSize = options.renderBatchSize
        let pageCount = selection.feeds.reduce(0) { $0 + $1.pages.count }
        var syndicationFiles = 0
        do {
            let syndication = try step("Render pages", 3, &report) { (progress: ProgressReport?) -> [OutputFile] in
                let total = selection.cards.count
                if let progress { renderer.progress = { cards in progress(cards, total, "cards", Double(cards) / Double(max(total, 1))) } }
                let feedCards = setup.baseURL == nil ? [] : Set(selection.feeds.flatMap { $0.cards[$0.pages.first ?? 0..<0] })
                let descriptions = try renderer.renderPages(selection, into: output, keepDescriptions: feedCards)
                guard let baseURL = setup.baseURL else { return [] }
                let files = try Syndication(baseURL: baseURL, settings: settings, templates: setup.templates).files(selection, descriptions: descriptions)
                syndicationFiles = files.count
                return files
            } detail: { (_: [OutputFile]) in
                "\(selection.cards.count) cards, \(pageCount) pages" + (syndicationFiles == 0 ? "" : ", \(syndicationFiles) feed and sitemap files")
            }
            report.pagesRendered = pageCount
            report.syndicatedFor = setup.baseURL
            return RenderedSite(files: syndication + assets.sorted { $0.path < $1.path }.map(\.file) + copiedStatic, pageCount: pageCount)
        } catch {
            output.abandon()
            let diagnostic = (error as? TemplateFailure).map { failure in
                // A card's failure is shown at the card (its data chose the way through the
                // templates), naming the template; a page's, at the template.
                let message = failure.card == nil ? failure.message : failure.templateFile.map { "in \($0): \(failure.message)" } ?? failure.message
                var diagnostic = Diagnostic(
                    .error, file: failure.card?.source.file ?? failure.templateFile ?? "templates", cardIndex: failure.card?.source.index,
                    cardID: failure.card?.id, message: message)
                diagnostic.cardOffset = failure.card?.source.offset
                return diagnostic
            } ?? Diagnostic(.error, file: SiteFolder.display(options.outputFolder), message: "\(error)")
            throw fail(&report, diagnostic)
        }
    }

    /// Step 4: the files that are not pages go into the output, which is then committed.
    private func write(_ site: RenderedSite, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) {
        guard options.write else { return }
        var writer = SiteWriter(output: options.outputFolder)
        do {
            let counts = try step("Write \(SiteFolder.display(writer.output))", 4, &report) { (progress: ProgressReport?) -> OutputCounts in
                let total = site.files.count
                if let progress { writer.progress = { done in progress(done, total, "files", Double(done) / Double(total)) } }
                do {
                    try writer.write(site.files, to: output)
                    return try output.commit()
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
            report.filesRemoved = counts.removed
            report.output = writer.output
        } catch {
            throw fail(&report, Diagnostic(.error, file: SiteFolder.display(writer.output), message: "\(error)"))
        }
    }

    /// `--base-url`, else `base_url` of cardfeed.yml (checked there), normalised to end in "/".
    private func checkedBaseURL(_ config: SiteConfig, _ diagnostics: inout Diagnostics) -> String? {
        guard let url = options.baseURL else { return config.baseURL }
        guard URLCheck.isBaseURL(url) else {
            diagnostics.append(Diagnostic(.error, file: "--base-url", message: "\(Diagnostic.quoted(url)) is not an http or https address such as https://example.com/news/ (without spaces or quotes)"))
            return nil
        }
        return url.hasSuffix("/") ? url : url + "/"
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

    /// Errors for files of `static/` that would land where the build writes a file (or a folder
    /// of files), each naming both.
    private func staticCollisions(_ files: [String], selection: Selection, assets: [String], syndication: Bool) -> [Diagnostic] {
        var generated: [String: String] = [SiteWriter.markerName: "the marker of cardfeed's output folder"]
        for feed in selection.feeds {
            for page in 1...max(feed.pages.count, 1) { generated[PagePaths.file(feed: feed.feed, page: page)] = "page \(page) of the \(feed.feed.slug) feed" }
            if syndication {
                generated[Syndication.atomFile(feed.feed)] = "the \(feed.feed.slug) feed's Atom feed"
                generated[Syndication.jsonFile(feed.feed)] = "the \(feed.feed.slug) feed's JSON Feed"
            }
        }
        if syndication { generated["sitemap.xml"] = "the sitemap" }
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
            if let what = generated[path] {
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
    func assetFiles() -> [(path: String, fromSite: Bool, file: OutputFile)] {
        let siteFiles = Set(options.site.assetFiles())
        var files: [(path: String, fromSite: Bool, file: OutputFile)] = []
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

    /// Reports `diagnostic` and ends the build with it.
    private func fail(_ report: inout BuildReport, _ diagnostic: Diagnostic) -> BuildFailure {
        emit(diagnostic)
        report.diagnostics.append(diagnostic)
        return BuildFailure(report: report)
    }

    /// A warning or error, to the handler the options name, else to the logger.
    private func emit(_ diagnostic: Diagnostic) {
        if let handler = options.diagnosticHandler { return handler(diagnostic) }
        if diagnostic.severity == .error { logger.error("\(diagnostic)") } else { logger.warning("\(diagnostic)") }
    }

    /// Reports a step's progress: things done, of how many if known, what they are, the share done.
    typealias ProgressReport = @Sendable (_ done: Int, _ total: Int?, _ unit: String, _ fraction: Double) -> Void

    /// Runs one step, records its time and logs `[n/total] Title: detail`. The body is handed a
    /// way to report its progress when the build has a progress observer.
    private func step<T>(
        _ title: String, _ number: Int, _ report: inout BuildReport,
        _ body: (ProgressReport?) throws -> T, detail: (T) -> String
    ) rethrows -> T {
        let total = stepCount
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

/// Memory a command that ends with its build leaves to the process's exit, which hands it back
/// to the kernel at once: freed one by one, a million cards (each string of each card) took
/// 0.5 s after the site was written. Never used by `serve`, which builds again and again.
enum LeftToExit {
    private final class Holder<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Keeps `value` alive until the process exits.
    static func keep<Value: Sendable>(_ value: Value) {
        _ = Unmanaged.passRetained(Holder(value))
    }
}
