import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender
@testable import CardFeedWrite


/// The pages of a small site that shows every card type, compared byte for byte with the
/// reviewed pages in Golden/; built with `card_pages: false`, with the same pages less their
/// links to card pages (`withoutCardPages`). After an intended change to templates or rendering,
/// run `CARDFEED_UPDATE_GOLDEN=1 swift test --filter GoldenPageTests`, look at the diff, commit it.
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

    /// The pages, feeds and sitemap under `folder`, by path.
    static func pages(under folder: URL) throws -> [String: String] {
        var pages: [String: String] = [:]
        for page in files(under: folder) where page.hasSuffix(".html") || OutputFormat.all.contains(where: { page.hasSuffix($0.fileName) }) {
            pages[page] = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
        }
        return pages
    }

    /// The pages, feeds and sitemap of `output` are byte for byte those `expected`, made from
    /// `source` (named in the messages).
    static func expect(_ output: URL, toHave expected: [String: String], from source: String) throws {
        let actual = try pages(under: output)
        #expect(actual.keys.sorted() == expected.keys.sorted(), "the set of pages changed")
        for (page, text) in actual.sorted(by: { $0.key < $1.key }) where expected[page] != nil {
            #expect(text == expected[page], "\(page) differs from \(source)/\(page)")
        }
    }

    @Test func pagesMatchTheGoldenFiles() throws {
        let (output, _) = try Self.buildGoldenSite()
        defer { Self.remove(output) }
        if ProcessInfo.processInfo.environment["CARDFEED_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: Paths.golden)
            for page in try Self.pages(under: output).keys {
                let target = Paths.golden.appendingPathComponent(page)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: output.appendingPathComponent(page), to: target)
            }
        }
        try Self.expect(output, toHave: try Self.pages(under: Paths.golden), from: "Golden")
    }

    /// Where each card of the golden site is without card pages: the page of the "all" feed its
    /// permalink names (`CardPlaces`), by the card's anchor.
    static let placesWithoutCardPages = [
        "card-cc-1": "index.html", "card-promo": "index.html", "card-banner": "index.html", "card-no-image": "index.html",
        "card-pinned-welcome": "page-captioned-1-two-f737b202.html", "card-captioned-1-two-f737b202": "page-captioned-1-two-f737b202.html",
        "card-classic": "page-classic.html",
    ]

    /// A golden page as `card_pages: false` writes it. The only difference is where a card's
    /// links lead: every link to `cards/ANCHOR.html` goes to `PAGE#ANCHOR` instead (a feed's
    /// absolute URL drops `index.html`, as the site's address does), and the sitemap lists no
    /// card pages. So Golden/ alone holds every page, and a change to either kind of build that
    /// this rule does not explain fails a test.
    static func withoutCardPages(_ page: String, _ text: String) -> String {
        let base = "https://golden.example/site/"
        if page == "sitemap.xml" {
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("<loc>\(base)cards/") }.joined(separator: "\n")
        }
        var text = text
        for (anchor, place) in placesWithoutCardPages {
            text = text.replacingOccurrences(of: "href=\"cards/\(anchor).html\"", with: "href=\"\(place)#\(anchor)\"")
            text = text.replacingOccurrences(of: "\(base)cards/\(anchor).html", with: "\(base)\(place == "index.html" ? "" : place)#\(anchor)")
        }
        return text
    }

    /// `card_pages: false` writes the pages a site wrote before card pages: no cards/ folder,
    /// and each card's links lead to the card on its feed page (`withoutCardPages`).
    @Test func withoutCardPagesACardsLinksLeadToItsFeedPage() throws {
        let (output, report) = try Self.buildGoldenSite(cardPages: false)
        defer { Self.remove(output) }
        var expected: [String: String] = [:]
        for (page, text) in try Self.pages(under: Paths.golden) where !page.hasPrefix("cards/") {
            expected[page] = Self.withoutCardPages(page, text)
            #expect(!expected[page]!.contains("cards/card-"), "\(page): a link to a card page that placesWithoutCardPages does not place")
        }
        try Self.expect(output, toHave: expected, from: "Golden (without card pages)")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("cards").path))
        #expect(report.cardsShown == 7)
    }

    @Test func theOutputHasEveryPageAndAsset() throws {
        let (output, report) = try Self.buildGoldenSite()
        defer { Self.remove(output) }
        let feedFiles = OutputFormat.all.filter { $0.view == .feed }.map(\.fileName)
        let siteFiles = OutputFormat.all.filter { $0.view == .site }.map(\.fileName)
        let feeds = ["", "advertising/", "announcements/", "news/", "social/", "uncategorized/"].flatMap { folder in feedFiles.map { folder + $0 } }
        #expect(Set(siteFiles).isSubset(of: Set(Self.files(under: output))), "every file of the site: \(siteFiles)")
        #expect(Self.files(under: output).filter { path in !feedFiles.contains { path.hasSuffix($0) } && !siteFiles.contains(path) } == [
            "advertising/index.html", "announcements/index.html",
            "assets/cardfeed.css", "assets/cardfeed.js", "assets/favicon.svg",
            "assets/images/appboy_cc_icon_pinned.png", "assets/images/appboy_cc_icon_pinned@2x.png", "assets/images/appboy_cc_icon_pinned@3x.png",
            "assets/images/appboy_cc_noimage_lrg.png", "assets/images/appboy_cc_noimage_lrg@2x.png", "assets/images/appboy_cc_noimage_lrg@3x.png",
            "assets/images/photo.png",
            "cards/card-banner.html", "cards/card-captioned-1-two-f737b202.html", "cards/card-cc-1.html", "cards/card-classic.html",
            "cards/card-no-image.html", "cards/card-pinned-welcome.html", "cards/card-promo.html",
            "index.html", "news/index.html", "news/page-captioned-1-two-f737b202.html", "news/page-classic.html",
            "page-captioned-1-two-f737b202.html", "page-classic.html",
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
