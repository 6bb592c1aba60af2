import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect

/// Which language's pages each card of a site with `languages:` goes to (`LanguageTrees`).
@Suite struct LanguageTreesTests {
    func card(_ id: String, language: String?) -> Card {
        var card = Card(id: id, type: .textAnnouncement, source: CardSource(file: "cards.json", index: 0, order: 0))
        card.language = language
        return card
    }

    let languages = SiteLanguages(tags: ["en", "de", "pt-BR"], file: "cardfeed.yml", line: 1, column: 12)

    @Test func aCardGoesToItsLanguageByTheFirstPartOfTheTag() {
        let trees = LanguageTrees(languages)
        #expect(trees.assignment(card("a", language: "de-AT")).trees == [1])
        #expect(trees.assignment(card("b", language: "DE")).trees == [1])
        #expect(trees.assignment(card("c", language: "pt")).trees == [2])
        #expect(trees.assignment(card("d", language: "en")).reason == .itsLanguage("en"))
    }

    @Test func aCardWithoutALanguageGoesToTheDefaultOrToEvery() {
        #expect(LanguageTrees(languages).assignment(card("a", language: nil)) == ([0], .untagged(every: false)))
        var every = languages
        every.untagged = .every
        #expect(LanguageTrees(every).assignment(card("a", language: nil)) == ([0, 1, 2], .untagged(every: true)))
    }

    @Test func aCardInALanguageNotListedGoesToTheDefaultWithAWarning() {
        let trees = LanguageTrees(languages)
        let french = card("fr", language: "fr-CA")
        #expect(trees.assignment(french) == ([0], .unlisted("fr-CA")))
        let warnings = trees.warnings([french, card("de", language: "de")]) { _ in false }
        #expect(warnings.count == 1)
        #expect(warnings.first?.field == "language" && warnings.first?.cardID == "fr")
        #expect(warnings.first?.message.hasPrefix("\"fr-CA\" is not one of the site's languages; the card is shown in the default language's pages (en)") == true)
        // A card hidden anyway (expired, say) is not warned about, and counted once, in the default's.
        #expect(trees.warnings([french]) { _ in true }.isEmpty)
        #expect(trees.partition([card("x", language: "de")]) { _ in true }.map(\.count) == [1, 0, 0])
    }

    @Test func theDefaultLanguageIsAtTheRootUnlessItHasAFolder() {
        #expect(languages.folder(0) == "" && languages.folder(1) == "de" && languages.folder(2) == "pt-br")
        var inFolder = languages
        inFolder.defaultInFolder = true
        #expect(inFolder.folder(0) == "en")
    }
}
