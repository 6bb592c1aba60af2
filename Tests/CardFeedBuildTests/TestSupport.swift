import Foundation
import Logging
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender
@testable import CardFeedWrite


/// The folder of this test target's fixtures, found from this file so that tests run from any
/// working directory.
enum Paths {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = tests.appendingPathComponent("Fixtures")
    static let braze = fixtures.appendingPathComponent("braze")
    static let goldenSite = fixtures.appendingPathComponent("golden-site")
    static let golden = tests.appendingPathComponent("Golden")
}

/// A throwaway site folder with the files a test writes into it.
struct TempSite {
    let root: URL

    init(_ files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("cardfeed-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    var site: SiteFolder { SiteFolder(root.path) }
    var output: URL { root.appendingPathComponent("public", isDirectory: true) }

    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    func options(now: Int64 = 1_800_000_000, pageSize: Int = 20, strict: Bool = false) -> BuildOptions {
        BuildOptions(site: site, now: WrittenTime(unixSeconds: now), pageSize: pageSize, strict: strict)
    }

    /// Builds into `output` (without `write`, as `cardfeed check` does) and returns the report,
    /// whether the build succeeded or not.
    func build(now: Int64 = 1_800_000_000, pageSize: Int = 20, strict: Bool = false, write: Bool = true) -> BuildReport {
        let builder = SiteBuilder(options: options(now: now, pageSize: pageSize, strict: strict), destination: write ? .folder(output) : .discarded, logger: .quiet)
        do { return try builder.run() } catch { return error.report }
    }

    /// A build of `options` into the site's `output`.
    func builder(_ options: BuildOptions) -> SiteBuilder {
        SiteBuilder(options: options, destination: .folder(output), logger: .quiet)
    }

    /// The cards loaded from the site, with their diagnostics.
    func load() -> LoadedCards { CardLoader(site: site).load() }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

extension Logging.Logger {
    /// A logger that prints nothing, for tests that look at the report instead.
    static var quiet: Logging.Logger {
        var logger = Logging.Logger(label: "cardfeed-tests")
        logger.logLevel = .critical
        return logger
    }
}

extension Diagnostics {
    /// Every message as the user sees it, to match with `contains`.
    var lines: [String] { all.map(\.description) }

    func contains(_ fragments: String...) -> Bool {
        all.contains { diagnostic in fragments.allSatisfy { diagnostic.description.contains($0) } }
    }
}

extension RenderSettings {
    /// What a page of a plain site renders with: the built-in strings and images, a base URL,
    /// no cardfeed.yml (CardFeedRenderTests' `TemplateLinterTests.settings` is the same with a
    /// link preview picture).
    static func forTests() throws -> RenderSettings {
        var diagnostics = Diagnostics()
        let strings = try #require(StringTable.load(locale: "en", site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
        return RenderSettings(RenderSettings.Values(
            builtinImages: BuiltinImages(assets: Set(BuiltinFiles.assetPaths), siteOverrides: []), strings: strings, links: LinkPolicy(),
            siteTitle: "T", stylesheets: ["assets/cardfeed.css"], pageSize: 2, baseURL: "https://x.test/", head: PageHead()))
    }
}

/// One card as JSON text.
func cardJSON(_ fields: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

/// What `serve` hands each of its builds: the caches of the previous build and the folder it
/// updates in place.
final class ServeState: Sendable {
    let reuse = ReuseCaches()
    let output: InPlaceOutput

    init(output: URL) { self.output = InPlaceOutput(folder: output.standardizedFileURL) }

    var cards: ReuseCache<RenderedCard> { reuse.cards }
    func beginBuild() { reuse.beginBuild() }
    func endBuild() { reuse.endBuild() }
}
