import ArgumentParser
import CardFeedCore
import Foundation

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site into a folder of static pages.",
        discussion: """
            Pages: OUTPUT/index.html (all cards), OUTPUT/<feed>/index.html for news, advertising, \
            announcements, social and uncategorized, and OUTPUT/page-<n>.html and OUTPUT/<feed>/page-<n>.html for \
            further pages. A failed build leaves the previous output as it was: the first build is \
            written into a fresh folder that then takes OUTPUT's place, and a rebuild writes only \
            the files that changed, beside the old ones, renaming them into place once all are \
            written (unchanged files keep their modification times), and files the site no longer \
            has are removed and named in the summary. Hidden files in OUTPUT (.git, .nojekyll) \
            are always kept. An existing OUTPUT that cardfeed did not write (other than hidden \
            files) is never replaced. SITE/static/ is copied as it is to OUTPUT's root (robots.txt, \
            CNAME, .well-known/).
            """)

    @OptionGroup var options: SiteOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the site (default: SITE/public).", valueName: "dir"), completion: .directory)
    var output: String?

    func validate() throws { try options.validate() }

    func run() throws { try options.run(output: output, write: true) }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load, check and render the site without writing anything.",
        discussion: "Exits with status 1 when there are errors (or, with --strict, warnings).")

    @OptionGroup var options: SiteOptions

    func validate() throws { try options.validate() }

    func run() throws { try options.run(output: nil, write: false) }
}
