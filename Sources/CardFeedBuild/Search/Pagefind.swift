import Foundation

/// Pagefind (pagefind.app), the program that makes the search index of `search: true`, as
/// found on this machine. CardFeed does not bundle it: `pip install 'pagefind[bin]'` (or npm's
/// `pagefind`, or its release binary) installs it, and `PAGEFIND` can name the binary.
package struct Pagefind: Sendable, Equatable {
    /// The program and the arguments that come before Pagefind's own: its binary, or
    /// `python3 -m pagefind`, which runs the binary the PyPI package brings.
    let command: [String]
    /// What `--version` printed: "pagefind 1.5.2".
    package let version: String

    /// The environment variable that names Pagefind's binary (or a command on PATH).
    package static let variable = "PAGEFIND"

    /// Why Pagefind was not found: each place looked at, and what was there.
    package struct NotFound: Error, CustomStringConvertible {
        package var places: [String]

        package var description: String {
            "search needs Pagefind, which was not found (\(places.joined(separator: "; "))). Install it with `pip install 'pagefind[bin]'` (plain `pip install pagefind` brings no binary), or set \(Pagefind.variable) to the path of its binary"
        }
    }

    /// Looks where Pagefind's own wrappers look: `PAGEFIND` when set (and nowhere else then,
    /// so that a wrong path is said rather than passed over), else `pagefind_extended` and
    /// `pagefind` on PATH, else the PyPI package through `python3 -m pagefind`. Each is run
    /// with `--version`, so that a binary that does not run counts as not found.
    package static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<Pagefind, NotFound> {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        if let named = environment[variable], !named.isEmpty {
            let program = named.contains("/") ? (FileManager.default.isExecutableFile(atPath: named) ? named : nil) : onPath(named, path)
            guard let program else {
                return .failure(NotFound(places: ["\(variable)=\(named) is not a file that can be run"]))
            }
            return candidate([program]).mapError { NotFound(places: ["\(variable)=\(named): \($0)"]) }
        }
        var places: [String] = []
        for name in ["pagefind_extended", "pagefind"] {
            guard let program = onPath(name, path) else { continue }
            switch candidate([program]) {
            case .success(let found): return .success(found)
            case .failure(let reason): places.append("\(program): \(reason)")
            }
        }
        if places.isEmpty { places.append("neither pagefind_extended nor pagefind is on PATH (\(path))") }
        guard let python = onPath("python3", path) else {
            places.append("no python3 on PATH for the PyPI package")
            return .failure(NotFound(places: places))
        }
        switch candidate([python, "-m", "pagefind"]) {
        case .success(let found): return .success(found)
        case .failure(let reason):
            places.append("\(python) -m pagefind: \(reason)")
            return .failure(NotFound(places: places))
        }
    }

    /// The command, if `--version` says it is Pagefind 1 (whose command line and index files CardFeed knows); else
    /// what went wrong, in a few words.
    private static func candidate(_ command: [String]) -> Result<Pagefind, Unusable> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst()) + ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return .failure(Unusable("cannot run it (\(error.localizedDescription))")) }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = printed.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard process.terminationStatus == 0, let version = lines.first(where: { $0.hasPrefix("pagefind ") }) else {
            // python3 -m pagefind without the package, or with no binary, ends with the reason.
            let reason = lines.last { !$0.isEmpty } ?? "exit status \(process.terminationStatus)"
            return .failure(Unusable(reason.count > 160 ? String(reason.prefix(160)) + "…" : reason))
        }
        guard version.hasPrefix("pagefind 1.") else { return .failure(Unusable("\(version), but CardFeed needs Pagefind 1")) }
        return .success(Pagefind(command: command, version: version))
    }

    /// Why a command found is not a Pagefind CardFeed can use.
    private struct Unusable: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private static func onPath(_ name: String, _ path: String) -> String? {
        path.split(separator: ":").lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
