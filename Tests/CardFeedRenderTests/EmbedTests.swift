import Testing
@testable import CardFeedRender

/// Placements' HTML and stylesheet: one prefix on every class, id and custom property, and no
/// rule of the site's chrome or of the host's elements.
@Suite struct EmbedTests {
    @Test func everyClassIdAndReferenceIsPrefixed() {
        let html = #"<div class="placement"><article class="card card--x" id="card-a" data-card-id="a"><h2 id="t" class="card__title">class="not an attribute"</h2><p aria-labelledby="t"></p></article></div>"#
        #expect(EmbedHTML.prefixed(html, placement: "home-hero") == #"<div class="cardfeed-placement"><article class="cardfeed-card cardfeed-card--x" id="cardfeed-home-hero--card-a" data-card-id="a"><h2 id="cardfeed-home-hero--t" class="cardfeed-card__title">class="not an attribute"</h2><p aria-labelledby="cardfeed-home-hero--t"></p></article></div>"#)
    }

    @Test func addressesAreMadeAbsoluteSrcsetsToo() {
        let html = #"<a href="cards/a.html">a</a><img src="assets/i.png" srcset="assets/i.png 1x, assets/i@2x.png 2x"><a href="https://o.test/">o</a>"#
        #expect(EmbedHTML.absolute(html, baseURL: "https://s.test/n/") == #"<a href="https://s.test/n/cards/a.html">a</a><img src="https://s.test/n/assets/i.png" srcset="https://s.test/n/assets/i.png 1x, https://s.test/n/assets/i@2x.png 2x"><a href="https://o.test/">o</a>"#)
    }

    @Test func aLanguagesAddressesAreMadeRelativeToItsTree() {
        let html = ##"<a href="de/cards/a.html">a</a><img src="assets/i.png" srcset="assets/i.png 1x, assets/i@2x.png 2x"><a href="https://o.test/">o</a><a href="/x">x</a><a href="#f">f</a><img src="data:image/png;base64,AA">"##
        #expect(EmbedHTML.relative(html, toTree: "de") == ##"<a href="cards/a.html">a</a><img src="../assets/i.png" srcset="../assets/i.png 1x, ../assets/i@2x.png 2x"><a href="https://o.test/">o</a><a href="/x">x</a><a href="#f">f</a><img src="data:image/png;base64,AA">"##)
        #expect(EmbedHTML.relative(html, toTree: "") == html)
    }

    @Test(arguments: [
        ("cards/a.html", true), ("?q", true), ("a:b/c", false), ("mailto:x@y.test", false), ("HTTPS://o.test/", false),
        ("1a:b", true), ("./a:b", true), ("//cdn.test/x", false), ("/x", false), ("\\x", false), ("#f", false), ("", false),
    ])
    func whichAddressesAreRelativePaths(_ address: String, _ relative: Bool) {
        #expect(EmbedHTML.isRelativePath(address) == relative)
    }

    /// The selector as a placement has it, or nil for one of the site's chrome.
    private func scoped(_ selector: String) -> String? {
        switch EmbedSelector.scope(selector) {
        case .scoped(let text, _): text
        case .chrome: nil
        case .unscopable(let why): "unscopable: " + why
        }
    }

    private let inside = ":where(.cardfeed-placement, .cardfeed-placement *)"

    @Test func theCardsRulesArePrefixedHeldInsideAPlacementAndTheSitesChromeLeftOut() {
        #expect(scoped(".card__title a:hover") == ".cardfeed-card__title a:hover" + inside)
        #expect(scoped(".card[data-pinned] .card__dismiss") == ".cardfeed-card[data-pinned] .cardfeed-card__dismiss" + inside)
        #expect(scoped("#card-a") == "#cardfeed-card-a" + inside)
        #expect(scoped("a") == "a" + inside)
        #expect(scoped("*::before") == "*\(inside)::before")
        #expect(scoped(".card__link:dir(rtl)::after") == ".cardfeed-card__link:dir(rtl)\(inside)::after")
        #expect(scoped(".card__link:after") == ".cardfeed-card__link\(inside):after")
        #expect(scoped(".site-header") == nil)
        #expect(scoped(".feed-news .card__category--news") == nil)
        #expect(scoped(".card-page #card .card__title") == nil)
    }

    @Test func htmlBodyAndRootAreThePlacementsOwnElement() {
        #expect(scoped(":root") == ".cardfeed-placement")
        #expect(scoped("body") == ".cardfeed-placement")
        #expect(scoped("html") == ".cardfeed-placement")
        #expect(scoped("html body") == ".cardfeed-placement")
        #expect(scoped(":root > body .card") == ".cardfeed-placement .cardfeed-card" + inside)
        #expect(scoped("html[dir=rtl] .card__title") == ".cardfeed-placement[dir=rtl] .cardfeed-card__title" + inside)
        #expect(scoped("body:has(.card) p") == ".cardfeed-placement:has(.cardfeed-card) p" + inside)
        #expect(scoped("BODY") == ".cardfeed-placement")
        // Names that only look like them.
        #expect(scoped("[data-x=body] .card") == "[data-x=body] .cardfeed-card" + inside)
        #expect(scoped(".card__body") == ".cardfeed-card__body" + inside)
    }

    /// The attack of issue 53: rules that name a card's class only inside a pseudo-class matched
    /// the host's elements.
    @Test func selectorsInsidePseudoClassesAreHeldInsideAPlacementToo() {
        #expect(scoped(":not(.card)") == ":not(.cardfeed-card)" + inside)
        #expect(scoped(":is(.card, .card__title) ~ *") == ":is(.cardfeed-card, .cardfeed-card__title) ~ *" + inside)
        #expect(scoped(":where(.card__title)") == ":where(.cardfeed-card__title)" + inside)
        #expect(scoped(":has(> .card)") == ":has(> .cardfeed-card)" + inside)
        #expect(scoped("li:nth-child(2n of .card)") == "li:nth-child(2n of .cardfeed-card)" + inside)
        #expect(scoped(":not(body)") == ":not(.cardfeed-placement)" + inside)
        #expect(scoped(":not(.site-header)") == nil)
        #expect(scoped(":host .card") == "unscopable: :host matches only in a shadow tree or the host page")
        #expect(scoped("::slotted(p)") == "unscopable: ::slotted matches only in a shadow tree or the host page")
        #expect(scoped("& p") == "unscopable: & outside a rule to nest in")
    }

    @Test func lengthsInRemAreTheReadersFontSize() {
        #expect(EmbedStylesheet.remFree("1.5rem 0 -2rem .5REM") == "calc(1.5 * var(--cardfeed-rem)) 0 calc(-2 * var(--cardfeed-rem)) calc(.5 * var(--cardfeed-rem))")
        #expect(EmbedStylesheet.remFree("calc(100% - 2rem)") == "calc(100% - calc(2 * var(--cardfeed-rem)))")
        #expect(EmbedStylesheet.remFree("\"1rem\" h1rem --x2rem 3remx 1e2rem") == "\"1rem\" h1rem --x2rem 3remx calc(1e2 * var(--cardfeed-rem))")
    }

    @Test func aWholeStylesheet() {
        let css = """
            /* a comment { } */
            :root { --cf-bg: #fff; }
            body { margin: 0; font-size: 1rem; }
            @media (prefers-color-scheme: dark) {
              :root { --cf-bg: #000; }
              .site-title { color: red; }
            }
            @media print { .pagination { display: none; } }
            .card, .feed { background: var(--cf-bg); animation: spin 1s; }
            .visually-hidden { position: absolute !important; }
            @keyframes spin { from { rotate: 0deg; } }
            @layer theme { .card__title { color: red; } }
            .card { & .card__title { margin: 0; } @media (width > 1px) { padding: 1px; } }
            """
        let made = EmbedStylesheet.rewrite(css)
        #expect(made.warnings.isEmpty)
        #expect(made.css == """
            @layer cardfeed-important {
            .cardfeed-visually-hidden\(inside) { position: absolute !important; }
            }
            @layer cardfeed-cards {
            .cardfeed-placement { --cardfeed-bg: #fff; }
            .cardfeed-placement { margin: 0 !important; }
            :where(.cardfeed-placement) > * { font-size: calc(1 * var(--cardfeed-rem)) !important; }
            @media (prefers-color-scheme: dark) {
            .cardfeed-placement:not([data-cardfeed-scheme="light"], [data-cardfeed-scheme="light"] *) { --cardfeed-bg: #000; }
            }
            .cardfeed-placement:is([data-cardfeed-scheme="dark"], [data-cardfeed-scheme="dark"] *) { --cardfeed-bg: #000; }
            .cardfeed-card\(inside) { background: var(--cardfeed-bg) !important; animation: cardfeed-spin 1s !important; }
            @keyframes cardfeed-spin {
            from { rotate: 0deg; }
            }
            .cardfeed-card__title\(inside) { color: red !important; }
            .cardfeed-card .cardfeed-card__title\(inside) { margin: 0 !important; }
            @media (width > 1px) {
            .cardfeed-card\(inside) { padding: 1px !important; }
            }
            }

            """)
    }

    @Test func whatCannotBeHeldInsideAPlacementIsLeftOutWithAWarningAtItsPlace() {
        let css = """
            @import url(other.css);
            :host, .card { color: red; }
            @font-face { font-family: Brand; src: url(b.woff2); }
              @scope (.card) { p { color: red; } }
            """
        let made = EmbedStylesheet.rewrite(css, file: "site/assets/cardfeed.css")
        #expect(made.warnings.map(\.description) == [
            "site/assets/cardfeed.css:1:1: @import is left out of the placements' stylesheet: what it brings cannot be held inside a placement",
            "site/assets/cardfeed.css:2:1: the selector :host is left out of the placements' stylesheet: :host matches only in a shadow tree or the host page",
            "site/assets/cardfeed.css:3:1: @font-face is left out of the placements' stylesheet: a font it defined would be the host page's too (the cards show the next font of their font-family)",
            "site/assets/cardfeed.css:4:3: @scope is left out of the placements' stylesheet: its rules cannot be held inside a placement",
        ])
        #expect(made.css == "@layer cardfeed-cards {\n.cardfeed-card\(inside) { color: red !important; }\n}\n")
    }
}
