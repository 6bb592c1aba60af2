import Foundation
import Synchronization
import CardFeedModel
import CardFeedSystem

/// Step 4 of a build: the files that are not pages (assets, feeds, the sitemap, `static/`) go
/// into the output target that the pages were streamed into while the cards rendered, which
/// is then committed (see `OutputTransaction`). A folder that cardfeed did not create is never
/// emptied.
public struct SiteWriter: Sendable {
    /// Marks a folder as cardfeed's output, which a later build may replace whole.
    public static let markerName = SiteFolder.outputMarker
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
        // Real paths, so that no symbolic link on either side (a link to cards/, an output
        // through a link, a cards/ that is a link) hides where the output would go.
        let out = SiteFolder.realPath(output)
        let root = SiteFolder.realPath(site.root)
        if SiteFolder.isWithin(root, out) {
            throw Refusal(description: "the output folder \(SiteFolder.display(output)) contains the site itself; choose another --output")
        }
        for input in site.standardFolders {
            if SiteFolder.isWithin(out, SiteFolder.realPath(input)) {
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

    /// True for a name in the output that every build keeps: hidden files and folders (`.git`,
    /// `.nojekyll`, `.well-known`), as Zola's `preserve_dotfiles_in_output` does, but not the
    /// marker or the staging files an interrupted build left.
    static func isKept(_ name: String) -> Bool {
        name.hasPrefix(".") && name != markerName && !name.contains(".cardfeed-new-")
    }

    /// Writes `files` into `target`, on both cores.
    package func write(_ files: [OutputFile], to target: any OutputTarget) throws {
        try target.createFolders(PagePaths.folders(containing: files.map(\.path)))
        let failures = ConcurrentResults<String?>(count: files.count)
        let done = FileCount(progress)
        Parallel.perform(iterations: files.count) { index in
            let file = files[index]
            if case .scratchFile(let source) = file.content, target.adopt(source, at: file.path) {
                failures.set(index, nil)
                done.add()
                return
            }
            do {
                let sink = try target.open(file.path)
                try file.write(to: sink)
                try target.close(sink, path: file.path)
                failures.set(index, nil)
            } catch let error as OutputError {
                failures.set(index, "\(file.path): \(String(cString: strerror(error.code)))")
            } catch {
                failures.set(index, "\(file.path): \(error)")
            }
            done.add()
        }
        if let failure = failures.values.compactMap({ $0 }).first {
            throw Refusal(description: "cannot write \(failure)")
        }
    }

    /// Files done on both cores, passed on to `progress` every 64 and one call at a time.
    private final class FileCount: Sendable {
        private let progress: (@Sendable (Int) -> Void)?
        private let count = Mutex(0)

        init(_ progress: (@Sendable (Int) -> Void)?) { self.progress = progress }

        func add() {
            guard let progress else { return }
            count.withLock { count in
                count += 1
                if count % 64 == 0 { progress(count) }
            }
        }
    }
}
