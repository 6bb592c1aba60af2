import Foundation
import CardFeedSystem

/// Pagefind (pagefind.app), the program that makes the search index of `search: true`, as
/// found on this machine. The `.deb` and the release archive carry the version CardFeed is
/// tested with (`pinned`), beside the cardfeed binary; for a build from source,
/// `scripts/get-pagefind.sh` puts the same one on PATH (docs/search.md).
package struct Pagefind: Sendable, Equatable {
    /// The program and the arguments that come before Pagefind's own: its binary, or
    /// `python3 -m pagefind`, which runs the binary the PyPI package brings.
    let command: [String]
    /// What `--version` printed: "pagefind 1.5.2".
    package let version: String

    /// The version CardFeed ships, is tested with, and puts the index of in a fixed order
    /// (`PagefindIndexOrder`). packaging/pagefind.lock names the same one, with its bytes'
    /// checksum; a test holds the two together.
    package static let pinned = "1.5.2"

    /// Whether this is the Pagefind whose index CardFeed knows how to put in order.
    package var isPinned: Bool { version == "pagefind \(Self.pinned)" }

    /// What the build says of a Pagefind that is not the pinned one; nil for the pinned one.
    package var unpinnedWarning: String? {
        isPinned ? nil : "\(command.joined(separator: " ")) is \(version), not the Pagefind CardFeed is tested with (pagefind \(Self.pinned)): its index is written as Pagefind made it, not put in order, so builds of the same site may differ in pagefind/ (--strict refuses it)"
    }

    /// The environment variable that names Pagefind's binary (or a command on PATH).
    package static let variable = "PAGEFIND"

    /// Where the packages put Pagefind, by the cardfeed binary's path: the `.deb`'s
    /// /usr/bin/cardfeed has /usr/lib/cardfeed/pagefind (`../lib` of a folder named `bin`), the
    /// archive's cardfeed-VERSION/cardfeed has cardfeed-VERSION/lib/cardfeed/pagefind. Not on
    /// PATH, so that it stands in for no other program's Pagefind. Only one place for each
    /// layout: the archive's binary unpacked in /tmp must not run a /tmp/lib/cardfeed/pagefind
    /// that anyone could have put there.
    static func besideBinary(of executable: String) -> String {
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        let relative = folder.lastPathComponent == "bin" ? "../lib/cardfeed/pagefind" : "lib/cardfeed/pagefind"
        return folder.appendingPathComponent(relative).standardizedFileURL.path
    }

    /// How long `--version` may take: a program that never answers must not hang the build.
    static let probeTimeLimit = Duration.seconds(10)

    /// What to do when Pagefind is missing, for the error's last words.
    package static let howToInstall =
        "The .deb and the release archive bring Pagefind \(pinned); for a cardfeed built from source, run `sudo bash scripts/get-pagefind.sh` in CardFeed's checkout (it installs Pagefind \(pinned) as /usr/local/bin/pagefind), or set \(variable) to the path of a Pagefind binary"

    /// Why Pagefind was not found: each place looked at, and what was there.
    package struct NotFound: Error, CustomStringConvertible {
        package var places: [String]

        package var description: String {
            "search needs Pagefind, which was not found (\(places.joined(separator: "; "))). \(Pagefind.howToInstall)"
        }
    }

    /// Looks, in order: at `PAGEFIND` when it is set (and nowhere else then, so that a wrong
    /// path is said rather than passed over); beside the cardfeed binary, where the packages put
    /// it; at `pagefind_extended` and `pagefind` on PATH; at the PyPI
    /// package through `python3 -m pagefind`. Each is run with `--version`, so that a binary
    /// that does not run counts as not found. `executable` is the running cardfeed's path; `signals`,
    /// a build's, end a probe under way as they end Pagefind's run.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                               executable: String? = Self.runningExecutable(), signals: PagefindSignals? = nil) -> Result<Pagefind, NotFound> {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let manager = FileManager.default
        if let named = environment[variable], !named.isEmpty {
            let program = named.contains("/") ? (manager.isExecutableFile(atPath: named) ? absolute(named) : nil) : onPath(named, path)
            guard let program else {
                return .failure(NotFound(places: ["\(variable)=\(named) is not a file that can be run"]))
            }
            return candidate([program], environment, signals).mapError { NotFound(places: ["\(variable)=\(named): \($0)"]) }
        }
        var places: [String] = []
        /// The Pagefind `command` is; else nil, its reason noted. A probe that a signal stopped
        /// ends the search.
        func attempt(_ command: [String]) -> Result<Pagefind, NotFound>? {
            switch candidate(command, environment, signals) {
            case .success(let found): return .success(found)
            case .failure(let reason):
                let place = "\(command.joined(separator: " ")): \(reason)"
                if reason.stopped { return .failure(NotFound(places: [place])) }
                places.append(place)
                return nil
            }
        }
        let installed = executable.map { [besideBinary(of: $0)] } ?? []
        for program in installed where manager.isExecutableFile(atPath: program) {
            if let result = attempt([program]) { return result }
        }
        if places.isEmpty { places.append("none beside cardfeed\(installed.map { " (\($0))" }.joined())") }
        let onPATH = ["pagefind_extended", "pagefind"].compactMap { onPath($0, path) }
        for program in onPATH {
            if let result = attempt([program]) { return result }
        }
        if onPATH.isEmpty { places.append("neither pagefind_extended nor pagefind on PATH") }
        if let python = onPath("python3", path), let result = attempt([python, "-m", "pagefind"]) { return result }
        return .failure(NotFound(places: places))
    }

    /// The running program's own path, links resolved (/proc/self/exe on Linux).
    package static func runningExecutable() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        return Foundation.Bundle.main.executablePath
    }

    /// The command, if `--version` says, within `probeTimeLimit`, that it is Pagefind 1 (whose
    /// command line CardFeed knows); else what went wrong, in a few words.
    private static func candidate(_ command: [String], _ environment: [String: String], _ signals: PagefindSignals?) -> Result<Pagefind, Unusable> {
        let probe = ChildProcess()
        let outcome: ChildProcess.Outcome
        do {
            let run = { () throws(ChildProcess.CannotStart) in try probe.run(command + ["--version"], environment: environment, timeLimit: probeTimeLimit) }
            outcome = try signals?.during(probe, run) ?? run()
        } catch let error as ChildProcess.CannotStart {
            return .failure(Unusable("cannot run it (\(error.description))"))
        } catch {
            return .failure(Unusable("cannot run it (\(error))"))
        }
        let lines = outcome.tail.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        switch outcome.ending {
        case .timedOut:
            return .failure(Unusable("`\(command.joined(separator: " ")) --version` did not answer within \(probeTimeLimit.components.seconds) s, and was stopped"))
        case .stopped:
            return .failure(Unusable("stopped by a signal", stopped: true))
        case .exited(0):
            if let version = lines.first(where: { $0.hasPrefix("pagefind ") }) {
                guard version.hasPrefix("pagefind 1.") else { return .failure(Unusable("\(version), but CardFeed needs Pagefind 1 (it is tested with \(pinned))")) }
                return .success(Pagefind(command: command, version: version))
            }
            fallthrough
        default:
            // python3 -m pagefind without the package, or with no binary, ends with the reason.
            let reason = lines.last { !$0.isEmpty } ?? "\(outcome.ending)"
            return .failure(Unusable(reason.count > 160 ? String(reason.prefix(160)) + "…" : reason))
        }
    }

    /// Why a command found is not a Pagefind CardFeed can use.
    private struct Unusable: Error, CustomStringConvertible {
        var description: String
        /// Its probe was ended by a signal, which ends the search for Pagefind too.
        var stopped = false
        init(_ description: String, stopped: Bool = false) {
            self.description = description
            self.stopped = stopped
        }
    }

    /// The command's path, absolute: Pagefind runs in another folder, where a relative one
    /// would name something else.
    private static func onPath(_ name: String, _ path: String) -> String? {
        path.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }.map(absolute)
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
