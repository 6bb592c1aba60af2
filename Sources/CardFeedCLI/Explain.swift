import ArgumentParser
import Foundation
import CardFeedBuild
import CardFeedModel

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say where a card is shown, or why it is not.",
        discussion: """
            Runs the steps of 'cardfeed check' up to choosing what each feed shows (reading the \
            card files, the rules of cardfeed.yml, the selection), with the same options, and \
            follows one card id through them. A card that is shown: each feed and page that \
            shows it, its file and anchor (with the address, when the site has a base URL), its \
            place on the page, whether it is pinned, its own page (unless card_pages: false), \
            and the placements (placements: in cardfeed.yml) that show it. A card that is not: why, in the build's \
            words: skipped for an error, removed by a sync file's {"id": X, "r": true} (the \
            file and line), replaced by a later entry of the same id, hidden by a rule \
            (cardfeed.yml and its line), a control card, dismissed, expired (when, on the site's \
            clocks, against --now), or dated after --now with future: hide. Rules that changed \
            the card, and the warnings about it, are listed too. An id no file has gets the \
            closest one the site has.

            With --diagnostics json, standard output holds one JSON object: id, found, shown, \
            card (file, line, column, card), pages (feed, front, file, anchor, position, cards, \
            url, pinned), own_page (file, url; null without card pages), language (which \
            language's pages it went to and why, with languages: in cardfeed.yml; else null), placements (name, language, \
            file, position, cards, why: each placement of cardfeed.yml whose feed shows the card, \
            in each language's tree that shows it, and why it does not show it, if it does not; \
            language is null without languages:), notes (kind, hides, message, file, line, column), diagnostics (as \
            'check --diagnostics json' prints them), site_errors and suggestion.

            Exits with status 0 when the site has an entry of the id (shown or not), 1 when it \
            has none.

            Examples:
              cardfeed explain nf-holiday-hours
              cardfeed explain cc-gift-cards my-site --now 2026-12-01
            """)

    @Argument(help: ArgumentHelp("The card's id, as its file has it.", valueName: "card-id"))
    var id: String

    @OptionGroup var options: SiteOptions

    func validate() throws { try options.validate() }

    func run() throws {
        options.location.warnIfDeprecated(DiagnosticPrinter(format: options.diagnostics))
        let located = options.location.located
        if let missing = located.missing {
            if options.diagnostics == .text { throw Console.fail(missing.line) }
            Console.printError(DiagnosticPrinter.json(missing.diagnostic), prefix: "")
            throw ExitCode.failure
        }
        var logger = options.logger()
        logger.logLevel = .warning
        var buildOptions = options.buildOptions()
        // The messages about the card are part of the answer; the others only counted.
        buildOptions.diagnosticHandler = { _ in }
        let explanation: CardExplanation
        do {
            explanation = try SiteBuilder(options: buildOptions, destination: .discarded, logger: logger).explain(id)
        } catch {
            DiagnosticPrinter(format: options.diagnostics).print(error.report.diagnostics.all)
            throw ExitCode.failure
        }
        LeftToExit.keep(explanation)
        switch options.diagnostics {
        case .text: ExplanationText(explanation).lines.forEach { Console.line($0) }
        case .json: Console.line(ExplanationText.json(explanation))
        }
        if !explanation.found { throw ExitCode.failure }
    }
}

/// An explanation as people and tools read it.
struct ExplanationText {
    let explanation: CardExplanation

    init(_ explanation: CardExplanation) { self.explanation = explanation }

    var lines: [String] {
        let e = explanation
        let card = "Card \(Diagnostic.quoted(e.id))"
        var lines: [String] = []
        if !e.found {
            lines.append("No card \(Diagnostic.quoted(e.id)) in the site: no card file has an entry with this id"
                + (e.suggestion.map { " (did you mean \(Diagnostic.quoted($0))?)" } ?? "") + ".")
        } else if let place = e.place {
            if e.shown.isEmpty {
                lines.append("\(card) (\(place.description)) is not shown:")
            } else {
                let pages = e.shown.count == 1 ? "1 page" : "\(e.shown.count) pages"
                lines.append("\(card) (\(place.description)) is shown on \(pages), \(e.shown[0].pinned ? "pinned (it comes first on the front pages, with the other pinned cards, and at its date on the archive pages)" : "not pinned"):")
                for shown in e.shown {
                    lines.append("  \(shown.feed) feed, \(shown.front ? "front page" : "archive page"): \(shown.file)#\(shown.anchor), card \(shown.position) of \(shown.cards)"
                        + (shown.url.map { " (\($0))" } ?? ""))
                }
                if let own = e.ownPage { lines.append("  its own page: \(own.file)" + (own.url.map { " (\($0))" } ?? "")) }
                if let language = e.language { lines.append("  \(language)") }
                for placed in e.placements {
                    // With languages, each tree's placement is named with its language: "home-hero (de)".
                    let name = placed.name + (placed.language.map { " (\($0))" } ?? "")
                    if let position = placed.position {
                        lines.append("  placement \(name): \(placed.file), card \(position) of \(placed.cards)")
                    } else {
                        lines.append("  not in the placement \(name): \(placed.why ?? "")")
                    }
                }
            }
        } else {
            lines.append("\(card) is not shown: no entry of it is left once the card files are read:")
        }
        let hiding = e.notes.filter(\.hides)
        let other = e.notes.filter { !$0.hides }
        for note in hiding { lines.append("  - \(note.message)") }
        if !other.isEmpty {
            lines.append(e.shown.isEmpty && hiding.isEmpty ? "What the build did with it:" : "Also:")
            for note in other { lines.append("  - \(note.message)") }
        }
        if e.found, e.card != nil, e.shown.isEmpty, hiding.isEmpty {
            lines.append("  - (no reason found)")
        }
        if !e.diagnostics.isEmpty {
            lines.append("Warnings about it:")
            for diagnostic in e.diagnostics { lines.append("  \(diagnostic.severity.rawValue): \(diagnostic)") }
        }
        if !e.siteErrors.isEmpty {
            let count = e.siteErrors.count
            lines.append("The site has \(count == 1 ? "an error" : "\(count) errors"), so a build writes nothing (the first: \(e.siteErrors[0])); `cardfeed check` lists \(count == 1 ? "it" : "them").")
        }
        return lines
    }

    /// One JSON object, keys in a fixed order.
    static func json(_ e: CardExplanation) -> String {
        func string(_ value: String?) -> String { value.map(DiagnosticPrinter.quoted) ?? "null" }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
        func place(_ place: CardExplanation.Place?) -> String {
            guard let place else { return "null" }
            return "{\"file\":\(string(place.file)),\"line\":\(number(place.line)),\"column\":\(number(place.column)),\"card\":\(number(place.card))}"
        }
        let pages = e.shown.map {
            "{\"feed\":\(string($0.feed)),\"front\":\($0.front),\"file\":\(string($0.file)),\"anchor\":\(string($0.anchor)),"
                + "\"position\":\($0.position),\"cards\":\($0.cards),\"url\":\(string($0.url)),\"pinned\":\($0.pinned)}"
        }
        let placements = e.placements.map {
            "{\"name\":\(string($0.name)),\"language\":\(string($0.language)),\"file\":\(string($0.file)),\"position\":\(number($0.position)),\"cards\":\($0.cards),\"why\":\(string($0.why))}"
        }
        let notes = e.notes.map {
            "{\"kind\":\(string($0.kind.rawValue)),\"hides\":\($0.hides),\"message\":\(string($0.message)),"
                + "\"file\":\(string($0.place?.file)),\"line\":\(number($0.place?.line)),\"column\":\(number($0.place?.column))}"
        }
        return "{\"id\":\(string(e.id)),\"found\":\(e.found),\"shown\":\(!e.shown.isEmpty),\"card\":\(place(e.place)),"
            + "\"pages\":[\(pages.joined(separator: ","))],\"own_page\":\(e.ownPage.map { "{\"file\":\(string($0.file)),\"url\":\(string($0.url))}" } ?? "null"),\"language\":\(string(e.language)),\"placements\":[\(placements.joined(separator: ","))],\"notes\":[\(notes.joined(separator: ","))],"
            + "\"diagnostics\":[\(e.diagnostics.map(DiagnosticPrinter.json).joined(separator: ","))],"
            + "\"site_errors\":\(e.siteErrors.count),\"suggestion\":\(string(e.suggestion))}"
    }
}
