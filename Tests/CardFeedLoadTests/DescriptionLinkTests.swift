import CCmark
import Foundation
import Testing
@testable import CardFeedLoad
@testable import CardFeedModel


/// Bare addresses in a description become links, as GitHub's autolink extension makes them;
/// `links.new_tab` reaches the links of a description.
@Suite struct DescriptionLinkTests {
    @Test("a bare address is a link, its trailing punctuation left out", arguments: [
        ("See https://example.com/x.", #"<p>See <a href="https://example.com/x">https://example.com/x</a>.</p>"#),
        ("http://example.com, then", #"<p><a href="http://example.com">http://example.com</a>, then</p>"#),
        ("www.example.com/a?", #"<p><a href="http://www.example.com/a">www.example.com/a</a>?</p>"#),
        ("(www.example.com/a_(b)) x", #"<p>(<a href="http://www.example.com/a_(b)">www.example.com/a_(b)</a>) x</p>"#),
        ("https://example.com/a_b_c", #"<p><a href="https://example.com/a_b_c">https://example.com/a_b_c</a></p>"#),
        ("https://x.example/?a=1&b=2 &amp; more", #"<p><a href="https://x.example/?a=1&amp;b=2">https://x.example/?a=1&amp;b=2</a> &amp; more</p>"#),
        ("https://x.example/a; b", #"<p><a href="https://x.example/a">https://x.example/a</a>; b</p>"#),
        ("www.example", #"<p><a href="http://www.example">www.example</a></p>"#),
        ("HTTPS://X.example/Y!", #"<p><a href="HTTPS://X.example/Y">HTTPS://X.example/Y</a>!</p>"#),
        ("**https://x.example/b**", #"<p><strong><a href="https://x.example/b">https://x.example/b</a></strong></p>"#),
        ("two: https://a.example and www.b.example.", #"<p>two: <a href="https://a.example">https://a.example</a> and <a href="http://www.b.example">www.b.example</a>.</p>"#),
        ("https://x.example/<b>bold</b>", #"<p><a href="https://x.example/">https://x.example/</a><b>bold</b></p>"#),
    ])
    func bareAddressIsALink(markdown: String, html: String) {
        #expect(Markdown.html(markdown) == html + "\n")
    }

    @Test("no link where GitHub makes none", arguments: [
        "xhttps://example.com", "ftp-like: foo://example.com", "https://", "https://.example", "awww.example.com",
        "www.ex_ample.com", "mailto:a@example.com", "no address at all: a: b",
        "`https://code.example`", "```\nhttps://block.example\n```", "[https://label.example](https://target.example)",
        "![https://alt.example](https://x.example/i.png)", "<a href=\"https://x.example\">https://inside.example</a>",
        "<div>https://raw.example</div>", "<img src=\"https://raw.example/i.png\">",
    ])
    func noLink(markdown: String) {
        let html = Markdown.html(markdown)
        for url in ["code.example", "block.example", "label.example", "alt.example", "inside.example", "raw.example"] {
            #expect(!html.contains("href=\"https://\(url)"), "\(markdown) -> \(html)")
        }
        if !markdown.contains("](") && !markdown.contains("<a ") {
            #expect(!html.contains("<a "), "\(markdown) -> \(html)")
        }
    }

    /// The links made are Markdown links: the page writes them as the ones a description has.
    @Test func madeLinksGoThroughTheLinkChecks() {
        // A backslash is a slash to browsers, and the link is written so.
        #expect(Markdown.html("https://x.example\\y") == #"<p><a href="https://x.example/y">https://x.example\y</a></p>"# + "\n")
        // Neither the warnings nor the text change: an address is kept, as text and as a link.
        #expect(Markdown.linkProblems("see https://x.example\\y", linkSchemes: URLCheck.linkSchemes, assets: .listed([])).isEmpty)
        #expect(Markdown.text("see https://x.example/a_b and www.y.example", linkSchemes: URLCheck.linkSchemes) == "see https://x.example/a_b and www.y.example")
    }

    /// A description whose only addresses are links' is not walked at all.
    @Test func quickTest() {
        for markdown in ["Plain text: with a colon, w and ww.", "[a](https://x.example) [b](http://y.example/www.z)", "<https://x.example>",
                         "[a](www.x.example)", "ftp://x.example", "xwww.example", "a/www.example", "mailto:x@www.example", "xhttps://x"] {
            #expect(!BareURLs.mayHold(markdown), "\(markdown)")
        }
        for markdown in ["a https://x", "HTTP://x", "[a](https://x.example) https://y", "www.x", "é www.", "(www.x)", "*www.x*", "a\nwww.x"] {
            #expect(BareURLs.mayHold(markdown), "\(markdown)")
        }
        // Whatever the quick test lets through, a link is made only where the rules find one.
        #expect(!Markdown.html("xhttps://x.example").contains("<a "))
    }

    @Test func newTabReachesEveryLinkOfTheDescription() {
        var links = LinkPolicy()
        links.newTab = ["partner.example"]
        let html = Markdown.html(
            "[a](https://partner.example/a \"T & <t>\") [b](https://other.example/b) https://partner.example/c <a href=\"https://partner.example/d\">d</a> <a href=\"https://other.example/e\">e</a> [**f** ![i](https://partner.example/i.png)](https://partner.example/f)",
            linkSchemes: URLCheck.linkSchemes, opensInNewTab: links.opensInNewTab)
        #expect(html == """
            <p><a href="https://partner.example/a" title="T &amp; &lt;t&gt;" target="_blank" rel="noopener">a</a> <a href="https://other.example/b">b</a> \
            <a href="https://partner.example/c" target="_blank" rel="noopener">https://partner.example/c</a> \
            <a href="https://partner.example/d" target="_blank" rel="noopener">d</a> <a href="https://other.example/e">e</a> \
            <a href="https://partner.example/f" target="_blank" rel="noopener"><strong>f</strong> <img src="https://partner.example/i.png" alt="i" /></a></p>

            """)
    }

    /// A link that opens in a new tab is written by CardFeed, not cmark: byte for byte as cmark
    /// writes its href and title.
    @Test func newTabLinksAreWrittenAsCmarkWritesLinks() {
        let printable = (0x21...0x7E).map { String(UnicodeScalar(UInt8($0))) }.joined()
        for url in ["https://x.example/" + printable.replacingOccurrences(of: ")", with: "").replacingOccurrences(of: "<", with: "").replacingOccurrences(of: ">", with: "").replacingOccurrences(of: "\\", with: ""),
                    "https://x.example/é?q=ü&r='s'#f", "https://x.example/%41%zz"] {
            let markdown = "[a](<\(url)> \"t\")"
            let written = Markdown.html(markdown, linkSchemes: URLCheck.linkSchemes, opensInNewTab: { _ in true })
            let plain = Markdown.html(markdown)
            #expect(written == plain.replacingOccurrences(of: "\">a</a>", with: "\" target=\"_blank\" rel=\"noopener\">a</a>"), "\(url)")
            #expect(plain.contains("<a href="), "\(url): \(plain)")
        }
        #expect(Markdown.escapedTitle("a \"b\" & <c> 'd'") == "a &quot;b&quot; &amp; &lt;c&gt; 'd'")
        let title = "a \"b\" & <c> 'd' é"
        let cmark = Markdown.html("[x](https://x.example \"\(title.replacingOccurrences(of: "\"", with: "\\\""))\")")
        #expect(cmark.contains("title=\"\(Markdown.escapedTitle(title))\""), "\(cmark)")
    }
}
