import Foundation
import CardFeedLoad
import CardFeedModel
import CardFeedRender

/// What one build keeps for the next, so that a rebuild after a small edit decodes and renders
/// only the cards that changed. Whoever builds again and again (`cardfeed serve`) owns it and
/// hands it to each `SiteBuilder`; the build gives each step its own part (the loader its
/// decoded entries, the renderer its rendered cards), and no step knows of the others'.
public final class ReuseCaches: Sendable {
    /// Card entries decoded by the last build, by a hash of their file, bytes and decoder settings.
    let entries = ReuseCache<(DecodedEntry, [Diagnostic])>()
    /// Cards rendered by the last build (their HTML and description), by `SiteRenderer.renderKey`.
    let cards = ReuseCache<RenderedCard>()

    public init() {}

    func beginBuild() {
        entries.beginBuild()
        cards.beginBuild()
    }

    func endBuild() {
        entries.endBuild()
        cards.endBuild()
    }
}
