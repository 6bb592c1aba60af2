import Foundation
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hidden files of an output folder that every build keeps (a deployment branch's `.git`,
/// `.nojekyll`, `news/.htaccess`), told apart from the hidden files an earlier build copied there
/// from `static/` (`.well-known/security.txt`), which a later build replaces or removes.
///
/// A build records the hidden paths it copied from `static/` in the output's marker file; every
/// other hidden path of the output is kept, whatever folder it is in, and nothing from
/// `static/` may land on it or inside it: a `static/.git` would otherwise replace the
/// deployment's repository, and with it its history and its `config` (whose `core.fsmonitor`
/// runs a command the next time anyone runs git there).
package struct OutputHiddenFiles: Sendable {
    /// Paths, relative to the output, of the entries kept whole: a hidden file or folder none of
    /// whose files a build copied from `static/`, or such an entry inside a hidden folder that
    /// holds some. Sorted.
    let kept: [String]

    /// An output that has no hidden files yet.
    package static let none = OutputHiddenFiles(kept: [])

    private init(kept: [String]) { self.kept = kept }

    /// The hidden paths of `output` that are kept, and the output's other files: the walk reads
    /// every name of the output, and the commit needs them to tell which files the new output
    /// lost (a second walk of 117,000 files, at its end, held up the build while one core
    /// waited). The files as relative paths, in no order; what is below a kept path is left out
    /// (it is carried whole), as is the marker. `staticFolder` serves an output written by a
    /// cardfeed that did not record what it copied: a hidden file byte for byte the one at the
    /// same path in `static/` is taken to be the copy that version made.
    static func listing(output: String, staticFolder: URL?) -> (hidden: OutputHiddenFiles, files: [String]) {
        let marker = (try? String(contentsOfFile: output + "/" + SiteWriter.markerName, encoding: .utf8)) ?? ""
        let recorded = Self.recordedPaths(marker)
        var kept: [String] = []
        var files: [String] = []
        func isOwn(_ path: String) -> Bool {
            if let recorded { return recorded.contains(path) }
            guard let staticFolder, let old = FileManager.default.contents(atPath: output + "/" + path) else { return false }
            return FileManager.default.contents(atPath: staticFolder.appendingPathComponent(path).path) == old
        }
        func holdsOwn(_ path: String) -> Bool {
            if let recorded { return recorded.contains(path) || recorded.contains { $0.hasPrefix(path + "/") } }
            var status = stat()
            guard lstat(output + "/" + path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return isOwn(path) }
            return OutputTransaction.files(in: output + "/" + path).contains { isOwn(path + "/" + $0) }
        }
        func walk(_ relative: String, insideHidden: Bool) {
            let folder = relative.isEmpty ? output : output + "/" + relative
            func child(_ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }
            // readdir's entries say which are folders: an output of 117,000 files is not
            // `stat`ed file by file, nor are its files that are not hidden sorted (they add
            // nothing to `kept`, and are only listed).
            var entries: [(String, SystemCalls.Entry)] = []
            for entry in SystemCalls.entries(of: folder) ?? [] {
                if insideHidden || entry.isFolder || entry.kindUnknown || entry.name.first == UInt8(ascii: ".") {
                    entries.append((entry.text, entry))
                } else {
                    files.append(child(entry.text))
                }
            }
            entries.sort { $0.0 < $1.0 }
            for (name, entry) in entries where name != "." && name != ".." {
                if relative.isEmpty && name == SiteWriter.markerName { continue }
                if name.hasPrefix(".") && name.contains(".cardfeed-new-") { continue }  // an older cardfeed's staging file (`.index.html.cardfeed-new-PID`)
                let path = child(name)
                let hidden = insideHidden || name.hasPrefix(".")
                var status = stat()
                let isFolder = entry.kindUnknown ? lstat(folder + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR : entry.isFolder
                if hidden && !holdsOwn(path) {
                    kept.append(path)
                } else if isFolder {
                    walk(path, insideHidden: hidden)
                } else {
                    files.append(path)
                }
            }
        }
        walk("", insideHidden: false)
        return (OutputHiddenFiles(kept: kept), files)
    }

    /// The kept path that a file copied to `path` would replace, be put inside, or be put over
    /// (a kept file inside a folder of that name); nil when it touches none.
    package func keptPath(touchedBy path: String) -> String? {
        kept.first { $0 == path || path.hasPrefix($0 + "/") || $0.hasPrefix(path + "/") }
    }

    /// True for a path with a hidden component (`.well-known/x`, `news/.htaccess`): only files
    /// of `static/` are written there.
    static func isHidden(_ path: String) -> Bool {
        // A name that starts with a dot: at the start, or after a slash. On the bytes: the
        // marker asks about every file, and a site with card pages has one a card.
        // (Through the bytes' buffer: zipped with itself, the view took 0.2 µs a path.)
        let (slash, dot) = (UInt8(ascii: "/"), UInt8(ascii: "."))
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first != dot else { return true }
            return bytes.indices.dropFirst().contains { bytes[$0] == dot && bytes[$0 - 1] == slash }
        }
    }

    /// True for a path with a `.git` component, in any case (as git itself refuses such paths in
    /// a tree): git's own folder, or a submodule's gitlink file, never a file of the site.
    package static func isInsideGit(_ path: String) -> Bool {
        path.split(separator: "/").contains { $0.lowercased() == ".git" }
    }

    private static let recordHeading = "Hidden files this build copied from static/ (a later build replaces or removes them; it keeps every other hidden file):\n"

    /// The marker's text for an output into which the build copied `hidden` from `static/`:
    /// the plain marker when there are none, so that other outputs stay as they were.
    static func markerText(copied hidden: [String]) -> String {
        guard !hidden.isEmpty else { return SiteWriter.markerText }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let lines = hidden.sorted().map { String(decoding: (try? encoder.encode($0)) ?? Data(), as: UTF8.self) + "\n" }
        return SiteWriter.markerText + "\n" + recordHeading + lines.joined()
    }

    /// The paths a marker records, or nil for a marker that records none (written by a
    /// cardfeed before the record, or by one that copied no hidden file: then nothing is
    /// recorded and only files identical to `static/`'s are taken as copies).
    private static func recordedPaths(_ marker: String) -> Set<String>? {
        guard let start = marker.range(of: recordHeading) else { return nil }
        var paths: Set<String> = []
        for line in marker[start.upperBound...].split(separator: "\n") {
            if let path = try? JSONDecoder().decode(String.self, from: Data(line.utf8)) { paths.insert(path) }
        }
        return paths
    }
}
