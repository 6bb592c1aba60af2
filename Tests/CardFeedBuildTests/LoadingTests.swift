import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel


/// Reading cards: key styles, envelopes, leniency, and the warnings that name file, card and field.
@Suite struct LoadingTests {
    func load(_ files: [String: String]) throws -> LoadedCards {
        let site = try TempSite(files)
        defer { site.remove() }
        return site.load()
    }

    @Test func bothKeyStylesGiveTheSameCard() throws {
        let long = cardJSON([
            "id": "a", "type": "captioned_image", "viewed": true, "created": 1_700_000_000, "expires_at": 1_900_000_000,
            "extras": ["k": "v"], "image": "https://x.test/i.png", "title": "T", "description": "D", "url": "https://x.test",
            "domain": "x.test", "aspect_ratio": 1.5, "use_webview": true,
        ])
        let short = cardJSON([
            "id": "a", "tp": "captioned_image", "v": true, "ca": 1_700_000_000, "ea": 1_900_000_000,
            "e": ["k": "v"], "i": "https://x.test/i.png", "tt": "T", "ds": "D", "u": "https://x.test",
            "dm": "x.test", "ar": 1.5, "uw": true,
        ])
        let a = try #require(try load(["cards.json": long]).cards.first)
        let b = try #require(try load(["cards.json": short]).cards.first)
        for card in [a, b] {
            #expect(card.type == .captionedImage)
            #expect(card.viewed)
            #expect(card.created == 1_700_000_000 && card.updated == 1_700_000_000)
            #expect(card.expiresAt == 1_900_000_000)
            #expect(card.extras.first?.key == "k" && card.extras.first?.value == "v")
            #expect(card.image == .remote("https://x.test/i.png"))
            #expect(card.title == "T" && card.description == "D" && card.url == "https://x.test" && card.domain == "x.test")
            #expect(card.aspectRatio == 1.5)
            #expect(card.useWebView)
        }
    }

    @Test("type names and hand-typed aliases", arguments: [
        ("banner_image", CardType.bannerImage), ("banner", .bannerImage), ("image_only", .bannerImage),
        ("captioned_image", .captionedImage), ("short_news", .shortNews), ("classic", .shortNews),
        ("text_announcement", .textAnnouncement), ("cross_promotion_small", .crossPromotionSmall), ("Banner_Image", .bannerImage),
    ])
    func typeNames(_ name: String, _ type: CardType) throws {
        let card = try #require(try load(["cards.json": cardJSON(["id": "a", "type": name, "created": 1, "image": "https://x.test/a.png", "description": "d", "title": "t"])]).cards.first)
        #expect(card.type == type)
    }

    @Test func envelopes() throws {
        let card = cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"])
        for text in ["[\(card)]", "{\"feed\": [\(card)]}", "{\"cards\": [\(card)], \"full_sync\": true}", "{\"mFeedCards\": [\(card)], \"mFromOfflineStorage\": false}", card] {
            let loaded = try load(["cards.json": text])
            #expect(loaded.cards.map(\.id) == ["a"], "\(text)")
        }
    }

    @Test func aMisspelledKeyGetsADidYouMeanWarning() throws {
        let loaded = try load(["cards/x.json": "[" + cardJSON([
            "id": "a", "type": "captioned_image", "created": 1, "titel": "T", "Description": "D", "imgae": "https://x.test/i.png",
            "hhhh": 1, "Yc": 2, "x": 3, "campaign_name": "autumn",
        ]) + "]"])
        #expect(loaded.diagnostics.contains("x.json: card 1 (id \"a\"): field \"titel\": unknown key (did you mean \"title\"?); ignored"))
        #expect(loaded.diagnostics.contains("card 1 (id \"a\"): field \"Description\": unknown key (did you mean \"description\"?)"))
        #expect(loaded.diagnostics.contains("card 1 (id \"a\"): field \"imgae\": unknown key (did you mean \"image\"?)"))
        #expect(!loaded.diagnostics.contains("hhhh") && !loaded.diagnostics.contains("\"Yc\"") && !loaded.diagnostics.contains("\"x\"")
            && !loaded.diagnostics.contains("campaign_name"), "keys far from every known one are ignored quietly, as the SDKs do")
        #expect(loaded.diagnostics.contains("field \"title\": missing"))
    }

    @Test("an object that holds cards under an unknown key is an error", arguments: [
        ("{\"feeds\": [CARD]}", "feeds", "did you mean {\"feed\": [...]}?"),
        ("{\"Cards\": [CARD], \"full_sync\": true}", "Cards", "did you mean {\"cards\": [...]}?"),
        ("{\"items\": [CARD, CARD]}", "items", "so none of them is read: (the envelopes are {\"feed\": [...]}, {\"cards\": [...]}, {\"mFeedCards\": [...]})"),
    ])
    func misspelledEnvelope(_ text: String, _ key: String, _ message: String) throws {
        let card = cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"])
        let site = try TempSite(["cards/x.json": text.replacingOccurrences(of: "CARD", with: card)])
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        #expect(report.diagnostics.errors.count == 1)
        // At the key, line 1, column 2.
        #expect(report.diagnostics.contains("x.json:1:2: field \"\(key)\": a list of cards under a key that is no envelope", message), "\(report.diagnostics.lines)")
    }

    @Test func strictFailsOnAMisspelledKey() throws {
        let site = try TempSite(["cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d", "titel": "T"])])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let strict = site.build(strict: true)
        #expect(!strict.succeeded)
        #expect(strict.diagnostics.contains("field \"titel\": unknown key (did you mean \"title\"?)"))
    }

    @Test func cardsJsonAndCardsFolderAreReadInPathOrder() throws {
        let loaded = try load([
            "cards.json": cardJSON(["id": "root", "type": "text_announcement", "created": 1, "description": "d"]),
            "cards/b/nested.json": cardJSON(["id": "nested", "type": "text_announcement", "created": 1, "description": "d"]),
            "cards/a.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"]),
            "cards/notes.txt": "not a card file",
        ])
        #expect(loaded.cards.map(\.id) == ["root", "a", "nested"])
        #expect(loaded.files.count == 3)
    }

    @Test func categoriesMatchCaseInsensitively() throws {
        let loaded = try load(["cards.json": cardJSON([
            "id": "a", "type": "text_announcement", "created": 1, "description": "d",
            "categories": ["NEWS", "ABKCardCategorySocial", "Advertising", "news", "weather"],
        ])])
        #expect(loaded.cards.first?.categories == [.news, .advertising, .social])
        #expect(loaded.diagnostics.contains("field \"categories\"", "unknown category \"weather\""))
    }

    @Test func millisecondTimestampsAreRecognised() throws {
        let card = try #require(try load(["cards.json": cardJSON([
            "id": "a", "tp": "text_announcement", "ca": 1_790_000_000_000, "ea": 1_900_000_000_000, "ds": "d",
        ])]).cards.first)
        #expect(card.created == 1_790_000_000)
        #expect(card.expiresAt == 1_900_000_000)
    }

    @Test func fractionalTimestampsAreRoundedDown() throws {
        let loaded = try load(["cards.json": "[" + [
            cardJSON(["id": "cc", "tp": "text_announcement", "ca": 1_699_500_000.75, "ea": 1_900_000_000.5, "ds": "d"]),
            cardJSON(["id": "nf", "type": "text_announcement", "created": 1_699_500_000.25, "updated": 1_699_600_000.99, "expires_at": 1_900_000_000.01, "description": "d"]),
            cardJSON(["id": "ms", "tp": "text_announcement", "ca": 1_699_500_000_750.5, "ds": "d"]),
            cardJSON(["id": "text", "tp": "text_announcement", "ca": "1699500000.9", "ds": "d"]),
        ].joined(separator: ",") + "]"])
        let cards = Dictionary(uniqueKeysWithValues: loaded.cards.map { ($0.id, $0) })
        #expect(cards["cc"]?.created == 1_699_500_000 && cards["cc"]?.updated == 1_699_500_000 && cards["cc"]?.expiresAt == 1_900_000_000)
        #expect(cards["nf"]?.created == 1_699_500_000 && cards["nf"]?.updated == 1_699_600_000 && cards["nf"]?.expiresAt == 1_900_000_000)
        #expect(cards["ms"]?.created == 1_699_500_000)
        #expect(cards["text"]?.created == 1_699_500_000)
        #expect(loaded.diagnostics.all.count == 1)
        #expect(loaded.diagnostics.contains("cards.json: card 4 (id \"text\"): field \"ca\": number written as text \"1699500000.9\"; read as 1699500000.9"))
    }

    @Test func aCardWithoutCreatedHasNoDate() throws {
        let loaded = try load(["cards.json": cardJSON(["id": "a", "tp": "text_announcement", "ds": "d"])])
        let card = try #require(loaded.cards.first)
        #expect(card.created == nil && card.updated == 0)
        #expect(loaded.diagnostics.contains("field \"ca\": missing; the card shows no date"))
    }

    @Test("a Classic card with an empty or blank image is a text announcement", arguments: ["\"\"", "\"  \"", "null"])
    func classicWithoutAnImage(_ image: String) throws {
        for card in ["{\"id\": \"a\", \"tp\": \"short_news\", \"ca\": 1, \"ds\": \"d\", \"i\": \(image)}",
                     "{\"id\": \"a\", \"type\": \"classic\", \"created\": 1, \"description\": \"d\", \"image\": \(image)}"] {
            let loaded = try load(["cards.json": card])
            #expect(loaded.cards.first?.type == .textAnnouncement, "\(card)")
            #expect(loaded.diagnostics.all.isEmpty, "\(loaded.diagnostics.lines)")
        }
    }

    @Test func aBlankRequiredImageIsReportedMissing() throws {
        let loaded = try load(["cards.json": cardJSON(["id": "a", "type": "banner_image", "created": 1, "image": " "])])
        #expect(loaded.diagnostics.contains("card 1 (id \"a\"): field \"image\": missing (required for banner_image cards); the placeholder image is shown"))
    }

    @Test func minusOneMeansNeverExpires() throws {
        let card = try #require(try load(["cards.json": cardJSON(["id": "a", "tp": "text_announcement", "ca": 1, "ea": -1, "ds": "d"])]).cards.first)
        #expect(card.expiresAt == nil)
    }

    /// RFC 3339 has four-digit years: a time past 9999 is read as 9999-12-31T23:59:59Z, with a
    /// warning naming file, card and field.
    @Test func timesPastYear9999AreClampedWithAWarning() throws {
        let loaded = try load(["cards.json": cardJSON(["id": "a", "tp": "text_announcement", "ca": 300_000_000_000, "ea": 999_999_999_999, "ds": "d"])])
        let card = try #require(loaded.cards.first)
        #expect(card.created == 253_402_300_799 && card.updated == 253_402_300_799 && card.expiresAt == 253_402_300_799)
        #expect(Formatting.iso(card.created!) == "9999-12-31T23:59:59Z")
        #expect(loaded.diagnostics.contains("card 1 (id \"a\"): field \"ca\": 300000000000 is after 9999-12-31T23:59:59Z, the last time a feed can give; read as that time"))
        #expect(loaded.diagnostics.contains("card 1 (id \"a\"): field \"ea\": 999999999999 is after 9999-12-31T23:59:59Z, the last time a feed can give; read as that time"))
        let last = try load(["cards.json": cardJSON(["id": "a", "tp": "text_announcement", "ca": 253_402_300_799, "ds": "d"])])
        #expect(last.cards.first?.created == 253_402_300_799 && last.diagnostics.all.isEmpty)
    }

    @Test func zeroAndOneAreBooleansWithoutAWarning() throws {
        let loaded = try load(["cards.json": cardJSON(["id": "a", "tp": "text_announcement", "ca": 1, "ds": "d", "v": 0, "p": 1])])
        #expect(loaded.cards.first?.pinned == true)
        #expect(loaded.cards.first?.viewed == false)
        #expect(loaded.diagnostics.all.isEmpty)
    }

    @Test func wrongTypesAreIgnoredWithAWarningNamingTheField() throws {
        let loaded = try load(["cards/x.json": "[" + cardJSON([
            "id": "a", "type": "captioned_image", "created": "yesterday", "title": ["not", "text"], "description": "d",
            "image": "https://x.test/i.png", "viewed": "maybe", "extras": ["n": 3, "nested": ["x": 1]],
        ]) + "]"])
        let card = try #require(loaded.cards.first)
        #expect(card.title == nil)
        #expect(card.extras.map(\.value) == ["3"])
        #expect(loaded.diagnostics.contains("x.json: card 1 (id \"a\"): field \"created\": \"yesterday\" is not a time: expected Unix seconds, or an ISO 8601 date"))
        #expect(loaded.diagnostics.contains("field \"title\": expected text, found a list"))
        #expect(loaded.diagnostics.contains("field \"viewed\": expected true or false, found text"))
        #expect(loaded.diagnostics.contains("field \"extras.n\": expected text, found a number; used as text"))
        #expect(loaded.diagnostics.contains("field \"extras.nested\": expected text, found an object; ignored"))
    }

    @Test func missingIdSkipsTheCard() throws {
        let loaded = try load(["cards.json": "[" + cardJSON(["type": "text_announcement", "created": 1, "description": "d"]) + "]"])
        #expect(loaded.cards.isEmpty)
        #expect(loaded.skipped[.invalid] == 1)
        #expect(loaded.diagnostics.contains("cards.json: card 1: field \"id\": missing"))
    }

    @Test func missingRequiredFieldsWarnAndTheCardIsShownWherePossible() throws {
        let loaded = try load(["cards.json": "[" + [
            cardJSON(["id": "cap", "type": "captioned_image", "created": 1, "title": "t"]),
            cardJSON(["id": "txt", "tp": "text_announcement", "ca": 1]),
            cardJSON(["id": "promo", "type": "cross_promotion_small", "created": 1, "title": "App"]),
        ].joined(separator: ",") + "]"])
        #expect(loaded.cards.map(\.id) == ["cap", "txt", "promo"])
        #expect(loaded.diagnostics.contains("card 1 (id \"cap\"): field \"image\": missing (required for captioned_image cards); the placeholder image is shown"))
        #expect(loaded.diagnostics.contains("card 1 (id \"cap\"): field \"description\": missing"))
        #expect(loaded.diagnostics.contains("card 2 (id \"txt\"): field \"ds\": missing"))
        #expect(loaded.diagnostics.contains("card 2 (id \"txt\"): has no title, description, link or image: shown as an empty card"))
        for field in ["subtitle", "caption", "price", "url", "image"] {
            #expect(loaded.diagnostics.contains("card 3 (id \"promo\"): field \"\(field)\": missing"))
        }
    }

    @Test func oversizedCardIsShownWithAWarning() throws {
        let loaded = try load(["cards.json": cardJSON(["id": "big", "type": "text_announcement", "created": 1, "description": String(repeating: "a", count: 2100)])])
        #expect(loaded.cards.map(\.id) == ["big"])
        #expect(loaded.diagnostics.contains("(id \"big\")", "over Braze's 2 KB limit"))
    }

    @Test func duplicateIdsKeepTheMostRecentlyUpdated() throws {
        let loaded = try load([
            "cards/1.json": cardJSON(["id": "dup", "type": "text_announcement", "created": 1, "updated": 500, "description": "newer"]),
            "cards/2.json": cardJSON(["id": "dup", "type": "text_announcement", "created": 1, "updated": 100, "description": "older"]),
        ])
        #expect(loaded.cards.map(\.description) == ["newer"])
        #expect(loaded.skipped[.duplicate] == 1)
        #expect(loaded.diagnostics.contains("2.json: card 1 (id \"dup\"): field \"id\": same id as", "1.json: card 1, which is updated more recently; this one is ignored"))
    }

    @Test func aSyncsRemovalLeavesACardOfAnotherFileWithAWarning() throws {
        let loaded = try load([
            "cards/a.json": cardJSON(["id": "kept", "tp": "text_announcement", "ca": 1, "ds": "d"]),
            "cards/b.json": "{\"cards\": [{\"id\": \"kept\", \"r\": true}], \"full_sync\": false}",
        ])
        #expect(loaded.cards.map(\.id) == ["kept"])
        #expect(loaded.skipped[.removed] == nil)
        #expect(loaded.diagnostics.contains("b.json: card 1 (id \"kept\"): field \"r\": removes card \"kept\", which no earlier sync sent", "a.json: card 1) is not from a sync, so it stays"))
    }

    /// Content Cards syncs saved in a folder, read in path order, end with the cards the last one leaves.
    func sync(_ full: Bool, _ entries: [String: Any]...) -> String {
        "{\"cards\": [" + entries.map(cardJSON).joined(separator: ",") + "], \"full_sync\": \(full), \"last_full_sync_at\": 1}"
    }
    func cc(_ id: String, _ text: String = "d", ca: Int = 1) -> [String: Any] { ["id": id, "tp": "text_announcement", "ca": ca, "ds": text] }

    @Test func aFullSyncReplacesTheCardsOfEarlierSyncs() throws {
        let loaded = try load([
            "cards/1.json": sync(true, cc("a"), cc("b")),
            "cards/2.json": sync(true, cc("c"), cc("b", "again")),
        ])
        #expect(loaded.cards.map(\.id) == ["c", "b"])
        #expect(loaded.cards.last?.description == "again")
        #expect(loaded.skipped[.replacedBySync] == 2)
        #expect(loaded.diagnostics.all.isEmpty, "\(loaded.diagnostics.lines)")
    }

    @Test func anIncrementalSyncAddsAndUpdates() throws {
        let loaded = try load([
            "cards/1.json": sync(true, cc("a", "first", ca: 500), cc("b")),
            "cards/2.json": sync(false, cc("a", "edited", ca: 100), cc("c")),
        ])
        #expect(loaded.cards.map(\.id) == ["a", "b", "c"])
        #expect(loaded.cards.first?.description == "edited", "a later sync's card is the card as it is now, whatever its time")
        #expect(loaded.diagnostics.all.isEmpty, "\(loaded.diagnostics.lines)")
    }

    @Test func aCardRemovedByOneSyncAndSentAgainByALaterOneIsShown() throws {
        let removed = try load([
            "cards/1.json": sync(true, cc("a"), cc("b")),
            "cards/2.json": sync(false, ["id": "a", "r": true]),
        ])
        #expect(removed.cards.map(\.id) == ["b"])
        #expect(removed.skipped[.removed] == 1)
        let back = try load([
            "cards/1.json": sync(true, cc("a"), cc("b")),
            "cards/2.json": sync(false, ["id": "a", "r": true]),
            "cards/3.json": sync(false, cc("a", "back")),
        ])
        #expect(back.cards.map(\.id) == ["b", "a"])
        #expect(back.cards.last?.description == "back")
    }

    @Test func aSyncLeavesNewsFeedCardsAlone() throws {
        let loaded = try load([
            "cards.json": "{\"feed\": [" + cardJSON(["id": "n", "type": "text_announcement", "created": 1, "description": "d"]) + "]}",
            "cards/1.json": sync(true, cc("a")),
            "cards/2.json": sync(true, cc("b")),
        ])
        #expect(loaded.cards.map(\.id) == ["n", "b"])
    }

    @Test func aRemovalOutsideASyncStillDeletesItsCardWhereverItWasRead() throws {
        let loaded = try load([
            "cards.json": "[{\"id\": \"gone\", \"r\": true}]",
            "cards/later.json": cardJSON(["id": "gone", "type": "text_announcement", "created": 1, "description": "d"]),
        ])
        #expect(loaded.cards.isEmpty)
        #expect(loaded.skipped[.removed] == 1)
    }

    @Test func malformedJSONNamesFileLineAndColumn() throws {
        let loaded = try load(["cards/bad.json": "[\n  {\"id\": \"a\",\n   \"type\": tru}\n]"])
        let error = try #require(loaded.diagnostics.errors.first)
        #expect(error.file.hasSuffix("cards/bad.json"))
        #expect(error.line == 3)
        #expect(error.column == 12)
        #expect(error.description.contains("bad.json:3:12: invalid JSON: unknown word \"tru\""))
    }

    @Test func emptyAndNonCardFilesAreErrors() throws {
        let loaded = try load(["cards/empty.json": "  \n", "cards/number.json": "42", "cards/feed.json": "{\"feed\": 3}"])
        #expect(loaded.diagnostics.contains("empty.json", "the file is empty"))
        #expect(loaded.diagnostics.contains("number.json", "found a number"))
        #expect(loaded.diagnostics.contains("feed.json", "field \"feed\": expected a list of cards"))
        #expect(loaded.diagnostics.errors.count == 3)
    }

    @Test("URLs a browser would run are dropped", arguments: [
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)",
        "vbscript:msgbox(1)", "data:text/html;base64,PHNjcmlwdD4=", "file:///etc/passwd", "&#106;avascript:alert(1)",
    ])
    func dangerousLinks(_ url: String) throws {
        let loaded = try load(["cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d", "url": url])])
        #expect(loaded.cards.first?.url == nil)
        #expect(loaded.diagnostics.contains("field \"url\"", "the card is shown without a link"))
    }

    @Test func safeLinksAreKept() throws {
        for url in ["https://x.test/a?b=1&c=2", "http://x.test", "mailto:a@x.test", "tel:+1555", "/relative/page.html"] {
            let loaded = try load(["cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d", "url": url])])
            #expect(loaded.cards.first?.url == url)
        }
    }

    @Test func localImagesMustExistInsideAssets() throws {
        let loaded = try load([
            "assets/images/here.png": "png",
            "cards.json": "[" + [
                cardJSON(["id": "ok", "type": "banner_image", "created": 1, "image": "images/here.png"]),
                cardJSON(["id": "prefixed", "type": "banner_image", "created": 1, "image": "assets/images/here.png"]),
                cardJSON(["id": "missing", "type": "banner_image", "created": 1, "image": "images/nope.png"]),
                cardJSON(["id": "escape", "type": "banner_image", "created": 1, "image": "../cards.json"]),
                cardJSON(["id": "encoded", "type": "banner_image", "created": 1, "image": "images/%2e%2e/%2e%2e/secret"]),
                cardJSON(["id": "script", "type": "banner_image", "created": 1, "image": "javascript:alert(1)"]),
            ].joined(separator: ",") + "]",
        ])
        #expect(loaded.cards.map(\.image) == [.asset("images/here.png"), .asset("images/here.png"), nil, nil, nil, nil])
        #expect(loaded.diagnostics.contains("(id \"missing\")", "no file assets/images/nope.png"))
        #expect(loaded.diagnostics.contains("(id \"escape\")", "outside the site's assets/ folder"))
        #expect(loaded.diagnostics.contains("(id \"encoded\")", "outside the site's assets/ folder"))
        #expect(loaded.diagnostics.contains("(id \"script\")", "\"javascript:\" is not allowed"))
    }
}
