import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a build's files go. The write step makes one and owns it: the render step streams the
/// pages into it as the cards render (`PageStreams`), the write step adds the other files
/// (`SiteWriter`) and then commits it, or abandons it when the build fails. Nothing a build
/// writes reaches the output before the commit.
///
/// `open` and `close` are called from both cores at once, for different paths.
package protocol OutputTarget: AnyObject, Sendable {
    /// Creates the folders (relative, "/"-separated) that files go in, and the folders they are in.
    func createFolders(_ folders: Set<String>) throws
    /// A sink for the file at `path`, relative to the output; the file is done when `close` returns.
    func open(_ path: String) throws -> OutputSink
    func close(_ sink: OutputSink, path: String) throws
    /// Whether the target holds the file at `path` as made from `key` (a hash of everything it is
    /// made of) by the last build; then the file stays as it is and need not be made again.
    func holds(_ path: String, madeFrom key: Int) -> Bool
    /// Takes the file at `source`, which the build made and will remove, as the output's file at
    /// `path` without copying its bytes, where it can; false where it cannot (the bytes are
    /// then written as any file's).
    func adopt(_ source: URL, at path: String) -> Bool
    /// Told, before the pages stream in, about how many files the build makes (a target that
    /// keeps a table of them makes room for them at once).
    func expect(files count: Int)
    /// Puts every file in place at once.
    func commit() throws -> OutputCounts
    /// Forgets every file: the output stays as it was.
    func abandon()
}

extension OutputTarget {
    /// Only an output updated in place (`InPlaceOutput`) remembers what its files were made from.
    package func holds(_ path: String, madeFrom key: Int) -> Bool { false }

    package func adopt(_ source: URL, at path: String) -> Bool { false }

    package func expect(files count: Int) {}
}

/// What a build did to the output folder.
public struct OutputCounts: Sendable, Equatable {
    /// Files written: new, or different from the previous output's.
    public var written = 0
    /// Files left as they were, being byte for byte what the build produced.
    public var unchanged = 0
    /// Files of the previous output that this build no longer produces, removed; relative
    /// paths, sorted.
    public var removed: [String] = []
    /// Whether there was a previous output to compare the files with.
    public var comparedWithPrevious = false
}

/// Every file kept in memory, by path: what the fuzz probe and the tests look at.
public final class MemoryOutput: OutputTarget {
    private let stored = Mutex<[String: [UInt8]]>([:])
    /// The files, by path relative to the output.
    public var files: [String: [UInt8]] { stored.withLock { $0 } }

    public init() {}

    package func createFolders(_ folders: Set<String>) {}

    package func open(_ path: String) -> OutputSink { OutputSink(inMemoryFor: path) }

    package func close(_ sink: OutputSink, path: String) throws {
        try sink.finish()
        let bytes = sink.bytes
        stored.withLock { $0[path] = bytes }
    }

    package func commit() -> OutputCounts { OutputCounts(written: stored.withLock { $0.count }) }

    package func abandon() { stored.withLock { $0 = [:] } }
}

/// Every file made and none kept: `cardfeed check` renders every page and feed into it, so that
/// it meets every error a build would, and writes nothing.
package final class DiscardedOutput: OutputTarget {
    private let count = Mutex(0)

    package init() {}

    package func createFolders(_ folders: Set<String>) {}

    package func open(_ path: String) -> OutputSink { OutputSink(discarding: path) }

    package func close(_ sink: OutputSink, path: String) throws {
        try sink.finish()
        count.withLock { $0 += 1 }
    }

    package func commit() -> OutputCounts { OutputCounts(written: count.withLock { $0 }) }

    package func abandon() {}
}

/// Files written straight into a folder of the build's own that is not the output: the
/// documents the search index reads (see `CardPages`), in the scratch folder beside the output,
/// which the build removes once the index is made. Nothing is compared, since no earlier
/// build's files are there, and nothing is published.
package final class ScratchFolderOutput: OutputTarget {
    /// An absolute path, without a trailing slash.
    package let folder: String
    /// The files not to make: those `holds` says it has (the documents of the parts of the
    /// search index that the output has as the last build made them, see `SearchParts`).
    private let unneeded: Set<String>

    /// Creates `folder`, which must not exist yet, and the folders it is in.
    package init(folder: String, unneeded: Set<String> = []) throws {
        self.folder = folder
        self.unneeded = unneeded
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard mkdir(folder, 0o755) == 0 else { throw OutputError(path: folder, code: errno) }
    }

    package func createFolders(_ folders: Set<String>) throws {
        for relative in folders.sorted() {
            let path = folder + "/" + relative
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw OutputError(path: path, code: errno) }
        }
    }

    package func open(_ path: String) throws -> OutputSink { try OutputSink(path: folder + "/" + path, comparingWith: nil) }

    package func close(_ sink: OutputSink, path: String) throws { _ = try sink.finish() }

    package func holds(_ path: String, madeFrom key: Int) -> Bool { unneeded.contains(path) }

    /// Every file is in place once closed.
    package func commit() -> OutputCounts { OutputCounts() }

    /// The build removes the folder, written or not.
    package func abandon() {}
}
