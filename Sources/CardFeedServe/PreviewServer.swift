import FlyingFox
import FlyingSocks
import Foundation
import Logging
import CardFeedBuild

/// `cardfeed serve`: builds the site into a private folder, serves it over HTTP, rebuilds when
/// an input changes and tells the open pages to reload (or shows them the errors).
public struct PreviewServer: Sendable {
    public let options: BuildOptions
    public let address: ListenAddress
    let logger: Logger
    /// The builder's own logger: quieter than `logger` after the first build (warnings and errors only).
    let buildLogger: Logger
    /// `--stats`: print the time of each step of every rebuild.
    public var stats = false

    /// Why serving could not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(options: BuildOptions, address: ListenAddress, logger: Logger) {
        self.options = options
        self.address = address
        self.logger = logger
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        buildLogger = quiet
    }

    /// Serves until a signal that ends a program (SIGINT, SIGTERM, SIGHUP, SIGQUIT). `listening` is called with the URL once the server is up.
    public func run(listening: @escaping @Sendable (String) async -> Void = { _ in }) async throws(Failure) {
        let builder: PreviewBuilder
        let channel = ReloadChannel()
        do {
            builder = try PreviewBuilder(options: options, logger: logger) {
                Task { await channel.send(event: "search", data: "{}") }
            }
        } catch {
            throw Failure(description: "cannot create a temporary folder for the preview: \(error.localizedDescription)")
        }
        defer { builder.removeWorkFolder() }
        let watcher = SiteWatcher(site: options.site, polling: ProcessInfo.processInfo.environment[SiteWatcher.pollingVariable] != nil)
        if watcher.method != "inotify" {
            logger.warning("watching the site by \(watcher.method): on a large site, changes may take seconds to be seen. To be told of changes at once, raise fs.inotify.max_user_watches (sysctl) above the number of folders in the site, or keep fewer folders in it")
        }
        let changes = watcher.changes()
        let interrupts = SignalStream.interrupts()

        // The port is taken before the first build, so that a port in use is said at once rather
        // than after building the whole site; requests wait in the socket's queue until it is built.
        let socketAddress: any SocketAddress
        do { socketAddress = try address.socketAddress() } catch {
            throw Failure(description: "cannot listen on \(address): \(error.localizedDescription)")
        }
        // Visitors reach the HTTP server only through the guard, which checks each request head;
        // the server itself listens on a Unix socket in the private work folder.
        let limits = ConnectionLimits(descriptors: ConnectionLimits.raiseFileLimit())
        let backend = sockaddr_un.unix(path: builder.workFolder.appendingPathComponent("http.sock").path)
        let requestGuard = RequestGuard(backend: backend, address: address, connections: OpenCount(limit: limits.connections)) { [logger] in
            logger.warning("\(limits.connections) connections are open, as many as this process's limit on open files allows; new ones get 503 until some close (raise it with `ulimit -n`)")
        }
        let listener: Socket
        do { listener = try requestGuard.listen(on: socketAddress) } catch {
            throw Failure(description: Self.explain(error, address: address))
        }
        switch await builder.build() {
        case .built(let report, let seconds):
            logger.info("Built \(Console.plural(report.cardsShown, "card")) into \(Console.plural(report.pagesRendered, "page")) in \(Self.format(seconds)).")
        case .failed(let errors, _):
            logger.error("the site did not build (\(Console.plural(errors.count, "error"))); serving the errors until it does")
        }

        let handler = PreviewHandler(
            builder: builder, channel: channel, instance: String(UInt32.random(in: 0...UInt32.max), radix: 36),
            eventStreams: OpenCount(limit: limits.eventStreams)
        ) { [logger] in
            logger.warning("\(limits.eventStreams) pages are open with live reload, as many as this process's limit on open files allows; more get 503 and do not reload until some close")
        }
        let server = HTTPServer(address: backend, timeout: 30, logger: .disabled, handler: handler)

        enum Ended: Sendable { case interrupted, serverStopped }
        do {
            try await withThrowingTaskGroup(of: Ended.self) { group in
                group.addTask {
                    try await server.run()
                    return .serverStopped
                }
                group.addTask {
                    for await _ in interrupts { return .interrupted }
                    return .interrupted
                }
                group.addTask {
                    try await server.waitUntilListening(timeout: 10)
                    try await requestGuard.run(on: listener)
                    return .serverStopped
                }
                group.addTask { [self] in
                    try await server.waitUntilListening(timeout: 10)
                    let url = address.url(port: Self.port(of: try? listener.sockname()))
                    await listening(url)
                    await watch(changes, watcher: watcher, builder: builder, channel: channel, handler: handler)
                    return .serverStopped
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(15))
                        await channel.heartbeat()
                    }
                    return .serverStopped
                }
                defer { group.cancelAll() }
                if try await group.next() == .interrupted {
                    logger.info("Stopping…")
                    await channel.close()
                    await server.stop(timeout: 1)
                }
            }
        } catch {
            throw Failure(description: Self.explain(error, address: address))
        }
        // Removed before it is said to be (the `defer` above is for the ways out that throw).
        builder.removeWorkFolder()
        logger.info("Stopped; the preview build was removed.")
    }

    /// Rebuilds after each settled change, and tells the pages.
    private func watch(_ changes: AsyncStream<Void>, watcher: SiteWatcher, builder: PreviewBuilder, channel: ReloadChannel, handler: PreviewHandler) async {
        for await _ in changes {
            let changed = watcher.takeChanges()
            let seen = ContinuousClock.now
            let what = changed.isEmpty ? "the site" : changed.prefix(3).joined(separator: ", ") + (changed.count > 3 ? " and \(changed.count - 3) more" : "")
            switch await builder.build(logger: buildLogger) {
            case .built(let report, let seconds):
                await channel.send(event: "reload", data: handler.rebuilt(builder.current))
                let pages = await channel.clientCount
                let total = ContinuousClock.now - seen
                logger.info("Changed \(what): rebuilt in \(Self.format(seconds)) (\(Console.plural(report.cardsShown, "card")), \(Console.plural(report.pagesRendered, "page")), \(Console.plural(report.filesWritten, "file")) written); updating \(Console.plural(pages, "open page")) \(Self.format(total)) after the change was seen.")
                if stats { logger.info("      steps: \(report.stepSeconds.map { "\($0.step) \(Self.format($0.seconds))" }.joined(separator: ", "))") }
            case .failed(let errors, _):
                await channel.send(event: "failed", data: handler.hello(builder.current))
                logger.error("Changed \(what): the build failed with \(Console.plural(errors.count, "error")); the last good build stays served and the open pages show the errors.")
            }
        }
    }

    static func port(of address: Socket.Address?) -> UInt16? {
        switch address {
        case .ip4(_, let port), .ip6(_, let port): return port
        default: return nil
        }
    }

    static func format(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

    static func format(_ duration: Duration) -> String {
        format(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// A sentence for the usual reasons a server cannot start.
    static func explain(_ error: any Error, address: ListenAddress) -> String {
        if case SocketError.failed(_, let code, _) = error {
            switch code {
            case EADDRINUSE:
                return "port \(address.port) on \(address.host) is already in use (is another `cardfeed serve` running?); stop that program or choose another port with --port"
            case EACCES:
                return "not allowed to listen on port \(address.port) (ports below 1024 need privileges); choose another port with --port"
            case EADDRNOTAVAIL:
                return "\(address.host) is not an address of this machine; choose another --host"
            default: break
            }
        }
        return "cannot serve on \(address): \(error.localizedDescription)"
    }
}

/// Counting words, as the command line does.
enum Console {
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
