import ArgumentParser
import Foundation
import CardFeedModel

@main
struct CardFeedCommand: AsyncParsableCommand {
    // The examples' lines stay within 72 columns: --help wraps longer ones to column 0 where
    // there is no terminal and on an 80-column one, and the man page indents them by 5.
    static let configuration = CommandConfiguration(
        commandName: "cardfeed",
        abstract: "Turn Braze card JSON (News Feed and Content Cards) into a static, browsable feed site.",
        discussion: """
            A site is a folder: cards in cards.json and cards/**/*.json, optional template \
            overrides in templates/, images and other files in assets/. `cardfeed build` writes \
            one feed per category (news, advertising, announcements, social, uncategorized) and \
            an "all" feed to SITE/public, or the feeds cardfeed.yml defines (by category, or by \
            extras as Content Cards apps group their cards).

            Examples:
              cardfeed build                     build this site (or ./site)
              cardfeed build my-site -o dist     build my-site into dist
              cardfeed check --strict            fail on any warning (for CI)
              cardfeed explain nf-holiday-hours  where a card is shown, or why not
              cardfeed serve                     preview at http://127.0.0.1:4000/
              cardfeed init my-site              start a new site
              cardfeed eject cards/short_news    copy a built-in template to change
            """,
        version: CardFeedVersion.current,
        subcommands: [Build.self, Check.self, Explain.self, Serve.self, Init.self, Templates.self, Eject.self],
        defaultSubcommand: nil
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `cardfeed help biuld` is the same mistake as `cardfeed biuld`, and gets the same error.
        let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        if let named, let message = unknownCommand(named) {
            Console.printError(message)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        await main(arguments)
    }

    /// A first argument that is neither an option nor a command: `cardfeed biuld`.
    static func unknownCommand(_ word: String) -> String? {
        guard !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        return "unknown command \("\"\(word)\"")\(Diagnostic.suggestion(for: word, among: Set(names))); "
            + "the commands are \(configuration.subcommands.map { $0._commandName }.joined(separator: ", ")) (see `cardfeed --help`)"
    }
}
