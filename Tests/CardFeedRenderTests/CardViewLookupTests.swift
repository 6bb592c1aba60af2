import CardFeedMustache
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender
@testable import CardFeedSelect

/// The card view answers names through a hand-written switch (`CardView.value(of:for:)`), for
/// speed, as do the page's shell, a card's page and the navigation's items, while their
/// declarations (`names`) are the lists the linter and docs/templates.md read: the two must give
/// the same value for every declared name, on views that fill each name and on views that leave
/// them empty.
@Suite struct CardViewLookupTests {
    /// Cards that between them take every branch of the card view's values.
    static func cards() -> [Card] {
        let full = TemplateLinterTests.card()
        var bare = Card(id: "bare", type: .shortNews, source: CardSource(file: "cards.json", index: 1, order: 1))
        bare.viewed = true
        var other = TemplateLinterTests.card()
        other.image = .asset("banner.png")
        other.descriptionFormat = .text
        other.language = "ar"
        other.useWebView = true
        other.price = 0
        other.extras = [Card.Extra(key: "a", value: "1"), Card.Extra(key: "b", value: "2")]
        other.categories = [.advertising, .social, .news]
        other.updated = 0
        var priced = TemplateLinterTests.card()
        priced.displayPrice = "$2 a month"
        priced.url = nil
        priced.title = "مرحبا"
        return [full, bare, other, priced]
    }

    @Test func theSwitchAnswersEveryDeclaredNameAsTheDeclarationDoes() throws {
        let settings = try TemplateLinterTests.settings()
        for card in Self.cards() {
            let view = CardView(card: card, descriptionHTML: card.description.map { "<p>\($0)</p>" }, settings: settings, permalink: "index.html#card-\(card.id)")
            Self.expectSwitchAgrees(view)
        }
    }

    @Test func theSwitchKnowsNoNameTheDeclarationLacks() {
        Self.expectDeclared(CardView.Own.allCases.map(\.rawValue), by: CardView.self)
        Self.expectDeclared(PageShell.Key.allCases.map(\.rawValue), by: PageShell.self)
        Self.expectDeclared(CardPageView.Key.allCases.map(\.rawValue), by: CardPageView.self)
        Self.expectDeclared(NavItem.Key.allCases.map(\.rawValue), by: NavItem.self)
    }

    /// The other views every page reads through a switch: a feed page's shell, with and without
    /// a base URL and languages, a card's page over it, and the navigation's items.
    @Test func thePagesSwitchesAnswerAsTheirDeclarations() throws {
        let languages = LanguageLinks(
            languages: [.init(tag: "en", name: "English", front: "index.html"), .init(tag: "de", name: "Deutsch", front: "de/index.html")],
            selections: [], cardPages: true, baseURL: nil)
        for baseURL in ["https://x.test/", nil] {
            let values = try TemplateLinterTests.settings().values
            let settings = RenderSettings(RenderSettings.Values(
                builtinImages: values.builtinImages, strings: values.strings, links: values.links, siteTitle: "T", stylesheets: [], pageSize: 4,
                baseURL: baseURL, contentSecurityPolicy: baseURL.map { _ in "default-src 'self'" }, head: values.head, cardPages: true, search: baseURL != nil))
            let selection = FeedSelector(now: 100, pageSize: 4).select(PaginationTests.cards(1...10))
            let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
            let page = SiteRenderer(templates: templates, settings: settings).pageViews(selection, selection.feeds[0])(1)
            var shell = page.shell.model
            if baseURL == nil { shell.languages = languages.feedPage(tree: 1, slug: "all", front: true) }
            Self.expectSwitchAgrees(shell)
            Self.expectSwitchAgrees(page)
            for card in Self.cards() {
                Self.expectSwitchAgrees(CardPageView(
                    shell: TemplateObject(shell), card: "<article></article>\n", heading: "h", feeds: [CardPlaceView(slug: "all", title: "All", href: "page-2.html#card-c")],
                    shown: card))
            }
        }
        Self.expectSwitchAgrees(NavItem(slug: "news", title: "News", href: "news/index.html", current: true))
        Self.expectSwitchAgrees(NavItem(slug: "all", title: "All", href: "index.html", current: false))
    }

    /// Every name of `Model`'s schema answers the same through its lookup as through its declaration.
    static func expectSwitchAgrees<Model: TemplateModel>(_ model: Model) {
        #expect(Model.value(of: model, for: MustacheName("nonexistent")) == nil)
        for (name, kind, _) in Model.schema.fields {
            let switched = shown(Model.value(of: model, for: MustacheName(name)), kind)
            let declared = shown(Model.names.value(of: model, for: MustacheName(name)), kind)
            #expect(switched == declared, "\(Model.schema.name): `\(name)` is \(switched) through the switch, \(declared) as declared")
        }
    }

    static func expectDeclared<Model: TemplateModel>(_ cases: [String], by _: Model.Type) {
        let declared = Set(Model.schema.names)
        for name in cases {
            #expect(declared.contains(name), "the switch answers `\(name)`, which `\(Model.self).names` does not declare")
        }
    }

    /// A value written out, through the names of its kind's schema for a view (which the views
    /// answer alike however they are found), so two lookups' values can be compared.
    static func shown(_ value: MustacheValue?, _ kind: FieldKind) -> String {
        guard let value else { return "none" }
        switch value {
        case .null: return "null"
        case .bool(let flag): return "bool \(flag)"
        case .int(let number): return "int \(number)"
        case .text(let text): return "text \(text)"
        case .deferredList(let count): return "cards \(count)"
        case .list(let items): return "[" + items.map { shown($0, kind) }.joined(separator: ", ") + "]"
        case .object(let object):
            guard let schema = kind.schema else {
                // An open view (extras, strings): its names are the site's; a few of them.
                return "\(type(of: object)) " + ["campaign", "a", "b", "pinned", "free"].map { shown(object.value(for: MustacheName($0)), .text) }.joined(separator: " ")
            }
            return "{" + schema.fields.map { "\($0.name): " + shown(object.value(for: MustacheName($0.name)), $0.kind) }.joined(separator: ", ") + "}"
        }
    }
}
