import Foundation
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
    /// build's go into its scratch folder beside the output, and serve's into its own folder,
    /// updated in place; `check` and memory keep none, but render them all the same, to meet
    /// the errors a build would.
    func searchDocuments(_ output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) -> any OutputTarget {
        switch destination {
        case .folder:
            guard let transaction = output as? OutputTransaction else { return DiscardedOutput() }
            do {
                return try ScratchFolderOutput(folder: transaction.scratchFolder + "/" + Self.searchDocumentsFolder)
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

    /// The index of the cards' search documents in `documents`, over each tree that has cards,
    /// in its language (see `SearchIndex.trees`).
    func searchIndex(_ pagefind: Pagefind, documents: String, _ selections: [Selection], _ setup: Setup) -> SearchIndex {
        let trees = zip(setup.trees, selections).filter { !$1.cards.isEmpty }.map { tree, _ in
            SearchIndex.Tree(folder: tree.tree.folder, language: tree.strings.locale)
        }
        return SearchIndex(pagefind: pagefind, site: documents, trees: trees, count: selections.reduce(0) { $0 + $1.cards.count })
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
        do {
            let made = try step(.index, &report) { _ in
                try signals.during(runs) { () throws(Pagefind.Failure) in try search.make(into: bundle, runs: runs) }
            } detail: { (made: Pagefind.Bundle) in
                "\(made.pages ?? search.count) card page\((made.pages ?? search.count) == 1 ? "" : "s") in \(made.files.count) files (\(search.pagefind.version))"
            }
            // A signal that came as Pagefind finished ends the build all the same.
            if signals.signalled { throw Pagefind.Failure(description: "stopped by a signal", wasStopped: true) }
            site.files += made.files.map { OutputFile(path: Pagefind.folder + "/" + $0, content: .scratchFile(bundle.appendingPathComponent($0))) }
            report.searchable = true
        } catch {
            output.abandon()
            // A signal ends the process here, before `run` would remove the scratch folder.
            try? FileManager.default.removeItem(atPath: transaction.scratchFolder)
            signals.endProcessIfSignalled()
            throw fail(&report, Diagnostic(.error, file: failedFile(error), message: "\(error)"))
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
