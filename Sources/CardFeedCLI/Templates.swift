import ArgumentParser
import CardFeedCore
import Foundation

struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in templates and which ones the site overrides.",
        discussion: """
            A file SITE/templates/<name>.mustache replaces the built-in template <name>. Every \
            built-in is also reachable as builtin.<name with dots for slashes>, so an override \
            can extend it and change one block: \
            {{<builtin.cards.short_news}}{{$footer}}...{{/footer}}{{/builtin.cards.short_news}}.
            """)

    @Option(help: "The site folder.", completion: .directory)
    var site = "site"

    func run() throws {
        let catalog = TemplateCatalog(site: SiteFolder(site))
        for entry in catalog.entries {
            let state: String
            switch entry.state {
            case .builtin: state = "built-in"
            case .overridden:
                state = "overridden by \(entry.siteFile ?? "")"
                    + (entry.ejectedFrom.map { ", ejected from \($0)" } ?? "")
                    + (entry.builtinChanged ? "; the built-in has changed since: compare with `cardfeed eject \(entry.name) --site \(site) --force` in a copy" : "")
            case .added: state = "site only: \(entry.siteFile ?? "")"
            }
            print("\(entry.name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(state)")
        }
        let changed = catalog.entries.filter(\.builtinChanged).count
        if changed > 0 {
            FileHandle.standardError.write(Data("warning: \(changed) ejected template\(changed == 1 ? "" : "s") may miss changes made to the built-in since it was ejected\n".utf8))
        }
    }
}

struct Eject: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a built-in template into the site to edit it.",
        discussion: """
            NAME is a template name as `cardfeed templates` lists it, e.g. cards/short_news, card \
            or page. The copy goes to SITE/templates/NAME.mustache and replaces the built-in from \
            the next build on. An existing file is kept unless --force is given.
            """)

    @Argument(help: "The template to copy, e.g. cards/short_news.")
    var name: String

    @Option(help: "The site folder.", completion: .directory)
    var site = "site"

    @Flag(help: "Overwrite the site's file if it exists.")
    var force = false

    func run() throws {
        let catalog = TemplateCatalog(site: SiteFolder(site))
        do {
            let file = try catalog.eject(name, force: force)
            print("Copied the built-in \(catalog.normalised(name)) to \(file); edit it there.")
        } catch let error as TemplateCatalog.EjectError {
            throw ValidationError(error.description)
        }
    }
}
