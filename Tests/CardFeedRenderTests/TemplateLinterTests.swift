import CardFeedMustache
import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedSelect
@testable import CardFeedRender


/// The views' schemas (what the linter checks templates against, and what docs/templates.md
/// lists) and the views themselves must agree: every name a schema declares is answered by a
/// real view, with a value of its kind, and a name it does not declare is not.
@Suite struct TemplateLinterTests {
    /// The repository's root, found from this file (Tests/CardFeedRenderTests/) so that the test
    /// runs from any working directory.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func settings() throws -> RenderSettings {
        var diagnostics = Diagnostics()
        let strings = try #require(StringTable.load(locale: "en", site: SiteFolder("/nonexistent"), diagnostics: &diagnostics))
        // A link preview picture, so that every field of `social` has a value.
        var head = PageHead()
        head.image = "https://x.test/share.png"
        return RenderSettings(RenderSettings.Values(
            builtinImages: BuiltinImages(assets: Set(BuiltinFiles.assetPaths), siteOverrides: []), strings: strings, links: LinkPolicy(),
            siteTitle: "T", stylesheets: ["assets/cardfeed.css"], pageSize: 2, baseURL: "https://x.test/", head: head))
    }

    /// A card with every field a template can read.
    static func card() -> Card {
        var card = Card(id: "c", type: .crossPromotionSmall, source: CardSource(file: "cards.json", index: 0, order: 0))
        card.created = 1_700_000_000
        card.updated = 1_700_000_100
        card.expiresAt = 1_900_000_000
        card.pinned = true
        // No image: the placeholder has every field of an image (a card's own has no srcset).
        card.url = "https://x.test/app"
        card.categories = [.news]
        card.extras = [Card.Extra(key: "campaign", value: "spring")]
        card.rating = 4.5
        card.reviews = 12
        card.price = 1.99
        card.title = "Title"
        card.subtitle = "Subtitle"
        card.caption = "Caption"
        card.domain = "x.test"
        card.mediaType = "ItunesAlbum"
        card.itunesID = 1
        return card
    }

    /// The value a name of `owner`'s table reaches: the object, or a list's first item.
    static func object(_ value: MustacheValue?) -> (MustacheObject)? {
        switch value {
        case .object(let object): object
        case .list(let items): object(items.first)
        default: nil
        }
    }

    @Test func everyNameOfEverySchemaIsAnsweredByItsView() throws {
        let settings = try Self.settings()
        let card = CardView(card: Self.card(), descriptionHTML: "<p>d</p>", settings: settings, permalink: "index.html#card-c")
        // An archive page with a newer, an older and the front page to link, and dates.
        let selection = FeedSelector(now: 100, pageSize: 4).select(PaginationTests.cards(1...10))
        let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
        let page = SiteRenderer(templates: templates, settings: settings).pageViews(selection, selection.feeds[0])(4)
        // The feeds' views: an entry of a card with its own image, the sitemap of one page.
        let syndication = Syndication(baseURL: "https://x.test/", settings: settings, templates: templates)
        var pictured = Self.card()
        pictured.image = .remote("https://x.test/i.png")
        pictured.language = "en"
        let entry = FeedEntry(card: pictured, permalink: "index.html#card-c", anchor: "card-c", description: "<p>d</p>\n", linkSchemes: [], syndication: syndication)
        let shown = Selection(cards: ShownCards([pictured], order: [0]), feeds: [FeedSelection(feed: Feed.builtin[0], cards: [0], front: FeedPage(cards: [0], path: "index.html"))], hidden: [:])
        let document = FeedDocumentView(feed: Feed.builtin[0], entries: [FeedEntryView(entry, content: "<p>d</p>\n")], updated: 1_767_225_600, syndication: syndication)
        // The page's `cards` are holes the renderer fills: the card view stands for them.
        let cardPage = CardPageView(shell: page.shell, card: "<article></article>\n", heading: "d", feeds: [CardPlaceView(slug: "all", title: "All", href: "page-2.html#card-c")], shown: pictured)
        // A site in two languages, the same cards in each: a feed's front page and its counterpart.
        let languages = LanguageLinks(
            languages: [.init(tag: "en", name: "English", front: "index.html"), .init(tag: "de", name: "Deutsch", front: "de/index.html")],
            selections: [shown, shown], cardPages: true, baseURL: "https://x.test/")
        let placement = PlacementView(
            placement: Placement(name: "hero", feed: "all", extras: [], limit: 1, file: "cardfeed.yml"), feedTitle: "All",
            cards: [PlacementCardView(card: "<article></article>\n", id: "c")], settings: settings)
        func view<Model: TemplateModel>(_ model: Model) -> (ViewSchema, MustacheObject) { (Model.schema, TemplateObject(model)) }
        let views: [(ViewSchema, MustacheObject)] = [
            view(languages.feedPage(tree: 1, slug: "all", front: true)),
            view(SitemapView([shown, shown], trees: [settings, settings], syndication: syndication, languages: languages)),
            view(card), view(page), view(cardPage), view(FeedEntryView(entry, content: "<p>d</p>\n")), view(document),
            view(placement), view(PlacementFrameView(placement, html: "<div></div>", root: "../../", embed: "embed/")),
        ]
        for (schema, view) in views {
            try Self.expectAnswers(schema, view, path: schema.name, cards: card)
        }
    }

    /// docs/templates.md's tables of what templates see are the views' declarations: a name added
    /// to a view and not to the page fails, and so does one the page has and no view. Run with
    /// CARDFEED_WRITE_DOCS=1 to write the tables from the declarations.
    @Test func theTemplatesPageTablesAreTheViews() throws {
        let url = Self.repository.appendingPathComponent("docs/templates.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: Self.tablesStart)).upperBound
        let end = try #require(text.range(of: Self.tablesEnd, range: start..<text.endIndex)).lowerBound
        let tables = Self.tables()
        if ProcessInfo.processInfo.environment["CARDFEED_WRITE_DOCS"] == "1" {
            try (text[..<start] + tables + text[end...]).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let written = String(text[start..<end])
        for (name, view) in Self.rows(tables) where Self.rows(written)[name] == nil {
            Issue.record("docs/templates.md does not name `\(name)` of the \(view)")
        }
        for (name, view) in Self.rows(written) where Self.rows(tables)[name] == nil {
            Issue.record("docs/templates.md names `\(name)` of the \(view), which no view has")
        }
        // The names agree: the rest (help lines, kinds, order) is written by the command below.
        if written != tables, let line = zip(written.split(separator: "\n"), tables.split(separator: "\n")).first(where: { $0 != $1 }) {
            Issue.record("docs/templates.md's tables are not the views' declarations: it has \"\(line.0)\" where they say \"\(line.1)\"; run CARDFEED_WRITE_DOCS=1 swift test --filter TemplateLinterTests")
        }
    }

    static let tablesStart = "<!-- The tables below are made from the views' declarations (Sources/CardFeedRender): CARDFEED_WRITE_DOCS=1 swift test --filter TemplateLinterTests -->\n"
    static let tablesEnd = "<!-- End of the tables made from the views. -->"

    /// Each row's name, qualified by its view ("link.href"), and its view.
    static func rows(_ tables: String) -> [String: String] {
        var rows: [String: String] = [:]
        var view = ""
        for line in tables.split(separator: "\n") {
            if line.hasPrefix("#"), let open = line.firstIndex(of: "`"), let close = line[line.index(after: open)...].firstIndex(of: "`") {
                view = String(line[line.index(after: open)..<close])
            } else if line.hasPrefix("| `"), let close = line.dropFirst(3).firstIndex(of: "`") {
                rows["\(view).\(line[line.index(line.startIndex, offsetBy: 3)..<close])"] = view
            }
        }
        return rows
    }

    /// The tables: each view a template is rendered over (with the templates that are), then each
    /// view they hold, once.
    static func tables() -> String {
        var templates: [String: [String]] = [:]
        for (template, schema) in TemplateLinter.roots.sorted(by: { $0.key < $1.key }) { templates[schema.name, default: []].append(template) }
        templates[CardView.schema.name, default: []].insert("cards/*", at: 0)
        var out = ""
        var inner: [ViewSchema] = []
        var seen = Set<String>()
        func table(_ schema: ViewSchema, heading: String) {
            out += "\(heading) `\(schema.name)`\n\n"
            if let names = templates[schema.name] { out += "Seen by \(names.map { "`\($0)`" }.joined(separator: ", ")).\n\n" }
            let shared = schema.shared.first
            if let shared { out += "All the names of the [`\(shared.name)`](#\(anchor(shared.name))), and:\n\n" }
            out += "| name | holds | what it is |\n| --- | --- | --- |\n"
            for field in schema.fields.dropFirst(shared?.fields.count ?? 0) {
                out += "| `\(field.name)` | \(describe(field.kind)) | \(field.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
            }
            out += "\n"
            for field in schema.fields {
                if let held = field.kind.schema, seen.insert(held.name).inserted { inner.append(held) }
            }
            for shared in schema.shared where seen.insert(shared.name).inserted { inner.insert(shared, at: 0) }
        }
        let roots = TemplateLinter.anyRoot.compactMap { $0.scopes.first ?? nil }
        roots.forEach { seen.insert($0.name) }
        for root in roots { table(root, heading: "###") }
        out += "### The views they hold\n\n"
        var next = 0
        while next < inner.count {
            table(inner[next], heading: "####")
            next += 1
        }
        return out
    }

    static func anchor(_ name: String) -> String { name.lowercased().replacingOccurrences(of: " ", with: "-") }

    static func describe(_ kind: FieldKind) -> String {
        switch kind {
        case .text: "text"
        case .html: "HTML: `{{{…}}}`"
        case .flag: "true or false"
        case .texts: "a list of texts"
        case .view(let schema): "one [`\(schema.name)`](#\(anchor(schema.name)))"
        case .list(let schema): "a list of [`\(schema.name)`](#\(anchor(schema.name)))"
        case .cards: "the page's cards"
        case .open: "any name"
        }
    }

    /// Every name of `schema` has a value in `view` of the kind the schema says, down through
    /// the views it holds; an undeclared name has none.
    static func expectAnswers(_ schema: ViewSchema, _ view: MustacheObject, path: String, cards: CardView) throws {
        #expect(view.value(for: MustacheName("nonexistent")) == nil, "\(path)")
        for (name, kind, _) in schema.fields {
            // Names come from the view's own `Key`, so a view knows each one; an empty value
            // (a card without a subtitle) says nothing of its kind.
            guard let value = view.value(for: MustacheName(name)) else { continue }
            let where_ = "\(path).\(name)"
            switch kind {
            case .text, .html:
                switch value {
                case .text, .int: break
                default: Issue.record("\(where_): not text")
                }
            case .flag:
                guard case .bool = value else { Issue.record("\(where_): not a flag"); continue }
            case .texts:
                guard case .list = value else { Issue.record("\(where_): not a list"); continue }
            case .open:
                guard case .object = value else { Issue.record("\(where_): not a view"); continue }
            case .cards:
                guard case .deferredList = value else { Issue.record("\(where_): not the page's cards"); continue }
            case .view(let inner):
                guard case .object(let object) = value else { Issue.record("\(where_): not one view"); continue }
                try expectAnswers(inner, object, path: where_, cards: cards)
            case .list(let inner):
                guard case .list = value else { Issue.record("\(where_): not a list"); continue }
                let object = try #require(Self.object(value), "\(where_): no view in the list")
                try expectAnswers(inner, object, path: where_, cards: cards)
            }
        }
    }
}

extension Diagnostics {
    /// Somewhere to put diagnostics a test does not read.
    nonisolated(unsafe) static var scratch = Diagnostics()
}
