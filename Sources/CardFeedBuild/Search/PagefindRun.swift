import Foundation
import CardFeedModel
import CardFeedSystem

/// One run of Pagefind's command line over pages on disk: `pagefind --site FOLDER --glob GLOB
/// --output-path BUNDLE`, Pagefind's own fast path (it reads and indexes the pages on all
/// cores). CardFeed then takes out the files of Pagefind's own search interfaces, which the
/// pages do not use, and, for the pinned Pagefind only, puts the parts it writes in a random
/// order into a fixed one (`PagefindIndexOrder`), so that the same pages give the same index.
extension Pagefind {
    /// Where the index goes in the output.
    package static let folder = PagePaths.searchIndexFolder

    /// Pagefind ended with an error, or its index could not be read, or it was stopped.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// Stopped through its `ChildProcess` before it finished: nothing went wrong.
        package var wasStopped = false
        /// The template whose output is at fault, when it is one ("search_document"), rather than Pagefind.
        package var template: String? = nil
    }

    /// What a run made.
    package struct Bundle: Sendable {
        /// The folder Pagefind wrote, which the caller removes once it has taken the files.
        package var folder: URL
        /// The files in it, relative, sorted.
        package var files: [String]
        /// Pages indexed, as Pagefind counted them.
        package var pages: Int?
        /// Parts of the index made (see `SearchIndex`).
        package var parts = 1
    }

    /// Indexes the pages of `site` (an absolute folder) that `glob` matches (relative to it),
    /// as pages of `language`, into `bundle`, a folder that does not exist yet. Pagefind keeps
    /// an index a language and the search box searches the one of its page's `<html lang>`: with
    /// `language`, every page goes in that language's index (the one the pages search, whatever
    /// a page's own `lang`); with nil (the cards of several languages' trees), each page goes in
    /// the index of its own `<html lang>`, its tree's (see `SearchIndex+Languages`).
    ///
    /// `process` runs it, and can end it (and all it started) from another thread: it then
    /// throws a `Failure` that `wasStopped`.
    ///
    /// Pagefind reads its settings from `PAGEFIND_*` environment variables and from a
    /// `pagefind.yml` (or .json, .toml) in its working folder, which would change the index
    /// behind the build's back: it runs without those variables, in the empty bundle folder.
    ///
    /// `background` runs it at the lowest CPU priority (`nice -n 19`, which its threads inherit):
    /// `serve` indexes while the reader edits, and a build of the next edit must not wait for
    /// Pagefind's threads on these few cores.
    /// `published` is where the output will have the index, for messages.
    package func index(site: String, glob: String, language: String?, into bundle: URL, published: String = Pagefind.folder,
                       background: Bool = false, process: ChildProcess = ChildProcess()) throws(Failure) -> Bundle {
        do { try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true) } catch {
            throw Failure(description: "cannot create \(bundle.path): \(error.localizedDescription)")
        }
        // The language as Pagefind names its indexes: "pt-BR" is "pt-br".
        let forced = language.map { ["--force-language", $0.lowercased()] } ?? []
        let arguments = command + ["--site", site, "--glob", glob, "--output-path", bundle.path] + forced + [
            "--exclude-selectors", Self.notWordsOfTheCard.joined(separator: ", "),
        ]
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PAGEFIND_") }
        let outcome: ChildProcess.Outcome
        do { outcome = try process.run(arguments, in: bundle.path, environment: environment, nice: background ? 19 : 0) } catch {
            throw Failure(description: "cannot run \(command.joined(separator: " ")): \(error.description)")
        }
        let lines = outcome.tail.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch outcome.ending {
        case .stopped: throw Failure(description: "stopped", wasStopped: true)
        case .exited(0): break
        default:
            // Pagefind says what went wrong last, after its progress.
            let said = lines.first { $0.hasPrefix("Error") } ?? lines.suffix(3).joined(separator: " ")
            let how: String
            switch outcome.ending {
            case .exited(let status): how = "exit status \(status)"
            case .signalled(let number): how = "signal \(number)"
            default: how = "\(outcome.ending)"
            }
            throw Failure(description: "Pagefind (\(command.joined(separator: " "))) failed (\(how))" + (said.isEmpty ? "" : ": \(said)"))
        }
        let files = try Self.files(in: bundle, published: published)
        for name in files where !name.contains("/") && !Self.isUsed(name) {
            try? FileManager.default.removeItem(at: bundle.appendingPathComponent(name))
        }
        // Another version's files CardFeed does not know: they are left as Pagefind wrote them
        // (the build warned when it found that Pagefind: `unpinnedWarning`).
        if isPinned {
            do { try PagefindIndexOrder.apply(bundle: bundle) } catch {
                throw Failure(description: "Pagefind's index in \(bundle.path) could not be put in order: \(error)" + Self.fullDiskHint(bundle))
            }
        }
        // "Indexed 26 pages" ("Indexed 1 page"), in Pagefind's summary at the end.
        let pages = lines.lazy.compactMap { line -> Int? in
            let words = line.split(separator: " ")
            guard words.count == 3, words[0] == "Indexed", words[2] == "pages" || words[2] == "page" else { return nil }
            return Int(words[1])
        }.first
        return Bundle(folder: bundle, files: try Self.files(in: bundle, published: published), pages: pages)
    }

    /// What a message about an index Pagefind wrote wrong adds when the disk holding it is all
    /// but full: Pagefind 1.5 does not report a write that fails (it exits 0, its files cut
    /// short or missing), so a full disk shows only as an index that cannot be read.
    static func fullDiskHint(_ folder: URL) -> String {
        var status = statvfs()
        guard statvfs(folder.path, &status) == 0 else { return "" }
        return fullDiskHint(freeBytes: UInt64(status.f_bavail) * UInt64(status.f_frsize))
    }

    static func fullDiskHint(freeBytes: UInt64) -> String {
        guard freeBytes < 16 << 20 else { return "" }
        return ". The disk it is on has \(freeBytes >> 20) MB free, and Pagefind does not say when a write fails: the disk was most likely full; make room, then build again"
    }

    /// What the built-in card templates show that is not the card's own words, left out of the
    /// index so that no search finds it and no result's excerpt starts with it: the "Unread"
    /// marker (what the card's data said when the site was built; it would find every unread
    /// card), a cross promotion's caption (a badge such as "Get" or "Buy" above its title), its
    /// rating's star glyphs, and the card's title that its button repeats for screen readers.
    static let notWordsOfTheCard = [".card__unread", ".card__caption", ".card__rating .stars", ".card__cta .visually-hidden"]

    /// Pagefind's own search interfaces (its Default, Modular and Component UI, and the script
    /// that highlights a result's words) come with every index; the pages use its JavaScript API
    /// with CardFeed's own search box instead, so those are left out of the output.
    static func isUsed(_ name: String) -> Bool {
        !(name.hasSuffix("-ui.js") || name.hasSuffix("-ui.css") || name == "pagefind-highlight.js")
    }

    /// The files below `folder`, relative, sorted. Only regular files and folders: anything
    /// else there (a symbolic link, which the output would follow and publish whatever it
    /// points at) is an error that names it.
    static func files(in folder: URL, published: String = Pagefind.folder) throws(Failure) -> [String] {
        var files: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder.path : folder.path + "/" + relative
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw Failure(description: "cannot read Pagefind's index folder \(path): \(error.localizedDescription)")
            }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard lstat(folder.path + "/" + child, &status) == 0 else {
                    throw Failure(description: "cannot read \(folder.path)/\(child): \(String(cString: strerror(errno)))")
                }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: pending.append(child)
                case S_IFREG: files.append(child)
                case S_IFLNK: throw Failure(description: "Pagefind's output holds \(published)/\(child), a symbolic link; the index may hold only files and folders, and nothing it points at is copied")
                default: throw Failure(description: "Pagefind's output holds \(published)/\(child), which is not a file; the index may hold only files and folders")
                }
            }
        }
        return files.sorted()
    }
}
