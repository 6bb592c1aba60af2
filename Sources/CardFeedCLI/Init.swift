import ArgumentParser
import Foundation
import CardFeedBuild

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new site: sample cards, a commented cardfeed.yml, and folders for templates, assets and strings.",
        discussion: """
            The folder must not exist yet, or be empty but for hidden files (a .git folder, say): \
            init never overwrites a file. `cardfeed init .` makes the current folder a site; \
            without a folder, init creates ./site.
            """)

    @Argument(help: ArgumentHelp("The folder of the new site (default: ./site).", valueName: "site"), completion: .directory)
    var folder: String?

    func run() throws {
        let located = LocatedSite.locate(folder)
        let url = located.folder.root
        do {
            let files = try SiteScaffold.create(at: url)
            let name = located.display
            let here = name == "."
            Console.line("Created the site \(here ? "in the current folder" : name) (\(files.count) files):")
            for file in files { Console.line("  \(here ? file : name + "/" + file)") }
            let site = here ? "" : " " + name
            Console.line("Next: cardfeed serve\(site)   (a preview that reloads as you edit)")
            Console.line("      cardfeed build\(site)   (writes \(here ? "" : name + "/")public/; then cardfeed check\(site) --strict in CI)")
        } catch let refusal as SiteScaffold.Refusal {
            throw Console.fail(refusal.description)
        }
    }
}
