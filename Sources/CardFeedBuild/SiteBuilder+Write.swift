import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// The write step: the files that are not pages go into the output, which is then committed.
extension SiteBuilder {
    /// Step 4: the files that are not pages go into the output, which is then committed.
    func write(_ site: RenderedSite, into output: any OutputTarget, _ report: inout BuildReport) throws(BuildFailure) {
        guard writes else { return }
        let shownAs = destination.folder.map(SiteFolder.display) ?? "memory"
        // The writer needs a folder only to check one (see `applyRules`); memory has none.
        var writer = SiteWriter(output: destination.folder ?? options.site.defaultOutput)
        do {
            let counts = try step(.write, &report) { (progress: ProgressReport?) -> OutputCounts in
                let total = site.files.count
                if let progress { writer.progress = { done in progress(done, total, "files", Double(done) / Double(total)) } }
                do {
                    try writer.write(site.files, to: output)
                    let counts = try output.commit()
                    if case .inPlace(_, let searchDocuments?) = destination, site.search != nil { _ = try searchDocuments.commit() }
                    return counts
                } catch {
                    output.abandon()
                    throw error
                }
            } detail: { (counts: OutputCounts) in
                "\(counts.written) files written" + (counts.unchanged > 0 ? ", \(counts.unchanged) unchanged" : "")
                    + (counts.removed.isEmpty ? "" : ", \(counts.removed.count) removed")
            }
            report.filesWritten = counts.written
            report.filesUnchanged = counts.unchanged
            report.comparedWithPrevious = counts.comparedWithPrevious
            report.filesRemoved = counts.removed
            report.output = destination.folder.map(\.standardizedFileURL)
        } catch {
            throw fail(&report, Diagnostic(.error, file: shownAs, message: "\(error)"))
        }
    }
}
