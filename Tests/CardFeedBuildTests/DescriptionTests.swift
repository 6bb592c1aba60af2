import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender


/// Card descriptions as Braze shows them: line breaks kept, and HTML pasted into the text never
/// dropped: a few tags are kept (without attributes but a checked href), the rest is shown as text.
@Suite struct DescriptionTests {
    /// Code blocks scroll sideways, so the keyboard must be able to focus them.
    @Test("a code block can be focused", arguments: [
        ("```swift extra\nlet x = \"<y>\" && 'z'\n```", "<pre tabindex=\"0\"><code class=\"language-swift\">let x = &quot;&lt;y&gt;&quot; &amp;&amp; 'z'\n</code></pre>\n"),
        ("```language-c\nx\n```", "<pre tabindex=\"0\"><code class=\"language-c\">x\n</code></pre>\n"),
        ("```\n```", "<pre tabindex=\"0\"><code></code></pre>\n"),
        ("text\n\n    indented\n\n- item\n\n  ```\n  in a list\n  ```", "<p>text</p>\n<pre tabindex=\"0\"><code>indented\n</code></pre>\n<ul>\n<li>\n<p>item</p>\n<pre tabindex=\"0\"><code>in a list\n</code></pre>\n</li>\n</ul>\n"),
    ])
    func codeBlockCanBeFocused(markdown: String, html: String) {
        #expect(Markdown.html(markdown) == html)
    }

    /// A feed entry's title for a card without one: the text the description's HTML shows.
    @Test("a description's text", arguments: [
        ("**Bold** and *em* with `code`, [a link](https://x.test) and ![an image](https://x.test/i.png).", "Bold and em with code, a link and ."),
        ("# Title\n\n- one\n- two\n\n```\nlet x = 1\n```\n\nline\nbreak", "Title one two let x = 1 line break"),
        ("<b>kept</b> <script>shown</script> &amp; &copy; &#1;x", "kept <script>shown</script> & © x"),
        ("[refused](javascript:alert(1)) ![refused too](ftp://x.test/i.png)", "refused refused too"),
    ])
    func descriptionText(markdown: String, text: String) {
        #expect(Markdown.text(markdown, linkSchemes: URLCheck.linkSchemes) == text)
    }

    @Test func oneNewlineIsALineBreakAndMarkdownStillWorks() {
        #expect(Markdown.html("Mon-Fri: 9-17\nSat: 10-14") == "<p>Mon-Fri: 9-17<br />\nSat: 10-14</p>\n")
        #expect(Markdown.html("**Hours**\n\n- Mon\n- Tue\n\nSee [the map](https://x.test/map).")
            == "<p><strong>Hours</strong></p>\n<ul>\n<li>Mon</li>\n<li>Tue</li>\n</ul>\n<p>See <a href=\"https://x.test/map\">the map</a>.</p>\n")
    }

    @Test("allowed tags are kept, without their attributes", arguments: [
        ("<p>Our summer sale starts Monday.</p>", "<p>\nOur summer sale starts Monday.\n</p>\n"),
        ("<div align=\"center\">Centered news</div>", "<div>\nCentered news\n</div>\n"),
        ("Line one<br>Line two", "<p>Line one<br />\nLine two</p>\n"),
        ("a <B onclick=\"x\">bold *em*</B> <u>u</u> <span class=x style=\"color:red\">s</span> <i>i</i> <em>e</em> <strong>s</strong>",
         "<p>a <b>bold <em>em</em></b> <u>u</u> <span>s</span> <i>i</i> <em>e</em> <strong>s</strong></p>\n"),
        ("<div>\n<p>Two\nlines &amp; more</p>\n</div>", "<div>\n<p>\nTwo<br />\nlines &amp; more\n</p>\n</div>\n"),
        ("<a href='https://x.test/?a=1&amp;b=2' target=_blank>ok</a>", "<p><a href=\"https://x.test/?a=1&amp;b=2\">ok</a></p>\n"),
    ])
    func allowedTags(_ markdown: String, _ html: String) {
        #expect(Markdown.html(markdown) == html)
    }

    @Test("other markup is shown as text", arguments: [
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"),
        ("x <img src=x onerror=alert(1)> y", "<p>x &lt;img src=x onerror=alert(1)&gt; y</p>\n"),
        ("<b>unclosed", "<p>&lt;b&gt;unclosed</p>\n"),
        ("text </i> stray", "<p>text &lt;/i&gt; stray</p>\n"),
        ("<!-- note --> hi", "<p>&lt;!-- note --&gt; hi</p>\n"),
        ("<b><p>x</p></b>", "<p><b>&lt;p&gt;x&lt;/p&gt;</b></p>\n"),
        ("<a href=\"javascript:alert(1)\">click</a>", "<p>click</p>\n"),
        ("<a href=\"&#106;avascript:alert(1)\">click</a>", "<p>click</p>\n"),
        ("<a>no href</a>", "<p>no href</p>\n"),
        ("[<a href=\"https://a.test\">in</a>](https://b.test)", "<p><a href=\"https://b.test\">&lt;a href=&quot;https://a.test&quot;&gt;in&lt;/a&gt;</a></p>\n"),
    ])
    func otherMarkupIsText(_ markdown: String, _ html: String) {
        #expect(Markdown.html(markdown) == html)
    }

    /// Whatever a description holds, the only tags in its HTML are cmark's own and the allowed
    /// ones, with no attribute but a checked href or src.
    @Test func hostileHTMLStaysInert() {
        let inputs = [
            "<a href=\"java\tscript:alert(1)\">x</a>", "<a href=\" javascript:alert(1)\">x</a>", "<a href=\"data:text/html,x\">x</a>",
            "<a href=\"https://x.test\" onclick=\"alert(1)\" style=\"x\">x</a>", "<div onmouseover=alert(1)>x</div>",
            "<p><a href=\"https://x.test\"><div>x</div></a></p>", "<a href=\"https://x.test\"><a href=\"https://y.test\">x</a></a>",
            "<iframe src=\"https://x.test\"></iframe>", "<svg><script>alert(1)</script></svg>", "<style>body{}</style>",
            "<b \"onclick\"=x>y</b>", "<b onclick=\"alert(1)\"", "<div><p><span><b><i><u><em><strong>deep</strong></em></u></i></b></span></p></div>",
            "<br onload=alert(1)>", "</br>", "<p/>", "<a href=\"x\" href=\"javascript:alert(1)\">last href counts</a>",
            "<a href=\"https://x.test/\"quoted\">x</a>", "<a href=https://x.test/a\"b>x</a>", "<a href=\"https://x.test/&quot;onclick=&quot;alert(1)\">x</a>",
        ]
        let allowed: Set<String> = ["p", "div", "b", "i", "u", "em", "strong", "span", "a", "br", "ul", "ol", "li", "code", "pre", "blockquote", "hr", "h1", "h2", "img"]
        let tag = try! Regex(#"<(/?)([a-zA-Z0-9]+)([^>]*)>"#)
        for input in inputs {
            let html = Markdown.html(input)
            for match in html.matches(of: tag) {
                let name = String(match.output[2].substring ?? "")
                let attributes = String(match.output[3].substring ?? "")
                #expect(allowed.contains(name), "\(input) -> \(html)")
                let stripped = attributes.replacing(try! Regex(#"\s(href|src|alt)="[^"<>]*""#), with: "").replacingOccurrences(of: " /", with: "")
                #expect(stripped.isEmpty, "\(input) -> \(html)")
                #expect(!attributes.lowercased().contains("javascript") && !attributes.lowercased().contains("data:"), "\(input) -> \(html)")
            }
        }
    }

    /// The quick byte test that lets most descriptions skip the link check never skips one with
    /// a problem: random texts of link pieces, checked in full and through the quick test.
    @Test func theQuickLinkTestNeverHidesAProblem() {
        let pieces = ["[a](", "![i](", "](", "]: ", "[r]", ")", "https://", "http://", "HTTPS://", "x.example", "/", "../", "@", "\\", " ",
                      "\n", "<", ">", "file:", "ftp://", "images/here.png", "images/gone.png", "#f", "?q", "(", "`", "*"]
        let assets = AssetFiles.listed(["images/here.png"])
        var generator = SystemRandomNumberGenerator()
        var problems = 0
        for _ in 0..<6000 {
            let text = (0..<Int.random(in: 1...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let every = Markdown.everyLinkProblem(text, linkSchemes: URLCheck.linkSchemes, assets: assets)
            #expect(Markdown.linkProblems(text, linkSchemes: URLCheck.linkSchemes, assets: assets) == every, "\(text.debugDescription)")
            if !every.isEmpty { problems += 1 }
        }
        #expect(problems > 50, "the texts hold problems to find")
        #expect(!Markdown.mayHaveLinkProblems("See [the map](https://x.test/map) and [more](http://x.test/more?a=1#b)."))
    }

    /// HTML has no link inside a link: a Markdown link or autolink inside a kept `a` is its text.
    @Test func aLinkInsideAKeptAIsItsText() {
        #expect(Markdown.html("<a href=\"https://o.example/\">[i](https://i.example/) <https://a.example/></a> [after](https://b.example/)")
            == "<p><a href=\"https://o.example/\">i https://a.example/</a> <a href=\"https://b.example/\">after</a></p>\n")
        #expect(Markdown.markupChanges("<a href=\"https://o.example/\">*[i](https://i.example/)*</a>", linkSchemes: URLCheck.linkSchemes)
            == ["a Markdown link inside an <a> is shown as its text"])
    }

    @Test func checkSaysOncePerCardWhatWasChanged() throws {
        let site = try TempSite(["cards.json": "[" + [
            cardJSON(["id": "changed", "tp": "text_announcement", "ca": 1, "ds": "<div align=\"center\">Hi</div>\n\n<script>x</script> <b class=\"c\">b</b> <img src=x>"]),
            cardJSON(["id": "kept", "type": "text_announcement", "created": 1, "description": "<p>Our summer sale starts Monday.</p>\nLine one<br>Line two"]),
        ].joined(separator: ",") + "]"])
        defer { site.remove() }
        let report = site.build(write: false)
        #expect(report.succeeded)
        let warnings = report.diagnostics.lines.filter { $0.contains("HTML changed") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("card 1 (id \"changed\"): field \"ds\": HTML changed: the attribute align is dropped; <script> is shown as text; the attribute class is dropped; <img> is shown as text (kept: b, i, em") == true, "\(warnings)")
        #expect(!site.build(strict: true, write: false).succeeded)
    }

    @Test func aMarkdownTableGetsAWarningNamingTheCardAndLine() throws {
        let site = try TempSite(["cards.json": "[" + [
            cardJSON(["id": "prices", "type": "text_announcement", "created": 1, "description": "Prices:\n\n| Size | Price |\n| --- | ---: |\n| S | 2 |"]),
            cardJSON(["id": "rule", "type": "text_announcement", "created": 1, "description": "a | b\n\n---\n\nA rule, not a table. | Pipes | alone."]),
        ].joined(separator: ",") + "]"])
        defer { site.remove() }
        let report = site.build(write: false)
        let warnings = report.diagnostics.lines.filter { $0.contains("Markdown table") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("card 1 (id \"prices\"): field \"description\": line 4 makes a Markdown table") == true, "\(warnings)")
    }

    @Test("a banner without image_alt is named from the card, with a warning a card that a terminal shows once a file; an image beside text is decorative")
    func altTextAsTheBrazeSDKsSetIt() throws {
        let site = try TempSite(["cards.json": "[" + [
            cardJSON(["id": "b1", "type": "banner_image", "created": 3, "image": "https://x.test/a.png", "url": "https://shop.example/x"]),
            cardJSON(["id": "b2", "type": "banner_image", "created": 2, "image": "https://x.test/b.png", "title": "Autumn menu"]),
            cardJSON(["id": "b3", "type": "banner_image", "created": 1, "image": "https://x.test/c.png", "image_alt": "A latte"]),
            cardJSON(["id": "c", "type": "captioned_image", "created": 0, "title": "T", "description": "d", "image": "https://x.test/d.png"]),
            cardJSON(["id": "b4", "type": "banner_image", "created": 0, "image": "https://x.test/e.png", "url": "mailto:hello@x.example?subject=Hi"]),
        ].joined(separator: ",") + "]"])
        defer { site.remove() }
        let report = site.build()
        let each = report.diagnostics.lines.filter { $0.contains("image_alt") }
        #expect(each.count == 3 && each[0].hasSuffix("cards.json:1:2: card 1 (id \"b1\"): field \"image_alt\": missing: a banner's image is all it shows, so screen readers read the card's title, domain or link's host or address instead (\"shop.example\"); add image_alt to say what the image shows"), "\(each)")
        let warnings = Diagnostics.summarisedLines(report.diagnostics.all).map(\.text).filter { $0.contains("image_alt") }
        #expect(warnings.count == 1, "\(warnings)")
        // At the first of them (its "{": a banner without image_alt has no key to point at).
        #expect(warnings.first?.hasSuffix("cards.json:1:2: 3 cards (card 1 (id \"b1\"), card 2 (id \"b2\"), card 5 (id \"b4\")): field \"image_alt\": missing: a banner's image is all it shows, so screen readers read the card's title, domain or link's host or address instead, if it has one; add image_alt to say what the image shows") == true, "\(warnings)")
        let page = try site.read("index.html")
        #expect(page.contains("src=\"https://x.test/a.png\" alt=\"shop.example\""))
        #expect(page.contains("src=\"https://x.test/b.png\" alt=\"Autumn menu\""))
        // A mail link's words are its address, as its link shows them, not a host it has none of.
        #expect(page.contains("src=\"https://x.test/e.png\" alt=\"hello@x.example\""))
        #expect(page.contains("src=\"https://x.test/c.png\" alt=\"A latte\""))
        #expect(page.contains("src=\"https://x.test/d.png\" alt=\"\""))
    }

    @Test("a card with an image and neither title nor description is named from the card like a banner, with the warning")
    func aCardShowingOnlyItsImageIsNamedLikeABanner() throws {
        let site = try TempSite(["cards.json": "[" + [
            cardJSON(["id": "p", "type": "short_news", "created": 2, "image": "https://x.test/p.png", "url": "https://brew.example/menu", "domain": "brew.example"]),
            cardJSON(["id": "t", "type": "short_news", "created": 1, "image": "https://x.test/t.png", "title": "Menu", "description": "d"]),
            cardJSON(["id": "e", "type": "short_news", "created": 0, "image": "https://x.test/e.png", "title": "", "description": "", "url": "https://empty.example/x"]),
        ].joined(separator: ",") + "]"])
        defer { site.remove() }
        let report = site.build()
        let warnings = Diagnostics.summarisedLines(report.diagnostics.all).map(\.text).filter { $0.contains("image_alt") }
        #expect(warnings.count == 1 && warnings[0].contains("2 cards (card 1 (id \"p\"), card 3 (id \"e\")): field \"image_alt\": missing: with neither title nor description, the image is all the card shows"), "\(warnings)")
        let page = try site.read("index.html")
        #expect(page.contains("src=\"https://x.test/p.png\" alt=\"brew.example\""))
        #expect(page.contains("src=\"https://x.test/t.png\" alt=\"\""))
        // An empty title is no words: the link's host is used.
        #expect(page.contains("src=\"https://x.test/e.png\" alt=\"empty.example\""))
    }

    @Test func theWordsOfPastedHTMLAreOnThePage() throws {
        let site = try TempSite(["cards.json": cardJSON([
            "id": "a", "type": "text_announcement", "created": 1,
            "description": "<p>Our summer sale starts Monday.</p>\n\n<div align=\"center\">Centered news</div>\n\nLine one<br>Line two\nMon-Fri: 9-17",
        ])])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let page = try site.read("index.html")
        #expect(page.contains("<p>\nOur summer sale starts Monday.\n</p>\n<div>\nCentered news\n</div>\n<p>Line one<br />\nLine two<br />\nMon-Fri: 9-17</p>"))
    }

    @Test func relativeImagesAndLinksPointIntoAssets() {
        #expect(Markdown.html("![map](images/map.png) [menu](files/menu.pdf#page=2) ![same](assets/images/map.png?v=2) <a href=\"files/a.pdf\">a</a>")
            == "<p><img src=\"assets/images/map.png\" alt=\"map\" /> <a href=\"assets/files/menu.pdf#page=2\">menu</a> <img src=\"assets/images/map.png?v=2\" alt=\"same\" /> <a href=\"assets/files/a.pdf\">a</a></p>\n")
        #expect(Markdown.html("![out](../secret.png) [up](%2e%2e/x) [root](/page.html) [here](#card-x)")
            == "<p>out up <a href=\"/page.html\">root</a> <a href=\"#card-x\">here</a></p>\n")
    }

    /// Every page finds a description's local image through its `<base href>`: the all feed, a
    /// category page and later pages; the Atom and JSON feeds carry it as an absolute URL.
    @Test(arguments: [nil, "https://example.test/news/"])
    func aMarkdownImageInAssetsWorksOnEveryPage(_ baseURL: String?) throws {
        var files = ["assets/images/map.png": "png"]
        if let baseURL { files["cardfeed.yml"] = "base_url: \(baseURL)\n" }
        let site = try TempSite(files)
        defer { site.remove() }
        let cards = (1...3).map { number in
            cardJSON(["id": "c\(number)", "type": "text_announcement", "created": number, "categories": ["news"],
                      "description": "Find us: ![map](images/map.png) or [the menu](menu.pdf)"])
        }
        try site.write("cards.json", "[" + cards.joined(separator: ",") + "]")
        #expect(site.build(pageSize: 1).succeeded)
        // With one card a page, every card ends a page: c1 is on page-c1.html.
        for (page, base) in [("index.html", "./"), ("page-c1.html", "./"), ("news/index.html", "../"), ("news/page-c2.html", "../")] {
            let html = try site.read(page)
            #expect(html.contains("<base href=\"\(base)\">"), "\(page)")
            #expect(html.contains("<img src=\"assets/images/map.png\" alt=\"map\" />"), "\(page)")
            #expect(html.contains("<a href=\"assets/menu.pdf\">the menu</a>"), "\(page)")
        }
        #expect(site.exists("public/assets/images/map.png"))
        guard let baseURL else {
            #expect(!site.exists("public/feed.xml"))
            return
        }
        for feed in ["feed.xml", "news/feed.xml"] {
            let atom = try site.read(feed)
            #expect(atom.contains("&lt;img src=&quot;\(baseURL)assets/images/map.png&quot;"), "\(feed)")
            #expect(atom.contains("&lt;a href=&quot;\(baseURL)assets/menu.pdf&quot;"), "\(feed)")
        }
        let json = try site.read("news/feed.json")
        #expect(json.contains("<img src=\\\"\(baseURL)assets/images/map.png\\\""), "\(json)")
    }
}
