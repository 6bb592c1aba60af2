import Foundation
import Testing

@testable import CardFeedCore

/// The spool that is the "all" feed's pages: batches of rendered cards cross page boundaries,
/// and other pages copy cards that lie in several of its files.
@Suite struct CardSpoolTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func pages(in folder: URL, cardCounts: [Int]) -> CardSpool.Pages {
        CardSpool.Pages(paths: cardCounts.indices.map { folder.appendingPathComponent("page-\($0 + 1).html").path }, cardCounts: cardCounts) {
            ("<page \($0 + 1)>\n", "</page \($0 + 1)>\n")
        }
    }

    @Test func batchesThatCrossPagesFillEachPageWithItsCards() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = try CardSpool(pages: Self.pages(in: folder, cardCounts: [2, 2, 1]))
        try spool.append(["a", "b", "c"])  // the second page begins inside the batch
        try spool.append(["d", "e"])
        try spool.finishPages()
        let read = { (page: Int) in try String(contentsOf: folder.appendingPathComponent("page-\(page).html"), encoding: .utf8) }
        #expect(try read(1) == "<page 1>\na\nb\n</page 1>\n")
        #expect(try read(2) == "<page 2>\nc\nd\n</page 2>\n")
        #expect(try read(3) == "<page 3>\ne\n</page 3>\n")
        #expect(spool.count == 5 && spool.size == 10)

        // A category's page: consecutive cards on two pages, and scattered ones.
        for positions in [[1, 2, 3], [0, 2, 4], [4], [0, 1, 2, 3, 4]] {
            let copy = folder.appendingPathComponent("copy.html")
            let sink = try OutputSink(path: copy.path)
            try spool.copyEachWithNewline(positions[...], to: sink)
            try sink.finish()
            let expected = positions.map { ["a", "b", "c", "d", "e"][$0] + "\n" }.joined()
            #expect(try String(contentsOf: copy, encoding: .utf8) == expected, "cards \(positions)")
            #expect(try positions.map { try spool.html(at: $0) } == positions.map { ["a", "b", "c", "d", "e"][$0] })
        }
    }

    @Test func aFeedWithoutCardsIsOnePageWrittenWhole() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = try CardSpool(pages: Self.pages(in: folder, cardCounts: [0]))
        try spool.finishPages()
        #expect(try String(contentsOf: folder.appendingPathComponent("page-1.html"), encoding: .utf8) == "<page 1>\n</page 1>\n")
    }

    @Test func aPageThatExistsAlreadyIsAnErrorNotOverwritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "kept".write(to: folder.appendingPathComponent("page-2.html"), atomically: false, encoding: .utf8)
        let spool = try CardSpool(pages: Self.pages(in: folder, cardCounts: [1, 1]))
        #expect(throws: OutputError.self) { try spool.append(["a", "b"]) }
        #expect(try String(contentsOf: folder.appendingPathComponent("page-2.html"), encoding: .utf8) == "kept")
    }

    @Test func longRunsOfCardsAreCopiedFromTheRightPage() throws {
        // Runs of 256 KB or more are copied by the kernel: from the page file they are in.
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cards = ["a", "b", "c", "d", "e", "f"].map { String(repeating: $0, count: 100_000) }
        let spool = try CardSpool(pages: Self.pages(in: folder, cardCounts: [3, 3]))
        try spool.append(cards)
        try spool.finishPages()
        for positions in [[3, 4, 5], [0, 1, 2], [2, 3, 4, 5]] {
            let copy = folder.appendingPathComponent("copy.html")
            let sink = try OutputSink(path: copy.path)
            try spool.copyEachWithNewline(positions[...], to: sink)
            try sink.finish()
            #expect(try String(contentsOf: copy, encoding: .utf8) == positions.map { cards[$0] + "\n" }.joined(), "cards \(positions)")
        }
    }

    @Test func filesAlreadyOpenAreCountedAgainstTheProcessLimit() throws {
        var limit = rlimit()
        #if os(Linux)
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        #expect(CardSpool.descriptorsAvailable(100))
        guard limit.rlim_max < rlim_t(Int32.max), limit.rlim_max > 1000 else { return }  // no limit to run into
        // With 300 more files open, what would fit beside the files open before no longer does.
        let opened = (0..<300).map { _ in open("/dev/null", O_RDONLY) }
        defer { for descriptor in opened { close(descriptor) } }
        #expect(opened.allSatisfy { $0 >= 0 })
        #expect(!CardSpool.descriptorsAvailable(Int(limit.rlim_max) - 256 - 100))
    }
}
