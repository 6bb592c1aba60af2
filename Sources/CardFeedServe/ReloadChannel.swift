import FlyingSocks
import Foundation

/// Server-sent events to every open page: `hello` when a page connects (the build it should
/// show and the current errors), `reload` after a good rebuild, `failed` with the errors of a
/// failed one. EventSource reconnects by itself, so a restarted server is found again.
public actor ReloadChannel {
    private var clients: [UInt64: AsyncStream<[UInt8]>.Continuation] = [:]
    private var nextID: UInt64 = 0
    private var closed = false

    public init() {}

    public var clientCount: Int { clients.count }

    /// A new client's stream, starting with `first` (already encoded with `message`);
    /// `ended` is called when the client is gone.
    func subscribe(first: [UInt8], ended: @escaping @Sendable () -> Void = {}) -> EventStreamBytes {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(64))
        // Ask the browser to retry after a second when the connection drops.
        continuation.yield(Array("retry: 1000\n\n".utf8) + first)
        if closed {
            continuation.finish()
        } else {
            nextID += 1
            clients[nextID] = continuation
        }
        return EventStreamBytes(stream: stream, ending: Ending(channel: self, id: nextID, ended: ended))
    }

    /// Sends one event to every connected page.
    public func send(event: String, data: String) {
        broadcast(Self.message(event: event, data: data))
    }

    /// A comment line, which keeps idle connections open and finds the dead ones.
    func heartbeat() { broadcast(Array(": keep-alive\n\n".utf8)) }

    private func broadcast(_ bytes: [UInt8]) {
        for (id, client) in clients {
            if case .terminated = client.yield(bytes) { clients[id] = nil }
        }
    }

    func remove(_ id: UInt64) {
        clients[id]?.finish()
        clients[id] = nil
    }

    /// Ends every stream, so that their connections can close; for shutdown.
    public func close() {
        closed = true
        for client in clients.values { client.finish() }
        clients = [:]
    }

    /// One event in the `text/event-stream` format; `data` must be a single line (JSON is).
    static func message(event: String, data: String) -> [UInt8] {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined()
        return Array("event: \(event)\n\(lines)\n".utf8)
    }

    /// Unregisters a client when its response body is dropped (the connection closed).
    final class Ending: Sendable {
        let channel: ReloadChannel
        let id: UInt64
        let ended: @Sendable () -> Void
        init(channel: ReloadChannel, id: UInt64, ended: @escaping @Sendable () -> Void) {
            self.channel = channel
            self.id = id
            self.ended = ended
        }
        deinit {
            ended()
            let (channel, id) = (channel, id)
            Task { await channel.remove(id) }
        }
    }
}

/// The bytes of one client's event stream, as the buffered sequence FlyingFox sends as a
/// chunked response body (one chunk per event, written as soon as it is sent).
struct EventStreamBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>
    let ending: ReloadChannel.Ending

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), ending: ending) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<[UInt8]>.Iterator
        let ending: ReloadChannel.Ending
        var pending: [UInt8] = []

        mutating func next() async -> UInt8? {
            guard let buffer = await nextBuffer(suggested: 1) else { return nil }
            return buffer.first
        }

        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if pending.isEmpty {
                guard let message = await base.next() else { return nil }
                pending = message
            }
            let take = Swift.max(1, Swift.min(count, pending.count))
            let buffer = Array(pending.prefix(take))
            pending.removeFirst(take)
            return buffer
        }
    }
}
