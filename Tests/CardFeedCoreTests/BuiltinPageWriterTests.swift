import Foundation
import Testing

@testable import CardFeedCore

/// `BuiltinPageWriter` (and `BuiltinCardWriter`) must write exactly what the built-in Mustache
/// templates render. A site whose templates/ holds an identical copy of every built-in is
/// rendered by Mustache alone, so its pages must equal those of the same site without them.
@Suite(.serialized) struct BuiltinPageWriterTests {
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
        let options = BuildOptions(site: SiteFolder(site.path), output: output, now: 1_795_000_000, pageSize: pageSize, locale: locale, contentSecurityPolicy: csp)
        _ = try SiteBuilder(options: options, logger: .quiet).run()
        return output
    }

    @Test("identical to Mustache", arguments: [("site", 4, "en", false), ("site", 0, "fr", true), ("golden", 3, "de", false), ("golden", 20, "en", true)])
    func identicalToMustache(_ siteName: String, _ pageSize: Int, _ locale: String, _ csp: Bool) throws {
        let source = siteName == "site" ? Self.repository.appendingPathComponent("site") : Paths.goldenSite
        let mustacheSite = try Self.copyWithEveryTemplateOverridden(source)
        let fast = try Self.build(source, pageSize: pageSize, locale: locale, csp: csp)
        let reference = try Self.build(mustacheSite, pageSize: pageSize, locale: locale, csp: csp)
        defer {
            for folder in [mustacheSite, fast, reference] { try? FileManager.default.removeItem(at: folder) }
        }
        let pages = SiteFolder.files(under: fast).filter { $0.hasSuffix(".html") }
        #expect(pages.count >= 6)
        #expect(pages == SiteFolder.files(under: reference).filter { $0.hasSuffix(".html") })
        for page in pages {
            let a = try String(contentsOf: fast.appendingPathComponent(page), encoding: .utf8)
            #expect(a.contains("<meta http-equiv=\"Content-Security-Policy\"") == csp)
            let b = try String(contentsOf: reference.appendingPathComponent(page), encoding: .utf8)
            #expect(a == b, "\(page) differs between the Swift writers and Mustache")
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

    @Test func aPageTemplateThatNumbersItsCardsIsRenderedWhole() throws {
        let site = try TempSite([
            "cards.json": "[" + (1...4).map { cardJSON(["id": "c\($0)", "type": "text_announcement", "created": $0, "description": "d"]) }.joined(separator: ",") + "]",
            "templates/page.mustache": "{{#cards}}[{{#first()}}first{{/first()}}{{#last()}}last{{/last()}}]{{/cards}}\n",
        ])
        defer { site.remove() }
        #expect(site.build(pageSize: 0).succeeded)
        let page = try site.read("index.html")
        #expect(page.hasPrefix("[first]"))
        #expect(page.hasSuffix("[last]\n"))
        #expect(page.components(separatedBy: "[]").count == 3, "the two middle cards have neither mark")
    }
}
