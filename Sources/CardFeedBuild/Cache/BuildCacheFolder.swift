import Foundation
import CardFeedLoad
import CardFeedModel

/// The folder where a build keeps what the next build reuses (`SITE/.cardfeed-cache/` unless
/// `--cache-dir` or `cache_dir:` says otherwise; none with `--no-cache`).
///
/// It is marked as a cache by a `CACHEDIR.TAG` file (the Cache Directory Tagging convention,
/// https://bford.info/cachedir/), which backup tools skip, and which `cardfeed cache clean`
/// requires before it removes a folder: `--cache-dir ~` must never remove a home folder.
public struct BuildCacheFolder: Sendable, Equatable {
    public let url: URL

    public init(_ url: URL) {
        self.url = url.standardizedFileURL
    }

    /// The default, in the site's folder (the `.gitignore` that `init` writes leaves it out).
    public static let defaultName = SiteConfig.defaultCacheDir

    public static let tagName = "CACHEDIR.TAG"
    /// The convention's signature line, then what the folder is.
    public static let tagText = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This folder is CardFeed's build cache: what a build reuses in the next one.
        # It is safe to remove (`cardfeed cache clean`); the next build is then a full one.
        # For information about cache directory tags, see https://bford.info/cachedir/

        """

    /// Where the output before the last waits for the next build, which makes its output there
    /// (see `OutputTransaction`): nothing but hard links to the output's files, so it takes no
    /// room of its own.
    var twinPath: String { url.appendingPathComponent("previous-output").path }
    /// The search index's parts (`SearchPartStore`).
    var searchParts: SearchPartStore { SearchPartStore(folder: url.appendingPathComponent("search-parts", isDirectory: true)) }

    /// Whether the folder holds CardFeed's tag (and so may be removed as a cache).
    public var isTagged: Bool {
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(Self.tagName).path) else { return false }
        return String(decoding: data, as: UTF8.self).hasPrefix("Signature: 8a477f597d28d172789f06886806bc55")
    }

    /// Removes the cache. A folder that is not CardFeed's cache (no tag) is refused; a missing
    /// one is nothing to do (returns false).
    public func remove() throws(Refusal) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return false }
        guard isFolder.boolValue, isTagged else {
            throw Refusal(description: "\(SiteFolder.display(url)) is not a CardFeed cache (it has no \(Self.tagName) written by cardfeed); remove it yourself if you mean to")
        }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw Refusal(description: "cannot remove \(SiteFolder.display(url)): \(error.localizedDescription)")
        }
        return true
    }

    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }
}
