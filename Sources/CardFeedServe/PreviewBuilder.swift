import Foundation
import Logging
import Synchronization
import CardFeedBuild
import CardFeedModel
import CardFeedWrite

/// Builds the site for `serve` into a private temporary folder and remembers the errors of a
/// failed build (which the open pages show). Rebuilds are incremental: cards that did not
/// change are not rendered again and files that did not change are not written again; a
/// failed build writes nothing, so the last good pages stay served.
public final class PreviewBuilder: Sendable {
    /// What the server shows now.
    public struct State: Sendable {
        /// The folder of the last good build; nil until a build has succeeded.
        public var root: URL?
        /// Counts good builds; pages carry the one they came from so they know when to reload.
        public var generation = 0
        /// The errors of the latest build, when it failed; empty after a good one.
        public var errors: [Diagnostic] = []
        /// The files the last good build wrote or removed, relative to `root`.
        public var changed: [String] = []
        /// The language trees of the last good build that have placements (`PlacementsPreview`).
        public var placementTrees: [PlacementTree] = []
    }

    public enum BuildOutcome: Sendable {
        case built(BuildReport, seconds: Double)
        case failed([Diagnostic], seconds: Double)
    }

    public let options: BuildOptions
    /// The private folder the builds go to; removed by `removeWorkFolder()`.
    public let workFolder: URL
    private let logger: Logger
    private let state = Mutex(State())
    /// What the previous build decoded and rendered, reused by the next.
    private let reuse: ReuseCaches
    /// The folder the builds go to, updated in place: only what changed is written.
    private let output: InPlaceOutput
    /// With search, what the index reads of the card pages (see `CardPages`), updated the same way.
    private let searchDocuments: InPlaceOutput
    /// Builds run one at a time, off Swift's cooperative threads (they are CPU-bound).
    private let queue = DispatchQueue(label: "cardfeed.serve.build")
    /// With search, the index, made after each good build is served.
    let search: PreviewSearch

    /// The builds go to a private temporary folder. `onSearchIndexed` is called when a new
    /// search index is in place.
    public init(options: BuildOptions, logger: Logger, onSearchIndexed: @escaping @Sendable () -> Void = {}) throws {
        self.options = options
        // Not from a cache where a build may not keep it, which each build refuses (`misplacement`).
        let cache = options.cache.flatMap { $0.misplacement(site: options.site, output: options.site.defaultOutput) == nil ? $0 : nil }
        reuse = cache.map { ReuseCaches.startingFrom($0, site: options.site.root) } ?? ReuseCaches()
        self.logger = logger
        workFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardfeed-serve-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        // Private: it holds the builds and the HTTP server's Unix socket.
        try FileManager.default.createDirectory(at: workFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        output = InPlaceOutput(folder: workFolder.appendingPathComponent("site", isDirectory: true).standardizedFileURL)
        searchDocuments = InPlaceOutput(folder: workFolder.appendingPathComponent("search-documents", isDirectory: true).standardizedFileURL)
        search = PreviewSearch(
            folder: workFolder.appendingPathComponent("search", isDirectory: true).standardizedFileURL,
            runFolder: workFolder.appendingPathComponent("pagefind-run", isDirectory: true).standardizedFileURL,
            logger: logger, onIndexed: onSearchIndexed)
    }

    public var current: State { state.withLock { $0 } }

    /// Builds once; on success the new build is served from then on. `logger` replaces the
    /// builder's own for this build (rebuilds print only warnings and errors).
    public func build(logger: Logger? = nil) async -> BuildOutcome {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.buildNow(logger: logger ?? self.logger)) }
        }
    }

    /// The warnings of the last good build, to print after the next one only those that are new
    /// and those that went away (a save must not reprint every warning of the site). Touched
    /// only by the builds, which `queue` runs one at a time. Each kind's (`WarningIdentity`), as
    /// many as there were: two cards of one id in one file can have the same warning.
    private let lastWarnings = Mutex<[WarningIdentity: [Diagnostic]]?>(nil)

    private func buildNow(logger: Logger) -> BuildOutcome {
        var options = self.options
        // Errors are reported as they come; warnings once the build is over, compared with the
        // last good build's.
        let report = self.options.diagnosticHandler ?? logger.report
        let warnings = WarningList()
        options.diagnosticHandler = { diagnostics in
            let errors = diagnostics.filter { $0.severity == .error }
            if !errors.isEmpty { report(errors) }
            diagnostics.filter { $0.severity != .error }.forEach(warnings.append)
        }
        let previous = lastWarnings.withLock { $0 }
        var succeeded = false
        defer {
            // A failed build may have stopped before some checks: only its new warnings are
            // printed, and none counts as resolved.
            let current = warnings.all
            // New: those of a kind beyond as many as the last build had.
            var seen: [WarningIdentity: Int] = [:]
            let new = current.filter { warning in
                let identity = WarningIdentity(warning)
                seen[identity, default: 0] += 1
                return seen[identity, default: 0] > previous?[identity]?.count ?? 0
            }
            if !new.isEmpty { report(new) }
            if succeeded, let previous {
                // In the files' order, as the build found them, so that a summary's place and first
                // cards are the first in its file.
                let resolved = previous.flatMap { identity, warnings in warnings.dropFirst(seen[identity] ?? 0) }.sorted {
                    ($0.file, $0.line ?? 0, $0.column ?? 0, $0.description) < ($1.file, $1.line ?? 0, $1.column ?? 0, $1.description)
                }
                for (_, text) in Diagnostics.summarisedLines(resolved) { self.logger.info("Resolved: \(text)") }
            }
        }
        // A search index under way would share the cores with this build (see `PreviewSearch`).
        search.buildStarting()
        let start = ContinuousClock.now
        let outcome: BuildOutcome
        do {
            let report = try SiteBuilder(options: options, destination: .inPlace(output, searchDocuments: searchDocuments), reusing: reuse, logger: logger).run()
            let seconds = Self.seconds(since: start)
            let changed = output.lastChanged
            state.withLock { state in
                state.root = output.folder
                state.generation += 1
                state.errors = []
                state.changed = changed
                state.placementTrees = report.placementTrees
            }
            if let index = report.searchIndex { search.handOver(index, changed: searchDocuments.lastChanged) }
            let kept = Dictionary(grouping: warnings.all, by: WarningIdentity.init)
            lastWarnings.withLock { $0 = kept }
            succeeded = true
            outcome = .built(report, seconds: seconds)
        } catch {
            let seconds = Self.seconds(since: start)
            let errors = error.report.diagnostics.errors
            state.withLock { $0.errors = errors }
            search.buildFailed()
            outcome = .failed(error.report.diagnostics.errors, seconds: seconds)
        }
        return outcome
    }

    /// Stops the search index under way, if any, then removes the work folder.
    public func removeWorkFolder() {
        search.close()
        queue.sync { try? FileManager.default.removeItem(at: workFolder) }
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// A warning as serve tells it from the last build's: a card's warning by the card's id rather
/// than its place in the file, and without the number of another card it names ("same id as
/// cards.json: card 2"), so that a save that moves cards (one above them grew, or came) prints
/// their warnings neither as new nor as resolved. Any other warning by all it says.
struct WarningIdentity: Hashable {
    private let diagnostic: Diagnostic

    init(_ diagnostic: Diagnostic) {
        var diagnostic = diagnostic
        if diagnostic.cardID != nil {
            (diagnostic.line, diagnostic.column, diagnostic.cardIndex, diagnostic.cardOffset) = (nil, nil, nil, nil)
            diagnostic.message = Self.withoutCardNumbers(diagnostic.message)
        }
        self.diagnostic = diagnostic
    }

    /// `message` with the digits after each "card " left out: "card 2" is "card ".
    static func withoutCardNumbers(_ message: String) -> String {
        var result = ""
        var rest = message[...]
        while let found = rest.range(of: "card ") {
            result += rest[..<found.upperBound]
            rest = rest[found.upperBound...].drop { $0.isASCII && $0.isNumber }
        }
        return result + rest
    }
}

/// Warnings collected during one build, from whichever thread reports them.
private final class WarningList: Sendable {
    private let list = Mutex<[Diagnostic]>([])

    func append(_ diagnostic: Diagnostic) { list.withLock { $0.append(diagnostic) } }

    /// In the order reported, each once.
    var all: [Diagnostic] {
        list.withLock { list in
            var seen = Set<Diagnostic>()
            return list.filter { seen.insert($0).inserted }
        }
    }
}
