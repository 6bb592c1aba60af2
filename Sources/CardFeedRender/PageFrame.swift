import CardFeedMustache
import CardFeedWrite

/// A page as the page template renders it around its cards: the page's bytes, with a hole where
/// `{{#cards}}` stands (a template may have several, or none), which the page's writer fills
/// with the cards' HTML as they render (`PageStreams`).
struct PageFrame: Sendable {
    let bytes: [UInt8]
    let holes: [MustacheHole]
    /// For each hole whose section writes each card as it is followed by fixed text (the built-in
    /// page's `{{{.}}}` and a newline), that text: the card's HTML is then copied, not rendered.
    let suffixes: [[UInt8]?]
    /// The error to report when the page template fails for one of the cards.
    let failure: @Sendable (MustacheRenderError) -> Error

    init(_ output: MustacheOutput, failure: @escaping @Sendable (MustacheRenderError) -> Error = { $0 }) {
        self.failure = failure
        bytes = output.bytes
        holes = output.holes
        suffixes = output.holes.map(\.rawItemSuffix)
    }

    /// The text before hole `index`, from the end of the one before it; `holes.count` gives the
    /// text after the last hole (the whole page, when it has none).
    func text(before index: Int) -> ArraySlice<UInt8> {
        let start = index == 0 ? 0 : holes[index - 1].offset
        let end = index < holes.count ? holes[index].offset : bytes.count
        return bytes[start..<end]
    }

    func writeText(before index: Int, to sink: OutputSink) throws {
        try sink.write(text(before: index))
    }

    /// Writes one card into hole `index`.
    func writeCard(_ html: [UInt8], hole index: Int, to sink: OutputSink) throws {
        if let suffix = suffixes[index] {
            try sink.write(html)
            if !suffix.isEmpty { try sink.write(suffix) }
            return
        }
        var out: [UInt8] = []
        do {
            try holes[index].render(item: .text(String(decoding: html, as: UTF8.self)), into: &out)
        } catch {
            throw failure(error)
        }
        try sink.write(out)
    }
}
