import Foundation
import Synchronization
import CardFeedModel

/// An output folder updated in place from one build to the next (`cardfeed serve`'s). Each file
/// is collected in memory and compared, by a hash, with what the last build wrote at its path;
/// only the files that differ are written, when the build commits (each by an atomic rename),
/// and the files the site no longer has are removed. A build that fails writes nothing, so the
/// last good pages stay served.
public final class InPlaceOutput: OutputTarget {
    public let folder: URL
    private let state = Mutex(State())

    private struct State {
        /// A hash of each file in the folder, by path relative to it.
        var written: [String: Int] = [:]
        /// The build in progress: a hash of each of its files, and the bytes of those that changed.
        var hashes: [String: Int] = [:]
        var changed: [(path: String, bytes: [UInt8])] = []
        /// What each page was made from (see `holds`), by the last build and by this one.
        var keys: [String: Int] = [:]
        var nextKeys: [String: Int] = [:]
        var lastChanged: [String] = []
    }

    /// The paths, relative to the folder, that the last committed build wrote or removed (what
    /// a preview tells its open pages to fetch again: a stylesheet or an image under the same name).
    public var lastChanged: [String] { state.withLock { $0.lastChanged } }

    public init(folder: URL) {
        self.folder = folder
    }

    package func createFolders(_ folders: Set<String>) {}

    package func open(_ path: String) -> OutputSink { OutputSink(inMemoryFor: path) }

    package func close(_ sink: OutputSink, path: String) throws {
        try sink.finish()
        let bytes = sink.bytes
        var hasher = Hasher()
        hasher.combine(contentsOf: bytes)
        let hash = hasher.finalize()
        state.withLock { state in
            state.hashes[path] = hash
            if state.written[path] != hash { state.changed.append((path, bytes)) }
        }
    }

    package func holds(_ path: String, madeFrom key: Int) -> Bool {
        state.withLock { state in
            state.nextKeys[path] = key
            guard state.keys[path] == key, let hash = state.written[path] else { return false }
            state.hashes[path] = hash
            return true
        }
    }

    package func commit() throws -> OutputCounts {
        try state.withLock { (state) throws in
            // A page's key is trusted next time only if its file was written: after a failure
            // here every page is made again.
            var committed = false
            defer {
                state.hashes = [:]
                state.changed = []
                state.keys = committed ? state.nextKeys : [:]
                state.nextKeys = [:]
            }
            let hadPrevious = !state.written.isEmpty
            let manager = FileManager.default
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let marker = folder.appendingPathComponent(SiteWriter.markerName)
            if !manager.fileExists(atPath: marker.path) { try Data(SiteWriter.markerText.utf8).write(to: marker) }
            for file in state.changed {
                let target = folder.appendingPathComponent(file.path, isDirectory: false)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: target, options: .atomic)
                state.written[file.path] = state.hashes[file.path]
            }
            let removed = state.written.keys.filter { state.hashes[$0] == nil }.sorted()
            for path in removed {
                try? manager.removeItem(at: folder.appendingPathComponent(path))
                state.written[path] = nil
            }
            committed = true
            state.lastChanged = (state.changed.map(\.path) + removed).sorted()
            return OutputCounts(written: state.changed.count, unchanged: state.hashes.count - state.changed.count, removed: removed, comparedWithPrevious: hadPrevious)
        }
    }

    package func abandon() {
        state.withLock { state in
            state.hashes = [:]
            state.changed = []
            state.nextKeys = [:]
        }
    }
}
