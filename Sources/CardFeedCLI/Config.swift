import ArgumentParser
import Foundation
import CardFeedBuild
import CardFeedLoad
import CardFeedModel
import CardFeedRender

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print every setting a build of the site uses, and where each came from.",
        discussion: """
            Reads cardfeed.yml as a build does, with the same options applied, and prints each \
            setting (every key of cardfeed.yml, and --now and --strict) with the value a build \
            uses and where it came from: default, cardfeed.yml:LINE, or the option that gave it \
            (--page-size). Nothing is built.

            With --json, standard output holds one JSON object: site, settings (key, value, \
            source, default, type, option: null for a key of the file alone, in_file: false for \
            an option of the command line alone) and \
            output_formats (name, file, media_type, escaping, view, needs_base_url, written: \
            whether a build with these settings writes it), the files the build makes besides \
            its pages.

            Exits with status 1 when cardfeed.yml or an option has an error, which is printed \
            on standard error.

            Examples:
              cardfeed config
              cardfeed config my-site --page-size 5 --json
            """)

    @OptionGroup var options: SiteOptions

    @Flag(help: "Print one JSON object instead of lines of text.")
    var json = false

    func validate() throws { try options.validate() }

    func run() throws {
        let printer = DiagnosticPrinter(format: options.diagnostics)
        options.location.warnIfDeprecated(printer)
        let located = options.location.located
        if let missing = located.missing {
            if options.diagnostics == .text { throw Console.fail(missing.line) }
            printer.print(missing.diagnostic)
            throw ExitCode.failure
        }
        let buildOptions = options.buildOptions()
        var diagnostics = Diagnostics()
        let config = ConfigLoader(site: buildOptions.site).load(overriding: buildOptions.overrides, into: &diagnostics)
        // As `check` finds it: against the output a build without --output replaces.
        if let misplaced = BuildCacheFolder.placementError(config: config, site: buildOptions.site, output: buildOptions.site.defaultOutput) {
            diagnostics.append(misplaced)
        }
        printer.print(diagnostics.all)
        if !diagnostics.errors.isEmpty { throw ExitCode.failure }
        if json {
            Console.line(Self.json(config, site: located.path))
        } else {
            Self.lines(config, site: located.path).forEach { Console.line($0) }
        }
    }

    /// "page_size        5            --page-size", one line a setting, in columns.
    static func lines(_ config: SiteConfig, site: String) -> [String] {
        let rows = Setting.all.map { ($0.name, $0.value(config).text, config.source(of: $0).description) }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let valueWidth = min(40, rows.map(\.1.count).max() ?? 0)
        return ["Settings of \(site):"] + rows.map { name, value, source in
            let padded = value.count < valueWidth ? value + String(repeating: " ", count: valueWidth - value.count) : value
            return "  " + name + String(repeating: " ", count: nameWidth - name.count) + "  " + padded + "  " + source
        }
    }

    static func json(_ config: SiteConfig, site: String) -> String {
        let settings: [[String: Any]] = Setting.all.map { setting in
            [
                "key": setting.name, "value": setting.value(config).json, "source": config.source(of: setting).description,
                "default": setting.fallback, "type": setting.type, "option": setting.option ?? NSNull(), "in_file": setting.inFile,
                "help": setting.help,
            ]
        }
        let written = OutputFormat.written(withBaseURL: config.baseURL != nil)
        let formats: [[String: Any]] = OutputFormat.all.map { format in
            [
                "name": format.name, "file": format.fileName, "media_type": format.mediaType, "escaping": format.escaping.rawValue,
                "view": format.view.rawValue, "needs_base_url": format.needsBaseURL, "written": written.contains(format),
            ]
        }
        let object: [String: Any] = ["site": site, "settings": settings, "output_formats": formats]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
