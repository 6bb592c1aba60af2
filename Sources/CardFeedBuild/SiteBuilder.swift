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
    /// With `options.cache`, the cache on disk that `reuse` was filled from, and that the build
    /// replaces once its output is in place.
    private(set) var cache: BuildCache?
    /// With `cache`, where the cards this build makes go as they render.
    private(set) var cardsWriter: CardsFileWriter?
    /// With `cache` and an output folder, the cache's twin of the output, walked while the build
    /// reads its cards (see `TwinFolder`).
    private(set) var twin: TwinFolder?
    let logger: Logger

    public init(options: BuildOptions, destination: BuildDestination, reusing reuse: ReuseCaches? = nil, logger: Logger = Logger(label: "cardfeed")) {
        self.options = options
        self.destination = destination
        self.reuse = reuse
        self.logger = logger
    }

    /// The steps of a build, in order, each with its name, its line, when it runs and what it
    /// does over what the steps before it made (`BuildState`). `run` takes every step that the
    /// build runs; `check`, whose output keeps nothing, the same list without its last three (the
    /// index, the write step and keeping the cache); `explain`, the steps before the checkpoint (`explainedSteps`).
    static let steps: [BuildStep] = [
        BuildStep(.configure) { builder, state, report throws(BuildFailure) in
            state.configuration = try builder.configure(&report)
        },
        BuildStep(.load, title: { _ in "Load cards" }) { builder, state, report in
            state.loaded = builder.load(state.configuration!, &report, following: state.following)
            // Written while the rules and the selection take one core.
            builder.cardsWriter?.writeKeptEntries()
        },
        BuildStep(.rules) { builder, state, report in
            // Opened on a thread of its own while the rules, checks and selection take one core.
            state.openingOutput = builder.openingOutput()
            state.ruled = builder.applyRules(state.loaded!, state.configuration!, &report)
            // Its messages located, the build lets go of the card files' bytes.
            state.loaded!.fileBytes = [:]
        },
        BuildStep(.checkpoint) { builder, state, report throws(BuildFailure) in
            state.setup = try builder.checkpoint(state.configuration!, &report)
        },
        BuildStep(.select, title: { _ in "Select cards" }) { builder, state, report throws(BuildFailure) in
            state.selections = builder.select(state.ruled!, state.setup!, &report)
            try builder.refuseWarningsIfStrict(state.setup!.config, &report)
        },
        BuildStep(.render, title: { _ in "Render pages" }) { builder, state, report throws(BuildFailure) in
            let plan = builder.renderPlan(state.selections, state.setup!)
            let output = try builder.openOutput(state.openingOutput, &report)
            state.output = output
            let site = try builder.render(plan, state.setup!, into: output, &report)
            state.site = site
            // Into a folder updated in place (`serve`'s, which shows an edit before its index is
            // made), the cards to index are left to the build's caller.
            if case .inPlace = builder.destination { report.searchIndex = site.search }
        },
        // Made in the build only into a folder replaced as a whole.
        BuildStep(.index, title: { _ in "Index for search" }, runs: { builder, search in if case .folder = builder.destination { search } else { false } }) { builder, state, report throws(BuildFailure) in
            try builder.index(state.site!.search, into: &state.site!, state.output!, &report)
        },
        // None for `check`, whose output keeps nothing.
        BuildStep(.write, title: { "Write \($0.destination.folder.map(SiteFolder.display) ?? "memory")" }, runs: { builder, _ in builder.writes }) { builder, state, report throws(BuildFailure) in
            try builder.write(state.site!, into: state.output!, &report)
        },
        // With a cache, once the output is in place (`check`: its cards only).
        BuildStep(.keep, runs: { builder, _ in builder.cache != nil }) { builder, state, report in
            builder.keepCache(state, &report)
        },
    ]

    /// The steps `explain` runs: those before the checkpoint, which it does not stop at (it
    /// explains a card of a site with errors too), and no step after it.
    static let explainedSteps = steps.prefix { $0.name != .checkpoint }

    public func run() throws(BuildFailure) -> BuildReport {
        let start = DispatchTime.now().uptimeNanoseconds
        var report = try runWithItsCache()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return report
    }

    private func runWithItsCache() throws(BuildFailure) -> BuildReport {
        // A build into a folder, and `check`, keep a cache on disk; serve keeps its own in memory
        // (and starts from the disk's, `ReuseCaches.startingFrom`). A cache where the build may
        // not keep it (`misplacement`) is never opened: the configure step refuses it with an
        // error at the setting that put it there.
        guard let folder = options.cache, reuse == nil, destination.keepsCache,
              folder.misplacement(site: options.site, output: cacheCheckedOutput) == nil else { return try run(BuildReport()) }
        let (opened, note) = BuildCache.open(folder, site: options.site.root)
        defer { opened?.release() }
        var twin: TwinFolder?
        defer { options.whenDone?((opened, twin)) }
        var report = BuildReport()
        report.cacheNote = note
        var cache = opened, writer: CardsFileWriter?
        do {
            writer = try opened?.cardsWriter()
        } catch {
            report.cacheNote = opened?.cannotKeep(error)
            cache = nil
        }
        // Before the lock is let go (a build that ends early, before keeping the cache).
        defer { writer?.waitForKeptEntries() }
        // Without a cache that can be kept, the build is a build without one: no keys made.
        let caches = cache.map { ReuseCaches(cardsFrom: $0, keepingIn: writer) }
        var builder = SiteBuilder(options: options, destination: destination, reusing: caches, logger: logger)
        builder.cache = cache
        builder.cardsWriter = writer
        if let cache, case .folder = destination { twin = TwinFolder(path: cache.folder.twinPath) }
        builder.twin = twin
        return try builder.run(report)
    }

    private func run(_ report: BuildReport) throws(BuildFailure) -> BuildReport {
        var report = report
        var state = BuildState()
        reuse?.beginBuild()
        defer {
            // The search documents and Pagefind's index, beside the output, are gone once it is written.
            if let scratch = (state.output as? OutputTransaction)?.scratchFolder { try? FileManager.default.removeItem(atPath: scratch) }
            // An output opened for a build that ends before it renders is let go of, as is one
            // the build did not put in place (once it did, nothing is left to let go of).
            if state.output == nil, case .success(let transaction)? = state.openingOutput?.value { transaction.abandon() }
            (state.output as? OutputTransaction)?.abandon()
            // The output's record of its 117,000 files and the selections, freed file by file
            // and page by page, kept the user waiting a fiftieth of a second.
            options.whenDone?((state.loaded?.cards, state.ruled?.cards, state.output, state.selections))
        }
        try run(Self.steps, &state, &report)
        reuse?.endBuild()
        return report
    }

    /// Runs each of `steps` that this build runs, in order, over `state`.
    func run(_ steps: some Sequence<BuildStep>, _ state: inout BuildState, _ report: inout BuildReport) throws(BuildFailure) {
        for step in steps where step.runs(self, state.configuration?.config.search != nil) {
            try step.body(self, &state, &report)
        }
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
    var writes: Bool {
        if case .discarded = destination { false } else { true }
    }

    /// The steps this build prints a line for, in order, which number them ("[2/4] Select
    /// cards: ..."): those it runs that have a title.
    func numberedSteps(search: Bool) -> [BuildStep.Name] {
        Self.steps.filter { $0.title != nil && $0.runs(self, search) }.map(\.name)
    }

    /// A diagnostic about a card found after the others were located (`applyRules`), with its
    /// line and column.
    func located(_ diagnostic: Diagnostic) -> Diagnostic {
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
    func record(_ diagnostics: [Diagnostic], in report: inout BuildReport) {
        emit(diagnostics)
        diagnostics.forEach { report.diagnostics.append($0) }
    }

    /// Warnings and errors, to the handler the options name, else to the logger.
    func emit(_ diagnostics: [Diagnostic]) {
        guard !diagnostics.isEmpty else { return }
        if let handler = options.diagnosticHandler { return handler(diagnostics) }
        logger.report(diagnostics)
    }

    /// Reports a step's progress: things done, of how many if known, what they are, the share done.
    typealias ProgressReport = @Sendable (_ done: Int, _ total: Int?, _ unit: String, _ fraction: Double) -> Void

    /// Runs one step, records its time and logs `[n/total] Title: detail`. The body is handed a
    /// way to report its progress when the build has a progress observer.
    func step<T>(
        _ step: BuildStep.Name, _ report: inout BuildReport,
        _ body: (ProgressReport?) throws -> T, detail: (T) -> String
    ) rethrows -> T {
        if report.steps.isEmpty { report.steps = numberedSteps(search: false) }  // `explain`, which does not configure through `run`
        let title = Self.steps.first { $0.name == step }?.title?(self) ?? "\(step)"
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
