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

    /// Each part of the index of several trees has an index for each tree's language and for no
    /// other: a part without one would answer that language's searches with another's cards, and
    /// a document in another language (a site's own `search_document` that does not give the
    /// tree's `lang`) would be found by no box, or answer a language's searches in its stead.
    func checkLanguages(in bundle: URL, parts: Int) throws(Pagefind.Failure) {
        guard forcedLanguage == nil else { return }
        // As Pagefind names its indexes: "pt-BR" is "pt-br".
        let expected = Set(trees.map { $0.language.lowercased() })
        for part in 1...max(parts, 1) {
            let name = (part == 1 ? "" : "part-\(part)/") + "pagefind-entry.json"
            guard let data = try? Data(contentsOf: bundle.appendingPathComponent(name)),
                  let entry = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let languages = entry["languages"] as? [String: Any] else {
                throw Pagefind.Failure(description: "cannot read the languages of Pagefind's \(Pagefind.folder)/\(name)")
            }
            let found = Set(languages.keys)
            guard found == expected else {
                throw Pagefind.Failure(description: "the search documents are in \(found.sorted().joined(separator: ", ")), where the site's languages with cards are \(expected.sorted().joined(separator: ", ")); a site's own templates/search_document.mustache must keep <html lang=\"{{lang}}\">, which puts each card in the index of its language's search box")
            }
        }
    }
}
