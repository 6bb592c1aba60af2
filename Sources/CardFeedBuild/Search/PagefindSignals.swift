import Dispatch
import Synchronization
import CardFeedModel
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cardfeed build`'s Pagefind, stopped when a signal ends the build (`EndingSignals`). Left
/// alone, Pagefind would outlive the build, indexing on every core for up to minutes: it runs
/// in a process group of its own (`ChildProcess`, so that it can be ended with all it started),
/// which a terminal's Ctrl-C does not reach.
///
/// A signal while a run is under way stops the run; the build then removes what it was writing
/// and ends by that signal (`endProcessIfSignalled`), as it would have without search. At any
/// other time the process ends by the signal at once. The signals are watched from the first
/// run to the end of the process: libdispatch handles a signal for the whole process, and a
/// disposition put back under it could lose one. A signal the process was started ignoring
/// (`nohup`, a script's background job) stays ignored; Pagefind gets the default
/// (`ChildProcess`), but runs in a group of its own, which a terminal's signals do not reach.
package final class PagefindSignals: Sendable {
    package static let shared = PagefindSignals()

    private struct State {
        var watching = false
        /// The run under way, which a signal stops.
        var run: (any Stoppable)?
        /// The signal that came while a run was under way.
        var received: Int32?
    }
    private let state = Mutex(State())
    /// Kept for the rest of the process.
    private let sources = Mutex<[DispatchSourceSignal]>([])
    private let queue = DispatchQueue(label: "cardfeed.build.signals")

    private init() {}

    /// Runs `body`, which runs `process` (Pagefind, or its version probe); a signal meanwhile
    /// ends the process and all it started.
    package func during<T, E: Error>(_ process: any Stoppable, _ body: () throws(E) -> T) throws(E) -> T {
        watch()
        // A signal received before (during the version probe, say) is kept: it ends the build.
        state.withLock { $0.run = process }
        defer { state.withLock { $0.run = nil } }
        return try body()
    }

    /// Whether a signal came during a run.
    package var signalled: Bool { state.withLock { $0.received != nil } }

    /// Ends the process by the signal that came during a run, if one did: called once
    /// the build has removed what it was writing.
    package func endProcessIfSignalled() {
        if let number = state.withLock({ $0.received }) { Self.end(by: number) }
    }

    /// Starts watching, once; returns when libdispatch handles the signals, so that none comes
    /// between being ignored here and being handled there.
    private func watch() {
        let first = state.withLock { state in
            defer { state.watching = true }
            return !state.watching
        }
        guard first else { return }
        let registered = DispatchGroup()
        sources.withLock { sources in
            for number in EndingSignals.numbers {
                let previous = signal(number, SIG_IGN)
                if Self.isIgnore(previous) { continue }
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [self] in received(number) }
                registered.enter()
                source.setRegistrationHandler { registered.leave() }
                source.resume()
                sources.append(source)
            }
        }
        registered.wait()
    }

    private func received(_ number: Int32) {
        let run = state.withLock { state -> (any Stoppable)? in
            guard let run = state.run else { return nil }
            if state.received == nil { state.received = number }
            return run
        }
        guard let run else { Self.end(by: number) }
        run.stop()
    }

    /// Ends the process by the signal itself, so that the shell or CI that started it sees how
    /// it ended. The calling thread may block it, as every libdispatch thread does.
    private static func end(by number: Int32) -> Never {
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        exit(128 + number)  // not reached: the signal's default action ends the process
    }

    private static func isIgnore(_ handler: sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
