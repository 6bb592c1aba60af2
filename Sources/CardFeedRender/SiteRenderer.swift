import CardFeedMustache
import Dispatch
import Foundation
import CardFeedLoad
import CardFeedModel
import CardFeedSelect
import CardFeedSystem
import CardFeedWrite

/// A card as rendered: its HTML, its description as HTML (which the feed files show), and with
/// card pages the description's words (its page's meta description).
public struct RenderedCard: Sendable {
    package var html: [UInt8]
    package var description: String?
    package var words: String?

    package init(html: [UInt8], description: String?, words: String?) {
        self.html = html
        self.description = description
        self.words = words
    }
}

/// Step 3 of a build: every card rendered once, into the pages of every feed that shows it, and
/// with card pages into its own.
package struct SiteRenderer {
    let templates: TemplateSet
    let settings: RenderSettings
    /// Cards rendered at a time: both cores share a batch, then it goes to the output.
    package static let defaultBatchSize = 4096
    package var batchSize = Self.defaultBatchSize
    /// Told, after each batch, how many cards have been rendered.
    package var progress: (@Sendable (_ cards: Int) -> Void)?
    /// On a site in several languages, its pages in the others, and which tree this renders.
    package var languages: (links: LanguageLinks, tree: Int)?

    package init(templates: TemplateSet, settings: RenderSettings) {
        self.templates = templates
        self.settings = settings
    }

    /// Every page of every feed, streamed into `output` as the cards render (`cardfeed check`'s
    /// keeps nothing). With a cache, a card or page made of the same as in the
    /// last build is not made again. Returns the descriptions of the cards at
    /// `keepDescriptions`, as `renderCards` does.
    /// With `cache` (`serve`'s), a card rendered by the previous build is taken from it when
    /// nothing it is made of changed (see `CardRenderKey`), and the pages get keys (`PageKey`).
    /// With search, each card page's search document goes into `searchDocuments` (see `CardPages`).
    /// `keys`: the tree's, when its caller worked them out already (`renderKeys`).
    package func renderPages(
        _ selection: Selection, into output: any OutputTarget, searchDocuments: (any OutputTarget)? = nil, keepDescriptions: Set<Int>,
        reusing cache: ReuseCache<RenderedCard>? = nil, keys given: RenderKeys? = nil
    ) throws -> [String?] {
        let keys = cache == nil ? nil : given ?? renderKeys(selection)
        let places = keys?.places ?? CardPlaces(selection, cardPages: settings.cardPages)
        let pages = try PageStreams(pageStreams(selection, keys: keys), into: output)
        let cardPages = settings.cardPages ? try CardPages(self, selection, places: places, keys: keys, into: output, searchDocuments: searchDocuments) : nil
        // With a cache, a card that no page made anew shows is kept for the next build unread.
        let onPagesMade = keys == nil ? nil : pages.cardsOnPagesMade(count: selection.cards.count)
        let shown = onPagesMade.map { onPagesMade in
            { @Sendable (position: Int) in onPagesMade[position] || cardPages?.makesPage(position: position) == true }
        }
        let descriptions = try renderCards(
            selection.cards, places: places, reusing: keys.map { (cache!, $0.cards) }, shownOnPagesMade: shown, into: pages, cardPages: cardPages,
            keepDescriptions: keepDescriptions)
        try pages.finish()
        return descriptions
    }

    /// Renders every card once, in display order, into `output` (the pages, as they stream), and
    /// makes each card's own page with `cardPages`. Returns the descriptions, as HTML, of the
    /// cards at `keepDescriptions` (the feed files need them), nil elsewhere.
    /// With `reuse`, a card is taken from its cache when it holds the card's key, and with
    /// `shownOnPagesMade`, a card that no page made anew shows (nor its own page) is not even
    /// read from it, only kept there for the next build (`ReuseCache.keepUnread`): its HTML goes
    /// to no page. (At 100,000 cards, reading every card back took a tenth of a rebuild.)
    func renderCards(
        _ cards: ShownCards, places: CardPlaces, reusing reuse: (cache: ReuseCache<RenderedCard>, keys: [Int])? = nil,
        shownOnPagesMade: (@Sendable (Int) -> Bool)? = nil, into output: RenderedCards, cardPages: CardPages? = nil, keepDescriptions: Set<Int>
    ) throws -> [String?] {
        var descriptions = [String?](repeating: nil, count: cards.count)
        // A batch goes to the output on another thread while the next one renders; at most two
        // wait there, so that rendered cards do not pile up in memory if writing falls behind.
        let outputQueue = DispatchQueue(label: "cardfeed.rendered")
        let waiting = DispatchSemaphore(value: 2)
        let outputFailure = ConcurrentResults<Error?>(count: 1)
        outputFailure.set(0, nil)
        // Without feed files no description is kept, and asking an empty set hashes all the same.
        let keepsAny = !keepDescriptions.isEmpty
        // Worked out once: `linkSchemes` builds a set, and every card's description needs it.
        let linkSchemes = settings.links.linkSchemes
        // Without `links.new_tab` no description link opens in a new tab, and none is asked.
        let links = settings.links
        let opensInNewTab: (@Sendable (String) -> Bool)? = links.newTab.isEmpty ? nil : { @Sendable (url: String) -> Bool in links.opensInNewTab(url) }
        for batchStart in stride(from: 0, to: cards.count, by: batchSize) {
            let batch = batchStart..<min(cards.count, batchStart + batchSize)
            let html = ConcurrentResults<[UInt8]>(count: batch.count)
            let kept = ConcurrentResults<String?>(count: batch.count)
            let chunks = (batch.count + 255) / 256
            let failures = ConcurrentResults<Error?>(count: chunks)
            Parallel.perform(iterations: chunks) { chunk in
                failures.set(chunk, nil)
                var scratch = MustacheBytes(capacity: 16384)
                var pageScratch = MustacheBytes(capacity: cardPages == nil ? 0 : 16384)
                let offsets = chunk * 256..<min(batch.count, chunk * 256 + 256)
                // By offset in the chunk: the card is kept in the cache unread.
                var unread = [Bool](repeating: false, count: offsets.count)
                // Kept for the next build a chunk at a time (see `ReuseCache.store(contentsOf:)`).
                var made: [(key: Int, value: RenderedCard)] = []
                if reuse != nil { made.reserveCapacity(offsets.count) }
                defer { reuse?.cache.store(contentsOf: made) }
                if let reuse, let shownOnPagesMade {
                    let unshown = offsets.filter { offset in
                        let position = batch.lowerBound + offset
                        return !shownOnPagesMade(position) && !(keepsAny && keepDescriptions.contains(position))
                    }
                    for (offset, kept) in zip(unshown, reuse.cache.keepUnread(unshown.map { reuse.keys[batch.lowerBound + $0] })) {
                        unread[offset - offsets.lowerBound] = kept
                    }
                }
                for offset in offsets {
                    let position = batch.lowerBound + offset
                    let key = reuse?.keys[position]
                    if unread[offset - offsets.lowerBound] {
                        html.set(offset, [])
                        kept.set(offset, nil)
                        continue
                    }
                    let card = cards[position]
                    let anchor = cards.anchor(at: position)
                    let rendered: RenderedCard
                    if let key, let cached = reuse?.cache.value(for: key) {
                        rendered = cached
                    } else {
                        // A card's page describes it by its words, which come from the same parse as its HTML.
                        var words: String?
                        let description = card.description.map { description in
                            if card.descriptionFormat == .text {
                                if cardPages != nil { words = HTMLText.words(description) }
                                return PlainText.html(description)
                            }
                            guard cardPages != nil else { return Markdown.html(description, linkSchemes: linkSchemes, opensInNewTab: opensInNewTab) }
                            let (html, text) = Markdown.htmlAndText(description, linkSchemes: linkSchemes, opensInNewTab: opensInNewTab)
                            words = text
                            return html
                        }
                        do throws(TemplateFailure) {
                            let html = try renderCard(card, description: description, anchor: anchor, permalink: places.permalink(position: position, anchor: anchor), using: &scratch)
                            rendered = RenderedCard(html: html, description: description, words: words)
                        } catch {
                            failures.set(chunk, error)
                            return
                        }
                        if let key { made.append((key, rendered)) }
                    }
                    html.set(offset, rendered.html)
                    kept.set(offset, keepsAny && keepDescriptions.contains(position) ? rendered.description : nil)
                    do {
                        try cardPages?.write(card, position: position, anchor: anchor, rendered: rendered, using: &pageScratch)
                    } catch {
                        failures.set(chunk, error)
                        return
                    }
                }
            }
            if let failure = failures.values.lazy.compactMap({ $0 }).first {
                outputQueue.sync {}
                throw failure
            }
            let rendered = html.values
            waiting.wait()
            outputQueue.async {
                defer { waiting.signal() }
                guard outputFailure.values[0] == nil else { return }
                do { try output.append(rendered, at: batch) } catch { outputFailure.set(0, error) }
            }
            for (offset, description) in kept.values.enumerated() where description != nil {
                descriptions[batch.lowerBound + offset] = description
            }
            progress?(batch.upperBound)
        }
        outputQueue.sync {}
        if let failure = outputFailure.values[0] { throw failure }
        return descriptions
    }

    /// `scratch` is memory to render in, reused from card to card.
    func renderCard(_ card: Card, description: String?, anchor: String, permalink: String, using scratch: inout MustacheBytes) throws(TemplateFailure) -> [UInt8] {
        return try templates.render(TemplateObject(CardView(card: card, anchor: anchor, descriptionHTML: description, settings: settings, permalink: permalink)), using: &scratch)
    }

    /// Every feed's pages, for `PageStreams` to write as the cards render.
    /// With `keys` (see `renderKeys`), each page gets a key (see `PageKey`), with which an output
    /// that remembers keys (serve's) skips a page that did not change.
    func pageStreams(_ selection: Selection, keys: RenderKeys? = nil) -> [PageStreams.FeedPages] {
        let keys: [[Int]]? = keys.map { self.pageKeys(selection, $0) }
        return selection.feeds.indices.map { index in
            PageStreams.FeedPages(feed: selection.feeds[index], keys: keys?[index], frame: pageFrames(selection, selection.feeds[index]))
        }
    }

    /// The frames of `feed`'s pages, by index into its `pages` (0: the front page): the page
    /// template rendered for each, with holes for its cards.
    func pageFrames(_ selection: Selection, _ feed: FeedSelection) -> @Sendable (_ index: Int) throws -> PageFrame {
        let views = pageViews(selection, feed)
        return { [templates] index in
            PageFrame(try templates.render(views(index))) { templates.failure($0, card: nil) }
        }
    }

    /// The feeds the navigation lists (see `FeedSelection.listed`), and on a feed's own pages,
    /// that feed, `current`: the reader sees where they are. (A card's page has none current.)
    func navItems(_ selection: Selection, current: Feed?) -> [NavItem] {
        selection.feeds.filter { $0.listed || $0.feed == current }.map { other in
            NavItem(slug: other.feed.slug, title: settings.strings.feedTitle(other.feed), href: PagePaths.front(other.feed), current: other.feed == current)
        }
    }

    /// `.views` of the `AlternateView` of `feed`'s feed files, which a page links; none without
    /// a base URL (the files are not written) or a feed.
    func alternates(_ feed: Feed?) -> MustacheValue {
        guard let feed, settings.baseURL != nil else { return .views([AlternateView]()) }
        return .views([AlternateView(feed: feed, title: Syndication.title(feed, settings))])
    }

    /// The views of `feed`'s pages, by index into its `pages` (0: the front page). What the
    /// pages share (the navigation, the feed, the feed links) is made once: a paginated feed has
    /// thousands of pages.
    func pageViews(_ selection: Selection, _ feed: FeedSelection) -> @Sendable (_ index: Int) -> PageView {
        let nav = MustacheValue.views(navItems(selection, current: feed.feed))
        let feedView = FeedView(feed.feed, strings: settings.strings)
        let alternates = alternates(feed.feed)
        let pages = feed.pages
        let shown = selection.cards
        let languages = languages
        return { [settings] index in
            let page = pages[index]
            // The days of the cards that have one (a card without a date sorts as the oldest), of
            // those shown at their date: on the front page, not the pinned ones.
            let dated = page.cards.lazy.map { shown[feed.cards[$0]] }.filter { $0.created != nil && (index > 0 || !$0.pinned) }
            let dates = DatesView(times: dated.map { $0.sortTime }, settings: settings)
            return PageView(
                settings: settings, feed: feedView, nav: nav, cardCount: page.cards.count,
                pagination: PaginationView(feed, page: index), dates: dates, alternates: alternates, path: page.path,
                languages: languages.map { $0.links.feedPage(tree: $0.tree, slug: feed.feed.slug, front: index == 0) })
        }
    }
}

/// The stylesheets a build generates from cardfeed.yml's theme and the cards' style extras.
/// Custom properties go into files rather than `style` attributes, so that pages work under a
/// Content Security Policy that forbids inline styles.
package enum GeneratedStyles {
    package static let themeFile = "assets/theme.css"
    package static let cardStylesFile = "assets/card-styles.css"

    package static func theme(_ theme: Theme) -> String? {
        guard !theme.isEmpty else { return nil }
        var css = "/* Generated by cardfeed from the theme in cardfeed.yml. */\n"
        let (light, dark) = accentColors(theme)
        if !light.isEmpty { css += block(":root", light) }
        if !dark.isEmpty { css += "@media (prefers-color-scheme: dark) {\n" + block(":root", dark) + "}\n" }
        return css
    }

    /// The theme's properties, with what follows from its accent and it does not set itself:
    /// the text on the accent (black or white, whichever reads), the links (the accent at a
    /// lightness readable on the surface of each scheme) and the unread bar (the accent), so that
    /// one `accent` recolours the whole page where the built-in stylesheet would otherwise keep
    /// its indigo. The dark scheme derives from its own accent, else from the light one (whose
    /// light-scheme values, set or derived, then apply to it but for the links).
    static func accentColors(_ theme: Theme) -> (light: [CSSProperty], dark: [CSSProperty]) {
        func value(_ name: String, in properties: [CSSProperty]) -> String? { properties.first { $0.name == name }?.value }
        func completing(_ properties: [CSSProperty], with derived: [(name: String, value: String)], unlessSetIn sets: [[CSSProperty]]) -> [CSSProperty] {
            let added = derived.filter { item in sets.allSatisfy { value(item.name, in: $0) == nil } }
            return (properties + added.map { CSSProperty(name: $0.name, value: $0.value) }).sorted { $0.name < $1.name }
        }
        var (light, dark) = (theme.light, theme.dark)
        if let accent = value("accent", in: theme.light) {
            let derived = [("accent-text", ReadableColor.contrasting(accent)), ("link", ReadableColor.onLightSurface(accent)), ("unread", accent)]
            light = completing(light, with: derived, unlessSetIn: [theme.light])
        }
        if let accent = value("accent", in: theme.dark) {
            let derived = [("accent-text", ReadableColor.contrasting(accent)), ("link", ReadableColor.onDarkSurface(accent)), ("unread", accent)]
            dark = completing(dark, with: derived, unlessSetIn: [theme.dark])
        } else if let accent = value("accent", in: theme.light) {
            dark = completing(dark, with: [("link", ReadableColor.onDarkSurface(accent))], unlessSetIn: [theme.dark, theme.light])
        }
        return (light, dark)
    }

    /// One rule per styled card, by its anchor id, in display order: of each language's tree in
    /// turn, a card in several trees (`untagged_cards: every`) once.
    package static func cards(_ trees: [ShownCards]) -> String? {
        var anchors: Set<String> = []
        var rules = ""
        for cards in trees {
            for position in cards.indices where !cards[position].styles.isEmpty {
                let anchor = cards.anchor(at: position)
                if trees.count > 1, !anchors.insert(anchor).inserted { continue }
                rules += block("#" + anchor, cards[position].styles)
            }
        }
        guard !rules.isEmpty else { return nil }
        return "/* Generated by cardfeed from the cards' background_color, text_color and accent_color extras. */\n" + rules
    }

    /// The rules of `cards`' for the placements' cards, by the id each has in each placement
    /// (`EmbedHTML.idPrefix`), with the placements' custom properties.
    package static func placementCards(_ selection: Selection) -> String? {
        var css = ""
        for placed in selection.placements {
            for position in placed.cards where !selection.cards[position].styles.isEmpty {
                let id = EmbedHTML.idPrefix(of: placed.placement.name) + selection.cards.anchor(at: position)
                css += block("#" + id, selection.cards[position].styles)
            }
        }
        // Names and the values that read others (`var(--cf-text)`) alike.
        return css.isEmpty ? nil : "/* The placements' cards' background_color, text_color and accent_color extras. */\n" + EmbedStylesheet.properties(css)
    }

    private static func block(_ selector: String, _ properties: [CSSProperty]) -> String {
        "\(selector) {\n" + properties.map { "  --cf-\($0.name): \($0.value);\n" }.joined() + "}\n"
    }
}

