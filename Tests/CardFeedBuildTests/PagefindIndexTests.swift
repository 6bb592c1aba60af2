import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedSystem

/// Pagefind's command line over pages shaped like card pages, and the order CardFeed puts its
/// index in (`PagefindIndexOrder`): the same pages give the same bytes, filter included.
@Suite struct PagefindIndexTests {
    @Test func sha1IsFIPSs() {
        #expect(SHA1.digest(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined() == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(SHA1.digest([]).map { String(format: "%02x", $0) }.joined() == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let long = Array(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA1.digest(long).map { String(format: "%02x", $0) }.joined() == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // As Pagefind prints a digest: a byte without its leading zero (0x0d is "d", 0x07 "7").
        #expect(SHA1.pagefindHex([]) == "da39a3ee5e6b4bd3255bfef95601890afd879")
    }

    /// The version whose index CardFeed puts in order is the one the packages carry.
    @Test func thePinnedVersionIsTheOneThePackagesShip() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lock = try String(contentsOf: repository.appendingPathComponent("packaging/pagefind.lock"), encoding: .utf8)
        #expect(lock.split(separator: "\n").contains("version=\(Pagefind.pinned)"))
        #expect(lock.contains("pagefind_bin-\(Pagefind.pinned)-"))
    }

    /// Pagefind 1.5 exits 0 when a write fails, its files cut short: a full disk shows only as
    /// an index that cannot be read, and the message says so when the disk is all but full
    /// (tried on a 55 MB tmpfs: "… is not a Pagefind index file. The disk it is on has 0 MB
    /// free …"), and only then.
    @Test func anIndexThatCannotBeReadOnAFullDiskSaysTheDiskIsFull() {
        #expect(Pagefind.fullDiskHint(freeBytes: 0).contains("0 MB free"))
        #expect(Pagefind.fullDiskHint(freeBytes: 3 << 20).contains("3 MB free"))
        #expect(Pagefind.fullDiskHint(freeBytes: 1 << 30) == "")
        #expect(Pagefind.fullDiskHint(URL(fileURLWithPath: "/no/such/folder")) == "")
        #expect(Pagefind.fullDiskHint(URL(fileURLWithPath: NSTemporaryDirectory())).isEmpty == (Self.freeBytes(NSTemporaryDirectory()) >= 16 << 20))
    }

    static func freeBytes(_ path: String) -> UInt64 {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.uint64Value ?? 0
    }

    /// The packages' Pagefind is looked for in one place a layout: an archive unpacked in /tmp
    /// must not run a /tmp/lib/cardfeed/pagefind that anyone could have put there.
    @Test func thePackagedPagefindIsLookedForWhereEachPackagePutsIt() {
        #expect(Pagefind.besideBinary(of: "/usr/bin/cardfeed") == "/usr/lib/cardfeed/pagefind")
        #expect(Pagefind.besideBinary(of: "/usr/local/bin/cardfeed") == "/usr/local/lib/cardfeed/pagefind")
        #expect(Pagefind.besideBinary(of: "/tmp/cardfeed-1.0.0-linux-x86_64/cardfeed") == "/tmp/cardfeed-1.0.0-linux-x86_64/lib/cardfeed/pagefind")
    }

    @Test func gzipRoundTripsAndIsTheSameEachTime() throws {
        let text = Array(String(repeating: "pagefind_dcd and some words ", count: 500).utf8)
        let packed = Gzip.compress(text)
        #expect(packed.count < text.count / 10)
        #expect(Gzip.compress(text) == packed)
        #expect(Gzip.decompress(packed) == text)
        #expect(Gzip.decompress(Array("not gzip".utf8)) == nil)
    }

    /// `count` pages as card pages are: the card the Pagefind body, its title and image as
    /// metadata, each of its feeds a value of the filter `feed`, its time the sort key `date`;
    /// and more filters and a second sort key. `inOrderByChance`: with the filters and the second
    /// sort key, all that Pagefind 1.5.2 writes in a random order.
    /// A folder for a run's files, not made yet.
    static func newBundleFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-pagefind-test-bundle-\(UUID().uuidString)", isDirectory: true)
    }

    static func cardPages(_ count: Int, inOrderByChance: Bool = true) throws -> URL {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-pagefind-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("cards"), withIntermediateDirectories: true)
        let feeds = ["news", "offers", "social", "announcements", "advertising", "events", "summer", "winter"]
        let words = ["coffee", "tea", "garden", "river", "mountain", "city", "sale", "concert", "market", "harbour"]
        for n in 0..<count {
            let shown = (0..<(1 + n % 3)).map { feeds[(n * 5 + $0 * 3) % feeds.count] }
            // Three filters and two sort keys, whose order Pagefind 1.5.2 leaves to chance too; a
            // filter of two values is in order by chance every other run.
            let filter = inOrderByChance ? shown.map { #"<span data-pagefind-filter="feed" hidden>\#($0)</span>"# }.joined()
                + #"<span data-pagefind-filter="kind" hidden>\#(words[n % 4])</span>"#
                + #"<span data-pagefind-filter="pair" hidden>\#(n % 2 == 0 ? "even" : "odd")</span>"# : ""
            let text = (0..<20).map { words[(n * 7 + $0 * $0) % words.count] }.joined(separator: " ")
            let page = """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Card \(n)</title></head>
                <body><header>Site</header><main\(inOrderByChance ? " data-pagefind-sort=\"weight:\(n % 17)\"" : "")><article data-pagefind-body data-pagefind-sort="date:\(1_700_000_000 + n * 3600)">
                <h2 data-pagefind-meta="title">Card number \(n)</h2><img data-pagefind-meta="image[src]" src="images/\(n).png" alt="">
                \(filter)<p>\(text) unique\(n)</p></article></main></body></html>
                """
            try Data(page.utf8).write(to: site.appendingPathComponent("cards/card-\(n).html"))
        }
        try Data("<!DOCTYPE html><html lang=\"en\"><body><p>A feed page, not indexed</p></body></html>".utf8).write(to: site.appendingPathComponent("index.html"))
        return site
    }

    static func contents(_ bundle: Pagefind.Bundle) throws -> [String: Data] {
        try Dictionary(uniqueKeysWithValues: bundle.files.map { ($0, try Data(contentsOf: bundle.folder.appendingPathComponent($0))) })
    }

    /// The files of two indexes `index` makes, each of which must count `pages` pages: a test
    /// compares them for the same bytes.
    static func twoRuns(of index: SearchIndex, pages: Int) throws -> [[String: Data]] {
        try (0..<2).map { _ in
            let bundle = newBundleFolder()
            defer { try? FileManager.default.removeItem(at: bundle) }
            let made = try index.make(into: bundle)
            #expect(made.pages == pages)
            return try contents(made)
        }
    }

    /// A card's part is picked by its page's path: a card that comes or goes changes only its
    /// own part, every part holds about as many cards, and each part's pages are sorted.
    @Test func aCardStaysInItsPartWhateverCardsComeOrGo() {
        let pages = (0..<250).map { "cards/card-\($0).html" }.sorted()
        let parts = SearchParts([pages], size: 100)
        #expect(parts.count == 4)
        #expect(parts.pages.flatMap { $0 }.sorted() == pages)
        #expect(parts.pages.allSatisfy { $0 == $0.sorted() && (35...95).contains($0.count) }, "\(parts.pages.map(\.count))")
        func part(_ page: String, _ parts: SearchParts) -> Int? { parts.pages.firstIndex { $0.contains(page) } }
        let added = SearchParts([(pages + ["cards/card-new.html"]).sorted()], size: 100)
        let removed = SearchParts([Array(pages.dropFirst())], size: 100)
        for page in pages.dropFirst() {
            #expect(part(page, added) == part(page, parts) && part(page, removed) == part(page, parts))
        }
        #expect(SearchParts([pages], size: 300).pages == [pages])
        #expect(SearchParts([[]], size: 10).pages == [[]])
        // As many parts as `size` a part takes, rounded up to a power of two: the count changes
        // only when the site doubles, not with every `size` cards.
        #expect([1, 100, 101, 200, 201, 400, 401, 800, 801].map { SearchParts([(0..<$0).map { "cards/card-\($0).html" }], size: 100).count } == [1, 1, 2, 2, 4, 4, 8, 8, 16])
    }

    /// On a site in several languages the first part holds a card of every tree, even one with
    /// fewer cards than there are parts, and each part knows its trees.
    @Test func theFirstPartHoldsEveryLanguage() {
        let english = (0..<30).map { "cards/card-\($0).html" }.sorted()
        let german = (0..<40).map { "de/cards/card-\($0).html" }.sorted()
        for few in 1...3 {
            let parts = SearchParts([english, Array(german.prefix(few))], size: 10)
            #expect(parts.count == 4)
            #expect(parts.pages[0].contains { $0.hasPrefix("de/") } && parts.pages[0].contains { $0.hasPrefix("cards/") })
            #expect(Set(parts.pages.flatMap { $0 }) == Set(english + german.prefix(few)))
            for (pages, trees) in zip(parts.pages, parts.trees) {
                #expect(trees == [0, 1].filter { tree in pages.contains { $0.hasPrefix(tree == 0 ? "cards/" : "de/") } })
            }
        }
    }

    @Test func theIndexReadsTheCardPagesOfItsTrees() throws {
        let pagefind = Pagefind(command: ["pagefind"], version: "pagefind \(Pagefind.pinned)")
        let one = SearchIndex(pagefind: pagefind, site: "/tmp", trees: [.init(folder: "", language: "en")], count: 1)
        #expect(one.glob == "cards/card-*.html" && one.forcedLanguage == "en")
        #expect(one.reads("cards/card-x.html") && !one.reads("de/cards/card-x.html") && !one.reads("cards/x.html") && !one.reads("card-x.html"))
        let several = SearchIndex(pagefind: pagefind, site: "/tmp", trees: [.init(folder: "", language: "en"), .init(folder: "de", language: "de")], count: 2)
        #expect(several.glob == "{cards,de/cards}/card-*.html" && several.forcedLanguage == nil)
        #expect(several.reads("cards/card-x.html") && several.reads("de/cards/card-x.html") && !several.reads("ar/cards/card-x.html"))
    }

    /// Pagefind 1.5.2 lists an index's languages in a random order; CardFeed sorts them by name,
    /// and leaves the entry of an index in one language as it is.
    @Test func theEntrysLanguagesAreSortedByName() throws {
        let language = { (tag: String) in #""\#(tag)":{"hash":"\#(tag)_0123456789","wasm":"\#(tag)","page_count":2}"# }
        let entry = { (tags: [String]) in #"{"version":"1.5.2","languages":{"# + tags.map(language).joined(separator: ",") + #"},"include_characters":["_"]}"# }
        #expect(try PagefindIndexOrder.orderLanguages(entry(["en", "de", "ar"])) == entry(["ar", "de", "en"]))
        #expect(try PagefindIndexOrder.orderLanguages(entry(["en"])) == entry(["en"]))
        #expect(throws: PagefindIndexOrder.Problem.self) { try PagefindIndexOrder.orderLanguages("{}") }
    }

    /// A site larger than a part: an index in `pagefind/` and one in each `part-N/`, listed in
    /// cardfeed-parts.json, every page in one of them, the same bytes from run to run.
    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func aLargeSiteIsIndexedInPartsTheSameEachTime() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(25)
        defer { try? FileManager.default.removeItem(at: site) }
        var index = SearchIndex(pagefind: pagefind, site: site.path, trees: [.init(folder: "", language: "en")], count: 25)
        index.partSize = 13
        let runs = try Self.twoRuns(of: index, pages: 25)
        let files = runs[0]
        #expect(String(decoding: try #require(files[SearchIndex.partsFile]), as: UTF8.self) == "{\"parts\":[\"part-2/\"]}\n")
        for root in ["", "part-2/"] {
            #expect(files.keys.contains(root + "pagefind-entry.json"))
            #expect(files.keys.contains { $0.hasPrefix(root + "pagefind.") && $0.hasSuffix(".pf_meta") })
        }
        #expect(files.keys.filter { $0.contains("fragment/") }.count == 25)
        #expect(!files.keys.contains { $0.hasPrefix(".pages") || $0.hasPrefix("part-1/") })
        #expect(runs[1] == files)
    }

    /// A site in several languages, in parts: each part has an index for each language, and
    /// each language's holds the cards of its tree only (Pagefind names a fragment by its
    /// language), the same bytes from run to run, the languages listed in order.
    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func aSiteInSeveralLanguagesHasAnIndexALanguageInEachPart() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(20)
        defer { try? FileManager.default.removeItem(at: site) }
        for (tree, count) in [("de", 6), ("ar", 4)] {
            try FileManager.default.createDirectory(at: site.appendingPathComponent(tree + "/cards"), withIntermediateDirectories: true)
            for n in 0..<count {
                let page = #"<!DOCTYPE html><html lang="\#(tree)"><body><main><div data-pagefind-body><p>Karte \#(tree)\#(n) Kaffee</p></div></main></body></html>"#
                try Data(page.utf8).write(to: site.appendingPathComponent("\(tree)/cards/card-\(tree)\(n).html"))
            }
        }
        var index = SearchIndex(pagefind: pagefind, site: site.path, trees: ["", "de", "ar"].map { .init(folder: $0, language: $0.isEmpty ? "en" : $0) }, count: 30)
        index.partSize = 15
        let runs = try Self.twoRuns(of: index, pages: 30)
        let files = runs[0]
        #expect(String(decoding: try #require(files[SearchIndex.partsFile]), as: UTF8.self)
            == #"{"parts":["part-2/"],"languages":{"part-2/":["ar","de","en"]}}"# + "\n")
        for root in ["", "part-2/"] {
            let entry = String(decoding: try #require(files[root + "pagefind-entry.json"]), as: UTF8.self)
            #expect(entry.contains(#""languages":{"ar":{"#) && entry.contains(#"},"de":{"#) && entry.contains(#"},"en":{"#), "\(root): \(entry)")
        }
        let fragments = files.keys.filter { $0.contains("fragment/") }
        #expect(fragments.filter { $0.contains("fragment/de_") }.count == 6)
        #expect(fragments.filter { $0.contains("fragment/ar_") }.count == 4)
        #expect(fragments.filter { $0.contains("fragment/en_") }.count == 20)
        #expect(runs[1] == files)

        // A document that does not say its tree's language (a site's own search_document) is an error.
        try Data(#"<!DOCTYPE html><html lang="fr"><body><main><div data-pagefind-body><p>Carte</p></div></main></body></html>"#.utf8)
            .write(to: site.appendingPathComponent("de/cards/card-de0.html"))
        let bundle = Self.newBundleFolder()
        defer { try? FileManager.default.removeItem(at: bundle) }
        let failure = #expect(throws: Pagefind.Failure.self) { try index.make(into: bundle) }
        #expect(failure?.description.contains(", fr, where the site's languages with cards are ") == true, "\(failure?.description ?? "")")
        #expect(failure?.description.contains("a site's own templates/search_document.mustache must keep") == true)
    }

    /// A language with fewer cards than the site has parts does not make the site one part
    /// (one Pagefind run over every page, which for 100,000 cards took 4.3 GB): its cards are in
    /// the first parts, the first always, and cardfeed-parts.json says which part has which
    /// language, so that the search box merges a part only into a search in one of its languages.
    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func aLanguageWithFewCardsKeepsTheSiteInParts() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(20)
        defer { try? FileManager.default.removeItem(at: site) }
        try FileManager.default.createDirectory(at: site.appendingPathComponent("de/cards"), withIntermediateDirectories: true)
        let page = #"<!DOCTYPE html><html lang="de"><body><main><div data-pagefind-body><p>Kaffeemühle</p></div></main></body></html>"#
        try Data(page.utf8).write(to: site.appendingPathComponent("de/cards/card-de0.html"))
        var index = SearchIndex(pagefind: pagefind, site: site.path, trees: [.init(folder: "", language: "en"), .init(folder: "de", language: "de")], count: 21)
        index.partSize = 11
        let bundle = Self.newBundleFolder()
        defer { try? FileManager.default.removeItem(at: bundle) }
        let made = try index.make(into: bundle)
        #expect(made.pages == 21)
        let files = try Self.contents(made)
        #expect(String(decoding: try #require(files[SearchIndex.partsFile]), as: UTF8.self)
            == #"{"parts":["part-2/"],"languages":{"part-2/":["en"]}}"# + "\n")
        let entry = String(decoding: try #require(files["pagefind-entry.json"]), as: UTF8.self)
        #expect(entry.contains(#""languages":{"de":{"#) && entry.contains(#"},"en":{"#), "\(entry)")
        for root in ["part-2/"] {
            let entry = String(decoding: try #require(files[root + "pagefind-entry.json"]), as: UTF8.self)
            #expect(entry.contains(#""languages":{"en":{"#) && !entry.contains(#""de":"#), "\(root): \(entry)")
        }
        #expect(files.keys.filter { $0.contains("fragment/de_") }.count == 1)
        #expect(files.keys.filter { $0.contains("fragment/en_") }.count == 20)
    }

    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func theSamePagesGiveTheSameIndexWithItsFilters() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(300)
        defer { try? FileManager.default.removeItem(at: site) }
        var runs: [[String: Data]] = []
        for _ in 0..<5 {
            let bundle = Self.newBundleFolder()
            defer { try? FileManager.default.removeItem(at: bundle) }
            let made = try pagefind.index(site: site.path, glob: SearchIndex.glob(trees: [""]), language: "en", into: bundle)
            #expect(made.pages == 300)
            runs.append(try Self.contents(made))
        }
        let first = runs[0]
        #expect(first.keys.contains { $0.hasPrefix("filter/") && $0.hasSuffix(".pf_filter") })
        #expect(first.keys.contains("pagefind.js"))
        #expect(!first.keys.contains { $0.hasSuffix("-ui.js") || $0.hasSuffix("-ui.css") })
        for run in runs.dropFirst() {
            #expect(run.keys.sorted() == first.keys.sorted())
            for (path, data) in first { #expect(run[path] == data, "\(path) differs between two runs") }
        }
        // Each filter's values, the filters and the sort keys, in order of their names.
        func names(_ path: String, at field: Int) throws -> [String] {
            let data = try #require(first[path])
            let body = try #require(Gzip.decompress([UInt8](data)))
            var reader = CBORReader(Array(body.dropFirst(PagefindIndexOrder.signature.count)))
            _ = try reader.arrayCount()
            for _ in 0..<field { try reader.skip() }
            return try (0..<reader.arrayCount()).map { _ in
                let start = reader.position
                _ = try reader.arrayCount()
                let name = try reader.text()
                reader = CBORReader(reader.bytes, at: start)
                try reader.skip()
                return name
            }
        }
        let filters = try first.keys.filter { $0.hasPrefix("filter/") }.map { try names($0, at: 1) }.sorted { $0.count > $1.count }
        #expect(filters == [["advertising", "announcements", "events", "news", "offers", "social", "summer", "winter"], ["coffee", "garden", "river", "tea"], ["even", "odd"]])
        let meta = try #require(first.keys.first { $0.hasSuffix(".pf_meta") })
        #expect(try names(meta, at: 3) == ["feed", "kind", "pair"])
        #expect(try names(meta, at: 4) == ["date", "weight"])
    }

    /// A filter file whose new name's first digits are another's is named with one digit more,
    /// as Pagefind does, and the metadata (whose name for it grows) and the entry follow.
    @Test func aNewNameTakenAlreadyIsLengthened() throws {
        func array(_ items: [[UInt8]]) -> [UInt8] { [0x80 | UInt8(items.count)] + items.flatMap { $0 } }
        func text(_ text: String) -> [UInt8] { CBORReader.textItem(text) }
        let bundle = Self.newBundleFolder()
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("filter"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle) }
        func write(_ body: [UInt8], _ name: String) throws {
            try Data(Gzip.compress(PagefindIndexOrder.signature + body)).write(to: bundle.appendingPathComponent(name))
        }
        // "feed"'s values out of order; "kind"'s file named what "feed"'s would be.
        let feed = array([text("feed"), array([array([text("news"), array([[1]])]), array([text("all"), array([[0], [1]])])])])
        let ordered = array([text("feed"), array([array([text("all"), array([[0], [1]])]), array([text("news"), array([[1]])])])])
        let hash = SHA1.pagefindHex(ordered)
        let kind = array([text("kind"), array([array([text("offer"), array([[0]])])])])
        try write(feed, "filter/en_1234567.pf_filter")
        try write(kind, "filter/en_\(hash.prefix(7)).pf_filter")
        let meta = array([text("1.5.2"), array([]), array([]),
                          array([array([text("kind"), text("en_\(hash.prefix(7))")]), array([text("feed"), text("en_1234567")])]),
                          array([array([text("weight"), array([[1], [0]])]), array([text("date"), array([[0], [1]])])]), array([])])
        try write(meta, "pagefind.en_0123456789.pf_meta")
        try Data(#"{"version":"1.5.2","languages":{"en":{"hash":"en_0123456789","wasm":"en","page_count":2}}}"#.utf8)
            .write(to: bundle.appendingPathComponent("pagefind-entry.json"))

        #expect(try PagefindIndexOrder.apply(bundle: bundle) == 2)  // the filter file and the metadata renamed
        let filterFiles = try FileManager.default.contentsOfDirectory(atPath: bundle.appendingPathComponent("filter").path).sorted()
        #expect(filterFiles == ["en_\(hash.prefix(7)).pf_filter", "en_\(hash.prefix(8)).pf_filter"].sorted())
        let newMeta = array([text("1.5.2"), array([]), array([]),
                             array([array([text("feed"), text("en_\(hash.prefix(8))")]), array([text("kind"), text("en_\(hash.prefix(7))")])]),
                             array([array([text("date"), array([[0], [1]])]), array([text("weight"), array([[1], [0]])])]), array([])])
        let name = "en_" + SHA1.pagefindHex(newMeta).prefix(10)
        let written = try Data(contentsOf: bundle.appendingPathComponent("pagefind.\(name).pf_meta"))
        #expect(Gzip.decompress([UInt8](written)) == PagefindIndexOrder.signature + newMeta)
        #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent("pagefind.en_0123456789.pf_meta").path))
        let entry = try String(contentsOf: bundle.appendingPathComponent("pagefind-entry.json"), encoding: .utf8)
        #expect(entry.contains(#""hash":"\#(name)""#))
    }

    /// Without a filter or a second sort key Pagefind's index is in order: its content and names
    /// stay as Pagefind made them (putting it in order again renames nothing), and its metadata
    /// file's name is the one CardFeed's SHA-1 gives it.
    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func anIndexInOrderKeepsItsNames() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(40, inOrderByChance: false)
        defer { try? FileManager.default.removeItem(at: site) }
        let bundle = Self.newBundleFolder()
        defer { try? FileManager.default.removeItem(at: bundle) }
        let made = try pagefind.index(site: site.path, glob: SearchIndex.glob(trees: [""]), language: "en", into: bundle)
        #expect(try PagefindIndexOrder.apply(bundle: bundle) == 0)
        let meta = try #require(made.files.first { $0.hasSuffix(".pf_meta") })
        let body = try #require(Gzip.decompress([UInt8](try Data(contentsOf: bundle.appendingPathComponent(meta)))))
        let hash = SHA1.pagefindHex(Array(body.dropFirst(PagefindIndexOrder.signature.count)))
        #expect(meta == "pagefind.en_\(hash.prefix(10)).pf_meta")
    }
}
