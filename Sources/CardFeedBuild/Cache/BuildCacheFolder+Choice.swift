import Foundation
import CardFeedLoad
import CardFeedModel

/// Which folder the settings make the build cache, and whether a build may keep it there.
extension BuildCacheFolder {
    /// The cache of a build of `site` with `config`: `--cache-dir` (relative to the working
    /// folder), else `cache_dir:` (relative to the site folder; `~/` is the home folder), else
    /// `SITE/.cardfeed-cache`; nil with `--no-cache`.
    public static func chosen(by config: SiteConfig, site: SiteFolder) -> BuildCacheFolder? {
        guard !config.noCache else { return nil }
        guard let setting = config.cacheDir else {
            return BuildCacheFolder(site.root.appendingPathComponent(SiteConfig.defaultCacheDir, isDirectory: true))
        }
        if setting.fromCommandLine { return BuildCacheFolder(URL(fileURLWithPath: setting.path, isDirectory: true)) }
        var path = setting.path
        if path == "~" || path.hasPrefix("~/") { path = FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst() }
        return BuildCacheFolder(URL(fileURLWithPath: path, isDirectory: true, relativeTo: site.root).absoluteURL)
    }

    /// Why a build of `site` into `output` may not keep its cache in this folder; nil when it
    /// may. The output is replaced as a whole by each build, and the site's own folders are
    /// read (static/ copied into the output as it is): a cache in either would be lost or read
    /// as part of the site; a cache holding the site or the output would have them removed by
    /// `cardfeed cache clean`. Compared through symbolic links.
    public func misplacement(site: SiteFolder, output: URL) -> String? {
        let cache = SiteFolder.realPath(url), root = SiteFolder.realPath(site.root), out = SiteFolder.realPath(output)
        let shown = SiteFolder.display(url)
        if SiteFolder.isWithin(cache, out) {
            return cache == out ? "\(shown) is the output folder" : "\(shown) is inside the output folder \(SiteFolder.display(output)), which each build replaces"
        }
        if cache == root { return "\(shown) is the site folder itself" }
        if SiteFolder.isWithin(root, cache) { return "\(shown) holds the site folder \(SiteFolder.display(site.root))" }
        if SiteFolder.isWithin(out, cache) { return "\(shown) holds the output folder \(SiteFolder.display(output))" }
        for folder in site.standardFolders where SiteFolder.isWithin(cache, SiteFolder.realPath(folder)) {
            let read = folder == site.staticFolder ? "whose files each build copies into the output" : "which the build reads"
            return "\(shown) is inside the site's \(folder.lastPathComponent)/ folder, \(read)"
        }
        return nil
    }

    /// The error for a cache the settings put where a build may not keep it (`misplacement`),
    /// at the setting that put it there: `--cache-dir`, or `cache_dir:` in cardfeed.yml (its
    /// line); nil when the cache may be there, or there is none.
    public static func placementError(config: SiteConfig, site: SiteFolder, output: URL) -> Diagnostic? {
        guard let cache = chosen(by: config, site: site), let problem = cache.misplacement(site: site, output: output) else { return nil }
        let fix = "keep the build cache in a folder of its own, such as the default, \(SiteFolder.display(site.root.appendingPathComponent(SiteConfig.defaultCacheDir)))"
        switch config.cacheDir {
        case .some(let setting) where setting.fromCommandLine:
            return Diagnostic(.error, file: "--cache-dir", message: "\(problem); \(fix)")
        case .some(let setting):
            let file = site.display(site.root.appendingPathComponent(SiteConfig.fileName))
            return Diagnostic(.error, file: file, line: setting.line, column: setting.column, field: Setting.cacheDir.name, message: "\(problem); \(fix)")
        case .none:
            // The default cache, SITE/.cardfeed-cache, holding the output (`-o SITE/.cardfeed-cache/site`).
            return Diagnostic(.error, file: "--output", message: "the build cache \(problem); write the site elsewhere, or move the cache with --cache-dir or cache_dir: in cardfeed.yml")
        }
    }
}
