import CardFeedMustache
import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender
@testable import CardFeedWrite


/// A first build writes every feed's pages while the cards render, batch by batch.
@Suite struct PageStreamsTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A feed of the cards at `positions` in the folder `name`, whose front page shows the cards
    /// `front` (indices into `positions`) and whose archive pages the cards of each of `archive`:
    /// `name/page-0.html` (the front page), `name/page-1.html`…
    static func feed(_ name: String, _ positions: [Int], front: [Int], archive: [[Int]] = []) -> PageStreams.FeedPages {
        let pages = ([front] + archive).enumerated().map { FeedPage(cards: $1, path: "\(name)/page-\($0).html") }
        return PageStreams.FeedPages(
            feed: FeedSelection(feed: Feed.builtin[0], cards: positions, front: pages[0], archive: Array(pages.dropFirst()))
        ) { index in try frame("<\(name) {{page}}>\n{{#cards}}{{{.}}}\n{{/cards}}</\(name) {{page}}>\n", page: index, cards: pages[index].cards.count) }
    }

    /// `template` rendered as a page's frame, with `cards` cards for its holes.
    static func frame(_ template: String, page: Int, cards: Int) throws -> PageFrame {
        final class Page: MustacheObject {
            let page: Int
            let cards: Int
            init(page: Int, cards: Int) {
                self.page = page
                self.cards = cards
            }
            func value(for name: MustacheName) -> MustacheValue? {
                switch name.string {
                case "page": .int(page)
                case "cards": .deferredList(count: cards)
                default: nil
                }
            }
        }
        return PageFrame(try MustacheLibrary(escape: HTMLEscaping.append).render(try MustacheTemplate(template), .object(Page(page: page, cards: cards)), name: "page"))
    }

    static func bytes(_ cards: [String]) -> [[UInt8]] { cards.map { Array($0.utf8) } }

    static func read(_ output: MemoryOutput, _ path: String) -> String? {
        output.files[path].map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func everyFeedsPagesAreWrittenAsBatchesArrive() throws {
        let folder = MemoryOutput()
        let streams = try PageStreams([
            // The front page and the archive, written side by side.
            Self.feed("all", [0, 1, 2, 3, 4, 5, 6], front: [0, 1, 2], archive: [[0, 1], [2, 3, 4], [5, 6]]),
            Self.feed("odd", [1, 3], front: [0], archive: [[0], [1]]),  // pages that begin and end inside batches
            Self.feed("gap", [0, 6], front: [0, 1]),  // a batch with none of its cards in between
            Self.feed("none", [], front: []),
            // The card at 0 is pinned: the first to arrive, it stands at its date in the archive.
            Self.feed("pinned", [0, 2, 4, 6], front: [0, 1, 2], archive: [[1, 0], [2], [3]]),
            Self.feed("later", [0, 2, 4, 6], front: [0, 1, 2], archive: [[1], [2, 0], [3]]),
        ], into: folder)
        try streams.append(Self.bytes(["a", "b", "c"]), at: 0..<3)  // the all feed's second page begins in this batch
        try streams.append(Self.bytes(["d", "e"]), at: 3..<5)
        try streams.append(Self.bytes(["f", "g"]), at: 5..<7)
        try streams.finish()
        #expect(Self.read(folder, "all/page-0.html") == "<all 0>\na\nb\nc\n</all 0>\n")
        #expect(Self.read(folder, "all/page-1.html") == "<all 1>\na\nb\n</all 1>\n")
        #expect(Self.read(folder, "all/page-2.html") == "<all 2>\nc\nd\ne\n</all 2>\n")
        #expect(Self.read(folder, "all/page-3.html") == "<all 3>\nf\ng\n</all 3>\n")
        #expect(Self.read(folder, "odd/page-0.html") == "<odd 0>\nb\n</odd 0>\n")
        #expect(Self.read(folder, "odd/page-1.html") == "<odd 1>\nb\n</odd 1>\n")
        #expect(Self.read(folder, "odd/page-2.html") == "<odd 2>\nd\n</odd 2>\n")
        #expect(Self.read(folder, "gap/page-0.html") == "<gap 0>\na\ng\n</gap 0>\n")
        // A feed without cards is one page, written whole.
        #expect(Self.read(folder, "none/page-0.html") == "<none 0>\n</none 0>\n")
        #expect(Self.read(folder, "pinned/page-0.html") == "<pinned 0>\na\nc\ne\n</pinned 0>\n")
        #expect(Self.read(folder, "pinned/page-1.html") == "<pinned 1>\nc\na\n</pinned 1>\n")
        #expect(Self.read(folder, "pinned/page-2.html") == "<pinned 2>\ne\n</pinned 2>\n")
        #expect(Self.read(folder, "later/page-2.html") == "<later 2>\ne\na\n</later 2>\n")
        #expect(Self.read(folder, "later/page-3.html") == "<later 3>\ng\n</later 3>\n")
    }

    @Test func aPageThatExistsAlreadyIsAnErrorNamedByItsPathInTheOutput() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try OutputTransaction(output: folder.appendingPathComponent("public"))
        let streams = try PageStreams([Self.feed("all", [0, 1], front: [0, 1], archive: [[0], [1]])], into: output)
        let staged = URL(fileURLWithPath: output.staging + "/all/page-2.html")
        try "kept".write(to: staged, atomically: false, encoding: .utf8)
        let error = try #require(throws: OutputError.self) { try streams.append(Self.bytes(["a", "b"]), at: 0..<2) }
        #expect(error.description == "cannot write all/page-2.html: File exists")
        #expect(try String(contentsOf: staged, encoding: .utf8) == "kept")
        output.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "nothing left beside the output")
    }

    @Test func aFrameThatShowsItsCardsTwiceGetsThemInBothPlaces() throws {
        let folder = MemoryOutput()
        let pages = [FeedPage(cards: [0, 1], path: "p1.html"), FeedPage(cards: [2], path: "p2.html")]
        let streams = try PageStreams([
            PageStreams.FeedPages(feed: FeedSelection(feed: Feed.builtin[0], cards: [0, 1, 2], front: pages[0], archive: [pages[1]])) { index in
                try Self.frame("[{{#cards}}<{{.}}>{{/cards}}]({{#cards}}{{{.}}},{{/cards}}){{^cards}}none{{/cards}}", page: index + 1, cards: pages[index].cards.count)
            }
        ], into: folder)
        try streams.append(Self.bytes(["a&", "b"]), at: 0..<2)
        try streams.append(Self.bytes(["c"]), at: 2..<3)
        try streams.finish()
        #expect(Self.read(folder, "p1.html") == "[<a&amp;><b>](a&,b,)")
        #expect(Self.read(folder, "p2.html") == "[<c>](c,)")
    }

    /// The whole pipeline, with batches of a few cards: a first build gives the same files as
    /// one batch and as a rebuild over an earlier output (where every page is compared with the
    /// old one as it streams), and the same pages as a site holding a copy of every built-in
    /// template, whatever the batch size and page size.
    @Test(arguments: [(1, 3), (3, 4), (5, 1), (7, 0)])
    func aFirstBuildInBatchesWritesWhatARebuildWrites(_ batchSize: Int, _ pageSize: Int) throws {
        try checkFirstBuildAgainstRebuild(batchSize: batchSize, pageSize: pageSize)
    }

    @Test func aSiteTitleWithPageNumbersInIt() throws {
        try checkFirstBuildAgainstRebuild(batchSize: 4, pageSize: 1, config: "title: \"Issue 22 of the Daily 22\"\n")
    }

    func checkFirstBuildAgainstRebuild(batchSize: Int, pageSize: Int, config: String? = nil) throws {
        let categories = ["news", "social", "advertising", "announcements"]
        let cards = (1...23).map { number in
            cardJSON([
                "id": "c\(number)", "type": "text_announcement", "created": number, "pinned": number % 7 == 0,
                "description": "card **\(number)**",
                "categories": number % 5 == 0 ? [] : categories.enumerated().filter { number % ($0.offset + 2) == 0 }.map(\.element),
            ])
        }
        var files = ["cards.json": "[" + cards.joined(separator: ",") + "]"]
        if let config { files["cardfeed.yml"] = config }
        let site = try TempSite(files)
        defer { site.remove() }
        // The same site with every built-in template overridden by its own text.
        let mustacheSite = try PageTemplateTests.copyWithEveryTemplateOverridden(site.root)
        defer { try? FileManager.default.removeItem(at: mustacheSite) }
        func build(_ output: URL, batchSize: Int, site root: URL? = nil) throws -> [String: Data] {
            var options = site.options(pageSize: pageSize)
            if let root { options.site = SiteFolder(root.path) }
            options.renderBatchSize = batchSize
            _ = try SiteBuilder(options: options, destination: .folder(output), logger: .quiet).run()
            return try OutputSafetyTests.tree(output)
        }
        let fresh = try build(site.root.appendingPathComponent("fresh"), batchSize: batchSize)
        let oneBatch = try build(site.root.appendingPathComponent("one"), batchSize: 4096)
        let rebuilt = site.root.appendingPathComponent("rebuilt")
        try FileManager.default.createDirectory(at: rebuilt, withIntermediateDirectories: true)
        try Data(SiteWriter.markerText.utf8).write(to: rebuilt.appendingPathComponent(SiteWriter.markerName))
        #expect(fresh.keys.contains("news/index.html") && fresh.keys.contains("uncategorized/index.html"))
        #expect(Self.differing(fresh, oneBatch) == [])
        #expect(Self.differing(fresh, try build(rebuilt, batchSize: batchSize)) == [])
        let mustache = try build(mustacheSite.appendingPathComponent("public"), batchSize: batchSize, site: mustacheSite)
        let pages = { (tree: [String: Data]) in tree.filter { $0.key.hasSuffix(".html") } }
        #expect(pages(fresh).count >= 6)  // every feed
        #expect(Self.differing(pages(fresh), pages(mustache)) == [])
    }

    /// The paths of files that differ between two trees, or are in one only.
    static func differing(_ a: [String: Data], _ b: [String: Data]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }
}
