import Dispatch
import Foundation

/// A file of the output: rendered text, bytes, or a file copied from the site.
public struct OutputFile: Sendable {
    public enum Content: Sendable {
        case text(String)
        case data(Data)
        case copy(URL)
    }

    /// Relative to the output folder, "/"-separated.
    public var path: String
    public var content: Content
}

/// Step 3 of a build: every card rendered once, then every page of every feed.
struct SiteRenderer {
    let templates: TemplateSet
    let images: ImageURLs
    let siteTitle: String

    /// Each card's HTML, in the order of `cards`. Cards are independent, so both cores work.
    func renderCards(_ cards: [Card]) -> [String] {
        let results = ConcurrentResults<String>(count: cards.count)
        let chunk = 256
        let chunks = (cards.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            for position in index * chunk..<min(cards.count, (index + 1) * chunk) {
                results.set(position, renderCard(cards[position]))
            }
        }
        return results.values
    }

    func renderCard(_ card: Card) -> String {
        let description = card.description.map(Markdown.html)
        let view = CardView(card: card, descriptionHTML: description, images: images)
        return templates.render(TemplateSet.cardTemplate(card.type), view)
    }

    func renderPages(_ selection: Selection, cardHTML: [String]) -> [OutputFile] {
        var files: [OutputFile] = []
        for feed in selection.feeds {
            for (number, range) in feed.pages.enumerated() {
                let page = number + 1
                let nav = selection.feeds.map { other in
                    NavItem(
                        slug: other.feed.slug, title: other.feed.title, count: other.cards.count,
                        href: PagePaths.href(feed: other.feed, page: 1), current: other.feed == feed.feed)
                }
                let view = PageView(
                    siteTitle: siteTitle, feed: FeedView(feed), nav: nav,
                    cards: feed.cards[range].map { cardHTML[$0] },
                    pagination: PaginationView(feed: feed.feed, page: page, total: feed.pages.count),
                    root: PagePaths.root(feed: feed.feed, page: page),
                    path: PagePaths.file(feed: feed.feed, page: page))
                files.append(OutputFile(path: PagePaths.file(feed: feed.feed, page: page), content: .text(templates.render(TemplateSet.pageTemplate, view))))
            }
        }
        return files
    }
}

/// A fixed-size array that concurrent workers fill, each at its own index.
final class ConcurrentResults<Value>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        storage.initialize(repeating: nil, count: count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Safe without a lock: every index is written by exactly one worker, and the values are
    /// read only after all of them have finished.
    func set(_ index: Int, _ value: Value) {
        precondition(index >= 0 && index < count)
        storage[index] = value
    }

    var values: [Value] { (0..<count).map { storage[$0]! } }
}
