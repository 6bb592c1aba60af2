import FlyingSocks
import Foundation

/// The front door of `cardfeed serve`. FlyingFox reads a request head one byte at a time with no
/// limit on its size and no time limit: one client sending a 1 MB header kept a debug build busy
/// for over 20 seconds, answering nobody else, and an endless header grew its memory without
/// bound. The guard accepts every connection itself and reads the request heads with limits;
/// what passes is relayed, both ways, to the HTTP server listening on a private Unix socket.
///
/// - A head larger than `maximumHead` gets `431`, a malformed request line `400`, a request with
///   a body `413` (the preview serves only GET and HEAD), a head not finished within
///   `headTimeout` of its first byte `408`; then the connection is closed.
/// - An idle connection (between requests) costs a file descriptor and nothing else: there is
///   no limit on how long it may stay, since pages keep their live-reload stream open.
/// - Running out of file descriptors or a failed accept never stops the server: it waits a moment
///   and accepts again.
final class RequestGuard: Sendable {
    static let maximumHead = 64 * 1024
    static let headTimeout: Double = 10

    private let backend: sockaddr_un
    private let pool: any AsyncSocketPool

    init(backend: sockaddr_un) {
        self.backend = backend
        pool = SocketPool.make()
    }

    /// Binds `address` (errors as FlyingSocks reports them, for `PreviewServer.explain`).
    func listen(on address: any SocketAddress) throws -> Socket {
        let socket = try Socket(domain: Int32(type(of: address).family), type: .stream)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: address)
        try socket.listen()
        return socket
    }

    /// Accepts and guards connections until cancelled.
    func run(on socket: Socket) async throws {
        try await pool.prepare()
        let listener = try AsyncSocket(socket: socket, pool: pool)
        defer { try? listener.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.pool.run() }
            group.addTask { await self.cutOffSlowHeads() }
            group.addTask {
                await withDiscardingTaskGroup { connections in
                    while !Task.isCancelled {
                        do {
                            let client = try await listener.accept()
                            connections.addTask { await self.guardConnection(client) }
                        } catch {
                            // Out of file descriptors, or a client gone before it was accepted:
                            // not a reason to stop serving the others.
                            if Task.isCancelled { break }
                            try? await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Heads being read, by the client's file descriptor: when each must be complete. One task
    /// checks them all twice a second, so that idle connections cost no timer of their own.
    private let heads = HeadDeadlines()

    private func cutOffSlowHeads() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(500))
            heads.cutOff(at: Date()) { client in
                // The answer is small enough for the socket's buffer: sent without waiting.
                let answer = [UInt8](Self.response(408, "Request Timeout", "The request took too long to arrive.\n"))
                _ = answer.withUnsafeBytes { send(client.file.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                _ = shutdown(client.file.rawValue, Int32(SHUT_RDWR))
            }
        }
    }

    private func guardConnection(_ client: AsyncSocket) async {
        let server: AsyncSocket
        do {
            server = try await AsyncSocket.connected(to: backend, pool: pool)
        } catch {
            try? await client.write(Self.response(503, "Service Unavailable", "The preview server is not ready.\n"))
            try? client.close()
            return
        }
        // Each direction ends on its own; the other is then woken by shutting both sockets down
        // (not by cancelling its read, which would race the socket pool with the reuse of the
        // file descriptor once it is closed), and only then are they closed.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.relayRequests(from: client, to: server) }
            group.addTask { await Self.relay(from: server, to: client) }
            await group.next()
            for socket in [client, server] { _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_RDWR)) }
            await group.waitForAll()
        }
        heads.remove(client.socket)
        try? server.close()
        try? client.close()
    }

    /// Client to server: every byte is part of a request head, checked as it arrives.
    private func relayRequests(from client: AsyncSocket, to server: AsyncSocket) async {
        var scanner = HeadScanner()
        do {
            while true {
                let chunk = try await client.read(atMost: 16 * 1024)
                if chunk.isEmpty { return }
                let verdict = scanner.scan(chunk)
                if let started = scanner.startedAt {
                    heads.set(client.socket, deadline: started.addingTimeInterval(Self.headTimeout))
                } else {
                    heads.remove(client.socket)
                }
                // Only whole heads that passed reach the server, which reads them byte by byte.
                let ready = scanner.takeReady()
                if !ready.isEmpty { try await server.write(Data(ready)) }
                switch verdict {
                case .fine: continue
                case .refused(let status, let reason, let text):
                    try? await client.write(Self.response(status, reason, text))
                    return
                }
            }
        } catch {
            return
        }
    }

    private static func relay(from source: AsyncSocket, to target: AsyncSocket) async {
        do {
            while true {
                let chunk = try await source.read(atMost: 64 * 1024)
                if chunk.isEmpty { return }
                try await target.write(Data(chunk))
            }
        } catch {
            return
        }
    }

    static func response(_ status: Int, _ reason: String, _ text: String) -> Data {
        Data("HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n\(text)".utf8)
    }
}

extension AsyncSocket {
    /// A connection to a Unix socket.
    static func connected(to address: sockaddr_un, pool: some AsyncSocketPool) async throws -> AsyncSocket {
        let socket = try Socket(domain: AF_UNIX, type: .stream)
        let async = try AsyncSocket(socket: socket, pool: pool)
        try await async.connect(to: address)
        return async
    }
}

/// When each head being read must be complete.
final class HeadDeadlines: @unchecked Sendable {
    private let lock = NSLock()
    private var deadlines: [Int32: (socket: Socket, deadline: Date)] = [:]

    func set(_ socket: Socket, deadline: Date) {
        lock.withLock { deadlines[socket.file.rawValue] = (socket, deadline) }
    }

    func remove(_ socket: Socket) {
        lock.withLock { _ = deadlines.removeValue(forKey: socket.file.rawValue) }
    }

    /// Runs `action` on each socket whose deadline has passed and takes it out of the table,
    /// under the lock: a connection removes itself before closing its socket, so the action never
    /// meets a descriptor that was closed and reused.
    func cutOff(at now: Date, _ action: (Socket) -> Void) {
        lock.withLock {
            for (key, entry) in deadlines where entry.deadline <= now {
                action(entry.socket)
                deadlines.removeValue(forKey: key)
            }
        }
    }
}

/// Follows the request heads of one connection through its bytes, however they are split into
/// reads: where each starts and ends, how large it is, whether its request line is well formed
/// and whether it announces a body. Whole heads that pass are handed on (`takeReady`); nothing
/// of a head is, until it is whole.
struct HeadScanner {
    enum Verdict: Equatable {
        case fine
        case refused(Int, String, String)
    }

    /// When the head being read got its first byte; nil between requests (the guard's clock
    /// for `RequestGuard.headTimeout`).
    private(set) var startedAt: Date?
    private var head: [UInt8] = []
    /// Whole heads that passed, to be sent on.
    private var ready: [UInt8] = []

    /// The heads that passed since the last call.
    mutating func takeReady() -> [UInt8] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    mutating func scan(_ bytes: [UInt8]) -> Verdict {
        for byte in bytes {
            if startedAt == nil {
                // Blank lines before a request line are allowed (RFC 9112 §2.2).
                if byte == 0x0D || byte == 0x0A { continue }
                startedAt = Date()
            }
            head.append(byte)
            if head.count > RequestGuard.maximumHead {
                return .refused(431, "Request Header Fields Too Large", "The request's header is larger than \(RequestGuard.maximumHead / 1024) KB.\n")
            }
            if byte == 0x0A, head.count >= 2, head[head.count - 2] == 0x0A || (head.count >= 3 && head[head.count - 2] == 0x0D && head[head.count - 3] == 0x0A) {
                let verdict = Self.check(head)
                if verdict == .fine { ready += head }
                head.removeAll(keepingCapacity: true)
                startedAt = nil
                if verdict != .fine { return verdict }
            } else if byte == 0x0A, head.firstIndex(of: 0x0A) == head.count - 1, !Self.isRequestLine(head) {
                return .refused(400, "Bad Request", "That is not an HTTP request line.\n")
            }
        }
        return .fine
    }

    /// `METHOD SP request-target SP HTTP/1.x` with a token for a method and no control characters.
    static func isRequestLine(_ line: [UInt8]) -> Bool {
        var text = line
        while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
        let parts = text.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        guard parts[0].allSatisfy(tokenBytes.contains), parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return false }
        return ["HTTP/1.0", "HTTP/1.1"].contains(String(decoding: parts[2], as: UTF8.self))
    }

    private static func check(_ head: [UInt8]) -> Verdict {
        let lines = String(decoding: head, as: UTF8.self).split(whereSeparator: \.isNewline)
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding" || (name == "content-length" && value != "0") {
                return .refused(413, "Content Too Large", "The preview serves only GET and HEAD requests, without a body.\n")
            }
        }
        return .fine
    }
}
