import Testing
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
}
