import Foundation
import Synchronization
import CSpawn

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of another program (Pagefind), started so that it can always be ended whole: in a
/// process group of its own, which `stop` and a time limit end with SIGKILL, so that whatever
/// it started (npm's `pagefind` runs the real one as its child) ends with it; with no signal
/// blocked and the ending signals at their defaults, whatever this process ignores or blocks;
/// its output read as it comes, keeping only the last `tailLimit` bytes; and its pid kept as a
/// zombie until the group is ended, so that the group id it names cannot be reused meanwhile.
///
/// Foundation's `Process` does none of that: it reads a pipe to its end (a child holding it
/// open keeps the caller waiting), keeps all of it in memory, and reaps the process itself.
/// Nor does Swift's `Subprocess` (swift-subprocess 1.0.2), which would otherwise be the one to
/// use: it reaps the child as soon as it exits, from its own monitor, so a SIGKILL to the group
/// afterwards could reach a new process that took the group's id meanwhile (here the pid stays a
/// zombie, held by `waitid`'s `WNOWAIT`, until the group has been ended); it offers no way to put
/// signals back to their defaults in the child (POSIX_SPAWN_SETSIGDEF: a Pagefind started from a
/// `nohup` build would ignore SIGHUP, and with the Swift runtime's SIGPIPE ignored, write on into
/// a closed pipe); and it is `async` only, where Pagefind's runs are waited for on the build's
/// own threads, from a signal's handler queue too.
package final class ChildProcess: Stoppable {
    /// How a run ended.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Ended by `stop`.
        case stopped
        /// Ended because it ran longer than its time limit.
        case timedOut
    }

    /// What a run printed (standard output and error together, the last `tailLimit` bytes) and
    /// how it ended.
    package struct Outcome: Sendable {
        package var ending: Ending
        package var tail: String
    }

    package struct CannotStart: Error, CustomStringConvertible {
        package var description: String
    }

    /// Enough for the last lines of any message; a program that prints gigabytes (a verbose or
    /// broken one) costs no more memory than this.
    package static let tailLimit = 64 * 1024

    private let state = Mutex<(pid: pid_t?, stopped: Bool)>((nil, false))

    package init() {}

    /// Whether `stop` was called.
    package var stopped: Bool { state.withLock { $0.stopped } }

    /// Ends the run and everything it started, or keeps it from starting. Safe from any thread,
    /// and from a signal's handler queue.
    package func stop() {
        // Under the lock: `run` clears the pid before it reaps the process, so the group id
        // is never one the system has given to another process meanwhile.
        state.withLock { state in
            state.stopped = true
            if let pid = state.pid { kill(-pid, SIGKILL) }
        }
    }

    /// Runs `arguments[0]` (a path) with the rest as its arguments, in `folder`, with
    /// `environment`, standard input from /dev/null; returns once it has ended and every
    /// process left in its group has been sent SIGKILL. `timeLimit` ends it as `.timedOut`.
    /// `nice` lowers its CPU priority (which its threads and children inherit), where
    /// /usr/bin/nice is.
    package func run(_ arguments: [String], in folder: String? = nil, environment: [String: String],
                     timeLimit: Duration? = nil, nice: Int32 = 0) throws(CannotStart) -> Outcome {
        if stopped { return Outcome(ending: .stopped, tail: "") }
        var fds: [Int32] = [-1, -1]
        guard cardfeed_pipe_cloexec(&fds) == 0 else { throw CannotStart(description: String(cString: strerror(errno))) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { close(readEnd) }

        let spawned: pid_t
        do {
            defer { close(writeEnd) }  // the child's copy is the only one left
            spawned = try Self.spawn(arguments, folder: folder, environment: environment, output: writeEnd, nice: nice)
        }
        state.withLock { state in
            state.pid = spawned
            if state.stopped { kill(-spawned, SIGKILL) }
        }

        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var (tail, timedOut) = Self.collect(readEnd, of: spawned, until: deadline)
        // Its output ended; it may still run (it closed its output, or left a child holding it):
        // the time limit holds until it has ended.
        while !Self.hasEnded(spawned) {
            if let deadline, !timedOut, ContinuousClock.now >= deadline {
                timedOut = true
                kill(-spawned, SIGKILL)
            }
            usleep(20_000)
        }
        // Whatever is left of its group goes too.
        kill(-spawned, SIGKILL)
        let wasStopped = state.withLock { state -> Bool in
            state.pid = nil
            return state.stopped
        }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(spawned, &status, 0) } while reaped < 0 && errno == EINTR
        guard reaped == spawned else { throw CannotStart(description: "its end could not be read (\(String(cString: strerror(errno))))") }

        let ending: Ending
        if wasStopped {
            ending = .stopped
        } else if timedOut {
            ending = .timedOut
        } else if status & 0x7f == 0 {
            ending = .exited((status >> 8) & 0xff)
        } else {
            ending = .signalled(status & 0x7f)
        }
        return Outcome(ending: ending, tail: String(decoding: tail, as: UTF8.self))
    }

    /// Reads `fd` until every writer has closed it, or the process `pid` has ended (a child it
    /// left may hold the pipe open for ever: what is waiting in the pipe then is still read),
    /// or `deadline` has passed (then its group is ended).
    private static func collect(_ fd: Int32, of pid: pid_t, until deadline: ContinuousClock.Instant?) -> (tail: [UInt8], timedOut: Bool) {
        var tail: [UInt8] = []
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        /// Reads what is there; false at the end of the output.
        func readChunk() -> Bool {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return errno == EINTR || errno == EAGAIN }
            if count == 0 { return false }
            tail.append(contentsOf: chunk[0..<count])
            if tail.count > 2 * tailLimit { tail.removeFirst(tail.count - tailLimit) }
            return true
        }
        func ready(waiting milliseconds: Int32) -> Bool {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, milliseconds) > 0
        }
        while true {
            if let deadline, !timedOut, ContinuousClock.now >= deadline {
                timedOut = true
                kill(-pid, SIGKILL)
            }
            // A tenth of a second at most, to notice that the process ended or the time is up.
            if ready(waiting: 100) {
                guard readChunk() else { break }
            }
            if hasEnded(pid) {
                // What it printed last, up to a bound: a child it left may print for ever.
                var drained = 0
                while drained < 16 * tailLimit, ready(waiting: 0), readChunk() { drained += chunk.count }
                break
            }
        }
        if tail.count > tailLimit { tail.removeFirst(tail.count - tailLimit) }
        return (tail, timedOut)
    }

    /// Whether `pid`, a child of this process, has ended (it is left to be reaped).
    private static func hasEnded(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        if result != 0 { return errno != EINTR }  // ECHILD: there is nothing left to wait for
        return info._sifields._sigchld.si_pid == pid
    }

    /// A process started with SIGCHLD ignored (some service managers, `nohup` wrappers) has its
    /// children reaped by the system, and their exit status lost: a failed Pagefind would read as
    /// a good one. The default is put back, once.
    private static let reapChildrenOurselves: Void = {
        var current = sigaction()
        if sigaction(SIGCHLD, nil, &current) == 0, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(SIGCHLD, SIG_DFL)
        }
    }()

    /// posix_spawn in a new process group, signals unblocked and the ending ones at their
    /// defaults, output to `output`, input from /dev/null.
    private static func spawn(_ arguments: [String], folder: String?, environment: [String: String], output: Int32, nice: Int32) throws(CannotStart) -> pid_t {
        reapChildrenOurselves
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        if let folder {
            let result = cardfeed_spawn_add_chdir(&actions, folder)
            guard result == 0 else { throw CannotStart(description: "cannot start it in \(folder): \(String(cString: strerror(result)))") }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // SIGPIPE too: the Swift runtime ignores it, and a child would inherit that.
        for number in EndingSignals.numbers + [SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // `nice` is a program of its own (coreutils), which execs the command in the same
        // process: setting the priority here would need a fork of our own.
        let niceProgram = "/usr/bin/nice"
        let command = nice == 0 || access(niceProgram, X_OK) != 0 ? arguments : [niceProgram, "-n", String(nice)] + arguments
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw CannotStart(description: String(cString: strerror(result))) }
        return pid
    }
}

/// Something under way that another thread (a signal's handler, the next build) can end.
package protocol Stoppable: Sendable {
    func stop()
}

/// Processes that are stopped together: the Pagefind runs of one index. A process made after
/// `stop` never starts.
package final class ChildProcesses: Stoppable {
    private let state = Mutex<(made: [ChildProcess], stopped: Bool)>(([], false))

    package init() {}

    package var stopped: Bool { state.withLock { $0.stopped } }

    /// A new process of the group.
    package func make() -> ChildProcess {
        let process = ChildProcess()
        let stopped = state.withLock { state in
            state.made.append(process)
            return state.stopped
        }
        if stopped { process.stop() }
        return process
    }

    package func stop() {
        let made = state.withLock { state in
            state.stopped = true
            return state.made
        }
        made.forEach { $0.stop() }
    }
}
