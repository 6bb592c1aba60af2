import Foundation
import Synchronization

/// One run of Pagefind's command line over pages on disk: `pagefind --site FOLDER --glob GLOB
/// --output-path BUNDLE`, Pagefind's own fast path (it reads and indexes the pages on all
/// cores). CardFeed then takes out the files of Pagefind's own search interfaces, which the
/// pages do not use, and puts the parts Pagefind 1.5 writes in a random order into a fixed one
/// (`PagefindIndexOrder`), so that the same pages give the same index.
extension Pagefind {
    /// Where the index goes in the output.
    package static let folder = "pagefind"

    /// Pagefind ended with an error, or its index could not be read, or it was stopped.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Stopped through its `Stop` before it finished: nothing went wrong.
        package var wasStopped = false
    }

    /// Stops a run from another thread, before it starts or while it runs: `serve` stops the
    /// index of one build when the next build starts, so that Pagefind's threads (which a
    /// 10,000-card index keeps busy for seconds) never share the cores with a build the reader
    /// is waiting for.
    package final class Stop: Sendable {
        private let state = Mutex<(process: Process?, stopped: Bool)>((nil, false))

        package init() {}

        package var stopped: Bool { state.withLock { $0.stopped } }

        /// Ends the run, or keeps it from starting. Pagefind's partial index is in its own
        /// bundle folder, which the caller removes.
        package func stop() {
            let running = state.withLock { state in
                state.stopped = true
                return state.process
            }
            if let running { Self.end(running) }
        }

        /// The run's process has started; it is ended at once if the run was stopped already.
        fileprivate func started(_ process: Process) {
            let stopped = state.withLock { state in
                state.process = process
                return state.stopped
            }
            if stopped { Self.end(process) }
        }

        /// SIGKILL, not `terminate()`'s SIGTERM: a child inherits the signals its parent
        /// ignores, and `serve` and a build ignore SIGTERM to handle it themselves (see
        /// `SignalStream`, `PagefindSignals`).
        /// `nice` and the PyPI package's `python3 -m pagefind` exec Pagefind in the same
        /// process, so the signal reaches Pagefind itself.
        private static func end(_ process: Process) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        fileprivate func ended() { state.withLock { $0.process = nil } }
    }

    /// What a run made.
    package struct Bundle: Sendable {
        /// The folder Pagefind wrote, which the caller removes once it has taken the files.
        package var folder: URL
        /// The files in it, relative, sorted.
        package var files: [String]
        /// Pages indexed, as Pagefind counted them.
        package var pages: Int?
    }

    /// Indexes the pages of `site` (an absolute folder) that `glob` matches (relative to it),
    /// as pages of `language` (`<html lang>`; Pagefind keeps an index a language and searches
    /// the page's, so every page goes in the one the pages search), into `bundle`, a folder
    /// that does not exist yet.
    ///
    /// `stop` can end the run early: it then throws a `Failure` that `wasStopped`.
    ///
    /// Pagefind reads its settings from `PAGEFIND_*` environment variables and from a
    /// `pagefind.yml` (or .json, .toml) in its working folder, which would change the index
    /// behind the build's back: it runs without those variables, in the empty bundle folder.
    ///
    /// `background` runs it at the lowest CPU priority (`nice -n 19`, which its threads inherit):
    /// `serve` indexes while the reader edits, and a build of the next edit must not wait for
    /// Pagefind's threads on these few cores.
    package func index(site: String, glob: String, language: String, into bundle: URL, background: Bool = false, stop: Stop? = nil) throws(Failure) -> Bundle {
        let manager = FileManager.default
        do { try manager.createDirectory(at: bundle, withIntermediateDirectories: true) } catch {
            throw Failure(description: "cannot create \(bundle.path): \(error.localizedDescription)")
        }
        let process = Process()
        let launcher = background ? ["/usr/bin/nice", "-n", "19"] : []
        process.executableURL = URL(fileURLWithPath: (launcher + command)[0])
        // The language as Pagefind names its indexes: "pt-BR" is "pt-br".
        // The built-in card templates' "Unread" marker tells a reader what the card's data said
        // when the site was built; it is not a word of the card, and would find every unread card.
        process.arguments = Array((launcher + command).dropFirst()) + [
            "--site", site, "--glob", glob, "--output-path", bundle.path, "--force-language", language.lowercased(),
            "--exclude-selectors", ".card__unread",
        ]
        process.currentDirectoryURL = bundle
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PAGEFIND_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        if stop?.stopped == true { throw Failure(description: "stopped before it started", wasStopped: true) }
        do { try process.run() } catch {
            throw Failure(description: "cannot run \(command.joined(separator: " ")): \(error.localizedDescription)")
        }
        stop?.started(process)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        stop?.ended()
        if stop?.stopped == true { throw Failure(description: "stopped", wasStopped: true) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let lines = printed.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // Pagefind says what went wrong last, after its progress.
            let said = lines.filter { $0.hasPrefix("Error") }.first ?? lines.suffix(3).joined(separator: " ")
            let how = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            throw Failure(description: "Pagefind (\(command.joined(separator: " "))) failed (\(how))" + (said.isEmpty ? "" : ": \(said)"))
        }
        for name in (try? manager.contentsOfDirectory(atPath: bundle.path)) ?? [] where !Self.isUsed(name) {
            try? manager.removeItem(at: bundle.appendingPathComponent(name))
        }
        do { try PagefindIndexOrder.apply(bundle: bundle) } catch {
            throw Failure(description: "Pagefind's index in \(bundle.path) could not be put in order: \(error)")
        }
        let pages = printed.split(whereSeparator: \.isNewline).lazy.compactMap { line -> Int? in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "Indexed", words[2] == "pages" else { return nil }
            return Int(words[1])
        }.first
        return Bundle(folder: bundle, files: Self.files(in: bundle), pages: pages)
    }

    /// Pagefind's own search interfaces (its Default, Modular and Component UI, and the script
    /// that highlights a result's words) come with every index; the pages use its JavaScript API
    /// with CardFeed's own search box instead, so those are left out of the output.
    static func isUsed(_ name: String) -> Bool {
        !(name.hasSuffix("-ui.js") || name.hasSuffix("-ui.css") || name == "pagefind-highlight.js")
    }

    /// The files below `folder`, relative, sorted.
    static func files(in folder: URL) -> [String] {
        var files: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? folder.path : folder.path + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder.path + "/" + child, isDirectory: &isFolder), isFolder.boolValue {
                    walk(child)
                } else {
                    files.append(child)
                }
            }
        }
        walk("")
        return files.sorted()
    }
}
