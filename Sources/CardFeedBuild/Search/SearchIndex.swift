import Foundation
import CardFeedModel
import CardFeedSystem
import Synchronization

/// A build's search index to make, with the Pagefind that makes it: the card pages it indexes,
/// in a folder on disk. A step of `build`, run on the staged output before it is committed; or
/// what a build leaves in its report for `serve` to index after showing the pages.
///
/// A large site is indexed in parts of at most `defaultPartSize` cards on average (see
/// `SearchParts`), a few at a time, each by a
/// Pagefind run of its own: one run over 100,000 pages kept 4.3 GB in memory and used little more
/// than one core, while parts run side by side use every core (docs/performance.md, "Search").
/// A card's part is chosen by its page's path (`SearchParts`), so that with a build cache only
/// the parts whose cards changed are indexed again: the others are kept as the last build made
/// them (`kept`). The first part is the index in `pagefind/`; each other is a Pagefind index in
/// `pagefind/part-N/`, which the search box merges into the first (`cardfeed-parts.json` lists
/// them).
///
/// A site in several languages has one index with an index a language in it (Pagefind's
/// multilingual mode): each search document carries its tree's language as its `<html lang>`,
/// as the tree's pages do, and the search box, which loads `pagefind/` at the site's root from
/// every page, searches the index of its page's `<html lang>`. So each tree's box finds that
/// tree's cards only, with the same box, script and index folder as a site in one language
/// (see `SearchIndex+Languages.swift`).
public struct SearchIndex: Sendable, Equatable {
    let pagefind: Pagefind
    /// The folder that holds the search documents: the build's scratch folder, or serve's own.
    var site: String
    /// The language trees whose cards are indexed: the root's alone for a site in one language.
    /// A tree without cards is left out, and its pages have no search box: Pagefind would
    /// answer a language it has no index for with its largest language's cards.
    let trees: [Tree]
    /// How many cards the index holds, a page each.
    package let count: Int
    /// The documents (relative to `site`) cut into parts, as the build planned them; nil to read
    /// the documents from the folder and cut them into parts of `partSize`.
    var planned: SearchParts?
    /// With a build cache: each part's key (`SearchParts.keys`), by which its files were made.
    var partKeys: [Int]?
    /// The parts the output has as the last build made them, from the same documents: their
    /// documents are not written and they are not made again.
    var kept: Set<Int> = []
    /// The files of the parts kept in the output, by their paths in the output, with their keys.
    var keptFiles: [String: Int] = [:]
    /// The files of the parts kept that the output did not have, taken from the build cache
    /// (`SearchPartStore`): their bytes, by their paths in the output.
    var storedFiles: [String: Data] = [:]

    /// What a part's index is made with besides its documents, for its key: the Pagefind, and
    /// the language trees it is told of.
    var identity: [String] {
        [pagefind.version, forcedLanguage ?? ""] + trees.map { $0.folder + "=" + $0.language }
    }

    /// The language trees' search documents are in their `cards/` folders, as their pages are.
    struct Tree: Sendable, Equatable {
        /// "" for the tree at the root, else "de".
        var folder: String
        /// Its pages' `<html lang>`, which its documents carry too.
        var language: String
    }

    /// The pages Pagefind reads: each card's search document, in its tree's `cards/` folder.
    package static func glob(trees: [String]) -> String {
        let folders = trees.map(PagePaths.cardPagesFolder(tree:))
        return (folders.count == 1 ? folders[0] : "{" + folders.joined(separator: ",") + "}") + "/card-*.html"
    }

    /// Cards a part, on average at most (half as many at least, see `SearchParts`): small enough
    /// that indexing one part again after a card changed takes about a second (1.2 s for 4,000
    /// cards, where parts of 12,500 took 4.3 s), large enough that a query fetches few parts'
    /// files (docs/search.md, "In the build and in serve").
    package static let defaultPartSize = 4_000
    var partSize = SearchIndex.configuredPartSize

    /// `CARDFEED_SEARCH_PART_SIZE`, when it is a whole number above 0, else `defaultPartSize`: a
    /// small site's index in several parts, for its tests (docs/search.md).
    static let configuredPartSize = ProcessInfo.processInfo.environment["CARDFEED_SEARCH_PART_SIZE"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? defaultPartSize

    /// Parts indexed at the same time at most (and no more than the machine's cores): the memory
    /// a build with search takes is about this many parts' (some 200 MB each), far under what one
    /// run over 100,000 pages took.
    package static let partsAtOnce = 3

    /// The file in `pagefind/` that lists the other parts' folders, relative to it, for the
    /// search box to merge: `{"parts":["part-2/","part-3/"]}`, `[]` for an index of one part;
    /// on a site in several languages each part's languages too, which the box merges only into
    /// a search in one of them (`{"parts":["part-2/"],"languages":{"part-2/":["en"]}}`).
    package static let partsFile = "cardfeed-parts.json"

    /// `partsFile`'s text for an index of `parts` (by number, the first 0); `languages` (each
    /// part's, as Pagefind names them) nil for an index in one language.
    static func partsList(parts: [Int], languages: [[String]]?) -> String {
        let others = parts.filter { $0 > 0 }
        let names = others.map { "\"\(SearchParts.folder($0))\"" }
        var list = "{\"parts\":[" + names.joined(separator: ",") + "]"
        if let languages, !names.isEmpty {
            let each = zip(names, others).map { name, part in name + ":[" + languages[part].map { "\"\($0)\"" }.joined(separator: ",") + "]" }
            list += ",\"languages\":{" + each.joined(separator: ",") + "}"
        }
        return list + "}\n"
    }

    /// How the documents are cut into parts.
    func parts() throws(Pagefind.Failure) -> SearchParts {
        if let planned { return planned }
        return SearchParts(try Self.cardPages(in: site, trees: trees.map(\.folder)), size: partSize)
    }

    /// Whether the file at `path` (relative to the output) is one the index reads, so that a
    /// build that changed none of them need not be indexed again.
    package func reads(_ path: String) -> Bool {
        guard let slash = path.lastIndex(of: "/") else { return false }
        return Self.isCardPage(path[path.index(after: slash)...]) && trees.contains { PagePaths.cardPagesFolder(tree: $0.folder) == path[..<slash] }
    }

    /// Whether a file of a `cards/` folder is a card's page (or search document), by its name.
    private static func isCardPage(_ name: Substring) -> Bool {
        name.hasPrefix("card-") && name.hasSuffix(".html")
    }

    /// Runs Pagefind into `bundle`, a folder that does not exist yet, once a part that is not
    /// `kept`; in the `background`, at the lowest CPU priority; each run one of `runs`, which can
    /// end them all early (see `Pagefind.index`). The bundle's files are those of the parts it
    /// made, and `partsFile`.
    package func make(into bundle: URL, background: Bool = false, runs: ChildProcesses = ChildProcesses()) throws(Pagefind.Failure) -> Pagefind.Bundle {
        let parts = try self.parts()
        let toMake = parts.numbers.filter { !kept.contains($0) }
        let made: [(number: Int, bundle: Pagefind.Bundle)]
        if parts.count == 1, toMake == [0] {
            made = [(0, try pagefind.index(site: site, glob: glob, language: forcedLanguage, into: bundle, background: background, process: runs.make()))]
        } else {
            made = try makeParts(toMake, of: parts, into: bundle, background: background, runs: runs)
        }
        let languages = partLanguages(parts)
        try checkLanguages(in: bundle, expected: languages, parts: toMake)
        let list = Self.partsList(parts: parts.numbers, languages: languages)
        do { try Data(list.utf8).write(to: bundle.appendingPathComponent(Self.partsFile)) } catch {
            throw Pagefind.Failure(description: "cannot write \(Self.partsFile) in \(bundle.path): \(error.localizedDescription)")
        }
        // Each run listed (and checked) its own files: part 1's are in `bundle`, part N's in `part-N/`.
        let files = made.flatMap { number, part in part.files.map { SearchParts.folder(number) + $0 } }
        let counted = made.compactMap(\.bundle.pages)
        return Pagefind.Bundle(folder: bundle, files: (files + [Self.partsFile]).sorted(), pages: counted.count == made.count ? counted.reduce(0, +) : nil, parts: made.count)
    }

    /// The pages of each part of `numbers` put in a folder of their own (hard links to the pages,
    /// in `bundle`'s `.pages-N/`, removed after), and indexed, a few parts at a time, part N
    /// into `bundle/part-N/`, then part 1 moved up into `bundle`. A run that fails stops the
    /// others.
    private func makeParts(_ numbers: [Int], of parts: SearchParts, into bundle: URL, background: Bool, runs: ChildProcesses) throws(Pagefind.Failure) -> [(number: Int, bundle: Pagefind.Bundle)] {
        do { try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true) } catch {
            throw Pagefind.Failure(description: "cannot create \(bundle.path): \(error.localizedDescription)")
        }
        let width = min(Self.partsAtOnce, max(1, ProcessInfo.processInfo.activeProcessorCount), numbers.count)
        let next = Atomic(0)
        let results = Mutex([Result<Pagefind.Bundle, Pagefind.Failure>?](repeating: nil, count: numbers.count))
        Parallel.perform(iterations: width) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < numbers.count, !runs.stopped else { return }
                let number = numbers[index]
                let result = Result { () throws(Pagefind.Failure) -> Pagefind.Bundle in
                    let pagesFolder = bundle.appendingPathComponent(".pages-\(number + 1)", isDirectory: true)
                    defer { try? FileManager.default.removeItem(at: pagesFolder) }
                    try Self.link(parts.pages[number], from: site, into: pagesFolder)
                    let output = bundle.appendingPathComponent("part-\(number + 1)", isDirectory: true)
                    return try pagefind.index(site: pagesFolder.path, glob: glob, language: forcedLanguage, into: output,
                                              published: Pagefind.folder + (number == 0 ? "" : "/part-\(number + 1)"), background: background, process: runs.make())
                }
                if case .failure(let failure) = result, !failure.wasStopped { runs.stop() }
                results.withLock { $0[index] = result }
            }
        }
        let finished = results.withLock { $0 }
        // The failure that stopped the others, rather than theirs.
        if let failure = finished.lazy.compactMap({ result -> Pagefind.Failure? in
            if case .failure(let failure) = result, !failure.wasStopped { return failure } else { return nil }
        }).first {
            throw failure
        }
        var made: [(number: Int, bundle: Pagefind.Bundle)] = []
        for (number, result) in zip(numbers, finished) {
            guard case .success(let bundle) = result else { throw Pagefind.Failure(description: "stopped", wasStopped: true) }
            made.append((number, bundle))
        }
        // Part 1 is the index itself: its files move up into `bundle` (written beside the
        // others', it would have listed their folders as they were being filled).
        guard numbers.contains(0) else { return made }
        let first = bundle.appendingPathComponent("part-1", isDirectory: true)
        do {
            for name in try FileManager.default.contentsOfDirectory(atPath: first.path) {
                try FileManager.default.moveItem(at: first.appendingPathComponent(name), to: bundle.appendingPathComponent(name))
            }
            try FileManager.default.removeItem(at: first)
        } catch {
            throw Pagefind.Failure(description: "cannot move the first part of the index into \(bundle.path): \(error.localizedDescription)")
        }
        return made
    }

    /// Each tree's card pages in `site`, relative to it ("de/cards/card-x.html"), sorted by
    /// name: the same pages give the same parts.
    static func cardPages(in site: String, trees: [String]) throws(Pagefind.Failure) -> [[String]] {
        var pages: [[String]] = []
        for folder in trees.map(PagePaths.cardPagesFolder(tree:)) {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: site + "/" + folder)
                pages.append(names.filter { isCardPage($0[...]) }.map { folder + "/" + $0 }.sorted())
            } catch {
                throw Pagefind.Failure(description: "cannot list the card pages in \(site)/\(folder): \(error.localizedDescription)")
            }
        }
        return pages
    }

    /// Hard links in `folder` to the pages of `site` at the same relative paths (a copy where
    /// the two are on different file systems).
    static func link(_ pages: [String], from site: String, into folder: URL) throws(Pagefind.Failure) {
        for subfolder in Set(pages.map { PagePaths.folder($0) }).sorted() {
            let created = folder.appendingPathComponent(subfolder, isDirectory: true)
            do { try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true) } catch {
                throw Pagefind.Failure(description: "cannot create \(created.path): \(error.localizedDescription)")
            }
        }
        for page in pages {
            let (from, to) = (site + "/" + page, folder.path + "/" + page)
            if Foundation.link(from, to) == 0 { continue }
            do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
                throw Pagefind.Failure(description: "cannot put \(from) in a part of the index: \(error.localizedDescription)")
            }
        }
    }
}
