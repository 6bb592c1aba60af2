import Foundation

/// A build's search index to make, with the Pagefind that makes it: the card pages it indexes,
/// in a folder on disk. A step of `build`, run on the staged output before it is committed; or
/// what a build leaves in its report for `serve` to index after showing the pages.
public struct SearchIndex: Sendable, Equatable {
    let pagefind: Pagefind
    /// The folder that holds the pages: the staged output, or the folder `serve` serves.
    let site: String
    /// The pages' language (see `Pagefind.index`).
    let language: String
    /// How many cards the index holds, a page each.
    package let count: Int

    /// The pages Pagefind reads: each card's own page (only they carry `data-pagefind-body`).
    package static let glob = "cards/card-*.html"

    /// Whether the file at `path` (relative to the output) is one the index reads, so that a
    /// build that changed none of them need not be indexed again.
    package static func reads(_ path: String) -> Bool {
        path.hasPrefix("cards/card-") && path.hasSuffix(".html") && !path.dropFirst("cards/".count).contains("/")
    }

    /// The Pagefind that makes it, for messages: "pagefind 1.5.2".
    package var pagefindVersion: String { pagefind.version }

    /// Runs Pagefind into `bundle`, a folder that does not exist yet; in the `background`, at
    /// the lowest CPU priority, as `process`, which can end it early (see `Pagefind.index`).
    package func make(into bundle: URL, background: Bool = false, process: ChildProcess = ChildProcess()) throws(Pagefind.Failure) -> Pagefind.Bundle {
        try pagefind.index(site: site, glob: Self.glob, language: language, into: bundle, background: background, process: process)
    }
}
