import Foundation
import Synchronization

/// How many connections `serve` holds at once, worked out from the file descriptors the process
/// may open: each connection costs three (the visitor's socket, the guard's connection to the
/// HTTP server, and the server's end of it), and running out of descriptors made the HTTP
/// server's accept fail, which stopped `serve`. A part of the descriptors is kept for builds
/// (reading cards, writing pages) and the watcher; the event streams of open pages may take half
/// the connections, so that pages are still served when too many are open.
struct ConnectionLimits: Sendable, Equatable {
    /// Connections the guard holds; past that, a new one gets `503` and is closed.
    let connections: Int
    /// Event streams (`/_cardfeed/events`) open at once; past that, `503`.
    let eventStreams: Int

    /// More than this many open pages is not a preview any more, whatever the system allows.
    static let mostConnections = 10_000

    init(descriptors: Int) {
        let reserve = max(64, descriptors / 8)
        connections = min(Self.mostConnections, max(8, (descriptors - reserve) / 3))
        eventStreams = max(4, connections / 2)
    }

    /// Raises the soft limit on open files to the hard one where it is lower (often 1,024
    /// against 500,000 or more), and returns the soft limit then in force.
    static func raiseFileLimit() -> Int {
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY is the largest value
    }
}

/// A count of what is open against a limit, which says when the limit is first reached in a
/// while, so that a refusal is logged once rather than for every connection refused.
final class OpenCount: Sendable {
    let limit: Int
    private let state = Mutex((open: 0, refusing: false))

    init(limit: Int) { self.limit = limit }

    enum Admission { case admitted, refused(first: Bool) }

    /// Counts one more open, unless the limit is reached.
    func admit() -> Admission {
        state.withLock { state in
            guard state.open < limit else {
                defer { state.refusing = true }
                return .refused(first: !state.refusing)
            }
            state.open += 1
            if state.open < limit { state.refusing = false }
            return .admitted
        }
    }

    func release() {
        state.withLock { $0.open -= 1 }
    }

    var open: Int { state.withLock { $0.open } }
}
