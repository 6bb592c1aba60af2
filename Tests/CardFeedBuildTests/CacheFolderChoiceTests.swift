import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel

/// Where the settings put the build cache (`BuildCacheFolder.chosen`), and the folders a build
/// refuses to keep it in, with the error at the setting that put it there.
@Suite struct CacheFolderChoiceTests {
    static let card = cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "first"])

    func config(_ site: TempSite, _ overrides: SettingOverrides = SettingOverrides()) -> (SiteConfig, Diagnostics) {
        var diagnostics = Diagnostics()
        let config = ConfigLoader(site: site.site).load(overriding: overrides, into: &diagnostics)
        return (config, diagnostics)
    }

    @Test func theDefaultIsInTheSiteFolder() throws {
        let site = try TempSite(["cards.json": Self.card])
        defer { site.remove() }
        let (config, _) = config(site)
        #expect(BuildCacheFolder.chosen(by: config, site: site.site)?.url.path == site.root.appendingPathComponent(".cardfeed-cache").standardizedFileURL.path)
        #expect(config.source(of: .cacheDir) == .fallback)
        #expect(Setting.cacheDir.value(config) == .text(".cardfeed-cache"))
    }

    @Test func cardfeedYmlsPathIsRelativeToTheSiteFolderAndTheOptionsToTheWorkingFolder() throws {
        let site = try TempSite(["cards.json": Self.card, "cardfeed.yml": "title: T\ncache_dir: ../caches/mine\n"])
        defer { site.remove() }
        let (fromFile, diagnostics) = config(site)
        #expect(diagnostics.all.isEmpty)
        #expect(BuildCacheFolder.chosen(by: fromFile, site: site.site)?.url.path == site.root.deletingLastPathComponent().appendingPathComponent("caches/mine").standardizedFileURL.path)
        #expect(fromFile.source(of: .cacheDir) == .file(line: 2))
        let (fromOption, _) = config(site, SettingOverrides([.cacheDir: "build/cache"]))
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        #expect(BuildCacheFolder.chosen(by: fromOption, site: site.site)?.url.path == cwd.appendingPathComponent("build/cache").standardizedFileURL.path)
        #expect(fromOption.source(of: .cacheDir) == .option("--cache-dir"))
        let homeSite = try TempSite(["cardfeed.yml": "cache_dir: ~/c\n"])
        defer { homeSite.remove() }
        let (home, _) = config(homeSite)
        #expect(BuildCacheFolder.chosen(by: home, site: site.site)?.url.path == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("c").standardizedFileURL.path)
    }

    @Test func noCacheWinsOverTheFile() throws {
        let site = try TempSite(["cards.json": Self.card, "cardfeed.yml": "cache_dir: elsewhere\n"])
        defer { site.remove() }
        let (config, _) = config(site, { var overrides = SettingOverrides(); overrides.turnOff(.cacheDir); return overrides }())
        #expect(BuildCacheFolder.chosen(by: config, site: site.site) == nil)
        #expect(config.source(of: .cacheDir) == .option("--no-cache"))
        #expect(Setting.cacheDir.value(config) == SettingValue.none)
        #expect(BuildCacheFolder.placementError(config: config, site: site.site, output: site.output) == nil)
    }

    @Test func aValueThatIsNoPathIsAnErrorAtItsLine() throws {
        for (value, words) in [("\"\"", "not empty"), ("[a, b]", "expected a single value"), ("5", "expected text")] {
            let site = try TempSite(["cardfeed.yml": "title: T\ncache_dir: \(value)\n"])
            defer { site.remove() }
            let (_, diagnostics) = config(site)
            #expect(diagnostics.contains("cardfeed.yml:2:12", "\"cache_dir\"", words), "\(value): \(diagnostics.lines)")
        }
    }

    @Test func aCacheWhereTheBuildWritesOrReadsIsRefused() throws {
        let site = try TempSite(["cards.json": Self.card])
        defer { site.remove() }
        let refused: [(String, String)] = [
            ("public", "is the output folder"),
            ("public/.cache", "is inside the output folder"),
            ("static/cache", "is inside the site's static/ folder, whose files each build copies into the output"),
            ("cards/cache", "is inside the site's cards/ folder, which the build reads"),
            ("templates", "is inside the site's templates/ folder"),
            ("assets/x", "is inside the site's assets/ folder"),
            ("strings/x", "is inside the site's strings/ folder"),
            (".", "is the site folder itself"),
            ("..", "holds the site folder"),
        ]
        for (path, words) in refused {
            let folder = BuildCacheFolder(URL(fileURLWithPath: path, isDirectory: true, relativeTo: site.root).absoluteURL)
            #expect(folder.misplacement(site: site.site, output: site.output)?.contains(words) == true, "\(path): \(String(describing: folder.misplacement(site: site.site, output: site.output)))")
        }
        for path in [".cardfeed-cache", "../elsewhere", "publication", "cache/static"] {
            let folder = BuildCacheFolder(URL(fileURLWithPath: path, isDirectory: true, relativeTo: site.root).absoluteURL)
            #expect(folder.misplacement(site: site.site, output: site.output) == nil, "\(path)")
        }
        // Another output (`-o dist`): a cache holding it, or inside it.
        let dist = site.root.appendingPathComponent("dist/site", isDirectory: true)
        #expect(BuildCacheFolder(site.root.appendingPathComponent("dist")).misplacement(site: site.site, output: dist)?.contains("holds the output folder") == true)
        #expect(BuildCacheFolder(site.root.appendingPathComponent("public")).misplacement(site: site.site, output: dist) == nil)
    }

    @Test func aCacheInsideTheOutputThroughALinkIsRefused() throws {
        let site = try TempSite(["cards.json": Self.card])
        defer { site.remove() }
        try FileManager.default.createDirectory(at: site.output, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: site.root.appendingPathComponent("link"), withDestinationURL: site.output)
        let folder = BuildCacheFolder(site.root.appendingPathComponent("link/cache"))
        #expect(folder.misplacement(site: site.site, output: site.output)?.contains("is inside the output folder") == true)
    }

    @Test func theBuildRefusesAMisplacedCacheAtTheSettingThatPutItThere() throws {
        let site = try TempSite(["cards.json": Self.card, "cardfeed.yml": "title: T\ncache_dir: public/cache\n"])
        defer { site.remove() }
        var diagnostics = Diagnostics()
        var options = site.options()
        let config = ConfigLoader(site: site.site).load(overriding: options.overrides, into: &diagnostics)
        options.cache = BuildCacheFolder.chosen(by: config, site: site.site)
        let report: BuildReport
        do { report = try site.builder(options).run() } catch { report = error.report }
        #expect(!report.succeeded)
        #expect(report.diagnostics.contains("cardfeed.yml:2:12", "field \"cache_dir\"", "is inside the output folder", "such as the default"), "\(report.diagnostics.lines)")
        #expect(!site.exists("public"))

        var option = site.options()
        option.overrides[.cacheDir] = site.root.appendingPathComponent("static/c").path
        let optionConfig = ConfigLoader(site: site.site).load(overriding: option.overrides, into: &diagnostics)
        option.cache = BuildCacheFolder.chosen(by: optionConfig, site: site.site)
        let checked: BuildReport
        do { checked = try SiteBuilder(options: option, destination: .discarded, logger: .quiet).run() } catch { checked = error.report }
        #expect(checked.diagnostics.errors.map(\.file) == ["--cache-dir"], "\(checked.diagnostics.lines)")

        // Without a cache (the tests, serve's own builds before the option, --no-cache) nothing is looked at.
        #expect(site.build().succeeded)
    }
}
