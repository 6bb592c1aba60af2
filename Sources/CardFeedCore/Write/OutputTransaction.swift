import CFileSwap
import Foundation

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
/// one. Hidden files of the output (`.git`, `.nojekyll`) are linked into the new one first.
///
/// A lock file beside the output keeps a second build out meanwhile, and what a killed build
/// left beside the output is removed by the next one. Symbolic links in the old output are
/// never followed: a file is compared with the old one only inside real folders.
final class OutputTransaction: OutputTarget, @unchecked Sendable {
    /// Absolute paths, without a trailing slash.
    let output: String
    let staging: String
    private let lock: OutputLock
    private let hasPrevious: Bool

    private let mutex = NSLock()
    /// Folders of the old output (relative) that are real folders, in which its files are compared.
    private var comparable: Set<String> = []
    private var created: Set<String> = [""]
    private var written = 0
    private var linked = 0
    private var paths: Set<String> = []
    private var finished = false

    /// Locks `output`, removes what an interrupted build left beside it and creates the staging
    /// folder. The output, when it exists, must be a folder (see `SiteWriter.check`).
    init(output url: URL) throws(SiteWriter.Refusal) {
        output = url.standardizedFileURL.path
        let parent = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        let shown = SiteFolder.display(url)
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw SiteWriter.Refusal(description: "cannot create the folder \(SiteFolder.display(URL(fileURLWithPath: parent))) it goes in: \(error.localizedDescription)")
        }
        lock = try OutputLock(path: parent + "/.\(name).cardfeed-lock", output: shown)
        // Holding the lock, whatever else is named after the output is a killed build's.
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        where leftover.hasPrefix(".\(name).cardfeed-") && leftover != ".\(name).cardfeed-lock" {
            try? FileManager.default.removeItem(atPath: parent + "/" + leftover)
        }
        staging = parent + "/.\(name).cardfeed-staging"
        var status = stat()
        hasPrevious = lstat(output, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        if hasPrevious { comparable.insert("") }
        guard mkdir(staging, 0o755) == 0 else {
            let reason = String(cString: strerror(errno))
            lock.release()
            throw SiteWriter.Refusal(description: "cannot create a folder beside \(shown) to build in: \(reason)")
        }
    }

    deinit {
        if !finished { abandon() }
    }

    func createFolders(_ folders: Set<String>) throws {
        try mutex.withLock {
            for folder in folders.sorted() where !created.contains(folder) {
                guard mkdir(staging + "/" + folder, 0o755) == 0 || errno == EEXIST else {
                    throw SiteWriter.Refusal(description: "cannot create the folder \(folder): \(String(cString: strerror(errno)))")
                }
                created.insert(folder)
                var status = stat()
                if comparable.contains(PagePaths.folder(folder)), lstat(output + "/" + folder, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    comparable.insert(folder)
                }
            }
        }
    }

    func open(_ path: String) throws -> OutputSink {
        let compare = mutex.withLock { comparable.contains(PagePaths.folder(path)) }
        return try OutputSink(path: staging + "/" + path, comparingWith: compare ? output + "/" + path : nil)
    }

    func close(_ sink: OutputSink, path: String) throws {
        let outcome = try sink.finish()
        if outcome == .unchanged { try link(path) }
        mutex.withLock {
            paths.insert(path)
            if outcome == .unchanged { linked += 1 } else { written += 1 }
        }
    }

    /// The old output's file at `path`, unchanged, goes into the new one as it is.
    private func link(_ path: String) throws {
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
            throw OutputError(path: new, code: EIO)
        }
    }

    func commit() throws -> OutputCounts {
        let manager = FileManager.default
        let shown = SiteFolder.display(URL(fileURLWithPath: output))
        do {
            if hasPrevious { try carryHiddenFiles() }
            try Data(SiteWriter.markerText.utf8).write(to: URL(fileURLWithPath: staging + "/" + SiteWriter.markerName))
        } catch {
            abandon()
            throw SiteWriter.Refusal(description: "cannot write into the folder beside \(shown): \(error)")
        }
        var removed: [String] = []
        if hasPrevious {
            removed = Self.files(in: output).filter { !paths.contains($0) }
            if cardfeed_exchange_paths(staging, output) != 0 {
                // A file system that cannot exchange two names: the old output is moved aside
                // first, which leaves an instant with no output at all.
                let aside = staging + "-old"
                guard rename(output, aside) == 0 else { throw failure("cannot move \(shown) aside") }
                guard rename(staging, output) == 0 else {
                    let error = failure("cannot put the new site in place of \(shown)")
                    _ = rename(aside, output)
                    throw error
                }
                try? manager.removeItem(atPath: aside)
            }
        } else {
            guard rename(staging, output) == 0 else { throw failure("cannot put the new site in place of \(shown)") }
        }
        // After an exchange, the staging name holds the old output.
        try? manager.removeItem(atPath: staging)
        finished = true
        lock.release()
        return OutputCounts(written: written, unchanged: linked, removed: removed.sorted())
    }

    private func failure(_ what: String) -> SiteWriter.Refusal {
        let reason = String(cString: strerror(errno))
        abandon()
        return SiteWriter.Refusal(description: "\(what): \(reason)")
    }

    func abandon() {
        guard !finished else { return }
        finished = true
        try? FileManager.default.removeItem(atPath: staging)
        lock.release()
    }

    /// Hidden files and folders of the old output that the build did not write are linked into
    /// the new one, file by file (a folder is made anew, a symbolic link copied as a link).
    private func carryHiddenFiles() throws {
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).sorted() where SiteWriter.isKept(name) {
            var status = stat()
            guard lstat(staging + "/" + name, &status) != 0 else { continue }
            try Self.linkTree(output + "/" + name, to: staging + "/" + name)
        }
    }

    private static func linkTree(_ source: String, to target: String) throws {
        var status = stat()
        guard lstat(source, &status) == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            guard mkdir(target, status.st_mode & 0o7777) == 0 else { throw OutputError(path: target, code: errno) }
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try linkTree(source + "/" + name, to: target + "/" + name)
            }
        case S_IFLNK:
            let destination = try FileManager.default.destinationOfSymbolicLink(atPath: source)
            guard symlink(destination, target) == 0 else { throw OutputError(path: target, code: errno) }
        default:
            if linkat(AT_FDCWD, source, AT_FDCWD, target, 0) != 0 {
                try FileManager.default.copyItem(atPath: source, toPath: target)
            }
        }
    }

    /// The files below `folder`, relative, without its hidden files and folders and the marker,
    /// never following a symbolic link.
    static func files(in folder: String) -> [String] {
        var files: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                if relative.isEmpty && (SiteWriter.isKept(name) || name == SiteWriter.markerName) { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                if lstat(folder + "/" + child, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    walk(child)
                } else if !name.contains(".cardfeed-new-") {
                    files.append(child)
                }
            }
        }
        walk("")
        return files
    }
}

/// The lock a build holds on its output folder: a file beside the folder, locked with `flock`,
/// holding the process id that another build names. The kernel releases the lock when the
/// process ends, however it ends.
final class OutputLock: @unchecked Sendable {
    let path: String
    private var descriptor: Int32

    init(path: String, output: String) throws(SiteWriter.Refusal) {
        self.path = path
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
    }

    /// Removes the lock file, then lets go of it.
    func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
