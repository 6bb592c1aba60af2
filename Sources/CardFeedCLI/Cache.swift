import ArgumentParser
import Foundation
import CardFeedBuild
import CardFeedLoad
import CardFeedModel

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the build cache.",
        discussion: """
            build and check keep what the next build can reuse in a cache folder, and serve \
            starts from it: SITE/.cardfeed-cache unless --cache-dir or cache_dir: in cardfeed.yml \
            moves it (--no-cache goes without). A cache that another version of cardfeed or \
            another site made, or a damaged one, is not used, and a note says so: it never \
            changes what is built.
            """,
        subcommands: [CacheClean.self])
}

struct CacheClean: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the build cache.",
        discussion: """
            Removes the folder the build cache is kept in: --cache-dir DIR, else cache_dir: in \
            SITE/cardfeed.yml, else SITE/.cardfeed-cache. The next build then makes everything \
            again (and a new cache). Prints the folder removed, or that there was none (exit \
            status 0 either way).

            Only a folder that holds the CACHEDIR.TAG file cardfeed writes into its cache is \
            removed: any other (a mistyped --cache-dir, a folder of your own) is refused with \
            exit status 1, and left as it is.

            Examples:
              cardfeed cache clean
              cardfeed cache clean my-site
              cardfeed cache clean --cache-dir ~/.cache/cardfeed/my-site
            """)

    @OptionGroup var location: SiteArgument

    @Option(
        help: ArgumentHelp(
            "The cache folder to remove (default: cache_dir in cardfeed.yml, else SITE/.cardfeed-cache).",
            discussion: "With it, the site's cardfeed.yml is not read.",
            valueName: "dir"),
        completion: .directory)
    var cacheDir: String?

    func validate() throws {
        try location.validate()
        if cacheDir == "" { throw ValidationError("--cache-dir needs a folder's path, not an empty one.") }
    }

    func run() throws {
        location.warnIfDeprecated()
        guard let cache = try chosen() else { return }
        do {
            if try cache.remove() {
                Console.line("Removed the build cache \(SiteFolder.display(cache.url)).")
            } else {
                Console.line("No build cache at \(SiteFolder.display(cache.url)): nothing to remove.")
            }
        } catch {
            throw Console.fail(error.description)
        }
    }

    /// The cache `--cache-dir` names, else the one the site's settings choose. Refused (the
    /// errors printed) when cardfeed.yml cannot say.
    private func chosen() throws -> BuildCacheFolder? {
        if let cacheDir { return BuildCacheFolder(URL(fileURLWithPath: cacheDir, isDirectory: true)) }
        let located = location.located
        if let missing = located.missing { throw Console.fail(missing.line) }
        if let line = located.announcement { Console.line(line) }
        var diagnostics = Diagnostics()
        let config = ConfigLoader(site: located.folder).load(into: &diagnostics)
        // A cardfeed.yml with errors may have meant another cache_dir: nothing is removed on a guess.
        guard diagnostics.errors.isEmpty else {
            DiagnosticPrinter(format: .text).print(diagnostics.errors)
            throw Console.fail("cannot tell where the build cache is until \(located.folder.display(ConfigLoader(site: located.folder).file)) is fixed; or give the folder with --cache-dir")
        }
        return BuildCacheFolder.chosen(by: config, site: located.folder)
    }
}
