import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender


/// Text and Markdown from untrusted cards: what HTML cannot hold is dropped, and links and images
/// in descriptions follow the same rules as a card's own link and image.
@Suite struct HostileInputTests {
    /// What a browser makes of a URL, as the WHATWG URL parser reads it on a page at an https
    /// address (each row checked with `new URL(input, "https://x.example/sub/")` in Node 18):
    /// the text written for it, its scheme and the host it reaches, or a refusal.
    @Test func urlsAreReadAsBrowsersReadThem() {
        // (input, written as, scheme, host)
        let read: [(String, String, String?, String?)] = [
            ("//a", "//a", nil, "a"),
            ("///a", "//a", nil, "a"),
            ("\\\\a", "//a", nil, "a"),
            ("/\\a", "//a", nil, "a"),
            ("\\/a", "//a", nil, "a"),
            (" //a", "//a", nil, "a"),
            ("/\t/a", "//a", nil, "a"),
            ("\n//a/x\n", "//a/x", nil, "a"),
            ("///evil.example/x", "//evil.example/x", nil, "evil.example"),
            ("//a\\b/c", "//a/b/c", nil, "a"),
            ("\\\\\\\\a\\b?x\\y#z\\w", "//a/b?x\\y#z\\w", nil, "a"),
            ("https:\\\\a", "https://a", "https", "a"),
            ("HTTPS:///a/x", "HTTPS://a/x", "https", "a"),
            ("https://u@a/x", "https://u@a/x", "https", "a"),
            ("https://evil.example\\@good.example/", "https://evil.example/@good.example/", "https", "evil.example"),
            ("http://user:pw@host.test:8080/p?q#f", "http://user:pw@host.test:8080/p?q#f", "http", "host.test:8080"),
            ("https://a@b@c/d", "https://a@b@c/d", "https", "c"),
            ("java\nscript:alert(1)", "javascript:alert(1)", "javascript", nil),
            ("JAVASCRIPT:alert(1)", "JAVASCRIPT:alert(1)", "javascript", nil),
            ("mailto:x@y", "mailto:x@y", "mailto", nil),
            ("myapp://hours", "myapp://hours", "myapp", "hours"),
            ("myapp:///hours", "myapp:///hours", "myapp", nil),
            ("/about.html", "/about.html", nil, nil),
            ("images\\a.png", "images/a.png", nil, nil),
            ("\\x", "/x", nil, nil),
            ("#f", "#f", nil, nil),
            ("?q", "?q", nil, nil),
        ]
        for (input, text, scheme, host) in read {
            #expect(URLCheck.read(input) == .success(URLCheck.BrowserURL(text: text, scheme: scheme, host: host)), "\(input.debugDescription)")
        }
        // An http(s) URL without a host, or one read as a path on an https page and as a host on
        // an http one ("https:/x" is https://x.example/x there and https://x/ here).
        for refused in ["", " \t", "https:", "https:/x", "https:javascript:x", "https://", "///", "//@/x", "https://@/x", "http://a@/x", "&#106;avascript:x"] {
            guard case .failure = URLCheck.read(refused) else {
                Issue.record("\(refused.debugDescription) is read")
                continue
            }
        }
        // What is written for a URL reads the same again, and a host never holds a delimiter.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(":/\\@?#ab é\t".unicodeScalars)
        for _ in 0..<2000 {
            let url = String(String.UnicodeScalarView((0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
            guard case .success(let first) = URLCheck.read(url) else { continue }
            #expect(URLCheck.read(first.text) == .success(first), "\(url.debugDescription)")
            #expect(!(first.host ?? "").contains { "/?#@".contains($0) || (first.scheme == nil && $0 == "\\") }, "\(url.debugDescription)")
        }
    }

    /// A feed says where a page's link goes as the page's browser does: against the site's root,
    /// which every page's `<base href>` names (each row checked with Node 18's `new URL(href, root)`).
    @Test func feedURLsResolveAsOnTheSitesPages() {
        let rows: [(href: String, root: String, absolute: String)] = [
            ("/about.html", "https://x.example/news/", "https://x.example/about.html"),
            ("about.html", "https://x.example/news/", "https://x.example/news/about.html"),
            ("assets/images/a.png", "https://x.example/news/", "https://x.example/news/assets/images/a.png"),
            ("#card-x", "https://x.example/news/", "https://x.example/news/#card-x"),
            ("?q", "https://x.example/news/", "https://x.example/news/?q"),
            ("//cdn.example/x", "https://x.example/news/", "https://cdn.example/x"),
            ("///cdn.example/x", "https://x.example/news/", "https://cdn.example/x"),
            ("https://other.example/y", "https://x.example/news/", "https://other.example/y"),
            ("mailto:x@y", "https://x.example/news/", "mailto:x@y"),
            ("/about.html", "http://x.example:8080/a/b/", "http://x.example:8080/about.html"),
            ("//cdn.example/x", "http://x.example:8080/a/b/", "http://cdn.example/x"),
            ("news/index.html#card-a", "http://x.example:8080/a/b/", "http://x.example:8080/a/b/news/index.html#card-a"),
            ("/about.html", "https://x.example/", "https://x.example/about.html"),
        ]
        for row in rows {
            #expect(URLCheck.resolve(row.href, against: row.root) == row.absolute, "\(row.href) on \(row.root)")
        }
    }

    @Test func schemes() {
        #expect(URLCheck.scheme(of: "HTTPS://example.com/x:y") == "https")
        #expect(URLCheck.scheme(of: "a+b-c.d9:x") == "a+b-c.d9")
        #expect(URLCheck.scheme(of: "javascript:\u{301}alert(1)") == "javascript")
        for noScheme in ["1http://x", ":x", "images/a:b.png", "jav\u{e9}script:x", "java script:x", "", "no-colon"] {
            #expect(URLCheck.scheme(of: noScheme) == nil, "\(noScheme)")
        }
        #expect(URLCheck.check("javascript:\u{301}alert(1)", allowedSchemes: URLCheck.linkSchemes) != .relative("javascript:\u{301}alert(1)"))
    }

    @Test func forbiddenCharactersAreDroppedFromEscapedText() {
        func escape(_ text: String) -> String { HTMLEscaping.escape(text) }
        // Swift string literals cannot spell noncharacters, so they are built from scalars.
        let noncharacters = [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF].map { String(Character(Unicode.Scalar($0)!)) }
        #expect(escape("a\u{1}b\u{8}c\u{B}d\u{7F}e\u{85}f\u{9F}g" + noncharacters.joined(separator: "-") + "h") == "abcdefg-----h")
        #expect(escape("tab\tline\nff\u{C}cr\r") == "tab\tline\nff\u{C}cr\r", "HTML's own white space stays")
        #expect(escape("<\u{0}\"'&>") == "&lt;&quot;&#39;&amp;&gt;")
        #expect(escape("© « » € 😀 \u{FEFF} \u{2028} \u{FFFD} \u{FDCF} \u{FDF0} \u{1F600}") == "© « » € 😀 \u{FEFF} \u{2028} \u{FFFD} \u{FDCF} \u{FDF0} \u{1F600}")
        #expect(escape("plain text") == "plain text")
    }

    @Test func markdownDropsForbiddenCharacters() {
        #expect(Markdown.html("a\u{1}b" + String(Character(Unicode.Scalar(0xFFFF)!))) == "<p>ab</p>\n")
    }

    /// cmark decodes character references after the source was cleaned: what they decode to
    /// that HTML forbids is dropped from the page (`&#0;` is U+FFFD, as cmark writes it), and
    /// the description's warning says so.
    @Test func characterReferencesToForbiddenCharactersAreDropped() {
        let markdown = "a&#1;b&#x7F;c&#x85;d&#xFDD0;e&#xFFFE;f&#x10FFFF;g&#0;h [l&#2;](https://x.test \"t&#3;\") ![i&#x1FFFF;](https://x.test/i.png) `&#1;`"
        #expect(Markdown.html(markdown) == "<p>abcde\u{FFFD}fg\u{FFFD}h <a href=\"https://x.test\" title=\"t\">l</a> <img src=\"https://x.test/i.png\" alt=\"i\" /> <code>&amp;#1;</code></p>\n")
        #expect(Markdown.markupChanges(markdown, linkSchemes: URLCheck.linkSchemes) == ["a character reference to a character HTML forbids (a control character or noncharacter) is dropped"])
        #expect(Markdown.markupChanges("&#169; &#x1F600; &amp;", linkSchemes: URLCheck.linkSchemes).isEmpty)
        #expect(Markdown.html("&#169;") == "<p>©</p>\n")
        // Found after other ampersands, and not confused by one at the very end.
        #expect(Markdown.html("Tom & Jerry &amp; &&#1;x &") == "<p>Tom &amp; Jerry &amp; &amp;x &amp;</p>\n")
        #expect(Markdown.html("é&") == "<p>é&amp;</p>\n")
    }

    @Test("a refused link in a description keeps its text", arguments: [
        "[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x](< javascript:alert(1)>)", "[x](&#x6A;avascript:alert(1))",
        "[x](vbscript:msgbox(1))", "[x](data:text/html,x)", "[x](file:///etc/passwd)", "[x](hxtps://example.test)", "[x]()",
        "[x][r]\n\n[r]: javascript:alert(1)", "<javascript:alert(1)>",
    ])
    func refusedLinks(_ markdown: String) {
        let html = Markdown.html(markdown)
        #expect(!html.contains("<a"), "\(html)")
        #expect(!html.contains("href"), "\(html)")
    }

    @Test func allowedLinksStayLinksAndAppSchemesFollowTheSite() {
        #expect(Markdown.html("[a](https://x.test/?q=1&r=2) [b](mailto:a@x.test) [c](/page.html) [d](#card-x)")
            == "<p><a href=\"https://x.test/?q=1&amp;r=2\">a</a> <a href=\"mailto:a@x.test\">b</a> <a href=\"/page.html\">c</a> <a href=\"#card-x\">d</a></p>\n")
        #expect(Markdown.html("[open](brewline://hours)") == "<p>open</p>\n")
        #expect(Markdown.html("[open](brewline://hours)", linkSchemes: URLCheck.linkSchemes.union(["brewline"]))
            == "<p><a href=\"brewline://hours\">open</a></p>\n")
    }

    @Test func refusedImagesBecomeTheirAltText() {
        #expect(Markdown.html("![a *cat*](javascript:alert(1))") == "<p>a <em>cat</em></p>\n")
        #expect(Markdown.html("![svg](data:image/svg+xml;base64,PHN2Zz4=)") == "<p>svg</p>\n")
        #expect(Markdown.html("[![in](javascript:x)](javascript:y) after") == "<p>in after</p>\n")
        #expect(Markdown.html("![ok](https://x.test/a.png) ![png](data:image/png;base64,iVBO)")
            == "<p><img src=\"https://x.test/a.png\" alt=\"ok\" /> <img src=\"data:image/png;base64,iVBO\" alt=\"png\" /></p>\n")
    }

    @Test func rawHTMLIsKeptFromTheAllowlistOrShownAsText() {
        let html = Markdown.html("<script>alert(1)</script>\n\n<b onclick=\"x\">b</b> <img src=x onerror=alert(1)>")
        #expect(html == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n<p><b>b</b> &lt;img src=x onerror=alert(1)&gt;</p>\n")
        #expect(!html.contains("raw HTML omitted"))
    }
}
