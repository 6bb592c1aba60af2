import Foundation
import Testing

@testable import CardFeedCore

/// The two places rendered cards go: the pages themselves, written as the cards render
/// (`PageStreams`), and the spool that pages copy their cards from (`CardSpool`).
@Suite struct CardSpoolTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A feed of the cards at `positions`, `perPage` a page (0: one page), written in `folder`/`name`.
    static func feed(_ name: String, _ positions: [Int], perPage: Int, in folder: URL) -> PageStreams.FeedPages {
        let pages = FeedSelector(now: 0, pageSize: perPage).paginate(positions.count)
        return PageStreams.FeedPages(
            feed: FeedSelection(feed: .all, cards: positions, pages: pages),
            paths: pages.indices.map { folder.appendingPathComponent("\(name)/page-\($0 + 1).html").path }
        ) { ("<\(name) \($0 + 1)>\n", "</\(name) \($0 + 1)>\n") }
    }

    static func read(_ folder: URL, _ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyFeedsPagesAreWrittenAsBatchesArrive() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let streams = try PageStreams([
            Self.feed("all", [0, 1, 2, 3, 4], perPage: 2, in: folder),
            Self.feed("odd", [1, 3], perPage: 1, in: folder),  // pages that begin and end inside batches
            Self.feed("last", [4], perPage: 0, in: folder),
            Self.feed("none", [], perPage: 2, in: folder),
        ])
        try streams.append(["a", "b", "c"], at: 0..<3)  // the all feed's second page begins in this batch
        try streams.append(["d", "e"], at: 3..<5)
        try streams.finish()
        #expect(try Self.read(folder, "all/page-1.html") == "<all 1>\na\nb\n</all 1>\n")
        #expect(try Self.read(folder, "all/page-2.html") == "<all 2>\nc\nd\n</all 2>\n")
        #expect(try Self.read(folder, "all/page-3.html") == "<all 3>\ne\n</all 3>\n")
        #expect(try Self.read(folder, "odd/page-1.html") == "<odd 1>\nb\n</odd 1>\n")
        #expect(try Self.read(folder, "odd/page-2.html") == "<odd 2>\nd\n</odd 2>\n")
        #expect(try Self.read(folder, "last/page-1.html") == "<last 1>\ne\n</last 1>\n")
        // A feed without cards is one page, written whole.
        #expect(try Self.read(folder, "none/page-1.html") == "<none 1>\n</none 1>\n")
    }

    @Test func aPageThatExistsAlreadyIsAnErrorNotOverwritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let streams = try PageStreams([Self.feed("all", [0, 1], perPage: 1, in: folder)])
        try "kept".write(to: folder.appendingPathComponent("all/page-2.html"), atomically: false, encoding: .utf8)
        #expect(throws: OutputError.self) { try streams.append(["a", "b"], at: 0..<2) }
        #expect(try Self.read(folder, "all/page-2.html") == "kept")
    }

    @Test func pagesCopyTheirCardsFromTheSpool() throws {
        // Runs of 256 KB or more are copied by the kernel, shorter ones read a window at a time.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cards = ["a", "b", "c", "d", "e", "f"].enumerated().map { String(repeating: $1, count: $0 < 3 ? 3 : 100_000) }
        for spool in [try CardSpool(folder: folder), CardSpool()] {
            try spool.append(Array(cards[..<4]), at: 0..<4)
            try spool.append(Array(cards[4...]), at: 4..<6)
            #expect(spool.count == 6)
            for positions in [[0, 1, 2], [0, 2, 4], [3, 4, 5], [2, 3, 4, 5], [5]] {
                let copy = folder.appendingPathComponent("copy.html")
                let sink = try OutputSink(path: copy.path)
                try spool.copyEachWithNewline(positions[...], to: sink)
                try sink.finish()
                #expect(try String(contentsOf: copy, encoding: .utf8) == positions.map { cards[$0] + "\n" }.joined(), "\(spool.path): cards \(positions)")
                #expect(try positions.map { try spool.html(at: $0) } == positions.map { cards[$0] })
            }
        }
    }
}
