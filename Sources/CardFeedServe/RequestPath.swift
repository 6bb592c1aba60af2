import Foundation
import CardFeedModel

/// Maps a request's path onto a file of the built site, refusing anything that could reach
/// outside it. The raw (percent-encoded) request target is checked, not a path that a URL
/// library has already "standardized", so `/../x`, `/%2e%2e/x`, `/a/..%2f..%2fx`, `//etc/passwd`
/// and absolute-form targets are all refused rather than silently rewritten.
public enum RequestPath {
    /// The decoded path segments of `target` ("/news/page/2/" -> ["news", "page", "2"]), or nil
    /// when the path is not one this server serves.
    public static func segments(ofRawPath raw: String) -> [String]? {
        guard raw.hasPrefix("/"), !raw.hasPrefix("//") else { return nil }
        guard let decoded = raw.removingPercentEncoding else { return nil }
        // A backslash or NUL has no business in a site path (and is a path separator on Windows).
        guard !decoded.contains("\\"), !decoded.contains("\0"), !decoded.hasPrefix("//") else { return nil }
        var segments: [String] = []
        for segment in decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty { continue }
            // "." and ".." are refused, and so are hidden files (such as the output marker).
            if segment.hasPrefix(".") { return nil }
            segments.append(String(segment))
        }
        return segments
    }

    /// Whether the raw path `raw` names a file of the placements, in a tree's placements folder:
    /// `embed/…` at the root, or a language's `de/embed/…`.
    static func isPlacementsFile(_ raw: String) -> Bool {
        guard let segments = segments(ofRawPath: raw) else { return false }
        return segments.dropLast().prefix(2).contains(PagePaths.placementsFolder)
    }

    /// The file under `root` that `segments` name, after following symbolic links, when it is
    /// inside `root`. A folder stands for its `index.html`.
    static func file(_ segments: [String], under root: URL) -> (url: URL, isFolderIndex: Bool)? {
        let base = root.resolvingSymlinksInPath().standardizedFileURL.path
        var url = URL(fileURLWithPath: base, isDirectory: true)
        for segment in segments { url.appendPathComponent(segment) }
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL
        guard resolved.path == base || resolved.path.hasPrefix(base + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            let index = resolved.appendingPathComponent("index.html")
            guard FileManager.default.fileExists(atPath: index.path) else { return nil }
            return (index, true)
        }
        return (resolved, false)
    }
}
