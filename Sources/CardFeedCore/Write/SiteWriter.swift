import Foundation

/// Step 4 of a build (in a first build with the built-in pages, step 3 has written the pages
/// already): the pages and assets are written into a fresh folder beside the output,
/// which then takes the output's place, or, over the output of an earlier build, only the files
/// that changed are replaced. Either way a build that fails leaves the previous output exactly as
/// it was, and a folder that cardfeed did not create is never emptied.
public struct SiteWriter: Sendable {
    /// Marks a folder as cardfeed's output, which a later build may replace whole.
    public static let markerName = ".cardfeed-output"
    static let markerText = "This folder is written by cardfeed. `cardfeed build` replaces all of it.\n"

    public let output: URL
    /// Told how many files have been written or compared, every few dozen files, one call at a
    /// time (the files are written on both cores).
    public var progress: (@Sendable (_ files: Int) -> Void)?

    public init(output: URL) {
        self.output = output.standardizedFileURL
    }

    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// Refuses an output folder that would destroy or feed back into the site, or that holds
    /// files cardfeed did not write.
    public func checkOutput(site: SiteFolder) throws(Refusal) {
        let out = output.resolvingSymlinksInPath().path
        let root = site.root.resolvingSymlinksInPath().path
        if out == root || root.hasPrefix(out + "/") || out == "/" {
            throw Refusal(description: "the output folder \(SiteFolder.display(output)) contains the site itself; choose another --output")
        }
        for input in [site.cardsFolder, site.templatesFolder, site.assetsFolder, site.staticFolder] {
            let folder = input.resolvingSymlinksInPath().path
            if out == folder || out.hasPrefix(folder + "/") {
                throw Refusal(description: "the output folder \(SiteFolder.display(output)) is inside the site's \(input.lastPathComponent)/ folder; choose another --output")
            }
        }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: output.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw Refusal(description: "\(SiteFolder.display(output)) exists and is not a folder; choose another --output")
        }
        let marked = manager.fileExists(atPath: output.appendingPathComponent(Self.markerName).path)
        // Hidden files (.git of a deployment branch, .nojekyll) are kept by every build, so a
        // folder holding only those is as good as an empty one.
        let entries = ((try? manager.contentsOfDirectory(atPath: output.path)) ?? []).filter { !Self.isKept($0) }.sorted()
        if !marked && !entries.isEmpty {
            let shown = entries.prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", …" : "")
            throw Refusal(description: "\(SiteFolder.display(output)) holds files that cardfeed did not write (\(shown)), so it will not replace them; choose an empty or new --output folder, or put such files in the site's static/ folder")
        }
    }

    /// A folder on the output's file system for work files (the card spool), created if needed.
    func workFolder() throws -> URL {
        let parent = output.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return parent
    }

    /// True for a name in the output that every build keeps: hidden files and folders (`.git`,
    /// `.nojekyll`, `.well-known`), as Zola's `preserve_dotfiles_in_output` does, but not the
    /// marker or the staging files an interrupted build left.
    static func isKept(_ name: String) -> Bool {
        name.hasPrefix(".") && name != markerName && !name.contains(".cardfeed-new-")
    }

    /// What a build did to the output folder.
    public struct Counts: Sendable, Equatable {
        public var written = 0
        /// Files left as they were, being byte for byte what the build produced.
        public var unchanged = 0
        /// Files of the previous output that this build no longer produces, removed; relative
        /// paths, sorted.
        public var removed: [String] = []
    }

    /// Writes `files`: into a fresh folder that takes the output's place, or, over an output of
    /// an earlier build, only the files that changed (see `replaceChanged`).
    @discardableResult
    public func write(_ files: [OutputFile]) throws -> Counts {
        if !writesFresh {
            do {
                return try replaceChanged(files)
            } catch is PathInTheWay {
                // A folder stands where a file goes, or the other way round (put there by hand):
                // the whole output is replaced instead.
            }
        }
        return try write(files, intoFresh: try beginFresh())
    }

    /// True when a build writes a fresh folder (there is no output yet), so that it may write a
    /// file of it while it renders (see `beginFresh`).
    public var writesFresh: Bool {
        var isDirectory: ObjCBool = false
        return !(FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    /// Creates the fresh folder beside the output, empty, for files written before the others;
    /// `write(_:intoFresh:)` completes and swaps it in, `abandon(fresh:)` removes it.
    public func beginFresh() throws -> URL {
        let manager = FileManager.default
        let parent = output.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let fresh = parent.appendingPathComponent(".\(output.lastPathComponent).cardfeed-new-\(Self.processID)", isDirectory: true)
        try? manager.removeItem(at: fresh)
        try manager.createDirectory(at: fresh, withIntermediateDirectories: false)
        return fresh
    }

    public func abandon(fresh: URL) {
        try? FileManager.default.removeItem(at: fresh)
    }

    /// Writes `files` into `fresh` (from `beginFresh`, which holds `alreadyWritten` files), then
    /// swaps it in; on failure, `fresh` is removed and the output stays as it was.
    @discardableResult
    public func write(_ files: [OutputFile], intoFresh fresh: URL, alreadyWritten: Int = 0) throws -> Counts {
        let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).cardfeed-old-\(Self.processID)", isDirectory: true)
        do {
            try writeAll(files, into: fresh)
            try Data(Self.markerText.utf8).write(to: fresh.appendingPathComponent(Self.markerName))
        } catch {
            abandon(fresh: fresh)
            throw error
        }
        let removed = try swap(fresh, old: old)
        return Counts(written: files.count + alreadyWritten, removed: removed)
    }

    /// Rebuilds over the previous output in two phases. First every file is compared with the
    /// one it replaces, and only a file that differs is written, into a staging file beside it
    /// (`.index.html.cardfeed-new-PID`); if that fails, the staging files go and the output is as
    /// it was. Then each staging file is renamed over its file, and the files the build no
    /// longer produces are removed. Unchanged files keep their modification times, which
    /// deployments that copy only what changed rely on; and on this machine's disk, creating
    /// and removing files is most of the cost of writing a paginated site.
    private func replaceChanged(_ files: [OutputFile]) throws -> Counts {
        let manager = FileManager.default
        var folders: Set<String> = []
        for file in files {
            var folder = PagePaths.folder(file.path)
            while !folder.isEmpty, folders.insert(folder).inserted { folder = PagePaths.folder(folder) }
        }
        var created: [URL] = []
        func removeStaged(_ staged: [String]) {
            for path in staged { unlink(path) }
            for folder in created.reversed() { try? manager.removeItem(at: folder) }
        }
        for folder in folders.sorted() {
            let url = output.appendingPathComponent(folder)
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    removeStaged([])
                    throw PathInTheWay(path: url.path)
                }
                continue
            }
            do {
                try manager.createDirectory(at: url, withIntermediateDirectories: false)
                created.append(url)
            } catch {
                removeStaged([])
                throw Refusal(description: "cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }

        // 1. Stage.
        let outcomes = ConcurrentResults<Result<OutputSink.Outcome, Error>>(count: files.count)
        let done = FileCount(progress)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            outcomes.set(index, Result {
                let sink = try OutputSink(replacing: target(file), stagingPath: staging(file))
                try file.write(to: sink)
                return try sink.finish()
            })
            done.add()
        }
        let results = outcomes.values
        let staged = files.indices.filter { (try? results[$0].get()) == .written }
        for (index, result) in results.enumerated() {
            guard case .failure(let error) = result else { continue }
            removeStaged(files.map(staging))  // a file that failed half way has a staging file too
            if error is PathInTheWay { throw error }
            throw Refusal(description: "cannot write \(files[index].path): \(error)")
        }

        // 2. Commit.
        for (done, index) in staged.enumerated() where rename(staging(files[index]), target(files[index])) != 0 {
            let reason = String(cString: strerror(errno))
            removeStaged(staged[done...].map { staging(files[$0]) })
            throw Refusal(description: "cannot replace \(files[index].path): \(reason); the output now mixes old and new pages")
        }
        var removed: [String] = []
        removeStale(in: "", keeping: Set(files.map(\.path)), folders: folders, removed: &removed)
        let marker = output.appendingPathComponent(Self.markerName)
        if !manager.fileExists(atPath: marker.path) { try Data(Self.markerText.utf8).write(to: marker) }
        return Counts(written: staged.count, unchanged: files.count - staged.count, removed: removed.sorted())
    }

    private static let processID = ProcessInfo.processInfo.processIdentifier

    /// Files done on both cores, passed on to `progress` every 64 and one call at a time.
    private final class FileCount: @unchecked Sendable {
        private let progress: (@Sendable (Int) -> Void)?
        private let lock = NSLock()
        private var count = 0

        init(_ progress: (@Sendable (Int) -> Void)?) { self.progress = progress }

        func add() {
            guard let progress else { return }
            lock.withLock {
                count += 1
                if count % 64 == 0 { progress(count) }
            }
        }
    }

    // Paths as strings: `URL.appendingPathComponent` asks the file system whether each is a folder.
    private func target(_ file: OutputFile) -> String { output.path + "/" + file.path }

    private func staging(_ file: OutputFile) -> String {
        let folder = PagePaths.folder(file.path)
        let name = "." + (file.path as NSString).lastPathComponent + ".cardfeed-new-\(Self.processID)"
        return output.path + "/" + (folder.isEmpty ? name : folder + "/" + name)
    }

    /// Removes what the output holds besides `files`, the folders they are in, the marker and
    /// hidden files (see `isKept`): pages of a longer feed, a feed with no cards left, staging
    /// files of an interrupted build. The files removed are added to `removed`.
    private func removeStale(in folder: String, keeping files: Set<String>, folders: Set<String>, removed: inout [String]) {
        let manager = FileManager.default
        let url = folder.isEmpty ? output : output.appendingPathComponent(folder)
        for name in (try? manager.contentsOfDirectory(atPath: url.path)) ?? [] {
            let path = folder.isEmpty ? name : folder + "/" + name
            if files.contains(path) || path == Self.markerName || Self.isKept(name) { continue }
            if folders.contains(path) {
                removeStale(in: path, keeping: files, folders: folders, removed: &removed)
                continue
            }
            let target = output.appendingPathComponent(path)
            let inside = Self.filesBelow(target, as: path)
            if (try? manager.removeItem(at: target)) != nil, !name.contains(".cardfeed-new-") { removed += inside }
        }
    }

    /// The files at or below `url` (named as below `path`), or `[path]` for a file.
    private static func filesBelow(_ url: URL, as path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().flatMap { filesBelow(url.appendingPathComponent($0), as: path + "/" + $0) }
    }

    private func writeAll(_ files: [OutputFile], into folder: URL) throws {
        // The folders first (a feed's pages share its folder, so there are few), then the files
        // on both cores.
        let folders = Set(files.map { PagePaths.folder($0.path) }.filter { !$0.isEmpty })
        for path in folders.sorted() {
            do {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
            } catch {
                throw Refusal(description: "cannot create the folder \(path): \(error.localizedDescription)")
            }
        }
        let failures = ConcurrentResults<String?>(count: files.count)
        let folderPath = folder.path
        let done = FileCount(progress)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            do {
                let sink = try OutputSink(path: folderPath + "/" + file.path)
                try file.write(to: sink)
                try sink.finish()
                failures.set(index, nil)
            } catch {
                failures.set(index, "\(file.path): \(error.localizedDescription)")
            }
            done.add()
        }
        if let failure = failures.values.compactMap({ $0 }).first {
            throw Refusal(description: "cannot write \(failure)")
        }
    }

    /// `serve`'s way: updates the output folder in place, writing only the files whose content
    /// changed since the last build (each replaced atomically) and removing those no longer
    /// produced. Returns the number of files written.
    public func update(_ files: [OutputFile], state: IncrementalState) throws -> Int {
        let manager = FileManager.default
        try manager.createDirectory(at: output, withIntermediateDirectories: true)
        let marker = output.appendingPathComponent(Self.markerName)
        if !manager.fileExists(atPath: marker.path) { try Data(Self.markerText.utf8).write(to: marker) }
        let results = ConcurrentResults<Result<(path: String, hash: Int, written: Bool), Error>>(count: files.count)
        let previous = state.files
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            results.set(index, Result {
                let sink = OutputSink(inMemoryFor: file.path)
                try file.write(to: sink)
                let bytes = sink.bytes
                var hasher = Hasher()
                bytes.withUnsafeBytes { hasher.combine(bytes: $0) }  // not `combine(bytes)`, which hashes byte by byte
                let hash = hasher.finalize()
                guard previous[file.path] != hash else { return (file.path, hash, false) }
                let target = output.appendingPathComponent(file.path, isDirectory: false)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: target, options: .atomic)
                return (file.path, hash, true)
            })
        }
        var hashes: [String: Int] = [:]
        for path in state.unchangedPages { hashes[path] = previous[path] }
        var written = 0
        for result in results.values {
            let (path, hash, wrote) = try result.get()
            hashes[path] = hash
            if wrote { written += 1 }
        }
        for path in previous.keys where hashes[path] == nil {
            try? manager.removeItem(at: output.appendingPathComponent(path))
        }
        state.files = hashes
        return written
    }

    /// Puts `fresh` in the output's place; the previous output is removed only once the new one
    /// stands, and restored if the swap fails half way. Hidden files of the previous output
    /// (`.git`, `.nojekyll`) are moved into the new one first, unless the build wrote its own.
    /// Returns the files of the previous output that the new one does not have.
    private func swap(_ fresh: URL, old: URL) throws -> [String] {
        let manager = FileManager.default
        guard manager.fileExists(atPath: output.path) else {
            try manager.moveItem(at: fresh, to: output)
            return []
        }
        var carried: [String] = []
        for name in ((try? manager.contentsOfDirectory(atPath: output.path)) ?? []).sorted() where Self.isKept(name) {
            let target = fresh.appendingPathComponent(name)
            var info = stat()
            guard lstat(target.path, &info) != 0 else { continue }
            do {
                try manager.moveItem(at: output.appendingPathComponent(name), to: target)
                carried.append(name)
            } catch {
                for name in carried { try? manager.moveItem(at: fresh.appendingPathComponent(name), to: output.appendingPathComponent(name)) }
                abandon(fresh: fresh)
                throw Refusal(description: "cannot keep \(name) of the output folder: \(error.localizedDescription)")
            }
        }
        let previous = Set(Self.filesBelow(output, as: "").map { String($0.dropFirst()) })
        try? manager.removeItem(at: old)
        try manager.moveItem(at: output, to: old)
        do {
            try manager.moveItem(at: fresh, to: output)
        } catch {
            try? manager.moveItem(at: old, to: output)
            for name in carried { try? manager.moveItem(at: fresh.appendingPathComponent(name), to: output.appendingPathComponent(name)) }
            try? manager.removeItem(at: fresh)
            throw error
        }
        try? manager.removeItem(at: old)
        let now = Set(Self.filesBelow(output, as: "").map { String($0.dropFirst()) })
        return previous.subtracting(now).filter { $0 != Self.markerName && !$0.contains(".cardfeed-new-") }.sorted()
    }
}
