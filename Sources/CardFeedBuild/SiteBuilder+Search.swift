import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem
import CardFeedRender
import CardFeedWrite

/// The build's part in search (`search: true`, `--search`): Pagefind is found while the
/// configuration is read, so that its absence is an error reported with the others before any
/// card is rendered; the cards are indexed after the pages are rendered, and the index goes
/// into the output before the write step commits it, so that a failed index fails the build
/// and leaves the previous output as it was.
extension SiteBuilder {
    /// `--search`, else `search:` in cardfeed.yml.

    /// The Pagefind found, or an error at `--search` or at cardfeed.yml's `search:`: search
    /// indexes the card pages, so a site without them (`card_pages: false`) cannot have it; and
    /// Pagefind must be installed (the error says where it was looked for and how to install it).
    /// A rebuild uses the Pagefind the previous build found.
    func locatePagefind(_ config: SiteConfig, _ diagnostics: inout Diagnostics) -> Pagefind? {
        func report(_ severity: Diagnostic.Severity, _ message: String) {
            if config.search?.fromCommandLine == true {
                diagnostics.append(Diagnostic(severity, file: "--search", message: message))
            } else {
                let file = options.site.display(options.site.root.appendingPathComponent(SiteConfig.fileName))
                diagnostics.append(Diagnostic(severity, file: file, line: config.search?.line, column: config.search?.column, field: "search", message: message))
            }
        }
        func error(_ message: String) { report(.error, message) }
        guard config.cardPages else {
            error("search needs the card pages, which it indexes, but cardfeed.yml has card_pages: false; remove one of them")
            return nil
        }
        if let found = reuse?.pagefind.withLock({ $0 }) { return found }
        // A build's signals end a probe that hangs (the time limit ends it too), and then the
        // build, by the same signal; serve has its own.
        let signals: PagefindSignals? = if case .inPlace = destination { nil } else { .shared }
        let located = Pagefind.locate(signals: signals)
        signals?.endProcessIfSignalled()
        switch located {
        case .success(let pagefind):
            reuse?.pagefind.withLock { $0 = pagefind }
            if let warning = pagefind.unpinnedWarning { report(.warning, warning) }
            return pagefind
        case .failure(let notFound):
            error(notFound.description)
            return nil
        }
    }

    /// The Content Security Policy of the pages: with search, the built-in policy also allows
    /// WebAssembly, which Pagefind's search runs in ('wasm-unsafe-eval', which lets a page
    /// compile WebAssembly, not run text as script); a site's own policy is its own to extend.
    func contentSecurityPolicy(_ setup: Setup) -> String? {
        let policy = setup.config.contentSecurityPolicy
        guard setup.pagefind != nil, policy == ContentSecurityPolicy.builtin else { return policy }
        return ContentSecurityPolicy.builtinWithSearch
    }

    /// Where the card pages' search documents go, which the index reads (see `CardPages`): a
    /// build's go into its scratch folder beside the output, but for the `unneeded` ones (see
    /// `SearchPlan`), and serve's into its own folder, updated in place; `check` and memory
    /// keep none, but render them all the same, to meet the errors a build would.
    func searchDocuments(_ output: any OutputTarget, unneeded: Set<String>, _ report: inout BuildReport) throws(BuildFailure) -> any OutputTarget {
        switch destination {
        case .folder:
            guard let transaction = output as? OutputTransaction else { return DiscardedOutput() }
            do {
                return try ScratchFolderOutput(folder: transaction.scratchFolder + "/" + Self.searchDocumentsFolder, unneeded: unneeded)
            } catch {
                output.abandon()
                throw fail(&report, Diagnostic(.error, file: Pagefind.folder + "/", message: "cannot create a folder for the search documents: \(error)"))
            }
        case .inPlace(_, let searchDocuments?):
            // What a build that failed had put there is forgotten.
            searchDocuments.abandon()
            return searchDocuments
        case .inPlace, .memory, .discarded:
            return DiscardedOutput()
        }
    }

    /// What the build knows of its search index before the cards render: the index of the
    /// cards' documents over each tree that has cards, in its language (see `SearchIndex.trees`),
    /// and, with a cache, which of its parts the output has as the last build made them.
    struct SearchPlan {
        /// The index, but for the folder its documents are in.
        var index: SearchIndex
        /// The documents of the parts kept, which need not be written.
        var unneededDocuments: Set<String> = []

        func index(documentsIn folder: String) -> SearchIndex {
            var index = index
            index.site = folder
            return index
        }
    }

    /// The search index of `selections`' cards, cut into parts by their pages' paths (see
    /// `SearchParts`). With `keys` (a cache), a part whose documents and their keys are all the
    /// same as the last build's is kept, when the output still has its files as that build made
    /// them or else the cache has them: its documents are not written, and Pagefind does not
    /// index it again.
    func searchPlan(_ selections: [Selection], keys: [RenderKeys?], _ setup: Setup, _ output: any OutputTarget) -> SearchPlan? {
        guard let pagefind = setup.pagefind else { return nil }
        let withCards = selections.indices.filter { !selections[$0].cards.isEmpty }
        let trees = withCards.map { SearchIndex.Tree(folder: setup.trees[$0].tree.folder, language: setup.trees[$0].strings.locale) }
        let documents: [[(path: String, key: Int?)]] = withCards.map { tree in
            if let keys = keys[tree] { return keys.cardPages.map { ($0.path, $0.key) } }
            let selection = selections[tree]
            return selection.cards.indices.map { (PagePaths.cardPage(anchor: selection.cards.anchor(at: $0), tree: selection.tree), nil) }
        }
        var plan = SearchPlan(index: SearchIndex(pagefind: pagefind, site: "", trees: trees, count: withCards.reduce(0) { $0 + selections[$1].cards.count }))
        let parts = SearchParts(documents.map { $0.map(\.path) }, size: plan.index.partSize)
        plan.index.planned = parts
        let documentKeys = Dictionary(documents.joined().compactMap { document in document.key.map { (document.path, $0) } }, uniquingKeysWith: { first, _ in first })
        guard let transaction = output as? OutputTransaction, case .folder = destination,
              let partKeys = parts.keys(documents: documentKeys, index: plan.index.identity) else { return plan }
        plan.index.partKeys = partKeys
        plan.index.keptFiles = Self.partsStillIn(transaction, parts, partKeys)
        plan.index.kept = Set(plan.index.keptFiles.keys.compactMap { SearchParts.number(ofFile: String($0.dropFirst(Pagefind.folder.count + 1))) })
        // A part the output does not have as it was (a CI job's new output) may be in the cache.
        if let store = cache?.folder.searchParts {
            for number in parts.numbers where !plan.index.kept.contains(number) {
                guard let stored = store.part(number, key: partKeys[number]) else { continue }
                plan.index.kept.insert(number)
                for (file, bytes) in stored { plan.index.storedFiles[Pagefind.folder + "/" + file] = bytes }
            }
        }
        for number in plan.index.kept { plan.unneededDocuments.formUnion(parts.pages[number]) }
        return plan
    }

    /// The files of the parts that the output still has as the last build made them from the same
    /// keys, by their paths in the output, with their keys.
    private static func partsStillIn(_ transaction: OutputTransaction, _ parts: SearchParts, _ partKeys: [Int]) -> [String: Int] {
        // The previous build's files of each part, by their paths in the index's folder.
        var previous: [Int: [(file: String, key: Int)]] = [:]
        for (file, key) in transaction.previousFiles(in: Pagefind.folder) {
            guard let number = SearchParts.number(ofFile: file), number < parts.count else { continue }
            previous[number, default: []].append((file, key))
        }
        // The parts made from the same documents; then, on both cores, whether the output still
        // has each of their files (a `stat` a file: 100,000 of them at 100,000 cards).
        let candidates = parts.numbers.filter { number in
            let files = previous[number] ?? []
            return files.contains { $0.file == SearchParts.folder(number) + "pagefind-entry.json" }
                && files.allSatisfy { $0.key == SearchParts.key(ofFile: $0.file, partKey: partKeys[number]) }
        }
        let files = candidates.flatMap { number in previous[number]!.map { (number: number, path: Pagefind.folder + "/" + $0.file, key: $0.key) } }
        let touched = Mutex(Set<Int>())
        Parallel.perform(count: files.count, chunk: 1024) { range in
            let found = Set(range.filter { !transaction.stillHas(files[$0].path, madeFrom: files[$0].key) }.map { files[$0].number })
            if !found.isEmpty { touched.withLock { $0.formUnion(found) } }
        }
        let lost = touched.withLock { $0 }
        return Dictionary(files.filter { !lost.contains($0.number) }.map { ($0.path, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// In a build's scratch folder, beside `index/`, where Pagefind writes.
    static let searchDocumentsFolder = "documents"

    /// The folder on disk that holds the search documents, for Pagefind to read; nil when
    /// they are not kept.
    static func folder(of searchDocuments: (any OutputTarget)?) -> String? {
        if let scratch = searchDocuments as? ScratchFolderOutput { return scratch.folder }
        if let inPlace = searchDocuments as? InPlaceOutput { return inPlace.folder.path }
        return nil
    }

    /// Step 4 with search: Pagefind run over the search documents in the scratch folder, before
    /// the write step commits the output; its files go into the output's `pagefind/` folder as
    /// files of the write step, taken (linked where they can be) from `index/` in the scratch
    /// folder, which the build removes once the output is written. (For `serve`, the render step
    /// leaves the index in the report, to make once the pages are served.)
    func index(_ search: SearchIndex?, into site: inout RenderedSite, _ output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) {
        guard let search, case .folder = destination, let transaction = output as? OutputTransaction else { return }
        let bundle = URL(fileURLWithPath: transaction.scratchFolder + "/index", isDirectory: true)
        let runs = ChildProcesses()
        let signals = PagefindSignals.shared
        // What a signal leaves behind is removed before the process ends by it, by this thread
        // or, should a write hold this one up, by the thread that took the signal.
        let scratch = transaction.scratchFolder
        let removeOutput: @Sendable () -> Void = {
            output.abandon()
            try? FileManager.default.removeItem(atPath: scratch)
        }
        do {
            let made = try step(.index, &report) { _ in
                try signals.during(runs, cleanup: removeOutput) { () throws(Pagefind.Failure) in try search.make(into: bundle, runs: runs) }
            } detail: { (made: Pagefind.Bundle) in
                search.kept.isEmpty
                    ? "\(made.pages ?? search.count) card page\((made.pages ?? search.count) == 1 ? "" : "s") in \(made.files.count) files (\(search.pagefind.version))"
                    : "\(made.pages ?? 0) of \(search.count) card pages indexed again; \(search.kept.count) of \(search.kept.count + made.parts) parts as the last build made them (\(search.pagefind.version))"
            }
            // A signal that came as Pagefind finished ends the build all the same.
            if signals.signalled { throw Pagefind.Failure(description: "stopped by a signal", wasStopped: true) }
            site.files += made.files.map { OutputFile(path: Pagefind.folder + "/" + $0, content: .scratchFile(bundle.appendingPathComponent($0))) }
            site.files += search.storedFiles.sorted { $0.key < $1.key }.map { OutputFile(path: $0.key, content: .data($0.value)) }
            try keepParts(search, made: made.files, in: transaction)
            report.searchable = true
        } catch {
            // A signal ends the process here, once `removeOutput` has run.
            signals.endProcessIfSignalled()
            removeOutput()
            throw fail(&report, Diagnostic(.error, file: failedFile(error), message: "\(error)"))
        }
    }

    /// With a cache: the files of the parts made (or taken from the cache) are kept with their
    /// keys for the next build, and those of the parts the output has go into it as the last
    /// build made them.
    private func keepParts(_ search: SearchIndex, made files: [String], in transaction: OutputTransaction) throws(Pagefind.Failure) {
        guard let partKeys = search.partKeys else { return }
        let prefix = Pagefind.folder + "/"
        for file in files + search.storedFiles.keys.map({ String($0.dropFirst(prefix.count)) }) {
            guard let number = SearchParts.number(ofFile: file) else { continue }
            transaction.remember(SearchParts.key(ofFile: file, partKey: partKeys[number]), for: prefix + file)
        }
        guard !search.keptFiles.isEmpty else { return }
        do { try transaction.createFolders(PagePaths.folders(containing: Array(search.keptFiles.keys))) } catch {
            throw Pagefind.Failure(description: "cannot create the folders of the search index: \(error)")
        }
        let kept = Array(search.keptFiles)
        let lost = Mutex<String?>(nil)
        Parallel.perform(count: kept.count, chunk: 1024) { range in
            for (path, key) in kept[range] where !transaction.holds(path, madeFrom: key, stampChecked: true) { lost.withLock { $0 = $0 ?? path } }
        }
        if let path = lost.withLock({ $0 }) {
            throw Pagefind.Failure(description: "\(path) changed in the output while the site was built; build again")
        }
    }

    /// Where a failure to index is reported: the site's own template whose output is at fault
    /// (its `search_document`), else the index's folder.
    private func failedFile(_ error: any Error) -> String {
        guard let template = (error as? Pagefind.Failure)?.template else { return Pagefind.folder + "/" }
        let file = options.site.templateFile(template)
        return FileManager.default.fileExists(atPath: file.path) ? options.site.display(file) : Pagefind.folder + "/"
    }
}
