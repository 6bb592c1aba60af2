import Foundation
import CardFeedModel

/// Search on a site in several languages. Pagefind keeps an index a language, and its script
/// searches the one of the page's `<html lang>` (the language's first part when it has no index
/// for the whole tag, else its largest language's). The cards of one tree go in their tree's
/// language as a site in one language's do; those of several each go in the index of their
/// document's `<html lang>`, which the `search_document` template gives as their tree's pages
/// give it (`{{lang}}`), so that each tree's box finds that tree's cards only.
extension SearchIndex {
    /// The language Pagefind puts every document in: that of the only tree with cards (always
    /// so on a site in one language); nil with several, whose documents each say theirs.
    var forcedLanguage: String? { trees.count == 1 ? trees[0].language : nil }

    /// The search documents Pagefind reads, those of every tree with cards.
    var glob: String { Self.glob(trees: trees.map(\.folder)) }

    /// The languages of each part (`SearchParts.trees`), as Pagefind names its indexes ("pt-BR"
    /// is "pt-br"), sorted; nil for an index in one language.
    func partLanguages(_ parts: SearchParts) -> [[String]]? {
        guard forcedLanguage == nil else { return nil }
        return parts.trees.map { part in part.map { trees[$0].language.lowercased() }.sorted() }
    }

    /// Each part of `numbers` of the index of several trees has an index for each language
    /// `expected` gives it (`partLanguages`) and for no other: a document in another language than its tree's (a
    /// site's own `search_document` that does not give the tree's `lang`) would be found by no
    /// box, or answer a language's searches in its stead.
    func checkLanguages(in bundle: URL, expected: [[String]]?, parts numbers: [Int]) throws(Pagefind.Failure) {
        guard let expected else { return }
        for number in numbers {
            let languages = expected[number]
            let name = (number == 0 ? "" : "part-\(number + 1)/") + "pagefind-entry.json"
            guard let data = try? Data(contentsOf: bundle.appendingPathComponent(name)),
                  let entry = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let found = entry["languages"] as? [String: Any] else {
                throw Pagefind.Failure(description: "cannot read the languages of Pagefind's \(Pagefind.folder)/\(name)")
            }
            guard found.keys.sorted() == languages else {
                throw Pagefind.Failure(description: "the search documents are in \(found.keys.sorted().joined(separator: ", ")), where the site's languages with cards are \(languages.joined(separator: ", "))\(number == 0 ? "" : " in part \(number + 1)"); a site's own templates/search_document.mustache must keep <html lang=\"{{lang}}\">, which puts each card in the index of its language's search box", template: "search_document")
            }
        }
    }
}
