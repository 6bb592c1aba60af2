import Dispatch
import Foundation

/// A file of the output: rendered text, bytes, a file copied from the site, or a page streamed
/// to disk when it is written.
public struct OutputFile: Sendable {
    public enum Content: Sendable {
        case text(String)
        case data(Data)
        case copy(URL)
        case stream(@Sendable (OutputSink) throws -> Void)
    }

    /// Relative to the output folder, "/"-separated.
    public var path: String
    public var content: Content

    /// Writes the file's bytes to `sink`, which the caller finishes: a fresh build's file, a
    /// rebuild's comparing sink, or `serve`'s in-memory one.
    func write(to sink: OutputSink) throws {
        switch content {
        case .text(let text): try sink.write(text)
        case .data(let data): try data.withUnsafeBytes { try sink.write($0.bindMemory(to: UInt8.self)) }
        case .copy(let source):
            let data = try Data(contentsOf: source)
            try data.withUnsafeBytes { try sink.write($0.bindMemory(to: UInt8.self)) }
        case .stream(let write): try write(sink)
        }
    }
}

/// Step 3 of a build: every card rendered once, then every page of every feed.
struct SiteRenderer {
    let templates: TemplateSet
    let settings: RenderSettings
    /// False to render every card through Mustache (tests compare the two).
    var useBuiltinWriter = true
    /// With `serve`: cards rendered by the previous build, reused when nothing they depend on changed.
    var incremental: IncrementalState?

    /// Cards rendered at a time: both cores share a batch, then it goes to the output.
    static let defaultBatchSize = 4096
    var batchSize = Self.defaultBatchSize
    /// Told, after each batch, how many cards have been rendered.
    var progress: (@Sendable (_ cards: Int) -> Void)?

    /// Renders every card once, in display order, into `output` (the pages themselves, or a
    /// spool they copy from; nil: render and discard, for `cardfeed check`). Returns the
    /// descriptions, as HTML, of the cards at `keepDescriptions` (the feed files need them), nil
    /// elsewhere.
    func renderCards(_ cards: ShownCards, into output: RenderedCards?, keepDescriptions: Set<Int>) throws -> [String?] {
        var descriptions = [String?](repeating: nil, count: cards.count)
        let keys = ConcurrentResults<Int>(count: incremental == nil ? 0 : cards.count)
        // A batch goes to the output on another thread while the next one renders; at most two
        // wait there, so that rendered cards do not pile up in memory if writing falls behind.
        let outputQueue = DispatchQueue(label: "cardfeed.rendered")
        let waiting = DispatchSemaphore(value: 2)
        let outputFailure = ConcurrentResults<Error?>(count: 1)
        outputFailure.set(0, nil)
        for batchStart in stride(from: 0, to: cards.count, by: batchSize) {
            let batch = batchStart..<min(cards.count, batchStart + batchSize)
            let html = ConcurrentResults<String>(count: batch.count)
            let kept = ConcurrentResults<String?>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: (batch.count + 255) / 256) { chunk in
                for offset in chunk * 256..<min(batch.count, chunk * 256 + 256) {
                    let position = batch.lowerBound + offset
                    let card = cards[position]
                    let key = incremental.map { _ in renderKey(card, position: position) }
                    if let key { keys.set(position, key) }
                    if let key, let cached = incremental?.cachedCard(key) {
                        html.set(offset, cached.html)
                        kept.set(offset, keepDescriptions.contains(position) ? cached.description : nil)
                        continue
                    }
                    let description = card.description.map { Markdown.html($0, linkSchemes: settings.links.linkSchemes) }
                    let rendered = renderCard(card, description: description, position: position)
                    if let key { incremental?.storeCard(key, (rendered, description)) }
                    html.set(offset, rendered)
                    kept.set(offset, keepDescriptions.contains(position) ? description : nil)
                }
            }
            if let output {
                let rendered = html.values
                waiting.wait()
                outputQueue.async {
                    defer { waiting.signal() }
                    guard outputFailure.values[0] == nil else { return }
                    do { try output.append(rendered, at: batch) } catch { outputFailure.set(0, error) }
                }
            }
            for (offset, description) in kept.values.enumerated() where description != nil {
                descriptions[batch.lowerBound + offset] = description
            }
            progress?(batch.upperBound)
        }
        outputQueue.sync {}
        if let failure = outputFailure.values[0] { throw failure }
        incremental?.cardKeys = keys.values
        return descriptions
    }

    /// What a card's HTML depends on: the card, its place (its permalink names its page), the
    /// templates and the settings.
    func renderKey(_ card: Card, position: Int) -> Int {
        var hasher = Hasher()
        card.fields.fingerprint(into: &hasher)
        hasher.combine(settings.permalink(position: position, card: card))
        hasher.combine(templates.fingerprint)
        hasher.combine(settings.fingerprint)
        return hasher.finalize()
    }

    func renderCard(_ card: Card, description: String?, position: Int) -> String {
        let view = CardView(card: card, descriptionHTML: description, settings: settings, permalink: settings.permalink(position: position, card: card))
        if useBuiltinWriter && templates.usesBuiltinTemplates(card) { return BuiltinCardWriter().render(view) }
        return templates.render(templates.template(for: card), view)
    }

    /// Every page of every feed, each written when the writer gets to it: the page template
    /// around the page's cards, whose HTML is copied from `spool`. With `serve`, a page made of
    /// the same cards, frame and settings as last time is left out (see `IncrementalState`).
    func renderPages(_ selection: Selection, spool: CardSpool) -> [OutputFile] {
        var files: [OutputFile] = []
        // What every page's frame depends on besides its own place: the templates, the
        // settings, and every feed's counts (the navigation shows them).
        var frameHasher = Hasher()
        frameHasher.combine(templates.fingerprint)
        frameHasher.combine(settings.fingerprint)
        for feed in selection.feeds {
            frameHasher.combine(feed.feed.slug)
            frameHasher.combine(feed.cards.count)
            frameHasher.combine(feed.pages.count)
        }
        let frameKey = frameHasher.finalize()
        for feed in selection.feeds {
            let views = pageViews(selection, feed)
            let frames = writesBuiltinPages ? builtinFrames(selection, feed) : nil
            for (number, range) in feed.pages.enumerated() {
                let page = number + 1
                let positions = feed.cards[range]
                let path = PagePaths.file(feed: feed.feed, page: page)
                if let incremental {
                    var hasher = Hasher()
                    hasher.combine(frameKey)
                    hasher.combine(path)
                    for position in positions { hasher.combine(incremental.cardKeys[position]) }
                    if incremental.pageIsUnchanged(path, key: hasher.finalize()) { continue }
                }
                // The page's frame is made when the page is written, on the writer's threads.
                files.append(OutputFile(path: path, content: .stream { [templates] sink in
                    guard let frames else {
                        try PageFrame(view: views(page), templates: templates).write(positions, from: spool, to: sink)
                        return
                    }
                    // The built-in page puts a newline after each card: the spool has them already.
                    let parts = frames(page, !positions.isEmpty)
                    try sink.write(parts.before)
                    try spool.copyEachWithNewline(positions, to: sink)
                    try sink.write(parts.after)
                }))
            }
        }
        return files
    }

    /// True when the built-in page writer writes every page (no page template is overridden).
    var writesBuiltinPages: Bool { useBuiltinWriter && templates.usesBuiltinPage }

    /// Every feed's pages, for `PageStreams` to write as the cards render; each page's frame is
    /// made when the page is begun. Only with `writesBuiltinPages`.
    func pageStreams(_ selection: Selection) -> [PageStreams.FeedPages] {
        precondition(writesBuiltinPages)
        return selection.feeds.map { feed in
            let frames = builtinFrames(selection, feed)
            return PageStreams.FeedPages(
                feed: feed,
                paths: feed.pages.indices.map { PagePaths.file(feed: feed.feed, page: $0 + 1) }
            ) { index in frames(index + 1, !feed.pages[index].isEmpty) }
        }
    }

    /// The built-in page writer's text around the cards of `feed`'s pages, by page number: what
    /// the pages share is written once, and so is a paginated feed's text before the cards,
    /// for all its pages but the first (see `BuiltinPageWriter.NumberedBefore`).
    func builtinFrames(_ selection: Selection, _ feed: FeedSelection) -> @Sendable (_ page: Int, _ hasCards: Bool) -> (before: String, after: String) {
        let views = pageViews(selection, feed)
        let writer = BuiltinPageWriter()
        let shared = writer.feedParts(views(1))
        let numbered = BuiltinPageWriter.NumberedBefore(pageCount: feed.pages.count) { writer.before(views($0), shared) }
        return { page, hasCards in
            guard page > 1, let numbered else { return writer.frame(views(page), hasCards: hasCards, shared: shared) }
            let pagination = PaginationView(feed: feed.feed, page: page, total: feed.pages.count)
            return (numbered.before(page), writer.after(pagination, hasCards: hasCards, shared))
        }
    }

    func navItems(_ selection: Selection, current: FeedSelection) -> [NavItem] {
        selection.feeds.map { other in
            NavItem(
                slug: other.feed.slug, title: settings.strings.feedTitle(other.feed), count: other.cards.count,
                countNoun: settings.strings.plural("navCards", other.cards.count),
                href: PagePaths.href(feed: other.feed, page: 1), current: other.feed == current.feed)
        }
    }

    /// The views of `feed`'s pages, by page number, without their cards. What the pages share
    /// (the navigation, the feed's title and card count, the way back to the root, the feed
    /// links) is made once: a paginated feed has thousands of pages.
    func pageViews(_ selection: Selection, _ feed: FeedSelection) -> @Sendable (_ page: Int) -> PageView {
        let nav = navItems(selection, current: feed)
        let feedView = FeedView(feed, strings: settings.strings)
        let alternates = settings.baseURL == nil ? [] : [AlternateView(feed: feed.feed, title: Syndication.title(feed.feed, settings))]
        let root = PagePaths.root(feed: feed.feed)
        return { [settings] page in
            PageView(
                settings: settings, feed: feedView.onPage(page, of: feed.pages.count, strings: settings.strings), nav: nav,
                cards: [],
                pagination: PaginationView(feed: feed.feed, page: page, total: feed.pages.count),
                alternates: alternates, root: root,
                path: PagePaths.file(feed: feed.feed, page: page))
        }
    }

    func pageView(_ selection: Selection, _ feed: FeedSelection, page: Int, cards: [String]) -> PageView {
        var view = pageViews(selection, feed)(page)
        view.cards = cards
        return view
    }

    func renderPage(_ view: PageView) -> String { templates.render(TemplateSet.pageTemplate, view) }
}

/// A site's own page template split around its cards, so that a page of 100,000 cards is
/// streamed: the template is rendered with up to three marker cards, and what stands before the
/// first, between two and after the last is written around the real cards' HTML. A template
/// whose text between cards depends on their position (`{{#index()}}`...) is rendered whole
/// instead. (The built-in page template is written by `BuiltinPageWriter`.)
struct PageFrame: Sendable {
    private static let marker = "\u{1}cardfeed-card-\(UInt64.random(in: 0...UInt64.max))-"

    let view: PageView
    let templates: TemplateSet

    func write(_ positions: ArraySlice<Int>, from spool: CardSpool, to sink: OutputSink) throws {
        var markedView = view
        markedView.cards = (0..<min(positions.count, 3)).map { Self.marker + "\($0)\u{1}" }
        let marked = templates.render(TemplateSet.pageTemplate, markedView)
        guard let parts = Self.split(marked, markers: markedView.cards) else {
            var whole = view
            whole.cards = try positions.map { try spool.html(at: $0) }
            try sink.write(templates.render(TemplateSet.pageTemplate, whole))
            return
        }
        try sink.write(parts.prefix)
        try spool.copy(positions, separator: parts.separator, to: sink)
        try sink.write(parts.suffix)
    }

    /// The text before the first marker, between markers and after the last, when every marker
    /// stands exactly once and the text between markers is always the same.
    static func split(_ text: String, markers: [String]) -> (prefix: String, separator: String, suffix: String)? {
        var rest = Substring(text)
        var pieces: [Substring] = []
        for marker in markers {
            guard let found = rest.range(of: marker) else { return nil }
            pieces.append(rest[..<found.lowerBound])
            rest = rest[found.upperBound...]
            if rest.range(of: marker) != nil { return nil }
        }
        guard rest.range(of: "\u{1}cardfeed-card-") == nil else { return nil }
        let separators = pieces.dropFirst()
        guard Set(separators).count <= 1 else { return nil }
        return (String(pieces.first ?? ""), String(separators.first ?? ""), String(rest))
    }
}

/// The stylesheets a build generates from cardfeed.yml's theme and the cards' style extras.
/// Custom properties go into files rather than `style` attributes, so that pages work under a
/// Content Security Policy that forbids inline styles.
enum GeneratedStyles {
    static let themeFile = "assets/theme.css"
    static let cardStylesFile = "assets/card-styles.css"

    static func theme(_ theme: Theme) -> String? {
        guard !theme.isEmpty else { return nil }
        var css = "/* Generated by cardfeed from the theme in cardfeed.yml. */\n"
        if !theme.light.isEmpty { css += block(":root", theme.light) }
        if !theme.dark.isEmpty { css += "@media (prefers-color-scheme: dark) {\n" + block(":root", theme.dark) + "}\n" }
        return css
    }

    /// One rule per styled card, by its anchor id, in display order.
    static func cards(_ cards: ShownCards) -> String? {
        let styled = cards.indices.filter { !cards[$0].styles.isEmpty }
        guard !styled.isEmpty else { return nil }
        return "/* Generated by cardfeed from the cards' background_color, text_color and accent_color extras. */\n"
            + styled.map { block("#" + Formatting.anchor(for: cards[$0].id), cards[$0].styles) }.joined()
    }

    private static func block(_ selector: String, _ properties: [(name: String, value: String)]) -> String {
        "\(selector) {\n" + properties.map { "  --cf-\($0.name): \($0.value);\n" }.joined() + "}\n"
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
