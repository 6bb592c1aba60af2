import Foundation
import Testing
@testable import CardFeedModel


/// `cardfeed check` runs the steps of `cardfeed build`, pages and feeds included, into an output
/// that keeps nothing: over every broken site here, the two report the same warnings and errors
/// in the same words, and check writes nothing.
@Suite struct CheckIsBuildTests {
    static let card = cardJSON(["id": "n1", "type": "short_news", "created": 1, "title": "Hello", "description": "d", "image": "https://x.test/i.png"])
    static let page = BuiltinFiles.templates["page"]!

    /// Sites that each break one step, named for what is wrong with them.
    static let brokenSites: [String: [String: String]] = [
        "a card file that is not JSON": ["cards.json": "[{\"id\": "],
        "a card without its required field": ["cards.json": cardJSON(["id": "b", "type": "banner_image", "created": 1])],
        "a local image that does not exist": ["cards.json": cardJSON(["id": "i", "type": "short_news", "created": 1, "description": "d", "image": "images/none.png"])],
        "a cardfeed.yml that is not YAML": ["cards.json": card, "cardfeed.yml": "title: [unclosed"],
        "an unknown setting": ["cards.json": card, "cardfeed.yml": "titel: News\n"],
        "a card template with a syntax error": ["cards.json": card, "templates/cards/short_news.mustache": "{{#title}}open"],
        "a card template naming an unknown variable": ["cards.json": card, "templates/cards/short_news.mustache": "<p>{{titel}}</p>"],
        "a missing partial": ["cards.json": card, "templates/cards/short_news.mustache": "{{>nowhere}}"],
        "a card template that recurses through the data": [
            "cards.json": card, "templates/cards/short_news.mustache": "{{#title}}<p>{{>cards/short_news}}</p>{{/title}}",
        ],
        // Only rendering a page finds this one: the page template reaches itself through a
        // dynamic partial, which no card renders.
        "a page template that includes itself through a dynamic partial": [
            "cards.json": card, "templates/en.mustache": "x{{>*lang}}",
            "templates/page.mustache": page.replacingOccurrences(of: "<main class=\"feed\"", with: "{{>*lang}}<main class=\"feed\""),
        ],
        "a static file where a page goes": ["cards.json": card, "static/index.html": "<p>mine</p>"],
        "an unknown locale": ["cards.json": card, "cardfeed.yml": "locale: german\n"],
        "a rule that matches no card": ["cards.json": card, "cardfeed.yml": "rules:\n  - match: {id: nothing}\n    set: {pinned: true}\n"],
    ]

    @Test(arguments: brokenSites.keys.sorted())
    func checkReportsWhatBuildReports(_ name: String) throws {
        for strict in [false, true] {
            let site = try TempSite(Self.brokenSites[name]!)
            defer { site.remove() }
            let checked = site.build(strict: strict, write: false)
            #expect(!site.exists("public"), "check wrote the output (\(name))")
            let built = site.build(strict: strict, write: true)
            #expect(checked.diagnostics.all.map(\.description) == built.diagnostics.all.map(\.description), "\(name), strict: \(strict)")
            #expect(checked.succeeded == built.succeeded, "\(name), strict: \(strict)")
            #expect(!checked.diagnostics.all.isEmpty, "the site of \"\(name)\" is not broken")
        }
    }

    @Test func checkRendersEveryPageAndFeedOfAGoodSite() throws {
        let site = try TempSite(["cards.json": Self.card, "cardfeed.yml": "base_url: https://example.com/\n"])
        defer { site.remove() }
        let report = site.build(write: false)
        #expect(report.succeeded)
        #expect(report.pagesRendered == site.build(write: true).pagesRendered)
        #expect(report.syndicatedFor == "https://example.com/")
    }

    /// A render error names the template file and the tag it happened at: the page's at the
    /// tag, a card's at the card with the tag named.
    @Test func renderErrorsNameTheTemplateFile() throws {
        let page = try TempSite(Self.brokenSites["a page template that includes itself through a dynamic partial"]!)
        defer { page.remove() }
        let pageError = try #require(page.build(write: false).diagnostics.errors.first)
        #expect(pageError.file.hasSuffix("templates/en.mustache") && pageError.line == 1 && pageError.column == 2, "\(pageError)")

        let card = try TempSite(Self.brokenSites["a card template that recurses through the data"]!)
        defer { card.remove() }
        let cardError = try #require(card.build(write: false).diagnostics.errors.first)
        #expect(cardError.file.hasSuffix("cards.json") && cardError.cardID == "n1", "\(cardError)")
        #expect(cardError.message.hasPrefix("in ") && cardError.message.contains("templates/cards/short_news.mustache:1:14: "), "\(cardError)")
    }
}
