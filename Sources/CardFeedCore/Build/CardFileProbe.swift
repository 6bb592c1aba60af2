import Foundation

/// Everything a build does with the bytes of one card file, in memory and without touching the
/// disk: parse (both the streaming and the whole-document reader), decode every entry, merge,
/// select, render every card and every page as a build does (into memory), and
/// write the card styles and the feeds. The fuzz target
/// (`Sources/CardFeedFuzz`) feeds it arbitrary bytes; tests replay what it found.
///
/// Exposed as SPI so that the pipeline's types can stay internal.
@_spi(Fuzzing) public enum CardFileProbe {
    /// What one run produced, for the fuzz target's checks.
    public struct Output {
        /// Errors and warnings, as the user would see them.
        public var diagnostics: [String] = []
        /// Every shown card's HTML.
        public var cards: [(id: String, html: String)] = []
        /// Every page of every feed.
        public var pages: [(path: String, html: String)] = []
        /// `assets/card-styles.css`, when a card is styled.
        public var cardStyles: String?
        /// Atom, JSON Feed and sitemap files, by path.
        public var feeds: [(path: String, text: String)] = []
    }

    /// Built once: the built-in templates and English strings, as a site without files has them.
    private static let setup: (templates: TemplateSet, settings: RenderSettings)? = {
        let site = SiteFolder("/nonexistent/cardfeed-probe-site")
        var diagnostics = Diagnostics()
        guard let templates = TemplateSet.load(site: site, diagnostics: &diagnostics),
            let strings = StringTable.load(locale: "en", site: site, diagnostics: &diagnostics)
        else { return nil }
        var links = LinkPolicy()
        links.newTab = ["partner.example", "*.example.com"]
        links.appSchemes = ["myapp"]
        let assets = Set(BuiltinFiles.assetPaths)
        let settings = RenderSettings(RenderSettings.Values(
            builtinImages: BuiltinImages(assets: assets, siteOverrides: []), strings: strings, links: links, siteTitle: "Probe",
            stylesheets: ["assets/cardfeed.css"], pageSize: 3, baseURL: "https://probe.example/"))
        return (templates, settings)
    }()

    /// Runs the pipeline over `data` as if it were `cards.json`.
    public static func run(_ data: Data, now: Int64 = 1_800_000_000) -> Output {
        var output = Output()
        guard let (templates, settings) = setup else { fatalError("the built-in templates do not load") }
        let file = "cards.json"
        let decoder = CardDecoder(assets: .anyIn("images/"), linkSchemes: settings.links.linkSchemes)
        var loaded = LoadedCards()
        var merger = CardMerger()
        var diagnostics = Diagnostics()

        let values: [JSONValue]
        do {
            values = try data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                // The loader's own path: a top-level list is split by the quick scan and each
                // element parsed on its own; anything else is parsed whole.
                if let elements = JSONParser.topLevelArrayElements(bytes) {
                    return try elements.map { range throws(JSONSyntaxError) in try JSONParser.parseElement(bytes, range) }
                }
                let document = try JSONParser.parse(bytes)
                return CardLoader.entries(of: document, file: file, into: &diagnostics) ?? []
            }
        } catch {
            output.diagnostics = ["\(error)"]
            return output
        }
        for (index, value) in values.enumerated() {
            let (entry, problems) = decoder.decode(value, source: CardSource(file: file, index: index, order: index))
            problems.forEach { diagnostics.append($0) }
            merger.add(entry, into: &loaded)
        }
        merger.applyRemovals(to: &loaded)
        diagnostics.append(contentsOf: loaded.diagnostics)
        output.diagnostics = diagnostics.all.map(\.description)

        let selection = FeedSelector(now: now, pageSize: settings.pageSize).select(loaded.cards)
        let renderer = SiteRenderer(templates: templates, settings: settings)
        let pages = MemoryOutput()
        var descriptions: [String?] = []
        do {
            let cards = try CardCollector(into: PageStreams(renderer.pageStreams(selection), into: pages))
            descriptions = try renderer.renderCards(selection.cards, into: cards, keepDescriptions: Set(selection.cards.indices))
            try cards.pages.finish()
            output.cards = zip(selection.cards, cards.html).map { ($0.id, $1) }
            output.pages = pages.files.sorted { $0.key < $1.key }.map { ($0.key, String(decoding: $0.value, as: UTF8.self)) }
        } catch {
            output.diagnostics.append("\(error)")
        }
        output.cardStyles = GeneratedStyles.cards(selection.cards)
        do {
            for file in try Syndication(baseURL: settings.baseURL ?? "", settings: settings, templates: templates).files(selection, descriptions: descriptions) {
                switch file.content {
                case .text(let text): output.feeds.append((file.path, text))
                case .data(let data): output.feeds.append((file.path, String(decoding: data, as: UTF8.self)))
                case .copy, .stream: break
                }
            }
        } catch {
            output.diagnostics.append("\(error)")
        }
        return output
    }
}

/// Keeps every card's HTML on its way to the pages.
private final class CardCollector: RenderedCards, @unchecked Sendable {
    let pages: PageStreams
    private(set) var html: [String] = []

    init(into pages: PageStreams) { self.pages = pages }

    func append(_ html: [[UInt8]], at positions: Range<Int>) throws {
        self.html += html.map { String(decoding: $0, as: UTF8.self) }
        try pages.append(html, at: positions)
    }
}
