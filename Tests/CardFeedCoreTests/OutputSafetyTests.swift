import Foundation
import Testing

@testable import CardFeedCore

/// A failed build leaves the previous output as it was; a folder cardfeed did not write is never emptied.
@Suite struct OutputSafetyTests {
    static let good = cardJSON(["id": "a", "type": "text_announcement", "created": 1, "description": "first"])

    @Test func failedBuildLeavesThePreviousOutput() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let before = try site.read("index.html")
        try site.write("cards.json", "[{\"id\": \"a\",")
        let report = site.build()
        #expect(!report.succeeded)
        #expect(report.diagnostics.contains("cards.json:1:", "invalid JSON: the file ends inside an object"))
        #expect(try site.read("index.html") == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("cardfeed-new") || $0.contains("cardfeed-old") }
        #expect(leftovers.isEmpty)
    }

    @Test func strictTurnsWarningsIntoErrors() throws {
        let site = try TempSite(["cards.json": cardJSON(["id": "a", "type": "nonsense", "created": 1])])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let strict = site.build(strict: true)
        #expect(!strict.succeeded)
        #expect(strict.diagnostics.errors.first?.description.contains("unknown type \"nonsense\"") == true)
    }

    @Test func rebuildReplacesItsOwnOutput() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        #expect(site.build().succeeded)
        try site.write("cards.json", cardJSON(["id": "b", "type": "text_announcement", "created": 1, "description": "second"]))
        #expect(site.build().succeeded)
        #expect(try site.read("index.html").contains("second"))
        #expect(!(try site.read("index.html").contains("first")))
    }

    @Test func foreignFolderIsNeverEmptied() throws {
        let site = try TempSite(["cards.json": Self.good, "public/precious.txt": "keep me"])
        defer { site.remove() }
        let report = site.build()
        #expect(!report.succeeded)
        #expect(report.diagnostics.contains("holds files that cardfeed did not write"))
        #expect(try site.read("precious.txt") == "keep me")
    }

    @Test func outputThatContainsTheSiteIsRefused() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        for output in [site.root, site.root.deletingLastPathComponent(), site.root.appendingPathComponent("assets/out")] {
            let options = BuildOptions(site: site.site, output: output, now: 0)
            #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, logger: .quiet).run() }
        }
        #expect(site.exists("cards.json"))
    }

    @Test func checkWritesNothing() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        let report = site.build(write: false)
        #expect(report.succeeded)
        #expect(report.pagesRendered == 6)
        #expect(!site.exists("public"))
    }

    @Test func missingSiteIsAnError() {
        let options = BuildOptions(site: SiteFolder("/nonexistent/cardfeed-site"), now: 0)
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, logger: .quiet).run() }
    }
}
