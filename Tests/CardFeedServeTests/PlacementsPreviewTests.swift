import Testing
import CardFeedBuild

@testable import CardFeedServe

/// `serve`'s placements preview on a site in several languages: a page per language's tree, the
/// default language's at /_cardfeed/placements/, each other at its folder below.
struct PlacementsPreviewTests {
    let trees = [
        PlacementTree(language: "en", languageName: "English", folder: ""),
        PlacementTree(language: "de", languageName: "Deutsch", folder: "de"),
    ]

    @Test func eachTreeHasItsPage() {
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/", trees: trees) == .page(trees[0]))
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/de/", trees: trees) == .page(trees[1]))
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/de", trees: trees) == .moved(to: "/_cardfeed/placements/de/"))
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/fr/", trees: trees) == nil)
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/de/x", trees: trees) == nil)
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/", trees: []) == .page(nil))
    }

    @Test func theDefaultLanguageInAFolderIsAtBothAddresses() {
        let inFolders = [PlacementTree(language: "en", languageName: "English", folder: "en"), trees[1]]
        #expect(PlacementsPreview.answer(to: "/_cardfeed/placements/en/", trees: inFolders) == .page(inFolders[0]))
        #expect(PlacementsPreview.address(of: inFolders[0], among: inFolders) == "/_cardfeed/placements/")
        #expect(PlacementsPreview.address(of: inFolders[1], among: inFolders) == "/_cardfeed/placements/de/")
    }
}
