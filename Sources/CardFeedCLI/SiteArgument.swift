import ArgumentParser
import Foundation
import CardFeedModel
import CardFeedSystem

/// The site a command works on, given the same way to every command: an optional positional
/// argument. Without one, the current folder is the site when it is one (it has cardfeed.yml,
/// cards.json or a cards/ folder of card files, and is not a site's own templates/, cards/,
/// assets/, static/, strings/ or output), else ./site.
struct SiteArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The site folder (default: the current folder when it has cardfeed.yml, cards.json or a cards/ folder of card files, else ./site).",
            valueName: "site"),
        completion: .directory)
    var site: String?

    /// `--site DIR`, the way `templates` and `eject` used to take it; kept so that scripts
    /// written for them still work.
    @Option(name: .customLong("site"), help: ArgumentHelp("Deprecated: give the site as the argument instead.", valueName: "site", visibility: .hidden))
    var deprecatedSite: String?

    func validate() throws {
        if site != nil && deprecatedSite != nil {
            throw ValidationError("give the site once: as the argument, or with the deprecated --site, not both")
        }
    }

    /// Prints `--site`'s notice, when it was given, in the command's diagnostics form (a JSON
    /// line with `--diagnostics json`, which leaves standard error all JSON). Commands call it
    /// once, from `run`: ArgumentParser validates an option group more than once.
    func warnIfDeprecated(_ printer: DiagnosticPrinter = DiagnosticPrinter(format: .text)) {
        guard let deprecatedSite else { return }
        // The same command with the site moved from --site to the end, where the argument goes
        // (after a template name: `cardfeed eject cards/short_news SITE`).
        var words: [String] = []
        var arguments = ProcessArguments.all.dropFirst().makeIterator()
        while let word = arguments.next() {
            if word == "--site" { _ = arguments.next() } else if !word.hasPrefix("--site=") { words.append(word) }
        }
        let command = (["cardfeed"] + words + [deprecatedSite]).joined(separator: " ")
        printer.print(Diagnostic(.warning, file: "--site", message: "deprecated, and will go: give the site as the argument instead (`\(command)`)"))
    }

    /// The folder used and why, for messages.
    var located: LocatedSite { LocatedSite.locate(site ?? deprecatedSite) }
}

/// A site folder and how it was chosen.
struct LocatedSite {
    enum Choice {
        /// Named on the command line.
        case given
        /// The current folder, which is a site.
        case currentFolder
        /// ./site, the current folder not being a site.
        case defaultFolder
    }

    let path: String
    let choice: Choice

    var folder: SiteFolder { SiteFolder(path) }
    var display: String { SiteFolder.display(folder.root) }

    static let defaultPath = "site"

    static func locate(_ given: String?) -> LocatedSite {
        if let given { return LocatedSite(path: given, choice: .given) }
        if SiteFolder(".").isSite { return LocatedSite(path: ".", choice: .currentFolder) }
        return LocatedSite(path: defaultPath, choice: .defaultFolder)
    }


    /// The line that says which folder was used when none was named; nil when one was.
    var announcement: String? {
        switch choice {
        case .given: return nil
        case .currentFolder: return "Site: the current folder (it has \(Self.present(folder)))."
        case .defaultFolder: return "Site: \(display)/ (the current folder has no \(SiteFolder.markerList))."
        }
    }

    private static func present(_ folder: SiteFolder) -> String {
        let found = ["cardfeed.yml", "cards.json", "cards"].filter { name in
            var info = stat()
            return lstat(folder.root.appendingPathComponent(name).path, &info) == 0
        }
        return found.map { $0 == "cards" ? "cards/" : $0 }.joined(separator: ", ")
    }

    /// Why there is no site to work on, with what to do instead, in the two forms a command
    /// prints it in.
    struct Missing {
        /// As a line of its own: `. is not a site: …`.
        let line: String
        /// As a diagnostic about the folder (`--diagnostics json`, GitHub's annotations), which
        /// names the folder as its file and so not again in its message: `.: not a site: …`.
        let diagnostic: Diagnostic
    }

    /// Why there is no site to work on; nil when there is one. (It looks at the folder each
    /// time it is read.)
    var missing: Missing? {
        problem.map { Missing(line: $0.line, diagnostic: Diagnostic(.error, file: display, message: $0.message)) }
    }

    /// What is wrong, as a line of its own and as the message of a diagnostic whose file is the
    /// folder.
    private var problem: (line: String, message: String)? {
        guard !folder.exists else {
            guard !folder.isSite else { return nil }
            var message = "not a site: it has no \(SiteFolder.markerList)"
            if let (site, role) = folder.enclosingSite {
                message += "; it is \(role) of the site \(SiteFolder.display(site.root)), which is probably the one you meant: give \(SiteFolder.display(site.root)) instead"
            } else {
                message += " (create one with `cardfeed init \(display)`)"
            }
            return ("\(display) is \(message)", message)
        }
        let sentence: String
        switch choice {
        case .given:
            return ("no site folder \(display) (create one with `cardfeed init \(display)`)", "no site folder: it does not exist (create one with `cardfeed init \(display)`)")
        case .currentFolder:
            sentence = "the current folder cannot be read as a site"
        case .defaultFolder:
            if let (site, role) = SiteFolder(".").enclosingSite {
                let parent = SiteFolder.display(site.root)
                sentence = "no site here: the current folder is \(role) of the site \(parent); run cardfeed there, or give the site as the argument (`cardfeed build \(parent)`)"
            } else {
                sentence = "no site here: the current folder has no \(SiteFolder.markerList), and there is no \(display)/ folder; "
                    + "give the site's folder as the argument (`cardfeed build path/to/site`), run `cardfeed init .` to make this folder a site, "
                    + "or `cardfeed init` to create \(display)/"
            }
        }
        return (sentence, sentence)
    }
}

extension Console {
    /// Prints `error: message` on standard error and ends the command with status 1, without the
    /// usage text that a ValidationError would add.
    static func fail(_ message: String) -> ExitCode {
        printError(message)
        return ExitCode.failure
    }
}
