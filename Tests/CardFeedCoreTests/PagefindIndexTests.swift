import Foundation
import Testing
@testable import CardFeedBuild

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

    @Test func gzipRoundTripsAndIsTheSameEachTime() throws {
        let text = Array(String(repeating: "pagefind_dcd and some words ", count: 500).utf8)
        let packed = Gzip.compress(text)
        #expect(packed.count < text.count / 10)
        #expect(Gzip.compress(text) == packed)
        #expect(Gzip.decompress(packed) == text)
        #expect(Gzip.decompress(Array("not gzip".utf8)) == nil)
    }

    /// `count` pages as card pages are: the card the Pagefind body, its title and image as
    /// metadata, each of its feeds a value of the filter `feed`, its time the sort key `date`.
    static func cardPages(_ count: Int, filters: Bool = true) throws -> URL {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-pagefind-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("cards"), withIntermediateDirectories: true)
        let feeds = ["news", "offers", "social", "announcements", "advertising", "events", "summer", "winter"]
        let words = ["coffee", "tea", "garden", "river", "mountain", "city", "sale", "concert", "market", "harbour"]
        for n in 0..<count {
            let shown = (0..<(1 + n % 3)).map { feeds[(n * 5 + $0 * 3) % feeds.count] }
            let filter = filters ? shown.map { #"<span data-pagefind-filter="feed" hidden>\#($0)</span>"# }.joined() : ""
            let text = (0..<20).map { words[(n * 7 + $0 * $0) % words.count] }.joined(separator: " ")
            let page = """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Card \(n)</title></head>
                <body><header>Site</header><main><article data-pagefind-body data-pagefind-sort="date:\(1_700_000_000 + n * 3600)">
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

    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func theSamePagesGiveTheSameIndexWithTheFeedFilter() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(300)
        defer { try? FileManager.default.removeItem(at: site) }
        var runs: [[String: Data]] = []
        for _ in 0..<4 {
            let bundle = SearchIndex.temporaryBundle()
            defer { try? FileManager.default.removeItem(at: bundle) }
            let made = try pagefind.index(site: site.path, glob: SearchIndex.glob, language: "en", into: bundle)
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
        // The filter's values, in order of their names.
        let filterPath = try #require(first.keys.first { $0.hasPrefix("filter/") })
        let filter = try #require(Gzip.decompress([UInt8](first[filterPath]!)))
        var reader = CBORReader(Array(filter.dropFirst(PagefindIndexOrder.signature.count)))
        let fields = try reader.arrayCount()
        let name = try reader.text()
        #expect(fields == 2 && name == "feed")
        var values: [String] = []
        let count = try reader.arrayCount()
        for _ in 0..<count {
            _ = try reader.arrayCount()
            values.append(try reader.text())
            try reader.skip()
        }
        #expect(values == ["advertising", "announcements", "events", "news", "offers", "social", "summer", "winter"])
    }

    /// Without a filter Pagefind's index is already the same each time, and CardFeed leaves it
    /// as Pagefind wrote it; its metadata file's name is the one CardFeed's SHA-1 gives it.
    @Test(.enabled(if: (try? Pagefind.locate().get()) != nil, "needs Pagefind"))
    func anIndexInOrderIsLeftAsPagefindWroteIt() throws {
        let pagefind = try Pagefind.locate().get()
        let site = try Self.cardPages(40, filters: false)
        defer { try? FileManager.default.removeItem(at: site) }
        let bundle = SearchIndex.temporaryBundle()
        defer { try? FileManager.default.removeItem(at: bundle) }
        let made = try pagefind.index(site: site.path, glob: SearchIndex.glob, language: "en", into: bundle)
        #expect(try PagefindIndexOrder.apply(bundle: bundle) == 0)
        let meta = try #require(made.files.first { $0.hasSuffix(".pf_meta") })
        let body = try #require(Gzip.decompress([UInt8](try Data(contentsOf: bundle.appendingPathComponent(meta)))))
        let hash = SHA1.pagefindHex(Array(body.dropFirst(PagefindIndexOrder.signature.count)))
        #expect(meta == "pagefind.en_\(hash.prefix(10)).pf_meta")
    }
}
