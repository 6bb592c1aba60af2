import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedWrite


/// The pages of a small site that shows every card type, compared byte for byte with the
/// reviewed pages in Golden/. After an intended change to templates or rendering, run
/// `CARDFEED_UPDATE_GOLDEN=1 swift test --filter GoldenPageTests`, look at the diff, commit it.
@Suite(.serialized) struct GoldenPageTests {
    static let now: Int64 = 1_800_000_000

    /// Builds the golden site into a temporary folder and returns it; `cardPages: false` builds
    /// a copy of it with `card_pages: false` in its cardfeed.yml.
    static func buildGoldenSite(cardPages: Bool = true) throws -> (output: URL, report: BuildReport) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-golden-\(UUID().uuidString)")
        var site = SiteFolder(Paths.goldenSite.path)
        if !cardPages {
            let copy = output.appendingPathExtension("site")
            try FileManager.default.copyItem(at: Paths.goldenSite, to: copy)
            let config = copy.appendingPathComponent("cardfeed.yml")
            try Data((try String(contentsOf: config, encoding: .utf8) + "card_pages: false\n").utf8).write(to: config)
            site = SiteFolder(copy.path)
        }
        let options = BuildOptions(site: site, now: WrittenTime(unixSeconds: now), pageSize: 3)
        let report = try SiteBuilder(options: options, destination: .folder(output), logger: .quiet).run()
        return (output, report)
    }

    static func remove(_ output: URL) {
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: output.appendingPathExtension("site"))
    }

    static func files(under folder: URL) -> [String] { SiteFolder.files(under: folder) }

    /// The pages, feeds and sitemap of `output` are byte for byte those in `golden` (with
    /// CARDFEED_UPDATE_GOLDEN=1, they are copied there first).
    static func expectGolden(_ output: URL, _ golden: URL) throws {
        let pages = files(under: output).filter { $0.hasSuffix(".html") || $0.hasSuffix(".xml") || $0.hasSuffix(".json") }
        if ProcessInfo.processInfo.environment["CARDFEED_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: golden)
            for page in pages {
                let target = golden.appendingPathComponent(page)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: output.appendingPathComponent(page), to: target)
            }
        }
        #expect(pages == files(under: golden), "the set of pages changed")
        for page in pages {
            let actual = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
            let expected = try String(contentsOf: golden.appendingPathComponent(page), encoding: .utf8)
            #expect(actual == expected, "\(page) differs from \(golden.lastPathComponent)/\(page)")
        }
    }

    @Test func pagesMatchTheGoldenFiles() throws {
        let (output, _) = try Self.buildGoldenSite()
        defer { Self.remove(output) }
        try Self.expectGolden(output, Paths.golden)
    }

    /// `card_pages: false` writes what a site wrote before card pages: GoldenWithoutCardPages/
    /// holds the golden pages of the release before them, unchanged.
    @Test func withoutCardPagesThePagesAreThoseOfBefore() throws {
        let (output, report) = try Self.buildGoldenSite(cardPages: false)
        defer { Self.remove(output) }
        try Self.expectGolden(output, Paths.goldenWithoutCardPages)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("cards").path))
        #expect(report.cardsShown == 7)
    }

    @Test func theOutputHasEveryPageAndAsset() throws {
        let (output, report) = try Self.buildGoldenSite()
        defer { Self.remove(output) }
        let feedFiles = ["feed.json", "feed.xml", "rss.xml"]
        let feeds = ["", "advertising/", "announcements/", "news/", "social/", "uncategorized/"].flatMap { folder in feedFiles.map { folder + $0 } }
        #expect(Self.files(under: output).filter { path in !feedFiles.contains { path.hasSuffix($0) } } == [
            "advertising/index.html", "announcements/index.html",
            "assets/cardfeed.css", "assets/cardfeed.js", "assets/favicon.svg",
            "assets/images/appboy_cc_icon_pinned.png", "assets/images/appboy_cc_icon_pinned@2x.png", "assets/images/appboy_cc_icon_pinned@3x.png",
            "assets/images/appboy_cc_noimage_lrg.png", "assets/images/appboy_cc_noimage_lrg@2x.png", "assets/images/appboy_cc_noimage_lrg@3x.png",
            "assets/images/photo.png",
            "cards/card-banner.html", "cards/card-captioned-1-two-f737b202.html", "cards/card-cc-1.html", "cards/card-classic.html",
            "cards/card-no-image.html", "cards/card-pinned-welcome.html", "cards/card-promo.html",
            "index.html", "news/index.html", "news/page-captioned-1-two-f737b202.html", "news/page-classic.html",
            "page-captioned-1-two-f737b202.html", "page-classic.html", "sitemap.xml",
            "social/index.html", "social/page-captioned-1-two-f737b202.html", "uncategorized/index.html",
        ])
        #expect(Set(feeds).isSubset(of: Set(Self.files(under: output))), "every feed as Atom, RSS 2.0 and JSON Feed")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(SiteWriter.markerName).path))
        #expect(report.cardsShown == 7)
        #expect(report.skipped == [.expired: 2, .dismissed: 1, .control: 1])
        #expect(report.pagesRendered == 11)
    }

    @Test func sameInputGivesByteIdenticalOutput() throws {
        let (first, _) = try Self.buildGoldenSite()
        let (second, _) = try Self.buildGoldenSite()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let files = Self.files(under: first)
        #expect(files == Self.files(under: second))
        for file in files {
            #expect(try Data(contentsOf: first.appendingPathComponent(file)) == Data(contentsOf: second.appendingPathComponent(file)), "\(file)")
        }
    }
}
