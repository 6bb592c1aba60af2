import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Pagefind.Stop {
    /// The signals that end a program by default and that a user or a system sends to stop one:
    /// Ctrl-C, `kill` or a CI job cancelled, the terminal closed, Ctrl-\\.
    static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs `body`, in which `cardfeed build` runs Pagefind, so that a signal that ends the
    /// build ends Pagefind first. Left alone, Pagefind would outlive the build, indexing on
    /// every core for up to minutes: Foundation's `Process` starts it in a process group of its
    /// own, which a terminal's Ctrl-C does not reach, and with the signal mask of the thread
    /// that starts it, in which libdispatch blocks them all. The build then ends by the same
    /// signal, as it would have without search. A signal the build was started ignoring
    /// (`nohup`, a script's background job) stays ignored.
    package func endingWithSignals<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let queue = DispatchQueue(label: "cardfeed.build.signals")
        var watched: [(signal: Int32, previous: sighandler_t?, source: DispatchSourceSignal)] = []
        for number in Self.endingSignals {
            let previous = signal(number, SIG_IGN)
            if Self.isIgnore(previous) { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in
                stop()
                // Ends the process by the signal itself, so that the shell or CI that started it
                // sees how it ended; this thread blocks it, like every libdispatch thread.
                signal(number, SIG_DFL)
                var only = sigset_t()
                sigemptyset(&only)
                sigaddset(&only, number)
                pthread_sigmask(SIG_UNBLOCK, &only, nil)
                raise(number)
            }
            source.resume()
            watched.append((number, previous, source))
        }
        defer {
            for (number, previous, source) in watched {
                source.cancel()
                signal(number, previous)
            }
        }
        return try body()
    }

    private static func isIgnore(_ handler: sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
