import Foundation
import Testing
@testable import CardFeedBuild
@testable import CardFeedModel
@testable import CardFeedWrite


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

    @Test func aSecondBuildIntoTheSameOutputIsRefusedNamingTheFirst() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        #expect(site.build().succeeded)
        let before = try Self.tree(site.output)
        let first = try OutputTransaction(output: site.output)  // a build under way
        let second = site.build()
        #expect(!second.succeeded)
        #expect(second.diagnostics.contains("another cardfeed (process \(getpid())) is writing"))
        #expect(FileManager.default.fileExists(atPath: site.root.path + "/.public.cardfeed-lock"), "the refused build leaves the first's lock")
        #expect(!site.build().succeeded, "and so a third is refused too")
        first.abandon()
        #expect(try Self.tree(site.output) == before)
        #expect(site.build().succeeded, "the lock went with the first build")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == ["cards.json", "public"])
    }

    @Test func whatAKilledBuildLeftBesideTheOutputIsRemoved() throws {
        let site = try TempSite([
            "cards.json": Self.good,
            // Today's staging folder, and the names earlier versions staged under, whatever the PID.
            ".public.cardfeed-staging/index.html": "half a site",
            // Where Pagefind writes, with search.
            ".public.cardfeed-scratch/pagefind-entry.json": "half an index",
            ".public.cardfeed-new-4242/index.html": "half a site",
            ".public.cardfeed-old-99/index.html": "an old site",
            // Not a name a build makes: the user's.
            ".public.cardfeed-notes": "mine",
        ])
        defer { site.remove() }
        #expect(site.build().succeeded)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == [".public.cardfeed-notes", "cards.json", "public"])
    }

    @Test func anOutputLeftAsideByAKilledBuildComesBack() throws {
        // Killed between moving the old output aside and putting the new one in place (on a
        // file system that cannot exchange two names): the next build finds it and keeps its
        // hidden files.
        let site = try TempSite([
            "cards.json": Self.good,
            ".public.cardfeed-staging-old/\(SiteWriter.markerName)": SiteWriter.markerText,
            ".public.cardfeed-staging-old/.git/HEAD": "ref: refs/heads/gh-pages\n",
            ".public.cardfeed-staging-old/index.html": "the old site",
        ])
        defer { site.remove() }
        let report = site.build()
        #expect(report.succeeded)
        #expect(try site.read(".git/HEAD") == "ref: refs/heads/gh-pages\n")
        #expect(report.filesRemoved.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == ["cards.json", "public"])
    }

    @Test func anOutputThatIsASymbolicLinkIsReplacedThroughIt() throws {
        let site = try TempSite(["cards.json": Self.good, "real-public/.keep": ""])
        defer { site.remove() }
        try FileManager.default.createSymbolicLink(atPath: site.output.path, withDestinationPath: "real-public")
        #expect(site.build().succeeded)
        #expect(site.build().succeeded)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: site.output.path) == "real-public", "the link stays")
        #expect(site.exists("real-public/index.html") && site.exists("real-public/.keep"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).sorted() == ["cards.json", "public", "real-public"])
    }

    @Test func aSymbolicLinkInsideTheOutputIsNeverFollowed() throws {
        let site = try TempSite(["cards.json": Self.good, "elsewhere/keep.txt": "not the site's"])
        defer { site.remove() }
        #expect(site.build().succeeded)
        // public/uncategorized replaced by a link to a folder outside the output, holding a copy
        // of the page the build writes there (a rebuild would link an unchanged page from it).
        let feed = site.output.appendingPathComponent("uncategorized")
        let elsewhere = site.root.appendingPathComponent("elsewhere")
        try FileManager.default.copyItem(at: feed.appendingPathComponent("index.html"), to: elsewhere.appendingPathComponent("index.html"))
        try FileManager.default.removeItem(at: feed)
        try FileManager.default.createSymbolicLink(at: feed, withDestinationURL: elsewhere)
        let outside = try Self.tree(elsewhere)
        let inode = try Self.inode(elsewhere.appendingPathComponent("index.html"))
        #expect(site.build().succeeded)
        #expect(try Self.tree(elsewhere) == outside)
        #expect(try FileManager.default.attributesOfItem(atPath: feed.path)[.type] as? FileAttributeType == .typeDirectory)
        #expect(try Self.inode(feed.appendingPathComponent("index.html")) != inode, "written anew, not linked from outside")
    }

    @Test func hiddenFilesOfTheOutputAreKeptAcrossRebuilds() throws {
        let site = try TempSite(["cards.json": Self.good])
        defer { site.remove() }
        #expect(site.build().succeeded)
        try site.write("public/.git/HEAD", "ref: refs/heads/gh-pages\n")
        try site.write("public/.nojekyll", "")
        try site.write("public/uncategorized/.htaccess", "deny\n")
        try site.write("public/assets/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: site.output.path + "/.git/link", withDestinationPath: "/etc")
        let report = site.build()
        #expect(report.succeeded)
        #expect(report.filesRemoved.isEmpty)
        #expect(try site.read("uncategorized/.htaccess") == "deny\n", "in the feed's folder too")
        #expect(site.exists("public/assets/.keep"))
        #expect(try site.read(".git/HEAD") == "ref: refs/heads/gh-pages\n")
        #expect(site.exists("public/.nojekyll"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: site.output.path + "/.git/link") == "/etc", "kept as a link")
    }

    /// Every file of the output, by path, with its bytes.
    static func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in enumerator where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    static func inode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    static func cards(_ count: Int, newest: String = "n") -> String {
        "[" + (1...count).map { cardJSON(["id": "c\($0)", "type": "text_announcement", "created": $0, "description": $0 == count ? newest : "card \($0)"]) }.joined(separator: ",") + "]"
    }

    @Test func rebuildLeavesUnchangedFilesAlone() throws {
        let site = try TempSite(["cards.json": Self.cards(7)])
        defer { site.remove() }
        #expect(site.build(pageSize: 2).succeeded)
        let page3 = site.output.appendingPathComponent("page-c3.html")
        let inode = try Self.inode(page3)
        let before = try Self.tree(site.output)
        let again = site.build(pageSize: 2)
        #expect(again.filesWritten == 0 && again.filesUnchanged == before.count - 1)  // all but the marker
        #expect(try Self.inode(page3) == inode)
        #expect(try Self.tree(site.output) == before)
    }

    @Test func rebuildWritesWhatChangedAndRemovesWhatIsGone() throws {
        let site = try TempSite(["cards.json": Self.cards(7)])
        defer { site.remove() }
        #expect(site.build(pageSize: 2).succeeded)
        let page3 = site.output.appendingPathComponent("page-c3.html")
        let inode = try Self.inode(page3)
        // Leftovers of an interrupted build, and a folder where a page used to be.
        try site.write("public/.index.html.cardfeed-new-1", "half a page")
        try site.write("public/page/2/index.html", "old layout")

        // The newest card's text changes: it is on the front page of "all" and "uncategorized",
        // on the archive page it ends (c2, c3 and c7 end pages of two cards on average), and on
        // its own.
        try site.write("cards.json", Self.cards(7, newest: "changed"))
        let edited = site.build(pageSize: 2)
        #expect(edited.filesWritten == 5)
        #expect(edited.comparedWithPrevious)
        #expect(try Self.inode(page3) == inode)
        #expect(try site.read("index.html").contains("changed"))

        // Fewer cards: the last pages go. Then more, with longer and shorter pages than before.
        for (count, pageSize) in [(3, 2), (9, 2), (9, 4), (1, 4)] {
            try site.write("cards.json", Self.cards(count))
            #expect(site.build(pageSize: pageSize).succeeded)
            let fresh = try TempSite(["cards.json": Self.cards(count)])
            defer { fresh.remove() }
            #expect(fresh.build(pageSize: pageSize).succeeded)
            #expect(try Self.tree(site.output) == Self.tree(fresh.output), "\(count) cards, \(pageSize) a page")
        }
    }

    @Test func aRebuildThatFailsWhileWritingLeavesThePreviousOutput() throws {
        struct DiskFull: Error {}
        let site = try TempSite(["cards.json": Self.cards(5)])
        defer { site.remove() }
        #expect(site.build(pageSize: 2).succeeded)
        let before = try Self.tree(site.output)
        let files = [
            OutputFile(path: "page-2.html", content: .text("a changed page")),
            OutputFile(path: "extra/new.html", content: .text("a new page in a new folder")),
            OutputFile(path: "index.html", content: .stream { sink in
                try sink.write("a page that fails half way")
                throw DiskFull()
            }),
        ]
        let output = try OutputTransaction(output: site.output)
        #expect(throws: SiteWriter.Refusal.self) { try SiteWriter(output: site.output).write(files, to: output) }
        output.abandon()
        #expect(try Self.tree(site.output) == before)
        #expect(!site.exists("public/extra"))
    }

    @Test func folderWhereAPageGoesIsReplacedWithTheWholeOutput() throws {
        let site = try TempSite(["cards.json": Self.cards(3)])
        defer { site.remove() }
        #expect(site.build(pageSize: 2).succeeded)
        try FileManager.default.removeItem(at: site.output.appendingPathComponent("page-c2.html"))
        try site.write("public/page-c2.html/stray.txt", "in the way")
        #expect(site.build(pageSize: 2).succeeded)
        #expect(try site.read("page-c2.html").contains("data-card-id=\"c1\""))
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
            let options = BuildOptions(site: site.site, now: 0)
            #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, destination: .folder(output), logger: .quiet).run() }
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
        #expect(throws: BuildFailure.self) { try SiteBuilder(options: options, destination: .folder(options.site.defaultOutput), logger: .quiet).run() }
    }
}
