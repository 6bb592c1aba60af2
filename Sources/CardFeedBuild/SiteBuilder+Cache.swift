import Foundation
import CardFeedWrite

/// The last step of a build with a cache: what it rendered and wrote is kept for the next build.
extension SiteBuilder {
    func keepCache(_ state: BuildState, _ report: inout BuildReport) {
        guard let cache, let cardsWriter, let reuse else { return }
        let (used, made) = reuse.cards.thisBuild
        report.cardsReused = report.cardsShown - min(made, report.cardsShown)
        let output = (state.output as? OutputTransaction).flatMap { transaction in destination.folder.map { ($0, transaction.keptPages()) } }
        if let note = cache.save(cards: used, appendedBy: cardsWriter, output: output) { report.cacheNote = note }
    }
}
