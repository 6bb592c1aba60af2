import Foundation
import Logging

/// What a build is asked to do. Options left nil come from cardfeed.yml, else their defaults.
public struct BuildOptions: Sendable {
    public var site: SiteFolder
    /// Defaults to `SITE/public`.
    public var output: URL?
    /// Unix seconds; cards that expire at or before it are hidden.
    public var now: Int64
    /// Cards a page; 0 puts each feed on one page.
    public var pageSize: Int?
    public var locale: String?
    /// The address the site is published at; with it, feeds and a sitemap are written too.
    public var baseURL: String?
    /// Warnings count as errors.
    public var strict: Bool
    /// False for `cardfeed check`: everything but the writing.
    public var write: Bool
    /// With `serve`: reuse the previous build's cards and update the output in place.
    public var incremental: IncrementalState?
    /// True puts a Content Security Policy in every page (the site's own from cardfeed.yml, else
    /// the built-in one); nil leaves it to `csp` in cardfeed.yml.
    public var contentSecurityPolicy: Bool?
    /// True when the process ends with the build (`cardfeed build`, `check`): the cards are then
    /// left for the exit to reclaim, not freed one by one (see `LeftToExit`).
    public var processEndsAfterBuild = false
    /// Cards rendered at a time (tests make it small, to run many batches through few cards).
    var renderBatchSize = SiteRenderer.defaultBatchSize
    /// Told how far the load, render and write steps are, batch by batch (a terminal's progress
    /// line).
    public var progress: (any BuildProgressObserver)?
    /// Given each warning and error as the build finds it, in order, instead of the logger
    /// (`--diagnostics json`, `serve`'s report of what changed).
    public var diagnosticHandler: (@Sendable (Diagnostic) -> Void)?

    public static let defaultPageSize = 20

    public init(
        site: SiteFolder, output: URL? = nil, now: Int64 = Int64(Date().timeIntervalSince1970),
        pageSize: Int? = nil, locale: String? = nil, baseURL: String? = nil, strict: Bool = false, write: Bool = true,
        contentSecurityPolicy: Bool? = nil
    ) {
        self.site = site
        self.output = output
        self.now = now
        self.pageSize = pageSize
        self.locale = locale
        self.baseURL = baseURL
        self.strict = strict
        self.write = write
        self.contentSecurityPolicy = contentSecurityPolicy
    }

    public var outputFolder: URL { output ?? site.defaultOutput }
}

/// What a build did, for the summary and for tests.
public struct BuildReport: Sendable {
    public var filesRead: [String] = []
    public var entriesRead = 0
    public var cardsShown = 0
    public var skipped: [SkipReason: Int] = [:]
    public var feeds: [(feed: Feed, cards: Int, pages: Int)] = []
    /// What each rule of cardfeed.yml did: its name and place, and the ids of the cards it matched.
    public var rules: [(name: String, location: String, ids: [String])] = []
    public var pagesRendered = 0
    /// The base URL feeds and the sitemap were written for; nil when there was none.
    public var syndicatedFor: String?
    public var filesWritten = 0
    /// Files of the previous output left as they were, the build having produced the same bytes.
    public var filesUnchanged = 0
    /// Files of the previous output that this build no longer produces, removed.
    public var filesRemoved: [String] = []
    public var output: URL?
    public var diagnostics = Diagnostics()
    public var stepSeconds: [(step: String, seconds: Double)] = []

    public var succeeded: Bool { !diagnostics.hasErrors }
}

/// The build failed; nothing was written. The report holds the errors.
public struct BuildFailure: Error {
    public var report: BuildReport
}

/// A build as a short, named pipeline over plain values:
/// load (files -> cards) -> select (filter, sort, group, paginate) -> render (cmark, Mustache)
/// -> write (a fresh folder swapped in, or only the changed files replaced).
public struct SiteBuilder: Sendable {
    public let options: BuildOptions
    let logger: Logger

    public init(options: BuildOptions, logger: Logger = Logger(label: "cardfeed")) {
        self.options = options
        self.logger = logger
    }

    public func run() throws(BuildFailure) -> BuildReport {
        var report = BuildReport()
        let steps = options.write ? 4 : 3
        let site = options.site
        guard site.exists else {
            let diagnostic = Diagnostic(.error, file: site.display(site.root), message: "no such site folder (create one with `cardfeed init \(site.display(site.root))`)")
            emit(diagnostic)
            report.diagnostics.append(diagnostic)
            throw fail(report)
        }

        // 0. Configuration, strings and templates: what the cards are read and shown with.
        let config = ConfigLoader(site: site).load(into: &report.diagnostics)
        let baseURL = checkedBaseURL(config, &report.diagnostics)
        let locale = options.locale ?? config.locale ?? StringTable.defaultLocale
        let strings = StringTable.load(locale: locale, site: site, diagnostics: &report.diagnostics)
        let templates = TemplateSet.load(site: site, diagnostics: &report.diagnostics)
        for (path, reason) in site.skippedEntries() {
            report.diagnostics.append(Diagnostic(.warning, file: path, message: reason))
        }

        // 1. Load
        options.incremental?.beginBuild()
        var loader = CardLoader(site: site, linkSchemes: config.links.linkSchemes)
        loader.incremental = options.incremental
        let loaded = step("Load cards", 1, of: steps, &report.stepSeconds) { (progress: ProgressReport?) -> LoadedCards in
            if let progress { loader.progress = { entries, fraction in progress(entries, nil, "entries", fraction) } }
            return loader.load()
        } detail: {
            "\($0.entriesRead) \($0.entriesRead == 1 ? "entry" : "entries") from \($0.files.count) file\($0.files.count == 1 ? "" : "s")"
        }
        defer { if options.processEndsAfterBuild { LeftToExit.keep(loaded.cards) } }
        report.filesRead = loaded.files
        report.entriesRead = loaded.entriesRead
        report.skipped = loaded.skipped
        report.diagnostics.append(contentsOf: loaded.diagnostics)

        // 2. Select: the site's rules, then Braze's rules of what is shown, in which order.
        let selector = FeedSelector(now: options.now, pageSize: options.pageSize ?? config.pageSize ?? BuildOptions.defaultPageSize)
        let ruled = RuleEngine(rules: config.rules, decoder: loader.decoder()).apply(to: loaded.cards, cardsComplete: !loaded.diagnostics.hasErrors)
        defer { if options.processEndsAfterBuild { LeftToExit.keep(ruled.cards) } }  // a new array when the site has rules
        ruled.diagnostics.forEach { report.diagnostics.append($0) }
        report.rules = ruled.matches.map { ($0.rule.name, $0.rule.location, $0.ids) }
        if ruled.hidden > 0 { report.skipped[.hiddenByRule] = ruled.hidden }
        if let templates { checkCardTemplates(ruled.cards, templates, &report.diagnostics) }

        report.diagnostics.locateCards()
        report.diagnostics = report.diagnostics.escalated(strict: options.strict)
        if options.write {
            let writer = SiteWriter(output: options.outputFolder)
            do { try writer.checkOutput(site: site) } catch {
                report.diagnostics.append(Diagnostic(.error, file: SiteFolder.display(options.outputFolder), message: error.description))
            }
        }
        for diagnostic in report.diagnostics.all {
            emit(diagnostic)
        }
        guard let templates, let strings, !report.diagnostics.hasErrors else { throw fail(report) }

        let selection = step("Select cards", 2, of: steps, &report.stepSeconds) { _ in
            selector.select(ruled.cards)
        } detail: {
            let hidden = $0.hidden.values.reduce(0, +) + ruled.hidden
            return "\($0.cards.count) shown in \($0.feeds.count) feeds" + (hidden > 0 ? ", \(hidden) hidden" : "")
        }
        for rule in report.rules where !rule.ids.isEmpty {
            logger.info("      \(rule.name) (\(rule.location)): \(rule.ids.count) card\(rule.ids.count == 1 ? "" : "s"): \(rule.ids.prefix(5).joined(separator: ", "))\(rule.ids.count > 5 ? ", …" : "")")
        }
        report.cardsShown = selection.cards.count
        report.skipped.merge(selection.hidden, uniquingKeysWith: +)
        report.feeds = selection.feeds.map { ($0.feed, $0.cards.count, $0.pages.count) }

        // 3. Render
        var assets = assetFiles()
        for (path, css) in [(GeneratedStyles.themeFile, GeneratedStyles.theme(config.theme)), (GeneratedStyles.cardStylesFile, GeneratedStyles.cards(selection.cards))] {
            guard let css else { continue }
            assets.removeAll { "assets/" + $0.path == path }
            assets.append((String(path.dropFirst("assets/".count)), false, OutputFile(path: path, content: .text(css))))
        }
        // SITE/static/: copied as they are to the output's root, where no generated file may be.
        let staticFiles = options.site.staticFiles()
        if !staticFiles.isEmpty {
            let collisions = staticCollisions(staticFiles, selection: selection, assets: assets.map(\.file.path), syndication: baseURL != nil)
            if !collisions.isEmpty {
                collisions.forEach { emit($0); report.diagnostics.append($0) }
                throw fail(report)
            }
        }
        let copiedStatic = staticFiles.map { OutputFile(path: $0, content: .copy(options.site.staticFolder.appendingPathComponent($0).resolvingSymlinksInPath())) }
        let assetPaths = Set(assets.map(\.path))
        let stylesheets = ["cardfeed.css", "theme.css", "card-styles.css", "custom.css"].filter(assetPaths.contains).map { "assets/" + $0 }
        let settings = RenderSettings(
            images: ImageURLs(
                assets: assetPaths, siteOverrides: Set(assets.filter(\.fromSite).map(\.path)), sizes: ImageSizes(folder: options.site.assetsFolder)),
            strings: strings, links: config.links, siteTitle: config.title, stylesheets: stylesheets,
            pageSize: selector.pageSize, baseURL: baseURL,
            contentSecurityPolicy: options.contentSecurityPolicy == true ? config.contentSecurityPolicy ?? ContentSecurityPolicy.builtin : config.contentSecurityPolicy,
            head: PageHead(config: config, baseURL: baseURL, assets: assetPaths, siteAssets: Set(assets.filter(\.fromSite).map(\.path))))
        var renderer = SiteRenderer(templates: templates, settings: settings)
        renderer.incremental = options.incremental
        renderer.batchSize = options.renderBatchSize
        var writer = SiteWriter(output: options.outputFolder)
        let pageCount = selection.feeds.reduce(0) { $0 + $1.pages.count }
        let rendered: [OutputFile]
        // A first build writes every page as the cards render, into the fresh output folder.
        var fresh: URL?
        var syndicationFiles = 0
        do {
            rendered = try step("Render pages", 3, of: steps, &report.stepSeconds) { (progress: ProgressReport?) -> [OutputFile] in
                let total = selection.cards.count
                if let progress { renderer.progress = { cards in progress(cards, total, "cards", Double(cards) / Double(max(total, 1))) } }
                // Each card is rendered once: into the pages themselves, or into a spool (a
                // file beside the output, or memory) that the pages copy from.
                let output: RenderedCards?
                if !options.write {
                    output = nil
                } else if let incremental = options.incremental {
                    output = CardSpool(capacity: incremental.spoolSize)  // a preview: in memory
                } else if writer.writesFresh {
                    let folder = try writer.beginFresh()
                    fresh = folder
                    output = try PageStreams(renderer.pageStreams(selection), in: folder.path)
                } else {
                    output = try CardSpool(folder: writer.workFolder())
                }
                let feedCards = baseURL == nil ? [] : Set(selection.feeds.flatMap { $0.cards[$0.pages.first ?? 0..<0] })
                let descriptions = try renderer.renderCards(selection.cards, into: output, keepDescriptions: feedCards)
                try (output as? PageStreams)?.finish()
                let spool = output as? CardSpool
                if let spool { options.incremental?.spoolSize = spool.size }
                guard output != nil else { return [] }
                let pages = spool.map { renderer.renderPages(selection, spool: $0) } ?? []
                guard let baseURL else { return pages }
                let syndication = Syndication(baseURL: baseURL, settings: settings).files(selection, descriptions: descriptions)
                syndicationFiles = syndication.count
                return pages + syndication
            } detail: { (_: [OutputFile]) in
                "\(selection.cards.count) cards, \(pageCount) pages" + (syndicationFiles == 0 ? "" : ", \(syndicationFiles) feed and sitemap files")
            }
        } catch {
            if let fresh { writer.abandon(fresh: fresh) }
            let diagnostic = (error as? TemplateFailure).map { failure in
                var diagnostic = Diagnostic(
                    .error, file: failure.card?.source.file ?? "templates", cardIndex: failure.card?.source.index, cardID: failure.card?.id,
                    message: failure.message)
                diagnostic.cardOffset = failure.card?.source.offset
                return diagnostic
            } ?? Diagnostic(.error, file: SiteFolder.display(writer.output), message: "\(error)")
            emit(diagnostic)
            report.diagnostics.append(diagnostic)
            throw fail(report)
        }
        report.pagesRendered = pageCount
        report.syndicatedFor = baseURL
        let pages = rendered

        // 4. Write
        guard options.write else {
            if let fresh { writer.abandon(fresh: fresh) }
            return report
        }
        do {
            let counts = try step("Write \(SiteFolder.display(writer.output))", 4, of: steps, &report.stepSeconds) { (progress: ProgressReport?) -> SiteWriter.Counts in
                let files = pages + assets.sorted { $0.path < $1.path }.map(\.file) + copiedStatic
                let total = files.count
                if let progress { writer.progress = { done in progress(done, total, "files", Double(done) / Double(total)) } }
                if let fresh { return try writer.write(files, intoFresh: fresh, alreadyWritten: pageCount) }
                guard let state = options.incremental else { return try writer.write(files) }
                let written = try writer.update(files, state: state)
                state.endBuild(filesWritten: written)
                return SiteWriter.Counts(written: written)
            } detail: { (counts: SiteWriter.Counts) in
                "\(counts.written) files written" + (counts.unchanged > 0 ? ", \(counts.unchanged) unchanged" : "")
                    + (counts.removed.isEmpty ? "" : ", \(counts.removed.count) removed")
            }
            report.filesWritten = counts.written
            report.filesUnchanged = counts.unchanged
            report.filesRemoved = counts.removed
            report.output = writer.output
        } catch {
            let diagnostic = Diagnostic(.error, file: SiteFolder.display(writer.output), message: "\(error)")
            emit(diagnostic)
            report.diagnostics.append(diagnostic)
            throw fail(report)
        }
        return report
    }

    /// `--base-url`, else `base_url` of cardfeed.yml (checked there), normalised to end in "/".
    private func checkedBaseURL(_ config: SiteConfig, _ diagnostics: inout Diagnostics) -> String? {
        guard let url = options.baseURL else { return config.baseURL }
        guard let scheme = URLCheck.scheme(of: url), scheme == "http" || scheme == "https", CardView.host(of: url) != nil else {
            diagnostics.append(Diagnostic(.error, file: "--base-url", message: "\(Diagnostic.quoted(url)) is not an http or https address such as https://example.com/news/"))
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

    private func fail(_ report: BuildReport) -> BuildFailure { BuildFailure(report: report) }

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
        _ title: String, _ number: Int, of total: Int, _ timings: inout [(step: String, seconds: Double)],
        _ body: (ProgressReport?) throws -> T, detail: (T) -> String
    ) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        var report: ProgressReport?
        if let observer = options.progress {
            report = { done, of, unit, fraction in
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                observer.progress(StepProgress(step: number, steps: total, title: title, done: done, total: of, unit: unit, fraction: fraction, seconds: seconds))
            }
        }
        let result: T
        do {
            defer { options.progress?.stepEnded() }
            result = try body(report)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        timings.append((title, seconds))
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
