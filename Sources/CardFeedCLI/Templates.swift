import ArgumentParser
import Foundation
import CardFeedModel
import CardFeedRender

struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the templates and which ones the site overrides.",
        discussion: """
            A file SITE/templates/<name>.mustache replaces the built-in template <name>. Every \
            built-in is also reachable as builtin.<name with dots for slashes>, so an override \
            can extend it and change one block: \
            {{<builtin.cards.short_news}} {{$footer}}...{{/footer}} {{/builtin.cards.short_news}}.
            """)

    @OptionGroup var location: SiteArgument

    func run() throws {
        location.warnIfDeprecated()
        let located = location.located
        if let missing = located.missing { throw Console.fail(missing.line) }
        if let line = located.announcement { Console.line(line) }
        let catalog = TemplateCatalog(site: located.folder)
        for entry in catalog.entries {
            let state: String
            switch entry.state {
            case .builtin: state = "built-in"
            case .overridden:
                state = "overridden by \(entry.siteFile ?? "")"
                    + (entry.ejectedFrom.map { ", ejected from \($0)" } ?? "")
                    + (entry.builtinChanged ? "; the built-in has changed since: compare with `cardfeed eject \(entry.name) \(located.display) --force` in a copy" : "")
            case .added: state = "site only: \(entry.siteFile ?? "")"
            }
            Console.line("\(entry.name.padding(toLength: 30, withPad: " ", startingAt: 0)) \(state)")
        }
        let changed = catalog.entries.filter(\.builtinChanged).count
        if changed > 0 {
            Console.printError("\(changed) ejected template\(changed == 1 ? "" : "s") may miss changes made to the built-in since it was ejected", prefix: "warning: ")
        }
    }
}

struct Eject: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a built-in template into the site to edit it.",
        discussion: """
            NAME is a template name as 'cardfeed templates' lists it, e.g. cards/short_news, card \
            or page. The copy goes to SITE/templates/NAME.mustache and replaces the built-in from \
            the next build on. An existing file is kept unless --force is given. SITE must be a \
            site (have cardfeed.yml, cards.json or cards/); without it, the current folder is \
            used when it is one, else ./site.
            """)

    // The shells complete the built-in templates' names, which the completion scripts list.
    @Argument(help: "The template to copy, e.g. cards/short_news.", completion: .list(BuiltinFiles.templates.keys.sorted()))
    var name: String

    @OptionGroup var location: SiteArgument

    @Flag(help: "Overwrite the site's file if it exists.")
    var force = false

    func run() throws {
        location.warnIfDeprecated()
        let located = location.located
        // Eject writes into the site: a folder that is not one (a typo, the wrong directory)
        // would get a stray templates/ that no build reads.
        if let refusal = located.missing { throw Console.fail(refusal.line) }
        let catalog = TemplateCatalog(site: located.folder)
        do {
            let file = try catalog.eject(name, force: force)
            Console.line("Copied the built-in \(catalog.normalised(name)) to \(file); edit it there.")
        } catch let error as TemplateCatalog.EjectError {
            throw Console.fail(error.description)
        }
    }
}
