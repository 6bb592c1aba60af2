import FlyingSocks
import Foundation

/// Where `serve` listens: an IP address (IPv4 or IPv6, or `localhost`) and a port.
public struct ListenAddress: Sendable, CustomStringConvertible {
    public enum Family: Sendable { case ip4, ip6 }

    public let host: String
    public let family: Family
    public let port: UInt16

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public init(host: String, port: UInt16) throws(Invalid) {
        let name = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        switch name.lowercased() {
        case "localhost": self.host = "127.0.0.1"; family = .ip4
        default:
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, name, &v4) == 1 {
                self.host = name; family = .ip4
            } else if inet_pton(AF_INET6, name, &v6) == 1 {
                self.host = name; family = .ip6
            } else {
                throw Invalid(description: "--host takes an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (or localhost), not \"\(host)\"")
            }
        }
        self.port = port
    }

    /// True when the server can be reached only from this machine.
    public var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

    /// True for 0.0.0.0 and ::, every interface.
    public var isEverywhere: Bool { host == "0.0.0.0" || host == "::" }

    func socketAddress(port: UInt16? = nil) throws -> any SocketAddress {
        switch family {
        case .ip4: return try sockaddr_in.inet(ip4: host, port: port ?? self.port)
        case .ip6: return try sockaddr_in6.inet6(ip6: host, port: port ?? self.port)
        }
    }

    /// The address to open in a browser (a wildcard host is shown as the loopback address).
    public func url(port: UInt16? = nil) -> String {
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host
        return "http://\(family == .ip6 ? "[\(shown)]" : shown):\(port ?? self.port)/"
    }

    public var description: String { family == .ip6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
