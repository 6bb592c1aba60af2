#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals that end a program by default and that a user or a system sends to stop one:
/// SIGINT (Ctrl-C), SIGTERM (`kill`, a service manager, a cancelled CI job), SIGHUP (the
/// terminal closed) and SIGQUIT (Ctrl-\\). `serve` stops cleanly on each (`SignalStream`), and a
/// build stops its Pagefind on each (`PagefindSignals`).
package enum EndingSignals {
    package static let numbers: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
}
