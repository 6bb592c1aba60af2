import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// The load and rules steps: every card file read, then the site's rules applied, and the checkpoint that ends a build with errors.
extension SiteBuilder {
    /// Step 1: every card file read and decoded; with `following`, what became of that id's
    /// entries is kept (`LoadedCards.history`).
    func load(_ configuration: Configuration, _ report: inout BuildReport, following: String? = nil) -> LoadedCards {
        var loader = cardLoader(configuration.config)
        loader.following = following
        let loaded = step(.load, &report) { (progress: ProgressReport?) -> LoadedCards in
            if let progress { loader.progress = { entries, fraction in progress(entries, nil, "entries", fraction) } }
            return loader.load(reusing: reuse?.entries)
        } detail: {
            "\($0.entriesRead) \($0.entriesRead == 1 ? "entry" : "entries") from \($0.files.count) file\($0.files.count == 1 ? "" : "s")"
                + ($0.entriesReused == 0 ? "" : ", \($0.entriesReused) from the cache")
        }
        report.filesRead = loaded.files
        report.entriesRead = loaded.entriesRead
        report.skipped = loaded.skipped
        report.skippedIDs = loaded.skippedIDs
        if configuration.configFailed, !loaded.diagnostics.warnings.isEmpty {
            // Card warnings depend on cardfeed.yml's settings (its links' app schemes, for one),
            // which could not be read: shown now, they would send the user to the wrong place.
            report.diagnostics.append(contentsOf: Diagnostics(loaded.diagnostics.errors))
            let count = loaded.diagnostics.warnings.count
            report.diagnostics.append(Diagnostic(
                .warning, file: options.site.display(options.site.root.appendingPathComponent("cardfeed.yml")),
                message: "\(count) card warning\(count == 1 ? " is" : "s are") held back until this file reads without errors (card warnings depend on its settings)"))
        } else {
            report.diagnostics.append(contentsOf: loaded.diagnostics)
        }
        return loaded
    }

    func cardLoader(_ config: SiteConfig) -> CardLoader {
        var loader = CardLoader(site: options.site, linkSchemes: config.links.linkSchemes)
        loader.timeZone = config.timeZone
        loader.descriptions = config.descriptions
        if config.source(of: .now) != .fallback { loader.givenNow = config.now }
        return loader
    }

    func selector(_ config: SiteConfig) -> FeedSelector {
        FeedSelector(now: config.now, pageSize: config.pageSize, future: config.future, feeds: config.siteFeeds, hideEmptyFeeds: config.hideEmptyFeeds, cardPages: config.cardPages)
    }

    /// The site's rules (cardfeed.yml's `rules`), and the checks of the cards as the rules left
    /// them; every diagnostic so far located in its file, and with `--strict` made an error.
    func applyRules(_ loaded: LoadedCards, _ configuration: Configuration, _ report: inout BuildReport) -> RuleEngine.RuledCards {
        let decoder = cardLoader(configuration.config).decoder()
        let ruled = RuleEngine(rules: configuration.config.rules, decoder: decoder).apply(to: loaded.cards, cardsComplete: !loaded.diagnostics.hasErrors)
        ruled.diagnostics.forEach { report.diagnostics.append($0) }
        report.rules = ruled.matches.map { ($0.rule.name, $0.rule.location, $0.ids) }
        if ruled.hidden > 0 {
            report.skipped[.hiddenByRule] = ruled.hidden
            for match in ruled.matches where match.rule.hide { match.ids.forEach { report.skippedIDs.add($0, .hiddenByRule) } }
        }
        let checked = SiteCheck.CheckedCards(
            cards: ruled.cards, config: configuration.config, templates: configuration.templates, selector: selector(configuration.config),
            loadFailed: loaded.diagnostics.hasErrors)
        check(checked).forEach { report.diagnostics.append($0) }

        report.diagnostics.locateCards(in: loaded.fileBytes)
        report.diagnostics = report.diagnostics.escalated(strict: configuration.config.strict)
        return ruled
    }

    /// Every warning and error so far is reported, in order; any error (or warning, `--strict`)
    /// ends the build here.
    func checkpoint(_ configuration: Configuration, _ report: inout BuildReport) throws(BuildFailure) -> Setup {
        if let folder = destination.folder { check(outputFolder: folder).forEach { report.diagnostics.append($0) } }
        emit(report.diagnostics.all)
        guard let templates = configuration.templates, let strings = configuration.strings, let otherStrings = configuration.otherStrings, !report.diagnostics.hasErrors else {
            throw BuildFailure(report: report)
        }
        let trees = Array(zip(languageTrees(configuration.config), [strings] + otherStrings))
        return Setup(config: configuration.config, strings: strings, trees: trees, templates: templates, pagefind: configuration.pagefind)
    }
}
