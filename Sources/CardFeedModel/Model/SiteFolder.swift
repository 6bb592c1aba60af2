import Foundation
import CardFeedSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Files copied as they are to the output's root: robots.txt, CNAME, favicon.ico, _headers,
    /// .well-known/ (hidden files included).
    public var staticFolder: URL { root.appendingPathComponent("static", isDirectory: true) }
    public var stringsFolder: URL { root.appendingPathComponent("strings", isDirectory: true) }

    /// The folders a build reads files from.
    public var standardFolders: [URL] { [cardsFolder, templatesFolder, assetsFolder, staticFolder, stringsFolder] }

    /// Paths relative to `static/` of its files, hidden ones included.
    public func staticFiles() -> [String] { scan(staticFolder, includeHidden: true).files }

    /// The path with every symbolic link resolved (`realpath`), also when its last components
    /// do not exist yet (an output folder a build is about to create): those are appended to
    /// the real path of the part that exists.
    public static func realPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing.path, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return missing.isEmpty ? base : (base == "/" ? "" : base) + "/" + missing.reversed().joined(separator: "/")
            }
            let parent = existing.deletingLastPathComponent()
            if parent.path == existing.path { return url.standardizedFileURL.path }
            missing.append(existing.lastPathComponent)
            existing = parent
        }
    }

    /// Whether `path` (a real path) is `folder` or inside it.
    package static func isWithin(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// Standard folders (`cards/`, `templates/`, `assets/`, `static/`, `strings/`) that are
    /// symbolic links leading out of the site, each with its error: whatever they lead to
    /// (`/etc`) would be read and copied into the output, so none of their files is read.
    public func foldersLinkedOut() -> [(path: String, message: String)] {
        standardFolders.compactMap { folder in
            guard isLinkedOut(folder) else { return nil }
            return (display(folder), linkedOutProblem(folder) + ", so none of its files is read (copy them in, or make the link point inside the site)")
        }
    }

    /// Why a standard folder that is a symbolic link out of the site is not the site's, for the
    /// commands that refuse it (what they do not do comes after).
    public func linkedOutProblem(_ folder: URL) -> String {
        "is a symbolic link to \(Diagnostic.quoted(InputFile.linkTarget(folder.path))), outside the site folder; a site's \(folder.lastPathComponent)/ must be inside it"
    }

    /// True when `folder` itself is a symbolic link whose target is outside the site.
    package func isLinkedOut(_ folder: URL) -> Bool {
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return false }
        return !Self.isWithin(Self.realPath(folder), Self.realPath(root))
    }

    /// `scan` of one of the site's folders; nothing when the folder is a link out of the site.
    func scan(_ folder: URL, includeHidden: Bool = false) -> (files: [String], skipped: [Skipped]) {
        isLinkedOut(folder) ? ([], []) : Self.scan(folder, includeHidden: includeHidden)
    }

    /// What makes a folder a site, as messages name it.
    public static let markerList = "cardfeed.yml, cards.json or a cards/ folder of card files"

    /// The file that marks a folder as cardfeed's output, which a later build may replace whole.
    public static let outputMarker = ".cardfeed-output"

    /// True when the folder is a site: it has `cardfeed.yml` or `cards.json` (of any kind: a
    /// broken one is still meant as the site's, and reading it says what is wrong) or a `cards/`
    /// holding card files, and it is not one of a site's own folders (`enclosingSite`): a site's
    /// `templates/` holds a `cards/` too, of templates.
    public var isSite: Bool { hasSiteFiles && enclosingSite == nil }

    private var hasSiteFiles: Bool {
        var info = stat()
        for name in ["cardfeed.yml", "cards.json"] where lstat(root.appendingPathComponent(name).path, &info) == 0 { return true }
        guard let files = FileManager.default.enumerator(at: cardsFolder, includingPropertiesForKeys: nil) else { return false }
        for case let file as URL in files where Self.isCardFile(file.lastPathComponent) { return true }
        return false
    }

    /// The site this folder is a part of, when it is one of that site's folders (`cards/`,
    /// `templates/`, `assets/`, `static/`, `strings/`) or a cardfeed output beside them: the
    /// site someone who named this folder most likely meant.
    public var enclosingSite: (site: SiteFolder, role: String)? {
        let parent = SiteFolder(root.deletingLastPathComponent().path)
        guard parent.root.path != root.path, parent.hasSiteFiles else { return nil }
        let name = root.lastPathComponent
        if parent.standardFolders.contains(where: { $0.lastPathComponent == name }) { return (parent, "the \(name)/ folder") }
        var info = stat()
        if lstat(root.appendingPathComponent(Self.outputMarker).path, &info) == 0 { return (parent, "the output folder") }
        return nil
    }

    /// The site this folder is inside, at any depth, and which of its folders holds it: one
    /// of its own (`cards/`, `templates/`, `assets/`, `static/`, `strings/`), its default output
    /// `public/` or a cardfeed output beside them, through symbolic links. A new site there
    /// would be read as part of that one, or replaced by its next build.
    public var siteAround: (site: SiteFolder, role: String)? {
        // The path as the file system resolves it: its deepest existing folder through links,
        // then the names below it that do not exist yet.
        var existing = root.standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var folder = missing.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1, isDirectory: true) }
        while folder.path != "/" {
            let site = SiteFolder(folder.path)
            if let around = site.enclosingSite { return around }
            let parent = SiteFolder(folder.deletingLastPathComponent().path)
            if folder.lastPathComponent == parent.defaultOutput.lastPathComponent, parent.hasSiteFiles { return (parent, "the output folder") }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    public var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `cards.json`, then every `.json` below `cards/`, in path order. `cards.json` is listed
    /// whenever something has that name (a folder, a broken link), so that reading it says what
    /// is wrong rather than the site seeming to have no cards.
    package func cardFiles() throws -> [URL] {
        var files: [URL] = []
        var info = stat()
        if lstat(cardsFile.path, &info) == 0 { files.append(cardsFile) }
        files += scan(cardsFolder).files.filter(Self.isCardFile).map { cardsFolder.appendingPathComponent($0) }
        return files
    }

    static func isCardFile(_ path: String) -> Bool { path.lowercased().hasSuffix(".json") }
    static func isTemplateFile(_ path: String) -> Bool { path.hasSuffix(".mustache") }

    /// Entries of `cards/`, `templates/`, `assets/` and `static/` that are not read, each with
    /// the reason: what the build warns about (or, for a name that is not UTF-8, stops at).
    /// Only names that would be used count (`.json` under cards/, `.mustache` under
    /// templates/), besides folders that are not read.
    public func skippedEntries() -> [(path: String, reason: String, isError: Bool)] {
        var skipped: [(path: String, reason: String, isError: Bool)] = []
        for (folder, wanted) in [(cardsFolder, Self.isCardFile), (templatesFolder, Self.isTemplateFile), (assetsFolder, { (_: String) in true }), (staticFolder, { (_: String) in true })] {
            for entry in scan(folder, includeHidden: folder == staticFolder).skipped where wanted(entry.path) || entry.always {
                skipped.append((display(entry.path.isEmpty ? folder : folder.appendingPathComponent(entry.path)), entry.reason, entry.isError))
            }
        }
        return skipped
    }

    /// Paths relative to `assets/` of the site's asset files.
    public func assetFiles() -> [String] { scan(assetsFolder).files }

    /// The site's own file of the template `name` ("card_page", "partials/languages"), which may not exist.
    public func templateFile(_ name: String) -> URL { templatesFolder.appendingPathComponent(name + ".mustache") }

    /// Paths relative to `templates/` of the site's template files.
    public func templateFiles() -> [String] {
        scan(templatesFolder).files.filter(Self.isTemplateFile)
    }

    /// Regular files below `folder` (hidden ones left out), as sorted relative paths.
    static func files(under folder: URL) -> [String] { scan(folder).files }

    /// Folders nested deeper than this are not read (real folders cannot loop, but a bind mount can).
    static let maximumDepth = 64

    /// The regular files below `folder`, and what was left out and why. A symbolic link counts
    /// as the file it points to when that is a regular file inside `folder`; links that lead
    /// outside it (which could copy any file of the machine into the site), to a folder (which
    /// could loop), nowhere, or round in a loop are left out, and so are named pipes, devices
    /// and sockets, which a read could block on or never finish.
    static func scan(_ folder: URL, includeHidden: Bool = false) -> (files: [String], skipped: [Skipped]) {
        var files: [String] = []
        var skipped: [Skipped] = []
        let manager = FileManager.default
        let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue else { return ([], []) }
        func walk(_ relative: String, depth: Int) {
            let directory = relative.isEmpty ? base : base + "/" + relative
            guard depth < maximumDepth else {
                skipped.append((relative, "is nested more than \(maximumDepth) folders deep; not read", true, false))
                return
            }
            guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
                skipped.append((relative, "is a folder that cannot be read (check its permissions); its files are not read", true, false))
                return
            }
            // Foundation leaves out names that are not UTF-8, which no String can hold: each is an
            // error rather than a file lost without a word.
            for name in undecodableNames(in: directory) where includeHidden || !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                skipped.append((path, "has a name that is not UTF-8 (the bytes shown as \\x..), which cardfeed cannot read or copy; rename it", true, true))
            }
            for name in names.sorted() where includeHidden || !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = base + "/" + path
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(path, depth: depth + 1)
                case S_IFREG: files.append(path)
                case S_IFLNK:
                    let problem = InputFile.problem(at: full)
                    let toFolder = problem?.hasPrefix("is a folder") == true
                    if let problem, !toFolder {
                        skipped.append((path, problem + "; not read", false, false))
                        continue
                    }
                    let target = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
                    let written = Diagnostic.quoted(InputFile.linkTarget(full))
                    if target != base && !target.hasPrefix(base + "/") {
                        skipped.append((path, "is a symbolic link to \(written), outside \(folder.lastPathComponent)/; links out of the site's folders are not followed (copy the \(toFolder ? "folder" : "file") in instead)", toFolder, false))
                    } else if toFolder {
                        skipped.append((path, "is a symbolic link to the folder \(written); links to folders are not followed", true, false))
                    } else {
                        files.append(path)
                    }
                default:
                    skipped.append((path, (InputFile.problem(at: full) ?? "is not a regular file") + "; not read", false, false))
                }
            }
        }
        walk("", depth: 0)
        return (files.sorted(), skipped)
    }

    /// An entry `scan` leaves out: its path, why, whether it is reported whatever its name, and
    /// whether it is an error.
    typealias Skipped = (path: String, reason: String, always: Bool, isError: Bool)

    /// The entries of `directory` whose names are not UTF-8, each written with its other bytes
    /// as `\xE9` (`caf\xE9.json`), sorted.
    static func undecodableNames(in directory: String) -> [String] {
        let entries = SystemCalls.entries(of: directory) ?? []
        return entries.filter { String(validating: $0.name, as: UTF8.self) == nil }.map { escapedName($0.name) }.sorted()
    }

    /// `bytes` as text, each byte that is not part of valid UTF-8 written `\xE9`.
    static func escapedName(_ bytes: [UInt8]) -> String {
        var shown = ""
        var start = 0
        while start < bytes.count {
            var end = start + 1
            // The longest run from `start` that decodes: at most 4 bytes per character.
            var decoded: String?
            for length in stride(from: min(4, bytes.count - start), through: 1, by: -1) {
                if let text = String(validating: bytes[start..<start + length], as: UTF8.self) {
                    decoded = text
                    end = start + length
                    break
                }
            }
            shown += decoded ?? "\\x" + String(bytes[start], radix: 16, uppercase: true)
            start = end
        }
        return shown
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
