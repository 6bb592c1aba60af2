import Foundation

/// The signals that end a program by default and that a user or a system sends to stop one:
/// SIGINT (Ctrl-C), SIGTERM (`kill`, a service manager), SIGHUP (the terminal closed) and SIGQUIT
/// (Ctrl-\\), as an async sequence, so that `serve` can stop cleanly on each: close the event
/// streams, stop the server and remove its temporary build folder.
enum SignalStream {
    static func interrupts() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "cardfeed.serve.signals")
        var sources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        let keep = UncheckedBox(sources)
        continuation.onTermination = { _ in
            for source in keep.value { source.cancel() }
        }
        return stream
    }

    private final class UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
