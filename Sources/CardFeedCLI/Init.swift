import ArgumentParser
import Foundation
import CardFeedBuild
import CardFeedRender

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new site, with sample cards to start from.",
        discussion: """
            It writes sample cards, a commented cardfeed.yml, and folders for templates, assets \
            and strings. The folder must not exist yet, or be empty but for hidden files (a .git \
            folder, say): init never overwrites a file. 'cardfeed init .' makes the current \
            folder a site; without a folder, init creates ./site.
            """)

    @Argument(help: ArgumentHelp("The folder of the new site (default: ./site).", valueName: "site"), completion: .directory)
    var folder: String?

    @Option(help: ArgumentHelp(
        "The address the site will be published at, e.g. https://example.com/news/, written into cardfeed.yml as base_url.",
        discussion: "With it, every build writes \(OutputFormat.summary) without --base-url; without it, cardfeed.yml has base_url commented out, to fill in later.",
        valueName: "url"))
    var baseURL: String?

    func run() throws {
        let located = LocatedSite.locate(folder)
        let url = located.folder.root
        do {
            let files = try SiteScaffold.create(at: url, baseURL: baseURL)
            let name = located.display
            let here = name == "."
            Console.line("Created the site \(here ? "in the current folder" : name) (\(files.count) files):")
            for file in files { Console.line("  \(here ? file : name + "/" + file)") }
            let site = here ? "" : " " + name
            Console.line("Next: cardfeed serve\(site)   (a preview that reloads as you edit)")
            Console.line("      cardfeed build\(site)   (writes \(here ? "" : name + "/")public/; then cardfeed check\(site) --strict in CI)")
            if baseURL == nil {
                Console.line("Then set base_url in \(here ? "" : name + "/")cardfeed.yml to the site's address: builds then also write \(OutputFormat.summary).")
            }
        } catch let refusal as SiteScaffold.Refusal {
            throw Console.fail(refusal.description)
        }
    }
}
