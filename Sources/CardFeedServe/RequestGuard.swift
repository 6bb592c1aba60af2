import FlyingSocks
import Foundation
import CardFeedModel
import CardFeedSystem
import Synchronization

/// The front door of `cardfeed serve`. FlyingFox reads a request head one byte at a time with no
/// limit on its size and no time limit, so one client sending a huge header would keep it busy,
/// answering nobody else, and an endless header would grow its memory without bound. The guard accepts every connection itself and reads the request heads with limits;
/// what passes is relayed, both ways, to the HTTP server listening on a private Unix socket.
///
/// - A head larger than `maximumHead` gets `431`, a malformed request line `400`, a request with
///   a body `413` (the preview serves only GET and HEAD), a head not finished within
///   `headTimeout` of its first byte `408`, a request addressed to another host `421` and one
///   from a page of another origin `403` (but for the placements' files, asked for by a page
///   of this machine: see `HostPolicy`); then the connection is closed.
/// - An idle connection (between requests) costs a file descriptor and nothing else: there is
///   no limit on how long it may stay, since pages keep their live-reload stream open.
/// - Running out of file descriptors or a failed accept never stops the server: it waits a moment
///   and accepts again. It holds at most `connections.limit` connections (`ConnectionLimits`), so
///   that the HTTP server behind it never runs out of them: past that, a connection gets `503`.
final class RequestGuard: Sendable {
    static let maximumHead = 64 * 1024
    static let headTimeout: Double = 10

    private let backend: sockaddr_un
    private let address: ListenAddress
    private let pool: any AsyncSocketPool
    private let connections: OpenCount
    /// Called when the connection limit is first reached in a while.
    private let onLimit: @Sendable () -> Void

    init(backend: sockaddr_un, address: ListenAddress, connections: OpenCount, onLimit: @escaping @Sendable () -> Void) {
        self.backend = backend
        self.address = address
        self.connections = connections
        self.onLimit = onLimit
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
        let policy = HostPolicy(address: address, port: PreviewServer.port(of: try? socket.sockname()) ?? address.port)
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
                            if case .refused(let first) = self.connections.admit() {
                                if first { self.onLimit() }
                                Self.refuse(client, 503, "Service Unavailable", "Too many connections are open to the preview server; try again when some close.\n")
                                continue
                            }
                            connections.addTask {
                                await self.guardConnection(client, policy: policy)
                                self.connections.release()
                            }
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
                SystemCalls.send(answer, on: client.file.rawValue, flags: Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                _ = shutdown(client.file.rawValue, Int32(SHUT_RDWR))
            }
        }
    }

    private func guardConnection(_ client: AsyncSocket, policy: HostPolicy) async {
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
            group.addTask { await self.relayRequests(from: client, to: server, policy: policy) }
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
    private func relayRequests(from client: AsyncSocket, to server: AsyncSocket, policy: HostPolicy) async {
        var scanner = HeadScanner(policy: policy)
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

    /// Answers without waiting (the answer fits the socket's buffer) and closes.
    private static func refuse(_ client: AsyncSocket, _ status: Int, _ reason: String, _ text: String) {
        let answer = [UInt8](response(status, reason, text))
        let file = client.socket.file.rawValue
        SystemCalls.send(answer, on: file, flags: Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        // What the client already sent is read first (a request head's worth at most, so that a
        // client that keeps sending cannot hold the accept loop): closing with unread bytes would
        // reset the connection, and the answer with it.
        var read = 0
        while read < maximumHead, case let count = SystemCalls.discard(upTo: 4096, from: file, flags: Int32(MSG_DONTWAIT)), count > 0 {
            read += count
        }
        _ = shutdown(file, Int32(SHUT_WR))
        try? client.close()
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
final class HeadDeadlines: Sendable {
    private let deadlines = Mutex<[Int32: (socket: Socket, deadline: Date)]>([:])

    func set(_ socket: Socket, deadline: Date) {
        deadlines.withLock { $0[socket.file.rawValue] = (socket, deadline) }
    }

    func remove(_ socket: Socket) {
        deadlines.withLock { _ = $0.removeValue(forKey: socket.file.rawValue) }
    }

    /// Runs `action` on each socket whose deadline has passed and takes it out of the table,
    /// under the lock: a connection removes itself before closing its socket, so the action never
    /// meets a descriptor that was closed and reused.
    func cutOff(at now: Date, _ action: (Socket) -> Void) {
        deadlines.withLock { deadlines in
            for (key, entry) in deadlines where entry.deadline <= now {
                action(entry.socket)
                deadlines.removeValue(forKey: key)
            }
        }
    }
}

/// Follows the request heads of one connection through its bytes, however they are split into
/// reads: where each starts and ends, how large it is, whether its request line is well formed,
/// whether it announces a body and whether it is addressed to this server (`HostPolicy`). Whole
/// heads that pass are handed on (`takeReady`); nothing of a head is, until it is whole. Each
/// byte is looked at a bounded number of times, so a head costs time in proportion to its size.
struct HeadScanner {
    enum Verdict: Equatable {
        case fine
        case refused(Int, String, String)
    }

    let policy: HostPolicy

    init(policy: HostPolicy = .any) {
        self.policy = policy
    }

    /// When the head being read got its first byte; nil between requests (the guard's clock
    /// for `RequestGuard.headTimeout`).
    private(set) var startedAt: Date?
    private var head: [UInt8] = []
    /// Whether the head being read has had its request line checked (it ended).
    private var requestLineChecked = false
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
            guard byte == 0x0A else { continue }
            if !requestLineChecked {
                // The first line feed ends the request line.
                requestLineChecked = true
                if !Self.isRequestLine(head) { return .refused(400, "Bad Request", "That is not an HTTP request line.\n") }
            } else if head[head.count - 2] == 0x0A || (head.count >= 3 && head[head.count - 2] == 0x0D && head[head.count - 3] == 0x0A) {
                let (verdict, forwarded) = check(head)
                if verdict == .fine { ready += forwarded }
                head.removeAll(keepingCapacity: true)
                requestLineChecked = false
                startedAt = nil
                if verdict != .fine { return verdict }
            }
        }
        return .fine
    }

    /// `METHOD SP request-target SP HTTP/1.x` with a token for a method and no control characters.
    static func isRequestLine(_ line: [UInt8]) -> Bool {
        requestLine(line) != nil
    }

    /// The method, target and version of a request line, if it is well formed.
    static func requestLine(_ line: some Collection<UInt8>) -> (method: String, target: String, version: String)? {
        var text = Array(line)
        while let last = text.last, last == 0x0A || last == 0x0D { text.removeLast() }
        let parts = text.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        guard parts[0].allSatisfy(tokenBytes.contains), parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard ["HTTP/1.0", "HTTP/1.1"].contains(version) else { return nil }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), version)
    }

    /// Checks a whole head (no body, addressed to this server) and returns what is handed on:
    /// the request line and the only header fields the server uses, `Host` and `Connection`.
    /// The HTTP server reads each line in time quadratic in its length (FlyingFox's line reader
    /// copies the line so far at every byte), so it gets only short lines: the target is limited to `maximumTarget`
    /// and every other field stays here.
    private func check(_ head: [UInt8]) -> (Verdict, [UInt8]) {
        let (verdict, accepted) = inspect(head)
        guard let accepted else { return (verdict, []) }
        var forwarded = accepted.requestLine + "\r\n"
        if let host = accepted.host { forwarded += "Host: \(host)\r\n" }
        if let connection = accepted.connection { forwarded += "Connection: \(connection)\r\n" }
        return (.fine, Array((forwarded + "\r\n").utf8))
    }

    /// What of an accepted head is handed on.
    private struct Accepted {
        var requestLine: String
        var host: String?
        var connection: String?
    }

    /// The longest request target handed on (`414` beyond): far more than any path of a built
    /// site with a query, and short enough for the server's line reader.
    static let maximumTarget = 2048

    private func inspect(_ head: [UInt8]) -> (Verdict, Accepted?) {
        var lines = head.split(separator: 0x0A).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
        }
        guard let request = Self.requestLine(Array(lines.removeFirst().utf8)) else {
            return (.refused(400, "Bad Request", "That is not an HTTP request line.\n"), nil)
        }
        if request.target.utf8.count > Self.maximumTarget {
            return (.refused(414, "URI Too Long", "The request's target is longer than \(Self.maximumTarget) bytes.\n"), nil)
        }
        var connection: String?
        var hosts: [String] = []
        var origins: [String] = []
        for line in lines {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            switch name {
            case "transfer-encoding":
                return (Self.bodyRefused, nil)
            case "content-length" where value != "0":
                return (Self.bodyRefused, nil)
            case "connection":
                // The only values the server acts on; anything else is its default.
                for token in value.lowercased().split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where ["close", "keep-alive"].contains(token) {
                    connection = token
                }
            case "host": hosts.append(value)
            case "origin": origins.append(value)
            default: break
            }
        }
        // An absolute target (`GET http://host/path`) names the host the server must use
        // (RFC 9112 §3.2.2), whatever the Host header says.
        var host = hosts.first
        var target = request.target
        if !target.hasPrefix("/") {
            guard target.lowercased().hasPrefix("http://") else { return (.refused(400, "Bad Request", "The request's target is not a path.\n"), nil) }
            let authority = target.dropFirst(7).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            host = String(authority)
            // The server is handed the path alone, as a browser sends it.
            let rest = target.dropFirst(7 + authority.count)
            target = rest.hasPrefix("/") ? String(rest) : "/" + rest
        } else if hosts.count > 1 || (hosts.isEmpty && request.version == "HTTP/1.1") {
            return (.refused(400, "Bad Request", "An HTTP/1.1 request needs one Host header.\n"), nil)
        }
        if let host, !policy.accepts(host: host) {
            return (.refused(421, "Misdirected Request", "This preview server answers only requests addressed to itself (http://127.0.0.1:\(policy.port)/, localhost or the --host it was given), not to \"\(Self.printable(host))\". A page of another site may be trying to read it through DNS rebinding.\n"), nil)
        }
        if origins.count > 1 || origins.contains(where: { !policy.accepts(origin: $0, host: host ?? "") && !policy.sharesPlacements(target: target, with: $0) }) {
            return (.refused(403, "Forbidden", "This preview server answers only its own pages, not pages of \"\(Self.printable(origins.first ?? ""))\".\n"), nil)
        }
        return (.fine, Accepted(requestLine: "\(request.method) \(target) \(request.version)", host: host, connection: connection))
    }

    private static let bodyRefused = Verdict.refused(413, "Content Too Large", "The preview serves only GET and HEAD requests, without a body.\n")

    /// A header value as it may be quoted back: printable ASCII only, and not too long.
    static func printable(_ value: String) -> String {
        let kept = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        let text = String(String.UnicodeScalarView(kept.prefix(100)))
        return kept.count > 100 ? text + "…" : text
    }
}
