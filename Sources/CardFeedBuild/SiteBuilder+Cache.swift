import Foundation
import CardFeedModel
import CardFeedWrite

/// The last step of a build with a cache: what it rendered and wrote is kept for the next build.
extension SiteBuilder {
    func keepCache(_ state: BuildState, _ report: inout BuildReport) {
        guard let cache, let cardsWriter, let reuse else { return }
        let made = reuse.cards.madeThisBuild
        report.cardsReused = report.cardsShown - min(made, report.cardsShown)
        if let note = cache.lateNote { report.cacheNote = note }
        let records = cache.keptRecords(appendedBy: cardsWriter)
        let transaction = state.output as? OutputTransaction
        let output = transaction.flatMap { transaction in destination.folder.map { ($0, transaction.keptPages()) } }
        if let note = cache.save(records, appendedBy: cardsWriter, output: output) { report.cacheNote = note }
        if let output, let search = state.site?.search, let partKeys = search.partKeys {
            keepSearchParts(partKeys, madeAgain: Set(partKeys.indices).subtracting(search.kept), of: output.1, in: output.0)
        }
        transaction?.finishClearingTwin()
        options.whenDone?(output)
    }

    /// The search index's parts of the output, each with its key, for a build whose output will
    /// not have them (see `SearchPartStore`).
    private func keepSearchParts(_ partKeys: [Int], madeAgain: Set<Int>, of pages: [(path: String, page: KeptPage)], in output: URL) {
        guard let cache else { return }
        let prefix = Pagefind.folder + "/"
        var parts: [Int: (key: Int, files: [String])] = [:]
        for (path, _) in pages where path.hasPrefix(prefix) {
            let file = String(path.dropFirst(prefix.count))
            guard let number = SearchParts.number(ofFile: file), number < partKeys.count else { continue }
            parts[number, default: (partKeys[number], [])].files.append(file)
        }
        cache.folder.searchParts.keep(parts, madeAgain: madeAgain, from: output.appendingPathComponent(Pagefind.folder, isDirectory: true))
    }
}
