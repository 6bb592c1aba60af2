import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender


/// The five ways a site owner customises the feed (as the Braze SDKs allow app developers), and
/// languages, each checked on the worked example in examples/customised (docs/customising.md).
@Suite(.serialized) struct CustomisationTests {
    static let example = Paths.tests.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/customised")

    static func buildExample() throws -> (URL, BuildReport) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-custom-\(UUID().uuidString)")
        let options = BuildOptions(site: SiteFolder(example.path), now: 1_800_000_000)
        return (output, try SiteBuilder(options: options, destination: .folder(output), logger: .quiet).run())
    }

    static func page(_ output: URL, _ path: String = "index.html") throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    /// The HTML of one card on the page.
    static func card(_ id: String, in page: String) -> String {
        guard let start = page.range(of: "data-card-id=\"\(id)\"") else { return "" }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</article>")?.upperBound ?? rest.endIndex)])
    }

    @Test func theExampleBuildsWithoutWarnings() throws {
        let (output, report) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        #expect(report.diagnostics.all.isEmpty, "\(report.diagnostics.lines)")
    }

    @Test func oneCardTypeExtendsTheBuiltinAndReplacesOneBlock() throws {
        let (output, _) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let card = Self.card("partner-offer", in: try Self.page(output))
        #expect(card.contains("card__media--thumb"), "the built-in Classic layout is kept")
        #expect(!card.contains("card__category"), "the site's footer has no categories")
    }

    @Test func everyCardAtOnceThroughTheThemeAndCustomCSS() throws {
        let (output, _) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = try Self.page(output)
        #expect(page.contains("<link rel=\"stylesheet\" href=\"assets/cardfeed.css\">\n<link rel=\"stylesheet\" href=\"assets/theme.css\">\n<link rel=\"stylesheet\" href=\"assets/card-styles.css\">\n<link rel=\"stylesheet\" href=\"assets/custom.css\">"))
        let theme = try Self.page(output, "assets/theme.css")
        // The accent's companions are derived (see docs/customising.md): text on it, links, unread bar.
        #expect(theme.contains(":root {\n  --cf-accent: #b45309;\n  --cf-accent-text: lch(from #b45309 calc((49.44 - l) * infinity) 0 0);\n  --cf-font: Georgia, serif;\n  --cf-link: lch(from #b45309 min(l, 40) min(c, 60) h);\n  --cf-radius: 4px;\n  --cf-unread: #b45309;\n}"))
        #expect(theme.contains("@media (prefers-color-scheme: dark) {\n:root {\n  --cf-accent: #fbbf24;\n  --cf-accent-text: lch(from #fbbf24 calc((49.44 - l) * infinity) 0 0);\n  --cf-link: lch(from #fbbf24 max(l, 70) min(c, 60) h);\n  --cf-unread: #fbbf24;\n}\n}"))
    }

    @Test("a colour the theme sets itself is not derived from the accent; a light accent gives the dark scheme its links")
    func themeColoursTheSiteSetsStay() {
        var theme = Theme()
        theme.light = [CSSProperty(name: "accent", value: "teal"), CSSProperty(name: "link", value: "navy")]
        let (light, dark) = GeneratedStyles.accentColors(theme)
        #expect(light.map(\.name) == ["accent", "accent-text", "link", "unread"])
        #expect(light.first { $0.name == "link" }?.value == "navy")
        #expect(dark.isEmpty, "the site's own light link applies to dark too")
        theme.light.removeLast()
        #expect(GeneratedStyles.accentColors(theme).dark == [CSSProperty(name: "link", value: "lch(from teal max(l, 70) min(c, 60) h)")])
        #expect(GeneratedStyles.accentColors(Theme()) == ([], []))
    }

    @Test func oneCardThroughItsExtras() throws {
        let (output, _) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let styles = try Self.page(output, "assets/card-styles.css")
        #expect(styles.contains("""
            #card-partner-offer {
              --cf-accent: #b45309;
              --cf-accent-text: lch(from #b45309 calc((49.44 - l) * infinity) 0 0);
              --cf-border: color-mix(in srgb, var(--cf-text) 16%, var(--cf-surface));
              --cf-code-bg: color-mix(in srgb, var(--cf-text) 8%, var(--cf-surface));
              --cf-link: var(--cf-text);
              --cf-muted: #451a03;
              --cf-surface: #fef3c7;
              --cf-text: #451a03;
              --cf-unread: #b45309;
            }
            """))
        let promo = Self.card("autumn-promo", in: try Self.page(output))
        #expect(promo.contains("<p class=\"promo__campaign\">autumn-2026</p>"), "the extras template renders the card and sees every extra")
    }

    @Test func rulesChangeCardsBeforeTheyAreShown() throws {
        let (output, report) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = try Self.page(output)
        #expect(page.range(of: "data-card-id=\"holiday-hours\"")!.lowerBound < page.range(of: "data-card-id=\"autumn-promo\"")!.lowerBound, "pinned first")
        #expect(Self.card("holiday-hours", in: page).contains("data-pinned"))
        #expect(!page.contains("internal-test"))
        #expect(report.skipped[.hiddenByRule] == 1)
        #expect(try Self.page(output, "announcements/index.html").contains("data-card-id=\"summer-banner\""))
        #expect(Self.card("app-stopwatch", in: page).contains("<h2 class=\"card__title\">Brewline Timer</h2>"))
        #expect(report.rules.map(\.ids) == [["holiday-hours"], ["internal-test"], ["summer-banner"], ["app-stopwatch"]])
        #expect(report.rules.first?.location.hasSuffix("cardfeed.yml:15") == true)
    }

    @Test func linkPolicy() throws {
        let (output, _) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = try Self.page(output)
        #expect(Self.card("partner-offer", in: page).contains("href=\"https://partner.example/offer\" target=\"_blank\" rel=\"noopener\""))
        #expect(!Self.card("autumn-promo", in: page).contains("target=\"_blank\""))
        #expect(Self.card("holiday-hours", in: page).contains("href=\"brewline://hours\""), "an allowed app scheme is kept")
        #expect(Self.card("autumn-promo", in: page).contains("data-use-webview"))
    }

    @Test func languageFromConfigWithASiteOverride() throws {
        let (output, _) = try Self.buildExample()
        defer { try? FileManager.default.removeItem(at: output) }
        let page = try Self.page(output)
        #expect(page.contains("<html lang=\"de\">"))
        #expect(page.contains("news/index.html\">Neuigkeiten</a>"))
        #expect(page.contains("21. Sept. 2026"))
        #expect(page.contains("Bewertet mit 4,5 von 5"))
        #expect(page.contains("(12.000 Bewertungen)"))
        #expect(try Self.page(output, "social/index.html").contains("Gerade gibt es nichts Neues."))
    }

    @Test("built-in languages", arguments: [("en", "We have no updates. Please check again later.", "Nov 14, 2023"), ("de", "Wir haben keine Neuigkeiten.", "14. Nov. 2023"), ("fr", "Nous n’avons aucune mise à jour.", "14 nov. 2023"), ("ar", "ليس لدينا أي تحديث.", "14 نوفمبر 2023"), ("he", "אין לנו עדכונים.", "14 בנוב׳ 2023")])
    func builtinLanguages(_ locale: String, _ empty: String, _ date: String) throws {
        let site = try TempSite(["cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1_700_000_000, "description": "d"])])
        defer { site.remove() }
        var options = site.options()
        options.overrides[.locale] = locale
        _ = try site.builder(options).run()
        let direction = ["ar", "he"].contains(locale) ? " dir=\"rtl\"" : ""
        #expect(try site.read("index.html").contains("<html lang=\"\(locale)\"\(direction)>"))
        #expect(try site.read("news/index.html").contains(empty))
        #expect(try site.read("index.html").contains(date))
    }

    @Test func everyBuiltinLanguageHasEveryString() {
        for locale in StringTable.builtinLocales {
            let table = StringTable.builtin(locale) ?? [:]
            // Every English string, and besides them only plural forms (Arabic's zero, two, few, many).
            #expect(Set(table.keys).isSuperset(of: StringTable.english.keys), "\(locale)")
            #expect(table.keys.allSatisfy(StringTable.isKnownKey), "\(locale)")
            #expect(table["months"]?.split(separator: "|").count == 12, "\(locale)")
        }
        #expect(StringTable.builtinLocales == ["ar", "de", "en", "fr", "he"])
    }

    @Test func placeholdersAreFilledOnceAndUnknownOnesStay() {
        let table = StringTable(locale: "xx", values: [
            "pageTitle": "{feed} — Seite {page} von {total}",
            "odd": "{unknown} {page {page}} ünïcödé {",
            "plain": "no placeholders",
        ])
        #expect(table.format("pageTitle", ["feed": "Café {page}", "page": "2", "total": "30"]) == "Café {page} — Seite 2 von 30")
        #expect(table.format("odd", ["page": "7"]) == "{unknown} {page 7} ünïcödé {")
        #expect(table.format("plain", ["page": "7"]) == "no placeholders")
    }

    @Test func aSiteCanAddALanguage() throws {
        let site = try TempSite([
            "cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"]),
            "strings/nl.json": "{\"emptyFeed\": \"Geen nieuws.\", \"feedAll\": \"Alles\", \"feedNwes\": \"typo\"}",
        ])
        defer { site.remove() }
        var options = site.options()
        options.overrides[.locale] = "nl"
        let report = try site.builder(options).run()
        #expect(try site.read("news/index.html").contains("Geen nieuws."))
        #expect(try site.read("news/index.html").contains("<html lang=\"nl\">"))
        #expect(report.diagnostics.contains("strings/nl.json", "no translation for", "English is used"))
        #expect(report.diagnostics.contains("field \"feedNwes\": unknown string (did you mean \"feedNews\"?)"))
    }

    @Test func unknownLocaleIsAnError() throws {
        let site = try TempSite(["cards.json": "[]"])
        defer { site.remove() }
        var options = site.options()
        options.overrides[.locale] = "xx"
        #expect(throws: BuildFailure.self) { try site.builder(options).run() }
    }
}

/// cardfeed.yml: every key and value is checked, with the key and line in the message.
@Suite struct ConfigTests {
    func load(_ yaml: String) throws -> (SiteConfig, Diagnostics) {
        let site = try TempSite(["cardfeed.yml": yaml])
        defer { site.remove() }
        var diagnostics = Diagnostics()
        let config = ConfigLoader(site: site.site).load(into: &diagnostics)
        return (config, diagnostics)
    }

    @Test func aFullConfiguration() throws {
        let (config, diagnostics) = try load("""
            title: Brewline
            base_url: https://brewline.example/news
            page_size: 0
            locale: fr
            theme: {accent: "#123456", radius: 1rem, dark: {bg: black}}
            links: {new_tab: ["*"], app_schemes: [brewline]}
            rules:
              - match: {type: banner, category: [news, uncategorized], id: "cc-*", extras: {a: b}}
                set: {title: T, viewed: true, expires_at: -1}
                pin: false
                category: []
            """)
        #expect(diagnostics.all.isEmpty, "\(diagnostics.lines)")
        #expect(config.title == "Brewline")
        #expect(config.baseURL == "https://brewline.example/news/")
        #expect(config.pageSize == 0)
        #expect(config.locale == "fr")
        #expect(config.theme.light.map(\.name) == ["accent", "radius"])
        #expect(config.theme.dark.map(\.value) == ["black"])
        #expect(config.links.linkSchemes.contains("brewline"))
        #expect(config.links.opensInNewTab("https://anything.example/x"))
        let rule = try #require(config.rules.first)
        #expect(rule.types == [.bannerImage])
        #expect(rule.categories == ["news", "uncategorized"])
        #expect(rule.ids == ["cc-*"])
        #expect(rule.set.map(\.field) == [.title, .viewed, .expiresAt])
        #expect(rule.pin == false)
        #expect(rule.moveTo == [])
    }

    /// Each option of `Setting.all` replaces its key of cardfeed.yml when given, leaves it when
    /// not, and without either the setting has the default `--help` names; the configuration says
    /// where each value came from.
    @Test func theCommandLineIsAppliedToTheFilesSettingsOnce() throws {
        let yaml = "page_size: 7\nlocale: fr\nbase_url: https://a.example/news\ncsp: \"default-src 'self'\"\ntimezone: Europe/Berlin\n"
        let site = try TempSite(["cardfeed.yml": yaml])
        defer { site.remove() }
        var diagnostics = Diagnostics()
        let file = ConfigLoader(site: site.site).load(into: &diagnostics)
        let overrides = SettingOverrides([
            .now: WrittenTime(iso8601: "2026-11-20T00:00:00")!, .pageSize: 3, .locale: "de", .baseURL: "https://b.example/x",
            .contentSecurityPolicy: true, .search: true, .strict: true, .cacheDir: "/tmp/c",
        ])
        let overridden = ConfigLoader(site: site.site).load(overriding: overrides, into: &diagnostics)
        let none = ConfigLoader(site: SiteFolder("/nonexistent")).load(into: &diagnostics)
        #expect(diagnostics.all.isEmpty, "\(diagnostics.lines)")
        let options = Setting.all.filter { $0.option != nil }
        #expect(options.map(\.name) == ["base_url", "page_size", "locale", "csp", "search", "cache_dir", "now", "strict"])
        for setting in options {
            switch setting.name {
            case "now":
                #expect(overridden.now == 1_795_129_200, "midnight on the site's clocks (Berlin, UTC+1)")
                #expect(abs(file.now - Int64(Date().timeIntervalSince1970)) < 60)
            case "page_size":
                #expect((file.pageSize, overridden.pageSize, none.pageSize) == (7, 3, 20))
                #expect(setting.fallback == "20")
            case "locale": #expect((file.locale, overridden.locale, none.locale) == ("fr", "de", setting.fallback))
            case "base_url": #expect((file.baseURL, overridden.baseURL, none.baseURL) == ("https://a.example/news/", "https://b.example/x/", nil))
            case "csp":
                #expect(file.contentSecurityPolicy == "default-src 'self'" && overridden.contentSecurityPolicy == "default-src 'self'", "--csp keeps the site's own policy")
                #expect(ConfigLoader(site: SiteFolder("/nonexistent")).load(overriding: SettingOverrides([.contentSecurityPolicy: true]), into: &diagnostics).contentSecurityPolicy == ContentSecurityPolicy.builtin)
                #expect(none.contentSecurityPolicy == nil)
            case "search": #expect(file.search == nil && overridden.search?.fromCommandLine == true && none.search == nil)
            case "strict": #expect(!file.strict && overridden.strict && !none.strict)
            case "cache_dir": #expect(file.cacheDir == nil && overridden.cacheDir == CacheDirSetting(path: "/tmp/c", fromCommandLine: true) && none.cacheDir == nil)
            default: Issue.record("\(setting.name) has an option this test does not try")
            }
            #expect(setting.defaultHelp.hasPrefix("(default: ") && setting.defaultHelp.hasSuffix("\(setting.fallback))"))
            #expect(overridden.source(of: setting) == .option(setting.option!))
            #expect(none.source(of: setting) == .fallback)
        }
        #expect(file.source(of: .pageSize) == .file(line: 1) && file.source(of: .timezone) == .file(line: 5) && file.source(of: .title) == .fallback)
        #expect(overridden.source(of: .timezone) == .file(line: 5))
        let bad = ConfigLoader(site: site.site).load(overriding: SettingOverrides([.baseURL: "javascript:x"]), into: &diagnostics)
        #expect(bad.baseURL == nil && diagnostics.contains("--base-url", "must be an http or https address, not \"javascript:\""))
    }

    @Test func themeColumnsAreAWholeNumberFromOneToSix() throws {
        let (config, diagnostics) = try load("theme:\n  columns: 3\n  column-width: 18rem\n  dark:\n    columns: 9\n")
        #expect(config.theme.light.map(\.name) == ["column-width", "columns"])
        #expect(diagnostics.contains("cardfeed.yml:5:14: field \"theme.dark.columns\": \"9\" is not a whole number from 1 to 6"))
    }

    @Test func newTabTakesHostsAndSaysWhichHostAURLMeant() throws {
        let (config, diagnostics) = try load("links:\n  new_tab: [\"https://partner.example/offers\", partner.example, \"*.brew.example\", \"*\", localhost]\n")
        #expect(config.links.newTab == ["partner.example", "*.brew.example", "*", "localhost"])
        #expect(diagnostics.contains("cardfeed.yml:2:13: field \"links.new_tab\": \"https://partner.example/offers\" is not a host", "(did you mean \"partner.example\"?)"))
        #expect(diagnostics.errors.count == 1)
    }

    @Test func unknownKeysAndWrongTypesNameTheKeyAndLine() throws {
        let (_, diagnostics) = try load("""
            title: ok
            page_sise: 10
            theme:
              acent: red
              radius: big
            links:
              app_schemes: [javascript]
            rules:
              - match: {type: poster}
                hide: yes please
              - name: Does nothing
            """)
        #expect(diagnostics.contains("cardfeed.yml:2:1: field \"page_sise\": unknown key (did you mean \"page_size\"?)"))
        #expect(diagnostics.contains("cardfeed.yml:4:3: field \"theme.acent\": unknown key (did you mean \"accent\"?)"))
        #expect(diagnostics.contains("cardfeed.yml:5:11: field \"theme.radius\": \"big\" is not a length"))
        #expect(diagnostics.contains("cardfeed.yml:7:", "field \"links.app_schemes\": \"javascript\" can run code in the browser"))
        #expect(diagnostics.contains("cardfeed.yml:9:", "field \"rules[1].match.type\": unknown type \"poster\""))
        #expect(diagnostics.contains("cardfeed.yml:10:", "field \"rules[1].hide\": expected true or false"))
        #expect(diagnostics.contains("cardfeed.yml:11:", "field \"rules[2]\": does nothing"))
        #expect(diagnostics.errors.count == 7)
    }

    @Test func contentSecurityPolicy() throws {
        #expect(try load("csp: true").0.contentSecurityPolicy == ContentSecurityPolicy.builtin)
        #expect(try load("csp: false").0.contentSecurityPolicy == nil)
        #expect(try load("title: x").0.contentSecurityPolicy == nil)
        let own = try load("csp: \"default-src 'self'; img-src https:\"")
        #expect(own.0.contentSecurityPolicy == "default-src 'self'; img-src https:" && own.1.all.isEmpty)
        for bad in ["csp: 3", "csp: [a]", "csp: \"\"", "csp: \"<script>\""] {
            #expect(try load(bad).1.contains("field \"csp\": "), "\(bad)")
        }
    }

    @Test func cspFromTheCommandLineOrTheConfigurationIsInEveryPageBeforeAnythingLoads() throws {
        let cards = "[" + cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"]) + "]"
        let plain = try TempSite(["cards.json": cards])
        let configured = try TempSite(["cards.json": cards, "cardfeed.yml": "csp: \"default-src 'none'\""])
        defer { plain.remove(); configured.remove() }
        _ = try plain.builder(plain.options()).run()
        #expect(!(try plain.read("index.html")).contains("Content-Security-Policy"))
        var options = plain.options()
        options.overrides[.contentSecurityPolicy] = true
        _ = try plain.builder(options).run()
        let page = try plain.read("news/index.html")
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;self&#39;; img-src &#39;self&#39; https: http: data:; style-src &#39;self&#39;; script-src &#39;self&#39;; object-src &#39;none&#39;; base-uri &#39;self&#39;; form-action &#39;self&#39;\">"
        #expect(page.contains("<meta charset=\"utf-8\">\n" + meta + "\n<meta name=\"viewport\""))
        _ = try configured.builder(configured.options()).run()
        #expect(try configured.read("index.html").contains("content=\"default-src &#39;none&#39;\">"))
    }

    @Test func yamlSyntaxErrorHasLineAndColumn() throws {
        let (_, diagnostics) = try load("title: a\n  broken: [\n")
        let error = try #require(diagnostics.errors.first)
        #expect(error.line != nil && error.column != nil)
        #expect(error.message.hasPrefix("invalid YAML"))
    }

    @Test("CSS values that could inject a rule are refused", arguments: ["red; } body { display: none", "url(javascript:x)", "expression(alert(1))", "#12345g", "rgb(1,2,3);", "</style>"])
    func cssInjection(_ value: String) throws {
        #expect(!CSSValue.isColor(value))
        let (_, diagnostics) = try load("theme:\n  accent: \"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"\n")
        #expect(diagnostics.contains("field \"theme.accent\"", "is not a colour"))
        let site = try TempSite(["cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d", "extras": ["background_color": value]])])
        defer { site.remove() }
        let loaded = site.load()
        #expect(loaded.cards.first?.styles.isEmpty == true)
        #expect(loaded.diagnostics.contains("field \"extras.background_color\"", "is not a CSS colour"))
    }

    /// Theme values are read as CSS tokens: whatever could end the declaration or run into the
    /// rest of the stylesheet is refused, with an error naming the key.
    @Test("theme values that are not whole CSS tokens are refused", arguments: [
        ("shadow", "0 1px rgba(0,0,0"), ("shadow", "0 1px 2px black)"), ("shadow", "0 [1px]"), ("shadow", "0 1px \\72 ed"),
        ("shadow", "0 1px red /* x */"), ("shadow", "url(x)"), ("shadow", "0 1px 'red'"), ("font", "'Georgia\", serif"),
        ("font", "\"Georgia', serif"), ("font", "Geor\\gia"), ("font", "Georgia; color: red"), ("font", "a { b"), ("font", "a } b"),
        ("font", "a < b"), ("font", "Georgia\u{301}"), ("line-height", "1.5 /**/"), ("radius", "4px)"),
        ("radius", "infpx"), ("image-position", "center (top"),
    ])
    func themeValuesAreCSSTokens(_ key: String, _ value: String) throws {
        let yamlValue = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let (config, diagnostics) = try load("theme:\n  \(key): \"\(yamlValue)\"\n")
        #expect(diagnostics.contains("field \"theme.\(key)\"", "is not"), "\(diagnostics.lines)")
        #expect(config.theme.light.isEmpty)
    }

    @Test func documentedThemeValuesStillWork() {
        for (key, value) in [("font", "Georgia, serif"), ("font", "\"Iowan Old Style\", 'Palatino', serif"), ("font", "system-ui, -apple-system, sans-serif"),
                             ("radius", "4px"), ("radius", "1rem"), ("radius", "0"), ("gap", ".5em"), ("page-width", "60ch"), ("line-height", "1.5"),
                             ("line-height", "24px"), ("image-position", "center top"), ("image-position", "50% 20%"),
                             ("shadow", "0 1px 2px rgba(0, 0, 0, 0.1)"), ("shadow", "0 1px 2px #0003, inset 0 0 0 1px hsl(0 0% 0% / 10%)"),
                             ("accent", "#b45309"), ("accent", "rgb(1 2 3 / 50%)")] {
            #expect(ThemeProperty.isValid(value, as: ThemeProperty.kinds[key]!), "\(key): \(value)")
        }
    }

    @Test func fontListsMustCloseTheirQuotes() {
        #expect(CSSValue.isFontList("\"Iowan Old Style\", 'Palatino', serif"))
        #expect(!CSSValue.isFontList("Georgia\", serif"))
        #expect(!CSSValue.isFontList("'Georgia, serif"))
    }

    @Test func colours() {
        for good in ["#fff", "#ffffff80", "rgb(1 2 3)", "rgba(1, 2, 3, 0.5)", "hsl(120deg 50% 50%)", "RebeccaPurple", "transparent"] {
            #expect(CSSValue.isColor(good), "\(good)")
        }
    }

    @Test func templateExtraMustNameASiteTemplate() throws {
        let site = try TempSite(["cards.json": "[" + [
            cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d", "extras": ["template": "../../etc/passwd"]]),
            cardJSON(["id": "b", "type": "text_announcement", "created": 1, "description": "d", "extras": ["template": "missing"]]),
        ].joined(separator: ",") + "]"])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.diagnostics.contains("(id \"a\"): field \"extras.template\": \"../../etc/passwd\" is not a template name"))
        #expect(report.diagnostics.contains("(id \"b\"): field \"extras.template\": no template templates/cards/missing.mustache"))
    }

    @Test func ruleThatMatchesNothingWarnsAndRuleURLsAreChecked() throws {
        let site = try TempSite([
            "cards.json": cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "d"]),
            "cardfeed.yml": "rules:\n  - match: {id: nope}\n    hide: true\n  - match: {id: a}\n    set: {url: \"javascript:alert(1)\"}\n",
        ])
        defer { site.remove() }
        let report = site.build()
        #expect(report.diagnostics.contains("cardfeed.yml:2:5: field \"rule 1\": the rule matches no card"))
        #expect(report.diagnostics.contains("cardfeed.yml:4:5: field \"rule 2: set.url\"", "\"javascript:\" is not allowed"))
        #expect(!(try site.read("index.html").contains("javascript")))
    }

    @Test func configErrorStopsTheBuild() throws {
        let site = try TempSite(["cards.json": "[]", "cardfeed.yml": "pagesize: 3\n"])
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        #expect(!site.exists("public"))
    }
}

/// `cardfeed init` and the stamp `cardfeed eject` leaves.
@Suite struct ScaffoldTests {
    @Test func initCreatesASiteThatBuildsWithoutWarnings() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try SiteScaffold.create(at: folder)
        #expect(files.contains("cardfeed.yml") && files.contains("cards.json"))
        for folderName in ["templates", "assets/images", "strings", "cards"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(folderName).path))
        }
        let site = SiteFolder(folder.path)
        let report = try SiteBuilder(options: BuildOptions(site: site, now: 1_800_000_000, strict: true), destination: .folder(site.defaultOutput), logger: .quiet).run()
        #expect(report.cardsShown == 3)
        #expect(throws: SiteScaffold.Refusal.self) { try SiteScaffold.create(at: folder) }
    }

    @Test func ejectStampsVersionAndHashAndTemplatesFlagsAChangedBuiltin() throws {
        let site = try TempSite()
        defer { site.remove() }
        let catalog = TemplateCatalog(site: site.site)
        _ = try catalog.eject("card", force: false)
        let url = site.root.appendingPathComponent("templates/card.mustache")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("{{! cardfeed eject: card from CardFeed \(CardFeedVersion.current), built-in fnv1a64 "))
        var entry = try #require(catalog.entries.first { $0.name == "card" })
        #expect(entry.ejectedFrom == CardFeedVersion.current)
        #expect(!entry.builtinChanged)
        // As if the copy had been ejected from an older built-in.
        try text.replacingOccurrences(of: TemplateCatalog.fingerprint(BuiltinFiles.templates["card"]!), with: "0123456789abcdef").write(to: url, atomically: true, encoding: .utf8)
        entry = try #require(catalog.entries.first { $0.name == "card" })
        #expect(entry.builtinChanged)
        #expect(site.build().succeeded, "the stamp is a Mustache comment")
    }
}

/// The README and docs/*.md show files of examples/customised (after `<!-- file: PATH -->`); they
/// must not drift apart.
@Suite struct ReadmeTests {
    static let repository = Paths.tests.deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and every Markdown file of docs/, by their paths in the repository.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test func everyFileSnippetEqualsTheFile() throws {
        var snippets = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
            let parts = text.components(separatedBy: "<!-- file: ").dropFirst()
            snippets += parts.count
            for part in parts {
                let path = String(part.prefix { $0 != " " })
                let afterFence = try #require(part.range(of: "```")).upperBound
                let body = part[afterFence...].drop { $0 != "\n" }.dropFirst()
                let snippet = String(body[..<(try #require(body.range(of: "```")).lowerBound)])
                let file = try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
                #expect(snippet == file, "\(document)'s snippet of \(path) differs from the file")
            }
        }
        #expect(snippets >= 5)
    }
}
