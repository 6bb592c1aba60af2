import ArgumentParser
import Foundation

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site into a folder of static pages.",
        discussion: """
            Pages: OUTPUT/index.html (all cards), OUTPUT/<feed>/index.html for news, advertising, \
            announcements, social and uncategorized (or for the feeds in cardfeed.yml's feeds:, \
            the first on OUTPUT/index.html): each feed's front page, its newest cards. Older cards \
            are on archive pages, OUTPUT/page-<card>.html and OUTPUT/<feed>/page-<card>.html, each \
            named after its newest card, which keep their cards and addresses as newer cards \
            arrive (--page-size cards on average); and a page for each card shown, OUTPUT/cards/card-<id>.html (unsafe \
            characters of the id replaced), unless cardfeed.yml says card_pages: false. For each \
            placement of cardfeed.yml's placements:, OUTPUT/embed/<name>.html (HTML to include in \
            another site's page), OUTPUT/embed/<name>.json (for the <cardfeed-placement> web \
            component of OUTPUT/embed/cardfeed-embed.js) and OUTPUT/embed/<name>/ (a page for an \
            iframe), and with languages: in cardfeed.yml the same in each language's folder, of \
            its cards (OUTPUT/de/embed/); see docs/embedding.md. The output is replaced as a whole or not at all: the site is built in a \
            folder beside OUTPUT, which then takes its place in one rename, so a failed or killed \
            build leaves the previous output as it was. Files that come out the same are linked \
            from the previous output (they keep their modification times), and the summary says \
            how many changed; files the site no longer has are named in it. Two builds into one OUTPUT at once: the second \
            is refused. Hidden files in OUTPUT (.git, .nojekyll) are always kept. An existing OUTPUT that cardfeed did not write (other than hidden \
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
        abstract: "Load, check and render the site, writing nothing.",
        discussion: """
            Runs every step of 'cardfeed build', rendering every page and feed, into an output \
            that keeps nothing, so it reports every warning and error a build would, in the same \
            words. Exits with status 1 when there are errors (or, with --strict, warnings).
            """)

    @OptionGroup var options: SiteOptions

    func validate() throws { try options.validate() }

    func run() throws { try options.run(output: nil, write: false) }
}
