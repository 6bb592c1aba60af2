import CFileSwap
import Foundation
import Synchronization
import CardFeedModel
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A build's output folder, replaced as a transaction.
///
/// The new site is written into a staging folder beside the output (`.public.cardfeed-staging`),
/// each file compared, as it is written, with the output's file of the same path: a file that
/// comes out byte for byte the same is hard-linked from the old output instead, so that it keeps
/// its modification time (deployments that copy only what changed rely on it) and a rebuild
/// writes only what changed. `commit` then exchanges the two folders in one rename, so that at
/// every instant, `kill -9` included, the output is the whole previous site or the whole new
/// one. Hidden files of the output that every build keeps (`.git`, `.nojekyll`, see
/// `OutputHiddenFiles`) are linked into the new one first, whatever folder they are in.
///
/// With a build cache, a page made from the same key as the previous build's, whose file nobody
/// touched since, is linked from the old output without being made again (`holds`).
///
/// With a build cache on the output's file system, the old output is not removed after the
/// exchange: it waits in the cache (its "twin", `previous-output`), and the next build makes its
/// new output there instead of in a new staging folder. The twin already holds, under the same
/// inodes, every file that did not change in the last build, so a rebuild after one edit writes
/// or links only the files that changed since the output before last, removes those the new
/// site no longer has, and exchanges the two folders; it does not link 100,000 unchanged pages
/// into a new folder and remove 100,000 old names. Nothing in the twin is trusted: a file is kept
/// there only when it is the output's own file (the same inode), and every other one is written
/// anew or removed, so a twin left half updated by a killed build, or edited by hand, is put
/// right by the next build. A file in the twin is never written in place (it may be the
/// output's too): it is removed and made anew.
///
/// A lock file beside the output keeps a second build out meanwhile, and what a killed build
/// left beside the output is removed by the next one. Symbolic links in the old output are
/// never followed: a file is compared with the old one only inside real folders.
package final class OutputTransaction: OutputTarget {
    /// Absolute paths, without a trailing slash.
    let output: String
    let staging: String
    /// The staging folder: the files closed so far are there, and only there, until `commit`.
    package var stagingFolder: String { staging }
    /// A folder beside the output for a step's own files, which the build removes once the
    /// output is written (Pagefind's index, which the write step copies into the output). Like
    /// the staging folder, what a killed build left there is removed by the next one.
    package let scratchFolder: String
    /// Where the old output waits while the new one is put in place, on a file system that
    /// cannot exchange two names.
    private let aside: String
    /// With a build cache: where the old output waits for the next build once this one is in
    /// place, and, when it holds one there, what it held as this build began (then the build is
    /// made in it: `staging` is its path).
    private let twinPath: String?
    private let twin: TwinFolder.Walk?
    private let lock: OutputLock
    private let hasPrevious: Bool
    /// The old output, open (-1 when there is none, or it cannot be opened): its pages are
    /// linked from it (`linksOutputFile`).
    private let outputFolder: Int32
    /// The old output's hidden files that the new one keeps.
    package let hiddenFiles: OutputHiddenFiles
    /// The old output's other files, as it was opened (those below a hidden path it keeps are
    /// carried whole): what the commit tells the new output's against, to find those the site
    /// lost. (A file put there by hand while the build runs is not among them: the output is
    /// still right, as the next build's twin loses it, but the summary does not name it.)
    private let oldFiles: [String]

    private let state = Mutex(State())
    /// The twin's clearing once the new output is in place (see `keep(oldOutput:removed:)`),
    /// which goes on while the build keeps its cache.
    private let clearing = Mutex<Background<Void>?>(nil)

    private struct State {
        /// Folders of the old output (relative) that are real folders, in which its files are compared.
        var comparable: Set<String> = []
        var created: Set<String> = [""]
        var finished = false
    }

    /// The files of the new output, and the keys of its pages.
    private let files = OutputFiles()

    /// With a cache: the previous build's pages, with their keys, and which are untouched (none
    /// without). Not an optional, nor its pages a property computed from one: then each of
    /// 117,000 lookups on both cores retained and released the dictionary.
    private let previous: PreviousPages

    /// Locks `output`, clears what an interrupted build left beside it, reads the hidden files
    /// it keeps, and with a cache which of its pages the last build left as they are, and
    /// creates the staging folder (at 117,000 pages, a fifth of a second: see
    /// `SiteBuilder.openingOutput`, which opens it on a thread of its own). The output, when it exists, must be a folder (see `SiteWriter.checkOutput`); when
    /// it is a symbolic link, the folder it leads to is the one replaced, and the link stays.
    /// `staticFolder` is the site's `static/`, which tells the hidden files an older cardfeed
    /// copied from it (see `OutputHiddenFiles`).
    /// `previous`: with a cache, the pages the previous build wrote in this output (see `holds`).
    /// `twin`: with a cache, where the old output is kept for the next build (see the type's
    /// comment); used only on the output's file system.
    package init(output url: URL, staticFolder: URL? = nil, previous previousPages: [String: KeptPage]? = nil, twin twinFolder: TwinFolder? = nil) throws(SiteWriter.Refusal) {
        // As many files again, about: a rebuild makes what the last build made.
        files.reserve(previousPages?.count ?? 0)
        let twinPath = twinFolder?.path
        output = SiteFolder.realPath(url)
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        let shown = SiteFolder.display(url)
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw SiteWriter.Refusal(description: "cannot create the folder \(SiteFolder.display(URL(fileURLWithPath: parent))) it goes in: \(error.localizedDescription)")
        }
        var status = stat(), parentStatus = stat()
        if lstat(output, &status) == 0, stat(parent, &parentStatus) == 0, status.st_dev != parentStatus.st_dev {
            // A mount point cannot be renamed, and the output is replaced whole by a rename.
            throw SiteWriter.Refusal(description: "\(shown) is a mount point, which a build cannot replace as a whole; use a folder inside it (\(shown)/site) as the output")
        }
        lock = try OutputLock(path: parent + "/.\(name).cardfeed-lock", output: shown)
        let besideOutput = parent + "/.\(name).cardfeed-staging"
        aside = besideOutput + "-old"
        scratchFolder = parent + "/.\(name).cardfeed-scratch"
        // Holding the lock, these names are a killed build's (and those of earlier versions,
        // .NAME.cardfeed-new-PID and -old-PID). A build killed between moving the old output
        // aside and putting the new one in place left no output: the old one comes back.
        if lstat(output, &status) != 0, lstat(aside, &status) == 0 { _ = rename(aside, output) }
        let ours = try! Regex("^\\.\(NSRegularExpression.escapedPattern(for: name))\\.cardfeed-(staging|staging-old|scratch|new-[0-9]+|old-[0-9]+)$")
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where leftover.wholeMatch(of: ours) != nil {
            try? FileManager.default.removeItem(atPath: parent + "/" + leftover)
        }
        hasPrevious = lstat(output, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        outputFolder = hasPrevious ? SystemCalls.openFolder(output) : -1
        (hiddenFiles, oldFiles) = hasPrevious ? OutputHiddenFiles.listing(output: output, staticFolder: staticFolder) : (.none, [])
        if hasPrevious { state.withLock { _ = $0.comparable.insert("") } }
        // The twin is on the output's file system only when its folder and the output's are on
        // the same device: the two are exchanged by a rename.
        var parentDevice = stat()
        _ = stat(parent, &parentDevice)
        let twinStatus = twinPath.flatMap { path -> stat? in var status = stat(); return lstat(path, &status) == 0 ? status : nil }
        self.twinPath = twinPath.flatMap { path in
            var folder = stat()
            return stat((path as NSString).deletingLastPathComponent, &folder) == 0 && folder.st_dev == parentDevice.st_dev ? path : nil
        }
        if hasPrevious, self.twinPath != nil, let twinStatus, (twinStatus.st_mode & S_IFMT) == S_IFDIR, twinStatus.st_dev == parentDevice.st_dev {
            twin = twinFolder!.walk
        } else {
            twin = nil
        }
        // Without an old output, no page of it is kept (and none is looked for: a CI job's new
        // output, with the cache restored, knows 117,000 of them).
        previous = (hasPrevious ? previousPages : nil).map { [output, outputFolder] in PreviousPages($0, output: output, in: outputFolder) } ?? PreviousPages()
        if let twinPath = self.twinPath, twin != nil {
            staging = twinPath
            return
        }
        staging = besideOutput
        guard mkdir(staging, 0o755) == 0 else {
            let reason = String(cString: strerror(errno))
            state.withLock { $0.finished = true }  // the staging name is not this build's to remove
            lock.release()
            throw SiteWriter.Refusal(description: "cannot create a folder beside \(shown) to build in: \(reason)")
        }
    }

    deinit {
        finishClearingTwin()
        abandon()
        if outputFolder >= 0 { SystemCalls.close(outputFolder) }
    }

    package func createFolders(_ folders: Set<String>) throws {
        try state.withLock { (state) throws in
            for folder in folders.sorted() where !state.created.contains(folder) {
                // In the twin, the folder may be there, or a file of the output before last in its place.
                if twin?.inodes[folder] != nil { Self.clear(staging + "/" + folder) }
                guard mkdir(staging + "/" + folder, 0o755) == 0 || errno == EEXIST else {
                    throw SiteWriter.Refusal(description: "cannot create the folder \(folder): \(String(cString: strerror(errno)))")
                }
                state.created.insert(folder)
                var status = stat()
                if state.comparable.contains(PagePaths.folder(folder)), lstat(output + "/" + folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    state.comparable.insert(folder)
                }
            }
        }
    }

    package func open(_ path: String) throws -> OutputSink {
        let compare = state.withLock { $0.comparable.contains(PagePaths.folder(path)) }
        // A sink writes a new file; what the twin has there goes first (see `clearTwin`).
        clearTwin(path)
        return try OutputSink(path: staging + "/" + path, comparingWith: compare ? output + "/" + path : nil)
    }

    /// A new file is linked into the staging folder: a hard link costs a tenth of a copy, and
    /// 100,000 files of a search index are some 60 MB. A file whose folder the old output has is
    /// written as any other, to be compared with the old one (see `open`).
    package func adopt(_ source: URL, at path: String) -> Bool {
        guard !state.withLock({ $0.comparable.contains(PagePaths.folder(path)) }) else { return false }
        clearTwin(path)
        guard Foundation.link(source.path, staging + "/" + path) == 0 else { return false }
        files.update(path) { entry in
            entry.isFile = true
            entry.made = true
        }
        files.written.add(1, ordering: .relaxed)
        return true
    }

    /// A page made from the same key as the previous build's, whose file nobody touched since
    /// (the same stamp), goes into the new output as it is, without being made again. Every
    /// page's key is kept for the next build (`keptPages`).
    package func holds(_ path: String, madeFrom key: Int) -> Bool {
        holds(path, madeFrom: key, stampChecked: false)
    }

    /// `holds`, for a file that `stillHas` said the output has.
    package func holds(_ path: String, madeFrom key: Int, stampChecked: Bool) -> Bool {
        let page = previous.pages[path]
        let comparable = page?.key == key && state.withLock { $0.comparable.contains(PagePaths.folder(path)) }
        guard let page, comparable, stampChecked || previous.isUntouched(path), linksOutputFile(path, inode: page.stamp.inode) else {
            files.update(path) { $0.key = key }
            return false
        }
        files.update(path) { entry in
            entry = OutputFiles.Entry(isFile: true, key: key, held: true, stamp: page.stamp)
        }
        files.linked.add(1, ordering: .relaxed)
        return true
    }

    /// Whether the output has the file at `path` as the previous build made it from `key`,
    /// untouched since: what `holds` would keep, asked before the build decides to make it.
    package func stillHas(_ path: String, madeFrom key: Int) -> Bool {
        guard let page = previous.pages[path], page.key == key else { return false }
        return previous.isUntouched(path)
    }

    /// The previous build's files in `folder` (relative, without a trailing slash) that were
    /// made from a key, by their path in it.
    package func previousFiles(in folder: String) -> [String: Int] {
        let prefix = folder + "/"
        var found: [String: Int] = [:]
        for (path, page) in previous.pages where path.hasPrefix(prefix) { found[String(path.dropFirst(prefix.count))] = page.key }
        return found
    }

    /// Room in the table of the new output's files for `count`: growing it as 117,000 pages
    /// came hashed every path again at each doubling (a fortieth of a first build's CPU time).
    package func expect(files count: Int) {
        files.reserve(count)
    }

    /// Keeps `key` as what the file at `path`, which the build writes, was made from (for the
    /// next build's `holds`).
    package func remember(_ key: Int, for path: String) {
        files.update(path) { $0.key = key }
    }

    /// Every page of the new output made from a key, once committed: the key and the file's
    /// stamp, for the next build (see `BuildCache`). A page held as it was keeps its stamp (its
    /// file is the same), one written has the stamp its sink read as it closed the file; the
    /// others (a file adopted) are read. Each path once, in no order.
    package func keptPages() -> [(path: String, page: KeptPage)] {
        // A shard at a time on both cores: the list of 117,000 pages made on one core, and then
        // their stamps on two, held the other core idle for a twentieth of a second.
        files.compactMap { [output] path, entry in
            guard let key = entry.key, let stamp = entry.stamp ?? FileStamp(path: output + "/" + path) else { return nil }
            return (path, KeptPage(key: key, stamp: stamp))
        }
    }

    package func close(_ sink: OutputSink, path: String) throws {
        let outcome = try sink.finish()
        if outcome == .unchanged { try link(path) }
        files.update(path) { entry in
            entry.isFile = true
            entry.made = outcome != .unchanged
            entry.stamp = sink.stamp
        }
        if outcome == .unchanged { files.linked.add(1, ordering: .relaxed) } else { files.written.add(1, ordering: .relaxed) }
    }

    /// Whether the new output has the old output's file at `path`, as it is: in the twin, where
    /// it was that file already, or once linked.
    /// `inode`: the file's, which the twin has too when it is the output's own file. (Asked here,
    /// a page at a time on both cores, and not of every page as the output is opened, on one.)
    private func linksOutputFile(_ path: String, inode: UInt64) -> Bool {
        // (Through the optional, not bound: a twin bound retains its three tables, on both cores at once.)
        if twin?.inodes[path] == inode { return true }
        clearTwin(path)
        if outputFolder >= 0 { return linkat(outputFolder, path, AT_FDCWD, staging + "/" + path, 0) == 0 }
        return linkat(AT_FDCWD, output + "/" + path, AT_FDCWD, staging + "/" + path, 0) == 0
    }

    /// Removes what the twin has at `path`, file or folder, before the new file is made there:
    /// a file of the twin may be the output's own, and is never written in place.
    private func clearTwin(_ path: String) {
        if twin?.inodes[path] != nil || twin?.folders.contains(path) == true { Self.clear(staging + "/" + path) }
    }

    private static func clear(_ path: String) {
        if unlink(path) != 0 && errno != ENOENT { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The old output's file at `path`, unchanged, goes into the new one as it is.
    private func link(_ path: String) throws {
        // (In the twin, `open` removed what was at `path`.)
        let old = output + "/" + path, new = staging + "/" + path
        guard linkat(AT_FDCWD, old, AT_FDCWD, new, 0) != 0 else { return }
        // A file system without hard links: a copy, with the old file's times.
        do {
            try FileManager.default.copyItem(atPath: old, toPath: new)
            var status = stat()
            if lstat(old, &status) == 0 {
                #if canImport(Glibc)
                var times = [status.st_atim, status.st_mtim]
                #else
                var times = [status.st_atimespec, status.st_mtimespec]
                #endif
                utimensat(AT_FDCWD, new, &times, AT_SYMLINK_NOFOLLOW)
            }
        } catch {
            throw SiteWriter.Refusal(description: "cannot link or copy \(path) from the previous output: \(error.localizedDescription)")
        }
    }

    package func commit() throws -> OutputCounts {
        let manager = FileManager.default
        let shown = SiteFolder.display(URL(fileURLWithPath: output))
        var carried: Set<String> = []
        let folders = state.withLock { $0.created }
        let (written, linked) = (files.written.load(ordering: .relaxed), files.linked.load(ordering: .relaxed))
        do {
            if let twin { sweep(twin, folders: folders) }
            if hasPrevious { carried = try carryHiddenFiles() }
            let marker = OutputHiddenFiles.markerText(copied: files.paths(where: OutputHiddenFiles.isHidden))
            try Data(marker.utf8).write(to: URL(fileURLWithPath: staging + "/" + SiteWriter.markerName))
        } catch {
            abandon()
            throw SiteWriter.Refusal(description: "cannot write into the folder beside \(shown): \(error)")
        }
        var removed: [String] = []
        if hasPrevious {
            // On both cores: the old output has as many files as the new one.
            removed = Parallel.filter(oldFiles) { [files, carried] in !files.hasFile($0) && !carried.contains($0) }
            if cardfeed_exchange_paths(staging, output) != 0 {
                // Only a file system or kernel that cannot exchange two names (EINVAL, ENOSYS)
                // gets the two renames, with an instant when there is no output; the next build
                // puts the old output back if this one is killed then.
                guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(errno) else { throw failure("cannot put the new site in place of \(shown)") }
                guard rename(output, aside) == 0 else { throw failure("cannot move \(shown) aside") }
                guard rename(staging, output) == 0 else {
                    let error = failure("cannot put the new site in place of \(shown)")
                    _ = rename(aside, output)
                    throw error
                }
                keep(oldOutput: aside, removed: removed)
            } else {
                // After an exchange, the staging name holds the old output.
                keep(oldOutput: staging, removed: removed)
            }
        } else {
            guard rename(staging, output) == 0 else { throw failure("cannot put the new site in place of \(shown)") }
            if let twinPath { try? manager.removeItem(atPath: twinPath) }  // another output's
        }
        state.withLock { $0.finished = true }
        lock.release()
        return OutputCounts(written: written, unchanged: linked, removed: removed.sorted(), comparedWithPrevious: hasPrevious)
    }

    /// Removes from the twin what the new output does not have: the files of the output before
    /// last that this build did not make or keep, and folders it has no file in. (Hidden files
    /// that every build keeps go too, and are linked from the output again, as into a new
    /// staging folder.)
    private func sweep(_ twin: TwinFolder.Walk, folders: Set<String>) {
        // A name that was a file and is now a folder, or the other way round, was cleared when
        // the build made it (`createFolders`, `clearTwin`) and holds the new one.
        // On both cores: the twin has as many files as the output.
        let twinFiles = twin.tree.files
        Parallel.perform(count: twinFiles.count, chunk: 1024) { [files, staging] range in
            for (path, _) in twinFiles[range] where !files.hasFile(path) && !folders.contains(path) { Self.clear(staging + "/" + path) }
        }
        // Each folder after the folder it is in: reversed, a folder is emptied before its parent.
        for folder in twin.tree.folders.reversed() where !folders.contains(folder) && !files.hasFile(folder) {
            if rmdir(staging + "/" + folder) != 0 && errno != ENOENT { try? FileManager.default.removeItem(atPath: staging + "/" + folder) }
        }
    }

    /// The old output, now at `path`, becomes the twin for the next build; without one, it is
    /// removed. The twin keeps only the files it shares with the new output (the same inodes):
    /// the old bytes of those this build wrote anew, and the files the site no longer has
    /// (`removed`), go, so that the cache holds no copy of the site but its cards. (The next
    /// build makes or links those files there, as into a new folder.)
    private func keep(oldOutput path: String, removed: [String]) {
        guard let twinPath else {
            try? FileManager.default.removeItem(atPath: path)
            return
        }
        if path != twinPath {
            try? FileManager.default.removeItem(atPath: twinPath)
            guard rename(path, twinPath) == 0 else {
                try? FileManager.default.removeItem(atPath: path)
                return
            }
        }
        // On a thread of its own: a card template's change writes 46,108 files anew at 100,000
        // cards, whose old bytes take 0.4 s to remove, while the build has its cache to keep.
        let stale = files.made + removed + [SiteWriter.markerName]
        clearing.withLock { $0 = Background { for file in stale { Self.clear(twinPath + "/" + file) } } }
    }

    /// Waits until the twin holds only what it shares with the new output (`commit` left it to
    /// a thread of its own).
    package func finishClearingTwin() {
        clearing.withLock { $0 }?.value
    }

    private func failure(_ what: String) -> SiteWriter.Refusal {
        let reason = String(cString: strerror(errno))
        abandon()
        return SiteWriter.Refusal(description: "\(what): \(reason)")
    }

    package func abandon() {
        let wasFinished = state.withLock { state in
            defer { state.finished = true }
            return state.finished
        }
        guard !wasFinished else { return }
        // The twin stays, half made: the next build puts it right (see the type's comment).
        if twin == nil { try? FileManager.default.removeItem(atPath: staging) }
        lock.release()
    }

    /// The hidden files and folders of the old output that every build keeps are linked into the
    /// new one, file by file (a folder is made anew, a symbolic link copied as a link), with the
    /// folders they are in, also where the new site has no such folder. The build checked that
    /// nothing it wrote lands on them (`SiteBuilder.staticCollisions`). Returns the files carried.
    private func carryHiddenFiles() throws -> Set<String> {
        var carried: Set<String> = []
        for path in hiddenFiles.kept {
            var folder = staging
            for name in path.split(separator: "/").dropLast() {
                folder += "/" + name
                guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { throw OutputError(path: folder, code: errno) }
            }
            var status = stat()
            guard lstat(staging + "/" + path, &status) != 0 else {
                throw SiteWriter.Refusal(description: "the build wrote \(path), which the output has as a hidden file every build keeps")
            }
            try Self.linkTree(output + "/" + path, to: staging + "/" + path, as: path, into: &carried)
        }
        return carried
    }

    private static func linkTree(_ source: String, to target: String, as relative: String, into carried: inout Set<String>) throws {
        var status = stat()
        guard lstat(source, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            guard mkdir(target, status.st_mode & 0o7777) == 0 else { throw OutputError(path: target, code: errno) }
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try linkTree(source + "/" + name, to: target + "/" + name, as: relative + "/" + name, into: &carried)
            }
            return
        case S_IFLNK:
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: source)
            guard symlink(destination, target) == 0 else { throw OutputError(path: target, code: errno) }
        default:
            if linkat(AT_FDCWD, source, AT_FDCWD, target, 0) != 0 {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            }
        }
        carried.insert(relative)
    }

    /// The files below `folder`, relative, without the marker and the staging files an older
    /// cardfeed left (`.index.html.cardfeed-new-PID`), never following a symbolic link.
    static func files(in folder: String) -> [String] {
        // (Names that begin with a dot tested first: `contains` is Foundation's, and slow.)
        FolderTree(folder) { path, name, _ in path == SiteWriter.markerName || name.hasPrefix(".") && name.contains(".cardfeed-new-") }.files.map(\.path)
    }
}

/// The lock a build holds on its output folder: a file beside the folder, locked with `flock`,
/// holding the process id that another build names. The kernel releases the lock when the
/// process ends, however it ends.
final class OutputLock: Sendable {
    let path: String
    /// -1 once released.
    private let descriptor: Mutex<Int32>

    init(path: String, output: String) throws(SiteWriter.Refusal) {
        self.path = path
        var descriptor: Int32
        while true {
            descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw SiteWriter.Refusal(description: "cannot create the lock file \(path): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                var text = [UInt8](repeating: 0, count: 32)
                let count = read(descriptor, &text, 31)
                close(descriptor)
                let holder = count > 0 ? String(decoding: text[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
                throw SiteWriter.Refusal(description: "another cardfeed\(holder.isEmpty ? "" : " (process \(holder))") is writing \(output); wait until it ends, or choose another --output")
            }
            // The build that held it may have removed the file meanwhile: then lock the new one.
            var locked = stat(), current = stat()
            if fstat(descriptor, &locked) == 0, stat(path, &current) == 0, locked.st_ino == current.st_ino, locked.st_dev == current.st_dev { break }
            close(descriptor)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = Mutex(descriptor)
    }

    /// Removes the lock file, then lets go of it.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            unlink(path)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
