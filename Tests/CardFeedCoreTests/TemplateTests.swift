import Foundation
import Testing

@testable import CardFeedCore

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
        #expect(error.description.contains("templates/cards/short_news.mustache:4:"))
        #expect(error.description.contains("closed with a name other than the one it was opened with"))
        #expect(!site.exists("public"))
    }

    @Test func missingPartialIsAnError() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "{{>partials/imag}}"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.contains("short_news.mustache:1:1: no template named \"partials/imag\" (did you mean \"partials/image\"?)"))
        #expect(!report.succeeded)
    }

    @Test func unknownVariableIsAWarningWithASuggestionAndAnErrorWhenStrict() throws {
        let site = try TempSite(["cards.json": Self.card, "templates/cards/short_news.mustache": "<p>\n  {{titel}} {{extras.anything}} {{#first(categories)}}{{.}}{{/first(categories)}}</p>"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.warnings.count == 1)
        #expect(report.diagnostics.contains("short_news.mustache:2:3: {{titel}} names \"titel\", which no card or page has, so it renders as nothing (did you mean \"title\"?)"))
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
}
