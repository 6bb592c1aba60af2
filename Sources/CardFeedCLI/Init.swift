import ArgumentParser
import CardFeedCore
import Foundation

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a new site: sample cards, a commented cardfeed.yml, and folders for templates, assets and strings.",
        discussion: "The folder must not exist yet, or be empty: init never overwrites a file.")

    @Argument(help: "The folder of the new site.", completion: .directory)
    var folder: String

    func run() throws {
        let url = URL(fileURLWithPath: folder, isDirectory: true)
        do {
            let files = try SiteScaffold.create(at: url)
            print("Created the site \(folder) (\(files.count) files):")
            for file in files { print("  \(folder)/\(file)") }
            print("Next: cardfeed build \(folder)   (then open \(folder)/public/index.html)")
        } catch let refusal as SiteScaffold.Refusal {
            throw ValidationError(refusal.description)
        }
    }
}
