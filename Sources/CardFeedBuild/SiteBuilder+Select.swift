import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// The select step: which cards each feed, page and placement shows.
extension SiteBuilder {
    /// Step 2: which cards each feed shows, in which order, on which page; in each language's
    /// tree, the default language's first.
    func select(_ ruled: RuleEngine.RuledCards, _ setup: Setup, _ report: inout BuildReport) -> [Selection] {
        let selector = selector(setup.config)
        let selections = step(.select, &report) { _ in
            var selections = self.selections(ruled.cards, setup.config)
            // Every language's tree has the site's placements, over its own cards.
            if let placements = setup.config.placements {
                for index in selections.indices {
                    selections[index].placements = PlacementSelector.select(placements, in: selections[index], keptOut: ruled.keptOutOfPlacements)
                }
            }
            return selections
        } detail: { (selections: [Selection]) -> String in
            let hidden = selections.reduce(0) { $0 + $1.hidden.values.reduce(0, +) } + ruled.hidden
            let shown = selections.reduce(0) { $0 + $1.cards.count }
            let feeds = selections.reduce(0) { $0 + $1.feeds.count }
            // The site's placements, which each language's tree has.
            let placements = selections.first?.placements.count ?? 0
            let languages = setup.config.languages == nil ? "" : " (\(Self.languageCounts(selections, setup.config)))"
            let eachLanguage = selections.count > 1 ? " in each language" : ""
            return "\(shown) shown in \(feeds) feeds" + languages + (placements == 0 ? "" : " and \(placements) placement\(placements == 1 ? "" : "s")\(eachLanguage)")
                + (hidden > 0 ? ", \(hidden) hidden" : "")
        }
        for rule in report.rules where !rule.ids.isEmpty {
            logger.info("      \(rule.name) (\(rule.location)): \(rule.ids.count) card\(rule.ids.count == 1 ? "" : "s"): \(rule.ids.prefix(5).joined(separator: ", "))\(rule.ids.count > 5 ? ", …" : "")")
        }
        // Each as it is found, as the build's other lines are printed.
        for selection in selections {
            for diagnostic in check(selection, setup.config) { record([diagnostic], in: &report) }
        }
        if let waiting = selections.reduce(nil, { (sum: Int?, selection) in selection.hidden[.future].map { (sum ?? 0) + $0 } ?? sum }) {
            let ids = ruled.cards.filter { selector.hiddenReason($0) == .future }.sorted { ($0.created ?? 0, $0.id) < ($1.created ?? 0, $1.id) }
                .prefix(5).map { "\($0.id) (\(Formatting.iso($0.created ?? 0)))" }
            logger.info("      future: hide (cardfeed.yml): \(waiting == 1 ? "1 card waits for its date" : "\(waiting) cards wait for their date"): \(ids.joined(separator: ", "))\(waiting > 5 ? ", …" : "")")
        }
        // Entries, each once: with `untagged_cards: every` a card without a language is in every tree.
        report.cardsShown = selections.count == 1 ? selections[0].cards.count : Set(selections.flatMap { $0.cards.map(\.source.order) }).count
        for selection in selections {
            report.skipped.merge(selection.hidden, uniquingKeysWith: +)
            report.skippedIDs.merge(selection.hiddenIDs)
        }
        report.feeds = selections.flatMap { $0.feeds.map { ($0.feed, $0.cards.count, $0.pages.count) } }
        if setup.config.placements != nil {
            report.placementTrees = setup.trees.map { PlacementTree(language: $0.tree.tag, languageName: $0.strings["languageName"], folder: $0.tree.folder) }
        }
        return selections
    }

    /// With `--strict`, the select step's warnings (a placement with no card, anchors alike, pages
    /// cut by count) end the build as the checks' do, before anything is written.
    func refuseWarningsIfStrict(_ config: SiteConfig, _ report: inout BuildReport) throws(BuildFailure) {
        guard config.strict, !report.diagnostics.warnings.isEmpty else { return }
        report.diagnostics = report.diagnostics.escalated(strict: true)
        throw BuildFailure(report: report)
    }
}
