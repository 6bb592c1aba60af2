import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedSelect
import CardFeedSystem


/// `serve` rebuilds incrementally: cards, pages and files that did not change are reused; so does
/// a build with a cache on disk (`BuildCache`), each build a new `SiteBuilder` as each is a new
/// process. After every kind of edit, the output must be exactly what a fresh build writes.
@Suite struct IncrementalBuildTests {
    static func card(_ number: Int, title: String? = nil, category: String = "news") -> [String: Any] {
        ["id": "c\(number)", "type": "classic", "created": 1_700_000_000 + number, "title": title ?? "Card \(number)",
         "description": "Text of **card \(number)**", "categories": [category]]
    }

    static func cards(_ list: [[String: Any]]) -> String { "[" + list.map(cardJSON).joined(separator: ",") + "]" }

    /// How the builds reuse the last one's work.
    enum Reuse: CaseIterable, CustomStringConvertible {
        /// `serve`'s: caches in memory, the output updated in place.
        case serve
        /// A build's: a cache folder on disk, the output replaced as a whole.
        case disk
        var description: String { self == .serve ? "serve" : "a cache on disk" }
    }

    /// What one sequence of builds reuses from build to build.
    final class Rebuilds: Sendable {
        let reuse: Reuse
        let serve: ServeState
        let cacheFolder: BuildCacheFolder

        init(_ reuse: Reuse, _ site: TempSite) {
            self.reuse = reuse
            serve = ServeState(output: site.output)
            cacheFolder = BuildCacheFolder(site.root.appendingPathComponent(".cardfeed-cache"))
        }

        func build(_ site: TempSite, _ options: BuildOptions) throws -> BuildReport {
            switch reuse {
            case .serve:
                return try SiteBuilder(options: options, destination: .inPlace(serve.output), reusing: serve.reuse, logger: .quiet).run()
            case .disk:
                var options = options
                options.cache = cacheFolder
                return try SiteBuilder(options: options, destination: .folder(site.output), logger: .quiet).run()
            }
        }
    }

    /// Builds `site` reusing what `rebuilds` kept into its output, and freshly into another
    /// folder; expects the two outputs to be identical. Returns the incremental build's report.
    @discardableResult
    static func rebuild(_ site: TempSite, _ rebuilds: Rebuilds, _ step: String) throws -> BuildReport {
        let before = FileManager.default.fileExists(atPath: site.output.path) ? try OutputSafetyTests.tree(site.output) : [:]
        let options = site.options(pageSize: 4)
        let report = try rebuilds.build(site, options)
        if rebuilds.reuse == .disk { #expect(report.cacheNote == nil, "\(step): \(report.cacheNote ?? "")") }
        let fresh = site.root.appendingPathComponent("fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: fresh) }
        _ = try SiteBuilder(options: options, destination: .folder(fresh), logger: .quiet).run()
        let incremental = try OutputSafetyTests.tree(site.output)
        let expected = try OutputSafetyTests.tree(fresh)
        #expect(incremental != before, "\(step) (\(rebuilds.reuse)): the edit changes the site")
        #expect(incremental.keys.sorted() == expected.keys.sorted(), "\(step) (\(rebuilds.reuse)): the same files")
        for (path, bytes) in expected where incremental[path] != bytes {
            Issue.record("\(step) (\(rebuilds.reuse)): \(path) differs from a fresh build's")
        }
        return report
    }

    @Test(arguments: Reuse.allCases) func everyKindOfEditGivesWhatAFreshBuildGives(_ reuse: Reuse) throws {
        var list = (1...30).map { Self.card($0, category: $0 % 3 == 0 ? "social" : "news") }
        let site = try TempSite(["cards.json": Self.cards(list)])
        defer { site.remove() }
        let caches = Rebuilds(reuse, site)
        try Self.rebuild(site, caches, "first build")

        list[29] = Self.card(30, title: "A new title", category: "social")
        try site.write("cards.json", Self.cards(list))
        let edited = try Self.rebuild(site, caches, "one title")
        #expect(edited.filesWritten <= 5, "the card's front page and archive page, in all and in its feed, and its own page")
        switch reuse {
        case .serve:
            #expect(caches.serve.cards.madeByLastBuild == 1)
            #expect(caches.serve.output.lastChanged.filter { $0.hasPrefix("cards/") } == ["cards/card-c30.html"])
        case .disk:
            #expect(edited.cardsReused == 29)
        }

        list.append(Self.card(31))
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "a new newest card")

        list.remove(at: 3)
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "a card removed")

        let ending = try #require(list.firstIndex { PageEnds.endsPage($0["id"] as! String, pageSize: 4) })
        list.remove(at: ending)
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "a card that ends a page removed: its page merges with the next newer one")

        list[5]["pinned"] = true
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "an old card pinned: first on the front pages, at its date in the archive")

        list[10] = Self.card(11, category: "advertising")
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "a card moved to another feed")

        try site.write("cardfeed.yml", "title: Another title\n")
        try Self.rebuild(site, caches, "the site title")

        try site.write("cardfeed.yml", "title: Another title\ncard_pages: false\n")
        try Self.rebuild(site, caches, "card pages turned off: they go, permalinks name the feeds' pages")
        try site.write("cardfeed.yml", "title: Another title\n")
        try Self.rebuild(site, caches, "card pages turned on again")

        try site.write("assets/custom.css", "body { margin: 0 }\n")
        try Self.rebuild(site, caches, "a stylesheet added")

        try site.write("strings/en.json", "{\"feedNews\": \"Tidings\"}\n")
        try Self.rebuild(site, caches, "a string")

        try site.write("templates/cards/text_announcement.mustache", "<article data-card-id=\"{{id}}\">{{title}}</article>\n")
        try Self.rebuild(site, caches, "a card template")

        list = Array(list.prefix(2))
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "most cards gone: pages removed")

        list.append(["id": "pic", "type": "captioned_image", "created": 1_700_000_100, "title": "Picture", "description": "d",
                     "image": "images/pic.png", "categories": ["news"]])
        try site.write("assets/images/pic.png", Self.png(width: 40, height: 30))
        try site.write("cards.json", Self.cards(list))
        try Self.rebuild(site, caches, "a card with an image of the site")
        try site.write("assets/images/pic.png", Self.png(width: 400, height: 300))
        try Self.rebuild(site, caches, "the image replaced by a larger one of the same name (its width and height)")
    }

    /// Feeds a site defines, edited while serve runs: each edit gives what a fresh build gives
    /// (pages of a feed added, retitled, refilled, reordered, hidden from the navigation,
    /// removed; cards' permalinks moving to another feed).
    @Test(arguments: Reuse.allCases) func everyEditOfTheFeedsGivesWhatAFreshBuildGives(_ reuse: Reuse) throws {
        let list = (1...12).map { number -> [String: Any] in
            let feed: String = ["offers", "deals", "news"][number % 3]
            let card: [String: Any] = ["id": "c\(number)", "tp": "short_news", "tt": "Card \(number)", "ds": "Text \(number)", "e": ["feed": feed]]
            return card.merging(["ca": 1_700_000_000 + number]) { $1 }
        }
        let site = try TempSite(["cards.json": "{\"cards\": \(Self.cards(list)), \"full_sync\": true}"])
        defer { site.remove() }
        let caches = Rebuilds(reuse, site)
        try Self.rebuild(site, caches, "first build, with the built-in feeds")

        let feeds = """
            feeds:
              - slug: all
              - slug: offers
                title: Offers
                extras: {feed: offers}
              - slug: social

            """
        try site.write("cardfeed.yml", feeds)
        try Self.rebuild(site, caches, "feeds defined")
        try site.write("cardfeed.yml", feeds.replacingOccurrences(of: "title: Offers", with: "title: Our offers"))
        try Self.rebuild(site, caches, "a feed's title")
        try site.write("cardfeed.yml", feeds.replacingOccurrences(of: "{feed: offers}", with: "{feed: [offers, deals]}"))
        try Self.rebuild(site, caches, "a feed's extras")
        try site.write("cardfeed.yml", feeds + "hide_empty_feeds: true\n")
        try Self.rebuild(site, caches, "hide_empty_feeds leaves the empty social feed out of the navigation")
        try site.write("strings/en.json", "{\"feedOffers\": \"Deals of the week\"}\n")
        try Self.rebuild(site, caches, "the strings file retitles a configured feed")
        try site.write("cardfeed.yml", """
            feeds:
              - slug: offers
                title: Offers
                extras: {feed: offers}
              - slug: deals
                title: Deals
                extras: {feed: deals}
            page_size: 2

            """)
        try Self.rebuild(site, caches, "no feed shows every card: the first feed is the front page, cards of no feed are hidden, permalinks move")
        try site.write("cardfeed.yml", "page_size: 2\n")
        try Self.rebuild(site, caches, "back to the built-in feeds")
    }

    /// The first bytes of a PNG file of the given size: enough for the build to read its size.
    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        return Data(bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0])
    }
}

/// The cache on disk: what it does when it cannot be used, and what `check` does with it.
@Suite struct BuildCacheTests {
    static func build(_ site: TempSite, _ cache: BuildCacheFolder, into output: URL? = nil, check: Bool = false) throws -> BuildReport {
        var options = site.options(pageSize: 4)
        options.cache = cache
        return try SiteBuilder(options: options, destination: check ? .discarded : .folder(output ?? site.output), logger: .quiet).run()
    }

    @Test func aDamagedCacheIsIgnoredWithANoteAndMadeAgain() throws {
        let list = (1...12).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        let first = try Self.build(site, cache)
        #expect(first.cacheNote == nil)
        #expect(first.cardsReused == 0)
        #expect(try Self.build(site, cache).cardsReused == 12)
        let index = cache.url.appendingPathComponent(BuildCache.fileName)
        var bytes = try [UInt8](Data(contentsOf: index))
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: index)
        let damaged = try Self.build(site, cache)
        #expect(damaged.cacheNote?.contains("is damaged or was cut short") == true, "\(damaged.cacheNote ?? "no note")")
        #expect(damaged.cardsReused == 0)
        try Data(bytes.prefix(10)).write(to: index)
        #expect(try Self.build(site, cache).cacheNote?.contains("build-cache.bin") == true)
        let again = try Self.build(site, cache)
        #expect(again.cacheNote == nil)
        #expect(again.cardsReused == 12)
    }

    /// A body that does not read under a good checksum (no CardFeed writes one) is read on a
    /// thread of its own (see `BuildCache`), after the build has begun: it is taken as empty,
    /// with the note at the end.
    @Test func anIndexWhoseBodyDoesNotReadUnderAGoodChecksumIsTakenAsEmpty() throws {
        let list = (1...8).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        _ = try Self.build(site, cache)
        try Self.rewriteIndexBody(of: cache) { Array($0.dropLast(3)) }
        let report = try Self.build(site, cache)
        #expect(report.cacheNote?.contains("is damaged or was cut short, so everything was made again") == true, "\(report.cacheNote ?? "no note")")
        #expect(report.cardsReused == 0)
        let again = try Self.build(site, cache)
        #expect(again.cacheNote == nil)
        #expect(again.cardsReused == 8)
    }

    /// No CardFeed writes an index that lists a key twice, but one that does, under a good
    /// checksum, is read as the last of the two (the build marks the records it takes by their
    /// place in the list, which has more places than keys).
    @Test func anIndexThatListsAKeyTwiceIsReadAsItsLast() throws {
        let list = (1...5).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        _ = try Self.build(site, cache)
        try Self.rewriteIndexBody(of: cache) { body in
            // The head: what the cache is for, the cards' file's generation and size, then the
            // records, 32 bytes each, after their count.
            var reader = BinaryReader(body)
            for _ in 0..<(try reader.int()) { _ = try reader.string() }
            _ = try reader.int()
            _ = try reader.int()
            let countAt = reader.position
            let count = try reader.int()
            #expect(count == 10, "5 entries and 5 cards")
            let recordsEnd = countAt + 8 + count * 32
            var counted = BinaryWriter(capacity: 8)
            counted.write(count + 1)
            return Array(body[..<countAt]) + counted.bytes + Array(body[(countAt + 8)..<recordsEnd])
                + Array(body[(recordsEnd - 32)..<recordsEnd]) + Array(body[recordsEnd...])
        }
        let report = try Self.build(site, cache)
        #expect(report.cacheNote == nil, "\(report.cacheNote ?? "")")
        #expect(report.cardsReused == 5)
        let again = try Self.build(site, cache)
        #expect(again.cacheNote == nil)
        #expect(again.cardsReused == 5)
    }

    /// The cache's index with its body changed by `change`, under a good checksum (see
    /// `BuildCache.readHead`): what no CardFeed writes, read as a file that is not damaged.
    static func rewriteIndexBody(of cache: BuildCacheFolder, _ change: ([UInt8]) throws -> [UInt8]) throws {
        let index = cache.url.appendingPathComponent(BuildCache.fileName)
        let bytes = try [UInt8](Data(contentsOf: index))
        let magic = Array("CardFeed build cache\n".utf8)
        #expect(Array(bytes.prefix(magic.count)) == magic)
        let body = try change(Array(bytes[magic.count..<(bytes.count - 8)]))
        var checksum = BinaryWriter(capacity: 8)
        checksum.write(StableHash.of(bytes: body))
        try Data(magic + body + checksum.bytes).write(to: index)
    }

    @Test func aCardWhoseBytesChangedIsMadeAgain() throws {
        let list = (1...6).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        _ = try Self.build(site, cache, into: site.root.appendingPathComponent("one"))
        let cards = try #require(FileManager.default.contentsOfDirectory(atPath: cache.url.path).first { $0.hasPrefix("cards-") })
        let file = cache.url.appendingPathComponent(cards)
        var bytes = try [UInt8](Data(contentsOf: file))
        for index in stride(from: 0, to: bytes.count, by: 7) { bytes[index] ^= 0x20 }
        try Data(bytes).write(to: file)
        // Into another folder, so that every page is made from the cards.
        let report = try Self.build(site, cache, into: site.root.appendingPathComponent("two"))
        #expect(report.cardsReused == 0)
        let fresh = site.root.appendingPathComponent("fresh")
        _ = try SiteBuilder(options: site.options(pageSize: 4), destination: .folder(fresh), logger: .quiet).run()
        #expect(try OutputSafetyTests.tree(site.root.appendingPathComponent("two")) == OutputSafetyTests.tree(fresh))
    }

    @Test func checkReusesTheCardsAndKeepsWhatTheCacheKnowsOfTheOutput() throws {
        var list = (1...8).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        _ = try Self.build(site, cache)
        list[0] = IncrementalBuildTests.card(1, title: "Checked")
        try site.write("cards.json", IncrementalBuildTests.cards(list))
        let checked = try Self.build(site, cache, check: true)
        #expect(checked.cardsReused == 7)
        let built = try Self.build(site, cache)
        #expect(built.cardsReused == 8, "the card check rendered is kept")
        #expect(built.filesWritten < 10, "the output's pages are still known: kept as they were")
    }

    /// The cards' file grows as builds append the cards they make; once the cards no build uses
    /// come to a fifth of the output's size, the live ones are written into the next file.
    @Test func theCardsFileIsAppendedToAndWrittenAnewWhenMostlyDead() throws {
        var list = (1...10).map { IncrementalBuildTests.card($0) }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        func cardFiles() throws -> [String: Int] {
            var files: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: cache.url.path) where name.hasPrefix("cards-") {
                files[name] = try FileManager.default.attributesOfItem(atPath: cache.url.appendingPathComponent(name).path)[.size] as? Int
            }
            return files
        }
        _ = try Self.build(site, cache)
        let first = try cardFiles()
        #expect(Array(first.keys) == ["cards-1.bin"])
        list[0] = IncrementalBuildTests.card(1, title: "One changed")
        try site.write("cards.json", IncrementalBuildTests.cards(list))
        #expect(try Self.build(site, cache).cardsReused == 9)
        let appended = try cardFiles()
        #expect(Array(appended.keys) == ["cards-1.bin"] && appended["cards-1.bin"]! > first["cards-1.bin"]!, "one card appended: \(appended)")
        // Every card changed, again and again: the dead cards pile up until they come to a
        // fifth of the output, and the cache never holds more than the output and a fifth.
        func size(of folder: URL) throws -> Int {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])!
            return try files.compactMap { $0 as? URL }.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
        }
        var round = 0
        while try cardFiles()["cards-1.bin"] != nil && round < 40 {
            round += 1
            list = list.map { card in card.merging(["title": "All changed \(round)"]) { $1 } }
            try site.write("cards.json", IncrementalBuildTests.cards(list))
            #expect(try Self.build(site, cache).cardsReused == 0)
            let cacheSize = try cardFiles().values.reduce(0, +) + size(of: cache.url.appendingPathComponent(BuildCache.fileName))
            #expect(Double(cacheSize) <= Double(try size(of: site.output)) * 1.2, "round \(round): \(cacheSize) bytes")
        }
        let compacted = try cardFiles()
        #expect(Array(compacted.keys) == ["cards-2.bin"], "\(compacted) after \(round) rounds")
        #expect(try Self.build(site, cache).cardsReused == 10, "every card read back from the new file")
        let fresh = site.root.appendingPathComponent("fresh")
        _ = try SiteBuilder(options: site.options(pageSize: 4), destination: .folder(fresh), logger: .quiet).run()
        #expect(try OutputSafetyTests.tree(site.output) == OutputSafetyTests.tree(fresh))
    }

    @Test func aCardTypesTemplateMakesOnlyThatTypesCardsAgain() throws {
        let list = (1...10).map { number -> [String: Any] in
            ["id": "c\(number)", "type": number <= 4 ? "short_news" : "captioned_image", "created": 1_700_000_000 + number,
             "title": "Card \(number)", "description": "Text \(number)", "image": "https://x.test/\(number).png"]
        }
        let site = try TempSite(["cards.json": IncrementalBuildTests.cards(list)])
        defer { site.remove() }
        let cache = BuildCacheFolder(site.root.appendingPathComponent("cache"))
        _ = try Self.build(site, cache)
        try site.write("templates/cards/short_news.mustache", "{{< card}}{{$content}}<p class=\"news\">{{title}}</p>{{/content}}{{/card}}\n")
        let edited = try Self.build(site, cache)
        #expect(edited.cardsReused == 6, "the six captioned images")
        try site.write("templates/partials/extra.mustache", "<i>extra</i>\n")
        #expect(try Self.build(site, cache).cardsReused == 10, "a partial no card template includes")
        let fresh = site.root.appendingPathComponent("fresh")
        _ = try SiteBuilder(options: site.options(pageSize: 4), destination: .folder(fresh), logger: .quiet).run()
        #expect(try OutputSafetyTests.tree(site.output) == OutputSafetyTests.tree(fresh))
    }
}

