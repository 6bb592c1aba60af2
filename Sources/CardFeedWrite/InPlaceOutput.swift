import Foundation

/// An output folder updated in place from one build to the next (`cardfeed serve`'s). Each file
/// is collected in memory and compared, by a hash, with what the last build wrote at its path;
/// only the files that differ are written, when the build commits (each by an atomic rename),
/// and the files the site no longer has are removed. A build that fails writes nothing, so the
/// last good pages stay served.
public final class InPlaceOutput: OutputTarget, @unchecked Sendable {
    public let folder: URL
    private let lock = NSLock()
    /// A hash of each file in the folder, by path relative to it.
    private var written: [String: Int] = [:]
    /// The build in progress: a hash of each of its files, and the bytes of those that changed.
    private var hashes: [String: Int] = [:]
    private var changed: [(path: String, bytes: [UInt8])] = []
    /// What each page was made from (see `holds`), by the last build and by this one.
    private var keys: [String: Int] = [:]
    private var nextKeys: [String: Int] = [:]
    /// The paths, relative to the folder, that the last committed build wrote or removed (what
    /// a preview tells its open pages to fetch again: a stylesheet or an image under the same name).
    public private(set) var lastChanged: [String] = []

    public init(folder: URL) {
        self.folder = folder
    }

    package func createFolders(_ folders: Set<String>) {}

    package func open(_ path: String) -> OutputSink { OutputSink(inMemoryFor: path) }

    package func close(_ sink: OutputSink, path: String) throws {
        try sink.finish()
        let bytes = sink.bytes
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }  // not `combine(bytes)`, which hashes byte by byte
        let hash = hasher.finalize()
        lock.withLock {
            hashes[path] = hash
            if written[path] != hash { changed.append((path, bytes)) }
        }
    }

    package func holds(_ path: String, madeFrom key: Int) -> Bool {
        lock.withLock {
            nextKeys[path] = key
            guard keys[path] == key, let hash = written[path] else { return false }
            hashes[path] = hash
            return true
        }
    }

    package func commit() throws -> OutputCounts {
        try lock.withLock {
            // A page's key is trusted next time only if its file was written: after a failure
            // here every page is made again.
            var committed = false
            defer {
                hashes = [:]
                changed = []
                keys = committed ? nextKeys : [:]
                nextKeys = [:]
            }
            let manager = FileManager.default
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let marker = folder.appendingPathComponent(SiteWriter.markerName)
            if !manager.fileExists(atPath: marker.path) { try Data(SiteWriter.markerText.utf8).write(to: marker) }
            for file in changed {
                let target = folder.appendingPathComponent(file.path, isDirectory: false)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: target, options: .atomic)
                written[file.path] = hashes[file.path]
            }
            let removed = written.keys.filter { hashes[$0] == nil }.sorted()
            for path in removed {
                try? manager.removeItem(at: folder.appendingPathComponent(path))
                written[path] = nil
            }
            committed = true
            lastChanged = (changed.map(\.path) + removed).sorted()
            return OutputCounts(written: changed.count, unchanged: hashes.count - changed.count, removed: removed)
        }
    }

    package func abandon() {
        lock.withLock {
            hashes = [:]
            changed = []
            nextKeys = [:]
        }
    }
}
