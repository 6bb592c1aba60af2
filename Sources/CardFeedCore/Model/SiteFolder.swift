import Foundation

/// The folders and files of a site, and how to name them in messages.
public struct SiteFolder: Sendable {
    public let root: URL

    public init(_ path: String) {
        root = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    public var cardsFile: URL { root.appendingPathComponent("cards.json") }
    public var cardsFolder: URL { root.appendingPathComponent("cards", isDirectory: true) }
    public var templatesFolder: URL { root.appendingPathComponent("templates", isDirectory: true) }
    public var assetsFolder: URL { root.appendingPathComponent("assets", isDirectory: true) }
    public var defaultOutput: URL { root.appendingPathComponent("public", isDirectory: true) }

    public var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `cards.json`, then every `.json` below `cards/`, in path order.
    func cardFiles() throws -> [URL] {
        var files: [URL] = []
        if FileManager.default.fileExists(atPath: cardsFile.path) { files.append(cardsFile) }
        files += Self.files(under: cardsFolder).filter { $0.pathExtension.lowercased() == "json" }.map { cardsFolder.appendingPathComponent($0) }
        return files
    }

    /// Paths relative to `assets/` of the site's asset files.
    public func assetFiles() -> [String] { Self.files(under: assetsFolder) }

    /// Paths relative to `templates/` of the site's template files.
    public func templateFiles() -> [String] {
        Self.files(under: templatesFolder).filter { $0.hasSuffix(".mustache") }
    }

    /// Regular files below `folder` (hidden ones left out), as sorted relative paths.
    static func files(under folder: URL) -> [String] {
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var paths: [String] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(base + "/") else { continue }
            paths.append(String(path.dropFirst(base.count + 1)))
        }
        return paths.sorted()
    }

    /// A path as the user would write it: relative to the working directory when below it.
    public func display(_ url: URL) -> String {
        Self.display(url)
    }

    public static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        if path == cwd { return "." }
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
        return path
    }
}
