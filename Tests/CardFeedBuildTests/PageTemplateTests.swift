import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedModel


/// Page templates: the built-in one, a site's copy of it, and a site's own.
@Suite(.serialized) struct PageTemplateTests {
    static let repository = Paths.tests.deletingLastPathComponent().deletingLastPathComponent()

    /// A copy of `source` whose templates/ overrides every built-in with its own text.
    static func copyWithEveryTemplateOverridden(_ source: URL) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-mustache-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: copy)
        try? FileManager.default.removeItem(at: copy.appendingPathComponent("public"))
        for (name, text) in BuiltinFiles.templates {
            let file = copy.appendingPathComponent("templates/\(name).mustache")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return copy
    }

    static func build(_ site: URL, pageSize: Int, locale: String?, csp: Bool = false) throws -> URL {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cardfeed-out-\(UUID().uuidString)")
        let options = BuildOptions(site: SiteFolder(site.path), now: 1_795_000_000, pageSize: pageSize, locale: locale, contentSecurityPolicy: csp)
        _ = try SiteBuilder(options: options, destination: .folder(output), logger: .quiet).run()
        return output
    }

    /// An ejected copy of every built-in template is the built-in template: the same pages.
    @Test(arguments: [("site", 4, "en", false), ("golden", 0, "fr", true)])
    func copiesOfTheBuiltinTemplatesGiveTheSamePages(_ siteName: String, _ pageSize: Int, _ locale: String, _ csp: Bool) throws {
        let source = siteName == "site" ? Self.repository.appendingPathComponent("site") : Paths.goldenSite
        let copySite = try Self.copyWithEveryTemplateOverridden(source)
        let builtin = try Self.build(source, pageSize: pageSize, locale: locale, csp: csp)
        let copied = try Self.build(copySite, pageSize: pageSize, locale: locale, csp: csp)
        defer {
            for folder in [copySite, builtin, copied] { try? FileManager.default.removeItem(at: folder) }
        }
        let pages = SiteFolder.files(under: builtin).filter { $0.hasSuffix(".html") }
        #expect(pages.count >= 6)
        #expect(pages == SiteFolder.files(under: copied).filter { $0.hasSuffix(".html") })
        for page in pages {
            let a = try String(contentsOf: builtin.appendingPathComponent(page), encoding: .utf8)
            #expect(a.contains("<meta http-equiv=\"Content-Security-Policy\"") == csp)
            #expect(a == (try String(contentsOf: copied.appendingPathComponent(page), encoding: .utf8)), "\(page)")
        }
    }

    @Test func aCustomPageTemplateIsStreamedAroundItsCards() throws {
        let site = try TempSite([
            "cards.json": "[" + (1...5).map { cardJSON(["id": "c\($0)", "type": "text_announcement", "created": $0, "description": "d"]) }.joined(separator: ",") + "]",
            "templates/page.mustache": "<html><body><ul>{{#cards}}<li>{{{.}}}</li>{{/cards}}</ul>{{^cards}}empty{{/cards}}</body></html>\n",
        ])
        defer { site.remove() }
        #expect(site.build(pageSize: 0).succeeded)
        let page = try site.read("index.html")
        #expect(page.hasPrefix("<html><body><ul><li><article"))
        #expect(page.components(separatedBy: "</article>\n</li><li><article").count == 5)
        #expect(try site.read("social/index.html") == "<html><body><ul></ul>empty</body></html>\n")
    }

    /// A page template may show its cards more than once, each time through its own section.
    @Test func aPageTemplateThatShowsItsCardsTwice() throws {
        let site = try TempSite([
            "cards.json": "[" + (1...4).map { cardJSON(["id": "c\($0)", "type": "text_announcement", "created": $0, "title": "T\($0)", "description": "d"]) }.joined(separator: ",") + "]",
            "templates/page.mustache": "<ol>{{#cards}}<li>{{feed.title}}</li>{{/cards}}</ol>\n{{#cards}}{{{.}}}{{/cards}}\n",
        ])
        defer { site.remove() }
        // Two cards a page on average: c2 and c3 end pages, the front page shows c4 and c3.
        for (pageSize, path, shown) in [(0, "index.html", 4), (2, "index.html", 2), (2, "page-c2.html", 2)] {
            #expect(site.build(pageSize: pageSize).succeeded)
            let page = try site.read(path)
            #expect(page.hasPrefix("<ol>" + String(repeating: "<li>All</li>", count: shown) + "</ol>"), "\(pageSize) \(path)")
            #expect(page.components(separatedBy: "<article").count == shown + 1, "\(pageSize) \(path)")
        }
    }
}
