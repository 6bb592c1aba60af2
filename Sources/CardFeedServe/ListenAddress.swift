import FlyingSocks
import Foundation
import CardFeedModel
import CardFeedSystem

/// Where `serve` listens: an IP address (IPv4 or IPv6, or `localhost`) and a port.
public struct ListenAddress: Sendable, CustomStringConvertible {
    public enum Family: Sendable { case ip4, ip6 }

    /// The address in its canonical spelling (`::` for `::0` or `0:0:0:0:0:0:0:0`).
    public let host: String
    public let family: Family
    public let port: UInt16
    /// The address itself: 4 bytes for IPv4, 16 for IPv6. Decisions are made on these, never
    /// on the spelling, which has many forms for one address.
    let bytes: [UInt8]

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public init(host: String, port: UInt16) throws(Invalid) {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if name.lowercased() == "localhost" {
            (family, bytes) = (.ip4, [127, 0, 0, 1])
        } else if let parsed = Self.parse(name) {
            (family, bytes) = parsed
        } else {
            throw Invalid(description: "--host takes an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost), not \"\(host)\"")
        }
        self.host = Self.spell(family, bytes)
        self.port = port
    }

    /// An IP address as `inet_pton` reads it (dotted quad for IPv4, no brackets for IPv6).
    static func parse(_ text: String) -> (Family, [UInt8])? {
        guard let (family, bytes) = SystemCalls.ipAddress(text) else { return nil }
        return (family == AF_INET ? .ip4 : .ip6, bytes)
    }

    private static func spell(_ family: Family, _ bytes: [UInt8]) -> String {
        SystemCalls.spell(ipAddress: bytes, family: family == .ip4 ? AF_INET : AF_INET6) ?? "?"
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`), else nil.
    static func mappedIP4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }

    /// True for an address only this machine can reach: 127.0.0.0/8 and ::1, in any spelling.
    static func isLoopback(_ bytes: [UInt8]) -> Bool {
        if bytes.count == 4 { return bytes[0] == 127 }
        if let ip4 = mappedIP4(bytes) { return ip4[0] == 127 }
        return bytes == [UInt8](repeating: 0, count: 15) + [1]
    }

    /// True for the "any" address of either family, in any spelling (`0.0.0.0`, `::`, `::0`,
    /// `::ffff:0.0.0.0`, `0:0:0:0:0:0:0:0`, ...): the server listens on every interface.
    static func isEverywhere(_ bytes: [UInt8]) -> Bool {
        (mappedIP4(bytes) ?? bytes).allSatisfy { $0 == 0 }
    }

    /// True when the server can be reached only from this machine.
    public var isLoopback: Bool { Self.isLoopback(bytes) }

    /// True when the server listens on every interface.
    public var isEverywhere: Bool { Self.isEverywhere(bytes) }

    func socketAddress(port: UInt16? = nil) throws -> any SocketAddress {
        switch family {
        case .ip4: return try sockaddr_in.inet(ip4: host, port: port ?? self.port)
        case .ip6: return try sockaddr_in6.inet6(ip6: host, port: port ?? self.port)
        }
    }

    /// The address to open in a browser (a wildcard host is shown as the loopback address of
    /// the family it accepts).
    public func url(port: UInt16? = nil) -> String {
        let shown: String
        if isEverywhere {
            shown = family == .ip4 || Self.mappedIP4(bytes) != nil ? "127.0.0.1" : "[::1]"
        } else {
            shown = family == .ip6 ? "[\(host)]" : host
        }
        return "http://\(shown):\(port ?? self.port)/"
    }

    public var description: String { family == .ip6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
