import ArgumentParser
import CardFeedCore
import Foundation

/// The site a command works on, given the same way to every command: an optional positional
/// argument. Without one, the current folder is the site when it looks like one (it has
/// cardfeed.yml, cards.json or cards/), else ./site.
struct SiteArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The site folder (default: the current folder when it has cardfeed.yml, cards.json or cards/, else ./site).",
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

    /// The folder used and why, for messages.
    var located: LocatedSite { LocatedSite.locate(site ?? deprecatedSite) }
}

/// A site folder and how it was chosen.
struct LocatedSite {
    enum Choice {
        /// Named on the command line.
        case given
        /// The current folder, which looks like a site.
        case currentFolder
        /// ./site, the current folder not looking like a site.
        case defaultFolder
    }

    let path: String
    let choice: Choice

    var folder: SiteFolder { SiteFolder(path) }
    var display: String { SiteFolder.display(folder.root) }

    static let defaultPath = "site"

    static func locate(_ given: String?) -> LocatedSite {
        if let given { return LocatedSite(path: given, choice: .given) }
        if SiteFolder(".").looksLikeSite { return LocatedSite(path: ".", choice: .currentFolder) }
        return LocatedSite(path: defaultPath, choice: .defaultFolder)
    }

    private static var markerList: String { "cardfeed.yml, cards.json or cards/" }

    /// The line that says which folder was used when none was named; nil when one was.
    var announcement: String? {
        switch choice {
        case .given: return nil
        case .currentFolder: return "Site: the current folder (it has \(Self.present(folder)))."
        case .defaultFolder: return "Site: \(display)/ (the current folder has no \(Self.markerList))."
        }
    }

    private static func present(_ folder: SiteFolder) -> String {
        let found = SiteFolder.markers.filter { name in
            var info = stat()
            return lstat(folder.root.appendingPathComponent(name).path, &info) == 0
        }
        return found.map { $0 == "cards" ? "cards/" : $0 }.joined(separator: ", ")
    }

    /// Why there is no site to work on, with what to do instead; nil when the folder exists.
    var missing: String? {
        guard !folder.exists else { return nil }
        switch choice {
        case .given:
            return "no site folder \(display) (create one with `cardfeed init \(display)`)"
        case .currentFolder:
            return "the current folder cannot be read as a site"
        case .defaultFolder:
            return "no site here: the current folder has no \(Self.markerList), and there is no \(display)/ folder; "
                + "give the site's folder as the argument (`cardfeed build path/to/site`), run `cardfeed init .` to make this folder a site, "
                + "or `cardfeed init` to create \(display)/"
        }
    }

    /// For commands that write into a site (`eject`): why this folder is not a site; nil when it is one.
    var notASite: String? {
        if let missing { return missing }
        guard !folder.looksLikeSite else { return nil }
        return "\(display) is not a site: it has no \(Self.markerList) (create one with `cardfeed init`)"
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
