import ArgumentParser
import CardFeedServe
import Foundation
import Logging

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Preview the site on this machine, rebuilt as you edit.",
        discussion: """
            Builds SITE into a private temporary folder (SITE/public is not touched) and serves \
            it at http://127.0.0.1:4000/. Every change to cards.json, cards/, templates/, assets/, static/, \
            strings/ or cardfeed.yml rebuilds the site once, and every open page reloads by \
            itself. When a build fails, the last good pages stay served and the open pages show \
            the errors, with file and line, until the file is fixed. The site's placements \
            (placements: in cardfeed.yml) are shown in their three forms at /_cardfeed/placements/, \
            each language's at /_cardfeed/placements/<language>/ (see docs/preview.md). Ctrl-C \
            stops the server and removes the temporary folder.
            """)

    @OptionGroup var options: SiteOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 4000

    @Option(help: ArgumentHelp(
        "The address to listen on.",
        discussion: "127.0.0.1 (the default) is reachable only from this machine; 0.0.0.0 or :: would serve the site to the whole network.",
        valueName: "ip"))
    var host = "127.0.0.1"

    @Flag(help: "Open the site in the default browser once it is served.")
    var open = false

    func validate() throws {
        try options.validate()
        do { _ = try ListenAddress(host: host, port: port) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let logger = FlushingHandler.logger(options.logger())
        options.location.warnIfDeprecated()
        let located = options.location.located
        if let missing = located.missing { throw Console.fail(missing.line) }
        if let line = located.announcement { Console.line(line) }
        let address = try ListenAddress(host: host, port: port)
        if address.isEverywhere {
            logger.warning("listening on \(address.host): anyone who can reach this machine can read the site")
        }
        var buildOptions = options.buildOptionsWithCache()
        buildOptions.diagnosticHandler = DiagnosticPrinter(format: options.diagnostics).print
        var server = PreviewServer(options: buildOptions, address: address, logger: logger)
        server.stats = options.stats
        let open = self.open
        do {
            try await server.run { url in
                // Always printed, even with --quiet: it is what the user came for.
                Console.line("Serving \(located.display) at \(url) (Ctrl-C to stop)")
                fflush(nil)
                if open { Browser.open(url) }
            }
        } catch {
            Console.printError(error.description)
            throw ExitCode.failure
        }
    }
}

/// Flushes standard output after each line, so that progress reaches a pipe (an editor's
/// terminal, a test) as it happens rather than when the buffer fills.
struct FlushingHandler: LogHandler {
    var base: any LogHandler

    static func logger(_ logger: Logger) -> Logger {
        var flushing = Logger(label: logger.label) { label in FlushingHandler(base: Console.PlainHandler(label: label)) }
        flushing.logLevel = logger.logLevel
        return flushing
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        base.log(event: event)
        fflush(nil)
    }
}

/// Opens a URL in the user's browser. The opener's exit status is how a failure shows (no
/// display, no browser installed): it runs in the background and, if it fails, the user is told
/// the URL to open by hand.
enum Browser {
    static func open(_ url: String) {
        #if os(macOS)
        let names = ["open"]
        #else
        let names = ["xdg-open", "sensible-browser"]
        #endif
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        let tool = names.lazy.compactMap { name in
            folders.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }.first
        guard let tool else {
            warn("found no program to open a browser with (\(names.joined(separator: " or ")))", url)
            return
        }
        // Foundation's Process, not swift-subprocess nor `ChildProcess`: the opener is started and
        // left to run, its output discarded and only its exit status read, and nothing ends it,
        // so none of what `ChildProcess` does for Pagefind (a process group ended whole, the
        // output's tail, the pid kept until then) is needed here; swift-subprocess would add a
        // package, and swift-system under it, to every build for this one call.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { process in
            if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
                warn("could not start a browser (\(tool) \(process.terminationReason == .uncaughtSignal ? "was killed by signal" : "exited with status") \(process.terminationStatus))", url)
            }
        }
        do { try process.run() } catch {
            warn("could not start a browser (\(tool): \(error.localizedDescription))", url)
        }
    }

    private static func warn(_ reason: String, _ url: String) {
        Console.printError("\(reason); open \(url) in a browser by hand", prefix: "warning: ")
    }
}
