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
    var writes: Bool {
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
