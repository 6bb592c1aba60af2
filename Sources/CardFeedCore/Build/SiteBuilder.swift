import Foundation
import Logging

/// What a build is asked to do.
public struct BuildOptions: Sendable {
    public var site: SiteFolder
    /// Defaults to `SITE/public`.
    public var output: URL?
    /// Unix seconds; cards that expire at or before it are hidden.
    public var now: Int64
    /// Cards a page; 0 puts each feed on one page.
    public var pageSize: Int
    /// Warnings count as errors.
    public var strict: Bool
    /// False for `cardfeed check`: everything but the writing.
    public var write: Bool
    public var siteTitle: String

    public static let defaultPageSize = 20

    public init(
        site: SiteFolder, output: URL? = nil, now: Int64 = Int64(Date().timeIntervalSince1970),
        pageSize: Int = BuildOptions.defaultPageSize, strict: Bool = false, write: Bool = true,
        siteTitle: String = "CardFeed"
    ) {
        self.site = site
        self.output = output
        self.now = now
        self.pageSize = pageSize
        self.strict = strict
        self.write = write
        self.siteTitle = siteTitle
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
    public var pagesRendered = 0
    public var filesWritten = 0
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
/// -> write (a fresh folder swapped in).
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
            let diagnostic = Diagnostic(.error, file: site.display(site.root), message: "no such site folder")
            logger.error("\(diagnostic)")
            report.diagnostics.append(diagnostic)
            throw fail(report)
        }

        // 1. Load
        let loaded = step("Load cards", 1, of: steps, &report.stepSeconds) {
            CardLoader(site: site).load()
        } detail: {
            "\($0.entriesRead) entries from \($0.files.count) file\($0.files.count == 1 ? "" : "s")"
        }
        report.filesRead = loaded.files
        report.entriesRead = loaded.entriesRead
        report.skipped = loaded.skipped
        report.diagnostics.append(contentsOf: loaded.diagnostics)
        let templates = TemplateSet.load(site: site, diagnostics: &report.diagnostics)
        report.diagnostics = report.diagnostics.escalated(strict: options.strict)
        let writer = SiteWriter(output: options.outputFolder)
        if options.write {
            do { try writer.checkOutput(site: site) } catch {
                report.diagnostics.append(Diagnostic(.error, file: SiteFolder.display(options.outputFolder), message: error.description))
            }
        }
        for diagnostic in report.diagnostics.all {
            if diagnostic.severity == .error { logger.error("\(diagnostic)") } else { logger.warning("\(diagnostic)") }
        }
        guard let templates, !report.diagnostics.hasErrors else { throw fail(report) }

        // 2. Select
        let selector = FeedSelector(now: options.now, pageSize: options.pageSize)
        let selection = step("Select cards", 2, of: steps, &report.stepSeconds) {
            selector.select(loaded.cards)
        } detail: {
            let hidden = $0.hidden.values.reduce(0, +)
            return "\($0.cards.count) shown in \($0.feeds.count) feeds" + (hidden > 0 ? ", \(hidden) hidden" : "")
        }
        report.cardsShown = selection.cards.count
        report.skipped.merge(selection.hidden, uniquingKeysWith: +)
        report.feeds = selection.feeds.map { ($0.feed, $0.cards.count, $0.pages.count) }

        // 3. Render
        let assets = assetFiles()
        let renderer = SiteRenderer(
            templates: templates,
            images: ImageURLs(assets: Set(assets.map(\.path)), siteOverrides: Set(assets.filter(\.fromSite).map(\.path))),
            siteTitle: options.siteTitle)
        let pages = step("Render pages", 3, of: steps, &report.stepSeconds) {
            renderer.renderPages(selection, cardHTML: renderer.renderCards(selection.cards))
        } detail: {
            "\(selection.cards.count) cards, \($0.count) pages"
        }
        report.pagesRendered = pages.count

        // 4. Write
        guard options.write else { return report }
        do {
            report.filesWritten = try step("Write \(SiteFolder.display(writer.output))", 4, of: steps, &report.stepSeconds) {
                try writer.write(pages + assets.map(\.file))
            } detail: {
                "\($0) files"
            }
            report.output = writer.output
        } catch {
            let diagnostic = Diagnostic(.error, file: SiteFolder.display(writer.output), message: "\(error)")
            logger.error("\(diagnostic)")
            report.diagnostics.append(diagnostic)
            throw fail(report)
        }
        return report
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
            files.append((path, true, OutputFile(path: "assets/" + path, content: .copy(options.site.assetsFolder.appendingPathComponent(path)))))
        }
        return files.sorted { $0.path < $1.path }
    }

    private func fail(_ report: BuildReport) -> BuildFailure { BuildFailure(report: report) }

    /// Runs one step, records its time and logs `[n/total] Title: detail`.
    private func step<T>(
        _ title: String, _ number: Int, of total: Int, _ timings: inout [(step: String, seconds: Double)],
        _ body: () throws -> T, detail: (T) -> String
    ) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        timings.append((title, seconds))
        logger.info("[\(number)/\(total)] \(title): \(detail(result))")
        return result
    }
}
