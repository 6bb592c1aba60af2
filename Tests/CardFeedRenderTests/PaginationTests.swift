import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender


/// Pages that keep their cards and their addresses as newer cards arrive: where pages end, what
/// the front page shows, what the pages are called and link to.
@Suite struct PaginationTests {
    /// Cards `c1`…`cN` (`c1` the oldest), created at their number, as read in this order.
    static func cards(_ numbers: some Sequence<Int>, pinned: Set<Int> = [], categories: [FeedCategory] = []) -> [Card] {
        numbers.enumerated().map { order, number in
            var card = Card(id: "c\(number)", type: .textAnnouncement, source: CardSource(file: "cards.json", index: order, order: order))
            card.created = Int64(number)
            card.updated = Int64(number)
            card.pinned = pinned.contains(number)
            card.categories = categories
            return card
        }
    }

    /// Each page of the "all" feed as its path and the ids of its cards, in order.
    static func pages(_ selection: Selection) -> [(path: String, ids: [String])] {
        let all = selection.feeds[0]
        return all.pages.map { page in (page.path, page.cards.map { selection.cards[all.cards[$0]].id }) }
    }

    /// The ids whose hash is a multiple of 4 among c1…c10: c2, c3, c7, c8, c9 (see the next test).
    static let endsOfFour = ["c2", "c3", "c7", "c8", "c9"]

    /// Every build on every machine cuts the same pages: the hash is FNV-1a and a fixed mixer,
    /// not Swift's `Hasher`, which is seeded anew in each process.
    @Test func thePageEndHashIsTheSameInEveryRun() {
        #expect(PageEnds.hash("nf-welcome") == 0xd30b_16e0_eae0_55f7)
        #expect(PageEnds.hash("") == 0xefd0_1f60_ba99_2926)
        #expect((1...10).map { "c\($0)" }.filter { PageEnds.endsPage($0, pageSize: 4) } == Self.endsOfFour)
        #expect(!PageEnds.endsPage("c7", pageSize: 0), "a page size of 0 ends no page")
        // Pages hold the page size on average: a card in 20 ends a page of 20.
        let ends = (0..<100_000).count { PageEnds.endsPage("card-\($0)", pageSize: 20) }
        #expect((4_800...5_200).contains(ends))
    }

    /// From the oldest, a page ends at each page-end card; the front page shows the newer cards
    /// and the newest pages, until it shows at least a page's worth, and links the next.
    @Test func pagesEndAtTheirCardsFromTheOldest() {
        let selection = FeedSelector(now: 100, pageSize: 4).select(Self.cards(1...10))
        let pages = Self.pages(selection)
        #expect(pages.map(\.path) == ["index.html", "page-c9.html", "page-c8.html", "page-c7.html", "page-c3.html", "page-c2.html"])
        #expect(pages.map(\.ids) == [
            ["c10", "c9", "c8", "c7", "c6", "c5", "c4"],
            ["c9"], ["c8"], ["c7", "c6", "c5", "c4"], ["c3"], ["c2", "c1"],
        ])
        #expect(selection.feeds[0].archiveOnFront == 3, "c10 alone, then 2, 3, then 7 cards")
        #expect(FeedSelector(now: 100, pageSize: 0).select(Self.cards(1...10)).feeds[0].pages.map(\.cards.count) == [10], "page size 0: one page")
        let empty = FeedSelector(now: 100, pageSize: 4).select([]).feeds[0]
        #expect(empty.pages.map(\.path) == ["index.html"] && empty.front.cards.isEmpty)
    }

    /// Adding a card changes the front page alone, unless it ends a page, which is then new;
    /// removing one changes its own page, or merges it with the next newer one when it ended it.
    @Test func aCardComingOrGoingChangesItsOwnPageOnly() {
        func archive(_ cards: [Card]) -> [String: [String]] {
            let selection = FeedSelector(now: 10_000, pageSize: 5).select(cards)
            return Dictionary(uniqueKeysWithValues: Self.pages(selection).dropFirst().map { ($0.path, $0.ids) })
        }
        func changed(_ before: [String: [String]], _ after: [String: [String]]) -> Set<String> {
            Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        }
        let all = Self.cards(1...300)
        let full = archive(all)
        #expect((40...80).contains(full.count))
        // Where a run between page ends is longer than twice the page size and cut (see
        // `PageEnds`), a removal may change a second page (a cut moved), or a third for a page
        // end (the merged page cut again), in one removal in seven at this small page size,
        // and one more page in a few removals of a hundred.
        var oneMore = 0
        for removed in all.indices {
            let without = archive(Array(all[..<removed] + all[(removed + 1)...]))
            let id = all[removed].id
            let count = changed(full, without).count
            let usually = PageEnds.endsPage(id, pageSize: 5) ? 3 : 2
            #expect(count <= 4, "removing \(id)")
            if count > usually { oneMore += 1 }
        }
        #expect(oneMore * 40 <= all.count, "\(oneMore) removals changed one page more")
        #expect(changed(full, archive(all + Self.cards([301]))).isEmpty, "c301 ends no page")
        let ending = (302...400).first { PageEnds.endsPage("c\($0)", pageSize: 5) }!
        #expect(changed(full, archive(all + Self.cards([ending]))) == ["page-c\(ending).html"])
    }

    /// No page holds more than twice the page size, whatever the ids, and pages average between
    /// half and one and a half times it: for ordinary ids, ids that never end a page, ids that
    /// all do; the last two are cut by count (and the build warns).
    @Test func pagesAreBoundedWhateverTheIds() {
        let pageSize = 20
        func sizes(_ ids: [String]) -> (pages: [Int], byCount: Bool) {
            let (ends, byCount, _) = PageEnds.ends(ids.map(PageEnds.hash), pageSize: pageSize)
            return (zip([-1] + ends, ends).map { $1 - $0 }, byCount)
        }
        let ordinary = (0..<100_000).map { "card-\($0)" }
        let never = (0..<200_000).lazy.map { "card-\($0)" }.filter { !PageEnds.endsPage($0, pageSize: pageSize) }.prefix(20_000)
        let always = (0..<400_000).lazy.map { "id\($0)" }.filter { PageEnds.endsPage($0, pageSize: pageSize) }.prefix(5_000)
        for (name, ids, cutByCount) in [("ordinary", ordinary, false), ("never a page end", Array(never), true), ("always a page end", Array(always), true)] {
            let (pages, byCount) = sizes(ids)
            let average = Double(pages.reduce(0, +)) / Double(pages.count)
            #expect(pages.max()! <= 2 * pageSize, "\(name): \(pages.max()!)")
            #expect((0.5...1.5).contains(average / Double(pageSize)), "\(name): \(average)")
            #expect(byCount == cutByCount, "\(name)")
        }
        // Ids that end no page for a while: the run is cut at its smallest hash, not at its
        // end, so that the cut stays put as cards come and go around it.
        let run = Array(never.prefix(100))
        let (ends, _, _) = PageEnds.ends(run.map(PageEnds.hash), pageSize: pageSize)
        #expect(ends.count >= 2 && zip([-1] + ends, ends + [run.count - 1]).allSatisfy { (pageSize / 2...2 * pageSize).contains($1 - $0) })
        var without = run
        without.remove(at: 5)
        let cut = PageEnds.ends(without.map(PageEnds.hash), pageSize: pageSize).ends[0]
        #expect(without[cut] == run[ends[0]], "a card removed before the cut leaves it at its card")
    }

    /// A small feed's page ends are too few for the statistics to tell chosen ids from chance,
    /// yet its archive pages still average at most one and a half page sizes: ids that end no
    /// page, and ordinary ones, in feeds of 1 to 12 page sizes.
    @Test func smallFeedsAverageAtMostOneAndAHalfPageSizes() {
        let pageSize = 20
        let never = (0..<2_000).map { "card-\($0)" }.filter { !PageEnds.endsPage($0, pageSize: pageSize) }
        for count in stride(from: pageSize, through: 12 * pageSize, by: 3) {
            for (name, ids) in [("never a page end", Array(never.dropFirst(40).prefix(count))), ("ordinary", (0..<count).map { "s\(count)-\($0)" })] {
                let (ends, _, _) = PageEnds.ends(ids.map(PageEnds.hash), pageSize: pageSize)
                guard let last = ends.last else { continue }
                let pages = zip([-1] + ends, ends).map { $1 - $0 }
                #expect(Double(last + 1) / Double(ends.count) <= 1.5 * Double(pageSize), "\(name), \(count) cards: \(pages)")
                #expect(pages.max()! <= 2 * pageSize && pages.min()! >= 1, "\(name), \(count) cards: \(pages)")
            }
        }
    }

    /// Pinned cards come first on the front page, and stand at their date in the archive.
    @Test func pinnedCardsStandAtTheirDateInTheArchive() {
        let selection = FeedSelector(now: 100, pageSize: 4).select(Self.cards(1...10, pinned: [1, 6]))
        let pages = Self.pages(selection)
        #expect(pages[0].ids == ["c6", "c1", "c10", "c9"], "pinned cards count towards the page's worth")
        #expect(pages.map(\.ids).dropFirst() == [["c9"], ["c8"], ["c7", "c6", "c5", "c4"], ["c3"], ["c2", "c1"]])
    }

    /// The front page adds archive pages only while it holds at most two pages' worth, its
    /// pinned cards counted: more only where its pinned cards and the cards newer than the
    /// newest page end, which no other page shows, are more than that together.
    @Test func theFrontPageCountsItsPinnedCardsInItsBound() {
        let pageSize = 4
        var checked = 0
        for newest in 8...80 {
            for count in 1...3 {
                let pinned = Set([1, 3, 5].prefix(count))
                let feed = FeedSelector(now: 1000, pageSize: pageSize).select(Self.cards(1...newest, pinned: pinned)).feeds[0]
                let shownElsewhere = Set(feed.archive.prefix(feed.archiveOnFront).flatMap(\.cards))
                let newest = feed.front.cards.dropFirst(pinned.count).count { !shownElsewhere.contains($0) }
                #expect(feed.front.cards.count <= max(2 * pageSize, pinned.count + newest), "c1…c\(newest), \(count) pinned: \(feed.front.cards.count) cards")
                if feed.archiveOnFront > 0 { checked += 1 }
            }
        }
        #expect(checked > 10, "fronts that show archive pages")
    }

    /// An archive page is named after the anchor of its newest card, whatever case its id has.
    @Test func archivePagesAreNamedAfterTheCardThatEndsThem() {
        #expect(PagePaths.front(folder: "") == "index.html")
        #expect(PagePaths.front(folder: "news") == "news/index.html")
        #expect(PagePaths.archive(folder: "", endingWith: "card-summer-sale") == "page-summer-sale.html")
        #expect(PagePaths.archive(folder: "news", endingWith: "card-Summer_Sale") == "news/page-~summer_~sale.html")
        #expect(PagePaths.archive(folder: "news", endingWith: "card-summer_sale") == "news/page-summer_sale.html", "not the same file, also where case does not count")
        #expect(PagePaths.archive(folder: "news", endingWith: "card-caf--3f2a1b0c") == "news/page-caf--3f2a1b0c.html")
        #expect(PagePaths.root(feed: Self.builtin("all")) == "./")
        #expect(PagePaths.root(feed: Self.builtin("news")) == "../")
    }

    /// The built-in feeds, by slug.
    static func builtin(_ slug: String) -> Feed { Feed.builtin.first { $0.slug == slug }! }

    /// Newer and Older from every page, and Latest from the archive pages the front page does
    /// not link as their newer one; a front page showing its feed whole has none.
    @Test func paginationLinksTheNeighboursAndTheFrontPage() throws {
        let feed = FeedSelector(now: 100, pageSize: 4).select(Self.cards(1...10)).feeds[0]
        func links(_ index: Int) -> [String?] {
            guard let view = PaginationView(feed, page: index) else { return [] }
            return [view.newer, view.older, view.latest]
        }
        #expect(links(0) == [nil, "page-c3.html", nil], "the front page shows up to page-c7")
        #expect(links(1) == ["index.html", "page-c8.html", nil])
        #expect(links(4) == ["page-c7.html", "page-c2.html", "index.html"])
        #expect(links(5) == ["page-c3.html", nil, "index.html"])
        let whole = FeedSelector(now: 100, pageSize: 20).select(Self.cards(1...10)).feeds[0]
        #expect(whole.archive.count == 3 && PaginationView(whole, page: 0) == nil)
    }

    /// A card's permalink names the archive page of its home feed that shows it; a card newer
    /// than every page end is on the front page alone.
    @Test func permalinksNameTheArchivePage() {
        let selection = FeedSelector(now: 100, pageSize: 4).select(Self.cards(1...10, categories: [.news]))
        let places = CardPlaces(selection, cardPages: false)
        let position = { (id: String) in selection.cards.firstIndex { $0.id == id }! }
        #expect(places.permalink(position: position("c5"), anchor: "card-c5") == "page-c7.html#card-c5")
        #expect(places.permalink(position: position("c10"), anchor: "card-c10") == "index.html#card-c10")
        #expect(CardPlaces(selection, cardPages: true).permalink(position: position("c5"), anchor: "card-c5") == "cards/card-c5.html")
    }

    /// An archive page's days, in the page's language, on the site's clocks.
    @Test func dateRanges() throws {
        let english = StringTable(locale: "en", values: try #require(StringTable.builtin("en")))
        let german = StringTable(locale: "de", values: try #require(StringTable.builtin("de")))
        let day: Int64 = 86_400
        let march2 = Int64(1_772_409_600)  // 2026-03-02T00:00:00Z
        #expect(english.dateRange(march2 - 19 * day, march2 + 3600, in: .utc) == "Feb 11 – Mar 2, 2026")
        #expect(english.dateRange(march2, march2 + 3600, in: .utc) == "Mar 2, 2026")
        #expect(english.dateRange(march2 - 70 * day, march2, in: .utc) == "Dec 22, 2025 – Mar 2, 2026")
        #expect(german.dateRange(march2 - 19 * day, march2, in: .utc) == "11. Feb. – 2. März 2026")
    }
}
