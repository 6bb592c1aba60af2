import Testing
import CardFeedMustache
@testable import CardFeedLoad
@testable import CardFeedModel
@testable import CardFeedRender


/// The Atom and JSON feeds' entries, made from the same rendered descriptions as the pages.
@Suite struct SyndicationTests {
    /// Feed readers know no `<base href>`: every address becomes what the site's page makes of it
    /// (a root-relative one on the base URL's host, a scheme-relative one with its scheme), and
    /// text is never touched.
    @Test func feedsMakeADescriptionsAddressesAbsolute() throws {
        let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
        let syndication = Syndication(baseURL: "https://x.test/n/", settings: try TemplateLinterTests.settings(), templates: templates)
        let html = "<p><a href=\"assets/a.pdf\">a</a> <a href=\"/b.html\">b</a> <a href=\"https://y.test/c\">c</a> "
            + "<a href=\"//z.test/d\">d</a> <img src=\"assets/images/e.png\" alt=\"e\" /> text with src=&quot;f&quot;</p>\n"
        #expect(syndication.absoluteURLs(html) == "<p><a href=\"https://x.test/n/assets/a.pdf\">a</a> <a href=\"https://x.test/b.html\">b</a> "
            + "<a href=\"https://y.test/c\">c</a> <a href=\"https://z.test/d\">d</a> <img src=\"https://x.test/n/assets/images/e.png\" alt=\"e\" /> "
            + "text with src=&quot;f&quot;</p>\n")
        #expect(syndication.absoluteURLs("<p>no links</p>\n") == "<p>no links</p>\n")
    }

    /// Every format declares its escaping, and its template escapes `{{name}}` for it: llms.txt
    /// writes text as typed, the sitemap for XML, a page for HTML.
    @Test func eachFormatsTemplateEscapesForItsOwnLanguage() throws {
        #expect(OutputFormat.llmsText.escaping == .text && OutputFormat.sitemap.escaping == .xml)
        #expect(TemplateSet.escaping(forTemplate: "llms.txt") == .text)
        #expect(TemplateSet.escaping(forTemplate: "sitemap.xml") == .xml)
        #expect(TemplateSet.escaping(forTemplate: "feed_entry") == .html, "a template of no format writes HTML")
        func escaped(_ escaping: OutputFormat.Escaping, _ text: String) -> String {
            var out = MustacheBytes()
            escaping.append(text.utf8.span, &out)
            return out.string
        }
        #expect(escaped(.text, "a < b & *c* 'd'") == "a < b & *c* 'd'")
        #expect(escaped(.json, "say \"hi\"\\\n\u{1}") == #"say \"hi\"\\\n\u0001"#)
        #expect(escaped(.xml, "a < b & 'c'") == "a &lt; b &amp; &apos;c&apos;")
        #expect(escaped(.html, "a < b & 'c'") == "a &lt; b &amp; &#39;c&#39;")
    }

    /// A template a format names that is not there is an error, never an empty file.
    @Test func aMissingTemplateIsAnErrorNotAnEmptyFile() throws {
        let templates = try #require(TemplateSet.load(site: SiteFolder("/nonexistent"), diagnostics: &Diagnostics.scratch))
        let syndication = Syndication(baseURL: "https://x.test/", settings: try TemplateLinterTests.settings(), templates: templates)
        var bytes = MustacheBytes()
        let view = SitemapView([], trees: [], syndication: syndication)
        #expect(throws: TemplateFailure.self) { try templates.render("no_such_format", view, onto: &bytes) }
        #expect(bytes.string.isEmpty)
        try templates.render(OutputFormat.llmsText.template!, view, onto: &bytes)
        #expect(bytes.string.hasPrefix("# "))
    }
}
