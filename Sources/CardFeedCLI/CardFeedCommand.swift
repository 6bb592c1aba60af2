import ArgumentParser
import Foundation
import CardFeedModel
import CardFeedRender
import CardFeedSystem

@main
struct CardFeedCommand: ParsableCommand {
    // The examples' lines stay within 72 columns: --help wraps longer ones to column 0 where
    // there is no terminal and on an 80-column one, and the man page indents them by 5.
    static let configuration = CommandConfiguration(
        commandName: "cardfeed",
        abstract: "Turn Braze card JSON (News Feed and Content Cards) into a static, browsable feed site.",
        discussion: """
            A site is a folder: cards in cards.json and cards/**/*.json, settings in \
            cardfeed.yml, optional template overrides in templates/, images and other files in \
            assets/. 'cardfeed build' writes one feed per category (news, advertising, \
            announcements, social, uncategorized) and an "all" feed to SITE/public, or the feeds \
            cardfeed.yml defines (by category, or by extras as Content Cards apps group their \
            cards), a page for each card, and with base_url in cardfeed.yml, \
            \(OutputFormat.list(OutputFormat.all.filter { $0.view == .feed }.map(\.name))) files, and \(OutputFormat.list(OutputFormat.all.filter { $0.view == .site }.map(\.fileName))).

            In cardfeed.yml, a site can also have:
              search: true         a search box on every page (Pagefind)
              placements:          a feed's newest cards inside other sites' pages
              languages: [en, de]  a tree of pages per language, in its words

            Examples:
              cardfeed build                     build this site (or ./site)
              cardfeed build my-site -o dist     build my-site into dist
              cardfeed check --strict            fail on any warning (for CI)
              cardfeed explain nf-holiday-hours  where a card is shown, or why not
              cardfeed serve                     preview at http://127.0.0.1:4000/
              cardfeed init my-site              start a new site
              cardfeed eject cards/short_news    copy a built-in template to change
              cardfeed cache clean               remove the build cache
            """,
        version: CardFeedVersion.current,
        subcommands: [Build.self, Check.self, Explain.self, Config.self, Serve.self, Init.self, Templates.self, Eject.self, Cache.self],
        defaultSubcommand: nil
    )

    /// Every command but `serve` runs on the main thread, outside Swift's concurrency, whose
    /// jobs run on libdispatch's thread pool: without `/proc` that pool's monitor stops the
    /// process (see `Parallel`), and a build has no use for it. `serve` runs as an async command.
    static func main() {
        guard !ProcessArguments.all.isEmpty else {
            Console.printError("cannot read the command's arguments (is /proc missing?); refusing to guess what to do")
            Foundation.exit(ExitCode.failure.rawValue)
        }
        let arguments = Self.arguments
        // `cardfeed help biuld` is the same mistake as `cardfeed biuld`, and gets the same error.
        let named = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        if let message = unknownCommand(named) ?? extraHelpArguments(arguments) {
            Console.printError(message)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        guard let asynchronous = command as? any AsyncParsableCommand else {
            MemoryAllocator.useLargePages()
            var command = command
            do { try command.run() } catch { exit(withError: error) }
            return
        }
        guard Parallel.procIsMounted else {
            Console.printError("\(type(of: asynchronous)._commandName) needs /proc, which this system does not have (mount it with mount -t proc proc /proc)")
            Foundation.exit(ExitCode.failure.rawValue)
        }
        // The command is sent to the task, its only user from here on (the compiler holds it to that).
        Task.detached { [asynchronous] in
            var serving = asynchronous
            do { try await serving.run() } catch { exit(withError: error) }
            exit()
        }
        dispatchMain()
    }

    /// Ends the process for `error` as ArgumentParser would (its message, its exit code), but
    /// with an error's first word `error:`, as every other error of cardfeed says it, rather than
    /// ArgumentParser's `Error:`: "error: unknown option '--strictt'. Did you mean '--strict'?".
    static func exit(withError error: (any Error)?) -> Never {
        guard let error else { Foundation.exit(ExitCode.success.rawValue) }
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        guard code != .success else {
            if !message.isEmpty { Swift.print(message) }
            Foundation.exit(code.rawValue)
        }
        // An ExitCode thrown by a command that has said why already has no message.
        if !message.isEmpty, !message.allSatisfy(\.isWhitespace) {
            for line in Self.lowerCasedError(message).split(separator: "\n", omittingEmptySubsequences: false).reversed().drop(while: \.isEmpty).reversed() {
                Console.line(String(line), to: .error)
            }
        }
        Foundation.exit(code.rawValue)
    }

    /// ArgumentParser's `Error: Unknown option '--strictt'. Did you mean '--strict'?` as
    /// cardfeed says it: `error: unknown option "--strictt" (did you mean "--strict"?)`, the
    /// suggestion by the rule every name follows (`Suggestion`), among the options its usage line
    /// lists; any other message with `error: ` before it, its first word in lower case.
    static func lowerCasedError(_ message: String) -> String {
        var text = Substring(message)
        if text.hasPrefix("Error: ") { text = text.dropFirst("Error: ".count) }
        guard !text.hasPrefix("error: ") else { return String(text) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let match = lines[0].firstMatch(of: /^Unknown option '([^']*)'(\. Did you mean '[^']*'\?)?$/) {
            let option = String(match.1)
            // The command's options, as its help lists them (a long usage line is cut short).
            var command = configuration.subcommands.first { $0._commandName == arguments.first }
            // `cache clean`: the command of the command.
            if let inner = command?.configuration.subcommands.first(where: { $0._commandName == arguments.dropFirst().first }) { command = inner }
            let help = command.map { helpMessage(for: $0, columns: 1000) } ?? helpMessage(columns: 1000)
            let known = help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) } + ["--help", "--version"]
            lines[0] = "unknown option \(Diagnostic.quoted(option))\(Suggestion.phrase(for: option, among: known))"
        } else if let first = lines[0].first, first.isUppercase, lines[0].dropFirst().first?.isLowercase == true {
            // "Missing expected argument": a capital that begins a sentence, not a name.
            lines[0] = first.lowercased() + lines[0].dropFirst()
        }
        return "error: " + lines.joined(separator: "\n")
    }

    /// The arguments after the program's name, as `main` received them.
    static var arguments: [String] { Array(ProcessArguments.all.dropFirst()) }

    /// Words after `cardfeed help <command>`: only `cache` has commands of its own (`cardfeed
    /// help cache clean`), so `cardfeed help build biuld` names nothing (ArgumentParser would
    /// print build's help and exit 0, hiding the typo); a word that is a command's name,
    /// misspelt or not, was most likely meant as the one to ask about.
    static func extraHelpArguments(_ arguments: [String]) -> String? {
        guard arguments.first == "help", arguments.count > 2 else { return nil }
        let command = arguments[1], extra = arguments[2]
        guard !command.hasPrefix("-"), !extra.hasPrefix("-") else { return nil }  // an option: ArgumentParser's own error
        let inner = configuration.subcommands.first { $0._commandName == command }?.configuration.subcommands.map { $0._commandName } ?? []
        if !inner.isEmpty {
            guard inner.contains(extra) else { return unknownCommand(extra, of: command, among: inner) }
            guard arguments.count > 3, !arguments[3].hasPrefix("-") else { return nil }
            return "unexpected \"\(arguments[3])\" after `cardfeed help \(command) \(extra)`: \(command) \(extra) has no commands of its own; see `cardfeed help \(command) \(extra)`"
        }
        let names = Set(configuration.subcommands.map { $0._commandName })
        let meant = names.contains(extra) ? extra : Suggestion.names(for: extra, among: names).first
        return "unexpected \"\(extra)\" after `cardfeed help \(command)`: \(command) has no commands of its own; "
            + (meant.map { "did you mean `cardfeed help \($0)`?" } ?? "see `cardfeed help \(command)`")
    }

    /// A first argument that is neither an option nor a command: `cardfeed biuld`; or after a
    /// command that has commands of its own, a second one: `cardfeed cache claen`.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first else { return nil }
        if let inner = configuration.subcommands.first(where: { $0._commandName == word })?.configuration.subcommands.map({ $0._commandName }),
           !inner.isEmpty, let second = arguments.dropFirst().first, !second.hasPrefix("-"), !inner.contains(second) {
            return unknownCommand(second, of: word, among: inner)
        }
        return unknownCommand(word)
    }

    static func unknownCommand(_ word: String, of command: String, among inner: [String]) -> String {
        "unknown command \"\(command) \(word)\"\(Diagnostic.suggestion(for: word, among: Set(inner))); "
            + "the commands of \(command) are \(inner.joined(separator: ", ")) (see `cardfeed help \(command)`)"
    }

    static func unknownCommand(_ word: String) -> String? {
        guard !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        return "unknown command \("\"\(word)\"")\(Diagnostic.suggestion(for: word, among: Set(names))); "
            + "the commands are \(configuration.subcommands.map { $0._commandName }.joined(separator: ", ")) (see `cardfeed --help`)"
    }
}
