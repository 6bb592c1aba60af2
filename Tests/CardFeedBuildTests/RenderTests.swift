import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedSelect


/// What a visitor sees: escaping, the HTML contract, navigation, empty feeds.
@Suite struct RenderTests {
    func build(_ cards: [[String: Any]], pageSize: Int = 20, files: [String: String] = [:]) throws -> (TempSite, BuildReport) {
        var all = files
        all["cards.json"] = "[" + cards.map(cardJSON).joined(separator: ",") + "]"
        let site = try TempSite(all)
        return (site, site.build(pageSize: pageSize))
    }

    @Test func untrustedTextIsEscapedAndMarkdownIsSafe() throws {
        let (site, report) = try build([[
            "id": "x\"><script>alert(1)</script>", "type": "captioned_image", "created": 1,
            "title": "<img src=x onerror=alert(1)>", "image": "https://x.test/a.png?q=\"><script>",
            "description": "**bold** <script>alert(2)</script> [x](javascript:alert(3)) <b onclick=alert(4)>b</b>",
            "domain": "<i>d</i>", "url": "https://x.test/?a=1&b=\"2\"",
        ]])
        defer { site.remove() }
        #expect(report.succeeded)
        let page = try site.read("index.html")
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains("javascript:"))
        #expect(!page.contains("onclick"))
        #expect(page.contains("<strong>bold</strong>"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(page.contains("data-card-id=\"x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""))
        #expect(page.contains("href=\"https://x.test/?a=1&amp;b=%222%22\""))
        #expect(page.contains(">&lt;i&gt;d&lt;/i&gt;</a>"))
        #expect(page.contains("src=\"https://x.test/a.png?q=%22%3E%3Cscript%3E\""))
    }

    @Test func aCardWithoutADateShowsNone() throws {
        let (site, report) = try build([
            ["id": "dateless", "tp": "text_announcement", "ds": "d"],
            ["id": "app", "type": "cross_promotion_small", "title": "T", "subtitle": "S", "caption": "C", "image": "https://x.test/i.png", "price": 1, "url": "https://x.test"],
            ["id": "dated", "tp": "text_announcement", "ca": 1_699_500_000.75, "ds": "d"],
        ], files: ["cardfeed.yml": "base_url: https://example.test/\n"])
        defer { site.remove() }
        #expect(report.succeeded)
        let page = try site.read("index.html")
        #expect(page.components(separatedBy: "class=\"card__date\"").count == 2, "only the dated card has a date")
        #expect(page.contains("<time class=\"card__date\" datetime=\"2023-11-09T03:20:00Z\">Nov 9, 2023</time>"))
        #expect(!page.contains("1970"))
        let atom = try site.read("feed.xml")
        #expect(atom.components(separatedBy: "<published>").count == 2)
        let json = try site.read("feed.json")
        #expect(json.components(separatedBy: "date_published").count == 2)
    }

    @Test("cross promotion prices are written for the locale", arguments: [
        ("en", "$1,234.50", "$0.99"), ("de", "1.234,50\u{A0}$", "0,99\u{A0}$"), ("fr", "1\u{202F}234,50\u{A0}$", "0,99\u{A0}$"),
    ])
    func pricesFollowTheLocale(_ locale: String, _ large: String, _ small: String) throws {
        let strings = StringTable(locale: locale, values: try #require(StringTable.builtin(locale)))
        #expect(strings.price(1234.5) == large)
        #expect(strings.price(0.99) == small)
        func app(_ id: String, _ fields: [String: Any]) -> [String: Any] {
            ["id": id, "type": "cross_promotion_small", "created": 1, "title": "T", "subtitle": "S", "caption": "C",
             "image": "https://x.test/i.png", "url": "https://x.test"].merging(fields) { $1 }
        }
        let (site, _) = try build([app("priced", ["price": 1234.5]), app("shown", ["price": 1234.5, "display_price": "£3.33"])],
                                  files: ["cardfeed.yml": "locale: \(locale)\n"])
        defer { site.remove() }
        let page = try site.read("index.html")
        #expect(page.contains("<a class=\"card__cta\" href=\"https://x.test\">\(large)<span"))
        #expect(page.contains("<a class=\"card__cta\" href=\"https://x.test\">£3.33<span"), "display_price wins")
    }

    @Test func aRatingOfZeroShowsNeitherStarsNorReviews() throws {
        let base: [String: Any] = [
            "type": "cross_promotion_small", "created": 1, "title": "T", "subtitle": "S", "caption": "C",
            "image": "https://x.test/i.png", "url": "https://x.test", "price": 0, "reviews": 120,
        ]
        let (site, report) = try build([
            base.merging(["id": "album", "rating": 0]) { $1 },
            base.merging(["id": "app", "rating": 4.5]) { $1 },
        ])
        defer { site.remove() }
        #expect(report.succeeded)
        let page = try site.read("index.html")
        let album = try #require(page.components(separatedBy: "data-card-id=\"album\"").last?.components(separatedBy: "</article>").first)
        #expect(!album.contains("star") && !album.contains("Rated") && !album.contains("review"), "\(album)")
        let app = try #require(page.components(separatedBy: "data-card-id=\"app\"").last?.components(separatedBy: "</article>").first)
        #expect(app.contains("Rated 4.5 out of 5") && app.contains("(120 reviews)"))
    }

    @Test func cardRootCarriesTheDataAttributes() throws {
        let (site, _) = try build([
            ["id": "u", "tp": "short_news", "ca": 1, "ds": "d", "i": "https://x.test/i.png", "v": false, "p": true, "db": true, "uw": true, "u": "https://x.test"],
            ["id": "r", "type": "text_announcement", "created": 1, "description": "d", "viewed": true],
        ])
        defer { site.remove() }
        let page = try site.read("index.html")
        #expect(page.contains("<article class=\"card card--short_news\" id=\"card-u\" data-card-id=\"u\" data-card-type=\"short_news\" data-unread data-pinned data-dismissible data-use-webview>"))
        #expect(page.contains("<article class=\"card card--text_announcement\" id=\"card-r\" data-card-id=\"r\" data-card-type=\"text_announcement\">"))
        #expect(page.contains("class=\"card__pin\" src=\"assets/images/appboy_cc_icon_pinned.png\" srcset=\"assets/images/appboy_cc_icon_pinned.png 1x, assets/images/appboy_cc_icon_pinned@2x.png 2x, assets/images/appboy_cc_icon_pinned@3x.png 3x\" alt=\"Pinned\""))
        #expect(page.components(separatedBy: "class=\"card__unread\"").count == 2, "only the unread card has the indicator")
    }

    @Test func navigationMarksTheCurrentFeed() throws {
        let (site, _) = try build([
            ["id": "a", "type": "text_announcement", "created": 1, "description": "d", "categories": ["news"]],
            ["id": "b", "type": "text_announcement", "created": 2, "description": "d"],
        ])
        defer { site.remove() }
        let news = try site.read("news/index.html")
        #expect(news.contains("<base href=\"../\">"))
        #expect(news.contains("<a class=\"feed-nav__link\" href=\"news/index.html\" aria-current=\"page\">News</a>"))
        #expect(news.contains("<a class=\"feed-nav__link\" href=\"index.html\">All</a>"), "no counts, which would change every page with every card")
        #expect(news.contains("<p class=\"feed__dates\">Jan 1, 1970</p>") && !news.contains("1 card"))
        #expect(news.contains("<title>News · CardFeed</title>"))
        let social = try site.read("social/index.html")
        #expect(social.contains("<p class=\"feed__empty\">We have no updates. Please check again later.</p>"))
        #expect(try site.read("uncategorized/index.html").contains("data-card-id=\"b\""))
    }

    @Test func onlyControlCardsShowTheEmptyState() throws {
        let (site, report) = try build([["id": "c", "tp": "control", "ca": 1]])
        defer { site.remove() }
        #expect(report.cardsShown == 0)
        #expect(try site.read("index.html").contains("We have no updates. Please check again later."))
    }

    /// Every feed's page takes its cards from batches of rendered cards, where a category's cards
    /// are scattered. Several megabytes of cards, one page a feed:
    /// each category page must hold exactly its cards, byte for byte as the "all" page has them.
    @Test func categoryPagesCopyTheirScatteredCardsExactly() throws {
        let filler = String(repeating: "Lorem ipsum dolor sit amet. ", count: 30)
        let cards = (1...3000).map { number -> [String: Any] in
            ["id": "c\(number)", "type": "text_announcement", "created": number, "title": "Card \(number)",
             "description": "\(number): \(filler)", "categories": number % 3 == 0 ? ["news"] : number % 3 == 1 ? ["social", "news"] : ["social"]]
        }
        let (site, report) = try build(cards, pageSize: 0)
        defer { site.remove() }
        #expect(report.succeeded)
        func articles(_ page: String) throws -> [String] {
            try site.read(page).components(separatedBy: "<article").dropFirst().map { $0.components(separatedBy: "</article>")[0] }
        }
        func number(_ article: String) -> Int { Int(article.components(separatedBy: "data-card-id=\"c")[1].prefix { $0.isNumber })! }
        let all = try articles("index.html")
        #expect(all.count == 3000)
        #expect(try site.read("index.html").utf8.count > 3 << 20)
        for (feed, kept) in [("news", [0, 1]), ("social", [1, 2])] {
            let expected = all.filter { kept.contains(number($0) % 3) }
            #expect(try articles("\(feed)/index.html") == expected, "\(feed)")
        }
    }

    @Test func paginationPagesAndLinks() throws {
        let cards = (1...5).map { ["id": "c\($0)", "type": "text_announcement", "created": $0, "description": "d"] as [String: Any] }
        // Two cards a page on average: c2 and c3 end pages (`PageEnds`), so from the oldest the
        // archive is [c2, c1] and [c3], and c5 and c4, newer than every page end, are on the
        // front page alone, which they fill.
        let (site, report) = try build(cards, pageSize: 2)
        defer { site.remove() }
        #expect(report.pagesRendered == 3 + 3 + 4)  // all and uncategorized: 3 pages each; the four empty feeds: 1 each
        func ids(_ page: String) -> [String] { page.components(separatedBy: "data-card-id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) } }
        let front = try site.read("index.html")
        #expect(ids(front) == ["c5", "c4"])
        #expect(front.contains("<title>CardFeed</title>") && front.contains("<p class=\"feed__dates\">Jan 1, 1970</p>"))
        #expect(front.contains("<a class=\"pagination__step\" href=\"page-c3.html\" rel=\"next\">Older →</a>"))
        #expect(!front.contains("rel=\"prev\"") && !front.contains("pagination__latest"))
        let newest = try site.read("page-c3.html")
        #expect(ids(newest) == ["c3"])
        #expect(newest.contains("<base href=\"./\">"))
        #expect(newest.contains("<title>All, Jan 1, 1970 · CardFeed</title>"))
        #expect(newest.contains("<p class=\"feed__dates\">Jan 1, 1970</p>"))
        #expect(newest.contains("<a class=\"pagination__step\" href=\"index.html\" rel=\"prev\">← Newer</a>"))
        #expect(newest.contains("href=\"page-c2.html\" rel=\"next\""))
        #expect(!newest.contains("pagination__latest"), "its newer page is the front page")
        let oldest = try site.read("page-c2.html")
        #expect(ids(oldest) == ["c2", "c1"])
        #expect(oldest.contains("<a class=\"pagination__latest\" href=\"index.html\">Latest</a>"))
        #expect(oldest.contains("href=\"page-c3.html\" rel=\"prev\"") && !oldest.contains("rel=\"next\""))
        #expect(try site.read("uncategorized/page-c3.html").contains("data-card-id=\"c3\""))
        let (single, _) = try build(cards, pageSize: 0)
        defer { single.remove() }
        #expect(try single.read("index.html").components(separatedBy: "<article").count == 6)
        #expect(!(try single.read("index.html").contains("class=\"pagination\"")))
    }

    @Test func imagesPlaceholdersAndSiteOverrides() throws {
        let (site, _) = try build(
            [
                ["id": "local", "type": "captioned_image", "created": 2, "title": "t", "description": "d", "image": "images/p.png", "aspect_ratio": 2],
                ["id": "none", "type": "captioned_image", "created": 1, "title": "t", "description": "d"],
            ],
            files: ["assets/images/p.png": "x", "assets/images/appboy_cc_noimage_lrg.png": "mine", "assets/extra/readme.txt": "copied"])
        defer { site.remove() }
        let page = try site.read("index.html")
        // Beside the card's own title, the image is decorative, as in the Braze SDKs.
        #expect(page.contains("src=\"assets/images/p.png\" alt=\"\" width=\"1200\" height=\"600\" loading=\"lazy\""))
        // The site replaced the 1x placeholder only, so the built-in 2x and 3x (another picture) are not offered.
        #expect(page.contains("<img class=\"card__image card__image--placeholder\" src=\"assets/images/appboy_cc_noimage_lrg.png\" alt=\"\" width=\"600\" height=\"400\""))
        #expect(try site.read("assets/images/appboy_cc_noimage_lrg.png") == "mine")
        #expect(try site.read("assets/extra/readme.txt") == "copied")
    }
}
