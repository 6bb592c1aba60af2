import CardFeedCore
import Foundation
import Testing

@testable import CardFeedServe

struct SiteWatcherTests {
    @Test func seesEditsAdditionsAndRemovalsOfWatchedFilesOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cards"), withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: root.appendingPathComponent("cards.json"))
        let watcher = SiteWatcher(site: SiteFolder(root.path))
        let before = watcher.snapshot()
        #expect(Set(before.keys) == ["cards.json"])

        try Data("[ ]".utf8).write(to: root.appendingPathComponent("cards.json"))
        try Data("{}".utf8).write(to: root.appendingPathComponent("cards/more.json"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("templates/page.mustache"))
        try Data("x".utf8).write(to: root.appendingPathComponent("cardfeed.yml"))
        // Not inputs: the output, editor swap files, anything else at the top.
        try FileManager.default.createDirectory(at: root.appendingPathComponent("public"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("public/index.html"))
        try Data("x".utf8).write(to: root.appendingPathComponent("cards/.more.json.swp"))
        try Data("x".utf8).write(to: root.appendingPathComponent("notes.txt"))
        let after = watcher.snapshot()
        #expect(SiteWatcher.difference(before, after) == ["cards.json", "cards/more.json", "templates/page.mustache", "cardfeed.yml"])

        try FileManager.default.removeItem(at: root.appendingPathComponent("cards/more.json"))
        #expect(SiteWatcher.difference(after, watcher.snapshot()) == ["cards/more.json"])
    }

    @Test func coalescesABurstOfChangesIntoOne() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cards"), withIntermediateDirectories: true)
        let watcher = SiteWatcher(site: SiteFolder(root.path), interval: .milliseconds(50), settle: .milliseconds(80))
        let changes = watcher.changes()
        try await Task.sleep(for: .milliseconds(120))
        for index in 0..<5 {
            try Data("[\(index)]".utf8).write(to: root.appendingPathComponent("cards/c\(index).json"))
            try await Task.sleep(for: .milliseconds(20))
        }
        var iterator = changes.makeAsyncIterator()
        _ = await iterator.next()
        try await Task.sleep(for: .milliseconds(300))
        #expect(watcher.takeChanges() == (0..<5).map { "cards/c\($0).json" })
        #expect(watcher.takeChanges().isEmpty)
    }
}
