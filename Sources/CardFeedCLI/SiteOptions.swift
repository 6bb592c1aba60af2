import ArgumentParser
import Foundation
import Logging
import CardFeedBuild
import CardFeedLoad
import CardFeedModel
import CardFeedRender

/// Options shared by `build`, `check`, `explain`, `config` and `serve`. A property named after a
/// setting's option (`pageSize`, `--page-size`) is that setting's (`SettingArguments`): its help
/// is the setting's `optionHelp`, and its type what the setting's `SettingOption` takes (a flag's
/// `Bool`, an option's value, optional); `noCache` is `cache_dir`'s `off` flag, `--no-cache`.
struct SiteOptions: ParsableArguments {
    @OptionGroup var location: SiteArgument

    @Option(name: .customLong("now"), parsing: .unconditional, help: ArgumentHelp(
        Setting.now.optionHelp,
        discussion: "Cards that expire at or before it are hidden; cards created after it are future cards (see future in cardfeed.yml). An offset may follow a date-time (2026-11-20T10:00:00+02:00); a time without an offset (a date alone is midnight) is on the site's clocks (timezone in cardfeed.yml, default UTC). Fix it to make a build reproducible.",
        valueName: "time"))
    var now: NowArgument?

    // Unconditional, so that `--page-size -1` reaches `validate` (which says what is allowed)
    // instead of reading as an option "-1" and failing with "Missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp(Setting.pageSize.optionHelp, valueName: "n"))
    var pageSize: Int?

    @Option(help: ArgumentHelp(Setting.locale.optionHelp, discussion: "en, de, fr, ar, he, or one the site adds in strings/; a site in several lists them in cardfeed.yml (languages:).", valueName: "locale"))
    var locale: String?

    @Option(help: ArgumentHelp(Setting.baseURL.optionHelp, discussion: "With it, the site also has \(OutputFormat.summary).", valueName: "url"))
    var baseURL: String?

    @Flag(help: ArgumentHelp(
        Setting.contentSecurityPolicy.optionHelp,
        discussion: "The policy is the site's own from cardfeed.yml (csp: \"...\"), else the built-in one, which allows script, styles and images from the site itself and images from any http(s) address."))
    var csp = false

    @Flag(help: ArgumentHelp(
        Setting.search.optionHelp,
        discussion: "The .deb and the release archive bring Pagefind, beside cardfeed; a cardfeed built from source finds it on PATH (sudo bash scripts/get-pagefind.sh installs the version CardFeed is tested with), and PAGEFIND names another. The index goes in OUTPUT/pagefind/, made before the output is replaced, so a failed index leaves the previous output as it was; serve makes it in the background once the saves pause for a second. Search works over http(s), not from files opened in a browser."))
    var search = false

    @Flag(help: ArgumentHelp(Setting.strict.optionHelp))
    var strict = false

    @Option(
        help: ArgumentHelp(
            Setting.cacheDir.optionHelp,
            discussion: "build and check keep in it what the next build can reuse rather than make again, and serve starts from it; a cache that another version of cardfeed or another site made, or a damaged one, is not used (a note says so), so it never changes what is built. It may not be inside the output folder or the site's cards/, templates/, assets/, static/ or strings/. Remove it with 'cardfeed cache clean'.",
            valueName: "dir"),
        completion: .directory)
    var cacheDir: String?

    @Flag(help: ArgumentHelp("Build without the build cache: nothing is read from it or kept in it (default: use it; see --cache-dir)."))
    var noCache = false

    @Flag(name: .shortAndLong, help: ArgumentHelp(
        "Print only warnings and errors.",
        discussion: "Without it, build and check print a line as each step ends; on a terminal, a step that takes more than half a second also shows how far it has come (entries read, cards rendered, files written) on a line redrawn in place."))
    var quiet = false

    @Flag(help: "Print the time each step took, and the peak memory.")
    var stats = false

    @Option(help: ArgumentHelp(
        "How warnings and errors are printed on standard error: text (default), or json, one object a line.",
        discussion: "Each JSON object has the keys severity, file, line, column, card (its number in the file, from 1), id, field and message, null when not known. With json, standard error holds nothing else. When the environment has GITHUB_ACTIONS=true (every GitHub Actions job), each warning and error is also printed on standard output as a workflow command (::warning file=...,line=...::...), which shows it on the pull request.",
        valueName: "format"))
    var diagnostics: DiagnosticFormat = .text

    func validate() throws {
        try location.validate()
        if let pageSize, let problem = Setting.pageSizeProblem(pageSize) { throw ValidationError("--page-size \(problem), not \(pageSize).") }
        if let locale, !StringTable.isLanguageTag(locale) { throw ValidationError("--locale: \(StringTable.notALanguageTag(locale)).") }
        if cacheDir != nil && noCache { throw ValidationError("give --cache-dir or --no-cache, not both.") }
        if cacheDir == "" { throw ValidationError("--cache-dir needs a folder's path, not an empty one.") }
    }

    func buildOptions() -> BuildOptions {
        BuildOptions(site: location.located.folder, overrides: SettingArguments.given(in: self))
    }

    /// `buildOptions()` with the build cache the settings choose, for the commands that keep one
    /// (build, check, serve). cardfeed.yml is read here for its `cache_dir:` only: the build
    /// reads it again and reports its errors, and its checks refuse a cache where it may not be.
    func buildOptionsWithCache() -> BuildOptions {
        var options = buildOptions()
        var reportedByTheBuild = Diagnostics()
        let config = ConfigLoader(site: options.site).load(overriding: options.overrides, into: &reportedByTheBuild)
        options.cache = BuildCacheFolder.chosen(by: config, site: options.site)
        return options
    }

    func logger() -> Logger {
        Console.bootstrap()
        var logger = Logger(label: "cardfeed")
        logger.logLevel = quiet ? .warning : .info
        return logger
    }

    /// Runs a build into `output` (default: SITE/public), or, without `write`, a check that
    /// keeps nothing, and prints its summary; exit status 1 when it fails.
    func run(output: String?, write: Bool) throws {
        let located = location.located
        let printer = DiagnosticPrinter(format: diagnostics)
        location.warnIfDeprecated(printer)
        if let missing = located.missing {
            if diagnostics == .text && !printer.github { throw Console.fail(missing.line) }
            printer.print(missing.diagnostic)
            throw ExitCode.failure
        }
        if !quiet, let line = located.announcement { Console.line(line) }
        var options = buildOptionsWithCache()
        options.diagnosticHandler = printer.print
        options.whenDone = { LeftToExit.keep($0) }
        if !quiet { options.progress = TerminalProgress.onStandardOutput() }
        let folder = output.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? options.site.defaultOutput
        let builder = SiteBuilder(options: options, destination: write ? .folder(folder) : .discarded, logger: logger())
        do {
            let report = try builder.run()
            LeftToExit.keep(report)
            if !quiet { Summary(report).lines.forEach { Console.line($0) } }
            if stats { Summary(report).stats.forEach { Console.line($0) } }
        } catch {
            LeftToExit.keep(error.report)
            if diagnostics == .text { Console.printFailure(error.report, wrote: write, strict: strict) }
            throw ExitCode.failure
        }
    }
}
