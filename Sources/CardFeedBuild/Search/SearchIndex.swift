import CardFeedRender
import CardFeedWrite

/// A build's cards to index for search, with the Pagefind that indexes them: a step of the
/// build, or what a build leaves in its report for `serve` to index after showing the pages.
public struct SearchIndex: Sendable, Equatable {
    let pagefind: Pagefind
    let records: [SearchRecord]
    /// The pages' language (see `Pagefind.index`).
    let language: String

    /// The index's files, for the output's `pagefind/` folder.
    package func files() throws(Pagefind.Failure) -> [OutputFile] {
        try pagefind.index(records, language: language)
    }

    /// How many cards it holds.
    package var count: Int { records.count }
}
