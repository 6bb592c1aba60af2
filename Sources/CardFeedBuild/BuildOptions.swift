import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedRender

/// What a build is asked to make. Options left nil come from cardfeed.yml, else their defaults.
/// Where it goes is the `BuildDestination` the command gives `SiteBuilder`.
public struct BuildOptions: Sendable {
    public var site: SiteFolder
    /// The build's time: cards that expire at or before it are hidden, cards created after it are
    /// future cards (see `FutureCards`). A time without an offset is on the site's clocks.
    public var now: WrittenTime
    /// Cards a page, on average (see `PageEnds`); 0 puts each feed on one page.
    public var pageSize: Int?
    public var locale: String?
    /// The address the site is published at; with it, feeds and a sitemap are written too.
    public var baseURL: String?
    /// Warnings count as errors.
    public var strict: Bool
    /// True puts a Content Security Policy in every page (the site's own from cardfeed.yml, else
    /// the built-in one); nil leaves it to `csp` in cardfeed.yml.
    public var contentSecurityPolicy: Bool?
    /// True indexes every card for search and gives the pages a search box (as `search: true`
    /// in cardfeed.yml does); nil leaves it to cardfeed.yml.
    public var search: Bool?
    /// Whether the build runs Pagefind itself or leaves its cards to index in the report.
    public var searchIndexing = SearchIndexing.inBuild
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
        site: SiteFolder, now: WrittenTime = .current,
        pageSize: Int? = nil, locale: String? = nil, baseURL: String? = nil, strict: Bool = false,
        contentSecurityPolicy: Bool? = nil, search: Bool? = nil
    ) {
        self.site = site
        self.now = now
        self.pageSize = pageSize
        self.locale = locale
        self.baseURL = baseURL
        self.strict = strict
        self.contentSecurityPolicy = contentSecurityPolicy
        self.search = search
    }
}

/// Where a build with search makes its index.
public enum SearchIndexing: Sendable {
    /// A step of the build, before the write step commits the output (`build`, `check`).
    case inBuild
    /// Left to the caller, as `BuildReport.searchIndex` (`serve`, which shows an edit before
    /// its index is made).
    case handedOver
}

/// What a build did, for the summary and for tests.
public struct BuildReport: Sendable {
    public var filesRead: [String] = []
    public var entriesRead = 0
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
    public var output: URL?
    public var diagnostics = Diagnostics()
    public var stepSeconds: [(step: String, seconds: Double)] = []
    /// How many steps the build has (`SiteBuilder.stepCount`), once its configuration is read.
    var stepCount = 0
    /// With search and `SearchIndexing.handedOver`, the cards to index; nil otherwise.
    public var searchIndex: SearchIndex?
    /// The cards as read and as the rules left them, alive as long as the report: a command
    /// that ends with its build can leave them to the process's exit, which hands the memory
    /// back at once (freed one by one, a million cards took half a second).
    public internal(set) var cards: [[Card]] = []

    public var succeeded: Bool { !diagnostics.hasErrors }
}

/// The build failed; nothing was written. The report holds the errors.
public struct BuildFailure: Error {
    public var report: BuildReport
}
