import Foundation
import CardFeedModel

/// `cardfeed init DIR`: a new site with sample cards, a commented cardfeed.yml, the folders for
/// templates, assets, strings and static files (the files of the package's `scaffold/` folder),
/// and a `.gitignore` that keeps the output and the build cache out of git.
public enum SiteScaffold {
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    static var files: [(path: String, data: Data)] { BuiltinFiles.scaffold }

    /// Keeps `cardfeed build`'s output, and the build cache beside it, out of the site's repository.
    static let gitignore = """
        # What `cardfeed build` writes (see README.md).
        /public/
        # What a build keeps for the next one to reuse (`cardfeed cache clean` removes it).
        /\(BuildCacheFolder.defaultName)/

        """

    /// The scaffold's `base_url` line, commented out: `init --base-url` writes the address in its
    /// place, so that every later build writes the feeds and sitemap without the option.
    static let baseURLLine = "# base_url: https://example.com/news/"

    /// Writes the scaffold into `folder`, which must be missing, empty, or hold only hidden files
    /// (`.git`, `.gitignore`: a repository made first, whose `.gitignore` is left as it is), with
    /// `baseURL` as cardfeed.yml's `base_url` when given; returns the files written.
    @discardableResult
    public static func create(at folder: URL, baseURL: String? = nil) throws -> [String] {
        let manager = FileManager.default
        let files = try files(baseURL: baseURL)
        if let (site, role) = SiteFolder(folder.path).siteAround {
            throw Refusal(description: "\(SiteFolder.display(folder)) is inside \(role) of the site \(SiteFolder.display(site.root)), which would read the new site's files as its own; choose a folder outside that site")
        }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Refusal(description: "\(SiteFolder.display(folder)) exists and is not a folder") }
            let entries = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            if SiteFolder(folder.path).isSite {
                let has = ["cardfeed.yml", "cards.json", "cards"].filter(entries.contains).map { $0 == "cards" ? "cards/" : $0 }
                throw Refusal(description: "\(SiteFolder.display(folder)) is a site already (it has \(has.joined(separator: ", "))); init never overwrites a file")
            }
            let visible = entries.filter { !$0.hasPrefix(".") }.sorted()
            guard visible.isEmpty else {
                let shown = visible.prefix(3).joined(separator: ", ") + (visible.count > 3 ? ", …" : "")
                throw Refusal(description: "\(SiteFolder.display(folder)) is not empty (it holds \(shown)); choose a new folder, or an empty one, so that nothing in it is overwritten")
            }
        }
        var written: [String] = []
        do {
            for subfolder in ["cards", "templates", "assets/images", "strings", "static"] {
                try manager.createDirectory(at: folder.appendingPathComponent(subfolder), withIntermediateDirectories: true)
            }
            for (path, data) in files {
                let target = folder.appendingPathComponent(path)
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: target, options: .withoutOverwriting)
            }
            let ignore = folder.appendingPathComponent(".gitignore")
            if !manager.fileExists(atPath: ignore.path) {
                try Data(gitignore.utf8).write(to: ignore, options: .withoutOverwriting)
                written.append(".gitignore")
            }
        } catch {
            throw Refusal(description: "cannot write the new site: \(error.localizedDescription)")
        }
        return (written + files.map(\.path)).sorted()
    }

    /// The scaffold's files, with `baseURL` in cardfeed.yml; a refusal if it is no base URL.
    static func files(baseURL: String?) throws -> [(path: String, data: Data)] {
        guard let baseURL else { return files }
        if case .failure(let refusal) = URLCheck.baseURL(baseURL) {
            throw Refusal(description: "--base-url: \(Diagnostic.quoted(baseURL)) \(refusal.reason)")
        }
        // A checked base URL has no quote, space or backslash: quoted, it is one YAML string whatever
        // else it holds (a "#" would start a comment unquoted).
        let value = baseURL.contains("#") ? "\"\(baseURL)\"" : baseURL
        return files.map { file in
            guard file.path == "cardfeed.yml" else { return file }
            let text = String(decoding: file.data, as: UTF8.self)
            precondition(text.contains(baseURLLine), "scaffold/cardfeed.yml has the line \(baseURLLine)")
            return (file.path, Data(text.replacingOccurrences(of: baseURLLine, with: "base_url: \(value)").utf8))
        }
    }
}
