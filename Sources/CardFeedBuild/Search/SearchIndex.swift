import Foundation
import CardFeedModel
import Synchronization

/// A build's search index to make, with the Pagefind that makes it: the card pages it indexes,
/// in a folder on disk. A step of `build`, run on the staged output before it is committed; or
/// what a build leaves in its report for `serve` to index after showing the pages.
///
/// A large site is indexed in parts of at most `defaultPartSize` cards, a few at a time, each by a
/// Pagefind run of its own: one run over 100,000 pages kept 4.3 GB in memory and used little more
/// than one core, while parts of 12,500 take some 560 MB each and, side by side, every core
/// (docs/performance.md, "Search"). The first part is the index in `pagefind/`; each other is a
/// Pagefind index in `pagefind/part-N/`, which the search box merges into the first
/// (`cardfeed-parts.json` lists them).
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

    /// Cards a part at most.
    package static let defaultPartSize = 12_500
    var partSize = SearchIndex.defaultPartSize

    /// Parts indexed at the same time at most (and no more than the machine's cores): the memory
    /// a build with search takes is about this many parts' (some 580 MB each), under half of what
    /// one run over 100,000 pages took.
    package static let partsAtOnce = 3

    /// The file in `pagefind/` that lists the other parts' folders, relative to it, for the
    /// search box to merge: `{"parts":["part-2/","part-3/"]}`, `[]` for an index of one part.
    package static let partsFile = "cardfeed-parts.json"

    /// Whether the file at `path` (relative to the output) is one the index reads, so that a
    /// build that changed none of them need not be indexed again.
    package static func reads(_ path: String) -> Bool {
        path.hasPrefix("cards/card-") && path.hasSuffix(".html") && !path.dropFirst("cards/".count).contains("/")
    }

    /// Runs Pagefind into `bundle`, a folder that does not exist yet, once a part; in the
    /// `background`, at the lowest CPU priority; each run one of `runs`, which can end them all
    /// early (see `Pagefind.index`).
    package func make(into bundle: URL, background: Bool = false, runs: ChildProcesses = ChildProcesses()) throws(Pagefind.Failure) -> Pagefind.Bundle {
        let pages = try Self.cardPages(in: site)
        let parts = Self.split(pages, size: partSize)
        let made: [Pagefind.Bundle]
        if parts.count <= 1 {
            made = [try pagefind.index(site: site, glob: Self.glob, language: language, into: bundle, background: background, process: runs.make())]
        } else {
            made = try makeParts(parts, into: bundle, background: background, runs: runs)
        }
        let names = (1..<max(parts.count, 1)).map { "part-\($0 + 1)/" }
        let list = "{\"parts\":[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]}\n"
        do { try Data(list.utf8).write(to: bundle.appendingPathComponent(Self.partsFile)) } catch {
            throw Pagefind.Failure(description: "cannot write \(Self.partsFile) in \(bundle.path): \(error.localizedDescription)")
        }
        // Each run listed (and checked) its own files: part 1's are in `bundle`, part N's in `part-N/`.
        let files = made.enumerated().flatMap { number, part in part.files.map { number == 0 ? $0 : "part-\(number + 1)/" + $0 } }
        let counted = made.compactMap(\.pages)
        return Pagefind.Bundle(folder: bundle, files: (files + [Self.partsFile]).sorted(), pages: counted.count == made.count ? counted.reduce(0, +) : nil)
    }

    /// Each part's pages put in a folder of their own (hard links to the pages, in `bundle`'s
    /// `.pages-N/`, removed after), and indexed, a few parts at a time, part N into
    /// `bundle/part-N/`, then part 1 moved up into `bundle`. A run that fails stops the others.
    private func makeParts(_ parts: [ArraySlice<String>], into bundle: URL, background: Bool, runs: ChildProcesses) throws(Pagefind.Failure) -> [Pagefind.Bundle] {
        let width = min(Self.partsAtOnce, max(1, ProcessInfo.processInfo.activeProcessorCount), parts.count)
        let next = Atomic(0)
        let results = Mutex([Result<Pagefind.Bundle, Pagefind.Failure>?](repeating: nil, count: parts.count))
        Parallel.perform(iterations: width) { _ in
            while true {
                let number = next.add(1, ordering: .relaxed).oldValue
                guard number < parts.count, !runs.stopped else { return }
                let result = Result { () throws(Pagefind.Failure) -> Pagefind.Bundle in
                    let pagesFolder = bundle.appendingPathComponent(".pages-\(number + 1)", isDirectory: true)
                    defer { try? FileManager.default.removeItem(at: pagesFolder) }
                    try Self.link(parts[number], from: site, into: pagesFolder)
                    let output = bundle.appendingPathComponent("part-\(number + 1)", isDirectory: true)
                    return try pagefind.index(site: pagesFolder.path, glob: Self.glob, language: language, into: output,
                                              published: Pagefind.folder + (number == 0 ? "" : "/part-\(number + 1)"), background: background, process: runs.make())
                }
                if case .failure(let failure) = result, !failure.wasStopped { runs.stop() }
                results.withLock { $0[number] = result }
            }
        }
        let finished = results.withLock { $0 }
        // The failure that stopped the others, rather than theirs.
        if let failure = finished.lazy.compactMap({ result -> Pagefind.Failure? in
            if case .failure(let failure) = result, !failure.wasStopped { return failure } else { return nil }
        }).first {
            throw failure
        }
        var made: [Pagefind.Bundle] = []
        for result in finished {
            guard case .success(let bundle) = result else { throw Pagefind.Failure(description: "stopped", wasStopped: true) }
            made.append(bundle)
        }
        // Part 1 is the index itself: its files move up into `bundle` (written beside the
        // others', it would have listed their folders as they were being filled).
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

    /// The card pages in `site`, sorted by name: the same pages give the same parts.
    static func cardPages(in site: String) throws(Pagefind.Failure) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: site + "/cards").filter { reads("cards/" + $0) }.sorted()
        } catch {
            throw Pagefind.Failure(description: "cannot list the card pages in \(site)/cards: \(error.localizedDescription)")
        }
    }

    /// The pages in parts of at most `size`, as even as can be.
    static func split(_ pages: [String], size: Int) -> [ArraySlice<String>] {
        let count = (pages.count + size - 1) / size
        guard count > 1 else { return [pages[...]] }
        return (0..<count).map { part in pages[(pages.count * part / count)..<(pages.count * (part + 1) / count)] }
    }

    /// Hard links in `folder/cards/` to the named pages of `site/cards/` (a copy where the two
    /// are on different file systems).
    static func link(_ names: ArraySlice<String>, from site: String, into folder: URL) throws(Pagefind.Failure) {
        let cards = folder.appendingPathComponent("cards", isDirectory: true)
        do { try FileManager.default.createDirectory(at: cards, withIntermediateDirectories: true) } catch {
            throw Pagefind.Failure(description: "cannot create \(cards.path): \(error.localizedDescription)")
        }
        for name in names {
            let (from, to) = (site + "/cards/" + name, cards.path + "/" + name)
            if Foundation.link(from, to) == 0 { continue }
            do { try FileManager.default.copyItem(atPath: from, toPath: to) } catch {
                throw Pagefind.Failure(description: "cannot put \(from) in a part of the index: \(error.localizedDescription)")
            }
        }
    }
}
