import Foundation
import Testing

@testable import CardFeedCore

/// Text and Markdown from untrusted cards: what HTML cannot hold is dropped, and links and images
/// in descriptions follow the same rules as a card's own link and image.
@Suite struct HostileInputTests {
    /// A URL's scheme as a browser reads it: ASCII letters, digits, `+ - .` before the first
    /// colon, starting with a letter, lower-cased; a combining mark after the colon does not
    /// hide it.
    /// The byte scan for a URL's host agrees with the way it was found through Foundation.
    @Test func hosts() {
        func reference(_ url: String) -> String? {
            guard let range = url.range(of: "://") else { return nil }
            let host = url[range.upperBound...].prefix { !"/?#".contains($0) }
            return host.isEmpty ? nil : String(host.split(separator: "@").last ?? host)
        }
        let urls = ["https://www.example.com/x", "http://user:pw@host.test:8080/p?q#f", "https://", "https:///x", "http://@@/x",
                    "http://a@/x", "mailto:x@y", "https://h?x=1", "https://h#f", "x://ü.test/ä", "no scheme", "https:javascript:x",
                    "https://a@b@c/d", "://x", "a://b://c"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(":/@?#abé".unicodeScalars)
        let random = (0..<500).map { _ in String(String.UnicodeScalarView((0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })) }
        for url in urls + random {
            #expect(URLCheck.host(of: url) == reference(url), "\(url)")
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
