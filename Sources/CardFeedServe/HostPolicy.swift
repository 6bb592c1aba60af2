import Foundation

/// Which `Host` and `Origin` a request to `serve` may carry. A page of another site can make its
/// own name resolve to 127.0.0.1 (DNS rebinding) and then read the preview as if it were its own
/// origin; its requests still name that other site in `Host`. So the preview answers only
/// requests addressed to itself: `localhost`, a loopback address, or the address it listens on,
/// with its port. When it listens on every interface, any IP address is accepted (the machine
/// may be reached by any of its own), but still no other name: rebinding needs a name.
struct HostPolicy: Sendable, Equatable {
    let address: [UInt8]
    let port: UInt16

    /// Accepts anything: for the scanner's tests of other rules.
    static let any = HostPolicy()
    private let acceptsAll: Bool

    private init() {
        address = []
        port = 0
        acceptsAll = true
    }

    init(address: ListenAddress, port: UInt16) {
        self.address = address.bytes
        self.port = port
        acceptsAll = false
    }

    /// Whether `value` (a `Host` header, or the authority of an absolute request target) names
    /// this server.
    func accepts(host value: String) -> Bool {
        if acceptsAll { return true }
        guard let (name, port) = Self.split(value) else { return false }
        guard port == self.port else { return false }
        if name.lowercased() == "localhost" { return true }
        guard let parsed = ListenAddress.parse(name)?.1 else { return false }
        return ListenAddress.isLoopback(parsed) || parsed == address || ListenAddress.isEverywhere(address)
    }

    /// Whether a request whose `Host` was accepted may come from a page at `origin`: only from
    /// the same origin (the scheme `http` and the very host and port it addressed).
    func accepts(origin: String, host: String) -> Bool {
        acceptsAll || origin.lowercased() == "http://" + host.lowercased()
    }

    /// Whether a page at `origin`, not this server's own, may read `target` all the same: only a
    /// file of the placements (`RequestPath.isPlacementsFile`), which a host page on another port
    /// previews (`serve` answers them with `Access-Control-Allow-Origin: *`), and only from a
    /// page of this machine, at `localhost` or a loopback address. A site on the web that the
    /// developer visits while `serve` runs is refused them as everything else: the cards it
    /// previews may not be published yet.
    func sharesPlacements(target: String, with origin: String) -> Bool {
        guard RequestPath.isPlacementsFile(String(target.prefix { $0 != "?" && $0 != "#" })) else { return false }
        let lower = origin.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix), let (name, _) = Self.split(String(lower.dropFirst(scheme.count))) else {
            return false
        }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        return ListenAddress.parse(name).map { ListenAddress.isLoopback($0.1) } ?? false
    }

    /// `name:port`, `[v6]:port`, or either without a port (then 80). Names keep their brackets
    /// off; an IPv6 address must have them.
    static func split(_ value: String) -> (String, UInt16)? {
        var name = Substring(value)
        var portText: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return nil }
            let rest = name[name.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
            name = name[name.index(after: name.startIndex)..<close]
            guard name.contains(":") else { return nil }
        } else {
            if let colon = name.lastIndex(of: ":") {
                portText = name[name.index(after: colon)...]
                name = name[..<colon]
            }
            guard !name.contains(":") else { return nil }
        }
        guard !name.isEmpty else { return nil }
        guard let portText else { return (String(name), 80) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit), let port = UInt16(portText) else { return nil }
        return (String(name), port)
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
