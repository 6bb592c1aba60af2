import Foundation
import Synchronization
import CardFeedLoad
import CardFeedModel
import CardFeedRender

/// What one build keeps for the next, so that a rebuild after a small edit decodes and renders
/// only the cards that changed. Whoever builds again and again (`cardfeed serve`) owns it and
/// hands it to each `SiteBuilder`; the build gives each step its own part (the loader its
/// decoded entries, the renderer its rendered cards), and no step knows of the others'.
public final class ReuseCaches: Sendable {
    /// Card entries decoded by the last build, by a hash of their file, bytes and decoder
    /// settings (see `CardLoader`).
    let entries: ReuseCache<KeptEntry>
    /// Cards rendered by the last build (their HTML and description), by `SiteRenderer.renderKey`.
    let cards: ReuseCache<RenderedCard>
    /// The Pagefind the last build with search found. Finding it runs `pagefind --version`,
    /// which through the PyPI package (`python3 -m pagefind`) takes a tenth of a second: more
    /// than the rest of a rebuild after one edit of 10,000 cards.
    let pagefind = Mutex<Pagefind?>(nil)

    public init() {
        entries = ReuseCache()
        cards = ReuseCache()
    }

    /// For one build with a cache on disk: the entries and cards it holds, read as the build
    /// asks for them; with `writer`, those the build makes go to the cache's file as they are
    /// made, not into memory.
    init(cardsFrom cache: BuildCache, keepingIn writer: CardsFileWriter? = nil) {
        var keepEntries: (@Sendable ([(key: Int, value: KeptEntry)]) -> Void)?
        var keepCards: (@Sendable ([(key: Int, value: RenderedCard)]) -> Void)?
        if let writer {
            keepEntries = { writer.keep($0) }
            keepCards = { writer.append($0) }
        }
        entries = ReuseCache(fallback: { cache.entry($0) }, keep: keepEntries)
        cards = ReuseCache(fallback: { cache.card($0) }, has: { cache.hasCards($0) }, keep: keepCards)
    }

    /// `serve`'s, which starts from the cards of the cache on disk, if it can be read (and
    /// leaves it to the builds: serve keeps its own in memory).
    package static func startingFrom(_ folder: BuildCacheFolder, site: URL) -> ReuseCaches {
        guard let cache = BuildCache.open(folder, site: site).cache else { return ReuseCaches() }
        // Its cards stay readable once it is let go: a build that writes the cache meanwhile
        // appends to the cards' file, or writes a new one (see `BuildCache`).
        cache.release()
        return ReuseCaches(cardsFrom: cache)
    }

    func beginBuild() {
        entries.beginBuild()
        cards.beginBuild()
    }

    func endBuild() {
        entries.endBuild()
        cards.endBuild()
    }
}
