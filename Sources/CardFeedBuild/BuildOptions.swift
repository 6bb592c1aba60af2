import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedRender

/// What a build is asked to make. Where it goes is the `BuildDestination` the command gives
/// `SiteBuilder`.
public struct BuildOptions: Sendable {
    public var site: SiteFolder
    /// What the command line says of the site's settings (the build's time, page size, locale,
    /// base URL, CSP, search, strictness), applied to cardfeed.yml's as it is read: the build
    /// reads every setting from the resulting `SiteConfig`.
    public var overrides: SettingOverrides
    /// Cards rendered at a time (tests make it small, to run many batches through few cards).
    var renderBatchSize = SiteRenderer.defaultBatchSize
    /// Told how far the load, render and write steps are, batch by batch (a terminal's progress
    /// line).
    public var progress: (any BuildProgressObserver)?
    /// Given the warnings and errors as the build finds them, in order, instead of the logger
    /// (`--diagnostics json`, `serve`'s report of what changed): a batch at a time, all those
    /// found before the build's checkpoint at once, so that a terminal can say those that
    /// repeat card after card once (`Diagnostics.summarisedLines`).
    public var diagnosticHandler: (@Sendable ([Diagnostic]) -> Void)?
    /// Given what the build held, once it is done with it (the cards as read and as the rules
    /// left them, the selections and the output; with a cache, its index, the output's pages
    /// before the build and those it keeps for the next): a command that ends with its build
    /// keeps it to the process's exit (`LeftToExit`), which hands its memory back at once, where
    /// freeing it string by string as the build returns would keep the user waiting (at 100,000
    /// cards, the cache's alone took 0.04 s). Nil (`serve`, the tests) frees it then.
    public var whenDone: (@Sendable (_ leftovers: any Sendable) -> Void)?
    /// Where the build keeps what the next one reuses, and finds what the last one kept
    /// (`--cache-dir`, `cache_dir:`, by default `SITE/.cardfeed-cache/`); nil with `--no-cache`.
    public var cache: BuildCacheFolder?

    public init(site: SiteFolder, overrides: SettingOverrides = SettingOverrides()) {
        self.site = site
        self.overrides = overrides
    }

    /// The options most tests give, by name.
    public init(
        site: SiteFolder, now: WrittenTime, pageSize: Int? = nil, locale: String? = nil, baseURL: String? = nil, strict: Bool = false,
        contentSecurityPolicy: Bool = false, search: Bool = false
    ) {
        var overrides = SettingOverrides([.now: now])
        overrides[.pageSize] = pageSize
        overrides[.locale] = locale
        overrides[.baseURL] = baseURL
        if strict { overrides[.strict] = true }
        if contentSecurityPolicy { overrides[.contentSecurityPolicy] = true }
        if search { overrides[.search] = true }
        self.init(site: site, overrides: overrides)
    }
}

/// What a build did, for the summary and for tests.
public struct BuildReport: Sendable {
    public var filesRead: [String] = []
    public var entriesRead = 0
    /// Card entries shown, each once (on a site in several languages, in one tree or more).
    public var cardsShown = 0
    public var skipped: [SkipReason: Int] = [:]
    /// The first ids of the cards not shown for each reason (none for entries without a usable id).
    public var skippedIDs = SkippedExamples()
    public var feeds: [(feed: Feed, cards: Int, pages: Int)] = []
    /// What each rule of cardfeed.yml did: its name and place, and the ids of the cards it matched.
    public var rules: [(name: String, location: String, ids: [String])] = []
    public var pagesRendered = 0
    /// The base URL feeds and the sitemap were written for; nil when there was none.
    public var syndicatedFor: String?
    /// Files written: new, or different from the previous output's.
    public var filesWritten = 0
    /// Files of the previous output left as they were, the build having produced the same bytes.
    public var filesUnchanged = 0
    /// Whether the output held a previous build to compare the files with.
    public var comparedWithPrevious = false
    /// Files of the previous output that this build no longer produces, removed.
    public var filesRemoved: [String] = []
    /// With a cache (`BuildOptions.cache`), the cards taken from it rather than rendered; nil
    /// without one.
    public var cardsReused: Int?
    /// Why the cache was not used, or not kept, when it was asked for: one line for the summary
    /// (never an error: the build goes on without it).
    public var cacheNote: String?
    public var output: URL?
    public var diagnostics = Diagnostics()
    public var stepSeconds: [(step: String, seconds: Double)] = []
    /// The whole build's time, from its start to its end: the steps', and what is done between
    /// them (reading the settings and templates, the rules and checks, the cache's keys, keeping
    /// the cache). Nil until the build has ended.
    public var seconds: Double?
    /// The steps the build prints a line for (`SiteBuilder.numberedSteps`), once its
    /// configuration is read.
    var steps: [BuildStep.Name] = []
    /// With search into an output updated in place (`serve`'s, which shows an edit before its
    /// index is made), the cards to index, which the build leaves to its caller; nil otherwise.
    public var searchIndex: SearchIndex?
    /// The output has a search index (and so pages with a search box, which works only over http(s)).
    public var searchable = false
    /// With `placements:`, each language's tree that has them (one for a site in one language),
    /// the default language's first: what `serve` previews.
    public var placementTrees: [PlacementTree] = []

    public var succeeded: Bool { !diagnostics.hasErrors }
}

/// A language's tree that has the site's placements, under `folder/embed/` (`PlacementFiles`).
public struct PlacementTree: Sendable, Equatable {
    /// Its language tag ("de"); nil for a site in one language.
    public var language: String?
    /// The language's name in its own words ("Deutsch"), its strings' `languageName`.
    public var languageName: String
    /// The tree's folder: "" for the root's, else "de".
    public var folder: String

    package init(language: String?, languageName: String, folder: String) {
        self.language = language
        self.languageName = languageName
        self.folder = folder
    }
}

/// The build failed; nothing was written. The report holds the errors.
public struct BuildFailure: Error {
    public var report: BuildReport
}
