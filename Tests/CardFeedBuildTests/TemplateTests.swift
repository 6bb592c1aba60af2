import Foundation
import Testing
@testable import CardFeedModel
@testable import CardFeedRender


/// Overriding, extending, ejecting and checking templates.
@Suite struct TemplateTests {
    static let card = cardJSON(["id": "n1", "type": "short_news", "created": 1, "title": "Hello", "description": "d", "image": "https://x.test/i.png"])

    @Test func everyCardTypeHasABuiltinTemplateThatPassesTheLinter() {
        for type in CardType.renderable {
            #expect(BuiltinFiles.templates[TemplateSet.cardTemplate(type)] != nil, "\(type)")
        }
        var diagnostics = Diagnostics()
        let site = SiteFolder("/nonexistent-site")
        #expect(TemplateSet.load(site: site, diagnostics: &diagnostics) != nil)
        #expect(diagnostics.all.isEmpty, "\(diagnostics.lines)")
    }

    @Test func siteTemplateReplacesTheBuiltin() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "<article data-card-id=\"{{id}}\">MINE {{title}}</article>"])
        defer { site.remove() }
        #expect(site.build().succeeded)
        #expect(try site.read("index.html").contains("<article data-card-id=\"n1\">MINE Hello</article>"))
    }

    @Test func siteTemplateExtendsTheBuiltinThroughInheritance() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/card.mustache": "{{<builtin.card}}{{$footer}}<footer class=\"mine\">{{created.text}}</footer>{{/footer}}{{/builtin.card}}",
        ])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let page = try site.read("index.html")
        #expect(page.contains("<footer class=\"mine\">Jan 1, 1970</footer>"))
        #expect(page.contains("<h2 class=\"card__title\">Hello</h2>"), "the rest of the built-in card frame is kept")
        #expect(page.contains("card__media--thumb"), "the short_news type still fills the media block")
    }

    @Test func syntaxErrorNamesFileLineAndColumnAndNothingIsWritten() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "<p>\n{{#title}}\n  {{title}}\n{{/titel}}\n"])
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        let error = try #require(report.diagnostics.errors.first)
        #expect(error.description.contains("templates/cards/short_news.mustache:4:1: template syntax: {{/titel}} closes {{#title}} of line 2 in \"{{/titel}}\""))
        #expect(!site.exists("public"))
    }

    @Test func missingPartialIsAnError() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "{{>partials/imag}}"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.contains("short_news.mustache:1:1: no template named \"partials/imag\" (did you mean \"partials/image\"?)"))
        #expect(!report.succeeded)
    }

    @Test func cardsInsideCardsIsAnErrorAtTheInnerSection() throws {
        let page = "<main>{{#cards}}\n<section>{{#cards}}{{.}}{{/cards}}</section>\n{{/cards}}</main>"
        let site = try TempSite(["cards.json": Self.card, "templates/page.mustache": page])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.contains("page.mustache:2:10: {{#cards}} inside {{#cards}} shows no card"))
        #expect(!report.succeeded)
        let sibling = try TempSite(["cards.json": Self.card, "templates/page.mustache": "{{#cards}}{{.}}{{/cards}}{{^cards}}none{{/cards}}"])
        defer { sibling.remove() }
        #expect(!sibling.build().diagnostics.lines.contains { $0.contains("inside {{#cards}}") })
    }

    @Test("a misspelt name in a block given to an extended built-in is one short sentence, with its did-you-mean")
    func unknownVariableInABlockOfAnExtendingTemplate() throws {
        let template = "{{<builtin.cards.short_news}}\n{{$footer}}<footer>{{txet}}</footer>{{/footer}}\n{{/builtin.cards.short_news}}\n"
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": template])
        defer { site.remove() }
        let warnings = site.build().diagnostics.lines.filter { $0.contains("txet") }
        #expect(warnings.count == 1 && warnings[0].hasSuffix("short_news.mustache:2:20: {{txet}} names \"txet\", which no view has, so it renders as nothing (did you mean \"text\"?)"), "\(warnings)")
    }

    @Test func unknownVariableIsAWarningWithASuggestionAndAnErrorWhenStrict() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "<p>\n  {{titel}} {{extras.anything}} {{strings.unread}} {{#categories}}{{title}}{{/categories}}</p>"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.warnings.count == 1)
        #expect(report.diagnostics.contains("short_news.mustache:2:3: {{titel}} names \"titel\", which the card does not have, so it renders as nothing (did you mean \"title\"?)"))
        #expect(!site.build(strict: true).succeeded)
    }

    @Test func siteTemplateExtendsABuiltinCardTypeAndChangesOneBlock() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/cards/short_news.mustache": "{{<builtin.cards.short_news}}\n{{$footer}}<p class=\"mine\">{{title}}</p>{{/footer}}\n{{/builtin.cards.short_news}}",
        ])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let page = try site.read("index.html")
        #expect(page.contains("<p class=\"mine\">Hello</p>"))
        #expect(page.contains("card__media--thumb"))
        #expect(!page.contains("card__footer"))
    }

    @Test func reservedBuiltinFolderIsRefused() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/builtin.card.mustache": "x"])
        defer { site.remove() }
        #expect(site.build().diagnostics.contains("reserved for the built-in templates"))
    }

    @Test func ejectCopiesTheBuiltinAndTheListShowsIt() throws {
        let site = try TempSite()
        defer { site.remove() }
        let catalog = TemplateCatalog(site: site.site)
        let file = try catalog.eject("cards/short_news", force: false)
        #expect(file.hasSuffix("templates/cards/short_news.mustache"))
        let copied = try String(contentsOf: site.root.appendingPathComponent("templates/cards/short_news.mustache"), encoding: .utf8)
        #expect(copied == TemplateCatalog.stamp(name: "cards/short_news", text: BuiltinFiles.templates["cards/short_news"]!) + BuiltinFiles.templates["cards/short_news"]!)
        #expect(throws: TemplateCatalog.EjectError.self) { try catalog.eject("cards/short_news", force: false) }
        #expect(try catalog.eject("templates/cards/short_news.mustache", force: true) == file)
        let entry = try #require(catalog.entries.first { $0.name == "cards/short_news" })
        #expect(entry.state == .overridden)
        #expect(catalog.entries.first { $0.name == "page" }?.state == .builtin)
    }

    @Test func ejectOfAnUnknownNameSuggestsTheNearest() throws {
        let site = try TempSite()
        defer { site.remove() }
        do {
            _ = try TemplateCatalog(site: site.site).eject("cards/shortnews", force: false)
            Issue.record("expected an error")
        } catch let error as TemplateCatalog.EjectError {
            #expect(error.description.contains("did you mean \"cards/short_news\"?"))
        }
    }

    /// A template is checked against the views it is rendered over, not every name some view
    /// has: a card template sees its card only, the page's `{{#cards}}` sees each card on top
    /// of the page, and a partial sees what is around each place that includes it.
    @Test func namesAreCheckedAgainstTheViewsATemplateIsRenderedOver() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/cards/short_news.mustache": "<p>{{siteTitle}}|{{href}}|{{social.image.src}}</p>{{#link}}{{>partials/link}}{{/link}}\n",
            "templates/partials/link.mustache": "<a href=\"{{href}}\">{{text}}</a>{{id}}{{nav}}",
            "templates/page.mustache": "<title>{{siteTitle}}</title>{{#cards}}{{siteTitle}} {{title}}{{{.}}}{{/cards}}{{#nav}}{{slug}}{{#current}}{{title}}{{/current}}{{/nav}}\n",
        ])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        let card = "templates/cards/short_news.mustache"
        #expect(report.diagnostics.contains("\(card):1:4: {{siteTitle}} names \"siteTitle\", which the card does not have, so it renders as nothing (did you mean \"subtitle\"?); it is a name of the page, which a card template does not see"))
        #expect(report.diagnostics.contains("\(card):1:18: {{href}} names \"href\", which the card does not have, so it renders as nothing"))
        #expect(report.diagnostics.contains("\(card):1:27: {{social.image.src}} names \"social\", which the card does not have"))
        // In the partial, `href` and `text` are the link's and `id` the card's; `nav` is the page's.
        #expect(report.diagnostics.contains("templates/partials/link.mustache:1:38: {{nav}} names \"nav\", which the link or the card does not have"))
        #expect(report.diagnostics.warnings.count == 4)
    }

    /// What the renderer does where the linter cannot follow a template's context: the page's
    /// `{{#cards}}` adds each card's HTML (no names), a dotted name does not reach into a list,
    /// a block given to a parent renders where the parent's block stands, a dynamic partial
    /// may include any template, and cards inside cards are one list even across a partial.
    @Test func namesWhereTheContextIsTheRenderersNotTheTemplates() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/card.mustache": "<article>{{$media}}{{/media}}{{$content}}{{/content}}{{$footer}}{{/footer}}{{$body}}{{/body}}{{#link}}{{$linkText}}<a href=\"{{href}}\">{{text}}</a>{{/linkText}}{{/link}}{{#categories}}{{>*name}}{{/categories}}</article>\n",
            "templates/cards/short_news.mustache": "{{<card}}{{$linkText}}<a class=\"go\" href=\"{{href}}\">Go: {{text}}</a>{{/linkText}}{{/card}}\n",
            "templates/news.mustache": "<a href=\"{{href}}\">{{title}}</a>",
            "templates/partials/inner.mustache": "<section>{{#cards}}{{{.}}}{{/cards}}</section>",
            "templates/page.mustache": "<title>{{siteTitle}}</title><p>{{nav.title}}</p>{{#cards}}<div data-id=\"{{id}}\">{{{.}}}</div>{{>partials/inner}}{{/cards}}\n",
        ])
        defer { site.remove() }
        let report = site.build()
        let page = "templates/page.mustache"
        #expect(report.diagnostics.contains("\(page):1:32: {{nav.title}}: \"nav\" is a list, whose items a dotted name does not reach, so it renders as nothing; use {{#nav}}{{title}}{{/nav}}"))
        #expect(report.diagnostics.contains("\(page):1:73: {{id}} names \"id\", which the page does not have, so it renders as nothing"))
        #expect(report.diagnostics.contains("templates/partials/inner.mustache:1:10: {{#cards}} inside {{#cards}} shows no card"))
        // The block given to `card` and the dynamically included `news` are fine.
        #expect(!report.diagnostics.lines.contains { $0.contains("short_news.mustache") || $0.contains("news.mustache:") })
        #expect(report.diagnostics.all.count == 3, "\(report.diagnostics.lines)")
    }

    @Test func anUnknownFieldOfAKnownValueIsAWarning() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "<p>{{created.txt}} {{#image}}{{src}}{{/image}} {{title.x}}</p>\n"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.contains("short_news.mustache:1:4: {{created.txt}} names \"txt\" of \"created\", which has only iso, text, so it renders as nothing (did you mean \"text\"?)"))
        #expect(report.diagnostics.contains("{{title.x}}: \"title\" has no fields, so it renders as nothing"))
        #expect(report.diagnostics.warnings.count == 2)
    }

    @Test func aBlockTheParentDoesNotHaveIsAWarning() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/cards/short_news.mustache": "{{<builtin.cards.short_news}}\n{{$contnet}}<p>x</p>{{/contnet}}\n{{/builtin.cards.short_news}}\n",
        ])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.contains("short_news.mustache:2:1: {{$contnet}} names no block of \"builtin.cards.short_news\", so it replaces nothing; its blocks are body, content, footer, indicators, media (did you mean \"content\"?)"))
    }

    /// A partial that includes itself, two that include each other, a parent cycle and a card
    /// template that includes itself: an error naming the file and line, not a hang or a crash.
    @Test(arguments: [
        ["templates/partials/loop.mustache": "a\n{{>partials/loop}}\n", "templates/cards/short_news.mustache": "{{>partials/loop}}"],
        ["templates/partials/a.mustache": "{{>partials/b}}", "templates/partials/b.mustache": "{{>partials/a}}", "templates/cards/short_news.mustache": "{{>partials/a}}"],
        ["templates/card.mustache": "{{<builtin.cards.short_news}}{{/builtin.cards.short_news}}"],
        ["templates/cards/short_news.mustache": "<p>{{>cards/short_news}}</p>"],
    ])
    func templatesThatIncludeThemselvesAreAnError(_ templates: [String: String]) throws {
        let site = try TempSite(templates.merging(["cards.json": Self.card]) { $1 })
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        let error = try #require(report.diagnostics.errors.first)
        #expect(error.description.contains(".mustache:1:") || error.description.contains(".mustache:2:"))
        #expect(error.description.contains("includes itself whatever the data"), "\(error)")
        #expect(!site.exists("public"))
    }

    /// Recursion that the data could end but does not (the same card found again at every
    /// level) stops at a fixed depth with an error naming the card and the templates.
    @Test func recursionThroughTheDataEndsWithAnError() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "{{#title}}<p>{{>cards/short_news}}</p>{{/title}}"])
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        let error = try #require(report.diagnostics.errors.first)
        #expect(error.description.contains("card 1 (id \"n1\")"), "\(error)")
        #expect(error.description.contains("templates include each other without end (… > cards/short_news > cards/short_news"), "\(error)")
        #expect(!site.exists("public"))
    }

    /// A card's render error is at the card, and its message names the template file, line and
    /// column of the tag: the partial tag that recursed.
    @Test func aCardsRenderErrorNamesTheTagItWasAt() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "{{#title}}<p>{{>cards/short_news}}</p>{{/title}}"])
        defer { site.remove() }
        let error = try #require(site.build().diagnostics.errors.first)
        #expect(error.file.hasSuffix("/cards.json") && error.line == 1 && error.column == 1 && error.cardIndex == 0, "\(error)")
        #expect(error.message.hasPrefix("in \(site.site.display(site.site.templatesFolder))/cards/short_news.mustache:1:14: templates include each other without end"), "\(error)")
    }

    /// A page's render error is at the tag itself: the diagnostic's own file, line and column.
    /// (Without card pages: a card's own page that fails is the card's failure.)
    @Test func aPagesRenderErrorIsAtTheTag() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "cardfeed.yml": "card_pages: false\n",
            "templates/partials/footer.mustache": "<footer>\n  {{#title}}{{>partials/footer}}{{/title}}\n</footer>\n",
        ])
        defer { site.remove() }
        let error = try #require(site.build().diagnostics.errors.first)
        #expect(error.file == "\(site.site.display(site.site.templatesFolder))/partials/footer.mustache", "\(error)")
        #expect((error.line, error.column, error.cardIndex) == (2, 13, nil), "\(error)")
        #expect(error.message.hasPrefix("templates include each other without end (… > partials/footer > partials/footer"), "\(error)")
    }

    /// A tag of a built-in template is named by the built-in's file: here the `{{>partials/image}}`
    /// of the built-in short_news card, which the site's image partial (only text) wrote too much
    /// from. That tag stands in a block short_news gives its parent: the file is short_news's.
    @Test func aBuiltinTemplatesTagIsNamedByItsFile() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/partials/image.mustache": String(repeating: "0123456789abcdef", count: (8 << 20) / 16 + 1),
        ])
        defer { site.remove() }
        let error = try #require(site.build().diagnostics.errors.first)
        #expect(error.message.hasPrefix("in (built-in) templates/cards/short_news.mustache:4:45: the templates wrote more than 8 MB"), "\(error)")
        #expect(error.message.hasSuffix(", the limit for a card"), "\(error)")
    }

    @Test func sectionsNestedTooDeeplyAreASyntaxError() throws {
        let deep = String(repeating: "{{#title}}", count: 10_000) + String(repeating: "{{/title}}", count: 10_000)
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": deep])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.contains("short_news.mustache:1:1001: template syntax: sections nest more than 100 deep"))
    }

    /// An override whose lines start with indentation and then a tag (a site template written
    /// the way people indent HTML) loses the indentation as the spec says, and does not crash.
    @Test func anIndentedTagInAnOverride() throws {
        let site = try TempSite([
            "cards.json": Self.card,
            "templates/cards/short_news.mustache": "{{<card}}\n{{$content}}\n  {{title}}\n  <p>{{id}}</p>\n{{/content}}\n{{/card}}\n",
        ])
        defer { site.remove() }
        #expect(site.build().succeeded)
        #expect(try site.read("index.html").contains("<div class=\"card__body\">\nHello\n<p>n1</p>\n"))
    }

    @Test func aLineOfManyBlocksParsesInLinearTime() throws {
        let template = String(repeating: "{{$a}}x{{/a}}", count: 50_000)
        let site = try TempSite(["cards.json": Self.card, "templates/partials/many.mustache": template])
        defer { site.remove() }
        #expect(site.build().succeeded)
    }
}
