import Foundation

/// What `cardfeed serve` keeps from one build to the next, so that a rebuild after a small edit
/// decodes and renders only the cards that changed and writes only the files that changed. serve
/// owns it; the build hands each step its own part (the loader its decoded cards, the renderer
/// its rendered cards, the write step its output), and no step knows of the others'.
public final class PreviewCaches: Sendable {
    /// Card entries decoded by the last build, by a hash of their file, bytes and decoder settings.
    let entries = ReuseCache<(DecodedEntry, [Diagnostic])>()
    /// Cards rendered by the last build (their HTML and description), by `SiteRenderer.renderKey`.
    let cards = ReuseCache<RenderedCard>()
    /// The output folder, updated in place.
    public let output: PreviewOutput

    public init(output: URL) {
        self.output = PreviewOutput(folder: output.standardizedFileURL)
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
