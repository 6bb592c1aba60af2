import Foundation
import Testing
@testable import CardFeedLoad


/// Every real payload from public Braze SDK repositories must load.
@Suite struct FixtureTests {
    static let fixtureFiles = try! FileManager.default.contentsOfDirectory(atPath: Paths.braze.path)
        .filter { $0.hasSuffix(".json") }.sorted()

    func load(_ name: String) throws -> LoadedCards {
        let site = try TempSite(["cards/\(name)": try String(contentsOf: Paths.braze.appendingPathComponent(name), encoding: .utf8)])
        defer { site.remove() }
        return site.load()
    }

    @Test("every fixture loads without an error", arguments: fixtureFiles)
    func loadsWithoutErrors(_ name: String) throws {
        let loaded = try load(name)
        #expect(loaded.diagnostics.errors.isEmpty, "\(loaded.diagnostics.lines)")
        #expect(loaded.entriesRead >= 1)
    }

    @Test func fixtureCountIsComplete() {
        #expect(Self.fixtureFiles.count == 17)
    }

    @Test func newsFeedResponseHasEveryNewsFeedType() throws {
        let loaded = try load("stubapi-newsfeed-response.json")
        #expect(loaded.cards.map(\.type) == [.crossPromotionSmall, .captionedImage, .textAnnouncement, .shortNews, .bannerImage])
        let promo = try #require(loaded.cards.first)
        #expect(promo.title == "Hair MakeOver - Home Edition")
        #expect(promo.rating == 4.0)
        #expect(promo.reviews == 10000)
        #expect(promo.price == 0.25)
        #expect(promo.displayPrice == "£3.33")
        #expect(promo.itunesID == 560_147_174)
        #expect(promo.universal)
        #expect(promo.categories == [.news])
        #expect(promo.expiresAt == 1_700_086_400)
        let banner = loaded.cards[4]
        #expect(banner.aspectRatio == 6.1045)
        #expect(banner.image == .remote("http://www.image.com/foo.png"))
        #expect(loaded.diagnostics.all.isEmpty, "\(loaded.diagnostics.lines)")
    }

    @Test func unityBannerAliasIsABanner() throws {
        let loaded = try load("unity-newsfeed-banner.json")
        #expect(loaded.cards.first?.type == .bannerImage)
        #expect(loaded.cards.first?.updated == 1_000_000_001)
    }

    @Test func unityNumbersWrittenAsTextAreReadWithWarnings() throws {
        let loaded = try load("unity-newsfeed-cross-promotion-small-ios.json")
        let card = try #require(loaded.cards.first)
        #expect(card.rating == 5.0)
        #expect(card.reviews == 1000)
        #expect(card.price == 0)
        #expect(card.itunesID == 100_000_000)
        #expect(card.universal)
        for field in ["rating", "reviews", "price", "itunes_id", "universal"] {
            #expect(loaded.diagnostics.contains("card 1 (id \"xxxx-xxxx-xxxx-xxxx-xxxx\")", "field \"\(field)\"", "written as text"))
        }
    }

    @Test func contentCardWithoutImageIsATextAnnouncement() throws {
        let loaded = try load("flutter-contentcard-short-news.json")
        let card = try #require(loaded.cards.first)
        #expect(card.type == .textAnnouncement)
        #expect(card.title == "Title of Card")
        #expect(card.dismissible)
        #expect(card.extras.map(\.key) == ["timestamp"])
    }

    @Test func controlCardIsReadButNeverAWarning() throws {
        let loaded = try load("flutter-contentcard-control.json")
        #expect(loaded.cards.isEmpty)
        #expect(loaded.skipped[.control] == 1)
        #expect(loaded.diagnostics.all.isEmpty)
    }

    @Test func unknownTypeIsSkippedWithAWarningNamingFileCardAndField() throws {
        let loaded = try load("flutter-contentcard-unknown-type-all-keys.json")
        #expect(loaded.cards.isEmpty)
        #expect(loaded.skipped[.unknownType] == 1)
        #expect(loaded.diagnostics.contains("flutter-contentcard-unknown-type-all-keys.json: card 1 (id \"some id\"): field \"tp\": unknown type \"some type\""))
    }

    @Test func realWorldCaptureWithNullsAndStrayKeysLoads() throws {
        let loaded = try load("thirdparty-oncohealth-web-contentcard-short-news.json")
        let card = try #require(loaded.cards.first)
        #expect(card.type == .shortNews)
        #expect(card.url == nil)
        #expect(card.useWebView == false)
        #expect(card.created == 1_702_049_609)
        #expect(card.updated == card.created, "Content Cards have no updated field")
        #expect(card.aspectRatio == 1)
        #expect(loaded.diagnostics.all.isEmpty, "\(loaded.diagnostics.lines)")
    }

    @Test func escapedSlashesAreDecoded() throws {
        // The Flutter fixture is one line with "https:\/\/..." escapes; its type is unknown,
        // so read it as a known type to see the URL.
        let text = try String(contentsOf: Paths.braze.appendingPathComponent("flutter-contentcard-unknown-type-all-keys.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"some type\"", with: "\"captioned_image\"")
        let site = try TempSite(["cards.json": text])
        defer { site.remove() }
        let card = try #require(site.load().cards.first)
        #expect(card.url == "https://www.sometesturi.com")
        #expect(card.image == .remote("https://www.sometestimageuri.com"))
        #expect(card.pinned)
    }
}
