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

    @Test func theCardsRulesArePrefixedAndTheSitesChromeLeftOut() {
        #expect(EmbedStylesheet.selector(".card__title a:hover") == ".cardfeed-card__title a:hover")
        #expect(EmbedStylesheet.selector(".card[data-pinned] .card__dismiss") == ".cardfeed-card[data-pinned] .cardfeed-card__dismiss")
        #expect(EmbedStylesheet.selector("#card-a") == "#cardfeed-card-a")
        #expect(EmbedStylesheet.selector(":root") == ".cardfeed-placement")
        #expect(EmbedStylesheet.selector("a") == ".cardfeed-placement a")
        #expect(EmbedStylesheet.selector("*::before") == ".cardfeed-placement *::before")
        #expect(EmbedStylesheet.selector("body") == nil)
        #expect(EmbedStylesheet.selector("html") == nil)
        #expect(EmbedStylesheet.selector(".site-header") == nil)
        #expect(EmbedStylesheet.selector(".feed-news .card__category--news") == nil)
        #expect(EmbedStylesheet.selector(".card-page #card .card__title") == nil)
    }

    @Test func aWholeStylesheet() {
        let css = """
            /* a comment { } */
            :root { --cf-bg: #fff; }
            body { margin: 0; }
            @media (prefers-color-scheme: dark) {
              :root { --cf-bg: #000; }
              .site-title { color: red; }
            }
            @media print { .pagination { display: none; } }
            .card, .feed { background: var(--cf-bg); }
            @keyframes spin { from { rotate: 0deg; } }
            """
        #expect(EmbedStylesheet.rewrite(css) == """
            .cardfeed-placement { --cardfeed-bg: #fff; }
            @media (prefers-color-scheme: dark) {
            .cardfeed-placement:not([data-cardfeed-scheme="light"], [data-cardfeed-scheme="light"] *) { --cardfeed-bg: #000; }
            }
            .cardfeed-placement:is([data-cardfeed-scheme="dark"], [data-cardfeed-scheme="dark"] *) { --cardfeed-bg: #000; }
            .cardfeed-card { background: var(--cardfeed-bg); }

            """)
    }
}
