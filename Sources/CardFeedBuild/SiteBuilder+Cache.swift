import Foundation
import CardFeedWrite

/// The last step of a build with a cache: what it rendered and wrote is kept for the next build.
extension SiteBuilder {
    func keepCache(_ state: BuildState, _ report: inout BuildReport) {
        guard let cache, let reuse, let transaction = state.output as? OutputTransaction, case .folder(let output) = destination else { return }
        let (used, made) = reuse.cards.thisBuild
        report.cardsReused = report.cardsShown - min(made, report.cardsShown)
        if let note = cache.save(cards: used, pageKeys: transaction.pageKeys, output: output) { report.cacheNote = note }
    }
}
