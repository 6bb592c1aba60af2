import Foundation
import Synchronization
import CardFeedModel
import CardFeedSystem

/// The signals that end a program (`EndingSignals`) as an async sequence, so that `serve` can stop
/// cleanly on each: close the event streams, stop the server and remove its temporary build
/// folder.
enum SignalStream {
    static func interrupts() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "cardfeed.serve.signals")
        var sources: [DispatchSourceSignal] = []
        for number in EndingSignals.numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        let keep = SignalSources(sources)
        continuation.onTermination = { _ in keep.cancel() }
        return stream
    }

    /// The sources, kept for as long as the stream lasts and cancelled when it ends.
    private final class SignalSources: Sendable {
        private let sources: Mutex<[DispatchSourceSignal]>
        init(_ sources: sending [DispatchSourceSignal]) { self.sources = Mutex(sources) }
        func cancel() { sources.withLock { for source in $0 { source.cancel() } } }
    }
}
