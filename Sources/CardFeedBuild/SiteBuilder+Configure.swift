import Foundation
import Logging
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedRender
import CardFeedWrite

/// The configure step: cardfeed.yml, the strings and the templates, read before any card.
extension SiteBuilder {
    /// Step 0: cardfeed.yml, the strings and the templates.
    func configure(_ report: inout BuildReport) throws(BuildFailure) -> Configuration {
        let site = options.site
        guard site.exists else {
            throw fail(&report, Diagnostic(.error, file: site.display(site.root), message: "no such site folder (create one with `cardfeed init \(site.display(site.root))`)"))
        }
        for (path, message) in site.foldersLinkedOut() {
            report.diagnostics.append(Diagnostic(.error, file: path, message: message))
        }
        let errorsBefore = report.diagnostics.errors.count
        let config = ConfigLoader(site: site).load(overriding: options.overrides, into: &report.diagnostics)
        let configFailed = report.diagnostics.errors.count > errorsBefore
        if options.cache != nil, let misplaced = BuildCacheFolder.placementError(config: config, site: site, output: cacheCheckedOutput) {
            report.diagnostics.append(misplaced)
        }
        let strings = StringTable.load(locale: config.locale, site: site, feeds: config.siteFeeds, diagnostics: &report.diagnostics)
        let otherStrings = otherLanguagesStrings(config, &report.diagnostics)
        let templates = TemplateSet.load(site: site, diagnostics: &report.diagnostics)
        let search = config.search != nil
        let pagefind = search ? locatePagefind(config, &report.diagnostics) : nil
        report.steps = numberedSteps(search: search)
        for (path, reason, isError) in site.skippedEntries() {
            report.diagnostics.append(Diagnostic(isError ? .error : .warning, file: path, message: reason))
        }
        return Configuration(config: config, configFailed: configFailed, strings: strings, otherStrings: otherStrings, templates: templates, pagefind: pagefind)
    }

    /// The output a cache may not be inside: the folder a build replaces, or for a check or a
    /// preview, which write none there, the one a build without `--output` would.
    var cacheCheckedOutput: URL {
        if case .folder(let folder) = destination { return folder }
        return options.site.defaultOutput
    }
}
